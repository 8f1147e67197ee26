"""`pending_actions`: at most one pending choice or confirmation per conversation and user.

In a private chat the key is the conversation id (it equals the user id); in a group it
is `<conversation>#<user>`, so one member's "apaga tudo" never replaces another's
pending confirmation. Every method takes the user and the conversation (or a key).

Expiry is decided against the caller's clock (`now_ms`), not by a TTL index: the
replay runs on an injected clock and a TTL would disagree with it.

Hints (issue 16): a turn reads the user document anyway, so `users.pending_hint`
(slot -> the pending action's deadline, None once settled) tells it whether this
collection is worth a round trip. The hint is conservative: it is written before the
pending action and cleared after it, so it may say "maybe" when nothing is left (one
extra read, which settles it) but never "none" while something is pending.
"""

from __future__ import annotations

from collections.abc import Mapping

from storage.collection import Collection
from storage.documents import PendingDoc
from storage.ledger import sha256_hex


def pending_key(user_id: str, conversation_id: str) -> str:
    """The `_id` of `user_id`'s pending action in a conversation (a key passes unchanged)."""
    if conversation_id == user_id or conversation_id.endswith(f"#{user_id}"):
        return conversation_id
    return f"{conversation_id}#{user_id}"


def pending_slot(key: str) -> str:
    """A pending key's field name in `users.pending_hint` (a digest: ids may hold dots)."""
    return sha256_hex(key)[:16]


def may_be_pending(hints: Mapping[str, int | None], user_id: str, conversation_id: str) -> bool:
    """Whether the user document's hints leave room for a pending action in the conversation."""
    return hints.get(pending_slot(pending_key(user_id, conversation_id))) is not None


class PendingRepo:
    def __init__(self, coll: Collection, users: Collection) -> None:
        self._c = coll
        self._users = users

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
        hint = f"pending_hint.{pending_slot(str(doc['_id']))}"
        await self._users.update_one(
            {"_id": pending.user_id}, {"$set": {hint: pending.expires_at_ms}}
        )
        await self._c.replace_one({"_id": doc["_id"]}, doc, upsert=True)

    async def settle_hint(self, user_id: str, conversation_id: str, seen: int | None) -> None:
        """Clear the conversation's hint, unless it changed since `seen` (a new pending action)."""
        hint = f"pending_hint.{pending_slot(pending_key(user_id, conversation_id))}"
        await self._users.update_one({"_id": user_id, hint: seen}, {"$set": {hint: None}})

    async def delete(self, user_id: str, conversation_id: str) -> bool:
        key = pending_key(user_id, conversation_id)
        deleted = await self._c.delete_owned(key, user_id)
        if deleted is not None:
            await self.settle_hint(user_id, conversation_id, deleted.get("expires_at_ms"))
        return deleted is not None

    async def delete_loaded(self, user_id: str, conversation_id: str) -> bool:
        """Delete a pending action this caller has just read as `user_id`'s (two round trips: the document, then its hint).

        Only for a document `get` returned in the same turn: the conversation's lease
        keeps anyone else from replacing it in between (so the hint is cleared as is).
        """
        deleted = await self._c.delete_one({"_id": pending_key(user_id, conversation_id)}) > 0
        hint = f"pending_hint.{pending_slot(pending_key(user_id, conversation_id))}"
        await self._users.update_one({"_id": user_id}, {"$set": {hint: None}})
        return deleted

    async def expired(self, now_ms: int, *, user_id: str | None = None) -> list[PendingDoc]:
        flt: dict[str, object] = {"expires_at_ms": {"$lte": now_ms}}
        if user_id is not None:
            flt["user_id"] = user_id
        return [PendingDoc.model_validate(d) for d in await self._c.find(flt)]

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
