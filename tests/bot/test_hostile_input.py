"""Hostile input, third round (issue 46): the campaign's rows, each driven from outside.

The web app of `lembra serve` with the real runtime (offline planner) behind it, the fake
Bot API and Cloud API on loopback: what is checked is what the platforms were asked to do
(edits, receipts, downloads) and what the database holds. The voice rows are in
tests/bot/test_voice_webhooks.py, the imports in tests/bot/test_hostile_imports.py.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from agent.clock import FakeClock
from agent.conversation.delivery import deliver_due
from bot.delivery.push import ChannelPusher
from bot.fakes.transcription import FakeTranscriptionServer, silent_voice_note
from bot.web.app import CHANNELS
from bot.whatsapp.media import origin, token_origins
from storage import Database
from tests.bot.conftest import FAST, events, json_logs
from tests.bot.test_channel_commands import real_runtime, say
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import message_update, user
from tests.support.fake_whatsapp import FakeWhatsApp
from tests.support.scripted_runtime import ScriptedRuntime

ANA, BIA = 5554601, 5554602  # two members of one group; only Ana may use the bot
GROUP = -1005554600
PHONE = "5511900004601"
FAMILY = {"id": GROUP, "type": "group", "title": "família"}


@pytest.fixture
async def ears() -> AsyncIterator[FakeTranscriptionServer]:
    async with FakeTranscriptionServer() as server:
        yield server


def in_group(member: int, text: str) -> dict[str, Any]:
    return message_update(GROUP, text, from_id=member, chat=FAMILY)


def press_in_group(member: int, sent: Any, data: str) -> dict[str, Any]:
    """`member` pressing `data` on the message the bot sent (its keyboard as Telegram holds it)."""
    return {
        "update_id": int(time.time() * 1000) % 2**31,
        "callback_query": {
            "id": f"cbq-{member}-{data[-12:]}",
            "from": user(member, first_name="Bia" if member == BIA else "Ana"),
            "chat_instance": "ci-family",
            "data": data,
            "message": {
                "message_id": 77,
                "date": int(time.time()),
                "chat": FAMILY,
                "from": {"id": 1, "is_bot": True, "first_name": "Lembra"},
                "text": sent.params["text"],
                "reply_markup": sent.params["reply_markup"],
            },
        },
    }


# -- row 3: a button acts only for the user it was sent to ------------------------------------


async def test_another_group_member_pressing_a_users_button_edits_and_deletes_nothing(
    harness: Any,
) -> None:
    """Issue 46 row 3: Bia (refused) pressing Ana's «Sim» made the bot edit Ana's
    confirmation to "→ Sim" and remove her buttons. Now the press is ignored before
    anything is edited, and Ana's own press still works."""
    lembra = real_runtime(harness)(allow_group_chats=True, allowed_user_ids=f"tg:{ANA}")
    async with lembra as h:
        for words in ("anota: comprar leite", "apaga tudo"):
            await h.post_update(in_group(ANA, words))
            await h.idle()
        [preview] = [c for c in h.tg.sent("sendMessage", GROUP) if "reply_markup" in c.params]
        yes = preview.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        assert yes.endswith(f"@{ANA}")  # bound to Ana, within Telegram's 64 bytes
        assert len(yes.encode()) <= 64
        sent_before = len(h.tg.texts(GROUP))

        bia = press_in_group(BIA, preview, yes)
        assert (await h.post_update(bia)).status == 200
        await h.idle()

        assert h.tg.sent("editMessageText") == h.tg.sent("editMessageReplyMarkup") == []
        assert len(h.tg.texts(GROUP)) == sent_before  # nothing said in the group either
        assert len(await h.db.items.list_for(f"tg:{ANA}")) == 1
        answered = [c.params["callback_query_id"] for c in h.tg.sent("answerCallbackQuery")]
        assert answered == [bia["callback_query"]["id"]]  # the spinner stops; nothing else

        await h.post_update(press_in_group(ANA, preview, yes))
        await h.idle()

        [edit] = h.tg.sent("editMessageText")
        assert edit.params["text"].endswith("\n\n→ Sim")
        assert "Apaguei 1 item" in h.tg.texts(GROUP)[-1]
        assert await h.db.items.list_for(f"tg:{ANA}") == []


