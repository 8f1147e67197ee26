"""`items`: what users save. Every method takes the user id; none can cross users."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Mapping, Sequence

from storage.collection import Collection
from storage.documents import ItemDoc, ItemType
from storage.errors import DuplicateKey


class ItemsRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        # A single-field index on user_id is what the embedded server uses for
        # per-user reads (SUBSET.md); the compound ones serve MongoDB.
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("user_id", 1), ("seq", 1)])
        await self._c.create_index([("user_id", 1), ("dedup_key", 1)], unique=True)

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    async def insert(self, item: ItemDoc) -> tuple[ItemDoc, bool]:
        """Insert `item` unless the user already has its dedup key.

        Returns the stored item and whether it was created now.
        """
        try:
            await self._c.insert_one(item.to_doc())
        except DuplicateKey:
            existing = await self.find_by_dedup(item.user_id, item.dedup_key)
            if existing is None:  # deleted between the two calls: try once more
                await self._c.insert_one(item.to_doc())
                return item, True
            return existing, False
        return item, True

    async def get(self, user_id: str, item_id: str) -> ItemDoc | None:
        doc = await self._c.find_owned(item_id, user_id)
        return ItemDoc.model_validate(doc) if doc else None

    async def find_by_dedup(self, user_id: str, dedup_key: str) -> ItemDoc | None:
        doc = await self._c.find_one({"user_id": user_id, "dedup_key": dedup_key})
        return ItemDoc.model_validate(doc) if doc else None

    async def saved_by_message(self, user_id: str, message_id: str) -> list[ItemDoc]:
        """The user's items saved by the turn of platform message `message_id` (at most 2 read)."""
        docs = await self._c.find({"user_id": user_id, "source_message": message_id}, limit=2)
        return [ItemDoc.model_validate(d) for d in docs]

    async def list_for(
        self, user_id: str, *, item_type: ItemType | None = None, limit: int = 0
    ) -> list[ItemDoc]:
        """The user's items in creation order (optionally one type, optionally the first `limit`)."""
        flt: dict[str, object] = {"user_id": user_id}
        if item_type is not None:
            flt["type"] = item_type
        docs = await self._c.find(flt, sort=[("seq", 1)], limit=limit)
        return [ItemDoc.model_validate(d) for d in docs]

    async def newest(self, user_id: str, limit: int) -> list[ItemDoc]:
        """The user's most recently created items, newest first."""
        docs = await self._c.find({"user_id": user_id}, sort=[("seq", -1)], limit=limit)
        return [ItemDoc.model_validate(d) for d in docs]

    async def newest_by_type(
        self, user_id: str, types: Sequence[ItemType], per_type: int
    ) -> dict[ItemType, list[ItemDoc]]:
        """Up to `per_type` newest items of each of `types`, newest first.

        One read of the newest items usually covers every type; a type none of them
        has is read on its own, those reads at once. One unlimited read sorted in code
        was measured at 100 ms for 1,000 items on the embedded server (it costs per
        document returned), against 3-6 ms per limited read, so it is not used.
        """
        newest = await self.newest(user_id, per_type * len(types))
        found: dict[ItemType, list[ItemDoc]] = {
            t: [i for i in newest if i.type == t][:per_type] for t in types
        }
        missing = [t for t in types if not found[t]]
        fetched = await asyncio.gather(
            *(self.newest_of_type(user_id, t, per_type) for t in missing)
        )
        found.update(zip(missing, fetched, strict=True))
        return found

    async def newest_of_type(self, user_id: str, item_type: ItemType, limit: int) -> list[ItemDoc]:
        docs = await self._c.find(
            {"user_id": user_id, "type": item_type}, sort=[("seq", -1)], limit=limit
        )
        return [ItemDoc.model_validate(d) for d in docs]

    async def delete(self, user_id: str, item_id: str) -> ItemDoc | None:
        """Delete one of the user's items; return it, or None when it was not theirs."""
        doc = await self._c.delete_owned(item_id, user_id)
        return ItemDoc.model_validate(doc) if doc else None

    async def update_fields(
        self, user_id: str, item_id: str, fields: Mapping[str, object], now_ms: int
    ) -> ItemDoc | None:
        """Set `fields` on one of `user_id`'s items; the item after, or None if not theirs."""
        if await self._c.find_owned(item_id, user_id) is None:
            return None
        # the owner field never changes, so the check above still holds here
        await self._c.update_one({"_id": item_id}, {"$set": {**fields, "updated_at_ms": now_ms}})
        return await self.get(user_id, item_id)

    async def replace(self, item: ItemDoc) -> bool:
        """Put `item` back as it was (an undone change) over its owner's stored one; False if gone.

        Raises DuplicateKey when the user saved the same thing again meanwhile.
        """
        outcome = await self._c.replace_one(
            {"_id": item.id, "user_id": item.user_id}, item.to_doc()
        )
        return outcome.matched > 0

    async def delete_many(self, user_id: str, item_ids: list[str]) -> int:
        if not item_ids:
            return 0
        return await self._c.delete_many({"user_id": user_id, "_id": {"$in": item_ids}})

    async def delete_all(self, user_id: str, *, up_to_seq: int | None = None) -> int:
        """Delete the user's items (only those numbered up to `up_to_seq` when given)."""
        flt: dict[str, object] = {"user_id": user_id}
        if up_to_seq is not None:
            flt["seq"] = {"$lte": up_to_seq}
        return await self._c.delete_many(flt)
