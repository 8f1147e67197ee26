"""Pending actions: the one open choice or confirmation of a conversation (DESIGN 3.2, 3.3).

Stored on the user document (storage/pending.py: they survive a restart, and the
turn has them from the read it makes anyway), one per conversation, with an expiry (2 minutes by default). Each carries a short token that its buttons
repeat, so a button from an older question cannot act on a newer one.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from agent.conversation import shelf as shelves
from agent.conversation.replies import confirm_choices, finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import text
from agent.tools.base import Deleted, DeletePreview, Saved
from agent.types import Reply
from storage.documents import ItemState, ItemType, PendingDoc
from storage.pending import held, pending_key, pending_slot, stored_form


class _Payload(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(default_factory=lambda: secrets.token_urlsafe(6))


class CandidateOption(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tmdb_id: int
    title: str
    year: int | None
    overview: str = ""
    original_title: str | None = None


class ItemOption(BaseModel):
    model_config = ConfigDict(extra="forbid")

    item_id: str
    label: str
    year: int | None = None


class ChooseCandidate(_Payload):
    kind: Literal["choose_candidate"] = "choose_candidate"
    item_type: Literal["movie", "tv_show"]
    query: str
    options: list[CandidateOption]


class ChooseDelete(_Payload):
    kind: Literal["choose_delete"] = "choose_delete"
    query: str
    options: list[ItemOption]


class ConfirmDeleteItem(_Payload):
    kind: Literal["confirm_delete_item"] = "confirm_delete_item"
    item_id: str
    label: str
    # deletions asked while this one waited ("apaga a primeira" ... "e a segunda também"):
    # one "sim" for them all
    also: list[ItemOption] = Field(default_factory=list)


class ConfirmDeleteAll(_Payload):
    kind: Literal["confirm_delete_all"] = "confirm_delete_all"
    count: int
    up_to_seq: int | None = None  # the items the preview showed; later ones are kept


class ConfirmForget(_Payload):
    kind: Literal["confirm_forget"] = "confirm_forget"


class OfferSave(_Payload):
    """ "Guardar como nota?": what the offline planner offers to keep (DESIGN 9.2), or a save
    the planner chose for a message that asked for none (issue 41)."""

    kind: Literal["offer_save"] = "offer_save"
    tool: Literal[
        "save_note", "save_link", "save_video", "save_movie", "save_tv_show", "save_items"
    ]
    args_json: str


class OfferSeen(_Payload):
    """ "vi X ontem, nota 8" when X is not on the list (issue 44): "X isn't on your list. Save
    it as seen?"; the user's yes saves it seen, with the rating, comment and day said."""

    kind: Literal["offer_seen"] = "offer_seen"
    item_type: Literal["movie", "tv_show"]
    title: str = Field(max_length=500)
    year: int | None = None
    tmdb_id: int | None = None
    original_title: str | None = Field(default=None, max_length=500)
    overview: str = Field(default="", max_length=4000)
    rating: int | None = Field(default=None, ge=0, le=10)
    comment: str = Field(default="", max_length=200)
    seen_at_ms: int


class ConfirmUndoAll(_Payload):
    """`desfaz` after `apaga tudo`: restore the snapshot batch once the user says "sim"."""

    kind: Literal["confirm_undo_all"] = "confirm_undo_all"
    event_hash: str
    batch: str
    count: int


class ImportEntry(BaseModel):
    """One item `/import` read, as `store_item` takes it."""

    model_config = ConfigDict(frozen=True)
    type: ItemType
    title: str | None = Field(default=None, max_length=500)
    year: int | None = Field(default=None, ge=1800, le=2200)
    tmdb_id: int | None = Field(default=None, ge=1)
    url: str | None = Field(default=None, max_length=2048)
    description: str | None = Field(default=None, max_length=2000)
    content: str | None = Field(default=None, max_length=4000)
    overview: str | None = Field(default=None, max_length=4000)
    source_id: str | None = Field(default=None, max_length=64)  # its id in the export
    # DESIGN 11.5: seen/read/done as exported, when; what TMDB told (issue 44)
    state: ItemState | None = None
    state_at_ms: int | None = Field(default=None, ge=0)
    rating: int | None = Field(default=None, ge=0, le=10)
    comment: str | None = Field(default=None, max_length=200)  # what the user said marking it
    runtime_min: int | None = Field(default=None, ge=1, le=100_000)
    genres: tuple[str, ...] = Field(default=(), max_length=8)
    seasons: int | None = Field(default=None, ge=1, le=1_000)


