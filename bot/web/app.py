"""The aiohttp web app (`lembra serve`): webhooks, /healthz and /metrics (DESIGN section 6).

    POST     /telegram/webhook   when TELEGRAM_BOT_TOKEN is set
    GET|POST /whatsapp/webhook   when the WhatsApp settings are set
    GET      /healthz            liveness: 200 {"status": "ok" | "degraded", "database", "reasons"?}
                                 or 503 when the database is down or refuses writes
    GET      /readyz             readiness: 200 {"status": "ready"}, or 503 {"status":
                                 "not_ready", "reasons": [...]} while the bot cannot receive or
                                 answer (database down, webhook not set to TELEGRAM_WEBHOOK_URL,
                                 a model refused for its configuration, services not checked yet)
    GET      /metrics            Prometheus text

At start the command menus are set and every configured service is probed (bot/probes.py):
each failure is one WARNING line naming the setting to change, and shows in both paths.

Bodies over 1 MiB are refused with 413 by aiohttp before any handler reads them.
Jobs: every process renews its live updates (heartbeat); the process holding a job's
leader lease runs the re-drive and the jobs `lembra telegram --polling` runs too
(bot/delivery/jobs.py: the runtime's background work and due reminders).
Shutdown (SIGTERM): stop accepting, finish in-flight requests, work the queued turns for
SHUTDOWN_GRACE_SECONDS (the rest stay `received` for the re-drive), close PTB, then the
caller leaves `open_deps`, which stops the embedded database.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from agent.deps import Deps
from bot.delivery.jobs import JobTimes, schedule_jobs
from bot.delivery.lifecycle import Handler, Tuning, UpdateLifecycle
from bot.delivery.push import ChannelPusher
from bot.delivery.refusals import RefusalLog
from bot.telegram.channel import TelegramChannel, TelegramOptions
from bot.web.slowclients import body_deadline, handler_options
from bot.web.startup import (
    CHECK_EVERY_S,
    CHECK_FAILING_EVERY_S,
    Degraded,
    ServiceChecks,
    start_or_retry,
    summary,
    watch_services,
)
from bot.whatsapp.channel import WhatsAppChannel, WhatsAppOptions
from config.errors import ConfigError
from config.logging import log_event
from config.settings import Settings
from storage.errors import StorageError

log = logging.getLogger("lembra.web")

MAX_BODY_BYTES = 1024 * 1024
HEALTH_TIMEOUT_S = 2.0
SHUTDOWN_TIMEOUT_S = 30.0
PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


@dataclass(frozen=True)
class WebOptions:
    """Knobs tests and the bench turn; `lembra serve` uses the defaults."""

    tuning: Tuning = field(default_factory=Tuning)
    telegram: TelegramOptions = field(default_factory=TelegramOptions)
    whatsapp: WhatsAppOptions = field(default_factory=WhatsAppOptions)
    # the heartbeat, the re-drive and the runtime's background work (`agent.conversation.background`)
    jobs: bool = True
    # the command menus set and every service probed at start (bot/web/startup.py)
    menus: bool = True
    probes: bool = True
    check_every_s: float = CHECK_EVERY_S  # probes again while every service passes
    check_failing_every_s: float = CHECK_FAILING_EVERY_S  # ...and while one fails
    background_every_s: float = 30.0
    reminders_every_s: float | None = None  # None: REMINDERS_EVERY_S


@dataclass
class Channels:
    lifecycle: UpdateLifecycle
    telegram: TelegramChannel | None = None
    whatsapp: WhatsAppChannel | None = None


DEPS = web.AppKey("deps", Deps)
CHANNELS = web.AppKey("channels", Channels)
DEGRADED = web.AppKey("degraded", Degraded)
SERVICES = web.AppKey("services", ServiceChecks)


def create_app(
    deps: Deps, handler: Handler, *, options: WebOptions | None = None
) -> web.Application:
    """Build the app for the configured channels; they start and stop with it."""
    options = options or WebOptions()
    settings = deps.settings
    lifecycle = UpdateLifecycle(deps, handler, tuning=options.tuning)
    channels = Channels(lifecycle)
    app = web.Application(
        client_max_size=MAX_BODY_BYTES,
        middlewares=[
            refusal_log(settings.trust_forwarded_for),
            body_deadline(settings.http_body_timeout_seconds),
        ],
    )
    app[DEPS] = deps
    app[CHANNELS] = channels
    degraded = app[DEGRADED] = Degraded()
    checks = app[SERVICES] = ServiceChecks()
    if settings.telegram_configured:
        channels.telegram = TelegramChannel(deps, lifecycle, options=options.telegram)
        app.router.add_post("/telegram/webhook", channels.telegram.webhook)
    if settings.whatsapp_configured:
        channels.whatsapp = WhatsAppChannel(deps, lifecycle, options=options.whatsapp)
        app.router.add_get("/whatsapp/webhook", channels.whatsapp.verify, allow_head=False)
        app.router.add_post("/whatsapp/webhook", channels.whatsapp.webhook)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics)

    async def run_channels(app: web.Application) -> AsyncIterator[None]:
        try:
            if channels.whatsapp is not None:
                await channels.whatsapp.start()
            if channels.telegram is not None:
                await start_or_retry(
                    "telegram", channels.telegram.start, degraded, connected=checks.recheck
                )
        except BaseException:
            # a failed start-up closes what it opened (aiohttp runs no cleanup for us here)
            await degraded.cancel()
            if channels.telegram is not None:
                await channels.telegram.stop()
            if channels.whatsapp is not None:
                await channels.whatsapp.stop()
            raise
        if options.probes or options.menus:
            watch = watch_services(
                settings,
                checks,
                menus=options.menus,
                probes=options.probes,
                every_s=options.check_every_s,
                failing_every_s=options.check_failing_every_s,
            )
            checks.task = asyncio.create_task(watch, name="services")
        else:
            checks.probes = []
        if options.jobs:
            pusher = ChannelPusher(channels.telegram, channels.whatsapp)
            times = JobTimes(options.background_every_s, options.reminders_every_s)
            schedule_jobs(lifecycle, deps, pusher, times)
            lifecycle.start()
        yield
        await checks.cancel()
        await degraded.cancel()
        # The server stopped accepting and in-flight requests finished: now the turns, for
        # SHUTDOWN_GRACE_SECONDS from the signal at most (`serve` began it); the rest are
        # left `received` for the re-drive
        lifecycle.drain(settings.shutdown_grace_seconds)
        await lifecycle.stop()
        if channels.telegram is not None:
            await channels.telegram.stop()
        if channels.whatsapp is not None:
            await channels.whatsapp.stop()
        await lifecycle.leave()  # the queued turns are done: peers may go alone now
        log_event(log, "channels_stopped")

    app.cleanup_ctx.append(run_channels)
    return app


def client_address(request: web.Request, *, trust_forwarded_for: bool) -> str | None:
    """The caller's address: the peer, or the first X-Forwarded-For hop when trusted.

    X-Forwarded-For is set by whoever sends the request, so it is ignored unless
    TRUST_FORWARDED_FOR says a reverse proxy in front of us overwrites it.
    """
    if trust_forwarded_for:
        forwarded = request.headers.get("X-Forwarded-For", "")
        first = forwarded.split(",", 1)[0].strip()
        if first:
            return first
    return request.remote


def refusal_log(trust_forwarded_for: bool) -> Any:
    """Log who was refused (400, 401, 403, 413): the address, never the body; throttled."""
    refusals = RefusalLog()

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        status = 500
        try:
            response: web.StreamResponse = await handler(request)
            status = response.status
            return response
        except web.HTTPException as exc:  # e.g. 413 raised while reading the body
            status = exc.status
            raise
        finally:
            if status in (400, 401, 403, 413):
                # Only our routes are kinds of their own: a path per probe would grow the map.
                path = request.path if request.match_info.route.resource else "other"
                remote = client_address(request, trust_forwarded_for=trust_forwarded_for)
                refusals.note(path, status, remote)

    return middleware


async def healthz(request: web.Request) -> web.Response:
    """Liveness: 503 only while the database is down or refuses writes; else 200, `degraded`
    with its reasons while a channel's API is unreachable or a service check fails."""
    deps = request.app[DEPS]
    database = "mongodb" if deps.settings.mongodb_uri is not None else "embedded"
    problem = await _database_problem(deps)
    if problem == "unavailable":
        return web.json_response({"status": "unavailable", "database": database}, status=503)
    if problem == "writes":
        failing_writes = {"status": "degraded", "database": database, "writes": "failing"}
        return web.json_response(failing_writes, status=503)
    waiting = sorted(request.app[DEGRADED].waiting)
    failing = request.app[SERVICES].failing()
    if not (waiting or failing):
        return web.json_response({"status": "ok", "database": database})
    body: dict[str, Any] = {"status": "degraded", "database": database}
    if waiting:  # up, but a channel's API is not reachable yet
        body["waiting_for"] = waiting
    body["reasons"] = [f"{name}: its API is not reachable yet (retrying)" for name in waiting]
    body["reasons"] += [f"{p.service}: {p.detail}" for p in failing]
    return web.json_response(body)


