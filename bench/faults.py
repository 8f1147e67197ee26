"""Acknowledged updates lost across three faults of a running `lembra serve` (issue 15 goals).

    .venv/bin/python bench/faults.py [--outage 60] [--chats 5] [--messages 10] [--gap 0.2]
                                     [--wait 150] [--only db_outage,server_kill9,db_kill9]

Each scenario runs a real `lembra serve` subprocess (offline planner) against the fake
Bot API (tests/support/fake_telegram.py) in this process, on loopback. Every chat
sends `--messages` saves one after the other, as Telegram does: the next update only
after the previous one was answered 200; a non-200 answer or a failed connection is
redelivered (the same update_id) after `--redeliver` seconds. Once traffic runs, one
fault is injected:

  db_outage     the database (nx-27017 on a file, behind tests/support/tcp_proxy.py)
                is cut for `--outage` seconds, then restored
  server_kill9  `lembra serve` (embedded database) is killed with SIGKILL and started
                again after a second; the embedded child survives and is reused
  db_kill9      the embedded database child is killed with SIGKILL; the supervisor in
                `lembra serve` restarts it

Printed per scenario: updates acknowledged (200), redeliveries, lost (acknowledged,
never answered by a sendMessage within `--wait` seconds after the last one was
acknowledged), duplicated (more answers than acknowledged updates in a chat) and
the time the last answer took after the last acknowledgement.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.telegram.channel import SECRET_HEADER  # noqa: E402
from storage.embedded import EmbeddedServer, free_port  # noqa: E402
from tests.support.fake_telegram import TOKEN, FakeTelegram, message_update  # noqa: E402
from tests.support.proc import lembra_env  # noqa: E402
from tests.support.tcp_proxy import TcpProxy  # noqa: E402

SECRET = "bench-faults-secret"
SCENARIOS = ("db_outage", "server_kill9", "db_kill9")
FAULT_AT_S = 1.0  # traffic runs this long before the fault


@dataclass
class Traffic:
    acked: Counter[int] = field(default_factory=Counter)
    redeliveries: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    last_ack: float = 0.0


class Serve:
    """`lembra serve` as a subprocess that can be killed and started again."""

    def __init__(self, env: dict[str, str], log: TextIO, cwd: Path) -> None:
        self.env, self.log, self.cwd = env, log, cwd
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "serve", env=self.env, cwd=self.cwd,
            stdout=self.log, stderr=self.log,
        )  # fmt: skip

    async def kill9(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout=30)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()


async def until_healthy(url: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    async with aiohttp.ClientSession() as session:
        while time.monotonic() < deadline:
            try:
                async with session.get(f"{url}/healthz") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.2)
    raise SystemExit(f"lembra serve never became healthy at {url}")


async def chat_sender(
    session: aiohttp.ClientSession, url: str, chat: int, args: argparse.Namespace, t: Traffic
) -> None:
    """Send this chat's saves in order, redelivering each until it is answered 200."""
    for n in range(args.messages):
        update = message_update(chat, f"salva uma nota: nota {chat} {n}")
        body = json.dumps(update)
        while True:
            try:
                async with session.post(
                    url,
                    data=body,
                    headers={SECRET_HEADER: SECRET, "Content-Type": "application/json"},
                ) as response:
                    status = str(response.status)
            except (aiohttp.ClientError, TimeoutError):
                status = "no answer"
            t.statuses[status] += 1
            if status == "200":
                t.acked[chat] += 1
                t.last_ack = time.monotonic()
                break
            t.redeliveries += 1
            await asyncio.sleep(args.redeliver)
        await asyncio.sleep(args.gap)


