"""`messages`: conversation history with native roles and a per-conversation sequence.

Message `_id`s are `<conversation>:<seq zero-padded>`; sequence numbers are
allocated from a counter field on the conversation's `summaries` document (one
atomic `$inc` per append), and reads go through the single-field index on
`conversation_id` (SUBSET.md explains why that matters on the embedded server).
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.collection import Collection
from storage.documents import MessageDoc, Role, ToolCallRecord
from storage.errors import DuplicateKey, StorageError


def message_id(conversation_id: str, seq: int) -> str:
    return f"{conversation_id}:{seq:010d}"


def conversation_doc_id(conversation_id: str) -> str:
    return f"conv:{conversation_id}"


@dataclass(frozen=True, slots=True)
class NewMessage:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCallRecord, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    turn_id: str | None = None
    meta_json: str | None = None


class MessagesRepo:
    def __init__(self, coll: Collection, summaries: Collection) -> None:
        self._c = coll
        self._summaries = summaries

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("conversation_id", 1)])
        await self._c.create_index([("conversation_id", 1), ("seq", 1)], unique=True)

    async def last_seq(self, user_id: str, conversation_id: str) -> int:
        doc = await self._summaries.find_owned(conversation_doc_id(conversation_id), user_id)
        return int(doc.get("last_seq", 0)) if doc else 0

    async def append(
        self, user_id: str, conversation_id: str, messages: list[NewMessage], *, now_ms: int
    ) -> list[MessageDoc]:
        """Append `messages` in order, allocating their sequence numbers atomically."""
        if not messages:
            return []
        counter = await self._allocate(user_id, conversation_id, len(messages), now_ms)
        first = int(counter["last_seq"]) - len(messages) + 1  # type: ignore[call-overload]
        docs = [
            MessageDoc(
                _id=message_id(conversation_id, first + offset),
                conversation_id=conversation_id,
                user_id=user_id,
                seq=first + offset,
                role=msg.role,
                content=msg.content,
                tool_calls=list(msg.tool_calls),
                tool_call_id=msg.tool_call_id,
                name=msg.name,
                turn_id=msg.turn_id,
                meta_json=msg.meta_json,
                ts_ms=now_ms,
            )
            for offset, msg in enumerate(messages)
        ]
        await self._c.insert_many([d.to_doc() for d in docs])
        return docs

    async def _allocate(
        self, user_id: str, conversation_id: str, n: int, now_ms: int
    ) -> dict[str, object]:
        """Reserve `n` sequence numbers on the conversation's counter (an atomic `$inc`).

        The counter document is created by a plain insert when missing, never by an
        upsert: concurrent upserts lose or double increments on some servers (SUBSET.md).
        """
        doc_id = conversation_doc_id(conversation_id)
        update = {"$inc": {"last_seq": n}, "$set": {"updated_at_ms": now_ms}}
        counter = await self._summaries.find_one_and_update({"_id": doc_id}, update)
        if counter is None:
            try:
                await self._summaries.insert_one(
                    {"_id": doc_id, "kind": "conversation", "user_id": user_id, "last_seq": 0}
                )
            except DuplicateKey:
                pass  # another writer created it first
            counter = await self._summaries.find_one_and_update({"_id": doc_id}, update)
        if counter is None:
            raise StorageError(f"could not allocate message numbers for {conversation_id}")
        return counter

    async def range(
        self, user_id: str, conversation_id: str, first: int, last: int
    ) -> list[MessageDoc]:
        """Messages with `first <= seq <= last`, in order."""
        first = max(first, 1)
        if last < first:
            return []
        docs = await self._c.find(
            {"conversation_id": conversation_id, "seq": {"$gte": first, "$lte": last}}
        )
        return self._owned_in_order(docs, user_id)

    async def last(self, user_id: str, conversation_id: str, n: int) -> list[MessageDoc]:
        """The last `n` messages of the conversation, oldest first."""
        docs = await self._c.find({"conversation_id": conversation_id}, sort=[("seq", -1)], limit=n)
        return self._owned_in_order(docs, user_id)

    @staticmethod
    def _owned_in_order(docs: list[dict[str, object]], user_id: str) -> list[MessageDoc]:
        # Filtered on the conversation index alone (SUBSET.md); ownership is checked here.
        found = [MessageDoc.model_validate(d) for d in docs if d.get("user_id") == user_id]
        return sorted(found, key=lambda m: m.seq)

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
