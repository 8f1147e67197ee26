"""Telegram through python-telegram-bot v22: webhook (custom pattern) and polling.

What each update becomes (`normalize`):

    message with text                       Incoming kind "text"
    message with a photo, voice, sticker,   Incoming kind "unsupported" (the runtime
      location, document...                   answers with its polite fixed reply)
    callback_query "c:<token>:<index>"      Incoming kind "choice" (answered with answer())
    edited_message, channel_post, my_chat_member, service messages, inline queries and
    every other type; group chats unless ALLOW_GROUP_CHATS; messages from bots
                                            acknowledged and ignored (counted `ignored`)

Edited messages are ignored on purpose: the original was already handled, and
re-running a turn on an edit would repeat or contradict its effect.

The web handler checks the secret, parses, normalizes and records the update
(bot/lifecycle.py) before answering 200, then puts a `TelegramJob` on PTB's update
queue; `PerChatProcessor` runs jobs of one chat in order and chats in parallel.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    BotCommandScopeDefault,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Update,
)
from telegram.constants import ChatAction, ChatType
from telegram.error import (
    BadRequest,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseUpdateProcessor,
    ContextTypes,
    ExtBot,
    TypeHandler,
)
from telegram.warnings import PTBDeprecationWarning

from agent.deps import Deps
from agent.errors import ServiceUnavailable
from agent.services.outbound import outbound_trace
from agent.types import Channel, Incoming, IncomingKind, Language, Reply
from bot.concurrency import BackgroundTasks
from bot.jsonguard import check_depth
from bot.lifecycle import Delivery, Job, UpdateLifecycle
from bot.render import (
    TELEGRAM_CALLBACK_MAX_BYTES,
    ChoiceDataTooLong,
    decode_choice,
    encode_choice,
    shorten,
    split_text,
    utf16_units,
)
from bot.telegram_http import AiohttpRequest, AnswerLost
from bot.telegram_ui import (
    PressedEdit,
    apply_edit,
    command_keyboard,
    decode_command,
    link_preview,
    message_text,
    pressed_edit,
    webhook_info_lines,
)
from config.errors import ConfigError
from config.logging import log_event
from config.settings import Settings
from storage.errors import DatabaseUnavailable

log = logging.getLogger("lembra.telegram")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
TEXT_LIMIT = 4096
BUTTON_LABEL_LIMIT = 64
ALLOWED_UPDATES = ("message", "callback_query")
HANDLED_KEYS = frozenset(ALLOWED_UPDATES)
WEBHOOK_PORTS = frozenset({443, 80, 88, 8443})
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

USER_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("start", "Começar e aviso de privacidade", "Start and privacy notice"),
    ("help", "O que eu sei fazer", "What I can do"),
    ("list", "Listar o que guardei", "List what I saved"),
    ("search", "Procurar nos meus itens", "Search my items"),
    ("delete_all", "Apagar tudo (com confirmação)", "Delete everything (confirmed)"),
    ("cancel", "Cancelar a ação pendente", "Cancel the pending action"),
    ("why", "Por que respondi assim", "Why I answered that way"),
    ("lang", "Trocar o idioma (pt/en)", "Change the language (pt/en)"),
    ("end", "Encerrar a sessão", "End the session"),
    ("export", "Baixar todos os meus dados", "Download all my data"),
    ("forget", "Apagar minha conta e dados", "Delete my account and data"),
)
ADMIN_COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("stats", "Números de uso e confiança", "Usage and confidence figures"),
    ("users", "Usuários recentes", "Recent users"),
    ("quota", "Definir a cota de um usuário", "Set a user's quota"),
    ("ledger", "Verificar o ledger de um usuário", "Verify a user's ledger"),
    ("dream", "Consolidar a memória agora", "Consolidate memory now"),
    ("constitution", "Ver ou trocar a constituição", "Show or replace the constitution"),
)


@dataclass(frozen=True)
class TelegramOptions:
    """Knobs tests and the bench turn; production uses the defaults."""

    timeout_s: float = 10.0
    retry_delays: tuple[float, ...] = (0.5, 1.0, 2.0)
    # Telegram's own limits (30 messages/s overall, 20/min per group); the bench
    # against a local fake turns them off to measure the app, not the limiter.
    respect_sending_limits: bool = True
    rate_limit_retries: int = 2
    connection_pool_size: int = 16


@dataclass(frozen=True, slots=True)
class Ignored:
    reason: str


@dataclass(frozen=True, slots=True)
class TelegramJob:
    """What the web handler puts on PTB's update queue after recording the update."""

    job: Job
    callback_query_id: str | None = None
    edit: PressedEdit | None = None

    def __repr__(self) -> str:  # PTB logs queued updates: never the message text
        return f"TelegramJob({self.job!r})"


