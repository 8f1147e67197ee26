"""`undo_snapshots`: documents as they were before a change, kept 24 hours by batch (DESIGN 9.4).

A batch is one deletion, edit or undo: deleted or edited items, and (for an undo, so
«refaz» can put back what it reverted) items, reminders and memories, or the mark that one
did not exist then.

Expiry is decided against the caller's clock, as for pending actions: the replay runs
on an injected clock and a TTL index would disagree with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from storage.collection import Collection
from storage.documents import ItemDoc, SnapshotDoc

KEEP_MS = 24 * 3600 * 1000
Kind = Literal["item", "reminder", "memory"]


@dataclass(frozen=True, slots=True)
class State:
    """One document as it was: its JSON, or None when it did not exist."""

    kind: Kind
    id: str
    json: str | None


class SnapshotsRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("batch", 1)])
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("expires_at_ms", 1)])

    async def keep(self, user_id: str, batch: str, items: Sequence[ItemDoc], now_ms: int) -> None:
        """Snapshot `items` (all `user_id`'s) before they are deleted; idempotent per batch."""
        for item in items:
            assert item.user_id == user_id
            snapshot = SnapshotDoc(
                _id=f"{batch}:{item.id}",
                user_id=user_id,
                batch=batch,
                item_json=item.model_dump_json(by_alias=True),
                taken_at_ms=now_ms,
                expires_at_ms=now_ms + KEEP_MS,
            )
            await self._c.replace_one({"_id": snapshot.id}, snapshot.to_doc(), upsert=True)

    async def keep_states(
        self, user_id: str, batch: str, states: Sequence[State], now_ms: int
    ) -> None:
        """Snapshot documents of any kind (or their absence); idempotent per batch."""
        for state in states:
            snapshot = SnapshotDoc(
                _id=f"{batch}:{state.kind}:{state.id}",
                user_id=user_id,
                batch=batch,
                item_json=state.json or "",
                kind=state.kind,
                absent=state.json is None,
                taken_at_ms=now_ms,
                expires_at_ms=now_ms + KEEP_MS,
            )
            await self._c.replace_one({"_id": snapshot.id}, snapshot.to_doc(), upsert=True)

    async def states(self, user_id: str, batch: str, *, now_ms: int) -> list[State]:
        """The live snapshots of one batch of `user_id`, any kind, in the order kept."""
        return [
            State(d.kind, d.id.rsplit(":", 1)[-1], None if d.absent else d.item_json)
            for d in await self._live(user_id, batch, now_ms)
        ]

    async def batch(self, user_id: str, batch: str, *, now_ms: int) -> list[ItemDoc]:
        """The live item snapshots of one deletion or edit of `user_id`, in item order."""
        items = [
            ItemDoc.model_validate_json(d.item_json)
            for d in await self._live(user_id, batch, now_ms)
            if d.kind == "item" and not d.absent
        ]
        return sorted(items, key=lambda i: i.seq)

    async def _live(self, user_id: str, batch: str, now_ms: int) -> list[SnapshotDoc]:
        docs = [SnapshotDoc.model_validate(d) for d in await self._c.find({"batch": batch})]
        live = [d for d in docs if d.user_id == user_id and d.expires_at_ms > now_ms]
        return sorted(live, key=lambda d: (d.taken_at_ms, d.id))

    async def drop_batch(self, user_id: str, batch: str) -> int:
        return await self._c.delete_many({"batch": batch, "user_id": user_id})

    async def purge(self, now_ms: int) -> int:
        return await self._c.delete_many({"expires_at_ms": {"$lte": now_ms}})

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
