"""`lembra ledger verify` and `lembra ledger head` as an operator runs them."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from storage import Database
from storage.database import make_client
from storage.embedded import free_port
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer


async def _seed(uri: str, name: str) -> Database:
    db = Database(make_client(uri), name)
    await db.ensure_indexes()
    for stream in ("tg:1", "tg:2"):
        for i in range(4):
            await db.ledger.append(stream, "item_saved", {"item_id": f"{stream}-{i}"}, ts=1_000 + i)
    return db


async def test_verify_passes_then_names_the_first_bad_event(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}
    db = await _seed(nx_server.uri, name)
    try:
        ok = run_lembra(["ledger", "verify"], env=env, cwd=tmp_path)
        assert ok.returncode == 0, ok.stderr
        assert "tg:1: ok (4 events)" in ok.stdout
        assert "tg:2: ok (4 events)" in ok.stdout

        raw = db.client[name]["ledger"]
        await raw.update_one({"stream": "tg:2", "seq": 3}, {"$set": {"payload.item_id": "forged"}})
        bad = run_lembra(["ledger", "verify"], env=env, cwd=tmp_path)
        assert bad.returncode == 1
        assert "tg:2: BROKEN at seq 3" in bad.stdout
        assert "tg:1: ok" in bad.stdout

        only_one = run_lembra(["ledger", "verify", "--user", "tg:1"], env=env, cwd=tmp_path)
        assert only_one.returncode == 0
        assert "tg:2" not in only_one.stdout
    finally:
        await db.drop()
        await db.close()


async def test_a_truncated_chain_is_caught_against_a_saved_head(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}
    db = await _seed(nx_server.uri, name)
    try:
        head = run_lembra(["ledger", "head"], env=env, cwd=tmp_path)
        assert head.returncode == 0
        heads = json.loads(head.stdout)
        assert heads["tg:1"]["seq"] == 4
        saved = tmp_path / "heads.json"
        saved.write_text(head.stdout)

        assert (
            run_lembra(
                ["ledger", "verify", "--against", str(saved)], env=env, cwd=tmp_path
            ).returncode
            == 0
        )
        await db.client[name]["ledger"].delete_one({"stream": "tg:1", "seq": 4})
        assert (
            run_lembra(["ledger", "verify"], env=env, cwd=tmp_path).returncode == 0
        )  # a clean prefix
        against = run_lembra(["ledger", "verify", "--against", str(saved)], env=env, cwd=tmp_path)
        assert against.returncode == 1
        assert "tg:1: BROKEN at seq 4" in against.stdout
        assert "truncated" in against.stdout
    finally:
        await db.drop()
        await db.close()


async def test_user_ids_resolve_as_chat_does_and_an_empty_stream_is_not_called_ok(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}
    db = await _seed(nx_server.uri, name)
    try:
        chat = run_lembra(
            ["chat", "--user", "u1"], env=env, cwd=tmp_path, stdin="anota: comprar pão\n"
        )
        assert chat.returncode == 0, chat.stderr
        assert [e.type for e in await db.ledger.events("cli:u1")] == ["item_saved"]

        for spelled in ("u1", "cli:u1"):
            mine = run_lembra(["ledger", "verify", "--user", spelled], env=env, cwd=tmp_path)
            assert mine.returncode == 0, mine.stderr
            assert mine.stdout.strip() == "cli:u1: ok (1 events)"

        kept = run_lembra(["ledger", "verify", "--user", "tg:1"], env=env, cwd=tmp_path)
        assert kept.stdout.strip() == "tg:1: ok (4 events)"

        nobody = run_lembra(["ledger", "verify", "--user", "u2"], env=env, cwd=tmp_path)
        assert nobody.returncode == 0  # nothing to verify is not a failure...
        assert nobody.stdout.strip() == "cli:u2: no events (nothing to verify)"
        assert "ok" not in nobody.stdout  # ...but it does not claim a verified chain

        empty = run_lembra(["ledger", "verify", "--user", "tg:"], env=env, cwd=tmp_path)
        assert empty.returncode == 2
        assert "is not a user id" in empty.stderr
    finally:
        await db.drop()
        await db.close()


def test_chat_refuses_to_talk_as_another_channels_user(tmp_path: Path) -> None:
    result = run_lembra(
        ["chat", "--user", "tg:123"], cwd=tmp_path, env={"DATA_DIR": str(tmp_path)}, stdin="oi\n"
    )
    assert result.returncode == 2
    assert "tg:123 is not a console user" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("content", "names"),
    [
        ("{not json", "not JSON"),
        ('[{"seq": 4, "hash": "ab"}]', "got a JSON array"),
        ('{"cli:u1": 5}', "the entry for 'cli:u1' is 5"),
        ('{"cli:u1": {"seq": "4", "hash": "ab"}}', "the entry for 'cli:u1'"),
        ('{"cli:u1": {"seq": 4}}', "the entry for 'cli:u1'"),
    ],
)
def test_a_head_file_of_the_wrong_shape_is_a_clear_error_naming_the_expected_one(
    tmp_path: Path, content: str, names: str
) -> None:
    bad = tmp_path / "heads.json"
    bad.write_text(content)
    result = run_lembra(
        ["ledger", "verify", "--against", str(bad)], cwd=tmp_path, env={"DATA_DIR": str(tmp_path)}
    )
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(f"lembra: error: cannot read saved heads from {bad}: ")
    assert names in line
    if names != "not JSON":
        assert 'expected the output of `lembra ledger head`, {"<user id>": {"seq": <int>' in line
    assert "attribute" not in line
    assert "subscriptable" not in line
    assert result.stdout == ""


def test_an_unreachable_mongodb_is_one_line_naming_the_setting_without_the_password(
    tmp_path: Path,
) -> None:
    port = free_port()  # nothing listens there
    uri = f"mongodb://lembra:hunter2@127.0.0.1:{port}/?directConnection=true&serverSelectionTimeoutMS=500"
    result = run_lembra(["ledger", "head"], env={"MONGODB_URI": uri}, cwd=tmp_path)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert f"cannot reach the database at 127.0.0.1:{port} (MONGODB_URI)" in line
    assert "hunter2" not in result.stderr
    assert "Traceback" not in result.stderr