def _language(code: str | None) -> Language | None:
    """A hint from Telegram's language_code ("pt-br" -> "pt"); None when neither."""
    code = (code or "").lower()
    return "pt" if code.startswith("pt") else "en" if code.startswith("en") else None


def _chat_allowed(chat_type: str, *, allow_groups: bool) -> bool:
    groups = (ChatType.GROUP, ChatType.SUPERGROUP)
    return chat_type == ChatType.PRIVATE or (allow_groups and chat_type in groups)


def normalize(update: Update, *, allow_groups: bool) -> Incoming | Ignored:
    """Turn one Telegram update into an Incoming, or say why it is ignored."""
    update_id = f"tg:{update.update_id}"
    if update.message is not None:
        message = update.message
        chat, user = message.chat, message.from_user
        if user is None or user.is_bot:
            return Ignored("no_human_sender")
        if not _chat_allowed(chat.type, allow_groups=allow_groups):
            return Ignored(f"chat_{chat.type}")
        kind: IncomingKind
        body = message_text(message)  # a caption counts as text, hidden links written out
        if body is not None:
            kind = "text"
        elif message.effective_attachment is not None:
            kind, body = "unsupported", None
        else:
            return Ignored("service_message")
        return Incoming(
            channel="telegram",
            chat_id=str(chat.id),
            user_id=f"tg:{user.id}",
            text=body,
            kind=kind,
            update_id=update_id,
            language_hint=_language(user.language_code),
            display_name=user.full_name or None,
        )
    if update.callback_query is not None:
        query = update.callback_query
        decoded = decode_choice(query.data or "")
        command = decode_command(query.data or "")
        if decoded is None and command is None:
            return Ignored("foreign_callback_data")
        if query.message is None:
            return Ignored("callback_without_message")
        chat = query.message.chat
        if not _chat_allowed(chat.type, allow_groups=allow_groups):
            return Ignored(f"chat_{chat.type}")
        if decoded is None:  # a command button: the same as typing its command
            return Incoming(
                channel="telegram",
                chat_id=str(chat.id),
                user_id=f"tg:{query.from_user.id}",
                text=command,
                update_id=update_id,
                language_hint=_language(query.from_user.language_code),
                display_name=query.from_user.full_name or None,
            )
        token, index = decoded
        return Incoming(
            channel="telegram",
            chat_id=str(chat.id),
            user_id=f"tg:{query.from_user.id}",
            kind="choice",
            choice=index,
            choice_token=token,
            update_id=update_id,
            language_hint=_language(query.from_user.language_code),
            display_name=query.from_user.full_name or None,
        )
    kinds = [k for k in ("edited_message", "channel_post", "my_chat_member") if getattr(update, k)]
    return Ignored(kinds[0] if kinds else "unhandled_type")


def keyboard(reply: Reply) -> InlineKeyboardMarkup | None:
    """Inline buttons for a reply's choices (None when it has none or they cannot fit)."""
    if not reply.choices:
        return None
    try:
        buttons = [
            InlineKeyboardButton(
                shorten(choice.label, BUTTON_LABEL_LIMIT),
                callback_data=encode_choice(
                    reply.choice_token, choice.index, max_bytes=TELEGRAM_CALLBACK_MAX_BYTES
                ),
            )
            for choice in reply.choices
        ]
    except ChoiceDataTooLong:
        # The text still lists the options; the user can answer by typing.
        log_event(log, "buttons_dropped", level=logging.WARNING, reason="callback_data_too_long")
        return None
    if reply.choice_kind == "confirm":
        return InlineKeyboardMarkup([buttons])
    return InlineKeyboardMarkup([[button] for button in buttons])


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


class _Blocked(Exception):
    pass


class _GiveUp(Exception):
    pass


