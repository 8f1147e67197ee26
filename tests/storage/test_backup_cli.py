"""`lembra backup`, `restore` and `migrate --to` as an operator runs them."""

from __future__ import annotations

import uuid
from pathlib import Path

from storage import Database
from storage.archive import digests
from storage.database import make_client
from tests.support.harness import seed
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer


def _name() -> str:
    return f"t_{uuid.uuid4().hex[:10]}"


async def test_backup_then_restore_elsewhere_then_refuse_to_overwrite(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    source = Database(make_client(nx_server.uri), _name())
    target_name = _name()
    target = Database(make_client(nx_server.uri), target_name)
    try:
        await source.ensure_indexes()
        await seed(source, ["guarda https://example.com/a", "nota: ligar pro banco"])
        archive = tmp_path / "nightly.jsonl.gz"

        env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": source.name}
        made = run_lembra(["backup", str(archive)], env=env, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        assert f"backup written to {archive}" in made.stderr

        env_target = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": target_name}
        back = run_lembra(["restore", str(archive)], env=env_target, cwd=tmp_path)
        assert back.returncode == 0, back.stderr
        assert "ledger cli:alice: ok" in back.stdout
        assert "restored" in back.stderr
        assert len(await target.items.list_for("cli:alice")) == 2

        again = run_lembra(["restore", str(archive)], env=env_target, cwd=tmp_path)
        assert again.returncode == 2
        assert "not empty" in again.stderr
        assert "--force" in again.stderr
        assert "Traceback" not in again.stderr
        forced = run_lembra(["restore", "--force", str(archive)], env=env_target, cwd=tmp_path)
        assert forced.returncode == 0, forced.stderr
    finally:
        for db in (source, target):
            await db.drop()
            await db.close()


async def test_migrate_copies_into_another_server_and_says_what_to_set(
    nx_server: RunningServer, secantus_server: RunningServer, tmp_path: Path
) -> None:
    name = _name()
    source = Database(make_client(nx_server.uri), name)
    target = Database(make_client(secantus_server.uri), name)
    try:
        await source.ensure_indexes()
        await seed(source, ["guarda https://example.com/a", "salva a série dark"])
        env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}

        moved = run_lembra(["migrate", "--to", secantus_server.uri], env=env, cwd=tmp_path)
        assert moved.returncode == 0, moved.stderr
        assert f"now set MONGODB_URI={secantus_server.uri}" in moved.stderr
        assert "ledger cli:alice: ok" in moved.stdout
        mine = await digests(source.collections())
        theirs = await digests(target.collections())
        assert mine == theirs
        assert mine["items"].count == 2

        twice = run_lembra(["migrate", "--to", secantus_server.uri], env=env, cwd=tmp_path)
        assert twice.returncode == 2
        assert "not empty" in twice.stderr
    finally:
        for db in (source, target):
            await db.drop()
            await db.close()
