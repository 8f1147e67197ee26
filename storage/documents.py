"""Stored documents, one pydantic model per collection (DESIGN section 4).

Times are integer epoch milliseconds (`*_ms`), except `processed_updates.created_at`,
a BSON date because its TTL index needs one. Ids are strings. Anything a user or a
model wrote that is structured (tool arguments, pending payloads) is stored as JSON
text, so `$`-prefixed or dotted keys stay data and are never read as operators.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ItemType = Literal["note", "movie", "tv_show", "video", "link"]
ITEM_TYPES: tuple[ItemType, ...] = ("note", "movie", "tv_show", "video", "link")
# DESIGN 11.5: where an item is on the user's list. Each type starts in its first state and
# is marked into its done one (and back); an item stored before states reads as its first.
ItemState = Literal["to_see", "seen", "to_read", "read", "open", "done"]
FIRST_STATE: dict[ItemType, ItemState] = {
    "movie": "to_see",
    "tv_show": "to_see",
    "video": "to_see",
    "link": "to_read",
    "note": "open",
}
DONE_STATE: dict[ItemType, ItemState] = {
    "movie": "seen",
    "tv_show": "seen",
    "video": "seen",
    "link": "read",
    "note": "done",
}
Role = Literal["human", "ai", "tool", "system"]
UpdateStatus = Literal["received", "done", "throttled"]  # throttled: rate-limited, kept


class StoredModel(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    def to_doc(self) -> dict[str, Any]:
        """The document as stored (with `_id`)."""
        return self.model_dump(by_alias=True)


class EffectDoc(BaseModel):
    """An effect begun in one conversation and not yet recorded (issue 15: effect + event as a unit).

    Written on the user document before the effect, cleared by the same update that
    moves the counters, after the ledger event: whatever a crash interrupts, the next
    turn of that conversation (or its re-drive) finishes it. `counted` is only ever
    true on intents an earlier version wrote (it counted before recording): their
    counters have moved and must not move again.
    """

    model_config = ConfigDict(extra="ignore")
    id: str
    op: Literal["save", "delete", "delete_all", "save_many", "undo"]
    started_ms: int
    update_id: str | None = None
    item_id: str | None = None
    item_type: ItemType | None = None
    counted: bool = False
    enriched: bool = False
    dedup_sha256: str | None = None
    item_json: str | None = None  # a deleted item, to answer the re-drive as the first run did
    item_ids: list[str] = Field(default_factory=list)  # `save_many`: the items it inserts
    up_to_seq: int | None = None
    by_type: dict[str, int] = Field(default_factory=dict)
    # an undo (DESIGN 11.3): the events it reverts, what it writes, and the reply it owes
    undo_json: str | None = None
    copied: bool = False  # a delete_all's kept copy is complete: a re-run deletes, never copies


NO_REMINDERS = 2**62  # `UserDoc.reminder_hint_ms` when the user has no open reminder


class UserDoc(StoredModel):
    id: str = Field(alias="_id")
    channel: str
    language: Literal["pt", "en"]
    timezone: str
    created_at_ms: int
    last_seen_at_ms: int
    active: bool = True
    item_seq: int = 0
    # moves with every change to the user's items (agent/conversation/listing.py: the shelf's key)
    items_v: int = 0
    # what `lista tudo` shows, valid while its key matches (agent/conversation/listing.py)
    shelf: dict[str, Any] | None = None
    # the last message number reserved in the user's private conversation (storage/messages.py)
    message_seq: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    daily_token_quota: int | None = None
    display_name: str | None = None
    # sessions and consolidation (DESIGN 3.8)
    session_open: bool = False
    session_start_ms: int | None = None
    sessions_since_dream: int = 0
    dream_last_day: str | None = None
    dream_due: str | None = None  # a critical event asked for a consolidation
    planner_failures_in_row: int = 0
    language_chosen: bool = False  # set by /lang: then it wins over the message's language
    # what dreaming learned (agent/memory/patterns.py): structured flags and the baseline narrative
    patterns: dict[str, Any] = Field(default_factory=dict)
    baseline: str | None = None
    # per-period summaries consolidation keeps (agent/memory/periods.py): recent, month, older
    periods: dict[str, Any] = Field(default_factory=dict)
    # effects begun and not yet recorded, one slot per conversation (None once recorded)
    effects: dict[str, EffectDoc | None] = Field(default_factory=dict)
    # no open reminder is due before this (NO_REMINDERS: none is open; None: not known yet)
    reminder_hint_ms: int | None = None
    # destructive tools this user has run (agent/trust/risk.py: a first use is always confirmed)
    destructive_used: dict[str, bool] = Field(default_factory=dict)
    # the pending action of each conversation (storage/pending.py: slot -> PendingDoc, None: settled)
    pending: dict[str, dict[str, Any] | None] = Field(default_factory=dict)
    pending_due_ms: int | None = None  # the latest deadline among them (for the expiry sweep)
    # what each conversation was last shown, numbered (agent/conversation/shelf.py, DESIGN 10.1):
    # the same slots as `pending`; valid while the session that showed it is open
    shelves: dict[str, dict[str, Any] | None] = Field(default_factory=dict)
    # the answer of each conversation's last turn that changed something, with its update id:
    # a re-drive of that update repeats it (issue 46); the same slots as `pending`
    answers: dict[str, dict[str, Any] | None] = Field(default_factory=dict)
    # the last undo's receipt (update id and what its reply named): a re-drive answers with it
    last_undo: dict[str, Any] | None = None
    # DESIGN 11.5: the types of which an item was ever marked seen/read/done (never unset:
    # a type not here has none, so its list reads nothing more than before states)
    marked: dict[str, bool] = Field(default_factory=dict)
    # where-to-watch's country (ISO 3166-1, `/pais XX`); None: from the language
    country: str | None = None


class ItemDoc(StoredModel):
    id: str = Field(alias="_id")
    user_id: str
    seq: int
    type: ItemType
    title: str | None = None
    original_title: str | None = None  # TMDB's, beside the localized title (DESIGN 9.2)
    year: int | None = None
    tmdb_id: int | None = None
    url: str | None = None
    description: str | None = None
    content: str | None = None
    overview: str | None = None
    dedup_key: str
    enriched: bool = False
    created_at_ms: int
    updated_at_ms: int
    update_id: str | None = None  # the platform update that created it: its re-drive is no "dedup"
    # the platform message whose turn saved it (`tg:<chat>:<id>`, `wa:<wamid>`): its edit corrects it
    source_message: str | None = None
    # when the platform says the edit last applied to it was made: an older one arriving later is ignored
    edited_at_s: float | None = None
    edited_by: str | None = None  # the update of that edit: its re-drive answers, changes nothing
    # DESIGN 11.5: None is the type's first state (never written for it); `done_key` is
    # `done_key_of(...)` while the state is the done one, so a user's seen movies are one
    # equality on an index (storage/items.py) and the unseen ones `done_key: None`
    state: ItemState | None = None
    state_at_ms: int | None = None
    rating: int | None = None  # 0-10, as the user gave it
    comment: str | None = None  # what the user said of it when marking it ("loved it"), as said
    done_key: str | None = None
    # what TMDB told when it was enriched (agent/tools/watching.py): minutes (a movie's
    # runtime, an episode's for a show), genre names in the user's language, seasons
    runtime_min: int | None = None
    genres: list[str] = Field(default_factory=list)
    seasons: int | None = None
    # where to watch it, as TMDB last told for one country, with when (a day's cache)
    watch: dict[str, Any] | None = None

    @property
    def current_state(self) -> ItemState:
        """The item's state: stored, or its type's first one."""
        return self.state or FIRST_STATE[self.type]

    @property
    def done(self) -> bool:
        """Whether it is seen, read or done."""
        return self.current_state == DONE_STATE[self.type]

    @property
    def label(self) -> str:
        """A short human label: title, else URL, else the start of the note."""
        if self.title:
            return self.title
        if self.url:
            return self.url
        text = (self.content or "").strip().replace("\n", " ")
        return text if len(text) <= 60 else text[:57] + "..."


def done_key_of(user_id: str, item_type: ItemType) -> str:
    """The `done_key` of a user's items of one type while they are seen, read or done."""
    return f"{user_id}|{item_type}"


class ToolCallRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    args_json: str


class MessageDoc(StoredModel):
    id: str = Field(alias="_id")
    conversation_id: str
    user_id: str
    seq: int
    role: Role
    content: str = ""
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    turn_id: str | None = None
    meta_json: str | None = None  # the reply's confidence meta, on a turn's final `ai` message
    situation: str | None = None  # a `human` record: the situation its request showed before it
    # ... and what that situation told, part by part (agent/memory/situation.py)
    situation_parts: list[Any] | None = None  # read leniently: agent/memory/situation.py
    step_text: str | None = None  # an `ai` step as the model wrote it (json_schema output)
    ts_ms: int


class PendingDoc(StoredModel):
    id: str = Field(alias="_id")
    user_id: str
    kind: str
    payload_json: str
    language: Literal["pt", "en"] = "pt"
    created_at_ms: int
    expires_at_ms: int
    # the update that answered it ("sim", "não"), while that turn runs: only its re-drive sees it
    taken_by: str | None = None


class LedgerDoc(StoredModel):
    id: str = Field(alias="_id")
    stream: str
    seq: int
    type: str
    payload: dict[str, Any]
    ts: int
    prev_hash: str
    hash: str
    sig: str | None = (
        None  # Ed25519 over `hash` with the key outside the database (storage/signing)
    )


class BeliefDoc(StoredModel):
    id: str = Field(alias="_id")
    user_id: str
    key: str
    value: float
    updated_at_ms: int


