"""What crosses the boundary between channels and the runtime: `Incoming` in, `Reply` out.

Channels normalize their payloads into one frozen `Incoming` and render one `Reply`;
they never decide anything. Every channel calls the same `Runtime.handle`.
"""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal

Channel = Literal["telegram", "whatsapp", "console"]
Language = Literal["pt", "en"]
State = Literal["OK", "PARTIAL", "AMBIGUOUS", "FAIL"]
ChoiceKind = Literal["none", "pick", "confirm"]
IncomingKind = Literal["text", "choice", "unsupported", "edit", "voice"]
# Downloads a file the user sent, at most `limit` bytes (the channel's code). Raises
# `FileTooLarge` when the file is larger (as the platform tells, or as it streams),
# `ServiceUnavailable` when trying again later can help, `ServiceError` otherwise.
Fetch = Callable[[int], Awaitable[bytes]]

CHANNEL_PREFIX: dict[Channel, str] = {"telegram": "tg", "whatsapp": "wa", "console": "cli"}


def namespaced_user_id(name: str) -> str:
    """A user id as an operator or a transcript gives it: `alice` -> `cli:alice`; `tg:123` is kept.

    Raises:
        ValueError: when the id or either side of its namespace is empty (`""`, `tg:`, `:5`).
    """
    name = name.strip()
    namespace, sep, local = name.partition(":")
    if not name or (sep and (not namespace or not local)):
        raise ValueError(f"{name!r} is not a user id (`alice`, `cli:alice`, `tg:123`)")
    return name if sep else f"{CHANNEL_PREFIX['console']}:{name}"


@dataclass(frozen=True, slots=True)
class Audio:
    """A voice note or audio file as the channel announced it; its bytes are fetched on demand.

    The runtime checks the limits on what was announced before anything is downloaded,
    and never downloads an update whose transcript is already kept (DESIGN 10.3).

    Args:
        mime_type: as the platform gave it (`audio/ogg`, `video/mp4`...; "" when unknown).
        seconds: the duration the platform announced (None: not announced, as on WhatsApp).
        size: the size in bytes the platform announced (None: not announced).
        max_bytes: the most the platform lets a bot download (Telegram's 20 MB), if any.
        fetch: downloads the bytes, at most as many as the runtime accepts (`Fetch`).
    """

    mime_type: str
    fetch: Fetch = field(compare=False, repr=False)
    seconds: float | None = None
    size: int | None = None
    max_bytes: int | None = None


# What `/import` reads (Lembra's JSON export, a list of titles and links): a file so
# named, or so typed when its name has no extension.
IMPORT_SUFFIXES = (".json", ".txt", ".csv")
IMPORT_MIME_TYPES = frozenset(
    {"application/json", "text/plain", "text/csv", "text/comma-separated-values", "text/x-csv"}
)


@dataclass(frozen=True, slots=True)
class Document:
    """A file the user sent (a Telegram document) for `/import`; its bytes are fetched on demand.

    Args:
        file_name: as the user's app named it ("" when it gave none).
        mime_type: as the platform gave it ("" when unknown).
        size: the size in bytes the platform announced (None: not announced).
        max_bytes: the most the platform lets a bot download (Telegram's 20 MB), if any.
        fetch: downloads the bytes, at most as many as the runtime accepts (`Fetch`).
    """

    file_name: str
    mime_type: str
    fetch: Fetch = field(compare=False, repr=False)
    size: int | None = None
    max_bytes: int | None = None

    @property
    def importable(self) -> bool:
        """Whether `/import` reads this kind of file (by its name, else by its type)."""
        suffix = self.suffix
        if suffix is not None:
            return suffix in IMPORT_SUFFIXES
        return self.mime_type.split(";", 1)[0].strip().lower() in IMPORT_MIME_TYPES

    @property
    def suffix(self) -> str | None:
        """The name's extension (".txt"), lower-cased; None when the name has none."""
        stem, dot, suffix = self.file_name.strip().lower().rpartition(".")
        if dot and stem and suffix.isascii() and suffix.isalnum() and len(suffix) <= 5:
            return f".{suffix}"
        return None


