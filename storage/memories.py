"""`memories`: the notes the assistant keeps about a user and their bookmarks (issue 12).

Kept apart from `items`: they are the assistant's, not what the user saved. Every
query names the user; a document is reached by id only together with its owner.
"""

from __future__ import annotations

import uuid

from storage.collection import Collection
from storage.documents import MemoryDoc, MemoryKind


class MemoriesRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1), ("seq", 1)])

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    async def add(self, doc: MemoryDoc) -> None:
        await self._c.insert_one(doc.to_doc())

    async def list_for(self, user_id: str, kind: MemoryKind | None = None) -> list[MemoryDoc]:
        """The user's memories, oldest first."""
        query: dict[str, object] = {"user_id": user_id}
        if kind is not None:
            query["kind"] = kind
        docs = await self._c.find(query, sort=[("seq", 1), ("created_at_ms", 1)])
        return [MemoryDoc.model_validate(d) for d in docs]

    async def put(self, doc: MemoryDoc) -> None:
        """Store `doc` as given (an undone deletion brings it back)."""
        await self._c.replace_one(
            {"_id": doc.id, "user_id": doc.user_id}, doc.to_doc(), upsert=True
        )

    async def get(self, user_id: str, memory_id: str) -> MemoryDoc | None:
        doc = await self._c.find_owned(memory_id, user_id)
        return MemoryDoc.model_validate(doc) if doc else None

    async def delete(self, user_id: str, memory_id: str) -> bool:
        return await self._c.delete_owned(memory_id, user_id) is not None

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
