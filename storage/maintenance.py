"""Whole-database work: backup, restore, and copying a deployment to another server.

Each ends by checking what it produced: counts and digests of every collection,
then every ledger chain, so an operator sees a verified result or a named failure.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from storage.archive import (
    ArchiveError,
    CollectionDigest,
    clear,
    digests,
    first_documents,
    load_documents,
    read_archive,
    scan,
    write_archive,
)
from storage.database import Database
from storage.ledger import VerifyResult
from storage.schema import CURRENT, SCHEMA_ID, Applied, SchemaTooNew, stored_version, upgrade

COPY_ATTEMPTS = 3
COPY_BATCH = 500


def _now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a restore or a copy left behind, verified."""

    digests: dict[str, CollectionDigest]
    ledger: list[VerifyResult]
    migrated: list[Applied]
    schema_version: int

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.ledger)

    @property
    def documents(self) -> int:
        return sum(d.count for d in self.digests.values())


async def backup(db: Database, path: Path, *, lembra_version: str) -> dict[str, CollectionDigest]:
    """Write a consistent archive of every collection to `path`; return its digests."""
    colls = db.collections()
    return await write_archive(
        path,
        colls,
        schema_version=await stored_version(colls["leases"]),
        lembra_version=lembra_version,
    )


async def _refuse_unless_empty(db: Database, *, force: bool, what: str) -> None:
    busy = await first_documents(db.collections(), ignore_ids={"leases": SCHEMA_ID})
    if busy and not force:
        raise ArchiveError(
            f"the {what} database {db.name!r} is not empty ({', '.join(busy)} hold documents): "
            "pass --force to replace everything in it"
        )


async def _verified(db: Database, expected: dict[str, CollectionDigest]) -> Outcome:
    colls = db.collections()
    found = await digests(colls)
    for name, want in expected.items():
        if found.get(name) != want:
            have = found.get(name)
            raise ArchiveError(
                f"{name}: expected {want.count} documents with digest {want.sha256[:12]}, "
                f"found {have.count if have else 0}"
                + (f" with digest {have.sha256[:12]}" if have else "")
            )
    migrated = await upgrade(colls, now_ms=_now_ms())
    ledger = [await db.ledger.verify(stream) for stream in await db.ledger.streams()]
    return Outcome(found, ledger, migrated, await stored_version(colls["leases"]))


async def restore(db: Database, path: Path, *, force: bool) -> Outcome:
    """Replace the database's content with the archive's, then upgrade and verify it.

    The archive is read and checked whole before anything is written, so a bad file
    changes nothing; a non-empty database is refused unless `force`.
    """
    archive = read_archive(path)
    if archive.header.schema_version > CURRENT:
        raise SchemaTooNew(
            f"{path} was made at schema version {archive.header.schema_version} by Lembra "
            f"{archive.header.lembra_version}; this Lembra knows up to {CURRENT}: upgrade Lembra"
        )
    await _refuse_unless_empty(db, force=force, what="target")
    colls = db.collections()
    await clear(colls)
    await load_documents(colls, archive.documents)
    return await _verified(db, archive.expected)


async def _copy_pass(source: Database, target: Database) -> dict[str, CollectionDigest]:
    targets = target.collections()
    await clear(targets)
    for name, coll in source.collections().items():
        batch = []
        async for doc in scan(coll, batch=COPY_BATCH):
            batch.append(doc)
            if len(batch) == COPY_BATCH:
                await targets[name].insert_many(batch)
                batch = []
        await targets[name].insert_many(batch)
    return await digests(source.collections())


async def copy_database(source: Database, target: Database, *, force: bool) -> Outcome:
    """Copy every collection of `source` into `target`, then verify counts, digests and ledger.

    Repeated (target cleared first) while the source changed during the copy.
    """
    await _refuse_unless_empty(target, force=force, what="target")
    for attempt in range(COPY_ATTEMPTS):
        before = await digests(source.collections())
        after = await _copy_pass(source, target)
        if before == after:
            return await _verified(target, after)
        await asyncio.sleep(0.2 * (attempt + 1))
    raise ArchiveError(
        f"the source database kept changing during {COPY_ATTEMPTS} copies; "
        "stop `lembra serve` while migrating"
    )
