"""Telegram through the real web app: what the fake Bot API receives, what the database holds."""

from __future__ import annotations

import json
from typing import Any

from bot.render import ChoicePress, decode_choice
from tests.support.fake_telegram import callback_update, message_update
from tests.support.scripted_runtime import CONFIRM_TOKEN, PICK_TOKEN, long_text

CHAT = 5550001


async def test_a_text_message_is_answered_once_and_recorded_done(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "oi")
        response = await h.post_update(update)
        assert response.status == 200
        await h.idle()

        assert h.tg.texts(CHAT) == ["eco: oi"]
        record = await h.record(f"tg:{update['update_id']}")
        assert record is not None
        assert record.status == "done"
        assert json.loads(record.reply_json or "{}")["text"] == "eco: oi"
        seen = h.runtime.seen[0]
        assert (seen.channel, seen.user_id, seen.chat_id) == ("telegram", f"tg:{CHAT}", str(CHAT))
        assert seen.update_id == f"tg:{update['update_id']}"
        assert seen.language_hint == "pt"


async def test_a_redelivered_update_changes_nothing_and_sends_nothing(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "oi")
        await h.post_update(update)
        await h.idle()
        before = await h.record(f"tg:{update['update_id']}")

        again = await h.post_update(update)
        await h.idle()

        assert again.status == 200
        assert h.tg.texts(CHAT) == ["eco: oi"]
        assert len(h.runtime.seen) == 1
        assert await h.record(f"tg:{update['update_id']}") == before
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="duplicated") == 1


async def test_a_missing_or_wrong_secret_is_refused_and_nothing_happens(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "oi")
        missing = await h.post_update(update, secret=None)
        wrong = await h.post_update(update, secret="tg-webhook-secret_2")
        await h.idle()

        assert (missing.status, wrong.status) == (403, 403)
        assert await h.record(f"tg:{update['update_id']}") is None
        assert h.runtime.seen == []
        assert h.tg.sent() == []
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="rejected") == 2


async def test_a_secret_header_that_is_not_utf8_is_refused_like_a_wrong_one(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "oi")
        body = json.dumps(update).encode()
        status = await h.post_raw(
            "/telegram/webhook", b"X-Telegram-Bot-Api-Secret-Token: \xff\xfe", body
        )
        await h.idle()

        assert status == 403
        assert await h.record(f"tg:{update['update_id']}") is None
        assert h.runtime.seen == []


async def test_a_body_that_is_not_json_gets_400(harness: Any) -> None:
    async with harness() as h:
        for body in (b"not json", b"\xff\xfe", b'{"update_id": 1,'):
            response = await h.post_update(body)
            assert response.status == 400, body
        assert h.runtime.seen == []


async def test_json_that_is_no_update_is_acknowledged_and_dropped(harness: Any) -> None:
    # Telegram re-sends anything not 2xx and holds back later updates meanwhile.
    async with harness() as h:
        for body in (b"[1, 2]", b'{"no_update_id": true}', b'"text"', b"null"):
            response = await h.post_update(body)
            assert response.status == 200, body
        await h.idle()
        assert h.runtime.seen == []
        assert h.tg.sent() == []
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="malformed") == 4


async def test_a_body_over_one_megabyte_gets_413_before_parsing(harness: Any) -> None:
    async with harness() as h:
        huge = message_update(CHAT, "x" * (1024 * 1024 + 10))
        response = await h.post_update(huge)
        await h.idle()

        assert response.status == 413
        assert await h.record(f"tg:{huge['update_id']}") is None
        assert h.runtime.seen == []


