"""`allowed_users`: who an admin let in beside ALLOWED_USER_IDS (DESIGN 11.6), read on every
turn of a sender outside that list, so an approval or a revocation holds at once in every
process (no cache).
"""

from __future__ import annotations

from storage.collection import Collection
from storage.documents import AllowedUserDoc
from storage.errors import DuplicateKey


class AllowedUsersRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("added_at_ms", 1)])

    async def has(self, user_id: str) -> bool:
        return await self._c.find_one({"_id": user_id}) is not None

    async def add(self, user_id: str, *, by: str, now_ms: int) -> bool:
        """Let `user_id` in; False when it already was."""
        doc = AllowedUserDoc(_id=user_id, added_by=by, added_at_ms=now_ms)
        try:
            await self._c.insert_one(doc.to_doc())
        except DuplicateKey:
            return False
        return True

    async def remove(self, user_id: str) -> bool:
        """Take `user_id`'s approval back; False when there was none."""
        return await self._c.delete_one({"_id": user_id}) > 0

    async def all(self) -> list[AllowedUserDoc]:
        """Every approval, oldest first."""
        docs = await self._c.find({}, sort=[("added_at_ms", 1)])
        return [AllowedUserDoc.model_validate(d) for d in docs]