class ProcessedUpdateDoc(StoredModel):
    id: str = Field(alias="_id")
    status: UpdateStatus
    created_at: datetime
    updated_at_ms: int
    attempts: int = 0
    payload_json: str = ""
    reply_json: str | None = None
    user_id: str | None = None  # whose update it is, so /forget can scrub the reply
    queue: str | None = None  # the chat's queue key while it waits (storage/chatqueue.py)
    seq: int = 0  # arrival number in that chat (wall-clock microseconds)
    notice: bool = False  # the flood's one notice, not a turn
    refused_day: str | None = None  # the day its sender, not allowed, was refused (issue 34)
    pairing_code: str | None = None  # sha256 of the code that refusal gave (DESIGN 11.6)
    pairing_until_ms: int = 0  # ...which an admin may approve until then
    transcript: str | None = None  # what its voice note said, kept while `received` (DESIGN 10.3)


class LeaseDoc(StoredModel):
    id: str = Field(alias="_id")
    owner: str
    expires_at_ms: int
    # chat leases (storage/leases.py): the holder's stretch of serving alone when it gave
    # the lease back in place, and until when another process asked for a read
    epoch: str = ""
    wanted_until_ms: int = 0


class ConstitutionOverride(BaseModel):
    """One structured override: when `trigger` applies, follow `instruction` (higher priority first)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trigger: str = Field(min_length=1, max_length=200)
    instruction: str = Field(min_length=1, max_length=500)
    priority: int = Field(default=0, ge=0, le=100)


class ConstitutionDoc(StoredModel):
    id: str = Field(alias="_id")
    version: int
    text: str
    created_at_ms: int
    author: str = "system"
    # the structured part (issue 13); versions stored before it read with these defaults
    overrides: list[ConstitutionOverride] = Field(default_factory=list)
    stance: str = ""
    risk_tolerance: float = Field(default=0.0, ge=0.0, le=1.0)


ReminderState = Literal["scheduled", "sending", "sent", "cancelled"]


class ReminderDoc(StoredModel):
    """One reminder (DESIGN 9.3); `wake_at_ms` is when the scheduler must look at it next.

    Scheduled: the due time; sending: when the claim goes stale (2 minutes); sent,
    cancelled or held for the user's next message: None, so the scheduler never sees it.
    """

    id: str = Field(alias="_id")
    user_id: str
    channel: str
    chat_id: str
    text: str
    language: Literal["pt", "en"] = "pt"
    timezone: str
    due_at_ms: int
    state: ReminderState = "scheduled"
    wake_at_ms: int | None = None
    attempts: int = 0
    claimed_by: str | None = None
    held: bool = False  # WhatsApp outside the 24-hour window: shown with the next reply
    created_at_ms: int
    updated_at_ms: int
    sent_at_ms: int | None = None
    # a repeating reminder (DESIGN 11.4): an RFC 5545 RRULE (no COUNT/UNTIL: they are below),
    # read from `start_local` (the first occurrence's wall time in `timezone`); `due_at_ms` is
    # the next occurrence and `sent_count` how many were sent
    rule: str | None = None
    start_local: str | None = None
    count: int | None = None
    until_ms: int | None = None
    sent_count: int = 0


class SnapshotDoc(StoredModel):
    """Deleted items kept for 24 hours so `desfaz` can bring them back (DESIGN 9.4).

    One document holds a pack of up to `storage.snapshots.PACK` items of one deletion
    (issue 47: 50,000 deleted items are 100 documents, not 50,000). A document written
    before packs holds one item in `item_json` (id "<batch>:<item id>").
    """

    id: str = Field(alias="_id")  # "<batch>#<pack number>", or "<batch>:<kind>:<id>" for one state
    user_id: str
    batch: str  # one deletion (one item, or one delete_all), edit or undo
    item_json: str = ""  # one document exactly as it was stored ("" when `absent`, or a pack)
    items_json: str = ""  # a pack: a JSON list of items, each exactly as it was stored
    count: int = 1  # how many items the document holds
    kind: Literal["item", "reminder", "memory"] = "item"
    absent: bool = False  # the document did not exist then (an undo's redo deletes it again)
    taken_at_ms: int
    expires_at_ms: int


MemoryKind = Literal["fact", "bookmark"]


class AllowedUserDoc(StoredModel):
    """Someone an admin let in beside ALLOWED_USER_IDS (DESIGN 11.6)."""

    id: str = Field(alias="_id")  # the namespaced id (`tg:123`, `wa:5511...`)
    added_by: str  # the admin's namespaced id, or `cli` (`lembra users allow`)
    added_at_ms: int


class MemoryDoc(StoredModel):
    """A note the assistant keeps about its user, or a bookmark (issue 12: model memory)."""

    id: str = Field(alias="_id")
    user_id: str
    kind: MemoryKind
    text: str  # the fact, or the bookmark's note
    item_id: str | None = None  # a bookmark of one of the user's items
    event: str | None = None  # a bookmark of a moment of the conversation
    pinned: bool = False  # a pinned bookmark is never dropped to make room
    seq: int = 0  # order within the user's memories of this kind (turns can share a millisecond)
    created_at_ms: int