async def readyz(request: web.Request) -> web.Response:
    """Readiness: 503 with reasons while the bot cannot receive or answer."""
    deps = request.app[DEPS]
    reasons: list[str] = []
    problem = await _database_problem(deps)
    if problem == "unavailable":
        reasons.append("database: unreachable")
    elif problem == "writes":
        reasons.append("database: writes fail")
    reasons += [
        f"{name}: its API is not reachable yet (retrying)"
        for name in sorted(request.app[DEGRADED].waiting)
    ]
    checks = request.app[SERVICES]
    if checks.probes is None:
        reasons.append("starting: the services are not checked yet")
    reasons += [f"{p.service}: {p.detail}" for p in checks.blocking()]
    if reasons:
        return web.json_response({"status": "not_ready", "reasons": reasons}, status=503)
    return web.json_response({"status": "ready"})


async def _database_problem(deps: Deps) -> Literal["unavailable", "writes"] | None:
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_S):
            await deps.db.ping()
    except (StorageError, TimeoutError):
        return "unavailable"
    if not await _writes_work(deps):  # a full disk still answers ping: writes must be seen
        return "writes"
    return None


async def _writes_work(deps: Deps) -> bool:
    """Write and remove this process's own probe lease; False when the database refuses."""
    key = f"health:{deps.owner}"
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_S):
            await deps.db.leases.acquire(key, deps.owner, ttl_ms=60_000, now_ms=deps.clock.ms())
            await deps.db.leases.release(key, deps.owner)
    except (StorageError, TimeoutError):
        log_event(log, "health_write_failed", level=logging.WARNING)
        return False
    return True


