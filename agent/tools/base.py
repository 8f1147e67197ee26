"""What every tool is: a typed argument model, a risk level, and a run function returning an outcome.

Tools act; they never decide what the user is told. Each returns one `Outcome` and
the runtime turns it into a reply, a pending action or a refusal (ADR-011).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ToolFailure
from agent.services.tmdb import TmdbCandidate, WatchOptions
from agent.toolkinds import Kind, Risk, Service
from agent.types import Reply
from storage.documents import ItemDoc, ItemType, MemoryDoc

if TYPE_CHECKING:
    from agent.trust.estimates import Estimate
    from agent.trust.risk import Assessment

_KIND_OF_RISK: dict[Risk, Kind] = {
    "read": "read",
    "low": "change",
    "high": "delete",
    "critical": "delete",
}


class ToolArgs(BaseModel):
    """Base of every tool's arguments: unknown fields are rejected."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


@dataclass(frozen=True, slots=True)
class ToolContext:
    deps: Deps
    turn: Turn
    wants_save: bool  # the user's message asked to save (enrichment saves at once)


# -- outcomes ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Saved:
    item: ItemDoc
    created: bool
    caveats: tuple[str, ...] = ()  # text keys (agent/texts.py)
    watch: WatchFound | None = None  # where a movie or show just saved streams (issue 44)


@dataclass(frozen=True, slots=True)
class SavedMany:
    """Several items from one request (issue 26): each piece with what became of it."""

    results: tuple[tuple[str, Outcome], ...]
    left_out: int = 0  # pieces past the cap, not taken


@dataclass(frozen=True, slots=True)
class Candidates:
    kind: Literal["movie", "tv"]
    query: str
    candidates: tuple[TmdbCandidate, ...]
    caveats: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PageFetched:
    url: str
    title: str | None
    description: str | None


@dataclass(frozen=True, slots=True)
class Found:
    query: str | None
    items: tuple[ItemDoc, ...]


@dataclass(frozen=True, slots=True)
class DeletePreview:
    item: ItemDoc
    implicit: bool  # chosen by a fuzzy match rather than an exact one
    score: float = 100.0  # the matcher's 0-100 score of the query for it (100: named by id)


@dataclass(frozen=True, slots=True)
class DeleteChoice:
    query: str
    items: tuple[ItemDoc, ...]


@dataclass(frozen=True, slots=True)
class Deleted:
    item: ItemDoc


@dataclass(frozen=True, slots=True)
class NotFound:
    query: str


@dataclass(frozen=True, slots=True)
class UnknownItem:
    """An item id that is not one of this user's items (another user's, or none): an absolute block."""

    item_id: str


@dataclass(frozen=True, slots=True)
class Updated:
    item: ItemDoc
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Remembered:
    """A fact noted or a bookmark set (issue 12); `dropped` made room for it."""

    memory: MemoryDoc
    created: bool  # False: the same fact or bookmark was already kept
    label: str  # what the bookmark points at (the item's label or the moment), or the fact
    dropped: MemoryDoc | None = None


@dataclass(frozen=True, slots=True)
class Simulated:
    """What an effect would do (`simulate`): nothing was changed."""

    assessment: Assessment
    examples: tuple[ItemDoc, ...]
    ambiguous: bool = False  # a delete query matching several items (a choice would come first)
    estimate: Estimate | None = None  # match confidence, undo, similar items (issue 31)


@dataclass(frozen=True, slots=True)
class Listed:
    """`list_items`: the user's items of a type, period or state, newest first (or their count).

    `entries` are what the reply shows, numbered from `first`, in order: (item id,
    label, type); `by_type` counts every match by type, so `total` may exceed them.
    """

    type: str | None
    period: str | None
    state: str | None
    count_only: bool
    total: int
    by_type: Mapping[str, int]
    entries: tuple[tuple[str, str, str], ...] = ()
    first: int = 1
    page: int = 1
    pages: int = 1
    # DESIGN 11.5, `lista tudo`: which shown items are seen/read/done, and how many of each type
    done: frozenset[str] = frozenset()
    done_counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reasoned:
    """`log_reasoning` kept its note for `/why`: nothing was changed."""

    note: str


@dataclass(frozen=True, slots=True)
class Replied:
    """A tool that shares its implementation with an in-code reader (reminders, undo): the
    reply that code phrased, and the status the model is told."""

    reply: Reply
    status: str


@dataclass(frozen=True, slots=True)
class Failed:
    failure: ToolFailure