async def test_data_made_up_by_a_modified_client_is_never_edited_into_anyones_message(
    harness: Any,
) -> None:
    """Bia rewriting the data to name herself as its owner: it is on no button of the message."""
    lembra = real_runtime(harness)(allow_group_chats=True)
    async with lembra as h:
        for words in ("anota: comprar leite", "apaga tudo"):
            await h.post_update(in_group(ANA, words))
            await h.idle()
        [preview] = [c for c in h.tg.sent("sendMessage", GROUP) if "reply_markup" in c.params]
        yes = preview.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        forged = yes.rsplit("@", 1)[0] + f"@{BIA}"
        legacy = yes.rsplit("@", 1)[0]  # a button bound to nobody, in a group

        for data in (forged, legacy):
            await h.post_update(press_in_group(BIA, preview, data))
        await h.idle()

        assert h.tg.sent("editMessageText") == h.tg.sent("editMessageReplyMarkup") == []
        assert len(await h.db.items.list_for(f"tg:{ANA}")) == 1


async def test_a_whatsapp_button_id_bound_to_another_number_is_ignored(harness: Any) -> None:
    async with harness() as h:
        stolen = wa.button_reply_content("c:cf1:0@5511900000002")
        await h.post_whatsapp(wa.message_payload(PHONE, stolen))
        own = wa.button_reply_content(f"c:cf1:1@{PHONE}")
        await h.post_whatsapp(wa.message_payload(PHONE, own))
        await h.idle()

        assert [(i.kind, i.choice) for i in h.runtime.seen] == [("choice", 1)]


# -- a credential goes only to the host it belongs to ---------------------------------------


async def test_the_whatsapp_token_never_goes_to_a_media_url_on_another_host(
    harness: Any, ears: FakeTranscriptionServer
) -> None:
    """Issue 46 partial: the media URL the lookup named got the bearer token whatever its host."""
    elsewhere = await FakeWhatsApp().start()  # a second host: it must never see the token
    try:
        lembra = real_runtime(harness)(transcribe_base_url=ears.base_url)
        async with lembra as h:
            h.wa.add_media("5550000046001", silent_voice_note(3))
            elsewhere.add_media("5550000046001", silent_voice_note(3))
            h.wa.media_base_url = elsewhere.base_url
            ears.hear("anota: nunca ouvido")
            await h.post_whatsapp(wa.message_payload(PHONE, wa.audio_content("5550000046001")))
            await h.idle()

            assert elsewhere.downloads == []  # not fetched at all: neither token nor audio
            assert h.wa.lookups == [("5550000046001", True)]  # the API's own host: the token
            assert h.wa.bodies(PHONE) == [
                "Não consegui entender esse arquivo de áudio. Escreva a mensagem, por favor."
            ]
            assert (ears.requests, ears.unheard) == ([], 1)
            ears.clear()

            h.wa.media_base_url = None  # the API's own host: downloaded with the token
            ears.hear("anota: ouvido")
            await h.post_whatsapp(wa.message_payload(PHONE, wa.audio_content("5550000046001")))
            await h.idle()
            assert h.wa.downloads == [("5550000046001", True)]
            assert h.wa.bodies(PHONE)[-1].startswith("🎤 «anota: ouvido»"), h.wa.bodies(PHONE)
    finally:
        await elsewhere.close()


def test_the_token_goes_to_metas_media_host_only_beside_metas_api() -> None:
    meta = token_origins("https://graph.facebook.com/v21.0")
    assert origin("https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1") in meta
    assert origin("http://lookaside.fbsbx.com/whatsapp_business/attachments/") not in meta
    assert origin("https://graph.facebook.com.evil.example/x") not in meta
    local = token_origins("http://127.0.0.1:8080/v21.0")
    assert origin("https://lookaside.fbsbx.com/x") not in local
    assert origin("http://127.0.0.1:8081/x") not in local
    assert origin("http://127.0.0.1:8080/whatsapp_business/attachments/?mid=1") in local


# -- a refused sender is told nothing, not even that their message was read -------------------


