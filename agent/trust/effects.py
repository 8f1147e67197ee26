"""An effect and its ledger record as one recoverable unit (issue 15; DESIGN 5, 3.9).

Without multi-document transactions (SUBSET.md) an effect runs in steps, and every
prefix of them can be finished later:

1. the intent is written on the user document, in the conversation's slot (a save
   takes its item number in the same update);
2. the effect itself (the item inserted or deleted);
3. the ledger event;
4. the counters move and the slot is cleared, by one single-document update that
   matches only while the slot holds this intent, so they move once whatever is
   retried.

A crash anywhere (a kill -9, the database gone) leaves the intent. The next turn of
that conversation, which is also how a re-drive of the same update arrives, finishes
it first: the effect completed, the event appended unless the ledger already holds
it, the counters moved with the slot cleared. Turns of one conversation never run at
once (a lease per chat), so finishing its own slot races with nothing; another
conversation's slot is finished only once it is stale.

A save is four round trips when nothing fails: intent with item number, insert,
ledger, counters with the slot cleared (issue 16).

A delete-all is a constant number of round trips beside its kept copy (issue 47): the
copy in packs (storage/snapshots.py), marked complete on the intent; one `delete_many`
of the items and one of their words; one `all_deleted` event with the count; the counters
set as the slot clears. From `BACKGROUND_FROM` items the turn answers once the intent is
written, and the rest runs off the turn (agent/trust/inflight.py), a page at a time; the
user's next turn waits for it, and a crash leaves the intent for the next turn or
`lembra doctor`, as for any effect.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, assert_never

from agent.conversation import shelf as shelves
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.trust import inverses
from agent.trust.ledgering import append_event
from config.logging import log_event
from storage.documents import ITEM_TYPES, EffectDoc, ItemDoc, LedgerDoc, UserDoc
from storage.ledger import sha256_hex
from storage.snapshots import PACK

log = logging.getLogger(__name__)

STALE_MS = 120_000  # an intent this old belongs to a turn that is not running any more
REDRIVE_LOOKBACK_MS = 24 * 3600 * 1000  # a re-drive comes within minutes of its first run
BACKGROUND_FROM = 1_000  # items from which a delete-all is finished after its reply
_FAR_FUTURE_MS = 2**62


@dataclass(frozen=True, slots=True)
class Finished:
    """An effect brought to its recorded end; what its first run would have answered."""

    effect: EffectDoc
    item: ItemDoc | None = None
    count: int = 0
    kept: int = 0
    undo: inverses.Plan | None = None


def slot_of(conversation_id: str) -> str:
    """The conversation's slot on the user document (a digest: ids may hold dots)."""
    return sha256_hex(conversation_id)[:16]


def _intent(
    turn: Turn,
    deps: Deps,
    op: Literal["save", "delete", "delete_all", "save_many", "undo"],
    **fields: Any,
) -> EffectDoc:
    return EffectDoc(
        id=uuid.uuid4().hex,
        op=op,
        started_ms=deps.clock.ms(),
        update_id=turn.incoming.update_id,
        **fields,
    )


async def save(deps: Deps, turn: Turn, item: ItemDoc, *, dedup_sha256: str) -> tuple[ItemDoc, bool]:
    """Insert `item` (numbered here) unless its dedup key exists; count and record it as one unit.

    The unique dedup index decides (no read first): a duplicate returns the stored item.
    """
    db, slot = deps.db, slot_of(turn.conversation_id)
    effect = _intent(
        turn,
        deps,
        "save",
        item_id=item.id,
        item_type=item.type,
        enriched=item.enriched,
        dedup_sha256=dedup_sha256,
    )
    seq = await db.users.begin_effect(turn.user_id, slot, effect, take_item_seq=True)
    stored, created = await db.items.insert(item.model_copy(update={"seq": seq}))
    if not created:
        await db.users.end_effect(turn.user_id, slot, effect.id)
        return stored, False
    kept = shelves.after_save(
        turn.user, stored
    )  # extended in the round trip that finishes the save
    shelves.point_at(turn, stored)  # "apaga esse" names it now: written in the same trip
    also = shelves.take_staged(turn)
    await _finish(deps, turn.user_id, slot, effect, turn=turn, done=stored, shelf=kept, also=also)
    return stored, True


