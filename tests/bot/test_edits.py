"""Edits as corrections, the same on both channels (issue 33, DESIGN 10.5).

A user edits a message whose turn saved an item, within EDIT_WINDOW_SECONDS: the item
takes the new words through `update_item` ("✏️ Corrigi: ..."), one `item_updated`
event, undone by «desfaz». Any other edit, and a revoke, is silent: no reply, nothing
stored changes, one log line without the text. Telegram `edited_message` and WhatsApp
`edit` are posted through the real webhooks to the real runtime (offline planner).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from agent.clock import FakeClock
from agent.conversation.runtime import Runtime
from agent.types import Incoming, Reply
from tests.bot.conftest import Harness, events, json_logs
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import message_update

CHAT = 5554001
PHONE = "5511944440000"
OFFLINE = {"openai_api_key": None, "openai_base_url": None, "tmdb_api_key": None}
_message_ids = itertools.count(700)


@asynccontextmanager
async def lembra(harness: Any, **overrides: Any) -> AsyncIterator[tuple[Harness, FakeClock]]:
    """The app with the real runtime behind it, on a clock the test moves."""
    clock = FakeClock(datetime.now(UTC))
    runtimes: list[Runtime] = []

    async def handle(incoming: Incoming) -> Reply:
        return await runtimes[0].handle(incoming)

    async with harness(handler=handle, clock=clock, **(OFFLINE | overrides)) as h:
        runtimes.append(Runtime(h.deps))
        yield h, clock


async def tg_say(h: Harness, text: str) -> int:
    """Post a message with its own message id; return that id."""
    message_id = next(_message_ids)
    await h.post_update(message_update(CHAT, text, extra={"message_id": message_id}))
    await h.idle()
    return message_id


def tg_edit(message_id: int, text: str) -> dict[str, Any]:
    update = message_update(CHAT, text, extra={"message_id": message_id})
    message = update.pop("message")
    return update | {"edited_message": message | {"edit_date": message["date"] + 30}}


async def wa_say(h: Harness, text: str) -> str:
    wamid = wa.new_wamid()
    await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content(text), wamid=wamid))
    await h.idle()
    return wamid


def wa_edit(original: str, text: str) -> dict[str, Any]:
    content = {
        "type": "edit",
        "edit": {
            "original_message_id": original,
            "message": {"type": "text", "text": {"body": text}},
        },
    }
    return wa.message_payload(PHONE, content)


async def ledger_types(h: Harness, user: str) -> list[str]:
    return [e.type for e in await h.db.ledger.events_in(user, 0, int(time.time() * 1000) + 10**9)]


async def test_a_telegram_edit_corrects_the_note_its_message_saved_once_and_undoably(
    harness: Any,
) -> None:
    user = f"tg:{CHAT}"
    async with lembra(harness) as (h, clock):
        saved = await tg_say(h, "anota: comprar leite")
        assert h.tg.texts(CHAT)[-1].startswith("✅")
        before = await ledger_types(h, user)

        clock.advance(120)
        edit = tg_edit(saved, "anota: comprar pão")
        assert (await h.post_update(edit)).status == 200
        await h.idle()

        assert h.tg.texts(CHAT)[-1] == "✏️ Corrigi: comprar pão"
        (note,) = await h.db.items.list_for(user)
        assert note.content == "comprar pão"
        assert (await ledger_types(h, user))[len(before) :] == ["item_updated"]

        sent = len(h.tg.texts(CHAT))
        assert (await h.post_update(edit)).status == 200  # Telegram delivering it again
        await h.idle()
        assert len(h.tg.texts(CHAT)) == sent
        assert (await ledger_types(h, user))[len(before) :] == ["item_updated"]

        await tg_say(h, "desfaz")
        assert "comprar leite" in h.tg.texts(CHAT)[-1]
        (note,) = await h.db.items.list_for(user)
        assert note.content == "comprar leite"


async def test_a_whatsapp_edit_corrects_a_movie_title_through_the_same_path(harness: Any) -> None:
    user = f"wa:{PHONE}"
    async with lembra(harness) as (h, _):
        saved = await wa_say(h, "salva o filme interestelar")
        (movie,) = await h.db.items.list_for(user)
        assert (movie.type, movie.title) == ("movie", "interestelar")

        assert (await h.post_whatsapp(wa_edit(saved, "salva o filme interstellar"))).status == 200
        await h.idle()

        assert h.wa.bodies(PHONE)[-1] == "✏️ Corrigi: interstellar"
        (movie,) = await h.db.items.list_for(user)
        assert movie.title == "interstellar"
        assert (await ledger_types(h, user)).count("item_updated") == 1


async def test_edits_that_correct_nothing_are_silent_and_logged_without_their_text(
    harness: Any,
) -> None:
    user = f"tg:{CHAT}"
    with json_logs() as stream:
        async with lembra(harness) as (h, clock):
            greeting = await tg_say(h, "oi")
            saved = await tg_say(h, "anota: ligar para o dentista")
            replies = list(h.tg.texts(CHAT))
            items = await h.db.items.list_for(user)
            events_before = await ledger_types(h, user)

            await h.post_update(tg_edit(greeting, "anota: segredo qualquer"))  # saved nothing
            await h.post_update(tg_edit(saved, "anota: ligar para o dentista"))  # same words
            await h.idle()
            clock.advance(601)  # EDIT_WINDOW_SECONDS is 600 by default
            await h.post_update(tg_edit(saved, "anota: ligar para a médica"))
            await h.idle()

            assert h.tg.texts(CHAT) == replies
            assert await h.db.items.list_for(user) == items
            assert await ledger_types(h, user) == events_before
    ignored = [e for e in events(stream) if e["event"] == "edit_ignored"]
    assert [e["reason"] for e in ignored] == ["not_a_save", "unchanged", "outside_window"]
    logged = stream.getvalue()
    assert "segredo" not in logged
    assert "médica" not in logged
    assert "m\\u00e9dica" not in logged


async def test_a_revoke_changes_nothing_and_sends_nothing(harness: Any) -> None:
    user = f"wa:{PHONE}"
    async with lembra(harness) as (h, _):
        saved = await wa_say(h, "anota: pagar o boleto")
        sent = list(h.wa.sent_to(PHONE))
        items = await h.db.items.list_for(user)

        revoke = {"type": "revoke", "revoke": {"original_message_id": saved}}
        assert (await h.post_whatsapp(wa.message_payload(PHONE, revoke))).status == 200
        await h.idle()

        assert h.wa.sent_to(PHONE) == sent
        assert await h.db.items.list_for(user) == items


async def test_the_window_is_a_setting(harness: Any) -> None:
    async with lembra(harness, edit_window_seconds=30) as (h, clock):
        saved = await tg_say(h, "anota: comprar ovos")
        clock.advance(31)
        await h.post_update(tg_edit(saved, "anota: comprar farinha"))
        await h.idle()
        (note,) = await h.db.items.list_for(f"tg:{CHAT}")
        assert note.content == "comprar ovos"


async def test_editing_an_answer_to_a_question_corrects_nothing(harness: Any) -> None:
    """Failed before: the item a «sim» (or a typed pick) saved took the edited answer as its
    words: editing «sim» to «simm» turned the note «duna» into «simm»."""
    user = f"tg:{CHAT}"
    async with lembra(harness) as (h, _):
        await tg_say(h, "duna")
        assert h.tg.texts(CHAT)[-1].endswith("(sim/não)")  # keep it as a note?
        answer = await tg_say(h, "sim")
        (note,) = await h.db.items.list_for(user)
        assert note.content == "duna"
        replies = list(h.tg.texts(CHAT))

        await h.post_update(tg_edit(answer, "simm"))
        await h.idle()

        assert h.tg.texts(CHAT) == replies
        assert [i.content for i in await h.db.items.list_for(user)] == ["duna"]


async def test_a_whatsapp_edit_shows_no_typing_indicator(harness: Any) -> None:
    """Failed before: each edit was marked read with "typing…", and most edits correct
    nothing, so the user saw the bot typing for 25 s and no message came."""
    async with lembra(harness) as (h, _):
        said = await wa_say(h, "oi")
        receipts = list(h.wa.receipts())
        edit = wa_edit(said, "oi, tudo bem?")
        await h.post_whatsapp(edit)
        await h.idle()

        assert h.wa.receipts() == receipts


async def test_two_edits_arriving_out_of_order_leave_the_newer(harness: Any) -> None:
    """Issue 46 partial: the edit made second but delivered first was overwritten by the older."""
    user = f"tg:{CHAT}"
    async with lembra(harness) as (h, clock):
        saved = await tg_say(h, "anota: comprar leite")
        clock.advance(60)
        older, newer = tg_edit(saved, "anota: comprar pão"), tg_edit(saved, "anota: comprar ovos")
        newer["edited_message"]["edit_date"] = older["edited_message"]["edit_date"] + 20

        for edit in (newer, older):  # the platform delivers them the other way round
            assert (await h.post_update(edit)).status == 200
            await h.idle()

        (note,) = await h.db.items.list_for(user)
        assert note.content == "comprar ovos"
        assert h.tg.texts(CHAT)[-1] == "✏️ Corrigi: comprar ovos"
        assert (await ledger_types(h, user)).count("item_updated") == 1


async def test_whatsapp_edits_out_of_order_leave_the_newer_too(harness: Any) -> None:
    user = f"wa:{PHONE}"
    async with lembra(harness) as (h, _):
        saved = await wa_say(h, "anota: pagar a luz")
        now = int(time.time())
        older, newer = wa_edit(saved, "anota: pagar a água"), wa_edit(saved, "anota: pagar o gás")
        older["entry"][0]["changes"][0]["value"]["messages"][0]["timestamp"] = str(now + 10)
        newer["entry"][0]["changes"][0]["value"]["messages"][0]["timestamp"] = str(now + 40)
        for edit in (newer, older):
            await h.post_whatsapp(edit)
            await h.idle()

        (note,) = await h.db.items.list_for(user)
        assert note.content == "pagar o gás"


async def test_an_edit_over_the_message_limit_is_refused_like_a_message(harness: Any) -> None:
    """Issue 46 partial: an edit skipped the 4,000-character limit (and was cut silently)."""
    user = f"tg:{CHAT}"
    async with lembra(harness) as (h, _):
        saved = await tg_say(h, "anota: comprar leite")
        long = "anota: " + "pão " * 1100

        await h.post_update(tg_edit(saved, long))
        await h.idle()

        assert h.tg.texts(CHAT)[-1].startswith(
            f"Mensagem longa demais ({len(long)} caracteres; o limite é 4000)"
        )
        (note,) = await h.db.items.list_for(user)
        assert note.content == "comprar leite"