async def run_scenario(name: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    fake = await FakeTelegram().start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    data = tmp / name / "data"
    data.mkdir(parents=True)
    settings = {
        "DATA_DIR": str(data),
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "LOG_LEVEL": "WARNING",
    }
    database: EmbeddedServer | None = None
    proxy: TcpProxy | None = None
    if name == "db_outage":
        database = EmbeddedServer(data_dir=tmp / name / "db")
        proxy = await TcpProxy(await asyncio.to_thread(database.start)).start()
        settings["MONGODB_URI"] = proxy.uri
    log = (tmp / name / "serve.log").open("w")
    serve = Serve(lembra_env(settings), log, tmp / name)
    await serve.start()
    traffic = Traffic()
    try:
        await until_healthy(url)
        faults: dict[str, Callable[[], Awaitable[None]]] = {
            "db_outage": lambda: outage(proxy, args.outage),
            "server_kill9": lambda: kill_server(serve, url),
            "db_kill9": lambda: kill_database(data),
        }
        chats = [700_000_000 + c for c in range(args.chats)]
        timeout = aiohttp.ClientTimeout(total=10)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            senders = [
                chat_sender(session, f"{url}/telegram/webhook", chat, args, traffic)
                for chat in chats
            ]
            await asyncio.gather(*senders, fault_after(faults[name]))
        answered = await until_answered(fake, traffic, args.wait)
        got = {chat: len(fake.sent(chat_id=chat)) for chat in chats}
        return {
            "scenario": name,
            "updates": args.chats * args.messages,
            "acknowledged": sum(traffic.acked.values()),
            "redeliveries": traffic.redeliveries,
            "answers": dict(traffic.statuses),
            "lost": sum(max(0, traffic.acked[c] - got[c]) for c in chats),
            "duplicated": sum(max(0, got[c] - traffic.acked[c]) for c in chats),
            "last_answer_after_last_ack_s": answered,
        }
    finally:
        await serve.stop()
        log.close()
        leftover = data / "embedded.json"  # a child a killed server left behind
        if leftover.exists():
            with contextlib.suppress(OSError, ValueError, KeyError):
                os.kill(json.loads(leftover.read_text())["pid"], signal.SIGKILL)
        if proxy is not None:
            await proxy.close()
        if database is not None:
            await asyncio.to_thread(database.stop)
        await fake.close()


async def fault_after(fault: Callable[[], Awaitable[None]]) -> None:
    await asyncio.sleep(FAULT_AT_S)
    await fault()


async def outage(proxy: TcpProxy | None, seconds: float) -> None:
    assert proxy is not None
    proxy.cut()
    await asyncio.sleep(seconds)
    proxy.restore()


async def kill_server(serve: Serve, url: str) -> None:
    await serve.kill9()
    await asyncio.sleep(1.0)
    await serve.start()
    await until_healthy(url)


async def kill_database(data: Path) -> None:
    pid = json.loads((data / "embedded.json").read_text())["pid"]
    os.kill(pid, signal.SIGKILL)


async def until_answered(fake: FakeTelegram, traffic: Traffic, wait_s: float) -> float | None:
    """Seconds from the last acknowledgement to every acknowledged update answered, or None."""

    def done() -> bool:
        return all(len(fake.sent(chat_id=c)) >= n for c, n in traffic.acked.items())

    try:
        await fake.wait_for(done, timeout_s=wait_s)
    except TimeoutError:
        return None
    return round(time.monotonic() - traffic.last_ack, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outage", type=float, default=60.0, help="database outage, seconds")
    parser.add_argument("--chats", type=int, default=5)
    parser.add_argument("--messages", type=int, default=10, help="saves per chat")
    parser.add_argument("--gap", type=float, default=0.2, help="pause between a chat's saves")
    parser.add_argument("--redeliver", type=float, default=1.0, help="pause before a redelivery")
    parser.add_argument("--wait", type=float, default=150.0, help="bound on answering, seconds")
    parser.add_argument("--only", default=",".join(SCENARIOS))
    args = parser.parse_args()
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    with tempfile.TemporaryDirectory(prefix="lembra-faults-") as tmp:
        for name in args.only.split(","):
            result = asyncio.run(run_scenario(name, args, Path(tmp)))
            print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
