"""WhatsApp polish through the real web app: read receipts with the typing indicator,
list messages for more than three options."""

from __future__ import annotations

from typing import Any

from agent.types import Choice, Incoming, Reply
from storage import Database
from tests.support import fake_whatsapp as wa

PHONE = "5511999990077"


def _wamid(payload: dict[str, Any]) -> str:
    return str(payload["entry"][0]["changes"][0]["value"]["messages"][0]["id"])


async def test_a_message_is_marked_read_with_typing_before_its_reply(harness: Any) -> None:
    async with harness() as h:
        first = wa.message_payload(PHONE, wa.text_content("oi"))
        second = wa.message_payload(PHONE, wa.text_content("tudo bem"))
        await h.post_whatsapp(first)
        await h.idle()
        await h.post_whatsapp(second)
        await h.idle()

        assert h.wa.receipts() == [
            {
                "messaging_product": "whatsapp",
                "status": "read",
                "message_id": _wamid(payload),
                "typing_indicator": {"type": "text"},
            }
            for payload in (first, second)
        ]
        # each receipt comes before its reply, so typing stops when the reply lands
        order = [m.get("message_id") or m["text"]["body"] for m in h.wa.messages]
        assert order == [_wamid(first), "eco: oi", _wamid(second), "eco: tudo bem"]


async def test_a_refused_receipt_loses_nothing(harness: Any) -> None:
    async with harness() as h:
        h.wa.refuse_receipts = True
        payload = wa.message_payload(PHONE, wa.text_content("oi"))
        await h.post_whatsapp(payload)
        await h.idle()

        assert h.wa.bodies(PHONE) == ["eco: oi"]
        assert h.wa.receipts() == []
        assert await h.status(f"wa:{_wamid(payload)}") == "done"


async def test_status_callbacks_and_ignored_messages_get_no_receipt(harness: Any) -> None:
    async with harness() as h:
        await h.post_whatsapp(wa.status_payload("delivered", recipient=PHONE))
        await h.idle()

        assert h.wa.receipts() == []


class FourOptions:
    async def handle(self, incoming: Incoming) -> Reply:
        if incoming.kind == "choice":
            return Reply(text=f"escolheu {incoming.choice}")
        return Reply(
            text="Qual?",
            choices=tuple(Choice(n, label) for n, label in enumerate("ABCD")),
            choice_kind="pick",
            choice_token="pk4",
        )


async def test_more_than_three_short_options_become_a_list_message(harness: Any) -> None:
    async with harness(handler=FourOptions().handle) as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("escolhe")))
        await h.idle()

        interactive = h.wa.sent_to(PHONE)[-1]["interactive"]
        assert interactive["type"] == "list"
        rows = interactive["action"]["sections"][0]["rows"]
        assert [(r["id"], r["title"]) for r in rows] == [
            (f"c:pk4:0@{PHONE}", "A"),
            (f"c:pk4:1@{PHONE}", "B"),
            (f"c:pk4:2@{PHONE}", "C"),
            (f"c:pk4:3@{PHONE}", "D"),
        ]

        await h.post_whatsapp(wa.message_payload(PHONE, wa.list_reply_content("c:pk4:3", "D")))
        await h.idle()
        assert h.wa.bodies(PHONE)[-1] == "escolheu 3"


async def test_a_long_lists_check_buttons_are_one_whatsapp_list_of_ten_rows(db: Database) -> None:
    """Issue 44: twelve movies to see, ten ✓ rows (WhatsApp's most); a row's id comes back
    as a press of that line."""
    from bot.render import decode_choice, owner_of
    from bot.whatsapp.channel import render
    from tests.support.harness import open_lembra

    async with open_lembra(db) as lembra:
        for n in range(12):
            await lembra.say(f"salva o filme Filme Número {n}")
        listed = await lembra.say("lista meus filmes")

        [*_, interactive] = render(listed, "pt", owner=owner_of("wa:5511999990000"))
        rows = interactive["interactive"]["action"]["sections"][0]["rows"]
        assert len(rows) == 10
        assert all(len(row["title"]) <= 24 for row in rows)
        decoded = decode_choice(rows[2]["id"])
        assert decoded is not None
        assert decoded.owner == "5511999990000"
        pressed = await lembra.press(decoded.index, token=decoded.token)
        assert "Filme Número 2" in pressed.text
        [third] = [i for i in await lembra.items() if i.title == "Filme Número 2"]
        assert third.current_state == "seen"
