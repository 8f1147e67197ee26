"""WhatsApp webhook payloads read from their raw JSON: what each message becomes (`normalize`).

    text                                     Incoming kind "text"
    image, video, document with a caption    Incoming kind "text": the caption is the message
    button (a template's quick reply)        Incoming kind "text": the button's visible text
    interactive button_reply / list_reply    Incoming kind "choice" when the bot sent it
                                               (id c:<token>:<index>), else its title as text
    edit of a text or a caption              Incoming kind "edit" (a correction, or silence)
    audio (a voice note or an audio file)    Incoming kind "voice": its type, and how to fetch
                                               it (the media lookup, then the download); no
                                               length is announced, the runtime measures it
    image, video, document without caption,  Incoming kind "unsupported" (the polite reply)
      sticker, location, contacts
    reaction, revoke, system, request_welcome, ephemeral, unsupported, unknown and any
      other type                             Ignored (acknowledged, one log line)
    fields the code reads of the wrong type  Rejected (acknowledged, `update_rejected`)

The envelope (`entry[].changes[].value`) is read leniently and each message on its own:
one bad message never costs the others of its payload. Nothing here raises, whatever the
JSON holds (tests/bot/test_normalizers.py, tests/bot/test_file_normalizers.py), and
nothing is downloaded here: an audio's `fetch` runs in the turn, when the runtime asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field, StringConstraints

from agent.types import Audio, Incoming, IncomingKind
from bot.inbound import (
    NO_FILES,
    FileSource,
    Ignored,
    Kept,
    Lenient,
    Payload,
    Rejected,
    Text,
    phone_language,
    validated,
)
from bot.render import ChoicePress, decode_choice

CAPTIONED = ("image", "video", "document")
# what a person sent that the bot cannot read: it gets the polite "only text" reply
MEDIA_TYPES = frozenset({"image", "video", "document", "sticker", "location", "contacts"})
# acknowledged without a reply; the reason logged is the type (any other: "unknown_type")
QUIET_TYPES = frozenset(
    {
        "reaction",
        "revoke",
        "system",
        "request_welcome",
        "ephemeral",
        "unsupported",
        "unknown",
        "order",
    }
)


class WaText(Payload):
    body: Text


class WaMedia(Payload):
    caption: Annotated[Text | None, Lenient] = None


class WaAudio(Payload):
    """A voice note (`voice: true`) or an audio file: the media id and the type announced."""

    id: Annotated[Text, StringConstraints(min_length=1, max_length=128)]
    mime_type: Annotated[Text, Lenient] = ""


class WaButton(Payload):
    text: Text
    payload: Annotated[Text | None, Lenient] = None


class WaReply(Payload):
    id: Annotated[Text, Lenient] = ""
    title: Annotated[Text, Lenient] = ""


class WaInteractive(Payload):
    type: Annotated[str, Lenient] = ""
    button_reply: WaReply | None = None
    list_reply: WaReply | None = None


class WaEdited(Payload):
    """What an edited message says now: a text, or a media message's caption."""

    type: str
    text: WaText | None = None
    image: Annotated[WaMedia | None, Lenient] = None
    video: Annotated[WaMedia | None, Lenient] = None
    document: Annotated[WaMedia | None, Lenient] = None


class WaEdit(Payload):
    original_message_id: Text
    message: WaEdited


class WaMessage(Payload):
    """The fields every message has; the object its `type` names is read by `_content`."""

    sender: Text = Field(alias="from")
    id: Text
    timestamp: Annotated[str, Lenient] = "0"
    type: Text

    def sent_at_s(self) -> float:
        try:
            return float(self.timestamp)
        except ValueError:
            return 0.0


class WaProfile(Payload):
    name: Annotated[Text | None, Lenient] = None


class WaContact(Payload):
    wa_id: Text
    profile: Annotated[WaProfile | None, Lenient] = None


STATUS_LABELS = frozenset({"sent", "delivered", "read", "failed", "deleted", "warning", "unknown"})


class WaStatus(Payload):
    status: Annotated[str, Lenient] = "unknown"

    @property
    def label(self) -> str:  # a Prometheus label: a fixed set, never free text
        return self.status if self.status in STATUS_LABELS else "other"


class WaMetadata(Payload):
    phone_number_id: Annotated[str, Lenient] = ""


class WaValue(Payload):
    """One change's value; its messages are kept raw and read one by one."""

    metadata: Annotated[WaMetadata | None, Lenient] = None
    contacts: Annotated[list[WaContact], Kept] = Field(default_factory=list)
    messages: Annotated[list[Any], Lenient] = Field(default_factory=list)
    statuses: Annotated[list[WaStatus], Kept] = Field(default_factory=list)

    def names(self) -> dict[str, str | None]:
        return {c.wa_id: (c.profile.name if c.profile else None) for c in self.contacts}


class WaChange(Payload):
    field: Annotated[str, Lenient] = ""
    value: Annotated[WaValue, Lenient] = Field(default_factory=WaValue)


