"""Telegram's interface details: pressed keyboards edited, paging and command buttons, text read
from captions and hidden links, link previews for lists, the webhook's state.

A command button carries `k:<message>@<owner>` (at most 64 bytes): pressing it is the
same as sending that message (`/lang en`, `/list filmes 2`), so it grants nothing the
user could not type; only its owner may press it. Choice buttons keep
`c:<token>:<index>@<owner>` (bot/render.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram.constants import MessageEntityType
from telegram.error import TelegramError

from agent.types import Incoming, Reply
from bot.render import OWNER_MARK, TELEGRAM_CALLBACK_MAX_BYTES, owner_of, split_owner, utf16_units
from bot.telegram.payload import TgCallbackQuery, TgEntity, TgMessage
from config.logging import log_event

log = logging.getLogger("lembra.telegram")

COMMAND_PREFIX = "k:"
PREVIOUS_LABEL, NEXT_LABEL = "‹", "›"
TEXT_LIMIT = 4096
SHOWN_CHOICE_MARK = "→"
# Replies that list items: their links would each unfold a preview card.
LISTING_INTENTS = frozenset({"list_all", "search"})
LANGUAGE_BUTTONS = (("Português", "/lang pt"), ("English", "/lang en"))
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


@dataclass(frozen=True, slots=True)
class PressedEdit:
    """How a pressed keyboard's message changes: buttons removed, the choice shown when known."""

    chat_id: int
    message_id: int
    text: str | None  # None: only the buttons are removed


def encode_command(message: str, *, owner: str | None) -> str | None:
    """`k:<message>@<owner>`, or None when it does not fit Telegram's 64 bytes."""
    data = f"{COMMAND_PREFIX}{message}" + (f"{OWNER_MARK}{owner}" if owner else "")
    return data if len(data.encode()) <= TELEGRAM_CALLBACK_MAX_BYTES else None


def decode_command(data: str) -> tuple[str, str | None] | None:
    """(the slash command a command button sends, its owner), or None when `data` is not one."""
    if not data.startswith(COMMAND_PREFIX):
        return None
    data, owner = split_owner(data)
    message = data[len(COMMAND_PREFIX) :].strip()
    return (message, owner) if message.startswith("/") and len(message) > 1 else None


def message_text(message: TgMessage) -> str | None:
    """The text the runtime reads: the text or else the caption, hidden links' URLs written out."""
    if message.text is not None:
        return with_link_targets(message.text, message.entities)
    if message.caption is not None:
        return with_link_targets(message.caption, message.caption_entities)
    return None


def with_link_targets(text: str, entities: list[TgEntity]) -> str:
    """`text` with each `text_link`'s URL after its words (offsets count UTF-16 units).

    `text` and the URLs hold no lone surrogates (cleaned at the edge, bot/inbound.py);
    entities pointing outside the text are left out.
    """
    units = text.encode("utf-16-le")
    size = len(units) // 2
    links = [
        e
        for e in entities
        if e.type == MessageEntityType.TEXT_LINK
        and e.url
        and 0 <= e.offset
        and 0 < e.length
        and e.offset + e.length <= size
    ]
    for entity in sorted(links, key=lambda e: e.offset, reverse=True):
        end = (entity.offset + entity.length) * 2
        shown = units[entity.offset * 2 : end].decode("utf-16-le", errors="replace")
        if entity.url and entity.url not in shown:
            units = units[:end] + f" ({entity.url})".encode("utf-16-le") + units[end:]
    return units.decode("utf-16-le", errors="replace")


def command_keyboard(incoming: Incoming, reply: Reply) -> InlineKeyboardMarkup | None:
    """‹ › under a paged list; language buttons under `/start` and a bare `/lang`."""
    rows: list[list[InlineKeyboardButton]] = []
    owner = owner_of(incoming.user_id)
    if reply.paging is not None:
        targets = ((PREVIOUS_LABEL, reply.paging.previous), (NEXT_LABEL, reply.paging.next))
        rows.append(_buttons([(label, target) for label, target in targets if target], owner))
    words = (incoming.text or "").strip().lower().split()
    if words in (["/start"], ["/lang"]):
        rows.append(_buttons(list(LANGUAGE_BUTTONS), owner))
    rows = [row for row in rows if row]
    return InlineKeyboardMarkup(rows) if rows else None