class ImportMemory(BaseModel):
    """One of the assistant's notes `/import` read from an export: a fact or a bookmark."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["fact", "bookmark"]
    text: str = Field(min_length=1, max_length=300)
    item_ref: str | None = Field(default=None, max_length=64)  # the bookmarked item's export id
    event: str | None = Field(default=None, min_length=1, max_length=200)
    pinned: bool = False


class ImportReminder(BaseModel):
    """An open reminder `/import` read from an export, with its rule when it repeats."""

    model_config = ConfigDict(frozen=True)
    text: str = Field(max_length=300)
    timezone: str = Field(max_length=64)
    language: Literal["pt", "en"] = "pt"
    due_at_ms: int
    rule: str | None = Field(default=None, max_length=200)
    start_local: str | None = Field(default=None, max_length=32)
    count: int | None = None
    until_ms: int | None = None


class ConfirmImport(_Payload):
    """`/import`: the previewed entries, saved once the user says "sim"."""

    kind: Literal["confirm_import"] = "confirm_import"
    entries: list[ImportEntry]
    memories: list[ImportMemory] = Field(default_factory=list)
    reminders: list[ImportReminder] = Field(default_factory=list)


class ChooseClarification(_Payload):
    """The planner's `request_clarification` (issue 13): its answer is that call's result."""

    kind: Literal["choose_clarification"] = "choose_clarification"
    call_id: str
    step_json: str  # the planner step that asked, replayed with the answer as its result
    options: list[str]


class ConfirmClearMemory(_Payload):
    """`/memory apaga tudo`: the assistant's notes and bookmarks go once the user says "sim"."""

    kind: Literal["confirm_clear_memory"] = "confirm_clear_memory"
    count: int


class ChooseReminderTime(_Payload):
    """A reminder whose time was a period or vague (issue 36): its choices, as due instants."""

    kind: Literal["choose_reminder_time"] = "choose_reminder_time"
    what: str
    options_ms: list[int]
    context: str = ""  # the period asked about ("semana que vem"), read again with the answer
    # the context is a part of a day ("amanhã de manhã"): read again with a bare clock only
    clock_only: bool = False
    rule: str | None = None  # a repeating reminder's RRULE: the option chosen is its first day
    # a reminder's id: "Later or earlier?" for a move by an amount; the option chosen moves
    # that reminder (later, earlier), nothing new is set
    moves: str = ""
    note: str = ""  # typed with no request verb: the last choice keeps the message as a note


class ChooseCancelScope(_Payload):
    """ "cancela o lembrete do remédio" when it repeats: only the next one, or all (issue 43)."""

    kind: Literal["choose_cancel_scope"] = "choose_cancel_scope"
    reminder_id: str


Pending = Annotated[
    ChooseCandidate
    | ChooseDelete
    | ConfirmDeleteItem
    | ConfirmDeleteAll
    | ConfirmForget
    | OfferSave
    | OfferSeen
    | ConfirmUndoAll
    | ConfirmImport
    | ChooseClarification
    | ConfirmClearMemory
    | ChooseReminderTime
    | ChooseCancelScope,
    Field(discriminator="kind"),
]
Choice_ = ChooseCandidate | ChooseDelete

_ADAPTER: TypeAdapter[Pending] = TypeAdapter(Pending)


def is_choice(pending: Pending) -> bool:
    return isinstance(pending, ChooseCandidate | ChooseDelete)


def option_years(pending: Choice_) -> list[int | None]:
    return [option.year for option in pending.options]


def option_count(pending: Choice_) -> int:
    return len(pending.options)


def parse(payload_json: str) -> Pending | None:
    """A stored pending action's payload, or None when it can no longer be read."""
    try:
        return _ADAPTER.validate_json(payload_json)
    except ValueError:
        return None


async def load(deps: Deps, turn: Turn) -> Pending | None:
    """The conversation's live pending action, if any.

    An expired one is dropped, and the reply says so: the user who answers "sim"
    after the deadline learns that the question expired and nothing was done.
    """
    found = await load_with_expiry(deps, turn)
    return None if found is None else found[0]


async def load_with_expiry(deps: Deps, turn: Turn) -> tuple[Pending, int] | None:
    """The live pending action and its deadline (epoch ms), from the user document the turn read."""
    doc = held(turn.user, turn.conversation_id)
    if doc is None:
        return None
    if doc.taken_by is not None:  # answered by an update whose turn did not finish
        if doc.taken_by != turn.incoming.update_id:
            return None  # only that update's re-drive sees it, to answer as it would have
        turn.redriven = True
        return _ADAPTER.validate_json(doc.payload_json), doc.expires_at_ms
    if doc.expires_at_ms <= turn.now_ms:
        await deps.db.pending.drop_expired(turn.user_id, doc)
        _set_held(turn, _slot(turn), None)
        expired = "pending_dropped" if doc.kind.startswith("choose_") else "confirmation_expired"
        if doc.kind != "offer_save":  # an offer lapses quietly: nothing was at stake
            turn.notes.append(text(expired, turn.language))
        return None
    try:
        return _ADAPTER.validate_json(doc.payload_json), doc.expires_at_ms
    except ValueError:
        # A pending action we can no longer read is dropped rather than guessed at.
        await clear(deps, turn)
        return None


