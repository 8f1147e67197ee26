"""`messages`: conversation history with native roles and a per-conversation sequence.

Message `_id`s are `<conversation>:<seq zero-padded>`, and the conversation's last
sequence number is a counter field on its `summaries` document, so "the last N
messages" is one lookup plus one `$in` over `_id`s: no sort over a large set
(SUBSET.md explains why that matters on the embedded server).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from storage.collection import Collection
from storage.documents import MessageDoc, Role, ToolCallRecord


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
    extra: dict[str, str] = field(default_factory=dict)


class MessagesRepo:
    def __init__(self, coll: Collection, summaries: Collection) -> None:
        self._c = coll
        self._summaries = summaries

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("conversation_id", 1), ("seq", 1)])

    async def last_seq(self, user_id: str, conversation_id: str) -> int:
        doc = await self._summaries.find_one(
            {"_id": conversation_doc_id(conversation_id), "user_id": user_id},
            projection={"last_seq": 1},
        )
        return int(doc.get("last_seq", 0)) if doc else 0

    async def append(
        self, user_id: str, conversation_id: str, messages: list[NewMessage], *, now_ms: int
    ) -> list[MessageDoc]:
        """Append `messages` in order, allocating their sequence numbers atomically."""
        if not messages:
            return []
        counter = await self._summaries.find_one_and_update(
            {"_id": conversation_doc_id(conversation_id)},
            {
                "$inc": {"last_seq": len(messages)},
                "$set": {"user_id": user_id, "kind": "conversation", "updated_at_ms": now_ms},
            },
            upsert=True,
        )
        assert counter is not None
        first = int(counter["last_seq"]) - len(messages) + 1
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
                ts_ms=now_ms,
            )
            for offset, msg in enumerate(messages)
        ]
        await self._c.insert_many([d.to_doc() for d in docs])
        return docs

    async def range(
        self, user_id: str, conversation_id: str, first: int, last: int
    ) -> list[MessageDoc]:
        """Messages with `first <= seq <= last`, in order."""
        first = max(first, 1)
        if last < first:
            return []
        ids = [message_id(conversation_id, s) for s in range(first, last + 1)]
        docs = await self._c.find({"_id": {"$in": ids}, "user_id": user_id})
        found = [MessageDoc.model_validate(d) for d in docs]
        return sorted(found, key=lambda m: m.seq)

    async def last(self, user_id: str, conversation_id: str, n: int) -> list[MessageDoc]:
        """The last `n` messages of the conversation, oldest first."""
        top = await self.last_seq(user_id, conversation_id)
        return await self.range(user_id, conversation_id, top - n + 1, top)

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
