"""Turns at 1,000 to 50,000 items, with and without the word index (issue 35).

One user's items grow from 1,000 to 10,000 and 50,000 (and 100,000 with `--big`), each
thousand in `bench/deterministic.py`'s mix (400 notes, 300 movies, 100 TV shows, 100 videos,
100 links, numbered as it numbers them), on the file-backed embedded database as `make run`
uses it. The new thousands are stored whole and indexed by the start-up catch-up, timed.
At each size every turn goes through `Runtime.handle()`:

- search "procura Title 777", typo search "procura Titel 777", delete by name "apaga o
  Title 779" (the preview; "cancela" after it, not timed), list by type "lista meus
  filmes", list all "lista tudo", save "anota: ..." (a new note each time), and save
  again (the same note every time: the duplicate check);

first with the word index ("index"), then as before it ("full scan": search and delete
by name read every item of the user and score each on the event loop, as
`agent/tools/finding.py` did before issue 35; the bench swaps that code back in). A ticker beside every turn sleeps
1 ms at a time; the longest it waited beyond that is the turn's worst event-loop stall.
Printed: p50 per turn and size, the worst stall, and the ratio of the largest size to
1,000 items per turn. Goals (issue 35, at 50,000 items, with the index): search and
delete by name p50 <= 20 ms and <= 2x the 1,000-item figure; the worst stall during a
search <= 50 ms.

Bulk work (issue 47), at each size, on the same user:

- the start-up catch-up runs beside the turns (as `serve` runs it now): search and delete
  by name during it, their p50 and worst stall, and whether their replies are the same as
  after it (they must be);
- `/export` (JSON): the reply ("preparando seu arquivo..." from 1,000 items), the file done
  (its follow-up), the worst stall and the growth of the process's resident memory;
- "apaga tudo" + "sim": both replies, then the work finishing off the turn, the worst stall
  and memory; then the kept copy put back (`inverses.restore_kept`, as undo does), timed;
- with `--serve-probe`, `lembra serve` started on a data directory holding that many
  unindexed items: seconds until `/healthz` answers.

Goals (issue 47, at 50,000 items): "apaga tudo" + "sim" <= 2 s and <= 3x the 1,000-item
figure; export <= 5 s with memory growth <= 50 MB; no stall over 50 ms from any of them;
`/healthz` within 5 s of start with 50,000 unindexed items; the same search results during
the catch-up as after it.

Then (issue 44) a tenth of the movies is marked seen (`--seen`, 0 skips it) and the lists
that read by state are measured: "lista meus filmes" (the unseen first), "lista tudo",
"o que falta ver?", "filmes que eu já vi" and a mark ("já vi o Title N"); the marks are
undone before the next size, so the turns above always measure a user who never marked.

Run: `.venv/bin/python bench/scale.py [--rounds N] [--scan-rounds N] [--bulk-rounds N]
[--sizes 1,10,50] [--serve-probe] [--big] [--seen S]`. It is not a test: it takes minutes (indexing 50,000 items is most of it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.tools import finding  # noqa: E402
from agent.trust.inverses import restore_kept  # noqa: E402
from agent.types import Incoming  # noqa: E402
from bench.deterministic import ITEMS_BY_TYPE, USER, RoundTrips, item, ping_ms  # noqa: E402
from bot.cli.main import keep_start_up_out_of_collections  # noqa: E402
from config.settings import load_settings  # noqa: E402
from storage import Database  # noqa: E402
from storage.documents import ItemDoc, ItemType, done_key_of  # noqa: E402

BLOCK = sum(ITEMS_BY_TYPE.values())  # 1,000: the deterministic bench's mix, repeated
TURNS = {
    "search": "procura Title 777",
    "typo search": "procura Titel 777",
    "delete by name": "apaga o Title 779",
    "list by type": "lista meus filmes",
    "list all": "lista tudo",
    "save": "anota: comprar pão {n}",
    "save again": "anota: comprar pão de novo",  # the duplicate check: a dedup key read
}
AFTER = {"delete by name": "cancela"}  # clears the confirmation the preview left
# issue 44: with a share of the movies seen (the `--seen` pass), the typed list reads the
# unseen first and the seen after; "what's left" and "seen" lists read by state
SEEN_TURNS = {
    "list by type": "lista meus filmes",
    "list all": "lista tudo",
    "whats left": "o que falta ver?",
    "seen movies": "filmes que eu já vi",
    "mark": "já vi o Title {n}",
}
EXPECT = {
    "search": "Title 777",
    "typo search": "Title 777",
    "delete by name": "Title 779",
}
GOAL_TURNS = ("search", "delete by name")


@dataclass
class Measured:
    """One size, one mode: per turn, its durations and the longest stall beside it."""

    times: dict[str, list[float]] = field(
        default_factory=lambda: {k: [] for k in {**TURNS, **SEEN_TURNS}}
    )
    stalls: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys({**TURNS, **SEEN_TURNS}, 0.0)
    )
    trips: dict[str, Counter[str]] = field(
        default_factory=lambda: {k: Counter() for k in {**TURNS, **SEEN_TURNS}}
    )
    trip_s: dict[str, Counter[str]] = field(
        default_factory=lambda: {k: Counter() for k in {**TURNS, **SEEN_TURNS}}
    )
    db_s: dict[str, float] = field(
        default_factory=lambda: dict.fromkeys({**TURNS, **SEEN_TURNS}, 0.0)
    )
    ping_ms: float = 0.0  # a bare round trip's p50 just before: this machine's floor then
    kinds: dict[str, str] = field(default_factory=lambda: dict(TURNS))

    def p50_ms(self, kind: str) -> float:
        return statistics.median(self.times[kind]) * 1e3


def rss_mb() -> float:
    """The process's resident memory now, in MB (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


