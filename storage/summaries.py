"""`summaries`: per-conversation memory state and session handovers.

Two kinds of documents:
- `conv:<conversation>` (kind `conversation`): the message counter (`last_seq`) and
  the memory tiers (`structured` entries, `archive` text and how far each reaches);
- `handover:<conversation>:<n>` (kind `handover`): one session handover each.
"""

from __future__ import annotations

from typing import Any

from storage.collection import Collection, Doc
from storage.errors import DuplicateKey, StorageError
from storage.messages import conversation_doc_id


def handover_doc_id(conversation_id: str, n: int) -> str:
    return f"handover:{conversation_id}:{n:08d}"


class SummariesRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("kind", 1)])

    async def get_conversation(self, user_id: str, conversation_id: str) -> Doc | None:
        return await self._c.find_owned(conversation_doc_id(conversation_id), user_id)

    async def set_conversation_fields(
        self, user_id: str, conversation_id: str, fields: dict[str, Any]
    ) -> None:
        """Set memory-tier fields on the conversation document (never `last_seq`)."""
        if "last_seq" in fields or "_id" in fields:
            raise ValueError("last_seq and _id are owned by the messages repository")
        doc_id = conversation_doc_id(conversation_id)
        outcome = await self._c.update_one({"_id": doc_id}, {"$set": fields})
        if not outcome.matched:
            try:
                await self._c.insert_one(
                    {
                        "_id": doc_id,
                        "kind": "conversation",
                        "user_id": user_id,
                        "last_seq": 0,
                        **fields,
                    }
                )
            except DuplicateKey:
                await self._c.update_one({"_id": doc_id}, {"$set": fields})

    async def add_handover(
        self, user_id: str, conversation_id: str, doc: dict[str, Any], *, now_ms: int
    ) -> str:
        """Store a handover and return its id (numbered per conversation)."""
        doc_id = conversation_doc_id(conversation_id)
        counter = await self._c.find_one_and_update({"_id": doc_id}, {"$inc": {"handover_seq": 1}})
        if counter is None:
            try:
                await self._c.insert_one(
                    {"_id": doc_id, "kind": "conversation", "user_id": user_id, "last_seq": 0}
                )
            except DuplicateKey:
                pass
            counter = await self._c.find_one_and_update(
                {"_id": doc_id}, {"$inc": {"handover_seq": 1}}
            )
        if counter is None:
            raise StorageError(f"could not number a handover for {conversation_id}")
        n = int(counter["handover_seq"])
        handover_id = handover_doc_id(conversation_id, n)
        await self._c.insert_one(
            {
                **doc,
                "_id": handover_id,
                "kind": "handover",
                "user_id": user_id,
                "conversation_id": conversation_id,
                "n": n,
                "created_at_ms": now_ms,
            }
        )
        return handover_id

    async def last_handover(self, user_id: str, conversation_id: str) -> Doc | None:
        conv = await self.get_conversation(user_id, conversation_id)
        n = int(conv.get("handover_seq", 0)) if conv else 0
        if n == 0:
            return None
        return await self._c.find_owned(handover_doc_id(conversation_id, n), user_id)

    async def conversations(self, user_id: str | None = None) -> list[Doc]:
        flt: dict[str, Any] = {"kind": "conversation"}
        if user_id is not None:
            flt["user_id"] = user_id
        return await self._c.find(flt)

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
