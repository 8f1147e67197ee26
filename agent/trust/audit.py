"""What `lembra doctor` checks: items without their ledger event, counters that disagree, effects left unfinished.

`lembra ledger verify` proves the chain was not edited; this proves the chain and
the data agree. `--repair` finishes unfinished effects, appends the missing
`item_saved` events (marked `repaired`) and sets counters to what is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agent.deps import Deps
from agent.trust import effects
from agent.trust.ledgering import append_event, digest
from storage.documents import ITEM_TYPES, ItemDoc


@dataclass(frozen=True, slots=True)
class UserAudit:
    user_id: str
    unrecorded: tuple[str, ...]  # ids of items with no `item_saved` event
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # type: (kept, stored)
    unfinished: int = 0

    @property
    def ok(self) -> bool:
        return not self.unrecorded and not self.counts and not self.unfinished

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user_id,
            "ok": self.ok,
            "items_without_event": len(self.unrecorded),
            "item_ids": list(self.unrecorded[:20]),
            "counters_off": {t: {"kept": k, "stored": s} for t, (k, s) in self.counts.items()},
            "unfinished_effects": self.unfinished,
        }


async def audit_user(deps: Deps, user_id: str) -> UserAudit:
    """Compare one user's items with their ledger chain and their counters."""
    db = deps.db
    user = await db.users.get(user_id)
    items = await db.items.list_for(user_id)
    recorded = {
        str(event.payload.get("item_id"))
        for event in await db.ledger.events(user_id)
        if event.type == "item_saved"
    }
    unrecorded = tuple(item.id for item in items if item.id not in recorded)
    stored: dict[str, int] = {}
    for item in items:
        stored[item.type] = stored.get(item.type, 0) + 1
    kept = dict(user.counts) if user else {}
    off: dict[str, tuple[int, int]] = {
        t: (int(kept.get(t, 0)), stored.get(t, 0))
        for t in ITEM_TYPES
        if int(kept.get(t, 0)) != stored.get(t, 0)
    }
    unfinished = sum(1 for e in (user.effects.values() if user else ()) if e is not None)
    return UserAudit(user_id, unrecorded, off, unfinished)


async def repair_user(deps: Deps, found: UserAudit) -> UserAudit:
    """Finish, record and recount what `audit_user` found; return the audit after it."""
    db = deps.db
    user = await db.users.get(found.user_id)
    if user is not None and found.unfinished:
        await effects.recover(deps, user, "", None, everything=True)
    for item_id in (await audit_user(deps, found.user_id)).unrecorded:
        item = await db.items.get(found.user_id, item_id)
        if item is not None:
            await append_event(deps, None, "item_saved", _payload(item), stream=found.user_id)
    after = await audit_user(deps, found.user_id)
    if after.counts:
        stored: dict[str, int] = {}
        for item in await db.items.list_for(found.user_id):
            stored[item.type] = stored.get(item.type, 0) + 1
        await db.users.set_counts(found.user_id, stored)
        after = await audit_user(deps, found.user_id)
    return after


def _payload(item: ItemDoc) -> dict[str, Any]:
    body: dict[str, Any] = {
        "item_id": item.id,
        "type": item.type,
        "dedup_sha256": digest(item.dedup_key),
        "enriched": item.enriched,
        "repaired": True,
    }
    if item.update_id:
        body["update_id"] = item.update_id
    return body