class WaEntry(Payload):
    changes: Annotated[list[WaChange], Kept] = Field(default_factory=list)


class WaWebhook(Payload):
    object: Annotated[str, Lenient] = ""
    entry: list[WaEntry]


def values(data: Any) -> list[WaValue] | Rejected:
    """Every change's value in a payload, or Rejected when it has no `entry` list at all."""
    if isinstance(data, Rejected):  # the body could not be read (bot/inbound.py TOO_DEEP)
        return data
    payload = validated(WaWebhook, data)
    if isinstance(payload, Rejected):
        return payload
    return [change.value for entry in payload.entry for change in entry.changes]


def read_message(raw: Any) -> WaMessage | Rejected:
    """The fields every message has, checked; Rejected names the first that is wrong."""
    message = validated(WaMessage, raw)
    return Rejected(f"message.{message.reason}") if isinstance(message, Rejected) else message


def normalize(
    raw: Any, name: str | None, *, files: FileSource = NO_FILES
) -> Incoming | Ignored | Rejected:
    """Turn one message of a payload into an Incoming, or say why it is not one; never raises.

    Args:
        files: where an audio's bytes are fetched from when the turn asks (the channel's
            media lookup and download); nothing is fetched here.
    """
    message = read_message(raw)
    if isinstance(message, Rejected):
        return message
    content = _content(message, raw, files)
    if not isinstance(content, Content):
        return content
    choice = content.choice
    if choice is not None and choice.owner is not None and choice.owner != message.sender:
        return Ignored("press_by_another_user")  # a button is its owner's alone (issue 46)
    own_id = f"wa:{message.id}"
    return Incoming(
        channel="whatsapp",
        chat_id=message.sender,
        user_id=f"wa:{message.sender}",
        text=content.text,
        kind=content.kind,
        choice=choice.index if choice else None,
        choice_token=choice.token if choice else None,
        update_id=own_id,
        language_hint=phone_language(message.sender),
        display_name=name,
        message_id=None if content.kind == "edit" else own_id,
        edit_of=content.edit_of,
        edited_at_s=message.sent_at_s() if content.kind == "edit" else None,
        audio=content.audio,
    )


@dataclass(frozen=True, slots=True)
class Content:
    """What a message gives the runtime: kind, text, the message it edits, a button it
    pressed (token, index), a voice note to hear."""

    kind: IncomingKind
    text: str | None = None
    edit_of: str | None = None
    choice: ChoicePress | None = None
    audio: Audio | None = None


def _content(message: WaMessage, raw: Any, files: FileSource) -> Content | Ignored | Rejected:
    """What the runtime gets of a message: its words, a button it pressed, a voice note, or none."""
    kind = message.type
    body = raw.get(kind)
    if kind == "text":
        text = validated(WaText, body)
        return _rejected("text", text) if isinstance(text, Rejected) else Content("text", text.body)
    if kind in CAPTIONED:
        media = validated(WaMedia, body)
        caption = media.caption if isinstance(media, WaMedia) else None
        return Content("text", caption) if caption else Content("unsupported")
    if kind == "audio":  # a voice note or not: heard; no length or size is announced
        audio = validated(WaAudio, body)
        if isinstance(audio, Rejected):
            return _rejected("audio", audio)
        return Content("voice", audio=Audio(audio.mime_type, fetch=files.fetcher(audio.id)))
    if kind == "button":  # a template's quick reply: its words are the message
        button = validated(WaButton, body)
        if isinstance(button, Rejected):
            return _rejected("button", button)
        return Content("text", button.text)
    if kind == "interactive":
        return _interactive(body)
    if kind == "edit":
        return _edit(body)
    if kind in MEDIA_TYPES:
        return Content("unsupported")
    return Ignored(kind if kind in QUIET_TYPES else "unknown_type")


def _interactive(body: Any) -> Content | Ignored | Rejected:
    interactive = validated(WaInteractive, body)
    if isinstance(interactive, Rejected):
        return _rejected("interactive", interactive)
    picked = interactive.button_reply or interactive.list_reply
    if picked is None:
        return Ignored("interactive_other")  # a flow's answer (nfm_reply) and the like
    decoded = decode_choice(picked.id)
    if decoded is not None:  # one of the bot's own buttons: its payload decides
        return Content("choice", choice=decoded)
    if not picked.title.strip():
        return Ignored("interactive_without_title")
    return Content("text", picked.title)  # a button the bot did not send: its words


def _edit(body: Any) -> Content | Ignored | Rejected:
    edit = validated(WaEdit, body)
    if isinstance(edit, Rejected):
        return _rejected("edit", edit)
    edited = edit.message
    text = edited.text.body if edited.type == "text" and edited.text else None
    if edited.type in CAPTIONED:
        media = getattr(edited, edited.type)
        text = media.caption if media is not None else None
    if not text:
        return Ignored("edit_without_text")
    return Content("edit", text, edit_of=f"wa:{edit.original_message_id}")


def _rejected(where: str, rejected: Rejected) -> Rejected:
    return Rejected(f"message.{where}.{rejected.reason}")
