"""`leases`: short, renewable exclusive claims (`chat:<conversation>`, `job:<name>`, `user:<id>`).

Acquiring is an insert (the `_id` makes it exclusive) or, when the document exists,
a conditional update that only matches our own lease, then one that only matches an
expired lease. `$or` filters are avoided here: the embedded server mishandles them
in updates (SUBSET.md).
"""

from __future__ import annotations

from storage.collection import Collection
from storage.documents import LeaseDoc
from storage.errors import DuplicateKey


class LeasesRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("expires_at_ms", 1)])

    async def acquire(self, key: str, owner: str, *, ttl_ms: int, now_ms: int) -> bool:
        """Take (or renew) the lease `key` for `owner`; False when someone else holds it."""
        expires = now_ms + ttl_ms
        try:
            await self._c.insert_one(LeaseDoc(_id=key, owner=owner, expires_at_ms=expires).to_doc())
            return True
        except DuplicateKey:
            pass
        # Two plain conditional updates, not one `$or`: nx-27017 0.8.1 drops the `_id`
        # condition of `{"_id": k, "$or": [{f: {"$lte": n}}, ...]}` in updates, so an
        # `$or` acquire could "succeed" by touching another lease this owner holds.
        mine = await self._c.update_one(
            {"_id": key, "owner": owner}, {"$set": {"expires_at_ms": expires}}
        )
        if mine.matched > 0:
            return True
        expired = await self._c.update_one(
            {"_id": key, "expires_at_ms": {"$lte": now_ms}},
            {"$set": {"owner": owner, "expires_at_ms": expires}},
        )
        if expired.matched > 0:
            return True
        # Expiring further ahead than any holder could have set: written before the wall
        # clock stepped back. Taken now, instead of waiting out the whole step.
        stepped = await self._c.update_one(
            {"_id": key, "expires_at_ms": {"$gt": expires + ttl_ms}},
            {"$set": {"owner": owner, "expires_at_ms": expires}},
        )
        return stepped.matched > 0

    async def renew(self, key: str, owner: str, *, ttl_ms: int, now_ms: int) -> bool:
        outcome = await self._c.update_one(
            {"_id": key, "owner": owner}, {"$set": {"expires_at_ms": now_ms + ttl_ms}}
        )
        return outcome.matched > 0

    async def release(self, key: str, owner: str) -> bool:
        return await self._c.delete_one({"_id": key, "owner": owner}) > 0

    async def release_many(self, keys: list[str], owner: str) -> int:
        """Give back those of `keys` that `owner` holds, in one round trip."""
        if not keys:
            return 0
        return await self._c.delete_many({"_id": {"$in": keys}, "owner": owner})

    async def holder(self, key: str, *, now_ms: int) -> str | None:
        doc = await self._c.find_one({"_id": key})
        if doc is None or int(doc["expires_at_ms"]) <= now_ms:
            return None
        return str(doc["owner"])