async def store(deps: Deps, turn: Turn, pending: Pending) -> None:
    """Hold `pending` for this conversation, replacing whatever was pending."""
    ttl_ms = deps.settings.pending_ttl_seconds * 1000
    doc = PendingDoc(
        _id=turn.conversation_id,
        user_id=turn.user_id,
        kind=pending.kind,
        payload_json=pending.model_dump_json(),
        language=turn.language,
        created_at_ms=turn.now_ms,
        expires_at_ms=turn.now_ms + ttl_ms,
    )
    # the shelf this turn shows goes in the same round trip (agent/conversation/shelf.py)
    await deps.db.pending.put(doc, also=shelves.take_staged(turn))
    _set_held(turn, *stored_form(doc))


async def ask_to_confirm(deps: Deps, turn: Turn, pending: Pending, body: str) -> Reply:
    """Hold `pending` and show `body` as a preview that only an explicit "sim" confirms."""
    await store(deps, turn, pending)
    turn.facts.apply_rule("confirmation_required")
    return finish(
        turn,
        body,
        kind="preview",
        choices=confirm_choices(turn),
        choice_kind="confirm",
        choice_token=pending.token,
    )


TAKEN_KEEP_MS = 24 * 3600 * 1000  # a re-drive comes within minutes; a day is plenty


async def take(deps: Deps, turn: Turn) -> None:
    """The pending action is being answered by this update: gone for any other, kept for this
    one's re-drive until the turn's answer is kept (`settled_fields`). Without an update id
    (the console) it is simply cleared."""
    update_id = turn.incoming.update_id
    if update_id is None:
        await clear(deps, turn)
        return
    keep_until = turn.now_ms + TAKEN_KEEP_MS
    await deps.db.pending.take(
        turn.user_id, turn.conversation_id, update_id, keep_until_ms=keep_until
    )
    doc = held(turn.user, turn.conversation_id)
    if doc is not None:
        taken = doc.model_copy(update={"taken_by": update_id, "expires_at_ms": keep_until})
        _set_held(turn, *stored_form(taken))
    turn.took_pending = True


def settled_fields(turn: Turn) -> dict[str, Any]:
    """The user document's fields that clear a pending action this turn took (and still holds)."""
    doc = held(turn.user, turn.conversation_id)
    if doc is None or doc.taken_by is None or doc.taken_by != turn.incoming.update_id:
        return {}
    return {f"pending.{_slot(turn)}": None}


async def clear(deps: Deps, turn: Turn) -> bool:
    """Drop the pending action `load` returned for this turn."""
    cleared = await deps.db.pending.delete(turn.user_id, turn.conversation_id)
    _set_held(turn, _slot(turn), None)
    return cleared


def _slot(turn: Turn) -> str:
    return pending_slot(pending_key(turn.user_id, turn.conversation_id))


def _set_held(turn: Turn, slot: str, stored: dict[str, Any] | None) -> None:
    """Keep the turn's copy of the user document in step with what was just written."""
    turn.user = turn.user.model_copy(update={"pending": {**turn.user.pending, slot: stored}})


def _answers(pending: object, outcome: object) -> bool:
    """Whether the planner's tool outcome is the answer to `pending` (an offered option chosen)."""
    if isinstance(pending, ChooseCandidate) and isinstance(outcome, Saved):
        return outcome.item.tmdb_id in {o.tmdb_id for o in pending.options}
    if isinstance(pending, ChooseDelete) and isinstance(outcome, DeletePreview | Deleted):
        return outcome.item.id in {o.item_id for o in pending.options}
    return False


async def settle_open(deps: Deps, turn: Turn, *, status: str, outcome: object) -> None:
    """After a planner step: an open pending action the planner did not act on with a tool stays.

    A tool that ran either answered it (an offered option was chosen) or moved on to
    something else; both close the question, and only the second says it was dropped.
    """
    current = turn.open_pending
    if current is None or status != "tool":
        return
    turn.open_pending = None
    await clear(deps, turn)
    if _answers(current, outcome):
        turn.facts.apply_rule("pending_answered_by_planner")
    else:
        turn.notes.append(text("pending_dropped", turn.language))
