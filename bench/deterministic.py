"""Latency and database round trips of deterministic turns through `Runtime.handle()` (issue 3).

One user holds 1,000 items (400 notes, 300 movies, 100 TV shows, 100 videos, 100
links) and 5,000 messages in their conversation, on the embedded database with its
file under a temporary DATA_DIR, as `make run` uses it. Each round sends
"apaga tudo" (delete_all: the dry-run preview and its pending confirmation),
"cancela" (cancel, clearing that confirmation) and "lista tudo" (list_all), then a
position of that list resolved in code: "apaga o 2" (its preview), "não", "mostra o 3"
(issue 26), then "lista tudo" again right after an edit of the items (list_all-changed:
the list cache on the user document is stale, so the items are read and kept again), and
times each `handle()` call. Round trips are counted by wrapping the primitive
operations of storage.collection.Collection, here in the bench only.

Goals: p50 <= 2 ms and p99 <= 10 ms per turn (issue 3); <= 3 round trips and p50 <= 4 ms
per turn (issue 16); a position resolved in code: 0 model calls, <= 3 round trips (issue 26).
Run: `.venv/bin/python bench/deterministic.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.types import Incoming  # noqa: E402
from config.settings import load_settings  # noqa: E402
from storage import Database  # noqa: E402
from storage.collection import Collection  # noqa: E402
from storage.documents import ItemDoc  # noqa: E402
from storage.messages import NewMessage  # noqa: E402

USER = "cli:bench"
ITEMS_BY_TYPE = {"note": 400, "movie": 300, "tv_show": 100, "video": 100, "link": 100}
MESSAGES = 5_000
TURNS = {
    "delete_all-preview": "apaga tudo",
    "cancel": "cancela",
    "list_all": "lista tudo",
    # positions resolved against what "lista tudo" just showed (issue 26, DESIGN 10.1)
    "position-delete": "apaga o 2",
    "deny": "não",
    "position-show": "mostra o 3",
    "list_all-changed": "lista tudo",
}
AFTER_A_CHANGE = {"list_all-changed"}
PRIMITIVES = (
    "find_one",
    "find",
    "insert_one",
    "insert_many",
    "update_one",
    "update_many",
    "update_each",
    "find_one_and_update",
    "replace_one",
    "delete_one",
    "delete_many",
)


class RoundTrips:
    """Counts and times every call that reaches the database server, by collection and operation."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def install(self) -> None:
        for name in PRIMITIVES:
            setattr(Collection, name, self._wrap(name, getattr(Collection, name)))

    def _wrap(self, name: str, original: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
        async def counted(coll: Collection, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(coll, *args, **kwargs)
            finally:
                key = f"{coll.name}.{name}"
                self.calls[key] += 1
                self.seconds[key] += time.perf_counter() - started

        return counted

    def reset(self) -> None:
        self.calls.clear()
        self.seconds.clear()


def item(n: int, item_type: str, now_ms: int) -> dict[str, Any]:
    fields: dict[str, Any] = {"title": f"Title {n}"}
    if item_type in ("movie", "tv_show"):
        fields = {"title": f"Title {n}", "year": 1950 + n % 75, "tmdb_id": 10_000 + n}
    elif item_type in ("video", "link"):
        host = "www.youtube.com/watch?v=" if item_type == "video" else "example.com/article/"
        fields = {"url": f"https://{host}{n}"}
    elif item_type == "note":
        fields = {"content": f"note number {n}: buy milk and call Ana about the trip"}
    return ItemDoc(
        _id=f"bench-item-{n}",
        user_id=USER,
        seq=n,
        type=item_type,  # type: ignore[arg-type]
        dedup_key=f"bench:{n}",
        created_at_ms=now_ms,
        updated_at_ms=now_ms,
        **fields,
    ).to_doc()


async def seed(db: Database, now_ms: int) -> None:
    await db.users.ensure(USER, language="pt", timezone="America/Sao_Paulo", now_ms=now_ms)
    docs = []
    for item_type, count in ITEMS_BY_TYPE.items():
        docs += [item(len(docs) + k + 1, item_type, now_ms) for k in range(count)]
    raw = db.client[db.name]
    await raw["items"].insert_many(docs)
    await raw["users"].update_one({"_id": USER}, {"$set": {"item_seq": len(docs)}})
    await db.users.set_counts(USER, dict(ITEMS_BY_TYPE))
    for start in range(0, MESSAGES, 500):
        batch = [
            NewMessage(
                role="human" if k % 2 == 0 else "ai",
                content=f"message {k}: salva o filme number {k}",
                meta_json='{"state": "OK", "score": 100}' if k % 2 else None,
            )
            for k in range(start, start + 500)
        ]
        await db.messages.append(USER, USER, batch, now_ms=now_ms)


async def ping_ms(db: Database) -> float:
    """The floor under every round trip on this machine: p50 of a bare `ping`."""
    samples = []
    for _ in range(300):
        started = time.perf_counter()
        await db.ping()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1e3


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


async def run(rounds: int, warmup: int) -> None:
    with tempfile.TemporaryDirectory(prefix="lembra-bench-") as data_dir:
        settings = load_settings(
            _env_file=None,
            data_dir=Path(data_dir),
            mongodb_uri=None,
            openai_api_key=None,
            openai_base_url=None,
            tmdb_base_url="http://127.0.0.1:9/3",  # never called by these turns
            log_level="WARNING",
        )
        async with open_deps(settings) as deps:
            runtime = Runtime(deps)
            await seed(deps.db, deps.clock.ms())
            ping = await ping_ms(deps.db)
            trips = RoundTrips()
            trips.install()
            samples: dict[str, list[float]] = {kind: [] for kind in TURNS}
            per_turn: dict[str, Counter[str]] = {kind: Counter() for kind in TURNS}
            db_seconds: dict[str, defaultdict[str, float]] = {
                kind: defaultdict(float) for kind in TURNS
            }
            for n in range(warmup + rounds):
                for kind, message in TURNS.items():
                    if kind in AFTER_A_CHANGE:
                        await deps.db.users.items_changed(USER)  # as an edit does
                    trips.reset()
                    incoming = Incoming(
                        channel="console", chat_id="bench", user_id=USER, text=message
                    )
                    started = time.perf_counter()
                    reply = await runtime.handle(incoming)
                    elapsed = time.perf_counter() - started
                    assert reply.meta.llm_calls == 0, reply
                    if n < warmup:
                        continue
                    samples[kind].append(elapsed)
                    per_turn[kind].update(trips.calls)
                    for key, seconds in trips.seconds.items():
                        db_seconds[kind][key] += seconds
            report(rounds, samples, per_turn, db_seconds)
            print(
                f"\nbaseline: one `ping` round trip to this server takes {ping:.2f} ms (p50 of 300)"
            )
            total = await deps.db.messages.last_seq(USER, USER)
            kept = len(await deps.db.items.list_for(USER))
            print(f"\nthe conversation ended with {total} messages; items still there: {kept}")


def report(
    rounds: int,
    samples: dict[str, list[float]],
    per_turn: dict[str, Counter[str]],
    db_seconds: dict[str, defaultdict[str, float]],
) -> None:
    print(
        f"Runtime.handle() on the file-backed embedded database, one user with "
        f"{sum(ITEMS_BY_TYPE.values())} items and {MESSAGES} messages, {rounds} turns each "
        f"(goal: p50 <= 2 ms, p99 <= 10 ms)\n"
    )
    print(
        f"{'turn':<20} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'trips':>6} {'in db ms':>9} "
        f"{'outside db ms':>14}"
    )
    for kind, times in samples.items():
        trips = sum(per_turn[kind].values()) / rounds
        in_db = sum(db_seconds[kind].values()) / rounds * 1e3
        print(
            f"{kind:<20} {percentile(times, 0.5) * 1e3:>8.2f} {percentile(times, 0.99) * 1e3:>8.2f} "
            f"{statistics.fmean(times) * 1e3:>8.2f} {trips:>6.1f} {in_db:>9.2f} "
            f"{statistics.fmean(times) * 1e3 - in_db:>14.2f}"
        )
    print("\nround trips per turn (collection.operation: calls, mean ms per call)")
    for kind in samples:
        parts = [
            f"{key}: {calls / rounds:g} ({db_seconds[kind][key] / calls * 1e3:.2f})"
            for key, calls in sorted(per_turn[kind].items())
        ]
        print(f"  {kind}: " + ", ".join(parts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="measured turns of each kind")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured rounds first")
    args = parser.parse_args()
    asyncio.run(run(args.rounds, args.warmup))


if __name__ == "__main__":
    main()
