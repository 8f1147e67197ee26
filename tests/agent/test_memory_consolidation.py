"""Consolidation, the "dreaming cycle" (DESIGN 3.8): what it does, when it runs, when it must not."""

from __future__ import annotations

import asyncio
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from agent.assembly import open_deps
from agent.conversation.background import run_due
from agent.memory.consolidation import LEASE_TTL_MS, consolidate
from storage import Database
from storage.database import make_client
from storage.documents import PendingDoc
from tests.support.history import bulk_write_turns
from tests.support.live import ALICE, Live, call, live_runtime, respond
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer

BOB = "cli:bob"
INVALID = {"raw": "Claro! Vou salvar."}


LEGACY = {"trigger", "conversations", "pending_expired", "counts_repaired", "archive_by_model"}
LEARNED = {
    "items",
    "types",
    "topics",
    "active_hours",
    "empty_searches",
    "corrections",
    "frustration",
    "baseline_tokens",
    "baseline_by",
}


async def consolidations(live: Live, user_id: str = ALICE) -> list[dict[str, Any]]:
    return [
        e.payload for e in await live.db.ledger.events(user_id) if e.type == "consolidation_done"
    ]


async def stale_pending(live: Live, *, expires_in_s: int, conversation: str = ALICE) -> None:
    now = live.clock.ms()
    await live.db.pending.put(
        PendingDoc(
            _id=conversation,
            user_id=ALICE,
            kind="confirm_delete_all",
            payload_json='{"kind": "confirm_delete_all", "count": 1, "token": "t"}',
            created_at_ms=now,
            expires_at_ms=now + expires_in_s * 1000,
        )
    )


# -- what it does ---------------------------------------------------------------------------------


