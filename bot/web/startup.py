"""Starting `lembra serve`: channels that keep retrying their API, the one summary line, the
command menus, and the services probed at start and now and again (`/healthz`, `/readyz`).

A channel whose API cannot be reached at start (a network blip, the Bot API down)
does not stop the process: webhooks are still recorded, `/healthz` says `degraded`
and names what it waits for, and the channel is started again with backoff until it
answers. A rejected token is a configuration error and still ends the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from agent.errors import ServiceUnavailable
from bot.probes import Probe, run_probes
from bot.telegram.setup import set_menus
from config.logging import log_event
from config.settings import Settings
from config.version import lembra_version

log = logging.getLogger("lembra.web")

FIRST_RETRY_S = 1.0
MAX_RETRY_S = 60.0
CHECK_EVERY_S = 3600.0  # services that passed are probed again hourly
CHECK_FAILING_EVERY_S = 60.0  # ...and every minute while one fails


@dataclass
class Degraded:
    """What the process is still waiting for (empty: nothing, fully up)."""

    waiting: set[str] = field(default_factory=set)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def cancel(self) -> None:
        """Stop every retry still running (at shutdown)."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass


async def start_or_retry(
    name: str,
    start: Callable[[], Awaitable[None]],
    degraded: Degraded,
    *,
    first_retry_s: float = FIRST_RETRY_S,
    max_retry_s: float = MAX_RETRY_S,
    connected: Callable[[], None] = lambda: None,
) -> None:
    """Start `name` now, or mark it degraded and keep retrying in the background;
    `connected` is called when a retry succeeds."""
    try:
        await start()
        return
    except ServiceUnavailable as exc:
        _waiting(name, exc, first_retry_s)
    degraded.waiting.add(name)

    async def retry() -> None:
        delay = first_retry_s
        while True:
            await asyncio.sleep(delay)
            try:
                await start()
            except ServiceUnavailable as exc:
                delay = min(delay * 2, max_retry_s)
                _waiting(name, exc, delay)
                continue
            except Exception:
                log_event(
                    log, "channel_start_failed", level=logging.ERROR, channel=name, exc_info=True
                )
                return
            degraded.waiting.discard(name)
            log_event(log, "channel_connected", channel=name)
            connected()
            return

    degraded.tasks.append(asyncio.create_task(retry(), name=f"start:{name}"))


def _waiting(name: str, exc: ServiceUnavailable, retry_in_s: float) -> None:
    log_event(
        log,
        "channel_unreachable",
        level=logging.WARNING,
        channel=name,
        error=str(exc),
        retry_in_s=retry_in_s,
    )


def summary(settings: Settings, *, offline: bool, jobs: bool) -> dict[str, Any]:
    """The fields of the one start-up line: what runs, against what, at which version."""
    channels = [
        name
        for name, on in (
            ("telegram", settings.telegram_configured),
            ("whatsapp", settings.whatsapp_configured),
        )
        if on
    ]
    return {
        "version": lembra_version(),
        "channels": ",".join(channels) or "none",
        "model": "offline" if offline else settings.llm_model,
        "output_mode": "rules" if offline else "tool_calls",
        "database": "mongodb" if settings.mongodb_uri is not None else "embedded",
        "db_name": settings.mongodb_db,
        "jobs": "on" if jobs else "off",
        "voice": settings.transcription_backend or "off",  # docs/voice.md
        "listen": f"{settings.host}:{settings.port}",
    }


@dataclass
class ServiceChecks:
    """The last probes of every service (bot/probes.py); None until the first round ends."""

    probes: list[Probe] | None = None
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def recheck(self) -> None:
        """Probe again now (a channel just connected: what failed may pass)."""
        self.wake.set()

    def failing(self) -> list[Probe]:
        return [p for p in self.probes or () if not p.ok]

    def blocking(self) -> list[Probe]:
        """Failures that mean the bot cannot receive or answer (`/readyz`)."""
        return [p for p in self.failing() if p.blocks_ready]

    async def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def watch_services(
    settings: Settings,
    checks: ServiceChecks,
    *,
    menus: bool,
    probes: bool = True,
    every_s: float = CHECK_EVERY_S,
    failing_every_s: float = CHECK_FAILING_EVERY_S,
) -> None:
    """Set the command menus once, then probe every service now and again, for good.

    Each failure is logged once while it lasts, at WARNING, as it is first seen (with the
    setting to change; `/healthz` shows its latest words); its recovery once at INFO. A failing service is probed more often, so a
    fixed setting (`lembra telegram --set-webhook` run meanwhile) is seen soon.
    """
    if menus and settings.telegram_configured:
        await set_menus(settings)
    if not probes:
        checks.probes = []
        return
    failing: set[str] = set()  # services whose failure is logged (once while it lasts)
    while True:
        found = await run_probes(settings, serving=True)
        for probe in found:
            if not probe.ok and probe.service not in failing:
                log_event(
                    log,
                    "service_check_failed",
                    level=logging.WARNING,
                    service=probe.service,
                    problem=probe.detail,
                )
                failing.add(probe.service)
            elif probe.ok and probe.service in failing:
                failing.discard(probe.service)
                log_event(log, "service_check_passed", service=probe.service, detail=probe.detail)
        checks.probes = found
        checks.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(checks.wake.wait(), failing_every_s if failing else every_s)
