"""Malformed but well-signed updates through the real webhooks: always a 200, never a traceback.

The outside bad-input campaign of issue 30 found a Telegram `text` holding a lone
surrogate or a number answered 500 (Telegram then re-sends it and holds back every later
update), and a WhatsApp payload refused whole (400) for one bad message in it. Each row
below is one such body: it gets a 200, the reply or silence it deserves, at most one
`update_rejected` line naming the field (never its value), and posting it a second
time changes nothing.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any, Literal

import pytest

from tests.bot.conftest import events, json_logs
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import callback_update, message_update

CHAT = 5553001
PHONE = "5511955550000"
Outcome = Literal["reply", "silent"]


def _tg(text: Any = "oi", **fields: Any) -> dict[str, Any]:
    update = message_update(CHAT, None)
    if text is not ...:
        update["message"]["text"] = text
    update["message"].update(fields)
    return update


def _tg_without(*path: str) -> dict[str, Any]:
    update = message_update(CHAT, "oi")
    target = update
    for step in path[:-1]:
        target = target[step]
    del target[path[-1]]
    return update


def _tg_with(path: tuple[str, ...], value: Any, text: str = "oi") -> dict[str, Any]:
    update = message_update(CHAT, text)
    target = update
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return update


def _poll_in_an_older_shape() -> dict[str, Any]:
    """A poll message without fields python-telegram-bot 22 requires (members_only...)."""
    poll = {
        "id": "5",
        "question": "Qual filme?",
        "options": [{"text": "A", "voter_count": 0}, {"text": "B", "voter_count": 0}],
        "total_voter_count": 0,
        "is_closed": False,
    }
    return _tg(..., poll=poll)


def _press_without_sender() -> dict[str, Any]:
    press = callback_update(CHAT, "c:tk1:0")
    del press["callback_query"]["from"]
    return press


def _press_with_numeric_data() -> dict[str, Any]:
    press = callback_update(CHAT, "c:tk1:0")
    press["callback_query"]["data"] = 17
    return press


TELEGRAM: list[tuple[str, Any, Outcome]] = [
    ("text is a lone surrogate", _tg("\ud800"), "reply"),
    ("text has a lone surrogate inside", _tg("salva a\udfffb"), "reply"),
    ("text is a number", _tg(42), "silent"),
    ("text is an object", _tg({"a": 1}), "silent"),
    ("text is a list", _tg([]), "silent"),
    ("text is null", _tg(None), "silent"),
    ("caption is a number", _tg(..., caption=5, photo=[{"file_id": "p"}]), "silent"),
    (
        "entities point outside the text",
        _tg("oi", entities=[{"type": "text_link", "offset": -3, "length": 99, "url": 5}]),
        "reply",
    ),
    ("entities is a string", _tg("oi", entities="x"), "reply"),
    (
        "entity url is a lone surrogate",
        _tg("veja", entities=[{"type": "text_link", "offset": 0, "length": 4, "url": "\ud800"}]),
        "reply",
    ),
    ("chat is missing", _tg_without("message", "chat"), "silent"),
    ("chat id is a word", _tg_with(("message", "chat", "id"), "abc"), "silent"),
    ("sender is missing", _tg_without("message", "from"), "silent"),
    ("sender id is a word", _tg_with(("message", "from", "id"), "x"), "silent"),
    ("language code is a number", _tg_with(("message", "from", "language_code"), 5), "reply"),
    (
        "first name is a lone surrogate",
        _tg_with(("message", "from", "first_name"), "\udc00"),
        "reply",
    ),
    ("date is a word", _tg_with(("message", "date"), "yesterday"), "reply"),
    ("message is a list", {"update_id": 880_001, "message": [1, 2]}, "silent"),
    ("message is null", {"update_id": 880_002, "message": None}, "silent"),
    ("update id is a string", {"update_id": "12", "message": _tg()["message"]}, "silent"),
    ("update id is missing", {"message": _tg()["message"]}, "silent"),
    ("a poll PTB cannot parse", _poll_in_an_older_shape(), "reply"),
    (
        "edit with a lone surrogate",  # reaches the runtime (this stand-in echoes it)
        {"update_id": 880_003, "edited_message": _tg("\ud800")["message"]},
        "reply",
    ),
    ("button data with a lone surrogate", callback_update(CHAT, "c:\ud800:1"), "reply"),
    ("button press without a sender", _press_without_sender(), "silent"),
    ("button data is a number", _press_with_numeric_data(), "silent"),
]


def _wa_message(content: dict[str, Any], **fields: Any) -> dict[str, Any]:
    message = {
        "from": PHONE,
        "id": wa.new_wamid(),
        "timestamp": str(int(time.time())),  # inside the 24-hour window
        **content,
    }
    message.update(fields)
    return message


def _wa(*messages: dict[str, Any], **value: Any) -> dict[str, Any]:
    return wa.envelope(
        {
            "contacts": [{"wa_id": PHONE, "profile": {"name": "Ana"}}],
            "messages": list(messages),
            **value,
        }
    )


GOOD = wa.text_content("oi")
WHATSAPP: list[tuple[str, Any, Outcome, int]] = [
    # (case, payload, outcome, replies expected)
    ("body is a lone surrogate", _wa(_wa_message(wa.text_content("\ud800"))), "reply", 1),
    ("body is a number", _wa(_wa_message({"type": "text", "text": {"body": 5}})), "silent", 0),
    ("text is null", _wa(_wa_message({"type": "text", "text": None})), "silent", 0),
    ("sender is a number", _wa(_wa_message(GOOD, **{"from": 5511})), "silent", 0),
    (
        "message id is missing",
        _wa({"from": PHONE, "type": "text", "text": {"body": "oi"}}),
        "silent",
        0,
    ),
    ("messages is a string", wa.envelope({"messages": "x"}), "silent", 0),
    (
        "entry is not a list",
        {"object": "whatsapp_business_account", "entry": {"a": 1}},
        "silent",
        0,
    ),
    ("payload is a list", [1, 2, 3], "silent", 0),
    ("contacts are garbage", _wa(_wa_message(GOOD), contacts=[5, {"wa_id": 3}]), "reply", 1),
    ("statuses are garbage", _wa(_wa_message(GOOD), statuses=["x", {"status": 9}]), "reply", 1),
    # no readable time: the 24-hour window cannot be shown open, so nothing is sent
    ("timestamp is an object", _wa(_wa_message(GOOD, timestamp={"a": 1})), "silent", 0),
    (
        "a foreign button with a numeric id",
        _wa(
            _wa_message(
                {
                    "type": "interactive",
                    "interactive": {
                        "type": "button_reply",
                        "button_reply": {"id": 5, "title": "Sim"},
                    },
                }
            )
        ),
        "reply",
        1,
    ),
    (
        "phone number id is a number",
        wa.envelope({"messages": [_wa_message(GOOD)]}, phone_number_id=123),
        "silent",
        0,
    ),
    (
        "one bad message beside a good one",
        _wa(_wa_message({"type": "text", "text": {"body": {"x": 1}}}), _wa_message(GOOD)),
        "reply",
        1,
    ),
    (
        "a lone surrogate beside a good message",
        _wa(_wa_message(wa.text_content("a\ud800")), _wa_message(GOOD)),
        "reply",
        2,
    ),
    (
        "a message that is not an object beside a good one",
        _wa("nada", 7, None, _wa_message(GOOD)),
        "reply",
        1,
    ),
]


def _no_traceback(stream: Any) -> list[dict[str, Any]]:
    logged = events(stream)
    assert not [e for e in logged if "traceback" in e or e["level"] == "error"], logged
    return logged


@pytest.mark.parametrize(("case", "update", "outcome"), TELEGRAM, ids=[c[0] for c in TELEGRAM])
async def test_telegram_answers_200_to_every_signed_update(
    harness: Any, case: str, update: Any, outcome: Outcome
) -> None:
    body = json.dumps(update).encode()  # ensure_ascii: a lone surrogate travels as \\ud800
    with json_logs() as stream:
        async with harness() as h:
            first = await h.post_update(body)
            await h.idle()
            sent, seen = list(h.tg.sent()), list(h.runtime.seen)
            again = await h.post_update(body)
            await h.idle()

            assert (first.status, again.status) == (200, 200)
            replies = h.tg.texts(CHAT)
            assert bool(replies) == (outcome == "reply"), replies
            assert h.tg.sent() == sent  # the second post sent nothing
            assert h.runtime.seen == seen  # ...and was not handled again
    logged = _no_traceback(stream)
    rejected = [e for e in logged if e["event"] == "update_rejected"]
    assert len(rejected) in (0, 2)  # once per post of a malformed body
    for line in rejected:
        assert "\\ud800" not in json.dumps(line)
        assert "42" not in line["reason"]


@pytest.mark.parametrize(
    ("case", "payload", "outcome", "replies"), WHATSAPP, ids=[c[0] for c in WHATSAPP]
)
async def test_whatsapp_answers_200_and_handles_each_message_alone(
    harness: Any, case: str, payload: Any, outcome: Outcome, replies: int
) -> None:
    body = json.dumps(payload).encode()
    with json_logs() as stream:
        async with harness() as h:
            first = await h.post_whatsapp(body)
            await h.idle()
            sent = copy.deepcopy(h.wa.sent_to(PHONE))
            again = await h.post_whatsapp(body)
            await h.idle()

            assert (first.status, again.status) == (200, 200)
            assert len(sent) == replies, sent
            assert bool(sent) == (outcome == "reply")
            assert h.wa.sent_to(PHONE) == sent  # the second post sent nothing
    _no_traceback(stream)


async def test_only_a_body_that_is_not_json_gets_400(harness: Any) -> None:
    async with harness() as h:
        for body in (b"{not json", b"\xff\xfe\x00", b""):
            assert (await h.post_update(body)).status == 400, body
            assert (await h.post_whatsapp(body)).status == 400, body
