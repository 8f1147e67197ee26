"""`usage`: token use and per-turn counters, one document per (user, day).

Documents: `<user>:<YYYY-MM-DD>` for a user's day, `*:<YYYY-MM-DD>` for the global
day, `calibration:<model>` for belief calibration. Token reservations are single
conditional updates (`tokens + n <= limit` in the filter), never read-then-write,
so concurrent turns cannot overspend.
"""

from __future__ import annotations

from typing import Any

from storage.collection import Collection, Doc
from storage.errors import DuplicateKey

GLOBAL = "*"


def usage_doc_id(subject: str, day: str) -> str:
    return f"{subject}:{day}"


class UsageRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("day", 1)])

    async def _ensure_day(self, subject: str, day: str) -> str:
        doc_id = usage_doc_id(subject, day)
        try:
            await self._c.insert_one({"_id": doc_id, "user_id": subject, "day": day, "tokens": 0})
        except DuplicateKey:
            pass
        return doc_id

    async def reserve(self, subject: str, day: str, tokens: int, limit: int) -> bool:
        """Atomically add `tokens` to the day's use if it stays within `limit`."""
        doc_id = usage_doc_id(subject, day)
        outcome = await self._c.update_one(
            {"_id": doc_id, "tokens": {"$lte": limit - tokens}}, {"$inc": {"tokens": tokens}}
        )
        if outcome.matched:
            return True
        if await self._c.find_one({"_id": doc_id}, projection={"_id": 1}) is not None:
            return False
        await self._ensure_day(subject, day)
        outcome = await self._c.update_one(
            {"_id": doc_id, "tokens": {"$lte": limit - tokens}}, {"$inc": {"tokens": tokens}}
        )
        return outcome.matched > 0

    async def add_tokens(self, subject: str, day: str, tokens: int) -> None:
        """Adjust the day's tokens by `tokens` (may be negative: a reservation returned)."""
        doc_id = await self._ensure_day(subject, day) if tokens else usage_doc_id(subject, day)
        if tokens:
            await self._c.update_one({"_id": doc_id}, {"$inc": {"tokens": tokens}})

    async def increment(self, subject: str, day: str, counters: dict[str, int | float]) -> None:
        """Add to named counters of the day (`calls`, `messages`, `states.OK`, ...)."""
        if not counters:
            return
        doc_id = usage_doc_id(subject, day)
        outcome = await self._c.update_one({"_id": doc_id}, {"$inc": dict(counters)})
        if not outcome.matched:
            await self._ensure_day(subject, day)
            await self._c.update_one({"_id": doc_id}, {"$inc": dict(counters)})

    async def day(self, subject: str, day: str) -> Doc | None:
        return await self._c.find_one({"_id": usage_doc_id(subject, day)})

    async def days(self, day: str) -> list[Doc]:
        return await self._c.find({"day": day})

    async def get(self, doc_id: str) -> Doc | None:
        return await self._c.find_one({"_id": doc_id})

    async def increment_doc(self, doc_id: str, counters: dict[str, Any]) -> None:
        """Add to counters of a free-form usage document (e.g. `calibration:<model>`)."""
        outcome = await self._c.update_one({"_id": doc_id}, {"$inc": dict(counters)})
        if not outcome.matched:
            try:
                await self._c.insert_one(
                    {"_id": doc_id, "user_id": doc_id.split(":", 1)[0], "day": ""}
                )
            except DuplicateKey:
                pass
            await self._c.update_one({"_id": doc_id}, {"$inc": dict(counters)})

    async def of_subject(self, subject: str) -> list[Doc]:
        """Every usage document of one subject (a user id, or e.g. `calibration`), by `_id`."""
        return await self._c.find({"user_id": subject}, sort=[("_id", 1)])

    async def all(self) -> list[Doc]:
        return await self._c.find({})

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