async def test_a_refused_whatsapp_sender_gets_no_read_receipt_and_no_typing(harness: Any) -> None:
    stranger, friend = "5511900004611", "5511900004612"
    async with real_runtime(harness)(allowed_user_ids=f"wa:{friend}") as h:
        for phone in (stranger, friend):
            await h.post_whatsapp(wa.message_payload(phone, wa.text_content("anota: pão")))
            await h.idle()

        read = [r["message_id"] for r in h.wa.receipts()]
        assert len(read) == 1  # the friend's message only
        assert await h.db.items.list_for(f"wa:{friend}")
        assert len(h.wa.bodies(stranger)) == 1  # the day's one refusal, nothing else
        records = await h.db.client[h.db.name]["processed_updates"].find({}).to_list(None)
        assert read == [r["_id"][3:] for r in records if r.get("user_id") == f"wa:{friend}"]


async def test_a_user_removed_from_the_list_is_pushed_no_more_reminders(
    harness: Any, db: Database
) -> None:
    """Issue 46 partial: a user taken off ALLOWED_USER_IDS still received their reminders."""
    clock = FakeClock(datetime.now(UTC))  # near the real time: the records keep a TTL
    chat = 5554620
    async with real_runtime(harness)(allowed_user_ids=f"tg:{chat}", clock=clock) as h:
        await say(h, chat, "me lembra daqui a 10 minutos de ligar pro banco")
        assert len(await h.db.reminders.open_for(f"tg:{chat}")) == 1
        told = len(h.tg.texts(chat))
    clock.advance(11 * 60)
    async with real_runtime(harness)(allowed_user_ids="tg:5554699", clock=clock) as h:
        channels = h.client.server.app[CHANNELS]
        with json_logs() as logs:
            sent = await deliver_due(h.deps, ChannelPusher(channels.telegram, channels.whatsapp))

        assert sent == 0
        assert len(h.tg.texts(chat)) == told  # nothing pushed
        [kept] = await h.db.reminders.for_user(f"tg:{chat}")
        assert (kept.state, kept.held) == ("scheduled", True)
        assert "reminder_withheld" in [e["event"] for e in events(logs)]
        assert await deliver_due(h.deps, ChannelPusher(channels.telegram, None)) == 0


# -- shutdown drains with a deadline ---------------------------------------------------------


def many_messages(count: int) -> dict[str, Any]:
    """One WhatsApp payload holding `count` messages from as many senders (each its own chat)."""
    payload = wa.message_payload("5511900004700", wa.text_content("devagar"))
    value = payload["entry"][0]["changes"][0]["value"]
    template = value["messages"][0]
    value["messages"] = [
        template | {"from": f"55119{n:08d}", "id": wa.new_wamid()} for n in range(count)
    ]
    value["contacts"] = [
        {"profile": {"name": "Ana"}, "wa_id": f"55119{n:08d}"} for n in range(count)
    ]
    return payload


async def test_a_stopping_serve_works_its_queue_for_the_grace_and_leaves_the_rest(
    harness: Any,
) -> None:
    """Issue 46 partial: after a 2,000-message WhatsApp payload a SIGTERM'd `serve` worked
    through the queue for 30 minutes. Now the queue is worked for SHUTDOWN_GRACE_SECONDS
    (by the injected clock) and what has not begun stays `received` for the re-drive."""
    clock = FakeClock(datetime.now(UTC))
    gate = asyncio.Event()
    runtime = ScriptedRuntime(release=gate)
    options = replace(FAST, tuning=replace(FAST.tuning, max_concurrent_turns=2))
    async with harness(runtime=runtime, clock=clock, options=options) as h:
        assert (await h.post_whatsapp(many_messages(40))).status == 200
        await wait_until(lambda: len(runtime.seen) == 2)  # two turns run, 38 wait

        stopping = asyncio.create_task(h.client.close())  # what SIGTERM starts
        await wait_until(lambda: h.lifecycle.draining)
        clock.advance(h.deps.settings.shutdown_grace_seconds + 1)
        gate.set()  # the two running turns finish; no other begins
        await asyncio.wait_for(stopping, 10)

        assert len(runtime.seen) == 2
        records = await h.db.client[h.db.name]["processed_updates"].find({}).to_list(None)
        statuses = sorted(r["status"] for r in records)
        assert statuses == ["done"] * 2 + ["received"] * 38  # the re-drive's, none lost
        assert h.lifecycle.left_for_redrive == 38


async def wait_until(predicate: Any, *, timeout_s: float = 10) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")
