"""Telegram updates read from their raw JSON: what each becomes (`normalize`).

    message with text or a caption          Incoming kind "text" (hidden links written out)
    message with a voice note, an audio     Incoming kind "voice": what Telegram announced
      file or a round video (no caption)      (length, size, type) and how to fetch it
                                              (getFile, then the file base)
    message with a document that /import    Incoming kind "text" `/import <name>` carrying
      reads (.json/.txt/.csv), or any         the document: `/import` reads the file (a
      document without a caption              type it cannot read gets a clear reply)
    message with a photo, sticker,          Incoming kind "unsupported" (the runtime
      location... and no caption              answers with its polite fixed reply)
    edited_message with text or a caption   Incoming kind "edit" (the runtime reads it as a
                                              correction of what that message saved, or
                                              ignores it silently)
    callback_query "c:<token>:<index>@<id>" Incoming kind "choice"; "k:/command@<id>": that text;
                                              pressed by anyone but <id>, or data on no
                                              button of the message: Ignored, nothing edited
    service messages (payments, members, pins, forum topics...), channel posts, member
    updates, inline queries and every other type; group chats unless ALLOW_GROUP_CHATS;
    messages from bots                      Ignored (acknowledged, one log line)
    fields the code reads of the wrong type Rejected (acknowledged, `update_rejected`)

Nothing here raises, whatever the JSON holds (tests/bot/test_normalizers.py,
tests/bot/test_file_normalizers.py), and nothing is downloaded here: a file's `fetch`
runs in the turn, after the runtime checked what was announced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.types import Audio, Document, Incoming, IncomingKind
from bot.inbound import NO_FILES, FileSource, Ignored, Rejected, language_hint, validated
from bot.render import decode_choice
from bot.telegram.payload import (
    TgCallbackQuery,
    TgChat,
    TgFile,
    TgMessage,
    TgUser,
    callback_query_id,
)
from bot.telegram.ui import (
    PressedEdit,
    decode_command,
    message_text,
    on_its_message,
    pressed_edit,
)

ALLOWED_UPDATES = ("message", "edited_message", "callback_query")
# what is heard (its words become the message), and the type a voice note or a round
# video has when Telegram names none (they are always OGG/Opus and MP4)
VOICE_KEYS = ("voice", "audio", "video_note")
DEFAULT_MIME_TYPES = {"voice": "audio/ogg", "video_note": "video/mp4"}
# the most a bot may download through the cloud Bot API's getFile
BOT_API_DOWNLOAD_BYTES = 20 * 1024 * 1024
SHOWN_NAME_CHARS = 64  # of a document's name in the `/import <name>` it becomes
# what a person sent that the bot cannot read: it gets the polite "only text" reply
MEDIA_KEYS = (
    "photo",
    "video",
    "animation",
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
class Content:
    """What a message gives the runtime: its kind, its words, and a file it carries."""

    kind: IncomingKind
    text: str | None = None
    audio: Audio | None = None
    document: Document | None = None


@dataclass(frozen=True, slots=True)
class Read:
    """One update as read: what it becomes, and the button press to answer whatever it is."""

    update_id: int | None
    outcome: Incoming | Ignored | Rejected
    query_id: str | None = None
    pressed: PressedEdit | None = None


def normalize(data: Any, *, allow_groups: bool, files: FileSource = NO_FILES) -> Read:
    """Read one update's JSON; never raises.

    Args:
        files: where a voice note's or document's bytes are fetched from, when the turn
            asks (the channel's getFile and download); nothing is fetched here.
    """
    if isinstance(data, Rejected):  # the body could not be read (bot/inbound.py TOO_DEEP)
        return Read(None, data)
    update_id = data.get("update_id") if isinstance(data, dict) else None
    if not isinstance(update_id, int) or isinstance(update_id, bool):
        return Read(None, Rejected("update_id: missing or not an integer"))
    if "message" in data:
        message = _message(data["message"], update_id, allow_groups, files, edit=False)
        return Read(update_id, message)
    if "edited_message" in data:
        edited = _message(data["edited_message"], update_id, allow_groups, files, edit=True)
        return Read(update_id, edited)
    if "callback_query" in data:
        return _callback(data, update_id, allow_groups)
    kind = next((key for key in data if key in KNOWN_TYPES), "unhandled_type")
    return Read(update_id, Ignored(kind))


def _chat_allowed(chat: TgChat, *, allow_groups: bool) -> bool:
    return chat.type == "private" or (allow_groups and chat.type in ("group", "supergroup"))


def _message(
    raw: Any, update_id: int, allow_groups: bool, files: FileSource, *, edit: bool
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
    own_id = f"tg:{message.chat.id}:{message.message_id}"
    if edit:
        body = message_text(message)
        if body is None:
            return Ignored("edit_without_text")  # a live location moving, a media swapped
        edited_at = float(message.edit_date or message.date)
        return _incoming(
            message.chat,
            user,
            update_id,
            kind="edit",
            text=body,
            edit_of=own_id,
            edited_at_s=edited_at,
        )
    content = _content(message, files)
    if not isinstance(content, Content):
        return content
    return _incoming(
        message.chat,
        user,
        update_id,
        kind=content.kind,
        text=content.text,
        message_id=own_id,
        audio=content.audio,
        document=content.document,
    )


def _content(message: TgMessage, files: FileSource) -> Content | Ignored | Rejected:
    """What the runtime gets of a message: its words, a file to hear or import, or neither."""
    if message.text is not None:
        return Content("text", message_text(message))
    document = _document(message, files)
    if isinstance(document, Document) and (message.caption is None or document.importable):
        name = " ".join(document.file_name.split())[:SHOWN_NAME_CHARS]
        return Content("text", f"/import {name}".rstrip(), document=document)
    body = message_text(message)  # a caption counts as text, hidden links written out
    if body is not None:
        return Content("text", body)
    if isinstance(document, Rejected):
        return document
    for key in VOICE_KEYS:
        if message.has(key):
            return _voice(key, message.part(key), files)
    if any(message.has(key) for key in MEDIA_KEYS):
        return Content("unsupported")
    return Ignored("service_message")  # payments, members, pins, forum topics, boosts...


def _voice(key: str, raw: Any, files: FileSource) -> Content | Rejected:
    """A voice note, audio file or round video as announced; fetched only if the turn asks."""
    part = validated(TgFile, raw)
    if isinstance(part, Rejected):
        return Rejected(f"message.{key}.{part.reason}")
    audio = Audio(
        mime_type=part.mime_type or DEFAULT_MIME_TYPES.get(key, ""),
        fetch=files.fetcher(part.file_id),
        seconds=part.duration,
        size=part.file_size,
        max_bytes=BOT_API_DOWNLOAD_BYTES,
    )
    return Content("voice", audio=audio)


def _document(message: TgMessage, files: FileSource) -> Document | Rejected | None:
    """The document a message carries, as announced (None: it carries none)."""
    if not message.has("document"):
        return None
    part = validated(TgFile, message.part("document"))
    if isinstance(part, Rejected):
        return Rejected(f"message.document.{part.reason}")
    return Document(
        file_name=part.file_name or "",
        mime_type=part.mime_type or "",
        fetch=files.fetcher(part.file_id),
        size=part.file_size,
        max_bytes=BOT_API_DOWNLOAD_BYTES,
    )


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
    # Checked before anything is edited or answered: only the user a button was sent to
    # may press it (issue 46), and only a button the message really carries.
    owner = decoded.owner if decoded is not None else command[1] if command else None
    if owner is not None and owner != str(query.sender.id):
        return Read(update_id, Ignored("press_by_another_user"), query_id)
    if owner is None and chat.type != "private":
        return Read(update_id, Ignored("unbound_press_in_group"), query_id)
    if not on_its_message(query):
        return Read(update_id, Ignored("press_not_on_its_message"), query_id)
    pressed = pressed_edit(query)
    if decoded is None:  # a command button: the same as typing its command
        assert command is not None
        incoming = _incoming(chat, query.sender, update_id, kind="text", text=command[0])
        return Read(update_id, incoming, query_id, pressed)
    incoming = _incoming(
        chat,
        query.sender,
        update_id,
        kind="choice",
        choice=decoded.index,
        choice_token=decoded.token,
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
    edited_at_s: float | None = None,
    audio: Audio | None = None,
    document: Document | None = None,
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
        edited_at_s=edited_at_s,
        audio=audio,
        document=document,
    )
