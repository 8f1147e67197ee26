"""Per-chat arrival order of updates, kept on their `processed_updates` records (DESIGN 1, 5).

Each update record carries its chat's `queue` key and an arrival number `seq` while it
waits (`received`); finishing it clears the key, so the `queue` index holds only what
still waits. Whichever worker holds the chat's lease reads the chat's waiting records
up to its own in one query under the lease and handles the earlier ones first, so a
chat's messages keep their order even when they reach different workers.

Arrival numbers are wall-clock microseconds, raised by one when the clock has not moved
(`Arrivals`): no counter document to increment, so recording an update is one write
(issue 16). Within a process they strictly rise; across processes they follow the
machines' clocks, which on one host is the same clock and across hosts agrees to well
under the time one webhook round trip takes.

The key is a hash of the conversation id: a private chat's id is its user's id, and
`processed_updates` keeps no user id after /forget.
"""

from __future__ import annotations

import hashlib
import time

from storage.collection import Collection
from storage.documents import ProcessedUpdateDoc


def queue_key(conversation_id: str) -> str:
    """The chat's queue key: `q:` and a hash, never the conversation id itself."""
    digest = hashlib.sha256(f"chat-queue:{conversation_id}".encode()).hexdigest()
    return f"q:{digest[:32]}"


class Arrivals:
    """This process's arrival numbers: wall-clock microseconds, strictly rising."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        self._last = max(time.time_ns() // 1000, self._last + 1)
        return self._last


class ChatQueueRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("queue", 1)])

    async def waiting(self, key: str, *, up_to: int) -> list[ProcessedUpdateDoc]:
        """The chat's `received` records with `seq <= up_to`, in arrival order."""
        docs = await self._c.find(
            {"queue": key, "status": "received", "seq": {"$lte": up_to}}, sort=[("seq", 1)]
        )
        return [ProcessedUpdateDoc.model_validate(d) for d in docs]
