"""`lembra telegram` registration: the webhook (its target checked), command menus, `--info`."""

from __future__ import annotations

import logging
import os
from urllib.parse import urlsplit

from telegram import Bot, BotCommand, BotCommandScopeChat, BotCommandScopeDefault
from telegram.error import BadRequest, InvalidToken, TelegramError

from agent.errors import ServiceUnavailable
from bot.telegram.http import AiohttpRequest
from bot.telegram.ui import webhook_info_lines
from bot.telegram.updates import ALLOWED_UPDATES
from config.errors import ConfigError
from config.logging import log_event
from config.settings import Settings

log = logging.getLogger("lembra.telegram")

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