async def test_choices_become_an_inline_keyboard_and_a_press_comes_back_as_a_choice(
    harness: Any,
) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "escolhe"))
        await h.idle()
        sent = h.tg.sent(chat_id=CHAT)[-1]
        rows = sent.params["reply_markup"]["inline_keyboard"]
        assert [[b["text"] for b in row] for row in rows] == [
            ["Inception (2010)"],
            ["Inception (2014)"],
        ]
        data = [row[0]["callback_data"] for row in rows]
        assert data == [f"c:{PICK_TOKEN}:0@{CHAT}", f"c:{PICK_TOKEN}:1@{CHAT}"]
        assert all(len(d.encode()) <= 64 for d in data)

        press = callback_update(CHAT, data[1])
        await h.post_update(press)
        await h.idle()

        choice = h.runtime.seen[-1]
        assert (choice.kind, choice.choice, choice.choice_token) == ("choice", 1, PICK_TOKEN)
        assert h.tg.texts(CHAT)[-1] == f"escolheu 1 ({PICK_TOKEN})"
        answered = h.tg.sent("answerCallbackQuery")
        assert [c.params["callback_query_id"] for c in answered] == [press["callback_query"]["id"]]


async def test_a_confirmation_puts_both_buttons_on_one_row(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "apaga tudo"))
        await h.idle()
        rows = h.tg.sent(chat_id=CHAT)[-1].params["reply_markup"]["inline_keyboard"]
        assert len(rows) == 1
        assert [decode_choice(b["callback_data"]) for b in rows[0]] == [
            ChoicePress(CONFIRM_TOKEN, 0, str(CHAT)),
            ChoicePress(CONFIRM_TOKEN, 1, str(CHAT)),
        ]


async def test_button_data_too_long_for_telegram_sends_the_text_without_buttons(
    harness: Any,
) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "token enorme"))
        await h.idle()
        sent = h.tg.sent(chat_id=CHAT)
        assert [c.params["text"] for c in sent] == ["Qual?"]
        assert "reply_markup" not in sent[0].params


async def test_a_press_on_a_foreign_button_is_answered_and_ignored(harness: Any) -> None:
    async with harness() as h:
        press = callback_update(CHAT, "something-else")
        response = await h.post_update(press)
        await h.idle()

        assert response.status == 200
        assert h.runtime.seen == []
        assert len(h.tg.sent("answerCallbackQuery")) == 1
        assert await h.record(f"tg:{press['update_id']}") is None


async def test_a_long_reply_is_split_on_line_boundaries_under_4096(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "longo"))
        await h.idle()
        parts = h.tg.texts(CHAT)
        assert len(parts) >= 3
        assert all(len(p) <= 4096 for p in parts)
        # Nothing lost, nothing added (the split eats only the line breaks it splits at).
        assert "".join(parts).replace("\n", "") == long_text().replace("\n", "")
        # Whole lines stay whole: every part but the hard-split one ends at a line end.
        lines = set(long_text().split("\n")[:-1])
        assert all(line in lines for p in parts[:2] for line in p.split("\n"))


async def test_an_attachment_is_sent_as_a_document(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "exporta"))
        await h.idle()
        assert h.tg.texts(CHAT) == ["Seus dados:"]
        document = h.tg.sent("sendDocument", chat_id=CHAT)[0]
        assert document.files["document"] == ("lembra-export.json", b'{"items": []}')


async def test_a_slow_turn_shows_typing_until_it_ends(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "devagar"))
        await h.idle()
        actions = h.tg.sent("sendChatAction", chat_id=CHAT)
        assert actions, "a turn slower than the threshold shows the typing indicator"
        assert {a.params["action"] for a in actions} == {"typing"}
        reply = h.tg.sent(chat_id=CHAT)[-1]
        assert all(a.at < reply.at for a in actions)


