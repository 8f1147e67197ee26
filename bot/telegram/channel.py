"""Telegram through python-telegram-bot v22: webhook (custom pattern) and polling.

The web handler checks the secret, parses, normalizes (bot/telegram/updates.py) and
records the update (bot/delivery/lifecycle.py) before answering 200, then puts a `TelegramJob`
on PTB's update queue; `PerChatProcessor` runs jobs of one chat in order and chats in
parallel. Replies go out through bot/telegram/send.py; registration, menus and
`--info` live in bot/telegram/setup.py.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web
from telegram import Update
from telegram.constants import ChatAction
from telegram.error import InvalidToken, NetworkError, TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseUpdateProcessor,
    ContextTypes,
    ExtBot,
    TypeHandler,
)

from agent.deps import Deps
from agent.errors import ServiceUnavailable
from agent.services.outbound import outbound_trace
from agent.services.retrying import RetryPolicy
from agent.types import Channel, Incoming, Reply
from bot.delivery.concurrency import BackgroundTasks
from bot.delivery.jobs import JobTimes, schedule_jobs
from bot.delivery.lifecycle import Delivery, Job, UpdateLifecycle
from bot.delivery.push import ChannelPusher
from bot.inbound import Ignored, NotJson, Rejected, read_body
from bot.telegram import send as telegram_send
from bot.telegram.files import TelegramFiles
from bot.telegram.http import AiohttpRequest
from bot.telegram.setup import register_commands
from bot.telegram.ui import PressedEdit, apply_edit
from bot.telegram.updates import ALLOWED_UPDATES, Read, normalize
from config.errors import ConfigError
from config.logging import log_event
from storage.errors import DatabaseUnavailable

log = logging.getLogger("lembra.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


@dataclass(frozen=True)
class TelegramOptions:
    """Knobs tests and the bench turn; production uses the defaults."""

    timeout_s: float = 10.0
    retry_delays: tuple[float, ...] = (0.5, 1.0, 2.0)  # the retry policy's backoff
    # Telegram's own limits (30 messages/s overall, 20/min per group); the bench
    # against a local fake turns them off to measure the app, not the limiter.
    respect_sending_limits: bool = True
    connection_pool_size: int = 16
    retry: RetryPolicy | None = None  # None: RetryPolicy(delays=retry_delays)

    @property
    def retry_policy(self) -> RetryPolicy:
        return self.retry or RetryPolicy(delays=self.retry_delays)


@dataclass(frozen=True, slots=True)
class TelegramJob:
    """What the web handler puts on PTB's update queue after recording the update."""

    job: Job
    callback_query_id: str | None = None
    edit: PressedEdit | None = None

    def __repr__(self) -> str:  # PTB logs queued updates: never the message text
        return f"TelegramJob({self.job!r})"


class PerChatProcessor(BaseUpdateProcessor):
    """Updates of one chat in arrival order, chats in parallel (PTB has no such processor).

    The base class's semaphore only caps queued tasks; the real bound on concurrent
    turns is the serializer's, taken after the chat lock (see ChatSerializer).
    """

    def __init__(self, lifecycle: UpdateLifecycle, *, max_queued: int = 4096) -> None:
        super().__init__(max_concurrent_updates=max_queued)
        self._serializer = lifecycle.serializer

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        async with self._serializer.slot(chat_key(update)):
            await coroutine

    async def initialize(self) -> None:
        """Nothing to allocate."""

    async def shutdown(self) -> None:
        """Nothing to free."""


def chat_key(update: object) -> str | None:
    if isinstance(update, TelegramJob):
        return update.job.incoming.conversation_id
    if isinstance(update, Update) and update.effective_chat is not None:
        return f"tg:{update.effective_chat.id}"
    return None