async def test_consolidate_compacts_expires_repairs_and_records(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await bulk_write_turns(live, 40)  # imported history, never compacted
        await db.users.set_counts(ALICE, {"note": 7, "movie": 3})  # counters gone wrong
        await stale_pending(live, expires_in_s=-1)
        await stale_pending(live, expires_in_s=60, conversation="cli:alice-other")

        report = await consolidate(live.deps, ALICE, trigger="manual", use_model=False)

        assert report is not None
        assert report.trigger == "manual"
        assert report.counts_repaired
        assert report.pending_expired == 1
        conversation = await db.summaries.get_conversation(ALICE, ALICE)
        assert conversation is not None
        assert conversation["structured"]
        assert conversation["archive"]
        user = await db.users.get(ALICE)
        assert user is not None
        assert user.counts == {"note": 1, "movie": 0, "tv_show": 0, "video": 0, "link": 0}
        assert await db.pending.peek(ALICE, ALICE) is None
        assert await db.pending.peek(ALICE, "cli:alice-other") is not None  # still live
        (done,) = await consolidations(live)
        assert {k: v for k, v in done.items() if k in LEGACY} == {
            "trigger": "manual",
            "conversations": report.conversations,
            "pending_expired": 1,
            "counts_repaired": True,
            "archive_by_model": False,
        }
        assert set(done) == LEGACY | LEARNED  # and what dreaming learned, as counts
        assert await db.leases.holder(f"chat:{ALICE}", now_ms=live.clock.ms()) is None
        assert (
            live.deps.metrics.registry.get_sample_value(
                "lembra_consolidation_runs_total", {"trigger": "manual"}
            )
            == 1
        )


async def test_the_model_rewrites_the_archive_when_allowed(db: Database) -> None:
    summary = "A usuária salvou dezenas de notas numeradas; nada foi apagado."
    async with live_runtime(db, background_llm=True) as live:
        await live.say("oi")
        await bulk_write_turns(live, 60)
        live.model.begin_turn([respond(summary)])
        report = await consolidate(live.deps, ALICE, trigger="manual", use_model=True)
        served = live.model.end_turn()
    assert served.problems() == []
    assert report is not None
    assert report.archive_by_model
    conversation = await db.summaries.get_conversation(ALICE, ALICE)
    assert conversation is not None
    assert conversation["archive"] == summary
    # the archive reached the model as data, within its context
    sent = served.requests[0].body["messages"][1]["content"]
    assert sent.startswith("<data>")
    assert "salva a nota 1" in sent


async def test_a_model_that_is_down_keeps_the_deterministic_archive_until_next_time(
    db: Database,
) -> None:
    summary = "A usuária salvou dezenas de notas numeradas; nada foi apagado."
    async with live_runtime(db, background_llm=True) as live:
        await live.say("oi")
        await bulk_write_turns(live, 60)
        live.model.begin_turn([], [{"status": 500}] * 3)  # the first try and both retries
        report = await consolidate(live.deps, ALICE, trigger="manual", use_model=True)
        assert live.model.end_turn().llm_calls == 3
        assert report is not None
        assert not report.archive_by_model
        conversation = await db.summaries.get_conversation(ALICE, ALICE)
        assert conversation is not None
        deterministic = conversation["archive"]
        assert "salva a nota 1" in deterministic
        assert not conversation["archive_by_model"]

        live.model.begin_turn([respond(summary)])  # the next run retries
        report = await consolidate(live.deps, ALICE, trigger="manual", use_model=True)
        assert live.model.end_turn().problems() == []
        assert report is not None
        assert report.archive_by_model
        conversation = await db.summaries.get_conversation(ALICE, ALICE)
        assert conversation is not None
        assert conversation["archive"] == summary


async def test_lembra_dream_runs_it_now(nx_server: RunningServer, tmp_path: Path) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    db = Database(make_client(nx_server.uri), name)
    await db.ensure_indexes()
    try:
        await db.users.ensure(ALICE, language="pt", timezone="America/Sao_Paulo", now_ms=0)
        await db.users.set_counts(ALICE, {"note": 5})
        env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}

        done = run_lembra(["dream", "--user", ALICE], env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"{ALICE}: consolidated (manual)" in done.stdout
        assert "counters repaired" in done.stdout
        user = await db.users.get(ALICE)
        assert user is not None
        assert user.counts["note"] == 0
        assert [e.type for e in await db.ledger.events(ALICE)] == ["consolidation_done"]

        unknown = run_lembra(["dream", "--user", "cli:nobody"], env=env, cwd=tmp_path)
        assert unknown.returncode == 1
        assert (
            unknown.stdout.strip() == "cli:nobody: unknown user (no such user id), not consolidated"
        )

        await db.users.ensure(BOB, language="en", timezone="UTC", now_ms=0)
        everyone = run_lembra(["dream"], env=env, cwd=tmp_path)
        assert everyone.returncode == 0, everyone.stderr
        assert f"{ALICE}: consolidated" in everyone.stdout
        assert f"{BOB}: consolidated" in everyone.stdout
    finally:
        await db.drop()
        await db.close()


async def test_lembra_dream_takes_a_bare_id_as_chat_does_and_says_when_the_user_is_busy(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:10]}"
    db = Database(make_client(nx_server.uri), name)
    await db.ensure_indexes()
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": name}
    try:
        # `lembra chat --user alice` talks as cli:alice; `dream --user alice` means the same user
        chat = run_lembra(["chat", "--user", "alice"], env=env, cwd=tmp_path, stdin="oi\n")
        assert chat.returncode == 0, chat.stderr
        assert await db.users.get(ALICE) is not None

        done = run_lembra(["dream", "--user", "alice"], env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"{ALICE}: consolidated (manual)" in done.stdout

        # a turn in progress holds the conversation's lease
        assert await db.leases.acquire(
            f"chat:{ALICE}", "worker-handling-a-turn", ttl_ms=60_000, now_ms=int(time.time() * 1000)
        )
        busy = run_lembra(["dream", "--user", "alice"], env=env, cwd=tmp_path)
        assert busy.returncode == 1
        assert busy.stdout.startswith(f"{ALICE}: busy (a turn or another consolidation")
        assert "unknown" not in busy.stdout
        assert [e.type for e in await db.ledger.events(ALICE)] == ["consolidation_done"]
    finally:
        await db.drop()
        await db.close()


# -- when it runs --------------------------------------------------------------------------------


async def test_it_runs_daily_at_two_in_the_users_time_zone(db: Database) -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    # Monday 10:00 in Tokyo is Monday 01:00 UTC and Sunday 22:00 in São Paulo
    async with live_runtime(db, start=datetime(2026, 1, 5, 10, 0, tzinfo=tokyo)) as live:
        await db.users.ensure(ALICE, language="pt", timezone="Asia/Tokyo", now_ms=live.clock.ms())
        await live.say("oi")
        assert (await run_due(live.deps)).consolidations == 0  # its first night is to come

        live.clock.advance(15 * 3600 + 59 * 60)  # Tuesday 01:59 in Tokyo
        assert (await run_due(live.deps)).consolidations == 0
        live.clock.advance(60)  # 02:00
        assert (await run_due(live.deps)).consolidations == 1
        assert [c["trigger"] for c in await consolidations(live)] == ["daily"]
        live.clock.advance(3600)  # 03:00: done for today
        assert (await run_due(live.deps)).consolidations == 0
        live.clock.advance(23 * 3600)  # Wednesday 02:00
        assert (await run_due(live.deps)).consolidations == 1

        # a day the job could not run is caught up later that day, once
        live.clock.advance(24 * 3600 + 6 * 3600)  # Thursday 08:00
        assert (await run_due(live.deps)).consolidations == 1
        assert (await run_due(live.deps)).consolidations == 0
    assert len(await consolidations(live)) == 3


async def test_it_runs_after_all_deleted(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("apaga tudo")
        await live.say("sim")
        assert "all_deleted" in [e.type for e in await db.ledger.events(ALICE)]
        assert (await run_due(live.deps)).consolidations == 1
        assert [c["trigger"] for c in await consolidations(live)] == ["all_deleted"]
        assert (await run_due(live.deps)).consolidations == 0


async def test_it_runs_after_three_planner_failures_in_a_row(db: Database) -> None:
    async with live_runtime(db) as live:
        for _ in range(2):
            reply, _ = await live.say("anota: x", llm=[INVALID] * 3)
            assert reply.meta.state == "FAIL"
        await live.say("anota: y", llm=[call("save_note", content="y")])  # a success resets
        for _ in range(2):
            await live.say("anota: x", llm=[INVALID] * 3)
        assert (await run_due(live.deps)).consolidations == 0
        await live.say("anota: x", llm=[INVALID] * 3)
        assert (await run_due(live.deps)).consolidations == 1
        assert [c["trigger"] for c in await consolidations(live)] == ["planner_failures"]
        user = await db.users.get(ALICE)
        assert user is not None
        assert user.planner_failures_in_row == 0


async def test_it_runs_every_50_sessions(db: Database) -> None:
    async with live_runtime(db) as live:
        for _ in range(49):
            await live.say("oi")
            await live.say("/end")
        assert (await run_due(live.deps)).consolidations == 0
        await live.say("oi")
        await live.say("/end")
        assert (await run_due(live.deps)).consolidations == 1
        assert [c["trigger"] for c in await consolidations(live)] == ["sessions"]
        user = await db.users.get(ALICE)
        assert user is not None
        assert user.sessions_since_dream == 0


# -- when it must not -------------------------------------------------------------------------------


async def test_never_while_the_users_turn_holds_the_lease(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("apaga tudo")
        await live.say("sim")  # a consolidation is now due
        lease = f"chat:{ALICE}"
        now = live.clock.ms()
        assert await db.leases.acquire(lease, "worker-handling-a-turn", ttl_ms=15_000, now_ms=now)

        assert await consolidate(live.deps, ALICE, trigger="manual", use_model=False) is None
        assert (await run_due(live.deps)).consolidations == 0
        assert await consolidations(live) == []
        assert await db.leases.holder(lease, now_ms=now) == "worker-handling-a-turn"

        await db.leases.release(lease, "worker-handling-a-turn")
        assert (await run_due(live.deps)).consolidations == 1


async def test_only_one_of_two_concurrent_runs_proceeds(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        # the same process twice (the scheduler and an admin's /dream), then two processes
        same = await asyncio.gather(
            consolidate(live.deps, ALICE, trigger="manual", use_model=False),
            consolidate(live.deps, ALICE, trigger="manual", use_model=False),
        )
        assert sum(report is not None for report in same) == 1
        async with open_deps(live.deps.settings, db=db, clock=live.clock) as other:
            assert other.owner != live.deps.owner
            two = await asyncio.gather(
                consolidate(live.deps, ALICE, trigger="manual", use_model=False),
                consolidate(other, ALICE, trigger="manual", use_model=False),
            )
        assert sum(report is not None for report in two) == 1
        assert len(await consolidations(live)) == 2


async def test_a_lease_left_by_a_crashed_run_expires(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("oi")
        lease = f"chat:{ALICE}"
        assert await db.leases.acquire(
            lease, "crashed", ttl_ms=LEASE_TTL_MS, now_ms=live.clock.ms()
        )
        assert await consolidate(live.deps, ALICE, trigger="manual", use_model=False) is None
        live.clock.advance(LEASE_TTL_MS / 1000)
        assert await consolidate(live.deps, ALICE, trigger="manual", use_model=False) is not None
