"""Contract: the per-chat arrival order (storage/chatqueue.py) on every backend."""

from __future__ import annotations

import time

from storage import Database
from storage.chatqueue import Arrivals, queue_key
from storage.schema import SCHEMA_ID, upgrade


def test_arrival_numbers_strictly_rise_even_when_the_clock_does_not_move() -> None:
    arrivals = Arrivals()
    numbers = [arrivals.next() for _ in range(1000)]  # far faster than the clock's microseconds
    assert numbers == sorted(set(numbers))
    assert abs(numbers[0] - time.time_ns() // 1000) < 60_000_000  # wall-clock microseconds


async def test_the_waiting_records_come_in_arrival_order_and_finished_ones_leave(
    any_db: Database,
) -> None:
    key, queue, updates = queue_key("tg:902"), any_db.chat_queue, any_db.updates
    now = int(time.time() * 1000)  # records older than the TTL would be gone
    for seq in (30, 10, 40, 20, 50):  # recorded out of order, as two workers may
        await updates.record(f"tg:{seq}", "{}", now_ms=now, queue=key, seq=seq)
    await updates.mark_done("tg:20", None, now_ms=now)
    await updates.mark_throttled("tg:50", now_ms=now)
    await updates.record("tg:99", "{}", now_ms=now, queue=queue_key("tg:903"), seq=20)

    waiting = await queue.waiting(key, up_to=40)
    assert [r.id for r in waiting] == ["tg:10", "tg:30", "tg:40"]  # not finished, not others
    assert [r.id for r in await queue.waiting(key, up_to=29)] == ["tg:10"]
    finished = await updates.get("tg:20")
    assert finished is not None
    assert finished.queue is None  # the queue index holds only what still waits
    assert "tg:902" not in key  # the key never holds the conversation (user) id


async def test_the_migration_drops_the_old_counters_and_keeps_what_waits_first(
    any_db: Database,
) -> None:
    """A database at schema 4 numbered arrivals on `q:` counter documents (1, 2, ...)."""
    colls, updates = any_db.collections(), any_db.updates
    key, now = queue_key("tg:905"), int(time.time() * 1000)
    raw = colls["processed_updates"]
    await upgrade(colls, now_ms=now)
    await colls["leases"].update_one({"_id": SCHEMA_ID}, {"$set": {"version": 4}})
    await raw.insert_one({"_id": key, "arrived": 2, "handled": 1})
    await updates.record("tg:1", "{}", now_ms=now, queue=key, seq=1)
    await updates.record("tg:2", "{}", now_ms=now, queue=key, seq=2)
    await raw.update_one({"_id": "tg:1"}, {"$set": {"status": "done"}})  # queue left set

    assert [m.version for m in await upgrade(colls, now_ms=now)] == [5]
    assert await raw.find_one({"_id": key}) is None
    newer = Arrivals().next()
    await updates.record("tg:3", "{}", now_ms=now, queue=key, seq=newer)
    waiting = await any_db.chat_queue.waiting(key, up_to=newer)
    assert [r.id for r in waiting] == ["tg:2", "tg:3"]  # the old number comes first
    finished = await updates.get("tg:1")
    assert finished is not None
    assert finished.queue is None
