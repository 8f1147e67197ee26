"""Whole-database work: backup, restore, and copying a deployment to another server.

Each ends by checking what it produced: counts and digests of every collection,
then every ledger chain, so an operator sees a verified result or a named failure.

The ledger's signing key is not in a backup (whoever holds it can forge the ledger):
the archive names its public half, and a restore installs the key the operator carried
(`--signing-key PATH`) or finds the one already here, refusing before it writes
anything when neither matches (`choose_key`), since a restored ledger checked against
another key reads as broken (issue 30).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from config.errors import ConfigError
from storage.archive import (
    Archive,
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
from storage.signing import (
    LedgerSigner,
    adoption_path,
    adoption_record,
    adoption_signed,
    fingerprint,
    install_adoption,
    install_key,
    load_signer,
    read_adoption,
)

NEW_MACHINE = 'docs/operations.md, "A new machine"'

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
    notes: tuple[str, ...] = ()  # what a restore did with the signing key

    @property
    def ok(self) -> bool:
        return all(result.ok for result in self.ledger)

    @property
    def documents(self) -> int:
        return sum(d.count for d in self.digests.values())


def signing_record(signer: LedgerSigner | None, key_file: Path | None) -> dict[str, Any] | None:
    """What a backup records of the ledger's key: its public half and where signing began."""
    if signer is None:
        return None
    adoption = adoption_record(adoption_path(key_file)) if key_file is not None else None
    return {
        "public_key": signer.public_hex,
        "fingerprint": signer.fingerprint,
        "adoption": adoption,
    }


async def backup(
    db: Database, path: Path, *, lembra_version: str, key_file: Path | None = None
) -> dict[str, CollectionDigest]:
    """Write a consistent archive of every collection to `path`; return its digests.

    The archive records the public half of the ledger's key (`key_file` is where the key
    and its signing record live), never the key itself.
    """
    colls = db.collections()
    return await write_archive(
        path,
        colls,
        schema_version=await stored_version(colls["leases"]),
        lembra_version=lembra_version,
        signing=signing_record(db.ledger.signer, key_file),
    )


@dataclass(frozen=True)
class KeyChoice:
    """The key a restore checks the ledger with, and what it must install to keep it."""

    target: Path  # where this Lembra reads its key (DATA_DIR's, or LEDGER_SIGNING_KEY_FILE)
    signer: LedgerSigner | None
    source: Path | None = None  # a key file to copy to `target` (None: already there)
    adoption: dict[str, Any] | None = field(default=None, repr=False)


def choose_key(archive: Archive, target: Path, given: Path | None) -> KeyChoice:
    """The key the archive's ledger was signed with: `given`, or the one at `target`.

    Writes nothing. Raises ArchiveError naming the fix when neither is that key (and the
    archive names one): the ledger would otherwise be restored, then read as broken.
    """
    wanted = archive.header.public_key
    signer = _load(given) if given is not None else load_signer(target, create=False)
    if wanted is None:  # an archive from before issue 30: nothing to compare with
        return KeyChoice(target, signer, given)
    if signer is None:
        raise ArchiveError(
            f"the ledger in this backup is signed with the key {fingerprint(wanted)}, which is "
            f"not in the archive and not at {target}: pass --signing-key PATH with the "
            f"ledger_signing.key kept from the old machine ({NEW_MACHINE}); nothing was written"
        )
    if signer.public_hex != wanted:
        where = given if given is not None else target
        fix = (
            "give the old machine's ledger_signing.key instead"
            if given is not None
            else "pass --signing-key PATH with the old machine's ledger_signing.key (the key "
            "here is moved aside, not deleted)"
        )
        raise ArchiveError(
            f"the key {where} ({signer.fingerprint}) is not the one the ledger in this backup "
            f"is signed with ({fingerprint(wanted)}): {fix} ({NEW_MACHINE}); nothing was written"
        )
    adoption = archive.header.adoption
    if adoption is not None and not adoption_signed(signer, adoption):
        # checked here, not when it is installed: by then the key would be in place
        raise ArchiveError(
            f"the ledger signing record in this backup is not signed by its key "
            f"{fingerprint(wanted)}: the archive's header was altered; nothing was written"
        )
    return KeyChoice(target, signer, given, adoption)


def _load(path: Path) -> LedgerSigner:
    try:
        signer = load_signer(path, create=False)
    except ConfigError as exc:
        raise ArchiveError(f"--signing-key: {exc}") from None
    if signer is None:
        raise ArchiveError(f"--signing-key: no such file: {path}")
    return signer


def _install(db: Database, key: KeyChoice) -> tuple[str, ...]:
    """Put the chosen key (and its signing record) where Lembra reads it; use it from now on."""
    notes: list[str] = []
    if key.source is not None and key.source.resolve() != key.target.resolve():
        moved = install_key(key.source, key.target)
        if moved is not None:
            notes.append(f"the key that was at {key.target} is kept as {moved}")
        notes.append(f"ledger signing key installed at {key.target}")
    if key.signer is None:
        return tuple(notes)
    record = adoption_path(key.target)
    if key.adoption is not None and install_adoption(record, key.signer, key.adoption):
        notes.append(f"ledger signing record installed at {record}")
    db.ledger.use_key(key.signer, read_adoption(record, key.signer) or {})
    return tuple(notes)


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


async def restore(
    db: Database,
    path: Path,
    *,
    force: bool,
    archive: Archive | None = None,
    key: KeyChoice | None = None,
) -> Outcome:
    """Replace the database's content with the archive's, then upgrade and verify it.

    The archive is read and checked whole before anything is written, so a bad file
    changes nothing; a non-empty database is refused unless `force`. With `key` (from
    `choose_key`), that key is installed once the database may be replaced, and the
    ledger is verified against it.
    """
    archive = archive or read_archive(path)
    if archive.header.schema_version > CURRENT:
        raise SchemaTooNew(
            f"{path} was made at schema version {archive.header.schema_version} by Lembra "
            f"{archive.header.lembra_version}; this Lembra knows up to {CURRENT}: upgrade Lembra"
        )
    await _refuse_unless_empty(db, force=force, what="target")
    notes = _install(db, key) if key is not None else ()
    colls = db.collections()
    await clear(colls)
    await clear(db.derived())  # the word index is rebuilt from the restored items at start
    db.word_index.ready = False  # until then lookups read every item
    db.word_index.generation = None
    await load_documents(colls, archive.documents)
    outcome = await _verified(db, archive.expected)
    return Outcome(outcome.digests, outcome.ledger, outcome.migrated, outcome.schema_version, notes)


async def _copy_pass(source: Database, target: Database) -> dict[str, CollectionDigest]:
    targets = target.collections()
    await clear(targets)
    await clear(target.derived())  # rebuilt from the copied items when the target starts
    target.word_index.ready = False
    target.word_index.generation = None
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