@dataclass(frozen=True, slots=True)
class SaveUnasked:
    """A save the planner chose for a message that asks to save nothing: not run, asked
    ("quer que eu guarde X?"), kept as an offer the user's plain yes takes (issue 41)."""

    tool: str
    args: dict[str, Any]
    label: str  # what would be saved, as the offer names it


@dataclass(frozen=True, slots=True)
class Clarification:
    """The planner asks the user one question with 2-5 options; the answer is this call's result."""

    question: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Marked:
    """An item marked seen/read/done or back (DESIGN 11.5); `changed` False: it already was."""

    item: ItemDoc  # as it is now
    before: str  # the state it had
    changed: bool


@dataclass(frozen=True, slots=True)
class MarkedMany:
    """Several items marked by one `mark_item` call, each as its own mark would be."""

    marks: tuple[Marked, ...]


@dataclass(frozen=True, slots=True)
class MarkChoice:
    """Several items answer to the name given to mark: the user says which."""

    query: str
    items: tuple[ItemDoc, ...]


@dataclass(frozen=True, slots=True)
class WatchFound:
    """Where one title can be watched in one country (TMDB/JustWatch), or why it is not known.

    `options` None with no `failure`: TMDB lists nowhere for that country.
    """

    label: str  # what the answer is about: "Duna (2021)"
    item: ItemDoc | None  # the user's item it is about, if it is on their list
    country: str
    options: WatchOptions | None
    failure: Literal["not_configured", "unavailable", "no_match"] | None = None
    found_type: Literal["movie", "tv_show"] | None = None  # what TMDB found a title off the list as


@dataclass(frozen=True, slots=True)
class Pick:
    """One suggestion and what makes it fit: genres asked for it has, its minutes, seasons."""

    item: ItemDoc
    genres: tuple[str, ...] = ()  # its genre names that matched the request
    minutes: int | None = None
    seasons: int | None = None
    oldest: bool = False  # chosen for waiting longest on the list


@dataclass(frozen=True, slots=True)
class Suggested:
    """Up to three unseen items of the user's list, or why none (`none_because`)."""

    picks: tuple[Pick, ...]
    unseen: int  # unseen items looked at
    none_because: Literal["nothing_unseen", "nothing_fits", "no_details"] | None = None
    # "no_details": the unseen items the request could not be checked on (no genres, no
    # runtime: saved without TMDB), oldest first, said rather than "I can't choose"
    waiting: tuple[ItemDoc, ...] = ()
    unchecked: int = 0  # how many such items there are (`waiting` names the first few)
    # what `waiting` lacks: "genre", "length" (both when both were asked and unknown)
    unknown: tuple[Literal["genre", "length"], ...] = ()
    # the type asked for that has nothing unseen ("unseen") or nothing that fits ("fits"):
    # the picks (or why none) are of the other types
    instead_of: ItemType | None = None
    instead_because: Literal["unseen", "fits"] = "unseen"


Outcome = (
    Saved
    | SaveUnasked
    | SavedMany
    | Candidates
    | PageFetched
    | Found
    | DeletePreview
    | DeleteChoice
    | Deleted
    | NotFound
    | UnknownItem
    | Updated
    | Remembered
    | Failed
    | Clarification
    | Simulated
    | Reasoned
    | Replied
    | Listed
    | Marked
    | MarkedMany
    | MarkChoice
    | WatchFound
    | Suggested
)

A = TypeVar("A", bound=ToolArgs)


@dataclass(frozen=True)
class Tool(Generic[A]):
    name: str
    args_model: type[A]
    risk: Risk
    description: str
    run: Callable[[ToolContext, Any], Awaitable[Outcome]]  # called with a validated `args_model`
    example: dict[str, Any]
    # what makes valid arguments invalid output for this turn (a time the message does not
    # support, DESIGN 11.1): the problem the model is told, or None
    check: Callable[[ToolContext, Any], str | None] | None = None
    kind: Kind | None = None  # what it does; None: read from its risk (`does`)
    # optional arguments that are facts a source states (a year, an id): left out of a
    # first step's grammar when the message gives no value for them (DESIGN 9.6)
    facts: frozenset[str] = frozenset()
    # the outside service without which the tool has nothing to give the user (a TMDB
    # lookup that is not a save); not configured, the model is not offered the tool
    needs: Service | None = None

    @property
    def does(self) -> Kind:
        """What the tool does: its `kind`, or read / change / delete by its risk."""
        return self.kind if self.kind is not None else _KIND_OF_RISK[self.risk]

    @property
    def writes(self) -> bool:
        return self.does not in ("read", "lookup", "ask", "check", "meta")