class TelegramChannel:
    name: Channel = "telegram"
    prefix = "tg"

    def __init__(
        self,
        deps: Deps,
        lifecycle: UpdateLifecycle,
        *,
        options: TelegramOptions | None = None,
        polling: bool = False,
    ) -> None:
        settings = deps.settings
        settings.require_telegram()
        assert settings.telegram_bot_token is not None
        self.deps = deps
        self.lifecycle = lifecycle
        self.options = options or TelegramOptions()
        secret = settings.telegram_webhook_secret
        self._secret = secret.get_secret_value().encode() if secret else None
        self._background = BackgroundTasks()
        self._requests = (self._transport(), self._transport())
        builder = (
            Application.builder()
            .token(settings.telegram_bot_token.get_secret_value())
            .base_url(settings.telegram_api_base_url)
            .base_file_url(settings.telegram_file_base)  # TELEGRAM_FILE_BASE_URL
            .concurrent_updates(PerChatProcessor(lifecycle))
            .request(self._requests[0])
            .get_updates_request(self._requests[1])
        )
        if self.options.respect_sending_limits:
            # it paces sends only: retrying is the one policy's (agent/services/retrying.py)
            limiter = AIORateLimiter(max_retries=0)
            builder = builder.rate_limiter(limiter)  # type: ignore[arg-type]
        if not polling:
            builder = builder.updater(None)
        self.app = builder.build()
        self.app.add_handler(TypeHandler(TelegramJob, self._on_job))
        self.app.add_handler(TypeHandler(Update, self._on_polled_update))
        self.app.add_error_handler(self._on_error)
        self._downloads: aiohttp.ClientSession | None = None  # files users send (voice, import)
        self.files = TelegramFiles(
            lambda: self.app.bot,
            self._download_session,
            policy=self.options.retry_policy,
            timeout_s=self.options.timeout_s,
        )
        lifecycle.register(self)

    def _transport(self) -> AiohttpRequest:
        t = self.options.timeout_s
        return AiohttpRequest(
            connection_pool_size=self.options.connection_pool_size,
            connect_timeout=t,
            read_timeout=t,
            write_timeout=t,
            pool_timeout=t,
            trace_configs=[outbound_trace(self.deps.metrics, "telegram")],
        )

    @property
    def bot(self) -> ExtBot[None]:
        return self.app.bot

    def _download_session(self) -> aiohttp.ClientSession:
        if self._downloads is None or self._downloads.closed:
            raise ServiceUnavailable("the Telegram channel is not started")
        return self._downloads

    # -- start and stop --------------------------------------------------------------------

    async def start(self) -> None:
        """Initialize the bot (getMe) and start processing the update queue."""
        try:
            await self.app.initialize()
        except InvalidToken:
            await self._close_transports()
            raise ConfigError("TELEGRAM_BOT_TOKEN was rejected by the Bot API") from None
        except NetworkError as exc:
            # kept open: PTB reuses them when start-up is retried (bot/web/startup.py)
            raise ServiceUnavailable(
                f"cannot reach the Telegram Bot API ({type(exc).__name__}); "
                "check TELEGRAM_API_BASE_URL and the network"
            ) from None
        if self._downloads is None:
            self._downloads = aiohttp.ClientSession(
                trace_configs=[outbound_trace(self.deps.metrics, "telegram")]
            )
        await self.app.start()

    async def _close_transports(self) -> None:
        """Close the HTTP sessions PTB opened before getMe (it leaves them when getMe fails)."""
        for transport in self._requests:
            await transport.shutdown()

    async def idle(self) -> None:
        """Wait until every queued update and background answer is finished."""
        await self.app.update_queue.join()
        await self._background.wait()

    async def stop(self) -> None:
        """Finish queued and running turns, then close PTB."""
        if self.app.running:
            await self.app.stop()
        await self._background.wait()
        await self.app.shutdown()
        # PTB opens its sessions before getMe; when getMe never succeeded it does not
        # close them, so they are closed here (a no-op when PTB already did)
        await self._close_transports()
        if self._downloads is not None:
            await self._downloads.close()
            self._downloads = None

    # -- the webhook -----------------------------------------------------------------------

    async def webhook(self, request: web.Request) -> web.Response:
        """POST /telegram/webhook: 200 for every update with the right secret (DESIGN 10.4)."""
        metrics = self.deps.metrics
        # Header bytes that are not UTF-8 arrive as surrogates: restore them, never raise.
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        if self._secret is None or not hmac.compare_digest(given, self._secret):
            metrics.updates.labels("telegram", "rejected").inc()
            # logged (throttled) by the web app's refusal log: callers set this volume
            return web.Response(status=403, text="forbidden")
        body = await request.read()  # over client_max_size: 413 before we parse anything
        try:
            data = read_body(body)
        except NotJson:
            return self._bad_request()
        read = self._normalize(data)
        incoming = read.outcome
        if not isinstance(incoming, Incoming):
            return self._not_handled(read)
        if (busy := self.lifecycle.backlog.full()) is not None:
            return self.lifecycle.backlog.refusal(self.deps.metrics, "telegram", busy)
        try:
            admission = await self.lifecycle.admit(incoming, body.decode("utf-8"))
        except DatabaseUnavailable:
            log_event(log, "webhook_database_unavailable", level=logging.ERROR)
            return web.Response(status=503, text="database unavailable")
        if admission in ("process", "notify"):
            job = self.lifecycle.job(incoming, admission)
            await self.app.update_queue.put(TelegramJob(job, read.query_id, read.pressed))
        elif admission == "drop":
            self._answer_later(read.query_id)
        return web.Response(text="ok")

    def _normalize(self, data: Any) -> Read:
        return normalize(data, allow_groups=self.deps.settings.allow_group_chats, files=self.files)

    def _bad_request(self) -> web.Response:
        self.deps.metrics.updates.labels("telegram", "rejected").inc()
        log_event(log, "webhook_rejected", level=logging.WARNING, reason="not_json")
        return web.Response(status=400, text="bad request")

    def _not_handled(self, read: Read) -> web.Response:
        """Acknowledge an update that is ignored or malformed: one log line, no reply."""
        outcome = read.outcome
        if isinstance(outcome, Rejected):
            self.deps.metrics.updates.labels("telegram", "malformed").inc()
            log_event(
                log,
                "update_rejected",
                level=logging.WARNING,
                update_id=read.update_id,
                reason=outcome.reason,
            )
        else:
            assert isinstance(outcome, Ignored)
            self.deps.metrics.updates.labels("telegram", "ignored").inc()
            log_event(log, "update_ignored", update_id=read.update_id, reason=outcome.reason)
        self._answer_later(read.query_id)
        return web.Response(text="ok")

    # -- PTB handlers ----------------------------------------------------------------------

    async def _on_job(self, item: TelegramJob, context: ContextTypes.DEFAULT_TYPE) -> None:
        if self.lifecycle.past_deadline:  # shutting down: left for the re-drive, untouched
            await self.lifecycle.process(item.job, self)
            return
        if item.callback_query_id is not None:
            await self._answer(item.callback_query_id)
        if item.edit is not None:
            await apply_edit(self.bot, item.edit)
        await self.lifecycle.process(item.job, self)

    async def _on_polled_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Polling mode: the same steps as the webhook, inside the chat's slot."""
        data = update.to_dict()
        read = self._normalize(data)
        incoming = read.outcome
        if not isinstance(incoming, Incoming):
            self._not_handled(read)
            return
        try:
            admission = await self.lifecycle.admit(incoming, json.dumps(data))
        except DatabaseUnavailable:
            # getUpdates already moved past it: with polling (local development) it is lost.
            log_event(log, "polled_update_lost", level=logging.ERROR, update_id=update.update_id)
            return
        if read.query_id is not None:
            await self._answer(read.query_id)
        if admission in ("process", "notify"):
            if read.pressed is not None:
                await apply_edit(self.bot, read.pressed)
            job = self.lifecycle.job(incoming, admission)
            await self.lifecycle.process(job, self)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log what a PTB handler raised, with its traceback: never the update or its text."""
        error = context.error
        log_event(
            log,
            "telegram_handler_error",
            level=logging.ERROR,
            error_type=type(error).__name__,
            # foreign exception messages are withheld from tracebacks (config/logging.py)
            exc_info=error if isinstance(error, BaseException) else False,
        )

    async def _answer(self, query_id: str) -> None:
        """Stop the button's spinner (best effort: an old query cannot be answered)."""
        try:
            await self.bot.answer_callback_query(query_id)
        except TelegramError as exc:
            log_event(log, "callback_answer_failed", error_type=type(exc).__name__)

    def _answer_later(self, query_id: str | None) -> None:
        if query_id is not None:
            self._background.spawn(self._answer(query_id), name="answer_callback")

    # -- the lifecycle's channel port ------------------------------------------------------

    def restore(self, payload_json: str) -> Incoming | None:
        try:
            data = json.loads(payload_json)
        except ValueError:
            raise ValueError("stored update is not JSON") from None
        read = self._normalize(data)
        return read.outcome if isinstance(read.outcome, Incoming) else None

    async def submit(self, job: Job) -> None:
        await self.app.update_queue.put(TelegramJob(job))

    async def typing(self, incoming: Incoming) -> None:
        try:
            await self.bot.send_chat_action(int(incoming.chat_id), ChatAction.TYPING)
        except TelegramError as exc:
            log_event(log, "typing_failed", error_type=type(exc).__name__)

    async def deliver(self, incoming: Incoming, reply: Reply) -> Delivery:
        return await telegram_send.deliver(
            self.bot,
            incoming,
            reply,
            metrics=self.deps.metrics,
            policy=self.options.retry_policy,
        )


