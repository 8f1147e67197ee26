"""`lembra doctor` as an operator runs it (issue 15: `ledger verify` said ok over gaps)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

from storage import Database
from storage.database import make_client
from storage.documents import ItemDoc
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer


async def test_doctor_reports_an_item_without_its_event_then_repairs_it(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    """Fails on main before this change: there was no command that compared items with
    the ledger, and `lembra ledger verify` said ok."""
    name = f"t_{uuid.uuid4().hex[:10]}"
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}
    db = Database(make_client(nx_server.uri), name)
    await db.ensure_indexes()
    try:
        await db.users.ensure("tg:5", language="pt", timezone="UTC", now_ms=1)
        # what a kill -9 between the insert and the event left behind before this change
        await db.items.insert(
            ItemDoc(
                _id="i1",
                user_id="tg:5",
                seq=1,
                type="note",
                content="pão",
                dedup_key="note:x",
                created_at_ms=1,
                updated_at_ms=1,
            )
        )
        assert run_lembra(["ledger", "verify"], env=env, cwd=tmp_path).returncode == 0

        found = run_lembra(["doctor"], env=env, cwd=tmp_path)
        assert found.returncode == 1, found.stderr
        report = json.loads(found.stdout.splitlines()[0])
        assert report["user"] == "tg:5"
        assert report["items_without_event"] == 1
        assert report["counters_off"] == {"note": {"kept": 0, "stored": 1}}
        assert "pão" not in found.stdout  # ids and counts only

        repaired = run_lembra(["doctor", "--repair"], env=env, cwd=tmp_path)
        assert repaired.returncode == 0, repaired.stdout + repaired.stderr
        again = run_lembra(["doctor", "--user", "tg:5"], env=env, cwd=tmp_path)
        assert again.returncode == 0
        assert json.loads(again.stdout.splitlines()[0])["ok"] is True
        assert run_lembra(["ledger", "verify"], env=env, cwd=tmp_path).returncode == 0
    finally:
        await db.drop()
        await db.close()