class Ticker:
    """Sleeps 1 ms at a time beside the turns; keeps the longest extra wait and the most memory."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.rss_peak = 0.0
        self._task: asyncio.Task[None] | None = None
        self._running = False

    async def __aenter__(self) -> Ticker:
        self._running = True
        self._task = asyncio.create_task(self._tick())
        await asyncio.sleep(0.005)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._running = False
        if self._task is not None:
            await self._task

    async def _tick(self) -> None:
        ticks = 0
        while self._running:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            self.longest = max(self.longest, time.perf_counter() - before - 0.001)
            ticks += 1
            if ticks % 20 == 0:
                self.rss_peak = max(self.rss_peak, rss_mb())

    def reset(self) -> None:
        self.longest = 0.0

    async def reset_memory(self) -> float:
        """Start watching memory growth; the resident memory now (the baseline).

        The collection that settles memory first holds the loop: it is over before the
        ticker's longest wait is reset.
        """
        gc.collect()
        await asyncio.sleep(0.01)
        self.rss_peak = now = rss_mb()
        return now


async def store(db: Database, have: int, want: int, now_ms: int) -> float:
    """Store items `have+1`..`want` whole, as a database from before the index has them.

    Returns the seconds it took; the word index is then out of date.
    """
    started = time.perf_counter()
    raw = db.client[db.name]["items"]
    for block in range(have // BLOCK, want // BLOCK):
        docs: list[dict[str, Any]] = []
        for item_type, count in ITEMS_BY_TYPE.items():
            docs += [
                item(block * BLOCK + len(docs) + k + 1, item_type, now_ms) for k in range(count)
            ]
        await raw.insert_many(docs)
    stored = time.perf_counter() - started
    await db.users.set_counts(USER, {t: c * want // BLOCK for t, c in ITEMS_BY_TYPE.items()})
    await db.users.update(USER, {"item_seq": want})
    await db.word_index.mark_stale()
    return stored


DURING = {"search": TURNS["search"], "delete by name": TURNS["delete by name"]}


@dataclass
class CatchUp:
    """The catch-up run beside the turns: how long it took, and the turns during it."""

    seconds: float = 0.0
    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in DURING})
    stall: float = 0.0
    identical: bool = True
    turns: int = 0


async def _reply_text(runtime: Runtime, text: str) -> tuple[str, float]:
    started = time.perf_counter()
    reply = await runtime.handle(incoming(text))
    elapsed = time.perf_counter() - started
    if text == TURNS["delete by name"]:  # its preview waits for a "sim": cleared
        await runtime.handle(incoming(AFTER["delete by name"]))
    return reply.text, elapsed


def incoming(text: str) -> Incoming:
    return Incoming(channel="console", chat_id="bench", user_id=USER, text=text)


async def catch_up_beside_turns(
    runtime: Runtime, db: Database, ticker: Ticker, most: int
) -> CatchUp:
    """The catch-up as `serve` runs it; searches and deletes by name during it, then after."""
    out = CatchUp()
    assert await db.items.prepare_index()
    started = time.perf_counter()
    task = asyncio.create_task(db.catch_up_index())
    during: list[dict[str, str]] = []
    ticker.reset()
    while not task.done() and len(during) < most:
        said = {}
        for kind, text in DURING.items():
            said[kind], elapsed = await _reply_text(runtime, text)
            out.times[kind].append(elapsed)
        during.append(said)
    out.stall = ticker.longest
    await task
    out.seconds = time.perf_counter() - started
    after = {kind: (await _reply_text(runtime, text))[0] for kind, text in DURING.items()}
    out.identical = all(said == after for said in during)
    out.turns = len(during)
    assert EXPECT["search"] in after["search"], after
    return out


async def _every_item(db: Database, user_id: str, item_type: ItemType | None) -> list[ItemDoc]:
    """`items.list_for` as it was: one unbounded read, every document checked on the loop."""
    flt: dict[str, Any] = {"user_id": user_id}
    if item_type is not None:
        flt["type"] = item_type
    docs = await db.client[db.name]["items"].find(flt).sort("seq", 1).to_list(None)
    return [ItemDoc.model_validate(d) for d in docs]


async def _scan_find_items(
    db: Database,
    user_id: str,
    query: str,
    *,
    item_type: ItemType | None = None,
    type_counts: Mapping[str, int] | None = None,
) -> list[ItemDoc]:
    return finding._matching(await _every_item(db, user_id, item_type), query)


async def _scan_find_named(
    db: Database,
    user_id: str,
    query: str,
    cutoff: float,
    *,
    type_counts: Mapping[str, int] | None = None,
) -> list[tuple[float, ItemDoc]]:
    return finding.rank(await _every_item(db, user_id, None), query, cutoff)


@contextmanager
def full_scan() -> Iterator[None]:
    """Search and delete by name as before the index: every item read and scored on the loop."""
    kept = finding.find_items, finding.find_named
    finding.find_items, finding.find_named = _scan_find_items, _scan_find_named  # type: ignore[assignment]
    try:
        yield
    finally:
        finding.find_items, finding.find_named = kept  # type: ignore[assignment]


async def measure(
    runtime: Runtime,
    ticker: Ticker,
    trips: RoundTrips,
    rounds: int,
    warmup: int,
    kinds: tuple[str, ...],
    *,
    turns: dict[str, str] = TURNS,
    titles: list[int] | None = None,
) -> Measured:
    out = Measured()
    saved = 0
    for n in range(warmup + rounds):
        for kind in kinds:
            saved += kind == "save"
            if kind == "mark" and titles:  # a movie not seen yet each time
                text = turns[kind].format(n=titles.pop())
            else:
                text = turns[kind].format(n=f"{time.monotonic_ns()}-{saved}")
            incoming = Incoming(channel="console", chat_id="bench", user_id=USER, text=text)
            ticker.reset()
            trips.reset()
            started = time.perf_counter()
            reply = await runtime.handle(incoming)
            elapsed = time.perf_counter() - started
            calls, db_s = Counter(trips.calls), sum(trips.seconds.values())
            spent = Counter(dict(trips.seconds))
            assert reply.meta.llm_calls == 0, reply
            if kind in EXPECT:
                assert EXPECT[kind] in reply.text, (kind, reply.text)
            if kind in AFTER:
                await runtime.handle(
                    Incoming(channel="console", chat_id="bench", user_id=USER, text=AFTER[kind])
                )
            if n >= warmup:
                out.times[kind].append(elapsed)
                out.stalls[kind] = max(out.stalls[kind], ticker.longest)
                out.trips[kind].update(calls)
                out.trip_s[kind].update(spent)
                out.db_s[kind] += db_s
    return out


@dataclass
class Bulk:
    """One size's bulk turns, a list of figures per round."""

    export_reply: list[float] = field(default_factory=list)
    export_done: list[float] = field(default_factory=list)
    export_stall: float = 0.0
    export_mb: list[float] = field(default_factory=list)
    delete_replies: list[float] = field(default_factory=list)  # "apaga tudo" + "sim"
    delete_done: list[float] = field(default_factory=list)  # ... and the work off the turn
    delete_stall: float = 0.0
    delete_mb: list[float] = field(default_factory=list)
    restore_s: list[float] = field(default_factory=list)
    restore_stall: float = 0.0
    export_traced_mb: float = 0.0  # Python allocations at their peak during one more export