async def save_many(deps: Deps, turn: Turn, items: list[ItemDoc]) -> list[tuple[ItemDoc, bool]]:
    """Insert a batch of items as one unit: numbered in one trip, inserted and indexed in one,
    each recorded (`item_saved`, as a single save), counted with the slot cleared in one.

    An item whose dedup key the user already has is not inserted: the stored one comes back
    (created only when the same update stored it: a re-drive answers as its first run).
    """
    db, slot = deps.db, slot_of(turn.conversation_id)
    known = await db.items.by_dedup(turn.user_id, [item.dedup_key for item in items])
    fresh = [item for item in items if item.dedup_key not in known]
    created: list[ItemDoc] = []
    if fresh:
        effect = _intent(turn, deps, "save_many", item_ids=[item.id for item in fresh])
        last = await db.users.begin_effect(turn.user_id, slot, effect, take_item_seqs=len(fresh))
        first = last - len(fresh) + 1
        numbered = [item.model_copy(update={"seq": first + n}) for n, item in enumerate(fresh)]
        created = await db.items.insert_many(numbered)
        await _finish(deps, turn.user_id, slot, effect, turn=turn, done_many=created)
        if len(created) < len(fresh):  # saved meanwhile from another chat
            known |= await db.items.by_dedup(turn.user_id, [i.dedup_key for i in fresh])
    by_id = {item.id: item for item in created}
    update_id = turn.incoming.update_id
    results: list[tuple[ItemDoc, bool]] = []
    for item in items:
        if item.id in by_id:
            results.append((by_id[item.id], True))
        else:
            stored = known.get(item.dedup_key, item)
            results.append((stored, update_id is not None and stored.update_id == update_id))
    return results


async def delete(deps: Deps, turn: Turn, item: ItemDoc) -> bool:
    """Delete `item`, count it and record `item_deleted` as one unit; False if it was gone."""
    slot = slot_of(turn.conversation_id)
    effect = _intent(
        turn,
        deps,
        "delete",
        item_id=item.id,
        item_type=item.type,
        item_json=item.model_dump_json(by_alias=True),
    )
    await deps.db.users.begin_effect(turn.user_id, slot, effect)
    if await deps.db.items.delete(turn.user_id, item.id) is None:
        await deps.db.users.end_effect(turn.user_id, slot, effect.id)
        return False
    await _finish(deps, turn.user_id, slot, effect, turn=turn, done=item)
    return True


async def done_by_this_update(deps: Deps, turn: Turn, type: str, **match: Any) -> LedgerDoc | None:
    """The `type` event this turn's update recorded in its first run (a re-drive), if any.

    Read only for a turn marked `redriven`: the ledger of the last day, newest first.
    """
    update_id = turn.incoming.update_id
    if not turn.redriven or update_id is None:
        return None
    since = deps.clock.ms() - REDRIVE_LOOKBACK_MS
    for event in reversed(await deps.db.ledger.events_in(turn.user_id, since, _FAR_FUTURE_MS)):
        payload = event.payload
        if (
            event.type == type
            and payload.get("update_id") == update_id
            and all(payload.get(k) == v for k, v in match.items())
        ):
            return event
    return None


async def deleted_by_this_update(deps: Deps, turn: Turn, item_id: str) -> ItemDoc | None:
    """The item this update's first run deleted (kept for undo), when this turn is its re-drive."""
    event = await done_by_this_update(deps, turn, "item_deleted", item_id=item_id)
    if event is None:
        return None
    batch = str(event.payload.get("snapshot") or "")
    kept = await deps.db.snapshots.batch(turn.user_id, batch, now_ms=deps.clock.ms())
    return next((item for item in kept if item.id == item_id), None)