def _retry_after_s(exc: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


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
            .concurrent_updates(PerChatProcessor(lifecycle))
            .request(self._requests[0])
            .get_updates_request(self._requests[1])
        )
        if self.options.respect_sending_limits:
            limiter = AIORateLimiter(max_retries=self.options.rate_limit_retries)
            builder = builder.rate_limiter(limiter)  # type: ignore[arg-type]
        if not polling:
            builder = builder.updater(None)
        self.app = builder.build()
        self.app.add_handler(TypeHandler(TelegramJob, self._on_job))
        self.app.add_handler(TypeHandler(Update, self._on_polled_update))
        self.app.add_error_handler(self._on_error)
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

    # -- start and stop --------------------------------------------------------------------

    async def start(self) -> None:
        """Initialize the bot (getMe) and start processing the update queue."""
        try:
            await self.app.initialize()
        except InvalidToken:
            raise ConfigError("TELEGRAM_BOT_TOKEN was rejected by the Bot API") from None
        except NetworkError as exc:
            raise ServiceUnavailable(
                f"cannot reach the Telegram Bot API ({type(exc).__name__}); "
                "check TELEGRAM_API_BASE_URL and the network"
            ) from None
        await self.app.start()

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
        for transport in self._requests:
            await transport.shutdown()

    # -- the webhook -----------------------------------------------------------------------

    async def webhook(self, request: web.Request) -> web.Response:
        """POST /telegram/webhook."""
        metrics = self.deps.metrics
        # Header bytes that are not UTF-8 arrive as surrogates: restore them, never raise.
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        if self._secret is None or not hmac.compare_digest(given, self._secret):
            metrics.updates.labels("telegram", "rejected").inc()
            # logged (throttled) by the web app's refusal log: callers set this volume
            return web.Response(status=403, text="forbidden")
        body = await request.read()  # over client_max_size: 413 before we parse anything
        try:
            check_depth(body)  # before parsing: json recurses per level (RecursionError)
            raw = body.decode("utf-8")
            data = json.loads(raw)
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
                raise ValueError("not an update")
        except ValueError:
            return self._bad_request()
        if not HANDLED_KEYS & data.keys():
            # Triage on the raw keys: a type we do not handle is acknowledged even when
            # PTB could not parse it (a newer Bot API shape), or Telegram would retry it.
            kind = next((key for key in data if key != "update_id"), "empty")
            return self._ignored(data["update_id"], kind, None)
        try:
            update = Update.de_json(data, self.bot)
        except (ValueError, KeyError, TypeError, AttributeError):
            return self._bad_request()
        normalized = normalize(update, allow_groups=self.deps.settings.allow_group_chats)
        query_id = update.callback_query.id if update.callback_query else None
        if isinstance(normalized, Ignored):
            return self._ignored(update.update_id, normalized.reason, query_id)
        if (busy := self.lifecycle.backlog.full()) is not None:
            return self.lifecycle.backlog.refusal(self.deps.metrics, "telegram", busy)
        try:
            admission = await self.lifecycle.admit(normalized, raw)
        except DatabaseUnavailable:
            log_event(log, "webhook_database_unavailable", level=logging.ERROR)
            return web.Response(status=503, text="database unavailable")
        if admission in ("process", "notify"):
            job = self.lifecycle.job(normalized, admission)
            edit = pressed_edit(update.callback_query) if update.callback_query else None
            await self.app.update_queue.put(TelegramJob(job, query_id, edit))
        elif admission == "drop":
            self._answer_later(query_id)
        return web.Response(text="ok")

    def _bad_request(self) -> web.Response:
        self.deps.metrics.updates.labels("telegram", "rejected").inc()
        log_event(log, "webhook_rejected", level=logging.WARNING, reason="bad_payload")
        return web.Response(status=400, text="bad request")

    def _ignored(self, update_id: int, reason: str, query_id: str | None) -> web.Response:
        self.deps.metrics.updates.labels("telegram", "ignored").inc()
        log_event(log, "update_ignored", update_id=update_id, reason=reason)
        self._answer_later(query_id)
        return web.Response(text="ok")

    # -- PTB handlers ----------------------------------------------------------------------

    async def _on_job(self, item: TelegramJob, context: ContextTypes.DEFAULT_TYPE) -> None:
        if item.callback_query_id is not None:
            await self._answer(item.callback_query_id)
        if item.edit is not None:
            await apply_edit(self.bot, item.edit)
        await self.lifecycle.process(item.job, self)

    async def _on_polled_update(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Polling mode: the same steps as the webhook, inside the chat's slot."""
        normalized = normalize(update, allow_groups=self.deps.settings.allow_group_chats)
        query = update.callback_query
        if isinstance(normalized, Ignored):
            self.deps.metrics.updates.labels("telegram", "ignored").inc()
            await self._answer_query(query)
            return
        try:
            admission = await self.lifecycle.admit(normalized, json.dumps(update.to_dict()))
        except DatabaseUnavailable:
            # getUpdates already moved past it: with polling (local development) it is lost.
            log_event(log, "polled_update_lost", level=logging.ERROR, update_id=update.update_id)
            return
        await self._answer_query(query)
        if admission in ("process", "notify"):
            if query is not None and (edit := pressed_edit(query)) is not None:
                await apply_edit(self.bot, edit)
            job = self.lifecycle.job(normalized, admission)
            await self.lifecycle.process(job, self)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log_event(
            log,
            "telegram_handler_error",
            level=logging.ERROR,
            error_type=type(context.error).__name__,
        )

    async def _answer_query(self, query: CallbackQuery | None) -> None:
        if query is not None:
            await self._answer(query.id)

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
            update = Update.de_json(json.loads(payload_json), self.bot)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"stored update does not parse: {type(exc).__name__}") from None
        normalized = normalize(update, allow_groups=self.deps.settings.allow_group_chats)
        return None if isinstance(normalized, Ignored) else normalized

    async def submit(self, job: Job) -> None:
        await self.app.update_queue.put(TelegramJob(job))

    async def typing(self, incoming: Incoming) -> None:
        try:
            await self.bot.send_chat_action(int(incoming.chat_id), ChatAction.TYPING)
        except TelegramError as exc:
            log_event(log, "typing_failed", error_type=type(exc).__name__)

    async def deliver(self, incoming: Incoming, reply: Reply) -> Delivery:
        chat_id = int(incoming.chat_id)
        markup = keyboard(reply) or command_keyboard(incoming, reply)
        preview = link_preview(reply)
        parts = split_text(reply.text, TEXT_LIMIT, measure=utf16_units)
        if not parts and markup is not None:
            parts = ["…"]  # buttons need a message to sit on
        bot = self.bot
        try:
            for number, part in enumerate(parts, start=1):
                last_markup = markup if number == len(parts) else None
                send = partial(
                    bot.send_message,
                    chat_id,
                    part,
                    reply_markup=last_markup,
                    link_preview_options=preview,
                )
                await self._send(send)
            if reply.attachment is not None:
                document = InputFile(reply.attachment.data, filename=reply.attachment.filename)
                await self._send(partial(bot.send_document, chat_id, document))
        except _Blocked:
            return "blocked"
        except _GiveUp:
            return "retry_later"
        except BadRequest as exc:
            log_event(log, "send_refused", level=logging.ERROR, error_type=type(exc).__name__)
            return "failed"
        return "sent" if parts or reply.attachment else "nothing"

    async def _send(self, call: Callable[[], Awaitable[object]]) -> None:
        """One Bot API send; only the send is retried (5xx, timeouts, 429), never the turn."""
        sends = self.deps.metrics.sends
        delays = self.options.retry_delays
        for attempt in range(len(delays) + 1):
            try:
                await call()
                sends.labels("telegram", "sent").inc()
                return
            except Forbidden:
                sends.labels("telegram", "blocked").inc()
                raise _Blocked from None
            except BadRequest:
                sends.labels("telegram", "refused").inc()
                raise
            except RetryAfter as exc:
                sends.labels("telegram", "retry").inc()
                pause = _retry_after_s(exc) + 0.1
            except AnswerLost:
                # Telegram may have delivered it: a retry could deliver it twice, so it is
                # counted and not retried (docs/delivery.md).
                sends.labels("telegram", "unconfirmed").inc()
                log_event(log, "send_unconfirmed", level=logging.WARNING)
                return
            except NetworkError as exc:  # 5xx, timeouts, connection errors
                sends.labels("telegram", "retry").inc()
                log_event(log, "send_retry", attempt=attempt + 1, error_type=type(exc).__name__)
                pause = delays[attempt] if attempt < len(delays) else 0.0
            if attempt == len(delays):
                break
            await asyncio.sleep(pause)
        sends.labels("telegram", "failed").inc()
        raise _GiveUp


