"""`undo_snapshots`: documents as they were before a change, kept 24 hours by batch (DESIGN 9.4).

A batch is one deletion, edit or undo: deleted or edited items, and (for an undo, so
«refaz» can put back what it reverted) items, reminders and memories, or the mark that one
did not exist then.

Items are written in packs of up to `PACK` a document, one round trip a pack, and read
back a pack at a time (issue 47): deleting 50,000 items keeps 100 documents, and neither
writing nor reading them holds the whole list. Expiry is decided against the caller's
clock, as for pending actions: the replay runs on an injected clock and a TTL index would
disagree with it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from storage.collection import Collection, Doc
from storage.documents import ItemDoc, SnapshotDoc

KEEP_MS = 24 * 3600 * 1000
PACK: Final = 500  # items a snapshot document holds
THREAD_FROM: Final = 50  # packing or reading more items than this moves off the event loop
Kind = Literal["item", "reminder", "memory"]


@dataclass(frozen=True, slots=True)
class State:
    """One document as it was: its JSON, or None when it did not exist."""

    kind: Kind
    id: str
    json: str | None


def _pack_json(items: Sequence[ItemDoc]) -> str:
    return "[" + ",".join(item.model_dump_json(by_alias=True) for item in items) + "]"


def _unpack(doc: Doc) -> list[ItemDoc]:
    """The items one snapshot document holds: a pack, one item, or none (another kind)."""
    snapshot = SnapshotDoc.model_validate(doc)
    if snapshot.kind != "item" or snapshot.absent:
        return []
    if snapshot.items_json:
        return [ItemDoc.model_validate(d) for d in json.loads(snapshot.items_json)]
    return [ItemDoc.model_validate_json(snapshot.item_json)] if snapshot.item_json else []


async def _off_loop(count: int, work: Any) -> Any:
    return work() if count <= THREAD_FROM else await asyncio.to_thread(work)


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
        packs = [items[start : start + PACK] for start in range(0, len(items), PACK)]
        docs = [
            self._pack(
                user_id,
                batch,
                n,
                await _off_loop(len(p), lambda p=p: _pack_json(p)),
                len(p),
                now_ms,
            )
            for n, p in enumerate(packs)
        ]
        await self._c.update_each([({"_id": d["_id"]}, {"$set": d}) for d in docs], upsert=True)

    async def keep_pages(
        self, user_id: str, batch: str, pages: AsyncIterator[list[Doc]], now_ms: int
    ) -> int:
        """Snapshot the stored item documents `pages` yields, a pack per page; how many were kept.

        The batch must hold nothing yet (`drop_batch` first after an interrupted copy): each
        pack is inserted as its page arrives, so memory holds one page.
        """
        kept = packs = 0
        async for page in pages:
            owned = [d for d in page if d.get("user_id") == user_id]
            if not owned:
                continue

            def pack(owned: list[Doc] = owned) -> str:
                return _pack_json([ItemDoc.model_validate(d) for d in owned])

            text = await _off_loop(len(owned), pack)
            await self._c.insert_one(self._pack(user_id, batch, packs, text, len(owned), now_ms))
            kept += len(owned)
            packs += 1
        return kept

    @staticmethod
    def _pack(user_id: str, batch: str, n: int, items_json: str, count: int, now_ms: int) -> Doc:
        return SnapshotDoc(
            _id=f"{batch}#{n:05d}",
            user_id=user_id,
            batch=batch,
            items_json=items_json,
            count=count,
            taken_at_ms=now_ms,
            expires_at_ms=now_ms + KEEP_MS,
        ).to_doc()

    async def pages(self, user_id: str, batch: str, *, now_ms: int) -> AsyncIterator[list[ItemDoc]]:
        """The live snapshots of one deletion of `user_id`, a pack at a time (unordered)."""
        async for docs in self._c.stream({"batch": batch}, batch_size=4):
            for doc in docs:
                if doc.get("user_id") != user_id or int(doc.get("expires_at_ms", 0)) <= now_ms:
                    continue
                yield await _off_loop(int(doc.get("count", 1)), lambda doc=doc: _unpack(doc))

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
        items = [item async for page in self.pages(user_id, batch, now_ms=now_ms) for item in page]
        return sorted(items, key=lambda i: i.seq)

    async def size(self, user_id: str, batch: str, *, now_ms: int) -> int:
        """How many items one deletion of `user_id` keeps (their documents left unread)."""
        docs = await self._c.find(
            {"batch": batch},
            projection={"user_id": 1, "count": 1, "expires_at_ms": 1, "absent": 1, "kind": 1},
        )
        return sum(
            int(d.get("count", 1))
            for d in docs
            if d.get("user_id") == user_id
            and int(d.get("expires_at_ms", 0)) > now_ms
            and d.get("kind", "item") == "item"
            and not d.get("absent")
        )

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
