"""What undoing each kind of effect writes (DESIGN 11.3): one small function per ledger event type.

An inverse reads what the effect left and says what to put back, as a `Swap`: each document
(item, reminder, memory) as it is now and as it must be after the undo. The swap is decided
before anything is written, so the undo can be kept on the user document as one recoverable
effect (agent/trust/effects.py) and finished by a re-drive; `apply` writes it through the
paths every write takes (items with their index words; their counters move, once, when the
effect ends). Undoing an `undone` event is «refaz»: the documents go back to the states that
undo kept in its snapshot batch.

Adding an undoable effect is one entry in `INVERSES`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from agent.deps import Deps
from storage.documents import ItemDoc, LedgerDoc, MemoryDoc, ReminderDoc
from storage.snapshots import Kind, State

ReplyKey = Literal[
    "undo_unsaved",
    "undo_restored",
    "undo_all_done",
    "undo_unedited",
    "undo_retyped",
    "undo_reminder_set",
    "undo_reminder_cancelled",
    "undo_reminder_changed",
    "undo_memory",
    "undo_unmarked",
    "redo_done",
]


class Change(BaseModel):
    """One document: as it is now and as the undo leaves it (None: absent)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: Kind
    id: str
    before: str | None
    after: str | None


class Swap(BaseModel):
    """What one undo writes, and what its reply says (a text key, a count, the changes)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    changes: tuple[Change, ...]
    key: ReplyKey
    count: int  # how many things the reply says came back or went
    confirm: bool = False  # many items come back: a preview and "sim" first
    # an undone «apaga tudo»: its kept copy comes back from this snapshot batch, a pack at
    # a time (issue 47), instead of as `changes` (50,000 items would not fit a user document)
    batch: str | None = None

    def counters(self) -> dict[str, int]:
        """How the user's item counters move (a type -1 where an item goes, +1 where one comes)."""
        moved: dict[str, int] = {}
        for change in self.changes:
            if change.kind != "item":
                continue
            for doc, step in ((change.before, -1), (change.after, 1)):
                if doc is not None:
                    kind = ItemDoc.model_validate_json(doc).type
                    moved[kind] = moved.get(kind, 0) + step
        return moved

    def subject(self) -> Change | None:
        """The change the reply names: the first one."""
        return self.changes[0] if self.changes else None


Inverse = Callable[[Deps, str, Sequence[LedgerDoc], int], Awaitable[Swap | None]]


def _item(item: ItemDoc | None) -> str | None:
    return item.model_dump_json(by_alias=True) if item is not None else None


