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


def handover_number(conversation: Doc | None) -> int:
    """The number of the conversation's last handover, from its document (0: none)."""
    n = conversation.get("handover_seq") if conversation else None
    return n if isinstance(n, int) and not isinstance(n, bool) else 0


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
        return await self.handover(user_id, conversation_id, handover_number(conv))

    async def handover(self, user_id: str, conversation_id: str, n: int) -> Doc | None:
        """Handover number `n` of the conversation (numbers start at 1; 0 is none)."""
        if n <= 0:
            return None
        return await self._c.find_owned(handover_doc_id(conversation_id, n), user_id)

    async def handovers_to_rewrite(self, *, limit: int = 20) -> list[Doc]:
        """Handovers written by code that wait for the model's text (oldest first)."""
        return await self._c.find(
            {"kind": "handover", "model_due": True}, sort=[("created_at_ms", 1)], limit=limit
        )

    async def rewrite_handover(
        self, user_id: str, handover_id: str, *, was: str, fields: dict[str, Any]
    ) -> bool:
        """Set `fields` on a handover still waiting for its model text and still reading `was`
        (never over a text written since); the wait ends either way once this is tried."""
        outcome = await self._c.update_one(
            {"_id": handover_id, "user_id": user_id, "model_due": True, "text": was},
            {"$set": {**fields, "model_due": False, "model_facts": None}},
        )
        return outcome.matched > 0

    async def conversations(self, user_id: str | None = None) -> list[Doc]:
        """Conversation documents; a user's own private conversation is always among them.

        Its messages are numbered on the user document (storage/messages.py), so it may
        have no document here until its memory tiers are first written.
        """
        flt: dict[str, Any] = {"kind": "conversation"}
        if user_id is None:
            return await self._c.find(flt)
        flt["user_id"] = user_id
        found = await self._c.find(flt)
        private = conversation_doc_id(user_id)
        if all(d.get("_id") != private for d in found):
            found.append({"_id": private, "kind": "conversation", "user_id": user_id})
        return found

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