async def delete_all(deps: Deps, turn: Turn, *, up_to_seq: int | None) -> Finished:
    """Delete the items numbered up to `up_to_seq` (all when None), count and record them as one unit.

    With `BACKGROUND_FROM` items or more, what it will have done is returned once the intent
    is written (the counts it was begun with, less the items newer than `up_to_seq`), and
    the work goes on off the turn.
    """
    first_run = await done_by_this_update(deps, turn, "all_deleted")
    if first_run is not None:  # the re-drive of a delete-all that finished: its count again
        kept = sum(turn.user.counts.values()) if up_to_seq is not None else 0  # newer ones
        effect = _intent(turn, deps, "delete_all", up_to_seq=up_to_seq)
        return Finished(effect, count=int(first_run.payload.get("count", 0)), kept=kept)
    user = await deps.db.users.get(turn.user_id)
    before: dict[str, int] = {t: int((user.counts if user else {}).get(t, 0)) for t in ITEM_TYPES}
    slot = slot_of(turn.conversation_id)
    effect = _intent(turn, deps, "delete_all", up_to_seq=up_to_seq, by_type=before)
    await deps.db.users.begin_effect(turn.user_id, slot, effect)
    if sum(before.values()) < BACKGROUND_FROM:
        return await _finish(deps, turn.user_id, slot, effect, turn=turn)
    left: dict[str, int] = {}
    if up_to_seq is not None and user is not None and user.item_seq > up_to_seq:
        left = await deps.db.items.count_after(turn.user_id, up_to_seq)
    _, count, kept = _deleted(before, left)
    work = _finish(deps, turn.user_id, slot, effect, turn=None)
    deps.inflight.start(turn.user_id, work, name=f"delete-all:{effect.id}")
    return Finished(effect, count=count, kept=kept)


def _deleted(before: Mapping[str, int], left: Mapping[str, int]) -> tuple[dict[str, int], int, int]:
    """What a delete-all deleted by type, in all, and how many newer items it kept."""
    by_type: dict[str, int] = {t: max(0, before.get(t, 0) - left.get(t, 0)) for t in ITEM_TYPES}
    return by_type, sum(by_type.values()), sum(left.values())


async def undo(deps: Deps, turn: Turn, plan: inverses.Plan) -> Finished:
    """Revert the events `plan` names as one unit: the intent (with what it writes and the reply
    it owes), the writes, `undone`, then the counters with the slot cleared and the receipt
    kept, so a re-drive of this update answers the same and never undoes an older effect.
    Thousands of items brought back (an undone delete-all) are finished off the turn."""
    slot = slot_of(turn.conversation_id)
    plan = plan.model_copy(update={"update_id": turn.incoming.update_id})
    effect = _intent(turn, deps, "undo", undo_json=plan.model_dump_json())
    await deps.db.users.begin_effect(turn.user_id, slot, effect)
    if plan.swap.batch is not None and plan.swap.count >= BACKGROUND_FROM:
        work = _finish(deps, turn.user_id, slot, effect, turn=None)  # thousands come back
        deps.inflight.start(turn.user_id, work, name=f"undo-all:{effect.id}")
        return Finished(effect, undo=plan)
    return await _finish(deps, turn.user_id, slot, effect, turn=turn)


async def recover(
    deps: Deps,
    user: UserDoc,
    conversation_id: str,
    update_id: str | None,
    *,
    everything: bool = False,
) -> tuple[UserDoc, list[Finished]]:
    """Finish this conversation's interrupted effect, and stale ones of others, before the turn.

    `everything` (`lembra doctor --repair`) finishes every slot, stale or not.
    """
    if await deps.inflight.settle(user.id):  # finishing off an earlier turn here: let it end
        user = (await deps.db.users.get(user.id)) or user
    mine, now = slot_of(conversation_id), deps.clock.ms()
    finished: list[Finished] = []
    for slot, effect in user.effects.items():
        if effect is None:
            continue
        ours = slot == mine or (update_id is not None and effect.update_id == update_id)
        if everything or ours or now - effect.started_ms >= STALE_MS:
            finished.append(await _finish(deps, user.id, slot, effect, turn=None))
            deps.metrics.effects_recovered.labels(effect.op).inc()
            log_event(log, "effect_recovered", op=effect.op, update_id=effect.update_id)
    if not finished:
        return user, []
    return (await deps.db.users.get(user.id)) or user, finished


