"""Hostile input, third round (issue 46): the campaign's rows, each driven from outside.

The web app of `lembra serve` with the real runtime (offline planner) behind it, the fake
Bot API and Cloud API on loopback: what is checked is what the platforms were asked to do
(edits, receipts, downloads) and what the database holds. The voice rows are in
tests/bot/test_voice_webhooks.py, the imports in tests/bot/test_hostile_imports.py.
"""

from __future__ import annotations

import time
from typing import Any

from tests.bot.test_channel_commands import real_runtime
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import message_update, user

ANA, BIA = 5554601, 5554602  # two members of one group; only Ana may use the bot
GROUP = -1005554600
PHONE = "5511900004601"
FAMILY = {"id": GROUP, "type": "group", "title": "família"}


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
