"""`messages`: conversation history with native roles and a per-conversation sequence.

Message `_id`s are `<conversation>:<seq zero-padded>`, and reads go through the
single-field index on `conversation_id` (SUBSET.md explains why that matters on the
embedded server). Sequence numbers come from an atomic `$inc`:

- in a private chat (the conversation id is the user id), on `users.message_seq`, and a
  turn reserves its first numbers in the same round trip that reads the user document
  (`UsersRepo.ensure(reserve=...)`), so storing its messages is one `insert_many`;
- in a group, on the conversation's `summaries` document (`last_seq`).

A private conversation whose user document does not exist (data written by tools) is
numbered on `summaries` as a group is. A turn writes its messages under consecutive numbers: when it has more than it reserved,
it takes more and keeps them only if they follow its reservation, else takes a fresh
block. Numbers left unused (a turn that stored fewer) are gaps, never reused. The
messages' unique index is the arbiter: a clash (a counter behind the messages, e.g. a
database restored from an old backup) moves the counter past the last message and the
append is retried once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from storage.collection import Collection
from storage.documents import MessageDoc, Role, ToolCallRecord
from storage.errors import DuplicateKey, StorageError
from storage.users import UsersRepo


def message_id(conversation_id: str, seq: int) -> str:
    return f"{conversation_id}:{seq:010d}"


def conversation_doc_id(conversation_id: str) -> str:
    return f"conv:{conversation_id}"


@dataclass(frozen=True, slots=True)
class NewMessage:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCallRecord, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    turn_id: str | None = None
    meta_json: str | None = None
    # What the model request showed beside this record, when it is not the record itself
    # (issue 28, docs/models.md "Prefix caching"): a `human` record's situation, and an
    # `ai` step exactly as the model wrote it (json_schema output). The history shows
    # them again as they were sent, so a prefix-caching server keeps them cached.
    situation: str | None = None
    situation_parts: tuple[dict[str, Any], ...] | None = None  # the situation, part by part
    step_text: str | None = None


class MessagesRepo:
    def __init__(self, coll: Collection, summaries: Collection, users: UsersRepo) -> None:
        self._c = coll
        self._summaries = summaries
        self._users = users

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("user_id", 1)])
        await self._c.create_index([("conversation_id", 1)])
        await self._c.create_index([("conversation_id", 1), ("seq", 1)], unique=True)

    async def last_seq(self, user_id: str, conversation_id: str) -> int:
        """The last message number given out in the conversation (gaps included)."""
        if conversation_id == user_id and (last := await self._users.message_seq(user_id)):
            return last
        doc = await self._summaries.find_owned(conversation_doc_id(conversation_id), user_id)
        return int(doc.get("last_seq", 0)) if doc else 0

    async def append(
        self,
        user_id: str,
        conversation_id: str,
        messages: list[NewMessage],
        *,
        now_ms: int,
        reserved: tuple[int, int] | None = None,
    ) -> list[MessageDoc]:
        """Append `messages` in order under consecutive numbers (module docstring).

        `reserved` is the `(first, last)` block the turn reserved when it read the user.
        """
        if not messages:
            return []
        first = await self._numbers(user_id, conversation_id, len(messages), reserved, now_ms)
        docs = [
            MessageDoc(
                _id=message_id(conversation_id, first + offset),
                conversation_id=conversation_id,
                user_id=user_id,
                seq=first + offset,
                role=msg.role,
                content=msg.content,
                tool_calls=list(msg.tool_calls),
                tool_call_id=msg.tool_call_id,
                name=msg.name,
                turn_id=msg.turn_id,
                meta_json=msg.meta_json,
                situation=msg.situation,
                situation_parts=list(msg.situation_parts) if msg.situation_parts else None,
                step_text=msg.step_text,
                ts_ms=now_ms,
            )
            for offset, msg in enumerate(messages)
        ]
        stored = [d.to_doc() for d in docs]
        try:
            await self._c.insert_many(stored)
        except DuplicateKey:
            if not await self._catch_up(user_id, conversation_id, now_ms):
                raise
            # the ordered insert stopped at the clash: what it stored before is taken back
            mine = {str(d["_id"]): d for d in stored}
            placed = await self._c.find({"_id": {"$in": list(mine)}})
            ours = [str(d["_id"]) for d in placed if d == mine[str(d["_id"])]]
            if ours:
                await self._c.delete_many({"_id": {"$in": ours}})
            return await self.append(user_id, conversation_id, messages, now_ms=now_ms)
        return docs

    async def _numbers(
        self,
        user_id: str,
        conversation_id: str,
        n: int,
        reserved: tuple[int, int] | None,
        now_ms: int,
    ) -> int:
        """The first of `n` consecutive free numbers for this append."""
        have = reserved[1] - reserved[0] + 1 if reserved else 0
        if reserved and n <= have:
            return reserved[0]
        last = None
        if conversation_id == user_id:
            last = await self._users.reserve_messages(user_id, n - have)
            if last is not None and reserved and last - (n - have) == reserved[1]:
                return reserved[0]  # the extra numbers follow the reservation
            if last is not None and reserved:  # others took numbers in between: a fresh block
                last = await self._users.reserve_messages(user_id, n)
        if last is None:  # a group, or no user document (yet): the conversation's counter
            counter = await self._allocate(user_id, conversation_id, n, now_ms)
            last = int(counter["last_seq"])  # type: ignore[call-overload]
        return last - n + 1

    async def _catch_up(self, user_id: str, conversation_id: str, now_ms: int) -> bool:
        """Move the user's counter past the conversation's last message; False if it was."""
        newest = await self._c.find(
            {"conversation_id": conversation_id}, sort=[("seq", -1)], limit=1
        )
        top = int(newest[0]["seq"]) if newest else 0
        if conversation_id != user_id or (user := await self._users.get(user_id)) is None:
            counter = await self._summaries.find_owned(
                conversation_doc_id(conversation_id), user_id
            )
            behind = top - int(counter.get("last_seq", 0)) if counter else 0
            if behind > 0:
                await self._allocate(user_id, conversation_id, behind, now_ms)
            return behind > 0
        behind = top - user.message_seq
        if behind > 0:
            await self._users.reserve_messages(user_id, behind)
        return behind > 0

    async def _allocate(
        self, user_id: str, conversation_id: str, n: int, now_ms: int
    ) -> dict[str, object]:
        """Reserve `n` sequence numbers on the conversation's counter (an atomic `$inc`).

        The counter document is created by a plain insert when missing, never by an
        upsert: concurrent upserts lose or double increments on some servers (SUBSET.md).
        """
        doc_id = conversation_doc_id(conversation_id)
        update = {"$inc": {"last_seq": n}, "$set": {"updated_at_ms": now_ms}}
        counter = await self._summaries.find_one_and_update({"_id": doc_id}, update)
        if counter is None:
            try:
                await self._summaries.insert_one(
                    {"_id": doc_id, "kind": "conversation", "user_id": user_id, "last_seq": 0}
                )
            except DuplicateKey:
                pass  # another writer created it first
            counter = await self._summaries.find_one_and_update({"_id": doc_id}, update)
        if counter is None:
            raise StorageError(f"could not allocate message numbers for {conversation_id}")
        return counter

    async def range(
        self, user_id: str, conversation_id: str, first: int, last: int
    ) -> list[MessageDoc]:
        """Messages with `first <= seq <= last`, in order."""
        first = max(first, 1)
        if last < first:
            return []
        docs = await self._c.find(
            {"conversation_id": conversation_id, "seq": {"$gte": first, "$lte": last}}
        )
        return self._owned_in_order(docs, user_id)

    async def last(self, user_id: str, conversation_id: str, n: int) -> list[MessageDoc]:
        """The last `n` messages of the conversation, oldest first."""
        docs = await self._c.find({"conversation_id": conversation_id}, sort=[("seq", -1)], limit=n)
        return self._owned_in_order(docs, user_id)

    @staticmethod
    def _owned_in_order(docs: list[dict[str, object]], user_id: str) -> list[MessageDoc]:
        # Filtered on the conversation index alone (SUBSET.md); ownership is checked here.
        found = [MessageDoc.model_validate(d) for d in docs if d.get("user_id") == user_id]
        return sorted(found, key=lambda m: m.seq)

    async def delete_for_user(self, user_id: str) -> int:
        return await self._c.delete_many({"user_id": user_id})
