"""Telegram's update JSON as pydantic models of the fields Lembra reads, and nothing more.

Read from the raw JSON, not through python-telegram-bot's `Update.de_json`: PTB refuses
a whole update when any object in it lacks a field its version requires (a poll in an
older Bot API shape), and what the bot needs (chat, sender, text or caption, a button's
data) is there all the same. Identifiers and the text are checked; names, language
codes, entities and keyboards are decorations, read leniently (bot/inbound.py).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field, StringConstraints

from bot.inbound import Kept, Lenient, Payload, Text


class TgUser(Payload):
    id: int
    is_bot: bool = False
    first_name: Annotated[Text, Lenient] = ""
    last_name: Annotated[Text | None, Lenient] = None
    language_code: Annotated[str | None, Lenient] = None

    @property
    def full_name(self) -> str | None:
        return " ".join(p for p in (self.first_name, self.last_name) if p) or None


class TgChat(Payload):
    id: int
    type: str


class TgEntity(Payload):
    type: str
    offset: int
    length: int
    url: Annotated[Text | None, Lenient] = None


class TgButton(Payload):
    text: Text
    callback_data: Annotated[str | None, Lenient] = None


class TgKeyboard(Payload):
    inline_keyboard: Annotated[list[list[TgButton]], Lenient] = Field(default_factory=list)


class TgMessage(Payload):
    """A message, edited message or button's message; its other keys say what else it holds."""

    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=True)

    message_id: int
    date: Annotated[int, Lenient] = 0
    edit_date: Annotated[int | None, Lenient] = None
    chat: TgChat
    sender: TgUser | None = Field(default=None, alias="from")
    text: Text | None = None
    caption: Text | None = None
    entities: Annotated[list[TgEntity], Kept] = Field(default_factory=list)
    caption_entities: Annotated[list[TgEntity], Kept] = Field(default_factory=list)
    reply_markup: Annotated[TgKeyboard | None, Lenient] = None

    def has(self, key: str) -> bool:
        """Whether the message carries `key` (a photo, a payment, a pinned message...)."""
        return self.part(key) is not None

    def part(self, key: str) -> Any:
        """The raw value of `key` (a voice note, a document...), unread; None when absent."""
        extra = self.model_extra or {}
        return extra.get(key)


class TgFile(Payload):
    """A voice note, audio file, round video or document: what is read of it before any download.

    Only the id is needed to fetch it; what the platform announces (length, size, type,
    name) is read leniently: the runtime measures what it cannot trust.
    """

    file_id: Annotated[Text, StringConstraints(min_length=1, max_length=512)]
    duration: Annotated[float | None, Lenient] = None
    mime_type: Annotated[Text | None, Lenient] = None
    file_size: Annotated[int | None, Lenient] = None
    file_name: Annotated[Text | None, Lenient] = None


class TgCallbackQuery(Payload):
    id: str
    sender: TgUser = Field(alias="from")
    data: Annotated[Text | None, Lenient] = None
    # an InaccessibleMessage (too old) has a chat and an id too; one that reads as neither is None
    message: Annotated[TgMessage | None, Lenient] = None


def callback_query_id(data: Any) -> str | None:
    """The id of the button press in `data` however malformed the rest (it must still be answered)."""
    query = data.get("callback_query") if isinstance(data, dict) else None
    query_id = query.get("id") if isinstance(query, dict) else None
    return query_id if isinstance(query_id, str) else None
