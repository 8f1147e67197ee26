"""Pending actions: at most one choice or confirmation per conversation and user, on the user document.

In a private chat the key is the conversation id (it equals the user id); in a group it
is `<conversation>#<user>`, so one member's "apaga tudo" never replaces another's
pending confirmation. Every method takes the user and the conversation (or a key).

Where they live (issue 16): `users.pending.<slot>`, the slot a digest of the key (ids
may hold dots). A turn reads the user document anyway, so finding what is pending costs
no round trip, and holding or settling it is one update of that document. They used to
be documents of `pending_actions` with a hint on the user document (two writes to hold
one, two or three trips to settle it); schema version 4 moves any left there onto their
user documents, and the collection stays, empty, for databases and tools that know it.

Expiry is decided against the caller's clock (`now_ms`), not by a TTL index: the
replay runs on an injected clock and a TTL would disagree with it. `users.pending_due_ms`
(indexed) is no later than the earliest deadline held, so the background sweep finds
the users with something expired without reading every user; a pending action read
after its deadline is dropped there and then anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from storage.collection import Collection
from storage.documents import PendingDoc, UserDoc
from storage.ledger import sha256_hex


def pending_key(user_id: str, conversation_id: str) -> str:
    """The key of `user_id`'s pending action in a conversation (a key passes unchanged)."""
    if conversation_id == user_id or conversation_id.endswith(f"#{user_id}"):
        return conversation_id
    return f"{conversation_id}#{user_id}"


def pending_slot(key: str) -> str:
    """A pending key's field name under `users.pending` (a digest: ids may hold dots)."""
    return sha256_hex(key)[:16]


def stored_form(pending: PendingDoc) -> tuple[str, dict[str, Any]]:
    """Where `pending` goes under `users.pending` (its slot) and the document stored there."""
    key = pending_key(pending.user_id, pending.id)
    return pending_slot(key), pending.to_doc() | {"_id": key}


def held(user: UserDoc, conversation_id: str) -> PendingDoc | None:
    """The pending action `user` (a document already read) holds in the conversation, live or not."""
    return _parsed(user.pending.get(pending_slot(pending_key(user.id, conversation_id))))


def _parsed(raw: Mapping[str, Any] | None) -> PendingDoc | None:
    return PendingDoc.model_validate(raw) if raw else None


class PendingRepo:
    def __init__(self, users: Collection, legacy: Collection) -> None:
        self._users = users
        self._legacy = legacy  # `pending_actions`: emptied by schema version 4

    async def ensure_indexes(self) -> None:
        await self._users.create_index([("pending_due_ms", 1)])
        await self._legacy.create_index([("user_id", 1)])

    async def get(self, user_id: str, conversation_id: str, *, now_ms: int) -> PendingDoc | None:
        """The live pending action, or None; an expired one is removed on the way."""
        pending = await self.peek(user_id, conversation_id)
        if pending is None:
            return None
        if pending.expires_at_ms <= now_ms:
            await self.drop_expired(user_id, pending)
            return None
        return pending

    async def peek(self, user_id: str, conversation_id: str) -> PendingDoc | None:
        """The stored pending action whatever its expiry (for background expiry jobs)."""
        slot = pending_slot(pending_key(user_id, conversation_id))
        # the whole map: nx-27017 answers a dotted projection with a flattened "pending.<slot>" key
        doc = await self._users.find_one({"_id": user_id}, projection={"pending": 1})
        return _parsed(((doc or {}).get("pending") or {}).get(slot))

    async def put(self, pending: PendingDoc, *, also: Mapping[str, Any] | None = None) -> None:
        """Hold `pending`, replacing whatever this user had pending in the conversation (one round trip).

        `also`: more fields of the user document set in the same round trip (the shelf).
        """
        slot, doc = stored_form(pending)
        user, due = {"_id": pending.user_id}, pending.expires_at_ms
        matched = await self._users.update_each(
            [
                (user, {"$set": {f"pending.{slot}": doc, **(also or {})}}),
                # the sweep's due time only ever comes earlier here (`$min` is outside the subset)
                (user | {"pending_due_ms": {"$gt": due}}, {"$set": {"pending_due_ms": due}}),
                (user | {"pending_due_ms": None}, {"$set": {"pending_due_ms": due}}),
            ]
        )
        if not matched:
            raise LookupError(f"unknown user {pending.user_id}")

    async def delete(self, user_id: str, conversation_id: str) -> bool:
        """Settle the conversation's pending action; False when there was none."""
        key = pending_key(user_id, conversation_id)
        slot = f"pending.{pending_slot(key)}"
        outcome = await self._users.update_one(
            {"_id": user_id, f"{slot}._id": key}, {"$set": {slot: None}}
        )
        return outcome.matched > 0

    async def take(
        self, user_id: str, conversation_id: str, update_id: str, *, keep_until_ms: int
    ) -> bool:
        """Mark the pending action answered by `update_id`: gone for every other update, kept
        for that one's re-drive until its turn ends (or `keep_until_ms`); False when none."""
        key = pending_key(user_id, conversation_id)
        slot = f"pending.{pending_slot(key)}"
        outcome = await self._users.update_one(
            {"_id": user_id, f"{slot}._id": key},
            {"$set": {f"{slot}.taken_by": update_id, f"{slot}.expires_at_ms": keep_until_ms}},
        )
        return outcome.matched > 0

    async def drop_expired(self, user_id: str, pending: PendingDoc) -> bool:
        """Remove `pending` unless it was replaced since it was read (a new one has a new deadline)."""
        slot = f"pending.{pending_slot(pending_key(user_id, pending.id))}"
        outcome = await self._users.update_one(
            {"_id": user_id, f"{slot}.expires_at_ms": pending.expires_at_ms},
            {"$set": {slot: None}},
        )
        return outcome.matched > 0

    async def sweep(self, now_ms: int, *, user_id: str | None = None) -> list[PendingDoc]:
        """Remove the pending actions whose deadline has passed (inclusive); return them.

        `pending_due_ms` is a lower bound of the deadlines held (settling one leaves it
        as it was), so a user it finds may have nothing expired; the sweep then moves it
        to the earliest deadline left, unless a new pending action changed it meanwhile.
        """
        flt: dict[str, object] = (
            {"_id": user_id} if user_id is not None else {"pending_due_ms": {"$lte": now_ms}}
        )
        swept: list[PendingDoc] = []
        for doc in await self._users.find(flt, projection={"pending": 1, "pending_due_ms": 1}):
            owner = str(doc["_id"])
            held_now = [p for p in map(_parsed, (doc.get("pending") or {}).values()) if p]
            expired = [p for p in held_now if p.expires_at_ms <= now_ms]
            swept += [p for p in expired if await self.drop_expired(owner, p)]
            left = [p.expires_at_ms for p in held_now if p.expires_at_ms > now_ms]
            due, next_due = doc.get("pending_due_ms"), min(left, default=None)
            if due != next_due:
                await self._users.update_one(
                    {"_id": owner, "pending_due_ms": due}, {"$set": {"pending_due_ms": next_due}}
                )
        return swept

    async def delete_for_user(self, user_id: str) -> int:
        """Forget every pending action of the user; how many there were."""
        doc = await self._users.find_one({"_id": user_id}, projection={"pending": 1})
        live = [p for p in ((doc or {}).get("pending") or {}).values() if p]
        await self._users.update_one(
            {"_id": user_id}, {"$set": {"pending": {}, "pending_due_ms": None}}
        )
        return len(live) + await self._legacy.delete_many({"user_id": user_id})
