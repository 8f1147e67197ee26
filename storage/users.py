"""`users`: one document per namespaced user id (`tg:123`), with its counters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from storage.collection import Collection
from storage.documents import ITEM_TYPES, NO_REMINDERS, EffectDoc, ItemType, UserDoc
from storage.errors import DuplicateKey


class UsersRepo:
    def __init__(self, coll: Collection) -> None:
        self._c = coll

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("last_seen_at_ms", -1)])
        await self._c.create_index([("session_open", 1)])

    async def get(self, user_id: str) -> UserDoc | None:
        doc = await self._c.find_one({"_id": user_id})
        return UserDoc.model_validate(doc) if doc else None

    async def ensure(
        self,
        user_id: str,
        *,
        language: Literal["pt", "en"],
        timezone: str,
        now_ms: int,
        reserve: int = 0,
    ) -> UserDoc:
        """Return the user, creating it on first contact (one round trip when it exists).

        `reserve` > 0 also reserves that many message numbers in the user's private
        conversation in the same round trip: the returned `message_seq` is the last one.
        """
        existing = await (self._reserve(user_id, reserve) if reserve else self.get(user_id))
        if existing is not None:
            return existing
        user = UserDoc(
            _id=user_id,
            channel=user_id.split(":", 1)[0],
            language=language,
            timezone=timezone,
            created_at_ms=now_ms,
            last_seen_at_ms=now_ms,
            counts={t: 0 for t in ITEM_TYPES},
            reminder_hint_ms=NO_REMINDERS,
            message_seq=reserve,
        )
        try:
            await self._c.insert_one(user.to_doc())
        except DuplicateKey:
            raced = await (self._reserve(user_id, reserve) if reserve else self.get(user_id))
            assert raced is not None
            return raced
        return user

    async def _reserve(self, user_id: str, n: int) -> UserDoc | None:
        doc = await self._c.find_one_and_update({"_id": user_id}, {"$inc": {"message_seq": n}})
        return UserDoc.model_validate(doc) if doc else None

    async def reserve_messages(self, user_id: str, n: int) -> int | None:
        """Reserve `n` more message numbers; the last one, or None when the user is gone."""
        user = await self._reserve(user_id, n)
        return user.message_seq if user else None

    async def message_seq(self, user_id: str) -> int:
        user = await self.get(user_id)
        return user.message_seq if user else 0

    async def touch(
        self,
        user_id: str,
        now_ms: int,
        *,
        open_session: bool = False,
        also: Mapping[str, object] | None = None,
    ) -> None:
        """Record a turn: last seen now, active, and (when asked) a session opening now.

        `also`: more fields set in the same round trip (the conversation's shelf).
        """
        fields: dict[str, object] = {"last_seen_at_ms": now_ms, "active": True, **(also or {})}
        if open_session:
            fields.update(session_open=True, session_start_ms=now_ms)
        await self._c.update_one({"_id": user_id}, {"$set": fields})

    async def update(
        self, user_id: str, fields: dict[str, object], *, inc: dict[str, int] | None = None
    ) -> None:
        """Set session/consolidation fields (and increment counters) on a user."""
        update: dict[str, object] = {"$set": fields} if fields else {}
        if inc:
            update["$inc"] = inc
        if update:
            await self._c.update_one({"_id": user_id}, update)

    async def with_open_sessions(self, idle_since_ms: int) -> list[UserDoc]:
        """Users whose session is open and who have been idle since `idle_since_ms`."""
        docs = await self._c.find(
            {"session_open": True, "last_seen_at_ms": {"$lte": idle_since_ms}}
        )
        return [UserDoc.model_validate(d) for d in docs]

    async def set_language(
        self, user_id: str, language: Literal["pt", "en"], *, chosen: bool = True
    ) -> None:
        """Store the language; `chosen` marks a /lang choice, not one read from a message."""
        fields: dict[str, object] = {"language": language}
        if chosen:
            fields["language_chosen"] = True
        await self._c.update_one({"_id": user_id}, {"$set": fields})

    async def set_timezone(self, user_id: str, timezone: str) -> None:
        await self._c.update_one({"_id": user_id}, {"$set": {"timezone": timezone}})

    async def set_active(self, user_id: str, active: bool) -> None:
        await self._c.update_one({"_id": user_id}, {"$set": {"active": active}})

    async def set_daily_quota(self, user_id: str, tokens: int | None) -> bool:
        outcome = await self._c.update_one(
            {"_id": user_id}, {"$set": {"daily_token_quota": tokens}}
        )
        return outcome.matched > 0

    async def adjust_count(self, user_id: str, item_type: ItemType, delta: int) -> None:
        await self._c.update_one(
            {"_id": user_id}, {"$inc": {f"counts.{item_type}": delta, "items_v": 1}}
        )

    async def move_count(self, user_id: str, from_type: ItemType, to_type: ItemType) -> None:
        """One item changed type: its count moves in one update (issue 34: retyping)."""
        await self._c.update_one(
            {"_id": user_id},
            {"$inc": {f"counts.{from_type}": -1, f"counts.{to_type}": 1, "items_v": 1}},
        )

    async def set_counts(self, user_id: str, counts: Mapping[str, int]) -> None:
        full = {t: int(counts.get(t, 0)) for t in ITEM_TYPES}
        await self._c.update_one(
            {"_id": user_id}, {"$set": {"counts": full}, "$inc": {"items_v": 1}}
        )

    async def items_changed(self, user_id: str) -> None:
        """An item changed in place (an edit): what was shown of the items is out of date."""
        await self._c.update_one({"_id": user_id}, {"$inc": {"items_v": 1}})

    async def item_marked(
        self,
        user_id: str,
        item_type: ItemType,
        *,
        shelf: tuple[Mapping[str, object], str] | None = None,
    ) -> None:
        """An item of `item_type` changed state: its type has marked items from now on
        (DESIGN 11.5), and the list cache is out of date, or, with `shelf` (the cache after
        this mark, the key of the one it replaces), replaced in the same round trip while
        the stored one is still that one (agent/conversation/shelf.py `after_mark`)."""
        change = {"$inc": {"items_v": 1}, "$set": {f"marked.{item_type}": True}}
        if shelf is None:
            await self._c.update_one({"_id": user_id}, change)
            return
        after, was = shelf
        await self._c.update_each(
            [
                ({"_id": user_id, "shelf.key": was}, {"$set": {"shelf": dict(after)}}),
                ({"_id": user_id}, change),
            ]
        )

    async def set_country(self, user_id: str, country: str | None) -> None:
        """Where-to-watch's country (`/pais XX`); None: the one the language gives."""
        await self._c.update_one({"_id": user_id}, {"$set": {"country": country}})

    async def keep_shelf(self, user: UserDoc, shelf: Mapping[str, object]) -> bool:
        """Store `shelf` unless the user's items changed since `user` was read (then it is stale)."""
        flt: dict[str, object] = {"_id": user.id, "item_seq": _same(user.item_seq)}
        flt["items_v"] = _same(user.items_v)
        flt.update({f"counts.{t}": _same(int(user.counts.get(t, 0))) for t in ITEM_TYPES})
        outcome = await self._c.update_one(flt, {"$set": {"shelf": dict(shelf)}})
        return outcome.matched > 0

    async def recent(self, *, limit: int = 100) -> list[UserDoc]:
        docs = await self._c.find({}, sort=[("last_seen_at_ms", -1)], limit=limit)
        return [UserDoc.model_validate(d) for d in docs]

    async def all_ids(self) -> list[str]:
        return [str(d["_id"]) for d in await self._c.find({}, projection={"_id": 1})]

    async def by_items(self) -> tuple[list[str], int]:
        """Every user id, most items first, and the items all of them hold (by their counters)."""
        held: list[tuple[int, str]] = []
        for doc in await self._c.find({}, projection={"counts": 1}):
            counts = doc.get("counts") or {}
            held.append(
                (sum(int(n) for n in counts.values() if isinstance(n, int)), str(doc["_id"]))
            )
        held.sort(key=lambda pair: (-pair[0], pair[1]))
        return [user_id for _, user_id in held], sum(n for n, _ in held)

    async def delete(self, user_id: str) -> int:
        return await self._c.delete_one({"_id": user_id})

    # -- effects begun and not yet recorded (issue 15) ----------------------------------------

    async def begin_effect(
        self,
        user_id: str,
        slot: str,
        effect: EffectDoc,
        *,
        take_item_seq: bool = False,
        take_item_seqs: int = 0,
    ) -> int:
        """Write the intent of `effect` in the conversation's slot, before the effect happens.

        `take_item_seq` also allocates the next item number in the same round trip and
        returns it (a save needs one); `take_item_seqs` allocates that many and returns
        the last (a batch numbers its items up to it); otherwise returns 0.
        """
        change: dict[str, object] = {"$set": {f"effects.{slot}": effect.model_dump()}}
        numbers = take_item_seqs or (1 if take_item_seq else 0)
        if not numbers:
            await self._c.update_one({"_id": user_id}, change)
            return 0
        doc = await self._c.find_one_and_update(
            {"_id": user_id}, {**change, "$inc": {"item_seq": numbers}}
        )
        if doc is None:
            raise LookupError(f"unknown user {user_id}")
        return int(doc["item_seq"])

    async def effect_copied(self, user_id: str, slot: str, effect_id: str) -> bool:
        """Mark the open effect's kept copy complete (a delete_all's snapshots); False if it ended."""
        outcome = await self._c.update_one(
            {"_id": user_id, f"effects.{slot}.id": effect_id},
            {"$set": {f"effects.{slot}.copied": True}},
        )
        return outcome.matched > 0

    async def add_counts(self, user_id: str, by_type: Mapping[str, int]) -> None:
        """Move several type counters in one update (items put back in a batch)."""
        moved = {f"counts.{t}": int(n) for t, n in by_type.items() if n}
        if moved:
            await self._c.update_one({"_id": user_id}, {"$inc": {**moved, "items_v": 1}})

    async def end_effect(
        self,
        user_id: str,
        slot: str,
        effect_id: str,
        *,
        inc: Mapping[str, int] | None = None,
        counts: Mapping[str, int] | None = None,
        shelf: tuple[Mapping[str, object], str] | None = None,
        also: Mapping[str, object] | None = None,
    ) -> bool:
        """Move the effect's counters and clear its slot in one update: they move once.

        Returns False when the slot no longer holds this effect (ended already), in
        which case nothing moves. `$unset` is outside the subset, so the slot becomes null.
        `shelf` (the shelf after this effect, the key of the one it extends) is stored
        in the same round trip, first, and only while the effect is still open and the
        stored shelf is the one extended (agent/conversation/shelf.py says why its key
        keeps it from ever showing anything else). `also`: more fields set with the counters
        (the conversation's shelf).
        """
        fields: dict[str, object] = {f"effects.{slot}": None, **(also or {})}
        if counts is not None:
            fields["counts"] = {t: int(counts.get(t, 0)) for t in ITEM_TYPES}
        change: dict[str, object] = {"$set": fields}
        if inc or counts is not None:  # the items changed: a kept shelf is out of date
            change["$inc"] = {"items_v": 1} | {f"counts.{t}": n for t, n in (inc or {}).items()}
        open_effect = {"_id": user_id, f"effects.{slot}.id": effect_id}
        if shelf is None:
            return (await self._c.update_one(open_effect, change)).matched > 0
        after, was = shelf
        shelved = {**open_effect, "shelf.key": was}
        matched = await self._c.update_each(
            [(shelved, {"$set": {"shelf": dict(after)}}), (open_effect, change)]
        )
        return matched > 0

    # -- when reminders need a look in a turn (issue 16) -------------------------------------

    async def lower_reminder_hint(self, user_id: str, due_ms: int) -> None:
        """A reminder due at `due_ms` is open: turns must look from then on.

        Conditional updates only (`$min` is outside the subset). An unknown hint becomes
        0 ("look now"), so a look that began before this reminder cannot settle it.
        """
        lowered = await self._c.update_one(
            {"_id": user_id, "reminder_hint_ms": {"$gt": due_ms}},
            {"$set": {"reminder_hint_ms": due_ms}},
        )
        if not lowered.matched:
            await self._c.update_one(
                {"_id": user_id, "reminder_hint_ms": None}, {"$set": {"reminder_hint_ms": 0}}
            )

    async def settle_reminder_hint(self, user_id: str, seen: int | None, hint_ms: int) -> bool:
        """Raise the hint after a look, unless it changed since `seen` (a reminder was added)."""
        outcome = await self._c.update_one(
            {"_id": user_id, "reminder_hint_ms": seen}, {"$set": {"reminder_hint_ms": hint_ms}}
        )
        return outcome.matched > 0


def _same(n: int) -> object:
    """A filter value equal to `n`, where 0 also matches a field older documents lack."""
    return n if n else {"$in": [0, None]}