@dataclass(frozen=True, slots=True)
class Incoming:
    """One normalized incoming message.

    Args:
        chat_id: the platform's chat id as a string (for the console, the user's local name).
        user_id: the namespaced user id (`tg:123`, `wa:5511...`, `cli:alice`).
        choice: a 0-based button index when the user pressed a button.
        choice_token: the token the button carried, tying it to one pending action.
        update_id: the namespaced platform update id, carried into ledger events.
        message_id: the platform's id of this message (`tg:<chat>:<id>`, `wa:<wamid>`): an
            item this turn saves keeps it, so an edit of the message can correct the item.
        edit_of: for kind "edit", the `message_id` of the message the user edited; `text`
            is then its new text.
        edited_at_s: for kind "edit", when the platform says the edit was made (Telegram's
            `edit_date`, WhatsApp's timestamp): of two edits of one message, the newer wins
            whatever order they arrive in.
        audio: what a `voice` message holds (a voice note, an audio file, a round video).
        document: a file sent to be imported; `text` is then `/import <its name>`, and
            `/import` reads the file instead of the words after the command.
    """

    channel: Channel
    chat_id: str
    user_id: str
    text: str | None = None
    kind: IncomingKind = "text"
    choice: int | None = None
    choice_token: str | None = None
    update_id: str | None = None
    language_hint: Language | None = None
    display_name: str | None = None
    message_id: str | None = None
    edit_of: str | None = None
    edited_at_s: float | None = None
    audio: Audio | None = None
    document: Document | None = None

    @property
    def conversation_id(self) -> str:
        """`<prefix>:<chat id>`; equals the user id in private chats."""
        return f"{CHANNEL_PREFIX[self.channel]}:{self.chat_id}"


@dataclass(frozen=True, slots=True)
class Choice:
    """One option the user can pick (a button where the channel has them)."""

    index: int
    label: str


@dataclass(frozen=True, slots=True)
class BeliefView:
    key: str
    guessed: float
    delta: float


@dataclass(frozen=True, slots=True)
class ReplyMeta:
    """Why the reply is what it is (DESIGN 3.4): shown by `/why` and `--show-meta`."""

    state: State = "OK"
    score: int = 100
    warning: bool = False
    rules_applied: tuple[str, ...] = ()
    caveats: tuple[str, ...] = ()
    belief: BeliefView | None = None
    tools_executed: tuple[str, ...] = ()
    llm_calls: int = 0
    prompt_tokens: int = 0
    cached_tokens: int = 0  # prompt tokens of the turn's model calls the server had cached
    turn_kind: str = "deterministic"
    intent: str = ""
    receipts: tuple[str, ...] = ()  # "type:hash": the ledger event of each committed effect
    blocks: tuple[str, ...] = ()  # absolute blocks of DESIGN 3.4 the turn raised
    tokens: int = 0  # prompt tokens of every model call of the turn, summed (turn_done)
    reasoning: str = ""  # the planner's own note of why it chose its step (log_reasoning)


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file to send with the reply (e.g. `/export`): its bytes, or a file holding them.

    A long export is written to a file as it is read (issue 47) and sent from there;
    `data` is then empty.
    """

    filename: str
    mime_type: str
    data: bytes = b""
    path: Path | None = None

    @property
    def size(self) -> int:
        return self.path.stat().st_size if self.path is not None else len(self.data)

    def open(self) -> BinaryIO:
        """The bytes to send, as a file the caller closes."""
        return self.path.open("rb") if self.path is not None else io.BytesIO(self.data)

    def read(self) -> bytes:
        """Every byte at once (small files, tests)."""
        return self.path.read_bytes() if self.path is not None else self.data


# How far a long piece of work is, for a channel that shows it (the console): (done, of).
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Paging:
    """Where a paged list is: the messages that ask for the neighbouring pages (None at an end)."""

    page: int
    pages: int
    previous: str | None = None
    next: str | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    text: str
    choices: tuple[Choice, ...] = ()
    choice_kind: ChoiceKind = "none"
    choice_token: str | None = None
    meta: ReplyMeta = field(default_factory=ReplyMeta)
    attachment: Attachment | None = None
    silent: bool = False
    paging: Paging | None = None
    # a second reply, built after this one is out ("preparando seu arquivo..." then the file):
    # every channel sends this reply, then awaits this and sends what it returns
    follow_up: Callable[[Progress | None], Awaitable[Reply]] | None = None