async def _finish(
    deps: Deps,
    user_id: str,
    slot: str,
    effect: EffectDoc,
    *,
    turn: Turn | None,
    done: ItemDoc | None = None,
    shelf: tuple[dict[str, Any], str] | None = None,
    also: dict[str, Any] | None = None,
    done_many: list[ItemDoc] | None = None,
) -> Finished:
    """Steps 2-4 for `effect`, each one safe to repeat.

    `done` is the item step 2 just saved or deleted in this turn (not re-checked);
    `done_many` the items a batch just inserted.
    """
    match effect.op:
        case "save":
            finished, change = await _finish_save(deps, user_id, effect, turn, done)
        case "save_many":
            finished, change = await _finish_save_many(deps, user_id, effect, turn, done_many)
        case "delete":
            finished, change = await _finish_delete(deps, user_id, effect, turn, done)
        case "delete_all":
            finished, change = await _finish_delete_all(deps, user_id, slot, effect, turn)
        case "undo":
            finished, change, also = await _finish_undo(deps, user_id, effect, turn, also)
        case _ as unreachable:
            assert_never(unreachable)
    if effect.counted:  # an earlier version's intent: its counters moved already
        change = {}
    await deps.db.users.end_effect(user_id, slot, effect.id, **change, shelf=shelf, also=also)
    return finished


_Change = dict[str, dict[str, int]]


async def _finish_save(
    deps: Deps, user_id: str, effect: EffectDoc, turn: Turn | None, done: ItemDoc | None
) -> tuple[Finished, _Change]:
    if effect.item_id is None or effect.item_type is None:
        return Finished(effect), {}
    item = done or await deps.db.items.get(user_id, effect.item_id)
    if item is None:  # never inserted: nothing happened, so nothing to record
        return Finished(effect), {}
    payload = {
        "item_id": effect.item_id,
        "type": effect.item_type,
        "dedup_sha256": effect.dedup_sha256,
        "enriched": effect.enriched,
    }
    await _record(deps, turn, user_id, effect, "item_saved", payload)
    return Finished(effect, item=item), {"inc": {effect.item_type: 1}}


async def _finish_save_many(
    deps: Deps, user_id: str, effect: EffectDoc, turn: Turn | None, done: list[ItemDoc] | None
) -> tuple[Finished, _Change]:
    # the ids are new: any of them stored was stored by this effect
    items = done if done is not None else await deps.db.items.get_many(user_id, effect.item_ids)
    recorded: set[str] = set()
    if turn is None:  # a recovery: some events may be on the ledger already
        events = await deps.db.ledger.events_in(user_id, effect.started_ms, _FAR_FUTURE_MS)
        recorded = {
            str(e.payload.get("item_id"))
            for e in events
            if e.type == "item_saved" and e.payload.get("update_id") == effect.update_id
        }
    inc: dict[str, int] = {}
    for item in items:
        inc[item.type] = inc.get(item.type, 0) + 1
        if item.id in recorded:
            continue
        payload = {
            "item_id": item.id,
            "type": item.type,
            "dedup_sha256": sha256_hex(item.dedup_key),
            "enriched": item.enriched,
        }
        if effect.update_id is not None:
            payload["update_id"] = effect.update_id
        await append_event(deps, turn, "item_saved", payload, stream=user_id)
    return Finished(effect, count=len(items)), {"inc": inc} if inc else {}


