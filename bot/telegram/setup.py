"""`lembra telegram` registration: the webhook (its target checked), command menus, `--info`."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from urllib.parse import urlsplit

from telegram import Bot, BotCommand, BotCommandScope, BotCommandScopeChat, BotCommandScopeDefault
from telegram.error import BadRequest, InvalidToken, TelegramError

from agent.errors import ServiceUnavailable
from agent.texts.menu import COMMANDS, USER_COMMANDS, Command
from agent.types import Language
from bot.telegram.http import AiohttpRequest
from bot.telegram.ui import last_delivery_error, webhook_info_lines
from bot.telegram.updates import ALLOWED_UPDATES
from config.errors import ConfigError
from config.logging import log_event
from config.settings import Settings

log = logging.getLogger("lembra.telegram")

WEBHOOK_PORTS = frozenset({443, 80, 88, 8443})
_SECRET_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

# Menus in each language Lembra speaks; the default one (no language_code) in DEFAULT_LANGUAGE.
MENU_LANGUAGES: tuple[Language, ...] = ("pt", "en")


def use_timedelta_periods() -> None:
    """Opt in to PTB's timedelta time periods (PTB 22.2+) for this process.

    Without it every RetryAfter PTB builds emits a deprecation warning.
    """
    os.environ.setdefault("PTB_TIMEDELTA", "true")


def _commands(rows: tuple[Command, ...], language: Language) -> list[BotCommand]:
    return [BotCommand(row.name, row.menu[language]) for row in rows]


async def register_commands(bot: Bot, admins: frozenset[str], default: Language) -> int:
    """The full menu for everyone, per language; the admin menu in each admin's private chat.

    Built from the table `ajuda` names its commands from (agent/texts/menu.py). Menus are
    cosmetic: whether a command is allowed is decided by the runtime. Returns how many
    admin scopes were set.
    """
    admin_ids = sorted(int(a[3:]) for a in admins if a.startswith("tg:") and a[3:].isdigit())
    scopes: list[BotCommandScope] = [BotCommandScopeDefault()]
    scopes += [BotCommandScopeChat(admin_id) for admin_id in admin_ids]
    for scope in scopes:
        rows = USER_COMMANDS if isinstance(scope, BotCommandScopeDefault) else COMMANDS
        await bot.set_my_commands(_commands(rows, default), scope=scope)
        for language in MENU_LANGUAGES:
            await bot.set_my_commands(
                _commands(rows, language), scope=scope, language_code=language
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
            await register_commands(bot, settings.admins, settings.default_language)
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


@dataclass(frozen=True, slots=True)
class BotState:
    """What getMe and getWebhookInfo say (`lembra check`, `serve`'s readiness)."""

    username: str
    webhook_url: str  # "" when no webhook is set
    pending: int
    last_error: str | None  # "<ISO time> <message>", None when Telegram reports none
    allowed_updates: tuple[str, ...]  # empty: Telegram's default set


async def bot_state(settings: Settings) -> BotState:
    """getMe, then getWebhookInfo; a refused token is a ConfigError, no answer ServiceUnavailable."""
    try:
        async with plain_bot(settings) as bot:  # entering calls getMe
            info = await bot.get_webhook_info()
            username = bot.username
    except InvalidToken:
        raise ConfigError("TELEGRAM_BOT_TOKEN was refused by the Bot API (getMe)") from None
    except TelegramError as exc:
        raise ServiceUnavailable(
            f"cannot reach the Telegram Bot API at TELEGRAM_API_BASE_URL ({type(exc).__name__})"
        ) from None
    return BotState(
        username=username,
        webhook_url=info.url or "",
        pending=info.pending_update_count,
        last_error=last_delivery_error(info),
        allowed_updates=tuple(info.allowed_updates or ()),
    )


async def set_menus(settings: Settings) -> bool:
    """Set the command menus with a one-off Bot (`serve` at start); False (logged) on failure."""
    try:
        async with plain_bot(settings) as bot:
            await register_commands(bot, settings.admins, settings.default_language)
    except TelegramError as exc:
        log_event(log, "menus_not_set", level=logging.WARNING, error_type=type(exc).__name__)
        return False
    log_event(log, "menus_set")
    return True


def plain_bot(settings: Settings) -> Bot:
    """A Bot for one-off Bot API calls (no update handling)."""
    settings.require_telegram()
    assert settings.telegram_bot_token is not None
    return Bot(
        settings.telegram_bot_token.get_secret_value(),
        base_url=settings.telegram_api_base_url,
        request=AiohttpRequest(),
    )
