"""Signed ledger events and heads (issue 13): a chain re-computed without the key fails."""

from __future__ import annotations

import json
import stat
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli.main import _read_heads
from config.errors import ConfigError, LembraError
from storage import Database
from storage.database import StorageConfig, make_client, open_storage
from storage.ledger import event_hash
from storage.signing import load_signer
from tests.conftest import open_test_db
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer


@pytest.fixture
async def signed_db(nx_server: RunningServer, tmp_path: Path) -> AsyncIterator[Database]:
    signer = load_signer(tmp_path / "ledger.key", create=True)
    db = await open_test_db(nx_server.uri, signer=signer)
    try:
        yield db
    finally:
        await db.drop()
        await db.close()


async def _rechain_from(db: Database, stream: str, seq: int, forged_item: str) -> None:
    """Edit event `seq` and recompute every hash after it, as a database writer without the key."""
    raw = db.client[db.name]["ledger"]
    events = await db.ledger.events(stream)
    prev = events[seq - 2].hash if seq > 1 else "0" * 64
    for event in events[seq - 1 :]:
        payload = dict(event.payload)
        if event.seq == seq:
            payload["item_id"] = forged_item
        digest = event_hash(stream, event.seq, event.type, payload, event.ts, prev)
        await raw.update_one(
            {"_id": event.id}, {"$set": {"payload": payload, "prev_hash": prev, "hash": digest}}
        )
        prev = digest


async def test_a_rechained_ledger_passes_the_hash_check_but_fails_the_signatures(
    signed_db: Database, nx_server: RunningServer
) -> None:
    for i in range(4):
        await signed_db.ledger.append("tg:1", "item_saved", {"item_id": f"i{i}"}, ts=1_000 + i)
    assert (await signed_db.ledger.verify("tg:1")).ok

    await _rechain_from(signed_db, "tg:1", 2, "forged")

    # the hash chain alone cannot tell: it was recomputed consistently...
    unsigned_view = Database(signed_db.client, signed_db.name)
    assert (await unsigned_view.ledger.verify("tg:1")).ok
    # ...the signatures can
    result = await signed_db.ledger.verify("tg:1")
    assert not result.ok
    assert result.bad_seq == 2
    assert "signature" in (result.reason or "")


async def test_stripped_or_foreign_signatures_fail(signed_db: Database, tmp_path: Path) -> None:
    await signed_db.ledger.append("tg:1", "item_saved", {"item_id": "a"}, ts=1)
    await signed_db.ledger.append("tg:1", "item_saved", {"item_id": "b"}, ts=2)
    raw = signed_db.client[signed_db.name]["ledger"]
    foreign = load_signer(tmp_path / "attacker.key", create=True)
    events = await signed_db.ledger.events("tg:1")
    await raw.update_one(
        {"_id": events[1].id}, {"$set": {"sig": foreign.sign_event(events[1].hash)}}
    )
    assert "another" in ((await signed_db.ledger.verify("tg:1")).reason or "")
    await raw.update_one({"_id": events[1].id}, {"$set": {"sig": None}})
    assert "not signed" in ((await signed_db.ledger.verify("tg:1")).reason or "")


def test_the_key_file_is_private_stable_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "ledger.key"
    first = load_signer(path, create=True)
    assert first is not None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = load_signer(path, create=False)
    assert again is not None
    assert again.public_hex == first.public_hex
    assert load_signer(tmp_path / "missing.key", create=False) is None
    (tmp_path / "bad.key").write_text("not a key")
    with pytest.raises(ConfigError, match="not a PEM Ed25519 private key"):
        load_signer(tmp_path / "bad.key", create=False)


async def test_chat_receipts_signed_heads_and_verify_from_the_command_line(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name, "DATA_DIR": str(tmp_path)}
    chat = run_lembra(
        ["chat", "--user", "u1", "--show-meta"], env=env, cwd=tmp_path, stdin="anota: comprar pão\n"
    )
    assert chat.returncode == 0, chat.stderr
    key = tmp_path / "ledger_signing.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    db = Database(make_client(nx_server.uri), name)
    try:
        (event,) = await db.ledger.events("cli:u1")
        assert event.sig
        assert f"receipts: item_saved:{event.hash}" in chat.stdout

        head = run_lembra(["ledger", "head", "--signed"], env=env, cwd=tmp_path)
        assert head.returncode == 0, head.stderr
        heads = json.loads(head.stdout)
        assert heads["cli:u1"]["seq"] == 1
        assert heads["cli:u1"]["sig"]
        saved = tmp_path / "heads.json"
        saved.write_text(head.stdout)
        ok = run_lembra(["ledger", "verify", "--against", str(saved)], env=env, cwd=tmp_path)
        assert ok.returncode == 0, ok.stdout + ok.stderr
        assert "cli:u1: ok (1 events)" in ok.stdout

        await _rechain_from(db, "cli:u1", 1, "forged")
        bad = run_lembra(["ledger", "verify"], env=env, cwd=tmp_path)
        assert bad.returncode == 1
        assert "cli:u1: BROKEN at seq 1" in bad.stdout
        assert "signature" in bad.stdout

    finally:
        await db.drop()
        await db.close()


def test_an_edited_signed_head_is_refused(tmp_path: Path) -> None:
    signer = load_signer(tmp_path / "ledger.key", create=True)
    assert signer is not None
    digest = "ab" * 32
    head = {"seq": 3, "hash": digest, "sig": signer.sign_head("tg:1", 3, digest)}
    saved = tmp_path / "heads.json"
    saved.write_text(json.dumps({"tg:1": head | {"key": signer.public_hex}}))
    assert _read_heads(saved)["tg:1"].seq == 3
    saved.write_text(json.dumps({"tg:1": head | {"key": signer.public_hex, "seq": 4}}))
    with pytest.raises(LembraError, match="does not match its signature"):
        _read_heads(saved)


async def test_events_from_before_the_key_stay_valid_unsigned_later_ones_must_be_signed(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    legacy = Database(make_client(nx_server.uri), name)
    await legacy.ensure_indexes()
    for i in range(2):
        await legacy.ledger.append("tg:1", "item_saved", {"item_id": f"old{i}"}, ts=i)
    config = StorageConfig(uri=nx_server.uri, db_name=name, data_dir=tmp_path)
    raw = legacy.client[name]["ledger"]
    try:
        async with open_storage(config) as db:  # the first start with a key: signing begins here
            await db.ledger.append("tg:1", "item_saved", {"item_id": "new"}, ts=9)
            assert (await db.ledger.verify("tg:1")).ok
            await raw.update_one({"seq": 3}, {"$set": {"sig": None}})
            assert (await db.ledger.verify("tg:1")).bad_seq == 3

        record = tmp_path / "ledger_signing.key.adopted.json"
        widened = json.loads(record.read_text())
        widened["heads"]["tg:1"] = 3  # a forger trying to excuse event 3 from signing
        record.write_text(json.dumps(widened))
        with pytest.raises(ConfigError, match="not signed by the ledger's key"):
            async with open_storage(config):
                pass
    finally:
        await legacy.drop()
        await legacy.close()