def _buttons(targets: list[tuple[str, str]], owner: str) -> list[InlineKeyboardButton]:
    buttons = []
    for label, message in targets:
        data = encode_command(message, owner=owner)
        if data is not None:  # a type word too long for 64 bytes: the text still says how
            buttons.append(InlineKeyboardButton(label, callback_data=data))
    return buttons


def link_preview(reply: Reply) -> LinkPreviewOptions | None:
    """Previews off for lists (one card per link would bury the list)."""
    listing = reply.paging is not None or reply.meta.intent in LISTING_INTENTS
    return NO_PREVIEW if listing else None


def on_its_message(query: TgCallbackQuery) -> bool:
    """Whether the pressed data is one of the buttons of the message it came from.

    The message's keyboard is what Telegram holds (the bot wrote it, bound to its
    owner); data a modified client made up is on no button. A message that carries no
    keyboard any more (already edited) cannot be checked, and is not edited either.
    """
    message = query.message
    if message is None or message.reply_markup is None:
        return True
    return _pressed_label(message, query.data or "") is not None


def pressed_edit(query: TgCallbackQuery) -> PressedEdit | None:
    """The edit a pressed keyboard's message gets, or None when the message cannot be edited.

    Called only for a press by the user the buttons were sent to, and only edits a message
    whose keyboard holds the pressed data.
    """
    message = query.message
    if message is None or message.date == 0:
        return None  # too old: Telegram sends an InaccessibleMessage (date 0)
    if message.reply_markup is None:
        return None  # nothing left to remove
    label = _pressed_label(message, query.data or "")
    if label is None:
        return None
    text: str | None = None
    if label is not None and label not in (PREVIOUS_LABEL, NEXT_LABEL) and message.text:
        text = f"{message.text}\n\n{SHOWN_CHOICE_MARK} {label}"
        if utf16_units(text) > TEXT_LIMIT:
            text = None
    return PressedEdit(message.chat.id, message.message_id, text)


def _pressed_label(message: TgMessage, data: str) -> str | None:
    markup = message.reply_markup
    if markup is None:
        return None
    for row in markup.inline_keyboard:
        for button in row:
            if button.callback_data == data:
                return button.text
    return None


async def apply_edit(bot: Bot, edit: PressedEdit) -> None:
    """Remove the pressed keyboard (best effort: the turn goes on whatever Telegram says)."""
    try:
        if edit.text is not None:
            await bot.edit_message_text(
                edit.text, chat_id=edit.chat_id, message_id=edit.message_id, reply_markup=None
            )
        else:
            await bot.edit_message_reply_markup(
                chat_id=edit.chat_id, message_id=edit.message_id, reply_markup=None
            )
    except TelegramError as exc:
        log_event(log, "keyboard_edit_failed", error_type=type(exc).__name__)


def last_delivery_error(info: Any) -> str | None:
    """getWebhookInfo's last delivery error as `<ISO time> <message>`, None when there is none."""
    if info.last_error_date is None:
        return None
    when = info.last_error_date.isoformat(timespec="seconds")
    return f"{when} {info.last_error_message or ''}".strip()


def webhook_info_lines(info: Any) -> list[str]:
    """`lembra telegram --info`: what getWebhookInfo says, one fact a line."""
    return [
        f"url: {info.url or '(none: polling or not set)'}",
        f"pending updates: {info.pending_update_count}",
        f"last error: {last_delivery_error(info) or 'none'}",
        f"max connections: {info.max_connections or '-'}",
        f"allowed updates: {', '.join(info.allowed_updates or ()) or '-'}",
    ]