async def test_a_fast_turn_shows_no_typing(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(message_update(CHAT, "oi"))
        await h.idle()
        assert h.tg.sent("sendChatAction") == []


async def test_a_runtime_failure_gets_a_plain_apology_and_the_update_is_done(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "quebra", language="en")
        await h.post_update(update)
        await h.idle()
        assert h.tg.texts(CHAT) == [
            "I could not process that right now. Please try again in a moment."
        ]
        assert await h.status(f"tg:{update['update_id']}") == "done"


async def test_a_silent_reply_sends_nothing_but_finishes_the_update(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "silencio")
        await h.post_update(update)
        await h.idle()
        assert h.tg.sent() == []
        assert await h.status(f"tg:{update['update_id']}") == "done"


async def test_photos_and_stickers_reach_the_runtime_as_unsupported_and_voice_as_voice(
    harness: Any,
) -> None:
    attachments: list[dict[str, Any]] = [
        {"photo": [{"file_id": "p1", "file_unique_id": "u1", "width": 90, "height": 90}]},
        {
            "sticker": {
                "file_id": "s1",
                "file_unique_id": "u3",
                "type": "regular",
                "width": 512,
                "height": 512,
                "is_animated": False,
                "is_video": False,
            }
        },
        {"location": {"latitude": -23.5, "longitude": -46.6}},
        {"voice": {"file_id": "v1", "file_unique_id": "u2", "duration": 3}},
    ]
    async with harness() as h:
        for extra in attachments:
            await h.post_update(message_update(CHAT, None, extra=extra))
        await h.idle()
        assert [i.kind for i in h.runtime.seen] == ["unsupported"] * 3 + ["voice"]
        assert h.tg.texts(CHAT)[:3] == ["Por enquanto eu só entendo mensagens de texto."] * 3
        audio = h.runtime.seen[3].audio  # heard in its turn (tests/bot/test_voice_webhooks.py)
        assert audio is not None
        assert (audio.mime_type, audio.seconds, audio.size) == ("audio/ogg", 3.0, None)
        assert h.tg.attempts("getFile") == []  # nothing fetched before the turn asks


async def test_updates_we_do_not_handle_are_acknowledged_and_ignored(harness: Any) -> None:
    base = message_update(CHAT, "editado")["message"]
    others: list[dict[str, Any]] = [
        {
            "update_id": 900_002,
            "channel_post": {
                "message_id": 3,
                "date": base["date"],
                "chat": {"id": -1001, "type": "channel", "title": "News"},
                "text": "post",
            },
        },
        {
            "update_id": 900_003,
            "my_chat_member": {
                "chat": {"id": CHAT, "type": "private", "first_name": "Ana"},
                "from": base["from"],
                "date": base["date"],
                "old_chat_member": {
                    "status": "member",
                    "user": {"id": 1, "is_bot": True, "first_name": "L"},
                },
                "new_chat_member": {
                    "status": "kicked",
                    "user": {"id": 1, "is_bot": True, "first_name": "L"},
                    "until_date": 0,
                },
            },
        },
        {
            "update_id": 900_004,
            "poll_answer": {"poll_id": "1", "option_ids": [0], "user": base["from"]},
        },
        {"update_id": 900_005, "some_future_update_type": {"x": 1}},
        message_update(CHAT, None, update_id=900_006, extra={"new_chat_title": "x"}),
    ]
    async with harness() as h:
        for update in others:
            response = await h.post_update(update)
            assert response.status == 200, update
        await h.idle()
        assert h.runtime.seen == []
        assert h.tg.calls == [c for c in h.tg.calls if c.method == "getMe"]
        for update in others:
            assert await h.record(f"tg:{update['update_id']}") is None
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="ignored") == 5


def _group_message(text: str) -> dict[str, Any]:
    group = {"id": -100200300, "type": "supergroup", "title": "Família"}
    return message_update(-100200300, text, from_id=CHAT, chat=group)


async def test_group_messages_are_ignored_unless_allowed(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(_group_message("oi grupo"))
        await h.idle()
        assert h.runtime.seen == []
        assert h.tg.sent() == []

    async with harness(allow_group_chats=True) as h:
        await h.post_update(_group_message("oi grupo"))
        await h.idle()
        seen = h.runtime.seen[0]
        assert (seen.user_id, seen.chat_id, seen.conversation_id) == (
            f"tg:{CHAT}",
            "-100200300",
            "tg:-100200300",
        )
        assert h.tg.texts(-100200300) == ["eco: oi grupo"]


async def test_messages_from_bots_are_ignored(harness: Any) -> None:
    async with harness() as h:
        update = message_update(CHAT, "oi")
        update["message"]["from"]["is_bot"] = True
        await h.post_update(update)
        await h.idle()
        assert h.runtime.seen == []