async def traced_export(runtime: Runtime) -> float:
    """The most memory Python held for one `/export`, beyond what it held before, in MB.

    Resident memory rarely grows once the allocator holds freed pages, so this says what
    the export itself allocates (tracemalloc slows it: its time is not reported).
    """
    gc.collect()
    tracemalloc.start()
    try:
        base, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        reply = await runtime.handle(incoming("/export"))
        if reply.follow_up is not None:
            reply = await reply.follow_up(None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reply.attachment is not None
    if reply.attachment.path is not None:
        reply.attachment.path.unlink()
    return (peak - base) / 1e6


async def bulk_turns(runtime: Runtime, ticker: Ticker, rounds: int) -> Bulk:
    deps, out = runtime.deps, Bulk()
    out.export_traced_mb = await traced_export(runtime)
    for _ in range(rounds):
        base = await ticker.reset_memory()
        ticker.reset()
        started = time.perf_counter()
        reply = await runtime.handle(incoming("/export"))
        out.export_reply.append(time.perf_counter() - started)
        if reply.follow_up is not None:
            reply = await reply.follow_up(None)
        out.export_done.append(time.perf_counter() - started)
        out.export_stall = max(out.export_stall, ticker.longest)
        out.export_mb.append(ticker.rss_peak - base)
        assert reply.attachment is not None, reply.text
        if reply.attachment.path is not None:
            reply.attachment.path.unlink()
        del reply

        base = await ticker.reset_memory()
        ticker.reset()
        started = time.perf_counter()
        preview = await runtime.handle(incoming("apaga tudo"))
        assert preview.choice_kind == "confirm", preview.text
        done = await runtime.handle(incoming("sim"))
        assert "Apaguei" in done.text, done.text
        out.delete_replies.append(time.perf_counter() - started)
        await deps.inflight.settle(USER)
        out.delete_done.append(time.perf_counter() - started)
        out.delete_stall = max(out.delete_stall, ticker.longest)
        out.delete_mb.append(ticker.rss_peak - base)
        assert await deps.db.items.list_for(USER, limit=1) == []

        events = await deps.db.ledger.events(USER)
        batch = str([e for e in events if e.type == "all_deleted"][-1].payload["snapshot"])
        ticker.reset()
        started = time.perf_counter()
        await restore_kept(deps, USER, batch, now_ms=deps.clock.ms())
        out.restore_s.append(time.perf_counter() - started)
        out.restore_stall = max(out.restore_stall, ticker.longest)
    return out


async def mark_seen(db: Database, size: int, share: float, now_ms: int) -> list[int]:
    """Mark `share` of the movies seen as marking does (state, done_key, the user's hint);
    return the numbers of movies left unseen (for the `mark` turns)."""
    raw = db.client[db.name]["items"]
    movies = [n for n in range(1, size + 1) if _type_of(n) == "movie"]
    step = max(1, round(1 / share)) if share > 0 else 0
    seen = {f"bench-item-{n}" for n in movies[::step]} if step else set()
    key = done_key_of(USER, "movie")
    for ids in _chunks(sorted(seen), 1_000):
        await raw.update_many(
            {"_id": {"$in": ids}},
            {"$set": {"state": "seen", "state_at_ms": now_ms, "done_key": key}},
        )
    await db.users.item_marked(USER, "movie")
    return [n for n in movies if f"bench-item-{n}" not in seen]


async def unmark(db: Database) -> None:
    """Every movie back to unseen and the user's hint cleared: the next size measures the
    lists as a user who never marked anything."""
    raw = db.client[db.name]
    await raw["items"].update_many(
        {"done_key": done_key_of(USER, "movie")},
        {"$set": {"state": None, "state_at_ms": None, "done_key": None}},
    )
    await raw["users"].update_one({"_id": USER}, {"$set": {"marked": {}}, "$inc": {"items_v": 1}})


def _type_of(n: int) -> str:
    """The type `grow` gave item number `n` (the deterministic bench's mix, a block at a time)."""
    position = (n - 1) % BLOCK
    for item_type, count in ITEMS_BY_TYPE.items():
        if position < count:
            return item_type
        position -= count
    raise AssertionError(n)


def _chunks(values: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


async def run(
    sizes: list[int],
    rounds: int,
    scan_rounds: int,
    warmup: int,
    bulk_rounds: int,
    seen_share: float = 0.1,
) -> None:
    with tempfile.TemporaryDirectory(prefix="lembra-scale-") as data_dir:
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
            db = deps.db
            now_ms = deps.clock.ms()
            await db.users.ensure(USER, language="pt", timezone="America/Sao_Paulo", now_ms=now_ms)
            for text in ("procura nada", "apaga o nada", "cancela", "lista tudo", "/export"):
                await runtime.handle(incoming(text))  # first turns load what turns use
            keep_start_up_out_of_collections()  # as `lembra serve` does once started
            index: dict[int, Measured] = {}
            scan: dict[int, Measured] = {}
            caught: dict[int, CatchUp] = {}
            bulk: dict[int, Bulk] = {}
            seen: dict[int, Measured] = {}
            have = 0
            trips = RoundTrips()
            trips.install()
            async with Ticker() as ticker:
                for size in sizes:
                    stored = await store(db, have, size, now_ms)
                    caught[size] = await catch_up_beside_turns(runtime, db, ticker, most=rounds)
                    print(
                        f"{size:>7,} items: {size - have:,} more stored in {stored:.1f} s and "
                        f"indexed by the catch-up beside {caught[size].turns} rounds of turns "
                        f"in {caught[size].seconds:.1f} s",
                        flush=True,
                    )
                    have = size
                    gc.collect()
                    floor = await ping_ms(db)
                    index[size] = await measure(
                        runtime, ticker, trips, rounds, warmup, tuple(TURNS)
                    )
                    index[size].ping_ms = floor
                    scan[size] = Measured()
                    if scan_rounds:
                        with full_scan():
                            scan[size] = await measure(
                                runtime,
                                ticker,
                                trips,
                                scan_rounds,
                                1,
                                ("search", "typo search", "delete by name"),
                            )
                    if seen_share > 0:  # issue 44: the same lists with some movies seen
                        left = await mark_seen(db, size, seen_share, now_ms)
                        seen[size] = await measure(
                            runtime,
                            ticker,
                            trips,
                            rounds,
                            warmup,
                            tuple(SEEN_TURNS),
                            turns=SEEN_TURNS,
                            titles=left,
                        )
                        await unmark(db)
                    bulk[size] = await bulk_turns(runtime, ticker, bulk_rounds)
                    print(f"{size:>7,} items: bulk turns done", flush=True)
            report(sizes, index, scan, rounds, scan_rounds)
            if seen:
                report_seen(sizes, seen, seen_share)
            report_bulk(sizes, caught, bulk, bulk_rounds)


def report(
    sizes: list[int],
    index: dict[int, Measured],
    scan: dict[int, Measured],
    rounds: int,
    scan_rounds: int,
) -> None:
    print(
        f"\nRuntime.handle() p50 in ms, one user, file-backed embedded database "
        f"({rounds} turns each with the index, {scan_rounds} with a full scan)\n"
    )
    head = f"{'items':>8} {'mode':<10}" + "".join(f" {k:>15}" for k in TURNS)
    print(head)
    for size in sizes:
        for mode, table in (("index", index), ("full scan", scan)):
            cells = [
                f"{table[size].p50_ms(k):>15.1f}" if table[size].times[k] else f"{'-':>15}"
                for k in TURNS
            ]
            print(f"{size:>8,} {mode:<10}" + "".join(f" {c}" for c in cells))
    print(
        "\na bare round trip (`ping`, p50 of 300) just before each size's turns: "
        + ", ".join(f"{size:,} items {index[size].ping_ms:.2f} ms" for size in sizes)
    )
    print("\nworst event-loop stall beside a turn, ms (a 1 ms ticker's longest extra wait)")
    print(head)
    for size in sizes:
        for mode, table in (("index", index), ("full scan", scan)):
            cells = [
                f"{table[size].stalls[k] * 1e3:>15.1f}" if table[size].times[k] else f"{'-':>15}"
                for k in TURNS
            ]
            print(f"{size:>8,} {mode:<10}" + "".join(f" {c}" for c in cells))
    top, base = sizes[-1], sizes[0]
    print(
        f"\nround trips per turn at {top:,} items with the index: ms in the database; "
        "collection.operation calls (mean ms a call)"
    )
    for kind in TURNS:
        per = index[top].trips[kind]
        spent = index[top].trip_s[kind]
        parts = ", ".join(
            f"{k} {v / rounds:g} ({spent[k] / v * 1e3:.2f})" for k, v in sorted(per.items())
        )
        print(f"  {kind}: {index[top].db_s[kind] / rounds * 1e3:.1f} ms; {parts}")
    print(f"\nratio of p50 at {top:,} to {base:,} items, with the index")
    print(" ".join(f"{k}: {index[top].p50_ms(k) / index[base].p50_ms(k):.2f}x" for k in TURNS))
    print(f"\ngoals at {top:,} items with the index:")
    for kind in GOAL_TURNS:
        p50, p50_base = index[top].p50_ms(kind), index[base].p50_ms(kind)
        ok = p50 <= 20 and p50 <= 2 * p50_base
        print(
            f"  {kind}: p50 {p50:.1f} ms (<= 20), {p50 / p50_base:.2f}x the {base:,}-item "
            f"figure (<= 2x): {'met' if ok else 'NOT met'}"
        )
    stall = max(index[top].stalls[k] for k in ("search", "typo search")) * 1e3
    print(
        f"  worst stall during a search: {stall:.1f} ms (<= 50): {'met' if stall <= 50 else 'NOT met'}"
    )


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1e3:,.0f}" if values else "-"


def report_bulk(
    sizes: list[int], caught: dict[int, CatchUp], bulk: dict[int, Bulk], rounds: int
) -> None:
    print("\nthe catch-up beside the turns (as `serve` runs it): p50 ms during it, worst stall")
    print(
        f"{'items':>8} {'catch-up s':>10} {'rounds':>6} {'search':>8} {'by name':>8} "
        f"{'stall ms':>8} {'same replies as after':>22}"
    )
    for size in sizes:
        c = caught[size]
        print(
            f"{size:>8,} {c.seconds:>10.1f} {c.turns:>6} {_ms(c.times['search']):>8} "
            f"{_ms(c.times['delete by name']):>8} {c.stall * 1e3:>8.1f} "
            f"{'yes' if c.identical else 'NO':>22}"
        )
    print(f"\nbulk turns, p50 of {rounds} (ms), worst stall (ms), memory growth p50 (MB)")
    print(
        f"{'items':>8} {'export reply':>12} {'export done':>11} {'stall':>6} {'MB':>5} "
        f"{'apaga+sim':>9} {'done':>6} {'stall':>6} {'MB':>5} {'restore':>8} {'stall':>6}"
    )
    for size in sizes:
        b = bulk[size]
        print(
            f"{size:>8,} {_ms(b.export_reply):>12} {_ms(b.export_done):>11} "
            f"{b.export_stall * 1e3:>6.1f} {statistics.median(b.export_mb):>5.1f} "
            f"{_ms(b.delete_replies):>9} {_ms(b.delete_done):>6} {b.delete_stall * 1e3:>6.1f} "
            f"{statistics.median(b.delete_mb):>5.1f} {_ms(b.restore_s):>8} "
            f"{b.restore_stall * 1e3:>6.1f}"
        )
    print(
        "export, Python allocations at their peak (tracemalloc, one more export): "
        + ", ".join(f"{size:,} items {bulk[size].export_traced_mb:.1f} MB" for size in sizes)
    )
    top, base = sizes[-1], sizes[0]
    b, b0 = bulk[top], bulk[base]
    replies = statistics.median(b.delete_replies)
    ratio = replies / statistics.median(b0.delete_replies)
    export_s = statistics.median(b.export_done)
    export_mb = max(statistics.median(b.export_mb), b.export_traced_mb)
    stall = max(b.export_stall, b.delete_stall, caught[top].stall) * 1e3
    print(f"\ngoals at {top:,} items:")
    print(
        f'  "apaga tudo" + "sim": {replies:.2f} s (<= 2), {ratio:.2f}x the {base:,}-item '
        f"figure (<= 3x): {'met' if replies <= 2 and ratio <= 3 else 'NOT met'}"
    )
    print(
        f"  export: {export_s:.2f} s (<= 5) with {export_mb:.1f} MB more, the larger of resident "
        f"and traced (<= 50): "
        f"{'met' if export_s <= 5 and export_mb <= 50 else 'NOT met'}"
    )
    print(f"  worst stall from them: {stall:.1f} ms (<= 50): {'met' if stall <= 50 else 'NOT met'}")
    same = all(c.identical for c in caught.values())
    print(f"  search during the catch-up as after it: {'met' if same else 'NOT met'}")


async def serve_probe(size: int) -> None:
    """`lembra serve` on a data directory holding `size` unindexed items: seconds to /healthz."""
    import aiohttp

    from storage.embedded import free_port

    with tempfile.TemporaryDirectory(prefix="lembra-serve-") as data_dir:
        settings = load_settings(
            _env_file=None, data_dir=Path(data_dir), mongodb_uri=None, log_level="WARNING"
        )
        async with open_deps(settings) as deps:
            now_ms = deps.clock.ms()
            await deps.db.users.ensure(
                USER, language="pt", timezone="America/Sao_Paulo", now_ms=now_ms
            )
            await store(deps.db, 0, size, now_ms)
        port = free_port()
        env = {
            **{k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")},
            "PYTHONPATH": str(REPO),
            "DATA_DIR": data_dir,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "LOG_LEVEL": "WARNING",
            "WHATSAPP_ACCESS_TOKEN": "bench",
            "WHATSAPP_APP_SECRET": "bench",
            "WHATSAPP_VERIFY_TOKEN": "bench",
            "WHATSAPP_PHONE_NUMBER_ID": "1",
            "WHATSAPP_API_BASE_URL": "http://127.0.0.1:9",
        }
        started = time.perf_counter()
        server = subprocess.Popen(  # noqa: ASYNC220 - the bench waits on it by polling
            [sys.executable, "-m", "bot", "serve"], env=env, stderr=subprocess.DEVNULL
        )
        answered: float | None = None
        status = ""
        try:
            async with aiohttp.ClientSession() as session:
                while time.perf_counter() - started < 120 and server.poll() is None:
                    try:
                        url = f"http://127.0.0.1:{port}/healthz"
                        async with session.get(url) as response:
                            answered = time.perf_counter() - started
                            status = f"{response.status} {(await response.json())['status']}"
                            break
                    except aiohttp.ClientError:
                        await asyncio.sleep(0.05)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
        if answered is None:
            print(f"\nserve with {size:,} unindexed items: /healthz never answered")
            return
        ok = "met" if answered <= 5 else "NOT met"
        print(
            f"\nserve with {size:,} unindexed items: /healthz answered ({status}) "
            f"{answered:.2f} s after start (<= 5): {ok}"
        )


def report_seen(sizes: list[int], seen: dict[int, Measured], share: float) -> None:
    print(
        f"\nissue 44: {share:.0%} of the movies seen, p50 ms (worst stall ms); "
        "db ms and calls a turn at the largest size"
    )
    print(f"{'items':>8}" + "".join(f" {k:>20}" for k in SEEN_TURNS))
    for size in sizes:
        cells = [
            f"{seen[size].p50_ms(k):>10.1f} ({seen[size].stalls[k] * 1e3:>5.1f})"
            for k in SEEN_TURNS
        ]
        print(f"{size:>8,}" + "".join(f" {c:>20}" for c in cells))
    top = sizes[-1]
    for kind in SEEN_TURNS:
        calls = seen[top].trips[kind]
        rounds = max(1, len(seen[top].times[kind]))
        parts = ", ".join(f"{k} {v / rounds:g}" for k, v in sorted(calls.items()))
        print(f"  {kind}: {seen[top].db_s[kind] / rounds * 1e3:.1f} ms; {parts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="measured turns of each kind")
    parser.add_argument(
        "--scan-rounds", type=int, default=3, help="measured full-scan turns (slow at 50k)"
    )
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured rounds first")
    parser.add_argument(
        "--bulk-rounds", type=int, default=3, help="export, delete-all and restore rounds"
    )
    parser.add_argument(
        "--serve-probe", action="store_true", help="also time /healthz of `lembra serve`"
    )
    parser.add_argument("--big", action="store_true", help="also 100,000 items")
    parser.add_argument(
        "--seen",
        type=float,
        default=0.1,
        help="share of movies seen in the issue-44 pass (0: skip)",
    )
    parser.add_argument(
        "--sizes", type=str, default="", help="comma-separated sizes in thousands (e.g. 1,5)"
    )
    args = parser.parse_args()
    sizes = [1_000, 10_000, 50_000] + ([100_000] if args.big else [])
    if args.sizes:
        sizes = [int(s) * BLOCK for s in args.sizes.split(",")]
    asyncio.run(run(sizes, args.rounds, args.scan_rounds, args.warmup, args.bulk_rounds, args.seen))
    if args.serve_probe:
        asyncio.run(serve_probe(sizes[-1]))


if __name__ == "__main__":
    main()
