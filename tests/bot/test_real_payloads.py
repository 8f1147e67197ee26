"""90 real webhook bodies (tests/bot/corpus, SOURCES.md) through the real webhook app (issue 33).

Each body is posted signed to `lembra serve`'s app with the real runtime (offline
planner) behind it, then posted again. Every post gets a 2xx and no traceback; the
first gets the outcome the table says, and the second changes nothing: no message
sent, no item, no ledger event. A caption, an edit, a revoke or a button tap never
gets the "only text" reply.

    reply        a reply, and not the "only text" one (words, captions, button taps)
    heard        a voice note fetched from the fake platform, heard by the fake transcription
                 server: one reply starting `🎤 «`; posted again, nothing fetched or heard again
    refused      a voice note answered with why it cannot be heard (too long...), nothing
                 fetched, nothing stored
    media        exactly the polite "only text" reply (photos, stickers...)
    silent       nothing sent to anyone (service messages, statuses, reactions...)
    correction   "✏️ Corrigi: ..." (or "Fixed", in the edit's language) and the item the
                 original message saved changed;
                 the original is posted first (its setup), then the corpus body
    kept         silent, and the item the original message saved is still there
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from agent.conversation.runtime import Runtime
from agent.texts import EDIT_MARK, text
from agent.texts.voice import HEARD_MARK
from agent.texts.voice import TEXTS as VOICE_TEXTS
from agent.types import Incoming, Reply
from bot.fakes.transcription import FakeTranscriptionServer, silent_voice_note
from tests.bot.conftest import Harness, events, json_logs
from tests.support import fake_whatsapp as wa

CORPUS = Path(__file__).parent / "corpus"
OFFLINE = {"openai_api_key": None, "openai_base_url": None, "tmdb_api_key": None}
ONLY_TEXT = {text("unsupported_media", "pt"), text("unsupported_media", "en")}
# why a voice note is not heard: each text up to its first number
VOICE_REFUSALS = tuple(t.split("{")[0] for texts in VOICE_TEXTS.values() for t in texts.values())
Outcome = Literal["reply", "heard", "refused", "media", "silent", "correction", "kept"]
# the corpus's voice notes, as the fake platforms keep them (file id / media id)
TELEGRAM_VOICE = "AwADawAgADADy_JxS2gopIVIIxlhAg"
WHATSAPP_AUDIO = "1234567890987654321"

TELEGRAM: dict[str, dict[str, Outcome]] = {
    "telegram_illemius.json": {
        "message": "reply",
        "edited_message": "correction",
        "message_with_photo": "reply",
        "message_with_successful_payment": "silent",
        "message_with_invoice": "silent",  # sent by a bot
        "message_with_audio": "refused",  # 123 s: longer than TRANSCRIBE_MAX_SECONDS
        "message_with_document": "reply",
        "message_with_game": "media",
        "message_with_location": "media",
        "message_with_sticker": "media",
        "message_with_video": "reply",
        "message_with_voice": "heard",
        "forwarded_message": "reply",
        "reply_message": "reply",
        "pre_checkout_query": "silent",
        "shipping_query": "silent",
    },
    "telegram_libraries.json": {
        "aiogram_forwarded_message": "reply",
        "aiogram_message_with_audio": "reply",  # its caption
        "aiogram_message_with_invoice": "silent",
        "telebot_message_with_dice": "media",
        "telebot_poll_1": "media",  # python-telegram-bot 22 cannot parse it: still read
        "telebot_message_sticker_supergroup": "silent",  # group chats are off
        "telebot_update_from_a_bot": "silent",
        "telemetree_start": "reply",
        "telemetree_text": "reply",
        "telemetree_edited_message": "silent",  # its message saved nothing
    },
    "telegram_captured.json": {
        "rejuganbot_added_to_group": "silent",
        "rejuganbot_new_chat_participant": "silent",
        "rejuganbot_made_admin": "silent",
        "zh_bot_made_supergroup_admin": "silent",
        "zh_supergroup_mention": "silent",
        "zh_private_message": "reply",
    },
    "telegram_update_kinds.json": {
        kind: "silent"
        for kind in (
            "shipping_query",
            "pre_checkout_query",
            "business_connection",
            "business_message",
            "edited_business_message",
            "deleted_business_messages",
            "guest_message",
            "message_reaction",
            "message_reaction_count",
            "purchased_paid_media",
            "poll",
            "poll_answer",
            "my_chat_member",
            "chat_member",
            "chat_join_request",
            "removed_chat_boost",
            "managed_bot",
        )
    },
}
WHATSAPP: dict[str, Outcome] = {
    "text": "reply",
    "image": "media",
    "video": "reply",
    "document": "reply",
    "audio": "heard",
    "voice": "heard",
    "static_sticker": "media",
    "animated_sticker": "media",
    "reaction": "silent",
    "unreaction_empty": "silent",
    "unreaction_no_emoji": "silent",
    "current_location": "media",
    "chosen_location": "media",
    "contacts": "media",
    "order": "silent",
    "unsupported": "silent",
    "reply": "reply",
    "forwarded": "reply",
    "forwarded_many_times": "reply",
    "interactive_message_with_err": "silent",
    "referral": "reply",
    "callback_button": "reply",
    "callback_quick_reply": "reply",
    "callback_selection": "reply",
    "callback_selection_description": "reply",
    "system_phone_number_change": "silent",
    "system_user_id_change": "silent",
    "system_identity_change": "silent",
    "status_sent": "silent",
    "status_delivered": "silent",
    "status_read": "silent",
    "status_failed": "silent",
    "status_with_tracker": "silent",
    "chat_opened": "silent",
    "edit_text": "correction",
    "edit_caption": "correction",
    "coexistence_edit_text": "silent",
    "revoke": "kept",
    "coexistence_revoke": "silent",
    "flow_completion": "silent",
    "flow_completion_without_flow_token": "silent",
}
WORDS = ("caption", "edit", "revoke", "button", "quick_reply", "selection")


def load(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CORPUS / name).read_text(encoding="utf-8"))
    return loaded


def test_the_corpus_holds_every_body_the_table_expects_and_at_least_sixty() -> None:
    telegram = {name: set(load(name)) for name in TELEGRAM}
    assert telegram == {name: set(table) for name, table in TELEGRAM.items()}
    assert set(load("whatsapp_pywa.json")) == set(WHATSAPP)
    assert sum(len(t) for t in TELEGRAM.values()) + len(WHATSAPP) >= 60


@asynccontextmanager
async def lembra(harness: Any, ears: FakeTranscriptionServer) -> AsyncIterator[Harness]:
    runtimes: list[Runtime] = []

    async def handle(incoming: Incoming) -> Reply:
        return await runtimes[0].handle(incoming)

    async with harness(handler=handle, transcribe_base_url=ears.base_url, **OFFLINE) as h:
        runtimes.append(Runtime(h.deps))
        note = silent_voice_note(1)
        h.tg.add_file(TELEGRAM_VOICE, note, path="voice/file_1.oga")
        h.wa.add_media(WHATSAPP_AUDIO, note, mime_type="audio/ogg; codecs=opus")
        yield h


# -- ids and timestamps: the only things changed --------------------------------------------


def tg_fresh(body: dict[str, Any], n: int) -> dict[str, Any]:
    fresh = copy.deepcopy(body)
    fresh["update_id"] = 70_000_000 + n
    now = int(time.time())
    for key in ("message", "edited_message"):
        if isinstance(fresh.get(key), dict):
            fresh[key]["message_id"] = 50_000 + n
            fresh[key]["date"] = now
            if "edit_date" in fresh[key]:
                fresh[key]["edit_date"] = now + 5
    return fresh


def wa_fresh(body: dict[str, Any], n: int) -> dict[str, Any]:
    fresh = copy.deepcopy(body)
    now = str(int(time.time()))
    for entry in fresh["entry"]:
        for change in entry["changes"]:
            value = change["value"]
            value["metadata"]["phone_number_id"] = wa.PHONE_NUMBER_ID
            for message in value.get("messages", []) + value.get("message_echoes", []):
                message["id"] = f"{message['id']}.{n}"
                message["timestamp"] = now
                for kind in ("edit", "revoke"):
                    if kind in message:
                        original = message[kind]["original_message_id"]
                        message[kind]["original_message_id"] = f"{original}.{n}"
            for status in value.get("statuses", []):
                status["id"] = f"{status['id']}.{n}"
                status["timestamp"] = now
    return fresh


# -- what a post changed ----------------------------------------------------------------------


async def state(h: Harness, user: str) -> tuple[Any, ...]:
    items = [(i.id, i.type, i.title, i.content) for i in await h.db.items.list_for(user)]
    return tuple(items), len(await h.db.ledger.events(user))


async def check(
    h: Harness,
    name: str,
    outcome: Outcome,
    post: Callable[[], Any],
    sent: Callable[[], list[str]],
    user: str | None,
    work: Callable[[], int],
) -> None:
    """`work` counts what was fetched from the platform and heard."""
    before_sent, before_work = len(sent()), work()
    before = await state(h, user) if user else None
    assert (await post()).status < 300, name
    await h.idle()
    new = sent()[before_sent:]
    if outcome in ("silent", "kept"):
        assert new == [], (name, new)
    elif outcome == "heard":
        assert len(new) == 1, (name, new)
        assert new[0].startswith(f"{HEARD_MARK} «"), (name, new)
        assert work() > before_work, name
    elif outcome == "refused":
        assert len(new) == 1, (name, new)
        assert new[0].startswith(VOICE_REFUSALS), (name, new)
        assert work() == before_work, name  # nothing fetched, nothing heard
    elif outcome == "media":
        assert len(new) == 1, (name, new)
        assert new[0] in ONLY_TEXT, (name, new)
    elif outcome == "correction":
        assert len(new) == 1, (name, new)
        assert new[0].startswith(f"{EDIT_MARK} "), (name, new)  # in the edit's language
    else:
        assert new, name
        assert not ONLY_TEXT & set(new), (name, new)
    if outcome in ("silent", "kept", "media", "refused") and user is not None:
        assert await state(h, user) == before, name  # nothing stored changed
    if any(word in name for word in WORDS):
        assert not ONLY_TEXT & set(new), name
    after = (len(sent()), await state(h, user) if user else None, work())
    assert (await post()).status < 300, name  # the platform delivering it again
    await h.idle()
    assert (len(sent()), await state(h, user) if user else None, work()) == after, name


# -- the tests -------------------------------------------------------------------------------


async def test_every_real_telegram_body_gets_its_outcome_once(harness: Any) -> None:
    with json_logs() as stream:
        async with FakeTranscriptionServer() as ears, lembra(harness, ears) as h:

            def work() -> int:
                return len(h.tg.attempts("getFile")) + len(h.tg.downloads) + len(ears.requests)

            n = 0
            for file, table in TELEGRAM.items():
                for name, body in load(file).items():
                    n += 1
                    update = tg_fresh(body, n)
                    message = update.get("message") or update.get("edited_message") or {}
                    chat = (message.get("chat") or {}).get("id")
                    user = f"tg:{chat}" if isinstance(chat, int) and chat > 0 else None
                    if table[name] == "correction":  # the message it edits saved a note
                        original = copy.deepcopy(update)
                        original["update_id"] += 1_000_000
                        saved = original.pop("edited_message")
                        original["message"] = saved | {"text": "anota: hi there"}
                        original["message"].pop("edit_date")
                        await h.post_update(original)
                        await h.idle()

                    def post(update: dict[str, Any] = update) -> Any:
                        return h.post_update(json.dumps(update).encode())

                    if table[name] == "heard":
                        ears.hear("anota: ligar pro banco")
                    await check(h, name, table[name], post, h.tg.texts, user, work)
            notes = {i.content for i in await h.db.items.list_for("tg:12345678")}
            assert notes == {"hi there (edited)", "ligar pro banco"}  # the voice note's words
    logged = events(stream)
    assert not [e for e in logged if "traceback" in e or e["level"] == "error"], logged


async def test_every_real_whatsapp_body_gets_its_outcome_once(harness: Any) -> None:
    phone = "972987654321"
    user = f"wa:{phone}"
    with json_logs() as stream:
        async with FakeTranscriptionServer() as ears, lembra(harness, ears) as h:

            def work() -> int:
                return len(h.wa.lookups) + len(h.wa.downloads) + len(ears.requests)

            for n, (name, body) in enumerate(load("whatsapp_pywa.json").items(), start=1):
                payload = wa_fresh(body, n)
                if WHATSAPP[name] in ("correction", "kept"):  # the original saved a note
                    message = payload["entry"][0]["changes"][0]["value"]["messages"][0]
                    original = message[message["type"]]["original_message_id"]
                    content = wa.text_content(f"anota: antes de {name}")
                    await h.post_whatsapp(wa.message_payload(phone, content, wamid=original))
                    await h.idle()

                def post(payload: dict[str, Any] = payload) -> Any:
                    return h.post_whatsapp(json.dumps(payload).encode())

                def sent() -> list[str]:
                    return h.wa.bodies(phone)

                if WHATSAPP[name] == "heard":
                    ears.hear(f"anota: áudio {name}")
                await check(h, name, WHATSAPP[name], post, sent, user, work)
            contents = sorted(i.content or "" for i in await h.db.items.list_for(user))
            assert contents == [
                "Text was edited",
                "antes de revoke",
                "caption",
                "áudio audio",  # a forwarded audio file
                "áudio voice",  # a voice note
            ]
    logged = events(stream)
    assert not [e for e in logged if "traceback" in e or e["level"] == "error"], logged
