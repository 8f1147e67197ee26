"""`items`: what users save. Every method takes the user id; none can cross users.

Every write keeps the word index (storage/wordindex.py) in step: the words an item shows
are indexed before it shows them and forgotten after it stops. Writes of a user-sized list
(deleting everything, putting a deletion back) take a bounded number of documents per round
trip and a constant number of round trips where the subset allows it (issue 47).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import Final

from storage.collection import Collection, Doc
from storage.documents import DONE_STATE, ITEM_TYPES, ItemDoc, ItemType, done_key_of
from storage.errors import DuplicateKey
from storage.wordindex import CaughtUp, Entry, Heartbeat, WordIndex

READ_BATCH: Final = 500  # documents per reply the event loop decodes at once
THREAD_FROM: Final = 200  # validating more documents than this moves off the event loop
IDS_PER_READ: Final = 1_000
_WORDS: Final = {"_id": 1, "words": 1, "words_v": 1}  # what removing an item's postings needs
_OWNED_WORDS: Final = {**_WORDS, "user_id": 1}
_DONE: Final = {"_id": 1, "seq": 1}  # what counting and paging a type's done items needs


async def _validated(docs: list[Doc]) -> list[ItemDoc]:
    if len(docs) <= THREAD_FROM:
        return [ItemDoc.model_validate(d) for d in docs]
    return await asyncio.to_thread(lambda: [ItemDoc.model_validate(d) for d in docs])


async def _kept(docs: list[Doc], keep: Callable[[ItemDoc], bool]) -> list[ItemDoc]:
    """The items of `docs` that `keep` keeps, checked off the event loop when there are many."""

    def kept() -> list[ItemDoc]:
        return [item for item in map(ItemDoc.model_validate, docs) if keep(item)]

    return kept() if len(docs) <= THREAD_FROM else await asyncio.to_thread(kept)


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

    async def insert_many(self, items: Sequence[ItemDoc]) -> list[ItemDoc]:
        """Insert a batch of new items (words indexed first, in one bulk); return those inserted.

        In one round trip when no dedup key is taken; when one is (saved meanwhile from
        another chat), the rest go in one at a time, as `insert` does, and the items
        already stored under those keys are left out of the result.
        """
        if not items:
            return []
        docs = [item.to_doc() for item in items]
        stamp = self.index.stamp
        words = [self.index.words_of(item) for item in items]
        indexed = stamp is not None and all(w is not None for w in words)
        if not indexed:
            await self.index.mark_stale()
        else:
            await self.index.add_many(
                [(item.user_id, item.id, w or []) for item, w in zip(items, words, strict=True)]
            )
            docs = [
                {**doc, "words": w, "words_v": stamp} for doc, w in zip(docs, words, strict=True)
            ]
        try:
            await self._c.insert_many(docs)
        except DuplicateKey:
            inserted = {
                str(d["_id"]) for d in await self._c.find({"_id": {"$in": [i.id for i in items]}})
            }
            done = [item for item in items if item.id in inserted]
            left = [item for item in items if item.id not in inserted]
            if indexed:  # their words go in again with each one's own insert
                await self.index.remove_many(
                    [(i.user_id, i.id, self.index.words_of(i) or []) for i in left]
                )
            for item in left:
                stored, created = await self.insert(item)
                if created:
                    done.append(stored)
            return done
        return list(items)

    async def by_dedup(self, user_id: str, dedup_keys: Sequence[str]) -> dict[str, ItemDoc]:
        """The user's items stored under any of `dedup_keys`, by key (read in chunks)."""
        found: dict[str, ItemDoc] = {}
        keys = sorted(set(dedup_keys))
        for start in range(0, len(keys), READ_BATCH):
            chunk = keys[start : start + READ_BATCH]
            docs = await self._c.find({"user_id": user_id, "dedup_key": {"$in": chunk}})
            for item in await _validated(docs):
                found[item.dedup_key] = item
        return found

    async def _with_words(self, item: ItemDoc) -> Doc:
        """The document to store for `item`, its words already indexed."""
        doc = item.to_doc()
        words, stamp = self.index.words_of(item), self.index.stamp
        if words is None or stamp is None:
            await self.index.mark_stale()
            return doc
        await self.index.add(item.user_id, item.id, words)
        return {**doc, "words": words, "words_v": stamp}

    async def prepare_index(self) -> bool:
        """Learn the word index's state at start; True when it has items to catch up on."""
        return await self.index.prepare(self._c)

    async def catch_up(
        self,
        *,
        users: Sequence[str] = (),
        total: int = 0,
        heartbeat: Heartbeat | None = None,
    ) -> CaughtUp:
        """Index every stored item the word index lacks at this version (`users` first)."""
        return await self.index.catch_up(self._c, users=users, total=total, heartbeat=heartbeat)

    async def not_indexed(
        self,
        user_id: str,
        *,
        after_seq: int,
        keep: Callable[[ItemDoc], bool],
        item_type: ItemType | None = None,
    ) -> list[ItemDoc]:
        """The user's items numbered after `after_seq` that the index lacks and `keep` keeps, by seq.

        What a lookup reads besides the index while it catches up: a page at a time, each
        page checked off the event loop when large, only the kept ones held.
        """
        flt: dict[str, object] = {"user_id": user_id}
        if after_seq >= 0:
            flt["seq"] = {"$gt": after_seq}
        if item_type is not None:
            flt["type"] = item_type
        stamp = self.index.stamp
        found: list[ItemDoc] = []
        async for page in self._c.stream(flt, batch_size=READ_BATCH):
            found += await _kept([d for d in page if d.get("words_v") != stamp], keep)
        return sorted(found, key=lambda item: item.seq)

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

    async def put_back(self, item: ItemDoc) -> bool:
        """Make the stored item exactly `item` again (an undone change), through the paths
        every write takes: inserted with its words when gone, else its fields set with them.

        Returns False when another of the user's items holds its dedup key meanwhile (saved
        again); raises nothing for that.
        """
        if await self._c.find_owned(item.id, item.user_id) is None:
            stored, _ = await self.insert(item)
            return stored.id == item.id
        fields = {k: v for k, v in item.to_doc().items() if k not in ("_id", "user_id")}
        try:
            put = await self.update_fields(item.user_id, item.id, fields, item.updated_at_ms)
        except DuplicateKey:
            return False
        return put is not None

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

        A constant number of round trips whatever the count: one `delete_many` of the items,
        one of the user's whole word index, then the words of the items kept (numbered after
        `up_to_seq`: saved after a preview, a few) indexed again. A save racing it from
        another chat of the same user may be left out of searches until the index is next
        rebuilt.
        """
        flt: dict[str, object] = {"user_id": user_id}
        if up_to_seq is not None:
            flt["seq"] = {"$lte": up_to_seq}
        deleted = await self._c.delete_many(flt)
        await self.index.forget(user_id)
        if up_to_seq is not None:
            kept = await self._c.find(
                {"user_id": user_id}, projection=_WORDS, batch_size=READ_BATCH
            )
            await self.index.add_many(
                [(user_id, str(d["_id"]), self.index.indexed(d)) for d in kept]
            )
        return deleted

    async def pages(
        self,
        user_id: str,
        *,
        up_to_seq: int | None = None,
        page: int = READ_BATCH,
        by_seq: bool = False,
    ) -> AsyncIterator[list[Doc]]:
        """The user's stored documents (numbered up to `up_to_seq`), a page at a time, unchecked.

        For copying a user-sized list (the kept copy of a deletion, an export) without
        holding it: memory holds one page. In creation order when `by_seq` (the server
        sorts them first: slower to start).
        """
        flt: dict[str, object] = {"user_id": user_id}
        if up_to_seq is not None:
            flt["seq"] = {"$lte": up_to_seq}
        order = [("seq", 1)] if by_seq else None
        async for docs in self._c.stream(flt, sort=order, batch_size=page):
            yield docs

    async def any_through(self, user_id: str, up_to_seq: int | None) -> bool:
        """Whether the user has an item numbered up to `up_to_seq` (any item when None)."""
        flt: dict[str, object] = {"user_id": user_id}
        if up_to_seq is not None:
            flt["seq"] = {"$lte": up_to_seq}
        return bool(await self._c.find(flt, projection={"_id": 1}, limit=1))

    async def count_after(self, user_id: str, seq: int) -> dict[str, int]:
        """How many of the user's items of each type are numbered after `seq` (a few, read whole)."""
        found: dict[str, int] = {}
        for doc in await self._c.find(
            {"user_id": user_id, "seq": {"$gt": seq}}, projection={"type": 1}
        ):
            kind = doc.get("type")
            if isinstance(kind, str) and kind in ITEM_TYPES:
                found[kind] = found.get(kind, 0) + 1
        return found

    async def restore_many(self, user_id: str, items: Sequence[ItemDoc]) -> list[ItemDoc]:
        """Put `items` (all `user_id`'s) back with their ids and fields; the ones stored by this call.

        Their words are indexed first, then they are inserted `WRITE_BATCH` a round trip. One
        already there (a repeated restore) or whose dedup key the user holds again is left
        as it is and not returned.
        """
        for item in items:
            assert item.user_id == user_id
        before = await self._present([i.id for i in items])
        todo = [item for item in items if item.id not in before]
        if not todo:
            return []
        docs, entries = await self._indexable(todo)
        await self.index.add_many(entries)
        try:
            await self._c.insert_many(docs)
            return todo
        except DuplicateKey:
            pass  # the user saved one of them again meanwhile: the rest one by one
        went_in = await self._present([i.id for i in todo])
        stored = [item for item in todo if item.id in went_in]
        for item, doc in zip(todo, docs, strict=True):
            if item.id in went_in:
                continue
            try:
                await self._c.insert_one(doc)
            except DuplicateKey:
                await self.index.remove(user_id, item.id, self.index.indexed(doc))
                continue
            stored.append(item)
        return sorted(stored, key=lambda item: item.seq)

    async def _present(self, ids: list[str]) -> set[str]:
        found: set[str] = set()
        for start in range(0, len(ids), IDS_PER_READ):
            chunk = ids[start : start + IDS_PER_READ]
            docs = await self._c.find({"_id": {"$in": chunk}}, projection={"_id": 1})
            found.update(str(d["_id"]) for d in docs)
        return found

    async def _indexable(self, items: Sequence[ItemDoc]) -> tuple[list[Doc], list[Entry]]:
        """The documents to store for `items` with their words, and the words to index first."""
        stamp = self.index.stamp

        def work() -> tuple[list[Doc], list[Entry]]:
            docs: list[Doc] = []
            entries: list[Entry] = []
            for item in items:
                doc, words = item.to_doc(), self.index.words_of(item)
                if words is not None and stamp is not None:
                    doc |= {"words": words, "words_v": stamp}
                    entries.append((item.user_id, item.id, words))
                docs.append(doc)
            return docs, entries

        docs, entries = work() if len(items) <= THREAD_FROM else await asyncio.to_thread(work)
        if stamp is None or self.index.source is None:
            await self.index.mark_stale()
        return docs, entries
