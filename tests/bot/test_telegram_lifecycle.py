"""The update lifecycle through Telegram: order per chat, chats in parallel, re-drive, shutdown."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from agent.clock import FakeClock
from bot.delivery.lifecycle import UpdateLifecycle
from bot.web.app import CHANNELS
from storage import Database
from tests.bot.conftest import FAST
from tests.support.fake_telegram import message_update
from tests.support.scripted_runtime import ScriptedRuntime

CHAT_A, CHAT_B = 5550101, 5550102
REDRIVE = replace(
    FAST, jobs=True, tuning=replace(FAST.tuning, stale_after_s=0.5, redrive_interval_s=0.1)
)


async def test_one_chat_runs_in_order_while_other_chats_run_in_parallel(harness: Any) -> None:
    async with harness() as h:
        h.tg.gate(2)  # the first sends wait until two chats are sending at once
        await h.post_update(message_update(CHAT_A, "a0"))
        await h.post_update(message_update(CHAT_B, "b0"))
        await h.idle()
        assert h.tg.gate_opened, "two chats were never handled at the same time"

        h.tg.hold_sends_s = 0.02
        for n in range(1, 11):
            await h.post_update(message_update(CHAT_A, f"a{n}"))
        await h.idle()
        assert h.tg.texts(CHAT_A) == [f"eco: a{n}" for n in range(11)]
        assert h.tg.max_in_flight[CHAT_A] == 1


async def test_a_redelivery_while_the_update_is_in_progress_is_acknowledged_and_ignored(
    harness: Any,
) -> None:
    runtime = ScriptedRuntime(release=asyncio.Event())
    async with harness(runtime=runtime) as h:
        update = message_update(CHAT_A, "devagar")
        await h.post_update(update)
        await asyncio.wait_for(runtime.entered.wait(), timeout=10)
        again = await h.post_update(update)
        assert again.status == 200
        assert await h.status(f"tg:{update['update_id']}") == "received"
        runtime.release.set()  # type: ignore[union-attr]
        await h.idle()

        assert h.tg.texts(CHAT_A) == ["pronto"]
        assert len(runtime.seen) == 1
        assert await h.status(f"tg:{update['update_id']}") == "done"


async def _seed_stale(
    db: Database, update: dict[str, Any] | str, *, done: bool = False, now_ms: int | None = None
) -> str:
    """What a crash leaves behind: recorded `received` two minutes ago, never finished."""
    payload = update if isinstance(update, str) else json.dumps(update)
    update_id = "tg:424242" if isinstance(update, str) else f"tg:{update['update_id']}"
    old_ms = (now_ms if now_ms is not None else int(time.time() * 1000)) - 120_000
    await db.updates.record(update_id, payload, now_ms=old_ms)
    if done:
        await db.updates.mark_done(update_id, None, now_ms=old_ms)
    return update_id


async def test_an_update_interrupted_by_a_crash_is_redriven_once(
    harness: Any, db: Database
) -> None:
    crashed = await _seed_stale(db, message_update(CHAT_A, "oi de antes"))
    await _seed_stale(db, message_update(CHAT_B, "já respondido"), done=True)
    async with harness(options=REDRIVE) as h:
        await h.until_status(crashed, "done")
        await asyncio.sleep(0.3)  # a few more re-drive passes
        await h.idle()

        assert h.tg.texts(CHAT_A) == ["eco: oi de antes"]
        assert h.tg.texts(CHAT_B) == []
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="redriven") == 1


async def test_the_redrive_gives_up_after_too_many_attempts(harness: Any, db: Database) -> None:
    stuck = await _seed_stale(db, message_update(CHAT_A, "oi"))
    seen_ms = (await db.updates.get(stuck)).updated_at_ms  # type: ignore[union-attr]
    for _ in range(REDRIVE.tuning.max_attempts):  # earlier passes that never finished
        await db.updates.claim_stale(stuck, seen_updated_at_ms=seen_ms, now_ms=seen_ms)
    async with harness(options=REDRIVE) as h:
        await h.until_status(stuck, "done")
        await h.idle()
        assert h.tg.sent() == []


async def test_a_stored_payload_that_no_longer_parses_is_finished_without_a_reply(
    harness: Any, db: Database
) -> None:
    broken = await _seed_stale(db, "{not json")
    async with harness(options=REDRIVE) as h:
        await h.until_status(broken, "done")
        await h.idle()
        assert h.tg.sent() == []


async def test_two_apps_on_one_database_redrive_in_one_only(harness: Any, db: Database) -> None:
    # One clock for both apps, moved by nobody: the leader's lease (0.15 s) cannot expire
    # while the machine is slow, so which app leads depends on no timing (issue 45).
    clock = FakeClock(datetime.now(UTC))
    for n in range(5):
        await _seed_stale(db, message_update(CHAT_A + n, f"perdido {n}"), now_ms=clock.ms())
    async with (
        harness(options=REDRIVE, clock=clock) as first,
        harness(options=REDRIVE, clock=clock) as second,
    ):
        await first.tg.wait_for(lambda: len(first.tg.texts()) == 5)
        await asyncio.sleep(0.3)  # a few more re-drive passes (fewer on a slow machine: fine)
        await first.idle()
        await second.idle()

        assert sorted(first.tg.texts()) == sorted(f"eco: perdido {n}" for n in range(5))
        redriven = [
            await app.metric("lembra_updates_total", channel="telegram", outcome="redriven")
            for app in (first, second)
        ]
        assert sorted(redriven) == [0, 5]
        holder = await first.db.leases.holder("job:redrive", now_ms=clock.ms())
        assert holder in {first.deps.owner, second.deps.owner}


async def _renewed(app: Any, key: str, *, until_ms: int) -> None:
    """Wait, however long the machine takes, until `key`'s lease runs to `until_ms`."""
    leases = app.db.client[app.db.name]["leases"]
    async with asyncio.timeout(30):
        while True:
            doc = await leases.find_one({"_id": key})
            if doc is not None and int(doc["expires_at_ms"]) >= until_ms:
                return
            await asyncio.sleep(0.01)


