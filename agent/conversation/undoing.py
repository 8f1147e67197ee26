"""`desfaz` / `undo` / `/undo` (DESIGN 9.4): revert the user's last effect within 24 hours.

The last effect is read from the user's own ledger: the newest `item_saved`,
`item_deleted`, `all_deleted` or `item_updated` of the last 24 hours that no `undone`
event names (by hash). A save is deleted; a deleted item comes back from its snapshot
with its id and every field; an edited item gets the fields the edit changed back from
the snapshot taken before it; a `delete_all` comes back only after a preview and "sim".
"""

from __future__ import annotations

from typing import Any

from agent.conversation import pending as pendings
from agent.conversation import retyping
from agent.conversation.replies import finish, item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, items_word, text
from agent.trust.ledgering import append_event
from agent.types import Reply
from storage.documents import ItemDoc, LedgerDoc

UNDOABLE = frozenset({"item_saved", "item_deleted", "all_deleted", "item_updated", "item_marked"})
WINDOW_MS = 24 * 3600 * 1000
EDITABLE = frozenset({"title", "year", "content"})  # what `update_item` may change


async def last_undoable(deps: Deps, turn: Turn) -> LedgerDoc | None:
    """The user's newest effect of the last 24 hours not undone yet."""
    events = await deps.db.ledger.events_in(turn.user_id, turn.now_ms - WINDOW_MS, turn.now_ms)
    undone = {str(e.payload.get("event_hash")) for e in events if e.type == "undone"}
    for event in reversed(events):
        if (event.type in UNDOABLE or retyping.undoable(event)) and event.hash not in undone:
            return event
    return None


async def undo(deps: Deps, turn: Turn, args: str) -> Reply:
    lang = turn.language
    turn.facts.apply_rule("undo_in_code")
    target = await last_undoable(deps, turn)
    if target is None:
        return finish(turn, text("undo_nothing", lang), kind="deterministic")
    if target.type == "item_saved":
        return await _unsave(deps, turn, target)
    if retyping.undoable(target):  # a type correction ("é uma série") put back
        put_back = await retyping.undo_change(deps, turn, target)
        await _record(deps, turn, target, 1 if put_back else 0)
        return put_back or finish(turn, text("undo_gone", lang), kind="deterministic")
    if target.type == "item_updated":
        return await _unedit(deps, turn, target)
    if target.type == "item_marked":
        return await _unmark(deps, turn, target)
    batch = str(target.payload.get("snapshot", ""))
    items = await deps.db.snapshots.batch(turn.user_id, batch, now_ms=turn.now_ms) if batch else []
    if not items:
        await _record(deps, turn, target, 0)  # nothing left to bring back: do not offer it again
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    if target.type == "item_deleted":
        restored = await restore(deps, turn, items)
        await _record(deps, turn, target, restored)
        body = f"{OK_MARK} " + text("undo_restored", lang, label=item_label(items[0]))
        return finish(turn, body, kind="effect")
    pending = pendings.ConfirmUndoAll(event_hash=target.hash, batch=batch, count=len(items))
    body = text("undo_all_preview", lang, count=len(items), items=items_word(len(items), lang))
    return await pendings.ask_to_confirm(deps, turn, pending, body)


async def confirm_restore_all(deps: Deps, turn: Turn, current: pendings.ConfirmUndoAll) -> Reply:
    """The "sim" after an undo of `apaga tudo`: every snapshot of that deletion comes back."""
    lang = turn.language
    items = await deps.db.snapshots.batch(turn.user_id, current.batch, now_ms=turn.now_ms)
    target = await last_undoable(deps, turn)
    if not items or target is None or target.hash != current.event_hash:
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    restored = await restore(deps, turn, items)
    await _record(deps, turn, target, restored)
    body = f"{OK_MARK} " + text(
        "undo_all_done", lang, count=restored, items=items_word(restored, lang)
    )
    return finish(turn, body, kind="effect")


async def restore(deps: Deps, turn: Turn, items: list[ItemDoc]) -> int:
    """Put `items` back exactly as stored; one the user saved again meanwhile is kept once."""
    restored = 0
    for item in items:
        _, created = await deps.db.items.insert(item)
        if created:
            restored += 1
            await deps.db.users.adjust_count(turn.user_id, item.type, 1)
    return restored


async def _unsave(deps: Deps, turn: Turn, target: LedgerDoc) -> Reply:
    lang = turn.language
    item = await deps.db.items.delete(turn.user_id, str(target.payload.get("item_id", "")))
    if item is None:
        await _record(deps, turn, target, 0)
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    await deps.db.users.adjust_count(turn.user_id, item.type, -1)
    await _record(deps, turn, target, 1)
    body = f"{OK_MARK} " + text("undo_unsaved", lang, label=item_label(item))
    return finish(turn, body, kind="effect")


async def _unedit(deps: Deps, turn: Turn, target: LedgerDoc) -> Reply:
    """The fields an edit changed, as the snapshot taken before it had them."""
    lang = turn.language
    batch = str(target.payload.get("snapshot", ""))
    kept = await deps.db.snapshots.batch(turn.user_id, batch, now_ms=turn.now_ms) if batch else []
    fields = [str(f) for f in target.payload.get("fields", ()) if f in EDITABLE]
    before = kept[0] if kept else None
    restored = (
        await deps.db.items.update_fields(
            turn.user_id, before.id, {f: getattr(before, f) for f in fields}, turn.now_ms
        )
        if before is not None and fields
        else None
    )
    if restored is None:  # an edit of an earlier version, or an item deleted since
        await _record(deps, turn, target, 0)
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    await deps.db.users.items_changed(turn.user_id)
    await _record(deps, turn, target, 1)
    body = f"{OK_MARK} " + text("undo_unedited", lang, label=item_label(restored))
    return finish(turn, body, kind="effect")


async def _unmark(deps: Deps, turn: Turn, target: LedgerDoc) -> Reply:
    """A mark (DESIGN 11.5): the state, its time and rating as the snapshot before it had them."""
    lang = turn.language
    batch = str(target.payload.get("snapshot", ""))
    kept = await deps.db.snapshots.batch(turn.user_id, batch, now_ms=turn.now_ms) if batch else []
    before = kept[0] if kept else None
    fields = ("state", "state_at_ms", "rating", "done_key")
    restored = (
        await deps.db.items.update_fields(
            turn.user_id, before.id, {f: getattr(before, f) for f in fields}, turn.now_ms
        )
        if before is not None
        else None
    )
    if restored is None:  # deleted since
        await _record(deps, turn, target, 0)
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    await deps.db.users.items_changed(turn.user_id)
    await _record(deps, turn, target, 1)
    state = text(f"state_{restored.current_state}", lang)
    body = f"{OK_MARK} " + text("undo_unmarked", lang, label=item_label(restored), state=state)
    return finish(turn, body, kind="effect")


async def _record(deps: Deps, turn: Turn, target: LedgerDoc, count: int) -> None:
    payload: dict[str, Any] = {"event_hash": target.hash, "event_type": target.type, "count": count}
    await append_event(deps, turn, "undone", payload)
