"""Telegram updates read: which types are handled, and what each becomes (`normalize`).

    message with text                       Incoming kind "text"
    message with a photo, voice, sticker,   Incoming kind "unsupported" (the runtime
      location, document...                   answers with its polite fixed reply)
    callback_query "c:<token>:<index>"      Incoming kind "choice" (answered with answer())
    edited_message, channel_post, my_chat_member, service messages, inline queries and
    every other type; group chats unless ALLOW_GROUP_CHATS; messages from bots
                                            acknowledged and ignored (counted `ignored`)

Edited messages are ignored on purpose: the original was already handled, and
re-running a turn on an edit would repeat or contradict its effect.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import Update
from telegram.constants import ChatType

from agent.types import Incoming, IncomingKind, Language
from bot.render import decode_choice
from bot.telegram.ui import decode_command, message_text

ALLOWED_UPDATES = ("message", "callback_query")
HANDLED_KEYS = frozenset(ALLOWED_UPDATES)


@dataclass(frozen=True, slots=True)
class Ignored:
    reason: str


def _language(code: str | None) -> Language | None:
    """A hint from Telegram's language_code ("pt-br" -> "pt"); None when neither."""
    code = (code or "").lower()
    return "pt" if code.startswith("pt") else "en" if code.startswith("en") else None


def _chat_allowed(chat_type: str, *, allow_groups: bool) -> bool:
    groups = (ChatType.GROUP, ChatType.SUPERGROUP)
    return chat_type == ChatType.PRIVATE or (allow_groups and chat_type in groups)


def normalize(update: Update, *, allow_groups: bool) -> Incoming | Ignored:
    """Turn one Telegram update into an Incoming, or say why it is ignored."""
    update_id = f"tg:{update.update_id}"
    if update.message is not None:
        message = update.message
        chat, user = message.chat, message.from_user
        if user is None or user.is_bot:
            return Ignored("no_human_sender")
        if not _chat_allowed(chat.type, allow_groups=allow_groups):
            return Ignored(f"chat_{chat.type}")
        kind: IncomingKind
        body = message_text(message)  # a caption counts as text, hidden links written out
        if body is not None:
            kind = "text"
        elif message.effective_attachment is not None:
            kind, body = "unsupported", None
        else:
            return Ignored("service_message")
        return Incoming(
            channel="telegram",
            chat_id=str(chat.id),
            user_id=f"tg:{user.id}",
            text=body,
            kind=kind,
            update_id=update_id,
            language_hint=_language(user.language_code),
            display_name=user.full_name or None,
        )
    if update.callback_query is not None:
        query = update.callback_query
        decoded = decode_choice(query.data or "")
        command = decode_command(query.data or "")
        if decoded is None and command is None:
            return Ignored("foreign_callback_data")
        if query.message is None:
            return Ignored("callback_without_message")
        chat = query.message.chat
        if not _chat_allowed(chat.type, allow_groups=allow_groups):
            return Ignored(f"chat_{chat.type}")
        if decoded is None:  # a command button: the same as typing its command
            return Incoming(
                channel="telegram",
                chat_id=str(chat.id),
                user_id=f"tg:{query.from_user.id}",
                text=command,
                update_id=update_id,
                language_hint=_language(query.from_user.language_code),
                display_name=query.from_user.full_name or None,
            )
        token, index = decoded
        return Incoming(
            channel="telegram",
            chat_id=str(chat.id),
            user_id=f"tg:{query.from_user.id}",
            kind="choice",
            choice=index,
            choice_token=token,
            update_id=update_id,
            language_hint=_language(query.from_user.language_code),
            display_name=query.from_user.full_name or None,
        )
    kinds = [k for k in ("edited_message", "channel_post", "my_chat_member") if getattr(update, k)]
    return Ignored(kinds[0] if kinds else "unhandled_type")
