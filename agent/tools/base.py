"""What every tool is: a typed argument model, a risk level, and a run function returning an outcome.

Tools act; they never decide what the user is told. Each returns one `Outcome` and
the runtime turns it into a reply, a pending action or a refusal (ADR-011).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ToolFailure
from agent.services.tmdb import TmdbCandidate, WatchOptions
from storage.documents import ItemDoc, MemoryDoc

if TYPE_CHECKING:
    from agent.trust.estimates import Estimate
    from agent.trust.risk import Assessment

Risk = Literal["low", "read", "high", "critical"]


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
class Reasoned:
    """`log_reasoning` kept its note for `/why`: nothing was changed."""

    note: str


@dataclass(frozen=True, slots=True)
class Failed:
    failure: ToolFailure


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


Outcome = (
    Saved
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
    | Marked
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

    @property
    def writes(self) -> bool:
        return self.risk in ("low", "high", "critical") and not self.name.startswith(
            ("enrich_", "search_")
        )
