"""The schema version stored in the database and the migrations that bring it up to date.

The version lives in `leases` under `_id: "schema:version"`: a document addressed
by `_id` that nothing scans, so the stable list of collections (DESIGN 4) stays as
it is. It never expires: no lease holder can take it over.

A migration is idempotent (running it twice, or in two processes at once, leaves the
same data), so start-up simply runs every migration above the stored version and
then records the new version. A database newer than this code is refused.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from config.logging import log_event
from storage.collection import Collection
from storage.errors import DuplicateKey, StorageError
from storage.pending import pending_slot

SCHEMA_ID = "schema:version"
NEVER_MS = 2**62
log = logging.getLogger("lembra.storage.schema")

Collections = Mapping[str, Collection]


class SchemaTooNew(StorageError):
    """The database was written by a newer Lembra than this one."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One step: the version it produces, a name for the log, and the idempotent change."""

    version: int
    name: str
    apply: Callable[[Collections], Awaitable[None]]


async def _baseline(collections: Collections) -> None:
    """Version 1 is the layout the code had when versions began: nothing to change."""


async def _pending_hints(collections: Collections) -> None:
    """Version 2: every pending action gets its hint on the user document (storage/pending.py).

    From this version on a turn skips `pending_actions` when the hint says none, so the
    ones already waiting must be hinted or they would never be seen again.
    """
    users = collections["users"]
    for doc in await collections["pending_actions"].find({}):
        field = f"pending_hint.{pending_slot(str(doc['_id']))}"
        await users.update_one(
            {"_id": doc["user_id"]}, {"$set": {field: int(doc["expires_at_ms"])}}
        )


async def _private_message_counters(collections: Collections) -> None:
    """Version 3: a private conversation's message counter moves to `users.message_seq`.

    From this version on its messages are numbered there (storage/messages.py), so each
    user's counter starts where the conversation's `summaries.last_seq` stopped; never
    lowered, so running it again (or after new messages) changes nothing.
    """
    users = collections["users"]
    for doc in await collections["summaries"].find({"kind": "conversation"}):
        user_id = str(doc.get("user_id") or "")
        if str(doc["_id"]) != f"conv:{user_id}":
            continue  # a group's counter stays on its conversation document
        user = await users.find_one({"_id": user_id})
        last = int(doc.get("last_seq") or 0)
        if user is not None and int(user.get("message_seq") or 0) < last:
            await users.update_one({"_id": user_id}, {"$set": {"message_seq": last}})


async def _pending_on_users(collections: Collections) -> None:
    """Version 4: pending actions move from `pending_actions` onto their user documents.

    From this version on a turn finds them in the user document it reads anyway
    (storage/pending.py). Each is copied, then deleted; a crash in between leaves it
    in both places, and running again copies the same document again.
    """
    users, legacy = collections["users"], collections["pending_actions"]
    for doc in await legacy.find({}):
        key = str(doc["_id"])
        await users.update_one(
            {"_id": doc["user_id"]},
            {
                "$set": {
                    f"pending.{pending_slot(key)}": doc,
                    "pending_due_ms": int(doc["expires_at_ms"]),
                }
            },
        )
        await legacy.delete_one({"_id": key})


async def _queues_on_records(collections: Collections) -> None:
    """Version 5: a chat's arrival order needs no counter document (storage/chatqueue.py).

    From this version on an update's arrival number is taken in the process and only
    waiting records keep their `queue` key. The `q:<hash>` counters (the documents with
    an `arrived` count) are deleted and finished records leave their queue; the records
    still waiting keep their small numbers, which come before every new one.
    """
    updates = collections["processed_updates"]
    await updates.delete_many({"arrived": {"$gte": 0}})
    await updates.update_many(
        {"status": {"$in": ["done", "throttled"]}, "queue": {"$gt": ""}},
        {"$set": {"queue": None}},
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "baseline: the layout when schema versions began", _baseline),
    Migration(2, "pending-action hints on the user document", _pending_hints),
    Migration(3, "private conversations numbered on the user document", _private_message_counters),
    Migration(4, "pending actions on the user document", _pending_on_users),
    Migration(5, "chat arrival order kept on the waiting records only", _queues_on_records),
)
CURRENT = MIGRATIONS[-1].version


@dataclass(frozen=True, slots=True)
class Applied:
    """A migration that ran at this start."""

    version: int
    name: str


async def stored_version(leases: Collection) -> int:
    """The schema version recorded in the database; 0 when none is (a new or older database)."""
    doc = await leases.find_one({"_id": SCHEMA_ID})
    return int(doc["version"]) if doc is not None else 0


async def _record(leases: Collection, version: int, *, now_ms: int) -> None:
    fields = {
        "owner": "schema",
        "expires_at_ms": NEVER_MS,
        "version": version,
        "migrated_at_ms": now_ms,
    }
    for _ in range(2):
        # conditional on a lower version: a slower process finishing an older step never
        # lowers it; the document is created by a plain insert (SUBSET.md: racing upserts)
        raised = await leases.update_one(
            {"_id": SCHEMA_ID, "version": {"$lt": version}}, {"$set": fields}
        )
        if raised.matched or await leases.find_one({"_id": SCHEMA_ID}) is not None:
            return
        try:
            await leases.insert_one({"_id": SCHEMA_ID, **fields})
            return
        except DuplicateKey:
            continue  # another process created it at this moment: raise it if still lower


async def upgrade(collections: Collections, *, now_ms: int) -> list[Applied]:
    """Run every migration above the stored version, in order, logging each; return them."""
    leases = collections["leases"]
    current = await stored_version(leases)
    if current > CURRENT:
        raise SchemaTooNew(
            f"the database is at schema version {current} and this Lembra knows up to "
            f"{CURRENT}: upgrade Lembra (or restore a backup made by this version)"
        )
    applied: list[Applied] = []
    for migration in MIGRATIONS:
        if migration.version <= current:
            continue
        await migration.apply(collections)
        await _record(leases, migration.version, now_ms=now_ms)
        log_event(
            log,
            "schema migration applied",
            from_version=current,
            to_version=migration.version,
            migration=migration.name,
        )
        applied.append(Applied(migration.version, migration.name))
        current = migration.version
    return applied
