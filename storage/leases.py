"""`leases`: short, renewable exclusive claims (`chat:<conversation>`, `job:<name>`, `user:<id>`).

Acquiring is an insert (the `_id` makes it exclusive) or, when the document exists,
a conditional update that only matches our own lease, then one that only matches an
expired lease. `$or` filters are avoided here: the embedded server mishandles them
in updates (SUBSET.md).

A chat lease can also be given back by expiring it in place (`give_back_many`): its
document keeps the last holder and its epoch, so `take_back` tells that holder, in the
same round trip that takes it again, whether anyone else has held it since, or asked
for a read (`mark_wanted`).
`peer:<owner>` documents say which processes are alive (bot/delivery/peers.py); `sweep` deletes
what expired long ago.
"""

from __future__ import annotations

from typing import Literal

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

    async def take_back(
        self, key: str, owner: str, *, epoch: str, ttl_ms: int, now_ms: int
    ) -> Literal["untouched", "marked"] | None:
        """Take `key` again when `owner` was its last holder; None when it was not.

        "untouched": `owner` gave it back in place during `epoch` (`give_back_many`), or
        still holds it, and no mark is in force: nobody else can have held it since,
        since that would have changed its owner. "marked": taken all the same, but it was
        given back in another epoch, or `mark_wanted` asked for a read.
        """
        before = await self._c.find_one_and_update(
            {"_id": key, "owner": owner},
            {"$set": {"expires_at_ms": now_ms + ttl_ms}},
            before=True,
        )
        if before is None:
            return None
        marked = int(before.get("wanted_until_ms", 0)) > now_ms
        return "untouched" if before.get("epoch") == epoch and not marked else "marked"

    async def give_back_many(self, keys: list[str], owner: str, *, epoch: str, now_ms: int) -> int:
        """Expire those of `keys` that `owner` holds in place, noting `epoch`, in one trip."""
        if not keys:
            return 0
        return await self._c.update_many(
            {"_id": {"$in": keys}, "owner": owner},
            {"$set": {"expires_at_ms": now_ms, "epoch": epoch}},
        )

    async def mark_wanted(self, key: str, *, until_ms: int) -> None:
        """Make every `take_back` of `key` until `until_ms` say "marked".

        A missing lease is created free (no owner, expired) to carry the mark: a process
        that takes it then did not give it back, so it reads anyway, and the mark stays
        for its later take-backs. Insert, then update: no racing upserts (SUBSET.md).
        """
        mark = {"$set": {"wanted_until_ms": until_ms}}
        if (await self._c.update_one({"_id": key}, mark)).matched:
            return
        try:
            free = LeaseDoc(_id=key, owner="", expires_at_ms=0, wanted_until_ms=until_ms)
            await self._c.insert_one(free.to_doc())
        except DuplicateKey:  # created meanwhile
            await self._c.update_one({"_id": key}, mark)

    async def announce(self, owner: str, *, ttl_ms: int, now_ms: int) -> None:
        """Say that process `owner` is alive for `ttl_ms` more."""
        doc = LeaseDoc(_id=f"peer:{owner}", owner=owner, expires_at_ms=now_ms + ttl_ms)
        await self._c.replace_one({"_id": doc.id}, doc.to_doc(), upsert=True)

    async def peers(self, *, now_ms: int) -> list[str]:
        """The owners of the processes alive now, by their `announce`."""
        docs = await self._c.find({"_id": {"$gte": "peer:", "$lt": "peer;"}})
        return sorted(str(d["owner"]) for d in docs if int(d["expires_at_ms"]) > now_ms)

    async def sweep(self, *, expired_before_ms: int, now_ms: int) -> int:
        """Delete the leases (and peers) that expired before `expired_before_ms`.

        A free lease carrying a mark still in force stays (`mark_wanted`).
        """
        return await self._c.delete_many(
            {"expires_at_ms": {"$lt": expired_before_ms}, "wanted_until_ms": {"$lt": now_ms}}
        )

    async def holder(self, key: str, *, now_ms: int) -> str | None:
        doc = await self._c.find_one({"_id": key})
        if doc is None or int(doc["expires_at_ms"]) <= now_ms:
            return None
        return str(doc["owner"])