# -- registration, commands, polling (the `lembra telegram` commands) ---------------------


def use_timedelta_periods() -> None:
    """Opt in to PTB's timedelta time periods (PTB 22.2+) for this process.

    Without it every RetryAfter PTB builds emits a deprecation warning.
    """
    os.environ.setdefault("PTB_TIMEDELTA", "true")


def _commands(rows: tuple[tuple[str, str, str], ...], lang: int) -> list[BotCommand]:
    return [BotCommand(row[0], row[lang]) for row in rows]


async def register_commands(bot: Bot, admins: frozenset[str]) -> int:
    """User commands for everyone; admin commands in each admin's private chat only.

    Menus are cosmetic: whether a command is allowed is decided by the runtime.
    Returns how many admin scopes were set.
    """
    user_pt, user_en = _commands(USER_COMMANDS, 1), _commands(USER_COMMANDS, 2)
    await bot.set_my_commands(user_pt, scope=BotCommandScopeDefault())
    await bot.set_my_commands(user_en, scope=BotCommandScopeDefault(), language_code="en")
    admin_ids = sorted(int(a[3:]) for a in admins if a.startswith("tg:") and a[3:].isdigit())
    for admin_id in admin_ids:
        scope = BotCommandScopeChat(admin_id)
        await bot.set_my_commands(user_pt + _commands(ADMIN_COMMANDS, 1), scope=scope)
        await bot.set_my_commands(
            user_en + _commands(ADMIN_COMMANDS, 2), scope=scope, language_code="en"
        )
    return len(admin_ids)


