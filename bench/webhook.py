"""Webhook benchmark: 20,000 deterministic-intent Telegram updates from 1,000 chats.

    .venv/bin/python bench/webhook.py [--updates 20000] [--chats 1000] [--connections 40]
                                      [--saves]
                                      [--rate UPDATES_PER_S] [--memory]

Three processes on loopback, as in production where Telegram is elsewhere:
  - this process: the real web app (`bot.web.app.create_app` with the real
    `agent.conversation.runtime.Runtime`), served in process;
  - its child, the embedded database (nx-27017, on disk in a temporary DATA_DIR);
  - a driver subprocess (this file with --driver): the fake Bot API (tests/support)
    and the load generator, POSTing with at most `--connections` requests in flight
    (Telegram's default webhook max_connections is 40).

Printed figures (all measured, none adjusted):
  updates/s           updates finished (reply sent, record done) per second
                      (with --rate: the POSTs are paced, so server time has no backlog)
  server time         per update: webhook arrival -> reply sent and record `done`
  webhook answer      per request: arrival -> 200 (what Telegram waits for)
  database share      time inside storage calls / server time, summed over updates
  our code            CPU of normalize + rate limit + render + reply codec, timed alone
  app CPU             this process's CPU per update (aiohttp, PTB + httpx, pymongo, ours)
  lost / duplicated   replies missing / extra per chat, counted by the fake Bot API
  peak RSS            this process (the app), from resource.getrusage

Telegram's sending limits (30 messages/s) are off against the fake: this measures
the app, not the limiter.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Awaitable, Callable
from functools import wraps
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.replycodec import reply_to_json  # noqa: E402
from agent.types import Reply  # noqa: E402
from bot.delivery.lifecycle import Job, UpdateLifecycle  # noqa: E402
from bot.delivery.ratelimit import SlidingWindowLimiter  # noqa: E402
from bot.render import split_text  # noqa: E402
from bot.telegram.channel import SECRET_HEADER, TelegramOptions  # noqa: E402
from bot.telegram.send import keyboard  # noqa: E402
from bot.telegram.updates import normalize  # noqa: E402
from bot.web.app import WebOptions, create_app  # noqa: E402
from config.settings import Settings  # noqa: E402
from storage import StorageConfig, open_storage  # noqa: E402
from storage.collection import Collection  # noqa: E402
from tests.support.fake_telegram import TOKEN, FakeTelegram, message_update  # noqa: E402

INTENTS = ("lista", "oi", "ajuda", "cancela")
REDELIVER_AFTER_S = 1.0  # a 503 is delivered again (Telegram backs off longer)
SECRET = "bench-secret"


def make_updates(count: int, chats: int, *, saves: bool = False) -> list[dict[str, Any]]:
    """Deterministic intents, or (`saves`) notes saved by the offline planner, each distinct."""
    return [
        message_update(
            900_000_000 + n % chats,
            f"anota: lembrete numero {n}" if saves else INTENTS[n % len(INTENTS)],
            update_id=n + 1,
        )
        for n in range(count)
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# -- the driver (fake Bot API + load generator), in its own process -----------------------


async def drive(args: argparse.Namespace) -> None:
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    fake = await FakeTelegram().start()
    print(json.dumps({"fake": fake.base_url}), flush=True)
    app_url = (await asyncio.to_thread(sys.stdin.readline)).strip()
    updates = make_updates(args.updates, args.chats, saves=args.saves)
    statuses: dict[int, int] = defaultdict(int)
    pending = deque(updates)
    started = time.monotonic()
    connector = aiohttp.TCPConnector(limit=args.connections)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def post_all() -> None:
            while pending:
                update = pending.popleft()
                if args.rate:  # open loop: update n leaves at n / rate seconds
                    due = started + (update["update_id"] - 1) / args.rate
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                async with session.post(
                    app_url, data=json.dumps(update), headers={SECRET_HEADER: SECRET}
                ) as response:
                    statuses[response.status] += 1
                    if response.status == 503:  # as Telegram does: hold it, deliver it again
                        await asyncio.sleep(REDELIVER_AFTER_S)
                        pending.append(update)

        await asyncio.gather(*(post_all() for _ in range(args.connections)))
    posted = time.monotonic()
    try:
        await fake.wait_for(lambda: fake.answered["sendMessage"] >= len(updates), timeout_s=900)
    except TimeoutError:
        pass
    replied = time.monotonic()
    await asyncio.sleep(1.0)  # stragglers (duplicates, if any) would arrive now
    expected: dict[int, int] = defaultdict(int)
    for update in updates:
        expected[update["message"]["chat"]["id"]] += 1
    got: dict[int, int] = defaultdict(int)
    for call in fake.sent():
        got[call.chat_id or 0] += 1
    print(
        json.dumps(
            {
                "statuses": statuses,
                "posted_s": posted - started,
                "replied_s": replied - started,
                "lost": sum(max(0, n - got[c]) for c, n in expected.items()),
                "duplicated": sum(max(0, got[c] - expected.get(c, 0)) for c in got),
                "replies": len(fake.sent()),
            }
        ),
        flush=True,
    )
    await fake.close()


# -- the app, in this process --------------------------------------------------------------


class DatabaseClock:
    """Time spent inside storage calls (every Collection method is wrapped, bench only)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self.by_call: Counter[str] = Counter()

    def install(self) -> None:
        for name in (
            "find_one",
            "find",
            "insert_one",
            "insert_many",
            "update_one",
            "update_many",
            "find_one_and_update",
            "replace_one",
            "delete_one",
            "delete_many",
        ):
            setattr(Collection, name, self._timed(getattr(Collection, name)))

    def _timed(self, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - started
                self.calls += 1
                self.by_call[f"{args[0].name}.{method.__name__}"] += 1

        return timed


class ServerClock:
    """Per update: webhook arrival -> `process` finished (reply sent, record done)."""

    def __init__(self) -> None:
        self.arrivals: dict[str, deque[float]] = defaultdict(deque)
        self.server: list[float] = []
        self.answer: list[float] = []

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        started = time.perf_counter()
        if request.path == "/telegram/webhook":
            body = await request.read()  # cached: the handler reads it again for free
            self.arrivals[f"tg:{json.loads(body)['message']['chat']['id']}"].append(started)
        response = await handler(request)
        self.answer.append(time.perf_counter() - started)
        return response

    def install(self) -> None:
        process = UpdateLifecycle.process
        clock = self

        async def timed(self: UpdateLifecycle, job: Job, channel: Any) -> None:
            await process(self, job, channel)
            queue = clock.arrivals.get(job.incoming.conversation_id)
            if queue:  # a chat's updates finish in arrival order
                clock.server.append(time.perf_counter() - queue.popleft())

        UpdateLifecycle.process = timed  # type: ignore[method-assign]


def database_cpu_s(data_dir: Path) -> float:
    """CPU seconds (user + system) the embedded server serving `data_dir` has used so far."""
    tick = os.sysconf("SC_CLK_TCK")
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            argv = (proc / "cmdline").read_bytes()
            if b"nx_27017" not in argv or str(data_dir).encode() not in argv:
                continue
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        return (int(fields[11]) + int(fields[12])) / tick
    return float("nan")


def own_code_us_per_update(updates: list[dict[str, Any]], bot: Any) -> float:
    """CPU of the steps that are ours alone (no I/O), per update."""
    limiter = SlidingWindowLimiter(20, 60)
    reply = Reply(text="Você ainda não guardou nada.\nDiga por exemplo: salva inception")
    started = time.process_time()
    for data in updates:
        incoming = normalize(data, allow_groups=False).outcome  # from the raw JSON, as served
        limiter.hit(getattr(incoming, "user_id", ""), time.monotonic())
        split_text(reply.text, 4096)
        keyboard(reply)
        reply_to_json(reply, with_data=False)
    return (time.process_time() - started) / len(updates) * 1e6


async def run(args: argparse.Namespace) -> None:
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    driver = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--driver",
        f"--updates={args.updates}",
        f"--chats={args.chats}",
        f"--connections={args.connections}",
        f"--rate={args.rate}",
        *(["--saves"] if args.saves else []),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    data_dir = Path(tempfile.mkdtemp(prefix="lembra-bench-"))
    try:
        await measure(args, driver, data_dir)
    finally:
        if driver.returncode is None:
            driver.kill()
            await driver.wait()
        shutil.rmtree(data_dir, ignore_errors=True)


async def measure(
    args: argparse.Namespace, driver: asyncio.subprocess.Process, data_dir: Path
) -> None:
    assert driver.stdin is not None
    assert driver.stdout is not None
    fake_url = json.loads(await driver.stdout.readline())["fake"]
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        telegram_bot_token=TOKEN,
        telegram_webhook_secret=SECRET,
        telegram_api_base_url=fake_url,
        data_dir=data_dir,
        log_level="WARNING",
    )
    db_clock, server_clock = DatabaseClock(), ServerClock()
    db_clock.install()
    server_clock.install()
    storage = StorageConfig(
        uri=None, db_name="bench", data_dir=data_dir, embedded_memory=args.memory
    )
    async with open_storage(storage) as db, open_deps(settings, db=db) as deps:
        options = WebOptions(
            telegram=TelegramOptions(respect_sending_limits=False), menus=False, probes=False
        )
        app = create_app(deps, Runtime(deps).handle, options=options)
        app.middlewares.append(server_clock.middleware)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

        cpu_before, db_before = time.process_time(), db_clock.seconds
        server_cpu_before = database_cpu_s(data_dir)
        driver.stdin.write(f"http://127.0.0.1:{port}/telegram/webhook\n".encode())
        await driver.stdin.drain()
        result = json.loads(await driver.stdout.readline())
        cpu = time.process_time() - cpu_before
        server_cpu = database_cpu_s(data_dir) - server_cpu_before
        db_seconds = db_clock.seconds - db_before
        done = await db.updates.count_status("done")
        await runner.cleanup()
    await driver.wait()

    n = args.updates
    elapsed = result["replied_s"]
    server, answer = server_clock.server, server_clock.answer
    own_us = own_code_us_per_update(make_updates(min(n, 5000), args.chats), _bot(fake_url))
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ms = 1000
    pace = f"paced at {args.rate:.0f}/s" if args.rate else "as fast as they are answered"
    where = "in memory" if args.memory else "on disk"
    print(
        f"updates           {n} from {args.chats} chats, {args.connections} connections, "
        f"{pace}; embedded database {where}"
    )
    print(f"HTTP statuses     {result['statuses']}; records done {done}")
    print(
        f"updates/s         {n / elapsed:.0f} (posted in {result['posted_s']:.1f} s, "
        f"all replies after {elapsed:.1f} s)"
    )
    print(
        f"server time       p50 {percentile(server, 0.5) * ms:.1f} ms, "
        f"p99 {percentile(server, 0.99) * ms:.1f} ms (n={len(server)})"
    )
    print(
        f"webhook answer    p50 {percentile(answer, 0.5) * ms:.1f} ms, "
        f"p99 {percentile(answer, 0.99) * ms:.1f} ms"
    )
    print(
        f"database share    {db_seconds / max(sum(server), 1e-9):.0%} of server time "
        f"({db_clock.calls / n:.1f} storage calls per update, "
        f"{db_seconds / max(db_clock.calls, 1) * ms:.2f} ms each on average)"
    )
    top = ", ".join(f"{k} {v / n:.1f}" for k, v in db_clock.by_call.most_common(40))
    print(f"storage calls     per update: {top}")
    print(
        f"our code          {own_us:.0f} us CPU per update (normalize, rate limit, render, codec)"
    )
    print(
        f"app CPU           {cpu / n * ms:.2f} ms per update (this process); "
        f"database server {server_cpu / n * ms:.2f} ms per update; "
        f"total {(cpu + server_cpu) / n * ms:.2f} ms"
    )
    print(f"lost / duplicated {result['lost']} / {result['duplicated']}")
    print(f"peak RSS          {rss_mb:.0f} MB (the app process)")


def _bot(base_url: str) -> Any:
    from telegram import Bot

    return Bot(TOKEN, base_url=base_url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=20_000)
    parser.add_argument("--chats", type=int, default=1_000)
    parser.add_argument("--connections", type=int, default=40)
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="POST at this many updates/s (default: as fast as possible)",
    )
    parser.add_argument(
        "--memory", action="store_true", help="embedded database in memory instead of on disk"
    )
    parser.add_argument(
        "--saves", action="store_true", help="every update saves a note (offline planner)"
    )
    parser.add_argument("--driver", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", help="write cProfile stats of the app process here")
    args = parser.parse_args()
    if args.driver:
        asyncio.run(drive(args))
        return
    if not args.profile:
        asyncio.run(run(args))
        return
    import cProfile

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        asyncio.run(run(args))
    finally:
        profiler.disable()
        profiler.dump_stats(args.profile)


if __name__ == "__main__":
    main()
