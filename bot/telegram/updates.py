"""Telegram updates read from their raw JSON: what each becomes (`normalize`).

    message with text or a caption          Incoming kind "text" (hidden links written out)
    message with a photo, voice, sticker,   Incoming kind "unsupported" (the runtime
      location, document... and no caption    answers with its polite fixed reply)
    edited_message with text or a caption   Incoming kind "edit" (the runtime reads it as a
                                              correction of what that message saved, or
                                              ignores it silently)
    callback_query "c:<token>:<index>"      Incoming kind "choice"; "k:/command": that text
    service messages (payments, members, pins, forum topics...), channel posts, member
    updates, inline queries and every other type; group chats unless ALLOW_GROUP_CHATS;
    messages from bots                      Ignored (acknowledged, one log line)
    fields the code reads of the wrong type Rejected (acknowledged, `update_rejected`)

Nothing here raises, whatever the JSON holds (tests/bot/test_normalizers.py).
A new kind of message (a voice note to transcribe) is one more branch of `_content`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.types import Incoming, IncomingKind
from bot.inbound import Ignored, Rejected, language_hint, validated
from bot.render import decode_choice
from bot.telegram.payload import TgCallbackQuery, TgChat, TgMessage, TgUser, callback_query_id
from bot.telegram.ui import PressedEdit, decode_command, message_text, pressed_edit

ALLOWED_UPDATES = ("message", "edited_message", "callback_query")
# what a person sent that the bot cannot read yet: it gets the polite "only text" reply
MEDIA_KEYS = (
    "photo",
    "video",
    "animation",
    "audio",
    "voice",
    "video_note",
    "document",
    "sticker",
    "location",
    "venue",
    "contact",
    "dice",
    "poll",
    "story",
    "game",
    "paid_media",
    "checklist",
)
# update types acknowledged without a look inside (the reason logged is the key)
KNOWN_TYPES = frozenset(
    {
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "message_reaction",
        "message_reaction_count",
        "inline_query",
        "chosen_inline_result",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)


@dataclass(frozen=True, slots=True)
class Read:
    """One update as read: what it becomes, and the button press to answer whatever it is."""

    update_id: int | None
    outcome: Incoming | Ignored | Rejected
    query_id: str | None = None
    pressed: PressedEdit | None = None


def normalize(data: Any, *, allow_groups: bool) -> Read:
    """Read one update's JSON; never raises."""
    if isinstance(data, Rejected):  # the body could not be read (bot/inbound.py TOO_DEEP)
        return Read(None, data)
    update_id = data.get("update_id") if isinstance(data, dict) else None
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        return Read(None, Rejected("update_id: missing or not an integer"))
    if "message" in data:
        return Read(update_id, _message(data["message"], update_id, allow_groups, edit=False))
    if "edited_message" in data:
        return Read(update_id, _message(data["edited_message"], update_id, allow_groups, edit=True))
    if "callback_query" in data:
        return _callback(data, update_id, allow_groups)
    kind = next((key for key in data if key in KNOWN_TYPES), "unhandled_type")
    return Read(update_id, Ignored(kind))


def _chat_allowed(chat: TgChat, *, allow_groups: bool) -> bool:
    return chat.type == "private" or (allow_groups and chat.type in ("group", "supergroup"))


def _message(
    raw: Any, update_id: int, allow_groups: bool, *, edit: bool
) -> Incoming | Ignored | Rejected:
    message = validated(TgMessage, raw)
    if isinstance(message, Rejected):
        where = "edited_message" if edit else "message"
        return Rejected(f"{where}.{message.reason}")
    user = message.sender
    if user is None or user.is_bot:
        return Ignored("no_human_sender")
    if not _chat_allowed(message.chat, allow_groups=allow_groups):
        return Ignored(f"chat_{message.chat.type}" if message.chat.type.isalpha() else "chat_other")
    content = _content(message)
    if isinstance(content, Ignored):
        return content
    kind, body = content
    own_id = f"tg:{message.chat.id}:{message.message_id}"
    if edit:
        if kind != "text":
            return Ignored("edit_without_text")  # a live location moving, a media swapped
        return _incoming(message.chat, user, update_id, kind="edit", text=body, edit_of=own_id)
    return _incoming(message.chat, user, update_id, kind=kind, text=body, message_id=own_id)


def _content(message: TgMessage) -> tuple[IncomingKind, str | None] | Ignored:
    """What the runtime gets of a message: its words, or that it held something else."""
    body = message_text(message)  # a caption counts as text, hidden links written out
    if body is not None:
        return "text", body
    if any(message.has(key) for key in MEDIA_KEYS):
        return "unsupported", None
    return Ignored("service_message")  # payments, members, pins, forum topics, boosts...


def _callback(data: dict[str, Any], update_id: int, allow_groups: bool) -> Read:
    query_id = callback_query_id(data)
    query = validated(TgCallbackQuery, data["callback_query"])
    if isinstance(query, Rejected):
        return Read(update_id, Rejected(f"callback_query.{query.reason}"), query_id)
    decoded = decode_choice(query.data or "")
    command = decode_command(query.data or "")
    if decoded is None and command is None:
        return Read(update_id, Ignored("foreign_callback_data"), query_id)
    if query.message is None:
        return Read(update_id, Ignored("callback_without_message"), query_id)
    chat = query.message.chat
    if not _chat_allowed(chat, allow_groups=allow_groups):
        return Read(update_id, Ignored("chat_not_allowed"), query_id)
    pressed = pressed_edit(query)
    if decoded is None:  # a command button: the same as typing its command
        incoming = _incoming(chat, query.sender, update_id, kind="text", text=command)
        return Read(update_id, incoming, query_id, pressed)
    token, index = decoded
    incoming = _incoming(
        chat, query.sender, update_id, kind="choice", choice=index, choice_token=token
    )
    return Read(update_id, incoming, query_id, pressed)


def _incoming(
    chat: TgChat,
    user: TgUser,
    update_id: int,
    *,
    kind: IncomingKind,
    text: str | None = None,
    choice: int | None = None,
    choice_token: str | None = None,
    message_id: str | None = None,
    edit_of: str | None = None,
) -> Incoming:
    return Incoming(
        channel="telegram",
        chat_id=str(chat.id),
        user_id=f"tg:{user.id}",
        text=text,
        kind=kind,
        choice=choice,
        choice_token=choice_token,
        update_id=f"tg:{update_id}",
        language_hint=language_hint(user.language_code),
        display_name=user.full_name,
        message_id=message_id,
        edit_of=edit_of,
    )
