"""`ledger`: an append-only, per-user hash chain of effects (DESIGN 3.9).

Each event is `{stream, seq, type, payload, ts, prev_hash, hash}` where
`hash = sha256(canonical_json({stream, seq, type, payload, ts, prev_hash}))`,
canonical JSON being sorted keys, no spaces, UTF-8. The first event of a stream
links to `GENESIS`. `_id` is `<stream>#<seq>`, and a unique `(stream, seq)` index
backs it, so two writers racing for the same position cannot fork the chain: the
loser re-reads the head and tries the next position.

With a signing key (storage/signing.py) each event also carries `sig`, an
Ed25519 signature of its hash: the hash chain alone can be recomputed by anyone
who can write the database, a signature cannot without the key.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from storage.collection import Collection
from storage.documents import LedgerDoc
from storage.errors import DuplicateKey, StorageError
from storage.signing import LedgerSigner

GENESIS = "0" * 64
EVENT_TYPES = frozenset(
    {
        "item_saved",
        "item_deleted",
        "all_deleted",
        "belief_updated",
        "handover_written",
        "constitution_updated",
        "consolidation_done",
        "quota_exceeded",
        "pipeline_violation",
        "admin_action",
        "user_forgotten",
        # DESIGN 9.5: reminders, undo, edit
        "reminder_set",
        "reminder_sent",
        "reminder_cancelled",
        "undone",
        "item_updated",
        "model_usage",
        "bookmark_set",
        "memory_noted",
        "clarification_asked",
        "reasoning_logged",  # issue 31: the planner's note, as its length and digest
        "reminder_changed",  # DESIGN 11.4: moved, reworded or given another rule
        "item_marked",  # DESIGN 11.5: seen / read / done, and back
    }
)
_PROBE_BATCH = 64
_MAX_APPEND_ATTEMPTS = 200


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces, UTF-8: the bytes every hash in the ledger is taken over."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha256_hex(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def event_hash(
    stream: str, seq: int, type: str, payload: dict[str, Any], ts: int, prev_hash: str
) -> str:
    body = {
        "stream": stream,
        "seq": seq,
        "type": type,
        "payload": payload,
        "ts": ts,
        "prev_hash": prev_hash,
    }
    return sha256_hex(canonical_json(body))


def event_id(stream: str, seq: int) -> str:
    return f"{stream}#{seq:012d}"


@dataclass(frozen=True, slots=True)
class Head:
    stream: str
    seq: int
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "hash": self.hash}


@dataclass(frozen=True, slots=True)
class VerifyResult:
    stream: str
    ok: bool
    events: int
    bad_seq: int | None = None
    bad_id: str | None = None
    reason: str | None = None

    def describe(self) -> str:
        if self.ok and self.events == 0:
            return f"{self.stream}: no events (nothing to verify)"
        if self.ok:
            return f"{self.stream}: ok ({self.events} events)"
        return f"{self.stream}: BROKEN at seq {self.bad_seq} ({self.bad_id}): {self.reason}"


class LedgerRepo:
    def __init__(self, coll: Collection, *, signer: LedgerSigner | None = None) -> None:
        self._c = coll
        self.signer = signer
        # per stream, the last seq written before signing began: those may be unsigned
        self.unsigned_until: dict[str, int] = {}
        self._heads: dict[str, Head] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        # What this process appended, newest last (for replays and tests to read cheaply).
        self.appended: deque[tuple[str, int, str]] = deque(maxlen=10_000)
        self.appended_total = 0

    def use_key(self, signer: LedgerSigner | None, unsigned_until: dict[str, int]) -> None:
        """Sign and verify with `signer` from now on (a restore that installed the old key)."""
        self.signer = signer
        self.unsigned_until = dict(unsigned_until)

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("stream", 1)])
        await self._c.create_index([("stream", 1), ("seq", 1)], unique=True)
        await self._c.create_index([("type", 1)])

    async def append(
        self, stream: str, type: str, payload: dict[str, Any], *, ts: int
    ) -> LedgerDoc:
        """Append one event to `stream`; safe under concurrent writers in any process."""
        if type not in EVENT_TYPES:
            raise ValueError(f"unknown ledger event type {type!r}")
        # Round-trip the payload so the hash is over exactly what will be read back.
        payload = json.loads(canonical_json(payload))
        lock = self._locks.setdefault(stream, asyncio.Lock())
        async with lock:
            for attempt in range(_MAX_APPEND_ATTEMPTS):
                head = self._heads.get(stream) or await self._probe_head(stream)
                seq = head.seq + 1
                digest = event_hash(stream, seq, type, payload, ts, head.hash)
                event = LedgerDoc(
                    _id=event_id(stream, seq),
                    stream=stream,
                    seq=seq,
                    type=type,
                    payload=payload,
                    ts=ts,
                    prev_hash=head.hash,
                    hash=digest,
                    sig=self.signer.sign_event(digest) if self.signer is not None else None,
                )
                try:
                    await self._c.insert_one(event.to_doc())
                except DuplicateKey:
                    # Another process wrote this position: re-read the head and retry.
                    self._heads.pop(stream, None)
                    await asyncio.sleep(random.uniform(0, 0.002 * min(attempt, 10)))
                    continue
                self._heads[stream] = Head(stream, seq, digest)
                self.appended.append((stream, seq, type))
                self.appended_total += 1
                return event
        raise StorageError(
            f"ledger append to {stream} gave up after {_MAX_APPEND_ATTEMPTS} attempts"
        )

    async def _probe_head(self, stream: str) -> Head:
        """Find the last event by probing `_id`s in batches (no sort, see SUBSET.md)."""
        best: LedgerDoc | None = None
        start = 1
        while True:
            ids = [event_id(stream, s) for s in range(start, start + _PROBE_BATCH)]
            # by `_id` alone: beside another indexed field nx-27017 scans that index
            docs = [
                d for d in await self._c.find({"_id": {"$in": ids}}) if d.get("stream") == stream
            ]
            if not docs:
                break
            top = max((LedgerDoc.model_validate(d) for d in docs), key=lambda e: e.seq)
            best = top
            if top.seq < start + _PROBE_BATCH - 1:
                break
            start += _PROBE_BATCH
        if best is None:
            return Head(stream, 0, GENESIS)
        return Head(stream, best.seq, best.hash)

    def known_head(self, stream: str) -> int | None:
        """The head seq this process last appended to `stream` (no I/O); None when unknown."""
        head = self._heads.get(stream)
        return None if head is None else head.seq

    async def head(self, stream: str) -> Head:
        return await self._probe_head(stream)

    async def events(self, stream: str) -> list[LedgerDoc]:
        docs = await self._c.find({"stream": stream}, sort=[("seq", 1)])
        return [LedgerDoc.model_validate(d) for d in docs]

    async def events_in(self, stream: str, from_ts: int, to_ts: int) -> list[LedgerDoc]:
        """Events of `stream` with `from_ts <= ts <= to_ts`, in order."""
        docs = await self._c.find({"stream": stream, "ts": {"$gte": from_ts, "$lte": to_ts}})
        return sorted((LedgerDoc.model_validate(d) for d in docs), key=lambda e: e.seq)

    async def streams(self) -> list[str]:
        docs = await self._c.find({}, projection={"stream": 1})
        return sorted({str(d["stream"]) for d in docs})

    async def heads(self) -> list[Head]:
        return [await self._probe_head(s) for s in await self.streams()]

    async def verify(self, stream: str, *, against: Head | None = None) -> VerifyResult:
        """Check the chain of `stream`: sequence, links and hashes, then the saved head."""
        docs = await self._c.find({"stream": stream}, sort=[("seq", 1)])
        events: list[LedgerDoc] = []
        prev_hash = GENESIS
        for expected_seq, doc in enumerate(docs, start=1):
            try:
                # strict: a value whose type was changed ("5" for 5) is an edit, not a coercion
                event = LedgerDoc.model_validate(doc, strict=True)
            except ValidationError:
                return VerifyResult(
                    stream,
                    False,
                    len(docs),
                    expected_seq,
                    str(doc.get("_id")),
                    "malformed event: a field is missing or has the wrong type (edited)",
                )
            events.append(event)
            reason: str | None = None
            if event.seq != expected_seq:
                reason = f"expected seq {expected_seq}, found {event.seq} (an event is missing)"
            elif event.id != event_id(stream, event.seq):
                reason = f"id {event.id} does not match its position"
            elif event.prev_hash != prev_hash:
                reason = "prev_hash does not link to the previous event (reordered or removed)"
            elif (
                event_hash(stream, event.seq, event.type, event.payload, event.ts, event.prev_hash)
                != event.hash
            ):
                reason = "hash does not match the event's content (edited)"
            elif (
                self.signer is not None
                and not (event.sig is None and event.seq <= self.unsigned_until.get(stream, 0))
                and not self.signer.event_ok(event.hash, event.sig)
            ):
                reason = (
                    "signature does not match the ledger's key "
                    "(rewritten without the key, or signed with another one)"
                    if event.sig
                    else "event not signed (written without the ledger's key)"
                )
            if reason is not None:
                return VerifyResult(stream, False, len(docs), event.seq, event.id, reason)
            prev_hash = event.hash
        if against is not None:
            last_seq = events[-1].seq if events else 0
            if against.seq > last_seq:
                return VerifyResult(
                    stream,
                    False,
                    len(events),
                    last_seq + 1,
                    event_id(stream, last_seq + 1),
                    f"chain truncated: the saved head is at seq {against.seq}, the database ends at {last_seq}",
                )
            if against.seq > 0 and events[against.seq - 1].hash != against.hash:
                return VerifyResult(
                    stream,
                    False,
                    len(events),
                    against.seq,
                    event_id(stream, against.seq),
                    "event differs from the saved head (chain rewritten)",
                )
        return VerifyResult(stream, True, len(events))
