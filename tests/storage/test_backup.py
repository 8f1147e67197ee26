"""`lembra backup` / `lembra restore`: a round trip keeps every document and the ledger verifies."""

from __future__ import annotations

import gzip
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from storage.archive import ArchiveError, digests, read_archive
from storage.database import make_client
from storage.maintenance import backup, choose_key, restore
from storage.schema import CURRENT, SCHEMA_ID, SchemaTooNew, stored_version, upgrade
from storage.signing import adoption_path, load_signer, write_adoption
from tests.conftest import open_test_db
from tests.support.harness import seed
from tests.support.servers import RunningServer

MESSAGES = [
    "salva o filme inception",
    "guarda https://example.com/receita",
    "nota: comprar pão amanhã",
    "lista tudo",
]


async def _filled(db: Database) -> Database:
    await seed(db, MESSAGES)
    await seed(db, ["salva a série dark"], user="tg:42")
    return db


@pytest.fixture
async def other_db(nx_server: RunningServer) -> AsyncIterator[Database]:
    database = await open_test_db(nx_server.uri)
    try:
        yield database
    finally:
        await database.drop()
        await database.close()


@pytest.mark.parametrize("target", ["nx-27017", "secantusdb"])
async def test_a_round_trip_preserves_every_collection_and_the_ledger_verifies(
    db: Database, target: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    await _filled(db)
    before = await digests(db.collections())
    assert before["items"].count >= 3
    assert before["ledger"].count >= 3
    archive = tmp_path / "lembra.jsonl.gz"
    written = await backup(db, archive, lembra_version="test")
    assert written == before

    server = "nx_server" if target == "nx-27017" else "secantus_server"
    into = await open_test_db(request.getfixturevalue(server).uri)
    try:
        outcome = await restore(into, archive, force=False)
        after = await digests(into.collections())
        assert {k: v for k, v in after.items() if k != "leases"} == {
            k: v for k, v in before.items() if k != "leases"
        }
        assert outcome.ok
        assert {"cli:alice", "tg:42"} <= {r.stream for r in outcome.ledger}
        assert await stored_version(into.collections()["leases"]) == CURRENT
        restored = await into.items.list_for("tg:42")
        assert restored
        assert restored == await db.items.list_for("tg:42")
    finally:
        await into.drop()
        await into.close()


async def test_restore_refuses_a_database_in_use_unless_forced(
    db: Database, other_db: Database, tmp_path: Path
) -> None:
    await _filled(db)
    archive = tmp_path / "b.jsonl.gz"
    await backup(db, archive, lembra_version="test")
    await seed(other_db, ["salva o filme alien"], user="tg:7")
    kept = await digests(other_db.collections())

    with pytest.raises(ArchiveError, match="not empty .*--force"):
        await restore(other_db, archive, force=False)
    assert await digests(other_db.collections()) == kept

    outcome = await restore(other_db, archive, force=True)
    assert outcome.ok
    assert await other_db.items.list_for("tg:7") == []
    assert len(await other_db.items.list_for("tg:42")) == 1


async def test_a_damaged_archive_is_refused_whole_and_changes_nothing(
    db: Database, other_db: Database, tmp_path: Path
) -> None:
    await _filled(db)
    archive = tmp_path / "b.jsonl.gz"
    await backup(db, archive, lembra_version="test")
    lines = gzip.decompress(archive.read_bytes()).decode().splitlines(keepends=True)

    truncated = tmp_path / "truncated.jsonl.gz"
    truncated.write_bytes(gzip.compress("".join(lines[:-3]).encode()))
    with pytest.raises(ArchiveError, match="truncated"):
        await restore(other_db, truncated, force=False)

    edited = tmp_path / "edited.jsonl.gz"
    forged = [line.replace("inception", "incepti0n") for line in lines]
    assert forged != lines
    edited.write_bytes(gzip.compress("".join(forged).encode()))
    with pytest.raises(ArchiveError, match="does not match its recorded digest"):
        await restore(other_db, edited, force=False)

    garbage = tmp_path / "notes.txt"
    garbage.write_text("hello")
    with pytest.raises(ArchiveError, match="not a Lembra backup"):
        await restore(other_db, garbage, force=False)
    assert (await digests(other_db.collections()))["items"].count == 0


async def test_a_backup_made_at_schema_1_restores_and_upgrades_to_the_current_version(
    other_db: Database,
) -> None:
    # made at schema 1 (the first versioned layout) and kept: every later version
    # must still read it, upgrade it and verify its ledger
    archive = Path(__file__).with_name("data") / "backup-schema-1.jsonl.gz"
    outcome = await restore(other_db, archive, force=False)
    assert outcome.ok
    assert outcome.ledger
    assert outcome.schema_version == CURRENT
    assert [m.version for m in outcome.migrated] == list(range(2, CURRENT + 1))
    assert len(await other_db.items.list_for("cli:alice")) == 3


async def test_start_up_records_the_schema_version_once_and_refuses_a_newer_database(
    db: Database,
) -> None:
    colls = db.collections()
    assert await stored_version(colls["leases"]) == 0
    first = await upgrade(colls, now_ms=1)
    assert [m.version for m in first] == list(range(1, CURRENT + 1))
    assert await upgrade(colls, now_ms=2) == []  # idempotent: nothing left to run
    assert await stored_version(colls["leases"]) == CURRENT

    await colls["leases"].update_one({"_id": SCHEMA_ID}, {"$set": {"version": CURRENT + 1}})
    with pytest.raises(SchemaTooNew, match="upgrade Lembra"):
        await upgrade(colls, now_ms=3)


async def test_every_collection_a_repository_uses_is_backed_up(nx_server: RunningServer) -> None:
    used: set[str] = set()
    db = Database(
        make_client(nx_server.uri),
        f"t_{uuid.uuid4().hex[:10]}",
        observer=lambda c, o, s: used.add(c),
    )
    try:
        await db.ensure_indexes()  # every repository creates its indexes: each collection is seen
        assert used
        assert used <= set(db.collections()) | set(db.derived()), (
            "add the new collection to storage.database.COLLECTIONS (or DERIVED when it is "
            "rebuilt from the others)"
        )
    finally:
        await db.drop()
        await db.close()


async def test_a_signing_record_the_key_did_not_sign_is_refused_before_the_key_is_installed(
    nx_server: RunningServer, other_db: Database, tmp_path: Path
) -> None:
    """Failed before: restore installed the key (moving this machine's aside), then found
    the archive's signing record was not that key's, and stopped with the data unrestored."""
    old_key, stranger = tmp_path / "old" / "ledger_signing.key", tmp_path / "stranger.key"
    signer, other = load_signer(old_key, create=True), load_signer(stranger, create=True)
    assert signer is not None
    assert other is not None
    write_adoption(adoption_path(old_key), other, {"cli:alice": 0})  # not the key's own
    source = await open_test_db(nx_server.uri, signer=signer)
    try:
        await seed(source, MESSAGES[:1])
        archive = tmp_path / "lembra.jsonl.gz"
        await backup(source, archive, lembra_version="test", key_file=old_key)
    finally:
        await source.drop()
        await source.close()
    target = tmp_path / "new" / "ledger_signing.key"

    async def restore_with_the_key() -> None:  # what `lembra restore --signing-key` does
        read = read_archive(archive)
        key = choose_key(read, target, old_key)
        await restore(other_db, archive, force=False, archive=read, key=key)

    with pytest.raises(ArchiveError, match="nothing was written"):
        await restore_with_the_key()

    assert not target.exists()
    assert await other_db.items.list_for("cli:alice") == []
