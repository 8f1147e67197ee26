"""Keeping the embedded database child alive while `lembra serve` runs (issue 15, failure 3).

A killed nx-27017 child used to leave the web app answering 503 forever: nothing
restarted it and the process never exited, so systemd's `Restart=on-failure` never
fired. The supervisor checks the child every second (and that it answers, every few
seconds); a dead or deaf child is restarted on the same port and data file, after a
growing pause. After `max_restarts` failed restarts in a row it raises
`EmbeddedServerError`, which ends `lembra serve` with a non-zero exit status.
Updates are recorded before they are acknowledged (DESIGN 5), so while the child is
down the webhook answers 503, the platform redelivers, and nothing acknowledged is lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from config.logging import log_event
from storage.embedded import EmbeddedServer
from storage.errors import EmbeddedServerError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Supervision:
    check_every_s: float = 1.0
    ping_every_checks: int = 5
    deaf_pings: int = 3  # consecutive unanswered pings before a live child is replaced
    max_restarts: int = 5
    backoff_s: float = 0.5
    max_backoff_s: float = 15.0


async def supervise(
    server: EmbeddedServer,
    policy: Supervision,
    *,
    on_restart: Callable[[], None] | None = None,
) -> None:
    """Watch `server` until cancelled; raise EmbeddedServerError when it cannot be restarted."""
    checks = deaf = 0
    while True:
        await asyncio.sleep(policy.check_every_s)
        checks += 1
        dead = not server.alive()
        if not dead and checks % policy.ping_every_checks == 0:
            deaf = 0 if await asyncio.to_thread(server.answers) else deaf + 1
        if dead or deaf >= policy.deaf_pings:
            await _restart(server, policy, replace_deaf=not dead)
            deaf = 0
            if on_restart is not None:
                on_restart()


async def _restart(server: EmbeddedServer, policy: Supervision, *, replace_deaf: bool) -> None:
    pause, last = policy.backoff_s, ""
    for attempt in range(1, policy.max_restarts + 1):
        try:
            restarted = await asyncio.to_thread(server.revive, replace_deaf=replace_deaf)
        except EmbeddedServerError as exc:
            last = str(exc)
            log_event(log, "embedded_restart_failed", level=logging.ERROR, attempt=attempt)
        else:
            log_event(
                log, "embedded_restarted", level=logging.WARNING, attempt=attempt, ours=restarted
            )
            return
        await asyncio.sleep(pause)
        pause = min(pause * 2, policy.max_backoff_s)
    raise EmbeddedServerError(
        f"the embedded database stopped and {policy.max_restarts} restarts failed ({last}); "
        "exiting so the service manager can restart Lembra"
    )