async def run_polling(
    deps: Deps,
    lifecycle: UpdateLifecycle,
    *,
    drop_pending_updates: bool = False,
    options: TelegramOptions | None = None,
    ready: asyncio.Event | None = None,
    jobs: JobTimes | None = None,
) -> None:
    """Poll with the same handlers and background jobs as `lembra serve`, until cancelled.

    The webhook is deleted first (Telegram allows one or the other).
    """
    channel = TelegramChannel(deps, lifecycle, options=options, polling=True)
    try:
        await channel.start()
    except BaseException:
        await channel.stop()  # what PTB opened before getMe failed is closed, not left to GC
        raise
    updater = channel.app.updater
    assert updater is not None
    try:
        schedule_jobs(lifecycle, deps, ChannelPusher(channel, None), jobs)
        await register_commands(channel.bot, deps.settings.admins, deps.settings.default_language)
        # start_polling deletes the webhook first (Telegram allows one or the other).
        await updater.start_polling(
            allowed_updates=list(ALLOWED_UPDATES), drop_pending_updates=drop_pending_updates
        )
        lifecycle.start()
        log_event(log, "polling_started")
        if ready is not None:
            ready.set()
        await asyncio.Event().wait()
    finally:
        if updater.running:
            await updater.stop()
        await lifecycle.stop()
        await channel.stop()
        await lifecycle.leave()
