"""Pushing due reminders to the chats they were set in, through `lembra serve`'s channels."""

from __future__ import annotations

from typing import Protocol

from agent.conversation.delivery import PushOutcome
from agent.types import Incoming, Reply
from bot.delivery.lifecycle import Delivery
from storage.documents import ReminderDoc

OUTCOMES: dict[Delivery, PushOutcome] = {
    "sent": "sent",
    "nothing": "sent",
    "blocked": "gone",
    "retry_later": "retry",
    "failed": "retry",
    "window_closed": "window_closed",
}


class TelegramLike(Protocol):
    async def deliver(self, incoming: Incoming, reply: Reply) -> Delivery: ...


class WhatsAppLike(Protocol):
    async def push(self, incoming: Incoming, reply: Reply, *, template: str | None) -> Delivery: ...


class ChannelPusher:
    """The `Pusher` of `lembra serve`: by the reminder's channel, to the chat it was set in."""

    def __init__(self, telegram: TelegramLike | None, whatsapp: WhatsAppLike | None) -> None:
        self.telegram = telegram
        self.whatsapp = whatsapp

    async def __call__(
        self, reminder: ReminderDoc, reply: Reply, *, template: str | None
    ) -> PushOutcome:
        incoming = Incoming(
            channel="telegram" if reminder.channel == "telegram" else "whatsapp",
            chat_id=reminder.chat_id,
            user_id=reminder.user_id,
            language_hint=reminder.language,
        )
        if reminder.channel == "telegram" and self.telegram is not None:
            return OUTCOMES[await self.telegram.deliver(incoming, reply)]
        if reminder.channel == "whatsapp" and self.whatsapp is not None:
            return OUTCOMES[await self.whatsapp.push(incoming, reply, template=template)]
        return "window_closed"  # no channel here reaches it now: it waits for the next message
