"""`processed_updates`: the lifecycle of every incoming platform update (DESIGN section 5).

`_id` is the namespaced platform id (`tg:<update_id>`, `wa:<message id>`). A record
is written as `received` before the platform is acknowledged and marked `done` with
its reply after handling; a TTL index keeps records for 8 days, beyond Telegram's
24 hours and WhatsApp's 7 days of redelivery.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from storage.collection import Collection
from storage.documents import ProcessedUpdateDoc
from storage.errors import DuplicateKey

TTL_SECONDS = 8 * 24 * 3600


class UpdatesRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("created_at", 1)], expireAfterSeconds=TTL_SECONDS)
        await self._c.create_index([("status", 1)])
        await self._c.create_index([("refused_day", 1)])  # the allowlist's refusals (issue 34)
        await self._c.create_index([("pairing_code", 1)])  # their pairing codes (DESIGN 11.6)

    async def record(
        self,
        update_id: str,
        payload_json: str,
        *,
        now_ms: int,
        user_id: str | None = None,
        queue: str | None = None,
        seq: int = 0,
    ) -> Literal["new", "received", "done", "throttled"]:
        """Record a received update; say whether it is new or its earlier status."""
        doc = ProcessedUpdateDoc(
            _id=update_id,
            status="received",
            created_at=datetime.fromtimestamp(now_ms / 1000, tz=UTC),
            updated_at_ms=now_ms,
            payload_json=payload_json,
            user_id=user_id,
            queue=queue,
            seq=seq,
        )
        try:
            await self._c.insert_one(doc.to_doc())
        except DuplicateKey:
            existing = await self.get(update_id)
            return existing.status if existing else "received"
        return "new"

    async def get(self, update_id: str) -> ProcessedUpdateDoc | None:
        doc = await self._c.find_one({"_id": update_id})
        return ProcessedUpdateDoc.model_validate(doc) if doc else None

    async def mark_done(self, update_id: str, reply_json: str | None, *, now_ms: int) -> None:
        """Finish the update; it leaves its chat's queue (storage/chatqueue.py)."""
        await self._c.update_one(
            {"_id": update_id},
            {
                "$set": {
                    "status": "done",
                    "reply_json": reply_json,
                    "updated_at_ms": now_ms,
                    "payload_json": "",
                    "queue": None,
                    "transcript": None,
                }
            },
        )

    async def note_refusal(
        self, update_id: str, day: str, *, code_hash: str | None = None, until_ms: int = 0
    ) -> None:
        """Mark the update as its sender's one refusal of `day` (a sender not allowed to use the bot),
        with the digest of the pairing code it gave and until when an admin may approve it.

        The mark lives on the dedup record itself: nothing else of such a sender is stored.
        """
        fields: dict[str, object] = {"refused_day": day}
        if code_hash is not None:
            fields |= {"pairing_code": code_hash, "pairing_until_ms": until_ms}
        await self._c.update_one({"_id": update_id}, {"$set": fields})

    async def paired(self, code_hash: str, *, now_ms: int) -> str | None:
        """The sender a pairing code was given to, while it has not expired."""
        doc = await self._c.find_one({"pairing_code": code_hash})
        if doc is None or int(doc.get("pairing_until_ms", 0)) <= now_ms:
            return None
        user_id = doc.get("user_id")
        return str(user_id) if user_id else None

    async def spend_pairing(self, code_hash: str) -> None:
        """A code used once is gone (the record stays for dedup)."""
        await self._c.update_many(
            {"pairing_code": code_hash}, {"$set": {"pairing_code": None, "pairing_until_ms": 0}}
        )

    async def refused_on(self, user_id: str, day: str) -> bool:
        """Whether `user_id` was already refused on `day` (by any process)."""
        return await self._c.find_one({"refused_day": day, "user_id": user_id}) is not None

    async def mark_throttled(self, update_id: str, *, now_ms: int) -> None:
        """Finish a new update the rate limiter refused: recorded, never handled."""
        await self._c.update_one(
            {"_id": update_id, "status": "received"},
            {
                "$set": {
                    "status": "throttled",
                    "updated_at_ms": now_ms,
                    "payload_json": "",
                    "queue": None,
                }
            },
        )

    async def keep_transcript(self, update_id: str, transcript: str) -> None:
        """Keep what a voice note said on its `received` record: a re-drive reuses it.

        A second transcription could hear other words and so do something else; the
        transcript leaves the record with the payload when the update is done.
        """
        await self._c.update_one(
            {"_id": update_id, "status": "received"}, {"$set": {"transcript": transcript}}
        )

    async def mark_notice(self, update_id: str) -> None:
        """Note that this update is the flood's one notice (a re-drive sends only that)."""
        await self._c.update_one({"_id": update_id}, {"$set": {"notice": True}})

    async def forget_user(self, user_id: str) -> int:
        """Erase the replies kept on a user's finished updates, then the user id on all.

        The update ids stay for dedup; an update still `received` keeps its payload for
        the re-drive (emptied when it is done). A rare command (/forget): no index on
        `user_id`, so it scans the collection.
        """
        erased = await self._c.update_many(
            {"user_id": user_id, "status": {"$in": ["done", "throttled"]}},
            {"$set": {"reply_json": None, "payload_json": "", "transcript": None}},
        )
        await self._c.update_many({"user_id": user_id}, {"$set": {"user_id": None}})
        return erased

    async def keep_reply(self, update_id: str, reply_json: str, *, now_ms: int) -> None:
        """Keep the reply of a handled update whose sending failed; it stays `received`.

        The re-drive then sends this reply instead of handling the update again.
        """
        await self._c.update_one(
            {"_id": update_id, "status": "received"},
            {"$set": {"reply_json": reply_json, "updated_at_ms": now_ms}},
        )

    async def touch(self, update_ids: list[str], *, now_ms: int) -> int:
        """Mark `received` updates as still alive (queued or running in a live process)."""
        if not update_ids:
            return 0
        return await self._c.update_many(
            {"_id": {"$in": update_ids}, "status": "received"},
            {"$set": {"updated_at_ms": now_ms}},
        )

    async def claim_stale(self, update_id: str, *, seen_updated_at_ms: int, now_ms: int) -> bool:
        """Take a stale `received` record for re-driving; only one claimant wins."""
        outcome = await self._c.update_one(
            {"_id": update_id, "status": "received", "updated_at_ms": seen_updated_at_ms},
            {"$set": {"updated_at_ms": now_ms}, "$inc": {"attempts": 1}},
        )
        return outcome.matched > 0

    async def stale(
        self, older_than_ms: int, *, newer_than_ms: int | None = None, limit: int = 100
    ) -> list[ProcessedUpdateDoc]:
        """`received` records last touched before `older_than_ms` or after `newer_than_ms`.

        A record touched in the future was written before the wall clock stepped back:
        no live process touches it later than now, so it is as stale as an old one.
        """
        docs = await self._c.find(
            {"status": "received", "updated_at_ms": {"$lt": older_than_ms}}, limit=limit
        )
        if newer_than_ms is not None and len(docs) < limit:
            docs += await self._c.find(
                {"status": "received", "updated_at_ms": {"$gt": newer_than_ms}},
                limit=limit - len(docs),
            )
        return [ProcessedUpdateDoc.model_validate(d) for d in docs]

    async def count_status(self, status: str) -> int:
        return len(await self._c.find({"status": status}, projection={"_id": 1}))
