"""`pending_actions`: at most one pending choice or confirmation per conversation and user.

In a private chat the key is the conversation id (it equals the user id); in a group it
is `<conversation>#<user>`, so one member's "apaga tudo" never replaces another's
pending confirmation. Every method takes the user and the conversation (or a key).

Expiry is decided against the caller's clock (`now_ms`), not by a TTL index: the
replay runs on an injected clock and a TTL would disagree with it.
"""

from __future__ import annotations

from storage.collection import Collection
from storage.documents import PendingDoc


def pending_key(user_id: str, conversation_id: str) -> str:
    """The `_id` of `user_id`'s pending action in a conversation (a key passes unchanged)."""
    if conversation_id == user_id or conversation_id.endswith(f"#{user_id}"):
        return conversation_id
    return f"{conversation_id}#{user_id}"


class PendingRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("expires_at_ms", 1)])

    async def get(self, user_id: str, conversation_id: str, *, now_ms: int) -> PendingDoc | None:
        """The live pending action, or None; an expired one is removed on the way."""
        key = pending_key(user_id, conversation_id)
        doc = await self._c.find_owned(key, user_id)
        if doc is None:
            return None
        pending = PendingDoc.model_validate(doc)
        if pending.expires_at_ms <= now_ms:
            await self._c.delete_one({"_id": key, "expires_at_ms": pending.expires_at_ms})
            return None
        return pending

    async def peek(self, user_id: str, conversation_id: str) -> PendingDoc | None:
        """The stored pending action whatever its expiry (for background expiry jobs)."""
        doc = await self._c.find_owned(pending_key(user_id, conversation_id), user_id)
        return PendingDoc.model_validate(doc) if doc else None

    async def put(self, pending: PendingDoc) -> None:
        """Store `pending`, replacing whatever this user had pending in the conversation."""
        doc = pending.to_doc() | {"_id": pending_key(pending.user_id, pending.id)}
        await self._c.replace_one({"_id": doc["_id"]}, doc, upsert=True)

    async def delete(self, user_id: str, conversation_id: str) -> bool:
        key = pending_key(user_id, conversation_id)
        return await self._c.delete_owned(key, user_id) is not None

    async def delete_loaded(self, user_id: str, conversation_id: str) -> bool:
        """Delete a pending action this caller has just read as `user_id`'s (one round trip).

        Only for a document `get` returned in the same turn: the conversation's lease
        keeps anyone else from replacing it in between.
        """
        return await self._c.delete_one({"_id": pending_key(user_id, conversation_id)}) > 0

    async def expired(self, now_ms: int, *, user_id: str | None = None) -> list[PendingDoc]:
        flt: dict[str, object] = {"expires_at_ms": {"$lte": now_ms}}
        if user_id is not None:
            flt["user_id"] = user_id
        return [PendingDoc.model_validate(d) for d in await self._c.find(flt)]

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
