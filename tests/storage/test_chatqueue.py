"""Contract: the per-chat arrival queue (storage/chatqueue.py) on every backend."""

from __future__ import annotations

import asyncio
import time

from storage import Database
from storage.chatqueue import queue_key


async def test_concurrent_arrivals_in_one_chat_get_distinct_numbers_from_one(
    any_db: Database,
) -> None:
    key = queue_key("tg:900")
    numbers = await asyncio.gather(*(any_db.chat_queue.arrive(key) for _ in range(12)))
    assert sorted(numbers) == list(range(1, 13))
    assert await any_db.chat_queue.arrive(queue_key("tg:901")) == 1  # chats count apart


async def test_the_waiting_records_come_in_arrival_order_and_the_mark_only_rises(
    any_db: Database,
) -> None:
    key, queue = queue_key("tg:902"), any_db.chat_queue
    for _ in range(4):
        await queue.arrive(key)
    now = int(time.time() * 1000)  # records older than the TTL would be gone
    for seq in (3, 1, 4, 2):  # recorded out of order, as two workers may
        await any_db.updates.record(f"tg:{seq}", "{}", now_ms=now, queue=key, seq=seq)
    await any_db.updates.mark_done("tg:2", None, now_ms=now)
    await any_db.updates.record("tg:99", "{}", now_ms=now, queue=queue_key("tg:903"), seq=2)

    waiting = await queue.waiting(key, after=0, before=4)
    assert [r.id for r in waiting] == ["tg:1", "tg:3"]  # not done ones, not other chats
    await queue.mark_handled(key, 3)
    await queue.mark_handled(key, 2)
    assert await queue.handled(key) == 3
    assert await queue.handled(queue_key("tg:904")) == 0
    assert "tg:902" not in key  # the key never holds the conversation (user) id