def webhook_target(settings: Settings) -> tuple[str, str]:
    """The (URL, secret) to register, or a ConfigError naming what is wrong."""
    url = settings.telegram_webhook_url
    if not url:
        raise ConfigError(
            "TELEGRAM_WEBHOOK_URL is required for --set-webhook: the public https address "
            "of this app's /telegram/webhook (e.g. https://bot.example.com/telegram/webhook)"
        )
    parts = urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        raise ConfigError(
            f"TELEGRAM_WEBHOOK_URL must be an https URL (got scheme {parts.scheme!r})"
        )
    try:
        port = parts.port or 443
    except ValueError:
        raise ConfigError("TELEGRAM_WEBHOOK_URL has an invalid port") from None
    if port not in WEBHOOK_PORTS:
        raise ConfigError(
            f"TELEGRAM_WEBHOOK_URL uses port {port}; Telegram only delivers webhooks to ports "
            "443, 80, 88 or 8443 (put the reverse proxy on one of them)"
        )
    if settings.telegram_webhook_secret is None:
        raise ConfigError("TELEGRAM_WEBHOOK_SECRET is required for --set-webhook")
    secret = settings.telegram_webhook_secret.get_secret_value()
    if not 1 <= len(secret) <= 256 or not set(secret) <= _SECRET_CHARS:
        raise ConfigError(
            "TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and - "
            "(Telegram's rule for secret_token)"
        )
    return url, secret


async def set_webhook(settings: Settings, *, drop_pending_updates: bool) -> str:
    """Register the webhook and the command menus; return the URL registered."""
    url, secret = webhook_target(settings)
    try:
        async with plain_bot(settings) as bot:
            await bot.set_webhook(
                url,
                secret_token=secret,
                allowed_updates=list(ALLOWED_UPDATES),
                drop_pending_updates=drop_pending_updates,
                max_connections=40,
            )
            await register_commands(bot, settings.admins)
    except InvalidToken:
        raise ConfigError("TELEGRAM_BOT_TOKEN was rejected by the Bot API") from None
    except BadRequest as exc:
        raise ConfigError(f"Telegram refused the webhook: {exc.message}") from None
    except TelegramError as exc:
        raise ServiceUnavailable(
            f"cannot reach the Telegram Bot API ({type(exc).__name__}); try again"
        ) from None
    log_event(log, "webhook_set", drop_pending_updates=drop_pending_updates)
    return url


async def webhook_info(settings: Settings) -> list[str]:
    """What Telegram says of the webhook (getWebhookInfo), as lines to print."""
    try:
        async with plain_bot(settings) as bot:
            info = await bot.get_webhook_info()
    except InvalidToken:
        raise ConfigError("TELEGRAM_BOT_TOKEN was rejected by the Bot API") from None
    except TelegramError as exc:
        raise ServiceUnavailable(
            f"cannot reach the Telegram Bot API ({type(exc).__name__}); try again"
        ) from None
    return webhook_info_lines(info)


def plain_bot(settings: Settings) -> Bot:
    """A Bot for one-off Bot API calls (no update handling)."""
    settings.require_telegram()
    assert settings.telegram_bot_token is not None
    return Bot(
        settings.telegram_bot_token.get_secret_value(),
        base_url=settings.telegram_api_base_url,
        request=AiohttpRequest(),
    )


async def run_polling(
    deps: Deps,
    lifecycle: UpdateLifecycle,
    *,
    drop_pending_updates: bool = False,
    options: TelegramOptions | None = None,
    ready: asyncio.Event | None = None,
) -> None:
    """Local development: delete the webhook and poll, with the same handlers, until cancelled."""
    channel = TelegramChannel(deps, lifecycle, options=options, polling=True)
    await channel.start()
    updater = channel.app.updater
    assert updater is not None
    try:
        await register_commands(channel.bot, deps.settings.admins)
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
