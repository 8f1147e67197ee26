"""`items`: what users save. Every method takes the user id; none can cross users.

Every write keeps the word index (storage/wordindex.py) in step: the words an item shows
are indexed before it shows them and forgotten after it stops.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from storage.collection import Collection, Doc
from storage.documents import DONE_STATE, ItemDoc, ItemType, done_key_of
from storage.errors import DuplicateKey
from storage.wordindex import CaughtUp, WordIndex

READ_BATCH: Final = 500  # documents per reply the event loop decodes at once
THREAD_FROM: Final = 200  # validating more documents than this moves off the event loop
IDS_PER_READ: Final = 1_000
_WORDS: Final = {"_id": 1, "words": 1, "words_v": 1}  # what removing an item's postings needs
_DONE: Final = {"_id": 1, "seq": 1}  # what counting and paging a type's done items needs


async def _validated(docs: list[Doc]) -> list[ItemDoc]:
    if len(docs) <= THREAD_FROM:
        return [ItemDoc.model_validate(d) for d in docs]
    return await asyncio.to_thread(lambda: [ItemDoc.model_validate(d) for d in docs])


class ItemsRepo:
    def __init__(self, coll: Collection, index: WordIndex) -> None:
        self._c = coll
        self.index = index

    async def ensure_indexes(self) -> None:
        # A single-field index on user_id is what the embedded server uses for
        # per-user reads (SUBSET.md); the compound ones serve MongoDB.
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("user_id", 1), ("seq", 1)])
        await self._c.create_index([("user_id", 1), ("dedup_key", 1)], unique=True)
        # a user's seen (read, done) items of one type: one equality (DESIGN 11.5)
        await self._c.create_index([("done_key", 1)])

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    async def insert(self, item: ItemDoc) -> tuple[ItemDoc, bool]:
        """Insert `item` unless the user already has its dedup key.

        Returns the stored item and whether it was created now.
        """
        doc = await self._with_words(item)
        try:
            await self._c.insert_one(doc)
        except DuplicateKey:
            existing = await self.find_by_dedup(item.user_id, item.dedup_key)
            if existing is None:  # deleted between the two calls: try once more
                await self._c.insert_one(doc)
                return item, True
            if existing.id != item.id:  # words indexed for an item that will never exist
                await self.index.remove(item.user_id, item.id, self.index.indexed(doc))
            return existing, False
        return item, True

    async def _with_words(self, item: ItemDoc) -> Doc:
        """The document to store for `item`, its words already indexed."""
        doc = item.to_doc()
        words, stamp = self.index.words_of(item), self.index.stamp
        if words is None or stamp is None:
            await self.index.mark_stale()
            return doc
        await self.index.add(item.user_id, item.id, words)
        return {**doc, "words": words, "words_v": stamp}

    async def catch_up(self) -> CaughtUp:
        """Index every stored item the word index lacks at this version (at start-up)."""
        return await self.index.catch_up(self._c)

    async def get_many(self, user_id: str, item_ids: Iterable[str]) -> list[ItemDoc]:
        """The user's items among `item_ids` (others', and ones since deleted, left out), by seq."""
        ids = sorted(set(item_ids))
        docs: list[Doc] = []
        for start in range(0, len(ids), IDS_PER_READ):
            chunk = ids[start : start + IDS_PER_READ]
            found = await self._c.find({"_id": {"$in": chunk}}, batch_size=READ_BATCH)
            docs += [d for d in found if d.get("user_id") == user_id]
        items = await _validated(docs)
        return sorted(items, key=lambda i: i.seq)

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
        self,
        user_id: str,
        *,
        item_type: ItemType | None = None,
        limit: int = 0,
        not_done: bool = False,
    ) -> list[ItemDoc]:
        """The user's items in creation order (optionally one type, optionally the first `limit`).

        `not_done`: only those still in their first state (to see, to read, open). A missing
        `done_key` matches `None` on every server (SUBSET.md), so items stored before states
        are among them.
        """
        flt: dict[str, object] = {"user_id": user_id}
        if item_type is not None:
            flt["type"] = item_type
        if not_done:
            flt["done_key"] = None
        docs = await self._c.find(flt, sort=[("seq", 1)], limit=limit, batch_size=READ_BATCH)
        return await _validated(docs)

    async def done_ids(self, user_id: str, item_type: ItemType) -> list[str]:
        """The ids of the user's seen (read, done) items of `item_type`, in creation order.

        One equality on the `done_key` index, two fields a document: it costs per item done
        (about 30 us each on nx-27017), so lists read the count kept with the list cache.
        """
        docs = await self._c.find(
            {"done_key": done_key_of(user_id, item_type)}, projection=_DONE, batch_size=READ_BATCH
        )
        return [str(d["_id"]) for d in sorted(docs, key=lambda d: int(d.get("seq") or 0))]

    async def done_first(self, user_id: str, item_type: ItemType, limit: int) -> list[ItemDoc]:
        """The user's first `limit` seen (read, done) items of `item_type`, in creation order."""
        docs = await self._c.find(
            {"done_key": done_key_of(user_id, item_type)}, sort=[("seq", 1)], limit=limit
        )
        return [ItemDoc.model_validate(d) for d in docs]

    async def done_recently(
        self, user_id: str, item_type: ItemType, limit: int, *, since_ms: int | None = None
    ) -> list[ItemDoc]:
        """The user's items of `item_type` most recently marked seen (read, done), newest
        first; only those marked at or after `since_ms` when given."""
        flt: dict[str, object] = {"done_key": done_key_of(user_id, item_type)}
        if since_ms is not None:
            flt["state_at_ms"] = {"$gte": since_ms}
        docs = await self._c.find(flt, sort=[("state_at_ms", -1)], limit=limit)
        return [ItemDoc.model_validate(d) for d in docs]

    async def set_details(self, item: ItemDoc, fields: Mapping[str, object]) -> None:
        """Set fields no search reads (TMDB's runtime, genres, where to watch) on `item`.

        `item` was read for its owner this turn; the words stay as they are.
        """
        await self._c.update_one({"_id": item.id}, {"$set": dict(fields)})

    async def newest(self, user_id: str, limit: int) -> list[ItemDoc]:
        """The user's most recently created items, newest first."""
        docs = await self._c.find({"user_id": user_id}, sort=[("seq", -1)], limit=limit)
        return [ItemDoc.model_validate(d) for d in docs]

    async def created_since(self, user_id: str, since_ms: int, limit: int) -> list[ItemDoc]:
        """The user's items created at or after `since_ms`, newest first (at most `limit`)."""
        docs = await self._c.find(
            {"user_id": user_id, "created_at_ms": {"$gte": since_ms}},
            sort=[("seq", -1)],
            limit=limit,
        )
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
        if doc is None:
            return None
        await self.index.remove(user_id, item_id, self.index.indexed(doc))
        return ItemDoc.model_validate(doc)

    async def update_fields(
        self, user_id: str, item_id: str, fields: Mapping[str, object], now_ms: int
    ) -> ItemDoc | None:
        """Set `fields` on one of `user_id`'s items; the item after, or None if not theirs."""
        doc = await self._c.find_owned(item_id, user_id)
        if doc is None:
            return None
        changes: dict[str, object] = {**fields, "updated_at_ms": now_ms}
        retyped = fields.get("type")
        if isinstance(retyped, str) and retyped != doc.get("type") and doc.get("done_key"):
            # a seen movie made a note is a done note: its state and key follow its type
            changes |= {
                "state": DONE_STATE[retyped],  # type: ignore[index]
                "done_key": done_key_of(user_id, retyped),  # type: ignore[arg-type]
            }
        before = self.index.indexed(doc)
        words, stamp = (
            self.index.words_of(ItemDoc.model_validate({**doc, **changes})),
            self.index.stamp,
        )
        if words is None or stamp is None:
            await self.index.mark_stale()
            words = None
        else:
            await self.index.add(user_id, item_id, sorted(set(words) - set(before)))
            changes |= {"words": words, "words_v": stamp}
        # the owner field never changes, so the check above still holds here
        await self._c.update_one({"_id": item_id}, {"$set": changes})
        if words is not None:
            await self.index.remove(user_id, item_id, sorted(set(before) - set(words)))
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
        flt = {"user_id": user_id, "_id": {"$in": item_ids}}
        doomed = await self._c.find(flt, projection=_WORDS)
        deleted = await self._c.delete_many(flt)
        await self.index.remove_many(
            [(user_id, str(d["_id"]), self.index.indexed(d)) for d in doomed]
        )
        return deleted

    async def delete_all(self, user_id: str, *, up_to_seq: int | None = None) -> int:
        """Delete the user's items (only those numbered up to `up_to_seq` when given).

        Erasing everything (no `up_to_seq`) also erases the user's words; a save racing
        it may then be left out of searches until the index is next rebuilt.
        """
        flt: dict[str, object] = {"user_id": user_id}
        if up_to_seq is not None:
            flt["seq"] = {"$lte": up_to_seq}
        if up_to_seq is None:
            deleted = await self._c.delete_many(flt)
            await self.index.forget(user_id)
            return deleted
        doomed = await self._c.find(flt, projection=_WORDS, batch_size=READ_BATCH)
        deleted = await self._c.delete_many(flt)
        await self.index.remove_many(
            [(user_id, str(d["_id"]), self.index.indexed(d)) for d in doomed]
        )
        return deleted
