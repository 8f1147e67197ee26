"""Per-chat arrival order of updates, kept in `processed_updates` (DESIGN section 1, 5).

Each chat has one counter document `q:<key>` (`arrived`: the last arrival number
given, `handled`: the highest one the chat's lease holder finished) and each update
record carries its chat's `queue` key and arrival `seq`. Whichever worker holds the
chat's lease handles the chat's waiting records below its own in `seq` order first,
so a chat's messages keep their order even when they reach different workers.

The key is a hash of the conversation id: a private chat's id is its user's id, and
`processed_updates` keeps no user id after /forget. Counter documents have no
`created_at`, so the records' TTL never resets a live chat's numbering.
"""

from __future__ import annotations

import hashlib

from storage.collection import Collection
from storage.documents import ProcessedUpdateDoc
from storage.errors import DuplicateKey, StorageError


def queue_key(conversation_id: str) -> str:
    """The chat's queue key: `q:` and a hash, never the conversation id itself."""
    digest = hashlib.sha256(f"chat-queue:{conversation_id}".encode()).hexdigest()
    return f"q:{digest[:32]}"


class ChatQueueRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("queue", 1)])

    async def arrive(self, key: str) -> int:
        """Give the next arrival number in the chat `key` (1, 2, ...)."""
        for _ in range(3):
            doc = await self._c.find_one_and_update({"_id": key}, {"$inc": {"arrived": 1}})
            if doc is not None:
                return int(doc["arrived"])
            try:  # created by a plain insert: concurrent upserts are not in the subset
                await self._c.insert_one({"_id": key, "arrived": 1, "handled": 0})
                return 1
            except DuplicateKey:
                continue  # another worker created it meanwhile: increment theirs
        raise StorageError(f"queue {key} neither found nor created")

    async def handled(self, key: str) -> int:
        """The highest arrival number the chat's lease holder finished."""
        doc = await self._c.find_one({"_id": key})
        return int(doc.get("handled", 0)) if doc else 0

    async def mark_handled(self, key: str, seq: int) -> None:
        """Move the chat's mark up to `seq` (never down); only the lease holder calls it."""
        await self._c.update_one({"_id": key, "handled": {"$lt": seq}}, {"$set": {"handled": seq}})

    async def waiting(self, key: str, *, after: int, before: int) -> list[ProcessedUpdateDoc]:
        """The chat's `received` records with `after < seq < before`, in arrival order."""
        docs = await self._c.find(
            {"queue": key, "seq": {"$gt": after, "$lt": before}}, sort=[("seq", 1)]
        )
        records = [ProcessedUpdateDoc.model_validate(d) for d in docs]
        return [r for r in records if r.status == "received"]
