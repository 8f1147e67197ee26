"""`reminders`: scheduled -> sending -> sent | cancelled, by conditional updates only.

A claim is a compare-and-swap on (`_id`, `state`, `attempts`): whoever moves a
reminder to `sending` owns that attempt, and only that attempt's owner can mark it
sent. A `sending` claim whose worker died wakes again after `stale_ms` (by default
`SENDING_STALE_MS`; `lembra serve` passes REMINDER_RECLAIM_S).
"""

from __future__ import annotations

from collections.abc import Mapping

from storage.collection import Collection
from storage.documents import ReminderDoc

SENDING_STALE_MS = 120_000
OPEN_STATES = ("scheduled", "sending")


class RemindersRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("wake_at_ms", 1)])

    async def add(self, reminder: ReminderDoc) -> None:
        await self._c.insert_one(reminder.to_doc())

    async def get(self, user_id: str, reminder_id: str) -> ReminderDoc | None:
        doc = await self._c.find_owned(reminder_id, user_id)
        return ReminderDoc.model_validate(doc) if doc else None

    async def for_user(self, user_id: str) -> list[ReminderDoc]:
        """Every reminder of the user, soonest first."""
        docs = await self._c.find({"user_id": user_id})
        return sorted((ReminderDoc.model_validate(d) for d in docs), key=lambda r: r.due_at_ms)

    async def open_for(self, user_id: str) -> list[ReminderDoc]:
        return [r for r in await self.for_user(user_id) if r.state in OPEN_STATES]

    async def waking(self, now_ms: int, *, limit: int = 100) -> list[ReminderDoc]:
        """Reminders due, or whose `sending` claim went stale, by `now_ms`."""
        docs = await self._c.find(
            {"wake_at_ms": {"$lte": now_ms}}, sort=[("wake_at_ms", 1)], limit=limit
        )
        return [ReminderDoc.model_validate(d) for d in docs]

    async def claim(
        self, reminder: ReminderDoc, owner: str, now_ms: int, *, stale_ms: int = SENDING_STALE_MS
    ) -> ReminderDoc | None:
        """Move `reminder` (as read) to `sending` for `owner`; None when someone else did."""
        attempts = reminder.attempts + 1
        outcome = await self._c.update_one(
            {"_id": reminder.id, "state": reminder.state, "attempts": reminder.attempts},
            {
                "$set": {
                    "state": "sending",
                    "claimed_by": owner,
                    "wake_at_ms": now_ms + stale_ms,
                    "attempts": attempts,
                    "updated_at_ms": now_ms,
                }
            },
        )
        if not outcome.modified:
            return None
        return reminder.model_copy(
            update={"state": "sending", "claimed_by": owner, "attempts": attempts}
        )

    async def _from_claim(self, reminder: ReminderDoc, fields: Mapping[str, object]) -> bool:
        outcome = await self._c.update_one(
            {"_id": reminder.id, "state": "sending", "attempts": reminder.attempts},
            {"$set": fields},
        )
        return outcome.modified > 0

    async def mark_sent(self, reminder: ReminderDoc, now_ms: int) -> bool:
        fields = {"state": "sent", "wake_at_ms": None, "sent_at_ms": now_ms, "held": False}
        return await self._from_claim(reminder, {**fields, "updated_at_ms": now_ms})

    async def mark_sent_and_advance(
        self, reminder: ReminderDoc, next_ms: int | None, now_ms: int
    ) -> bool:
        """Mark this occurrence sent and, when the rule has another, schedule it, in one update
        from the claim: each occurrence is sent once, and only its claim's owner moves it on."""
        if next_ms is None:
            fields: dict[str, object] = {"state": "sent", "wake_at_ms": None}
        else:
            fields = {"state": "scheduled", "due_at_ms": next_ms, "wake_at_ms": next_ms}
        fields |= {
            "sent_at_ms": now_ms,
            "held": False,
            "sent_count": reminder.sent_count + 1,
            "updated_at_ms": now_ms,
        }
        return await self._from_claim(reminder, fields)

    async def move(
        self, user_id: str, reminder: ReminderDoc, fields: Mapping[str, object], now_ms: int
    ) -> bool:
        """Change a scheduled reminder of `user_id` as read (its time, text or rule); False when
        it was sent, claimed or changed meanwhile."""
        if reminder.user_id != user_id:
            return False
        outcome = await self._c.update_one(
            {
                "_id": reminder.id,
                "state": "scheduled",
                "attempts": reminder.attempts,
                "updated_at_ms": reminder.updated_at_ms,
            },
            {"$set": {**fields, "updated_at_ms": now_ms}},
        )
        return outcome.modified > 0

    async def release(self, reminder: ReminderDoc, retry_at_ms: int, now_ms: int) -> bool:
        """Give a claimed reminder back to the schedule (the channel asked to retry later)."""
        fields = {"state": "scheduled", "wake_at_ms": retry_at_ms, "updated_at_ms": now_ms}
        return await self._from_claim(reminder, fields)

    async def hold(self, reminder: ReminderDoc, now_ms: int) -> bool:
        """Keep a claimed reminder for the user's next message (no channel may send now)."""
        fields = {"state": "scheduled", "wake_at_ms": None, "held": True, "updated_at_ms": now_ms}
        return await self._from_claim(reminder, fields)

    async def cancel(self, user_id: str, reminder: ReminderDoc, now_ms: int) -> bool:
        """Cancel a scheduled reminder of `user_id` (one already being sent is not stopped)."""
        if reminder.user_id != user_id:
            return False
        outcome = await self._c.update_one(
            {"_id": reminder.id, "state": "scheduled", "attempts": reminder.attempts},
            {"$set": {"state": "cancelled", "wake_at_ms": None, "updated_at_ms": now_ms}},
        )
        return outcome.modified > 0

    async def reschedule(
        self, user_id: str, reminder: ReminderDoc, due_at_ms: int, now_ms: int
    ) -> bool:
        """Snooze a sent reminder of `user_id` to `due_at_ms` (once per delivery)."""
        if reminder.user_id != user_id:
            return False
        fields = {
            "state": "scheduled",
            "due_at_ms": due_at_ms,
            "wake_at_ms": due_at_ms,
            "held": False,
            "updated_at_ms": now_ms,
        }
        outcome = await self._c.update_one(
            {"_id": reminder.id, "state": "sent", "attempts": reminder.attempts}, {"$set": fields}
        )
        return outcome.modified > 0

    async def put(self, reminder: ReminderDoc) -> None:
        """Store `reminder` as given over its owner's one (an undone change, a rule's next time)."""
        await self._c.replace_one(
            {"_id": reminder.id, "user_id": reminder.user_id}, reminder.to_doc(), upsert=True
        )

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
