"""A thin wrapper over one pymongo collection limited to the portable subset (SUBSET.md).

Repositories talk to the database only through this class: every call translates
driver errors (storage/errors.py) and nothing outside the subset is exposed.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from pymongo import ReturnDocument, UpdateOne
from pymongo.asynchronous.collection import AsyncCollection

from storage import roundtrips
from storage.errors import translated
from storage.faults import FaultPoints

Doc = dict[str, Any]
Filter = Mapping[str, Any]
SortSpec = Sequence[tuple[str, int]]
# Told of every round trip: (collection, operation, seconds). Metrics plug in here, so
# storage never imports prometheus.
Observer = Callable[[str, str, float], None]
# Documents or statements per write round trip: a user-sized list goes in several, each well
# within the driver's socket timeout (50,000 items in one insert outlasted its 10 s on
# nx-27017). The driver builds and encodes each batch on the event loop: 1,000 statements
# held it 50-80 ms on a busy 2-core machine, 250 about a quarter of that.
WRITE_BATCH: Final = 250


@dataclass(frozen=True, slots=True)
class UpdateOutcome:
    matched: int
    modified: int
    upserted: bool


class Collection:
    """The subset of collection operations repositories may use."""

    def __init__(
        self,
        raw: AsyncCollection[Doc],
        *,
        observer: Observer | None = None,
        faults: FaultPoints | None = None,
    ) -> None:
        self._raw = raw
        self.name = raw.name
        self._observer = observer
        self._faults = faults or FaultPoints()

    def _written(self, operation: str) -> None:
        self._faults.after_write(f"{self.name}.{operation}")

    @contextmanager
    def _op(self, operation: str) -> Iterator[None]:
        """One round trip: driver errors translated, its duration told to the observer."""
        started = time.perf_counter()
        try:
            with translated(f"{self.name}.{operation}"):
                yield
        finally:
            roundtrips.tick()
            if self._observer is not None:
                self._observer(self.name, operation, time.perf_counter() - started)

    async def find_one(
        self, filter: Filter, *, projection: Mapping[str, Any] | None = None
    ) -> Doc | None:
        with self._op("find_one"):
            return await self._raw.find_one(dict(filter), projection)

    async def find_owned(
        self,
        doc_id: str,
        owner: str,
        *,
        owner_field: str = "user_id",
        projection: Mapping[str, Any] | None = None,
    ) -> Doc | None:
        """The document with `_id` only if `owner_field` equals `owner`.

        Looked up by `_id` alone and checked here: nx-27017 plans a filter that adds
        another indexed field on that other index and scans (SUBSET.md).
        """
        doc = await self.find_one({"_id": doc_id}, projection=projection)
        if doc is None or doc.get(owner_field) != owner:
            return None
        return doc

    async def delete_owned(
        self, doc_id: str, owner: str, *, owner_field: str = "user_id"
    ) -> Doc | None:
        """Delete the document with `_id` if `owner` owns it; return what was deleted."""
        doc = await self.find_owned(doc_id, owner, owner_field=owner_field)
        if doc is None:
            return None
        # The owner field never changes, so the check above still holds here.
        return doc if await self.delete_one({"_id": doc_id}) else None

    async def find(
        self,
        filter: Filter,
        *,
        projection: Mapping[str, Any] | None = None,
        sort: SortSpec | None = None,
        limit: int = 0,
        skip: int = 0,
        batch_size: int = 0,
    ) -> list[Doc]:
        """Every matching document; `batch_size` bounds each reply the event loop decodes."""
        with self._op("find"):
            cursor = self._raw.find(dict(filter), projection)
            if batch_size:
                cursor = cursor.batch_size(batch_size)
            if sort:
                cursor = cursor.sort(list(sort))
            if skip:
                cursor = cursor.skip(skip)
            if limit:
                cursor = cursor.limit(limit)
            return await cursor.to_list(None)

    async def stream(
        self,
        filter: Filter,
        *,
        projection: Mapping[str, Any] | None = None,
        sort: SortSpec | None = None,
        batch_size: int = 500,
    ) -> AsyncIterator[list[Doc]]:
        """The matching documents one reply at a time, through one cursor.

        Paging by `_id` ranges scans the whole collection per page on nx-27017 (SUBSET.md);
        one cursor reads it once, and memory holds one reply.
        """
        cursor = self._raw.find(dict(filter), projection).batch_size(batch_size)
        if sort:
            cursor = cursor.sort(list(sort))
        try:
            while True:
                with self._op("stream"):
                    page = await cursor.to_list(batch_size)
                if not page:
                    return
                yield page
        finally:
            await cursor.close()

    async def insert_one(self, doc: Doc) -> None:
        with self._op("insert_one"):
            await self._raw.insert_one(doc)
        self._written("insert_one")

    async def insert_many(self, docs: Sequence[Doc]) -> None:
        """Insert `docs` in order, `WRITE_BATCH` a round trip (each batch ordered on its own)."""
        for start in range(0, len(docs), WRITE_BATCH):
            with self._op("insert_many"):
                await self._raw.insert_many(list(docs[start : start + WRITE_BATCH]), ordered=True)
            self._written("insert_many")

    async def update_one(
        self, filter: Filter, update: Mapping[str, Any], *, upsert: bool = False
    ) -> UpdateOutcome:
        with self._op("update_one"):
            result = await self._raw.update_one(dict(filter), dict(update), upsert=upsert)
        self._written("update_one")
        return UpdateOutcome(
            result.matched_count, result.modified_count, result.upserted_id is not None
        )

    async def update_each(
        self, updates: Sequence[tuple[Filter, Mapping[str, Any]]], *, upsert: bool = False
    ) -> int:
        """Several `update_one`s in order, in one round trip; how many matched in all.

        One `update` command with several statements (ordered bulk write), never a
        transaction: each statement stands alone, as separate `update_one`s would. More
        than `WRITE_BATCH` statements take one round trip per `WRITE_BATCH`.
        With `upsert`, each creates its document by `_id` when missing (SUBSET.md: only
        idempotent `$set`s and counters that may overcount, retried on a duplicate key).
        """
        matched = 0
        for start in range(0, len(updates), WRITE_BATCH):
            chunk = updates[start : start + WRITE_BATCH]
            with self._op("update_each"):
                result = await self._raw.bulk_write(
                    [UpdateOne(dict(f), dict(u), upsert=upsert) for f, u in chunk], ordered=True
                )
            self._written("update_each")
            matched += result.matched_count
        return matched

    async def update_many(self, filter: Filter, update: Mapping[str, Any]) -> int:
        with self._op("update_many"):
            result = await self._raw.update_many(dict(filter), dict(update))
        self._written("update_many")
        return result.modified_count

    async def find_one_and_update(
        self,
        filter: Filter,
        update: Mapping[str, Any],
        *,
        upsert: bool = False,
        before: bool = False,
    ) -> Doc | None:
        """Apply `update` and return the document after it, or as it was `before` it.

        No `$setOnInsert` (SUBSET.md).
        """
        returned = ReturnDocument.BEFORE if before else ReturnDocument.AFTER
        with self._op("find_one_and_update"):
            doc = await self._raw.find_one_and_update(
                dict(filter), dict(update), upsert=upsert, return_document=returned
            )
        self._written("find_one_and_update")
        return doc

    async def replace_one(self, filter: Filter, doc: Doc, *, upsert: bool = False) -> UpdateOutcome:
        with self._op("replace_one"):
            result = await self._raw.replace_one(dict(filter), doc, upsert=upsert)
        self._written("replace_one")
        return UpdateOutcome(
            result.matched_count, result.modified_count, result.upserted_id is not None
        )

    async def delete_one(self, filter: Filter) -> int:
        with self._op("delete_one"):
            result = await self._raw.delete_one(dict(filter))
        self._written("delete_one")
        return result.deleted_count

    async def delete_many(self, filter: Filter) -> int:
        with self._op("delete_many"):
            result = await self._raw.delete_many(dict(filter))
        self._written("delete_many")
        return result.deleted_count

    async def create_index(self, keys: Sequence[tuple[str, int]], **options: Any) -> None:
        with self._op("create_index"):
            await self._raw.create_index(list(keys), **options)