async def metrics(request: web.Request) -> web.Response:
    body = request.app[DEPS].metrics.render()
    return web.Response(body=body, headers={"Content-Type": PROMETHEUS_CONTENT_TYPE})


async def _until_stopped(stop: asyncio.Event, supervisor: asyncio.Task[None] | None) -> None:
    """Wait for `stop`; an embedded database that cannot be restarted ends the wait with its error."""
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait(
            [f for f in (stopped, supervisor) if f is not None], return_when=asyncio.FIRST_COMPLETED
        )
    finally:
        stopped.cancel()
    if supervisor is not None and supervisor.done() and not supervisor.cancelled():
        supervisor.result()  # raises EmbeddedServerError: `lembra serve` exits non-zero


async def serve(
    deps: Deps,
    handler: Handler,
    *,
    options: WebOptions | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Run the web app on HOST:PORT until `stop` is set (SIGTERM) or cancelled, then shut down."""
    settings: Settings = deps.settings
    app = create_app(deps, handler, options=options)
    runner = web.AppRunner(
        app,
        access_log=None,
        shutdown_timeout=SHUTDOWN_TIMEOUT_S,
        handle_signals=False,
        **handler_options(settings),  # slow or silent clients are cut off (bot/web/slowclients.py)
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, settings.host, settings.port)
        try:
            await site.start()
        except OSError as exc:  # the port is taken, or the address is not this machine's
            raise ConfigError(
                f"cannot listen on {settings.host}:{settings.port} (HOST, PORT): "
                f"{exc.strerror or exc}; stop the other process or choose another PORT"
            ) from None
        # What start-up built (libraries, clients, settings) lives as long as the process:
        # frozen, it is never scanned again, so a full collection costs what the turns made,
        # not 100+ ms of everything (issue 46, bench/imports.py --no-freeze)
        gc.freeze()
        jobs = (options or WebOptions()).jobs
        log_event(log, "serving", **summary(settings, offline=deps.model is None, jobs=jobs))
        await _until_stopped(stop or asyncio.Event(), deps.db.supervisor)
    finally:
        app[CHANNELS].lifecycle.drain(settings.shutdown_grace_seconds)  # from the signal on
        await runner.cleanup()
        log_event(log, "stopped")
