"""Ledger gaps after kill -9 of a process in the middle of saves and deletes (issue 15, failure 2).

One nx-27017 server (file database) outlives everything. Each run starts a child
process that handles Telegram-shaped updates through `Runtime.handle()` with the
offline planner (saves, "apaga tudo", "sim"), recording each update `received`
before and `done` after, as the lifecycle does. The parent kills the child with
SIGKILL at a random moment, then re-drives the `received` updates as a restarted
worker would and audits every user as `lembra doctor` does: items without their
`item_saved` event, counters that disagree with the items, unfinished effects, and
`ledger verify`.

Goal: 0 gaps after 10 kill -9 runs.
Run: `.venv/bin/python bench/kill9_ledger.py [--runs 10] [--seed 1]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.trust.audit import audit_user  # noqa: E402
from agent.types import Incoming  # noqa: E402
from config.settings import load_settings  # noqa: E402
from storage.embedded import EmbeddedServer  # noqa: E402

USERS = 4
SCRIPT = ["salva uma nota: nota {n}", "salva uma nota: outra {n}", "apaga tudo", "sim"]


def incoming(n: int) -> tuple[Incoming, str]:
    user = n % USERS
    step = (n // USERS) % len(SCRIPT)
    text = SCRIPT[step].format(n=n)
    payload = json.dumps({"n": n})
    return (
        Incoming(
            channel="telegram",
            chat_id=str(9000 + user),
            user_id=f"tg:{9000 + user}",
            text=text,
            update_id=f"tg:{n}",
        ),
        payload,
    )


async def child(start: int, count: int) -> None:
    """Handle updates start.. until killed; print each one done."""
    async with open_deps(load_settings()) as deps:
        runtime = Runtime(deps)
        print("ready", flush=True)
        for n in range(start, start + count):
            msg, payload = incoming(n)
            await deps.db.updates.record(msg.update_id or "", payload, now_ms=deps.clock.ms())
            await runtime.handle(msg)
            await deps.db.updates.mark_done(msg.update_id or "", None, now_ms=deps.clock.ms())


async def redrive_and_audit() -> dict[str, int]:
    """Re-drive every `received` update, then audit all users."""
    async with open_deps(load_settings()) as deps:
        before = [await audit_user(deps, u) for u in await deps.db.users.all_ids()]
        runtime = Runtime(deps)
        stale = await deps.db.updates.stale(deps.clock.ms() + 1, limit=1000)
        for record in stale:
            n = int(json.loads(record.payload_json)["n"])
            msg, _ = incoming(n)
            await runtime.handle(msg)
            await deps.db.updates.mark_done(record.id, None, now_ms=deps.clock.ms())
        after = [await audit_user(deps, u) for u in await deps.db.users.all_ids()]
        broken = 0
        for stream in await deps.db.ledger.streams():
            broken += not (await deps.db.ledger.verify(stream)).ok
        return {
            "interrupted": sum(1 for a in before if not a.ok),
            "redriven": len(stale),
            "items_without_event": sum(len(a.unrecorded) for a in after),
            "counters_off": sum(len(a.counts) for a in after),
            "unfinished": sum(a.unfinished for a in after),
            "chains_broken": broken,
        }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        asyncio.run(child(args.child, 100_000))
        return
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        server = EmbeddedServer(data_dir=Path(tmp) / "db")
        uri = server.start()
        env = {
            **os.environ,
            "MONGODB_URI": uri,
            "MONGODB_DB": "kill9",
            "DATA_DIR": tmp,
            "OPENAI_API_KEY": "",
            "LOG_LEVEL": "ERROR",
        }
        os.environ.update(env)
        totals: dict[str, int] = {}
        try:
            for run in range(args.runs):
                proc = subprocess.Popen(
                    [sys.executable, __file__, "--child", str(run * 100_000)],
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                )
                assert proc.stdout is not None
                proc.stdout.readline()  # "ready"
                time.sleep(rng.uniform(0.5, 2.5))
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                figures = asyncio.run(redrive_and_audit())
                print(f"run {run + 1}: " + json.dumps(figures), flush=True)
                for key, value in figures.items():
                    totals[key] = totals.get(key, 0) + value
        finally:
            server.stop()
    gaps = totals.get("items_without_event", 0) + totals.get("counters_off", 0)
    gaps += totals.get("unfinished", 0) + totals.get("chains_broken", 0)
    print(f"total over {args.runs} kill -9 runs: " + json.dumps(totals))
    print(f"ledger gaps after re-drive: {gaps}")


if __name__ == "__main__":
    main()
