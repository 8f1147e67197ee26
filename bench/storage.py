"""Storage latency on each available backend (issue: foundation benchmark).

For every backend (nx-27017 on a SQLite file, nx-27017 in memory, SecantusDB when
installed, a real MongoDB when LEMBRA_BENCH_MONGODB_URI is set) it fills 20,000
documents, then times 2,000 operations each of: a lookup by `_id`, `insert_one`,
a ledger append, and the last-20-messages history query. Prints median, p99 and
ops/s. Run: `.venv/bin/python bench/storage.py`.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Database  # noqa: E402
from storage.database import make_client  # noqa: E402
from storage.documents import ItemDoc  # noqa: E402
from storage.embedded import EmbeddedServer  # noqa: E402
from storage.messages import NewMessage  # noqa: E402

PREFILL = 20_000
OPS = 2_000
USERS = 200


async def timed(n: int, op: Callable[[int], Awaitable[object]]) -> tuple[float, float, float]:
    samples = []
    start = time.perf_counter()
    for i in range(n):
        t0 = time.perf_counter()
        await op(i)
        samples.append(time.perf_counter() - t0)
    total = time.perf_counter() - start
    samples.sort()
    return statistics.median(samples) * 1e3, samples[int(len(samples) * 0.99) - 1] * 1e3, n / total


async def prefill(db: Database) -> None:
    now = 1_767_600_000_000
    items = [
        ItemDoc(
            _id=f"item{i}",
            user_id=f"tg:{i % USERS}",
            seq=i,
            type="movie",
            title=f"Movie {i}",
            year=2000 + i % 25,
            dedup_key=f"title:movie {i}",
            created_at_ms=now,
            updated_at_ms=now,
        ).to_doc()
        for i in range(PREFILL)
    ]
    raw = db.client[db.name]["items"]
    for start in range(0, PREFILL, 1_000):
        await raw.insert_many(items[start : start + 1_000])
    for user in range(USERS):
        batch = [
            NewMessage(role="human" if k % 2 == 0 else "ai", content=f"message {k}")
            for k in range(PREFILL // USERS)
        ]
        await db.messages.append(f"tg:{user}", f"tg:{user}", batch, now_ms=now)


async def bench_backend(label: str, uri: str, *, drop: bool = True) -> None:
    db = Database(make_client(uri), f"bench_{uuid.uuid4().hex[:8]}")
    await db.ensure_indexes()
    try:
        await prefill(db)
        raw_messages = db.client[db.name]["messages"]
        await raw_messages.create_index([("conversation_id", 1)])

        def new_item(i: int) -> ItemDoc:
            return ItemDoc(
                _id=f"new{i}",
                user_id=f"tg:{i % USERS}",
                seq=PREFILL + i,
                type="note",
                content=f"note {i}",
                dedup_key=f"note:{i}",
                created_at_ms=0,
                updated_at_ms=0,
            )

        rows = {
            "lookup by _id": await timed(
                OPS, lambda i: db.items.get(f"tg:{i % USERS}", f"item{(i * 7919) % PREFILL}")
            ),
            "insert_one": await timed(OPS, lambda i: db.items.insert(new_item(i))),
            "ledger append": await timed(
                OPS, lambda i: db.ledger.append(f"tg:{i % USERS}", "item_saved", {"n": i}, ts=i)
            ),
            "last 20 messages": await timed(
                OPS, lambda i: db.messages.last(f"tg:{i % USERS}", f"tg:{i % USERS}", 20)
            ),
            "(sort+limit 20)": await timed(
                OPS // 4,
                lambda i: (
                    raw_messages.find({"conversation_id": f"tg:{i % USERS}"})
                    .sort("seq", -1)
                    .limit(20)
                    .to_list()
                ),
            ),
        }
        print(f"\n{label} ({PREFILL:,} documents present, {OPS:,} operations each)")
        print(f"  {'operation':<18} {'median ms':>10} {'p99 ms':>8} {'ops/s':>8}")
        for name, (median, p99, rate) in rows.items():
            print(f"  {name:<18} {median:>10.2f} {p99:>8.2f} {rate:>8.0f}")
    finally:
        if drop:
            await db.drop()
        await db.close()


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedServer(Path(tmp))
        try:
            await bench_backend("nx-27017 (SQLite file, the default)", server.start())
        finally:
            server.stop()
    memory = EmbeddedServer(Path(tempfile.gettempdir()), memory=True)
    try:
        await bench_backend("nx-27017 (in memory, tests)", memory.start())
    finally:
        memory.stop()
    try:
        from tests.support.servers import start_secantus

        secantus = start_secantus()
    except (ImportError, RuntimeError) as exc:
        print(f"\nSecantusDB: skipped ({exc})")
    else:
        try:
            await bench_backend("SecantusDB 0.7.0b3 (in memory)", secantus.uri, drop=False)
        finally:
            secantus.close()  # the whole in-memory server goes; dropping first only costs time
    if uri := os.environ.get("LEMBRA_BENCH_MONGODB_URI"):
        await bench_backend("MongoDB", uri)
    else:
        print("\nMongoDB: skipped (set LEMBRA_BENCH_MONGODB_URI to include it)")


if __name__ == "__main__":
    asyncio.run(main())
