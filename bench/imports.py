"""Imports under load (issue 46): the event loop while a large file is read, and the "sim".

Through `Runtime.handle()` on the file-backed embedded database, as `make run` uses it:

- a 1.5 MB .csv sent to `/import` (about 30,000 rows: far over the item limit), and a
  2 MB .txt of short lines; a ticker beside the turn sleeps 1 ms at a time and keeps the
  longest it waited beyond that: the worst event-loop stall any other chat (or /healthz)
  would have felt while the file was read;
- `/import` of the most items an import takes (a .txt of `MAX_ENTRIES` distinct lines),
  then "sim": how long the save takes, its worst stall, and its database round trips.

Printed: seconds per turn, worst stall (ms), round trips. Goals (issue 46): no stall over
100 ms from any single input.

Run: `.venv/bin/python bench/imports.py [--rounds N]`. It is not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.importing import MAX_ENTRIES  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.types import Document, Incoming  # noqa: E402
from bench.deterministic import RoundTrips  # noqa: E402
from bench.scale import Ticker  # noqa: E402
from config.settings import load_settings  # noqa: E402

USER = "tg:46000"


def big_csv(target_bytes: int) -> bytes:
    rows, size, n = ["titulo;link;nota"], 0, 0
    while size < target_bytes:
        row = f"Filme número {n};https://example.com/filmes/{n};visto em {n % 28 + 1}/03"
        rows.append(row)
        size += len(row.encode()) + 1
        n += 1
    return ("\n".join(rows) + "\n").encode()


def many_lines(count: int, *, width: int = 40) -> bytes:
    return "\n".join(f"nota {n:06d} " + "x" * width for n in range(count)).encode()


def document(name: str, data: bytes) -> Incoming:
    async def fetch(limit: int) -> bytes:
        return data

    return Incoming(
        channel="telegram",
        chat_id=USER.split(":")[1],
        user_id=USER,
        text=f"/import {name}",
        update_id=f"tg:{time.monotonic_ns()}",
        document=Document(file_name=name, mime_type="", fetch=fetch, size=len(data)),
    )


def said(text: str) -> Incoming:
    return Incoming(
        channel="telegram",
        chat_id=USER.split(":")[1],
        user_id=USER,
        text=text,
        update_id=f"tg:{time.monotonic_ns()}",
    )


async def timed(runtime: Runtime, incoming: Incoming, ticker: Ticker) -> tuple[float, float, str]:
    ticker.reset()
    started = time.perf_counter()
    reply = await runtime.handle(incoming)
    return time.perf_counter() - started, ticker.longest * 1e3, reply.text.split("\n")[0][:70]


async def run(rounds: int, *, freeze: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="lembra-bench-imports-") as data_dir:
        settings = load_settings(
            _env_file=None,
            data_dir=Path(data_dir),
            mongodb_uri=None,
            openai_api_key=None,
            openai_base_url=None,
            tmdb_base_url="http://127.0.0.1:9/3",
            tmdb_api_key=None,
        )
        trips = RoundTrips()
        trips.install()
        async with open_deps(settings) as deps:
            runtime = Runtime(deps)
            await runtime.handle(said("oi"))
            if freeze:  # what `lembra serve` does once started (bot/web/app.py)
                gc.freeze()
            files = {
                "1.5 MB .csv": ("lista.csv", big_csv(1_500_000)),
                "2 MB .txt": ("notas.txt", many_lines(40_000, width=8)),
            }
            print(f"{'turn':<34}{'seconds':>9}{'worst stall ms':>16}  reply")
            async with Ticker() as ticker:
                await asyncio.sleep(1.0)  # the machine's own noise: no turn at all
                print(
                    f"{'(idle, 1 s: the noise floor)':<34}{1.0:>9.2f}{ticker.longest * 1e3:>16.1f}"
                )
                for label, (name, data) in files.items():
                    cold = await timed(runtime, document(name, data), ticker)  # first after start
                    await runtime.handle(said("não"))
                    print(f"{label + ' (first)':<34}{cold[0]:>9.2f}{cold[1]:>16.1f}  {cold[2]}")
                    results = [
                        await timed(runtime, document(name, data), ticker) for _ in range(rounds)
                    ]
                    await runtime.handle(said("não"))
                    seconds = statistics.median(r[0] for r in results)
                    stall = max(r[1] for r in results)
                    print(f"{label:<34}{seconds:>9.2f}{stall:>16.1f}  {results[-1][2]}")
                for n in range(rounds):
                    data = many_lines(MAX_ENTRIES, width=20).replace(b"nota", f"r{n}".encode())
                    preview = await timed(runtime, document("notas.txt", data), ticker)
                    print(
                        f"{f'/import {MAX_ENTRIES} items (preview)':<34}{preview[0]:>9.2f}{preview[1]:>16.1f}  {preview[2]}"
                    )
                    trips.calls.clear()
                    saved = await timed(runtime, said("sim"), ticker)
                    print(f"{'  sim':<34}{saved[0]:>9.2f}{saved[1]:>16.1f}  {saved[2]}")
                    print(f"{'  round trips of the sim':<34}{sum(trips.calls.values()):>9}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--no-freeze", action="store_true", help="leave start-up objects to the collector"
    )
    args = parser.parse_args()
    asyncio.run(run(args.rounds, freeze=not args.no_freeze))


if __name__ == "__main__":
    main()
