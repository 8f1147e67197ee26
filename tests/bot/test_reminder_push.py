"""Due reminders reach Telegram and WhatsApp through `lembra serve`'s channels (DESIGN 9.3)."""

from __future__ import annotations

import json
import time
from typing import Any

from agent.conversation.delivery import deliver_due
from bot.delivery.push import ChannelPusher
from bot.web.app import CHANNELS
from storage.documents import ReminderDoc
from tests.bot.conftest import Harness
from tests.bot.test_channel_commands import real_runtime, say
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import callback_update

CHAT = 5550801
PHONE = "5511966665555"


def due_now(user_id: str, chat_id: str, channel: str, text: str) -> ReminderDoc:
    now = int(time.time() * 1000)
    return ReminderDoc(
        _id=f"r{abs(hash((user_id, text))) % 10**12}",
        user_id=user_id,
        channel=channel,
        chat_id=chat_id,
        text=text,
        timezone="America/Sao_Paulo",
        due_at_ms=now - 1000,
        wake_at_ms=now - 1000,
        created_at_ms=now - 60_000,
        updated_at_ms=now - 60_000,
    )


def pusher(h: Harness) -> ChannelPusher:
    channels = h.client.server.app[CHANNELS]  # type: ignore[union-attr]
    return ChannelPusher(channels.telegram, channels.whatsapp)


async def test_telegram_gets_the_reminder_with_snooze_buttons_that_work(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await say(h, CHAT, "oi")
        await h.db.reminders.add(due_now(f"tg:{CHAT}", str(CHAT), "telegram", "ligar pro médico"))
        assert await deliver_due(h.deps, pusher(h)) == 1
        assert await deliver_due(h.deps, pusher(h)) == 0  # never twice
        sent = h.tg.sent("sendMessage", CHAT)[-1]
        assert sent.params["text"] == "Lembrete: ligar pro médico"
        buttons = [b for row in sent.params["reply_markup"]["inline_keyboard"] for b in row]
        assert [b["text"] for b in buttons] == ["+10 min", "+1 h", "Amanhã 9h"]
        await h.post_update(callback_update(CHAT, buttons[1]["callback_data"]))
        await h.idle()
        assert h.tg.texts(CHAT)[-1].startswith("✅ Adiado")
        (stored,) = await h.db.reminders.for_user(f"tg:{CHAT}")
        assert stored.state == "scheduled"
        assert stored.due_at_ms > int(time.time() * 1000) + 3500_000


async def test_whatsapp_inside_the_window_gets_the_text(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("oi")))
        await h.idle()
        await h.db.reminders.add(due_now(f"wa:{PHONE}", PHONE, "whatsapp", "pagar o boleto"))
        assert await deliver_due(h.deps, pusher(h)) == 1
        last = h.wa.sent_to(PHONE)[-1]
        assert "Lembrete: pagar o boleto" in json.dumps(last, ensure_ascii=False)


async def test_whatsapp_outside_the_window_sends_the_approved_template(harness: Any) -> None:
    async with real_runtime(harness)(whatsapp_reminder_template="lembrete_v1") as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("oi")))
        await h.idle()
        await h.db.users.update(f"wa:{PHONE}", {"last_seen_at_ms": 0})  # two days of silence
        await h.db.reminders.add(due_now(f"wa:{PHONE}", PHONE, "whatsapp", "pagar o boleto"))
        assert await deliver_due(h.deps, pusher(h)) == 1
        last = h.wa.sent_to(PHONE)[-1]
        assert last["type"] == "template"
        assert last["template"]["name"] == "lembrete_v1"
        assert last["template"]["components"][0]["parameters"][0]["text"].endswith("pagar o boleto")