async def test_a_scheduled_job_longer_than_its_lease_still_runs_in_one_app_only(
    harness: Any,
) -> None:
    # Both apps on one clock that only the test moves: time passes a third of the lease at
    # a time, each step only once the holder's renewal has landed, so the lease is never
    # expired at any instant either app can see, however slow the machine (issue 45).
    every_s = 0.1  # the leader lease lives 1.5 passes: 150 ms of the clock
    ttl_ms = 150
    clock = FakeClock(datetime.now(UTC))
    started: list[str] = []
    running, release = asyncio.Event(), asyncio.Event()

    def slow_job(name: str) -> Any:
        async def job() -> None:
            started.append(name)
            running.set()
            await release.wait()

        return job

    async with harness(clock=clock) as first, harness(clock=clock) as second:
        schedulers = []
        for name, app in (("first", first), ("second", second)):
            scheduler = UpdateLifecycle(app.deps, app.runtime.handle, tuning=FAST.tuning)
            scheduler.schedule("slow", every_s, slow_job(name))
            scheduler.start()
            schedulers.append(scheduler)
        try:
            await asyncio.wait_for(running.wait(), timeout=10)
            for _ in range(30):  # ten lease lifetimes while the pass runs
                clock.advance(ttl_ms / 3000)
                await _renewed(first, "job:slow", until_ms=clock.ms() + ttl_ms)

            assert len(started) == 1
            holder = await first.db.leases.holder("job:slow", now_ms=clock.ms())
            assert holder == {"first": first, "second": second}[started[0]].deps.owner
        finally:
            release.set()
            for scheduler in schedulers:
                await scheduler.stop()


async def test_two_apps_never_handle_one_chat_at_once(harness: Any) -> None:
    async with harness() as first, harness() as second:
        holders: list[str | None] = []

        async def lease_holder(chat_id: int) -> None:
            key = f"chat:tg:{chat_id}"
            holders.append(await first.db.leases.holder(key, now_ms=int(time.time() * 1000)))

        first.tg.on_send = lease_holder
        first.tg.hold_sends_s = 0.03
        updates = [message_update(CHAT_A, f"m{n}") for n in range(12)]
        await asyncio.gather(
            *((first if n % 2 else second).post_update(u) for n, u in enumerate(updates))
        )
        await first.tg.wait_for(lambda: len(first.tg.texts(CHAT_A)) == 12)
        await first.idle()
        await second.idle()

        assert first.tg.max_in_flight[CHAT_A] == 1
        assert sorted(first.tg.texts(CHAT_A)) == sorted(f"eco: m{n}" for n in range(12))
        assert set(holders) <= {first.deps.owner, second.deps.owner}
        # Not "both took turns": the lease holder also runs the chat's updates queued in the
        # other (arrival order, issue 15), so one of them may run them all.
        arrival = []
        for update in updates:
            record = await first.record(f"tg:{update['update_id']}")
            assert record is not None
            arrival.append((record.seq, f"eco: {update['message']['text']}"))
        assert first.tg.texts(CHAT_A) == [text for _, text in sorted(arrival)]  # arrival order


async def test_shutdown_finishes_the_turns_in_flight(harness: Any) -> None:
    runtime = ScriptedRuntime(release=asyncio.Event())
    async with harness(runtime=runtime) as h:
        update = message_update(CHAT_A, "devagar")
        await h.post_update(update)
        await asyncio.wait_for(runtime.entered.wait(), timeout=10)
        telegram = h.client.server.app[CHANNELS].telegram
        closing = asyncio.create_task(h.client.close())
        await asyncio.sleep(0.1)
        assert not closing.done()  # waiting for the turn
        runtime.release.set()  # type: ignore[union-attr]
        await closing

        assert telegram is not None
        assert not telegram.app.running
        assert h.tg.texts(CHAT_A) == ["pronto"]
        assert await h.status(f"tg:{update['update_id']}") == "done"


async def test_a_slow_turn_is_not_redriven_while_it_runs_anywhere(harness: Any) -> None:
    runtime = ScriptedRuntime(release=asyncio.Event())
    # `other` starts first, so it leads the re-drive; `busy` runs the slow turn.
    async with harness(options=REDRIVE) as other, harness(options=REDRIVE, runtime=runtime) as busy:
        update = message_update(CHAT_A, "devagar")
        await busy.post_update(update)
        await asyncio.wait_for(runtime.entered.wait(), timeout=10)
        await asyncio.sleep(4 * REDRIVE.tuning.stale_after_s)  # far past "stale"
        runtime.release.set()  # type: ignore[union-attr]
        await busy.idle()
        await other.idle()

        assert busy.tg.texts(CHAT_A) == ["pronto"]
        record = await busy.record(f"tg:{update['update_id']}")
        assert record is not None
        assert (record.status, record.attempts) == ("done", 0)
        for app in (busy, other):
            assert (
                await app.metric("lembra_updates_total", channel="telegram", outcome="redriven")
                == 0
            )