async def _finish_delete(
    deps: Deps, user_id: str, effect: EffectDoc, turn: Turn | None, done: ItemDoc | None
) -> tuple[Finished, _Change]:
    if effect.item_json is None:
        return Finished(effect), {}
    item = ItemDoc.model_validate_json(effect.item_json)
    batch = f"del:{effect.id}"  # kept 24 hours so `desfaz` can bring it back (DESIGN 9.4)
    await deps.db.snapshots.keep(user_id, batch, [item], effect.started_ms)
    if done is None:
        await deps.db.items.delete(user_id, item.id)  # a no-op when step 2 had happened
    payload = {"item_id": item.id, "type": item.type, "snapshot": batch}
    await _record(deps, turn, user_id, effect, "item_deleted", payload)
    return Finished(effect, item=item), {"inc": {item.type: -1}}


async def _finish_delete_all(
    deps: Deps, user_id: str, slot: str, effect: EffectDoc, turn: Turn | None
) -> tuple[Finished, _Change]:
    db = deps.db
    batch = f"all:{effect.id}"  # for `desfaz`, 24 hours; a re-run finds them already kept
    if not effect.copied and await db.items.any_through(user_id, effect.up_to_seq):
        await db.snapshots.drop_batch(user_id, batch)  # a copy a crash cut short
        pages = db.items.pages(user_id, up_to_seq=effect.up_to_seq, page=PACK)
        await db.snapshots.keep_pages(user_id, batch, pages, effect.started_ms)
        await db.users.effect_copied(user_id, slot, effect.id)
    await db.items.delete_all(user_id, up_to_seq=effect.up_to_seq)
    left: dict[str, int] = {}
    if effect.up_to_seq is not None:
        left = await db.items.count_after(user_id, effect.up_to_seq)
    by_type, count, kept = _deleted(effect.by_type, left)
    payload: dict[str, Any] = {"count": count, "by_type": by_type, "snapshot": batch}
    await _record(deps, turn, user_id, effect, "all_deleted", payload)
    return Finished(effect, count=count, kept=kept), {"counts": left}


async def _finish_undo(
    deps: Deps,
    user_id: str,
    effect: EffectDoc,
    turn: Turn | None,
    also: dict[str, Any] | None,
) -> tuple[Finished, _Change, dict[str, Any] | None]:
    if effect.undo_json is None:
        return Finished(effect), {}, also
    plan = inverses.Plan.model_validate_json(effect.undo_json)
    batch = f"undo:{effect.id}"  # what the undo replaces, for «refaz»
    await deps.db.snapshots.keep_states(
        user_id, batch, inverses.before_states(plan.swap), effect.started_ms
    )
    await inverses.apply(deps, user_id, plan.swap)
    payload: dict[str, Any] = {
        "event_hash": plan.hashes[0],
        "event_type": plan.of_type,
        "of_type": plan.of_type,
        "of_seq": plan.of_seq,
        "count": plan.swap.count,
        "snapshot": batch,
    }
    if len(plan.hashes) > 1:
        payload["also_hashes"] = list(plan.hashes[1:])
    await _record(deps, turn, user_id, effect, "undone", payload)
    receipt = {"update_id": effect.update_id, "plan": effect.undo_json}
    moved = plan.swap.counters()
    if not moved and any(c.kind == "item" for c in plan.swap.changes):
        await deps.db.users.items_changed(user_id)  # an item edited back: lists built anew
    change: _Change = {"inc": moved} if moved else {}
    return Finished(effect, undo=plan), change, {**(also or {}), "last_undo": receipt}


async def _record(
    deps: Deps,
    turn: Turn | None,
    user_id: str,
    effect: EffectDoc,
    type: str,
    payload: dict[str, Any],
) -> None:
    """Append the effect's event unless the ledger already holds it (a crash after step 4)."""
    if effect.update_id is not None:
        payload["update_id"] = effect.update_id
    if turn is None:  # a recovery: step 3 may have happened
        for event in await deps.db.ledger.events_in(user_id, effect.started_ms, _FAR_FUTURE_MS):
            if event.type == type and all(
                event.payload.get(k) == payload.get(k)
                for k in ("item_id", "update_id", "event_hash")
            ):
                if turn is not None:  # the re-driven turn still owes the user its receipt
                    turn.receipts.append(f"{type}:{event.hash}")
                return
    await append_event(deps, turn, type, payload, stream=user_id)