async def _unsave(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    found = await deps.db.items.get_many(user_id, [str(e.payload.get("item_id")) for e in events])
    changes = tuple(Change(kind="item", id=i.id, before=_item(i), after=None) for i in found)
    return Swap(changes=changes, key="undo_unsaved", count=len(changes)) if changes else None


async def restorable(deps: Deps, user_id: str, items: Sequence[ItemDoc]) -> list[ItemDoc]:
    """The items of a deletion that can come back: neither there nor saved again since.

    The one place many items are checked for a restore (issue 47 batches it).
    """
    present = {i.id for i in await deps.db.items.get_many(user_id, [i.id for i in items])}
    back = []
    for item in items:
        if item.id in present:
            continue
        if await deps.db.items.find_by_dedup(user_id, item.dedup_key) is None:
            back.append(item)
    return back


async def _undelete(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    kept: list[ItemDoc] = []
    for event in events:
        batch = str(event.payload.get("snapshot", ""))
        if not batch:
            continue
        if event.type == "all_deleted":
            size = await deps.db.snapshots.size(user_id, batch, now_ms=now_ms)
            if not size:
                return None
            return Swap(changes=(), key="undo_all_done", count=size, confirm=True, batch=batch)
        kept += await deps.db.snapshots.batch(user_id, batch, now_ms=now_ms)
    back = await restorable(deps, user_id, kept)
    changes = tuple(Change(kind="item", id=i.id, before=None, after=_item(i)) for i in back)
    return Swap(changes=changes, key="undo_restored", count=len(changes)) if changes else None


async def _kept_and_now(
    deps: Deps, user_id: str, event: LedgerDoc, now_ms: int
) -> tuple[ItemDoc, ItemDoc] | None:
    """The item an event changed, as its snapshot kept it and as it is now (None: either gone)."""
    batch = str(event.payload.get("snapshot", ""))
    kept = await deps.db.snapshots.batch(user_id, batch, now_ms=now_ms) if batch else []
    current = await deps.db.items.get(user_id, str(event.payload.get("item_id", "")))
    return (kept[0], current) if kept and current is not None else None


async def _unedit(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    """An edit, correction or retype: the item as the snapshot taken before it had it."""
    changes = []
    for event in events:
        pair = await _kept_and_now(deps, user_id, event, now_ms)
        if pair is None:
            continue
        before, current = pair
        if before.dedup_key != current.dedup_key:
            holder = await deps.db.items.find_by_dedup(user_id, before.dedup_key)
            if holder is not None and holder.id != before.id:
                continue  # saved again as it was meanwhile: putting it back would clash
        changes.append(
            Change(kind="item", id=current.id, before=_item(current), after=_item(before))
        )
    if not changes:
        return None
    retyped = any("type" in (e.payload.get("fields") or ()) for e in events)
    return Swap(changes=tuple(changes), key="undo_retyped" if retyped else "undo_unedited", count=1)


async def _unmark(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    """A mark (DESIGN 11.5): the state, its time and rating as the snapshot before it had them."""
    changes = []
    for event in events:
        pair = await _kept_and_now(deps, user_id, event, now_ms)
        if pair is None:
            continue
        before, current = pair
        fields = ("state", "state_at_ms", "rating", "done_key")
        after = current.model_copy(update={f: getattr(before, f) for f in fields})
        changes.append(
            Change(kind="item", id=current.id, before=_item(current), after=_item(after))
        )
    return (
        Swap(changes=tuple(changes), key="undo_unmarked", count=len(changes)) if changes else None
    )


async def _reminder_states(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc]
) -> list[ReminderDoc]:
    found = []
    for event in events:
        reminder = await deps.db.reminders.get(user_id, str(event.payload.get("reminder_id")))
        if reminder is not None:
            found.append(reminder)
    return found


def _reminder(reminder: ReminderDoc) -> str:
    return reminder.model_dump_json(by_alias=True)


async def _unset_reminder(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    """A reminder set (or snoozed): cancelled."""
    changes = tuple(
        Change(
            kind="reminder",
            id=r.id,
            before=_reminder(r),
            after=_reminder(
                r.model_copy(update={"state": "cancelled", "wake_at_ms": None, "held": False})
            ),
        )
        for r in await _reminder_states(deps, user_id, events)
        if r.state == "scheduled"
    )
    return Swap(changes=changes, key="undo_reminder_set", count=len(changes)) if changes else None


async def _uncancel_reminder(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    """A cancelled reminder (one occurrence or all): scheduled again as it was."""
    changes = []
    for event in events:
        batch = str(event.payload.get("snapshot", ""))
        states = await deps.db.snapshots.states(user_id, batch, now_ms=now_ms) if batch else []
        current = await deps.db.reminders.get(user_id, str(event.payload.get("reminder_id")))
        if current is None:
            continue
        kept = next((s.json for s in states if s.kind == "reminder" and s.json), None)
        if kept is not None:
            after = ReminderDoc.model_validate_json(kept)
        elif current.state == "cancelled":  # cancelled before snapshots were kept
            after = current.model_copy(
                update={"state": "scheduled", "wake_at_ms": current.due_at_ms}
            )
        else:
            continue
        after = after.model_copy(update={"updated_at_ms": now_ms})
        changes.append(
            Change(
                kind="reminder", id=current.id, before=_reminder(current), after=_reminder(after)
            )
        )
    if not changes:
        return None
    return Swap(changes=tuple(changes), key="undo_reminder_cancelled", count=len(changes))


async def _unchange_reminder(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    """A reminder moved, reworded or given a rule: as the snapshot taken before it."""
    swap = await _uncancel_reminder(deps, user_id, events, now_ms)
    return swap.model_copy(update={"key": "undo_reminder_changed"}) if swap else None


async def _unremember(
    deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int
) -> Swap | None:
    changes = []
    for event in events:
        memory = await deps.db.memories.get(user_id, str(event.payload.get("memory_id")))
        if memory is not None:
            dumped = memory.model_dump_json(by_alias=True)
            changes.append(Change(kind="memory", id=memory.id, before=dumped, after=None))
    return Swap(changes=tuple(changes), key="undo_memory", count=len(changes)) if changes else None


async def _redo(deps: Deps, user_id: str, events: Sequence[LedgerDoc], now_ms: int) -> Swap | None:
    """«refaz»: what an undo changed, back as it was before the undo (its snapshot batch)."""
    changes = []
    for event in events:
        batch = str(event.payload.get("snapshot", ""))
        for state in await deps.db.snapshots.states(user_id, batch, now_ms=now_ms) if batch else []:
            now = await current_state(deps, user_id, state.kind, state.id)
            if now != state.json:
                changes.append(Change(kind=state.kind, id=state.id, before=now, after=state.json))
    if not changes:
        return None
    count = len(changes) if all(c.kind == "item" for c in changes) else 1
    return Swap(changes=tuple(changes), key="redo_done", count=count)


INVERSES: dict[str, Inverse] = {
    "item_saved": _unsave,
    "item_deleted": _undelete,
    "all_deleted": _undelete,
    "item_updated": _unedit,
    "item_marked": _unmark,
    "reminder_set": _unset_reminder,
    "reminder_cancelled": _uncancel_reminder,
    "reminder_changed": _unchange_reminder,
    "memory_noted": _unremember,
    "bookmark_set": _unremember,
    "undone": _redo,
}


async def current_state(deps: Deps, user_id: str, kind: Kind, doc_id: str) -> str | None:
    """The document as stored now (JSON), or None."""
    db = deps.db
    match kind:
        case "item":
            return _item(await db.items.get(user_id, doc_id))
        case "reminder":
            reminder = await db.reminders.get(user_id, doc_id)
            return _reminder(reminder) if reminder else None
        case "memory":
            memory = await db.memories.get(user_id, doc_id)
            return memory.model_dump_json(by_alias=True) if memory else None


def before_states(swap: Swap) -> list[State]:
    """What the undo replaces, to keep for «refaz»."""
    return [State(c.kind, c.id, c.before) for c in swap.changes]


async def apply(deps: Deps, user_id: str, swap: Swap) -> None:
    """Write `swap`; safe to repeat (a re-drive finishing it writes the same documents)."""
    db = deps.db
    back = [
        ItemDoc.model_validate_json(c.after) for c in swap.changes if c.kind == "item" and c.after
    ]
    gone = [c.id for c in swap.changes if c.kind == "item" and c.after is None]
    if gone:
        await db.items.delete_many(user_id, gone)
    await restore_items(deps, back)
    if swap.batch is not None:
        await restore_kept(deps, user_id, swap.batch, now_ms=deps.clock.ms())
    for change in swap.changes:
        if change.kind == "reminder":
            if change.after is None:
                continue  # a reminder is never deleted by an undo, only cancelled
            reminder = ReminderDoc.model_validate_json(change.after)
            await db.reminders.put(reminder)
            if reminder.state == "scheduled" and not reminder.held:
                await db.users.lower_reminder_hint(user_id, reminder.due_at_ms)
        elif change.kind == "memory":
            if change.after is None:
                await db.memories.delete(user_id, change.id)
            else:
                await db.memories.put(MemoryDoc.model_validate_json(change.after))


async def restore_items(deps: Deps, items: Sequence[ItemDoc]) -> int:
    """Put `items` back as they were, each through the item write path; how many are back.

    The one function that restores many items (an undone delete-all; issue 47 batches it).
    """
    restored = 0
    for item in items:
        if await deps.db.items.put_back(item):
            restored += 1
    return restored


async def restore_kept(deps: Deps, user_id: str, batch: str, *, now_ms: int) -> int:
    """Put a deletion's kept copy back a pack at a time: words, items, then counters; how many.

    Bounded per step whatever the count (a pack of `storage.snapshots.PACK` items, inserted
    `WRITE_BATCH` a round trip), so it can run off the user's turn (`deps.inflight`). Run
    again, it leaves what is back already and counts only what it brought back; an item the
    user saved again meanwhile stays once. A crash between a pack and its counters leaves
    them short by that pack, which `lembra doctor --repair` recounts.
    """
    restored = 0
    async for page in deps.db.snapshots.pages(user_id, batch, now_ms=now_ms):
        stored = await deps.db.items.restore_many(user_id, sorted(page, key=lambda i: i.seq))
        await deps.db.users.add_counts(user_id, Counter(item.type for item in stored))
        restored += len(stored)
    return restored


class Plan(BaseModel):
    """One undo as it is kept on the user document before it runs (and as its receipt)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    hashes: tuple[str, ...]  # the events it reverts (one effect: a save of several items is one)
    of_type: str
    of_seq: int
    swap: Swap
    label: str  # what the reply names, in the words the user saw
    when: str = ""  # a reminder moved back: its time again, in words ("em 07/01 às 15:00")
    update_id: str | None = None
