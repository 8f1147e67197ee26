"""Which language a reply is in, from what the platforms tell (issue 33, DESIGN 9.2 and 10.5).

/lang wins; then the message's own words; then the platform's hint (a pt*/en* language
code, a WhatsApp number in a Portuguese-speaking country); then DEFAULT_LANGUAGE. A
language code that is neither, or a number from elsewhere, says nothing: it no longer
means Portuguese.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from agent.conversation.runtime import Runtime
from agent.texts import text
from agent.types import Incoming, Reply
from tests.bot.conftest import Harness
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import message_update

OFFLINE = {"openai_api_key": None, "openai_base_url": None, "tmdb_api_key": None}
ISRAEL, BRAZIL, PORTUGAL = "972501234567", "5511933330000", "351912345678"
HELP_PT, HELP_EN = text("help", "pt"), text("help", "en")


@asynccontextmanager
async def lembra(harness: Any, **overrides: Any) -> AsyncIterator[Harness]:
    runtimes: list[Runtime] = []

    async def handle(incoming: Incoming) -> Reply:
        return await runtimes[0].handle(incoming)

    async with harness(handler=handle, **(OFFLINE | overrides)) as h:
        runtimes.append(Runtime(h.deps))
        yield h


async def tg(h: Harness, chat: int, message: str, *, language: str) -> str:
    await h.post_update(message_update(chat, message, language=language))
    await h.idle()
    return h.tg.texts(chat)[-1]


async def whatsapp(h: Harness, phone: str, message: str) -> str:
    await h.post_whatsapp(wa.message_payload(phone, wa.text_content(message)))
    await h.idle()
    return h.wa.bodies(phone)[-1]


async def test_an_italian_telegram_user_is_answered_in_the_words_language_then_the_default(
    harness: Any,
) -> None:
    async with lembra(harness, default_language="en") as h:
        # a command has no language of its own: the default decides, not Portuguese
        assert (await tg(h, 5557001, "/help", language="it")).startswith(HELP_EN)
        # the words decide over any hint
        assert (await tg(h, 5557002, "me ajuda por favor", language="it")).startswith(HELP_PT)
    async with lembra(harness) as h:
        reply = await tg(h, 5557003, "hello! what can you do?", language="it")
        assert reply.startswith(HELP_EN), reply
        assert (await tg(h, 5557004, "/help", language="pt-br")).startswith(HELP_PT)


async def test_a_whatsapp_number_hints_portuguese_only_in_portuguese_speaking_countries(
    harness: Any,
) -> None:
    async with lembra(harness, default_language="en") as h:
        assert (await whatsapp(h, BRAZIL, "/help")).startswith(HELP_PT)
        assert (await whatsapp(h, PORTUGAL, "/help")).startswith(HELP_PT)
        assert (await whatsapp(h, ISRAEL, "/help")).startswith(HELP_EN)
    async with lembra(harness) as h:
        israel = await whatsapp(h, ISRAEL, "hello! what can you do?")
        assert israel.startswith(HELP_EN), israel
        # nothing says which: DEFAULT_LANGUAGE (pt here), never a guess from the number
        assert (await whatsapp(h, "14155550123", "/help")).startswith(HELP_PT)


async def test_lang_wins_over_every_hint(harness: Any) -> None:
    async with lembra(harness) as h:
        await whatsapp(h, BRAZIL, "/lang en")
        assert (await whatsapp(h, BRAZIL, "me ajuda por favor")).startswith(HELP_EN)
