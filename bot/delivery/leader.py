"""Scheduled jobs run by one process at a time: whichever holds `job:<name>` (DESIGN 5)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from agent.deps import Deps
from bot.delivery.chatlease import renew, wait_set
from config.logging import log_event
from storage.errors import StorageError

log = logging.getLogger("lembra.lifecycle")


async def leader_loop(
    deps: Deps,
    name: str,
    every_s: float,
    job: Callable[[], Awaitable[object]],
    stopping: asyncio.Event,
) -> None:
    """Run `job` every `every_s` while this process holds `job:<name>`, until `stopping`."""
    key = f"job:{name}"
    ttl_ms = int(every_s * 1000 * 1.5)  # the leader renews it every pass
    while True:
        try:
            if await deps.db.leases.acquire(key, deps.owner, ttl_ms=ttl_ms, now_ms=deps.clock.ms()):
                # A pass may outlast the lease (consolidations with a model): keep it
                # renewed meanwhile, or another process would start the same pass.
                done = asyncio.Event()
                renewer = asyncio.create_task(renew(deps, key, ttl_ms, done))
                try:
                    await job()
                finally:
                    done.set()
                    await renewer
        except StorageError:
            log_event(log, "job_failed", level=logging.WARNING, job=name, exc_info=True)
        except Exception:  # a failing job must not stop the schedule: log it, go on
            log_event(log, "job_failed", level=logging.ERROR, job=name, exc_info=True)
        if await wait_set(stopping, every_s):
            return
