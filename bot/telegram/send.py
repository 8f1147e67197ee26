"""Replies sent through the Bot API: text split to Telegram's limit, buttons, attachments.

Each send is retried by the one retry policy (agent/services/retrying.py): 429 after its
Retry-After, 5xx, timeouts and connection errors; PTB's rate limiter only paces.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Awaitable, Callable
from datetime import timedelta
from functools import partial

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter
from telegram.warnings import PTBDeprecationWarning

from agent.metrics import Metrics
from agent.services.retrying import GaveUp, Retry, RetryPolicy
from agent.types import Incoming, Reply
from bot.delivery.lifecycle import Delivery
from bot.render import (
    TELEGRAM_CALLBACK_MAX_BYTES,
    ChoiceDataTooLong,
    encode_choice,
    owner_of,
    shorten,
    split_text,
    utf16_units,
)
from bot.telegram.http import AnswerLost
from bot.telegram.ui import command_keyboard, link_preview
from config.logging import log_event

log = logging.getLogger("lembra.telegram")

TEXT_LIMIT = 4096
BUTTON_LABEL_LIMIT = 64


def keyboard(reply: Reply, *, owner: str) -> InlineKeyboardMarkup | None:
    """Inline buttons for a reply's choices, bound to `owner` (None when none or they cannot fit)."""
    if not reply.choices:
        return None
    try:
        buttons = [
            InlineKeyboardButton(
                shorten(choice.label, BUTTON_LABEL_LIMIT),
                callback_data=encode_choice(
                    reply.choice_token,
                    choice.index,
                    owner=owner,
                    max_bytes=TELEGRAM_CALLBACK_MAX_BYTES,
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


def joined(*keyboards: InlineKeyboardMarkup | None) -> InlineKeyboardMarkup | None:
    """One keyboard of the given ones' rows, in order (a list's ✓ buttons above its ‹ ›)."""
    rows = [list(row) for markup in keyboards if markup for row in markup.inline_keyboard]
    return InlineKeyboardMarkup(rows) if rows else None


class _Blocked(Exception):
    pass


class _GiveUp(Exception):
    pass


def retry_after_s(exc: RetryAfter) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


async def deliver(
    bot: Bot,
    incoming: Incoming,
    reply: Reply,
    *,
    metrics: Metrics,
    policy: RetryPolicy,
) -> Delivery:
    """Send a reply's parts, buttons on the last, then its attachment; say how it went."""
    chat_id = int(incoming.chat_id)
    markup = joined(
        keyboard(reply, owner=owner_of(incoming.user_id)), command_keyboard(incoming, reply)
    )
    preview = link_preview(reply)
    parts = split_text(reply.text, TEXT_LIMIT, measure=utf16_units)
    if not parts and markup is not None:
        parts = ["…"]  # buttons need a message to sit on
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
            await _send(send, metrics=metrics, policy=policy)
        if reply.attachment is not None:
            with reply.attachment.open() as file:  # read whole by PTB: Telegram takes <= 50 MB
                document = InputFile(file, filename=reply.attachment.filename)
            await _send(
                partial(bot.send_document, chat_id, document), metrics=metrics, policy=policy
            )
    except _Blocked:
        return "blocked"
    except _GiveUp:
        return "retry_later"
    except BadRequest as exc:
        log_event(log, "send_refused", level=logging.ERROR, error_type=type(exc).__name__)
        return "failed"
    return "sent" if parts or reply.attachment else "nothing"


async def _send(
    call: Callable[[], Awaitable[object]], *, metrics: Metrics, policy: RetryPolicy
) -> None:
    """One Bot API send; only the send is retried (5xx, timeouts, 429), never the turn."""
    sends = metrics.sends

    async def attempt() -> None:
        try:
            await call()
        except (BadRequest, Forbidden, AnswerLost):
            raise  # refused, blocked, or maybe delivered: another try cannot help
        except RetryAfter as exc:
            raise Retry("HTTP 429", wait_s=retry_after_s(exc) + 0.1) from None
        except NetworkError as exc:  # 5xx, timeouts, connection errors
            raise Retry(type(exc).__name__) from None

    def retried(number: int, error: Retry, wait_s: float) -> None:
        sends.labels("telegram", "retry").inc()
        log_event(log, "send_retry", attempt=number, reason=error.reason, wait_s=round(wait_s, 2))

    try:
        await policy.call(attempt, on_retry=retried)
    except Forbidden:
        sends.labels("telegram", "blocked").inc()
        raise _Blocked from None
    except BadRequest:
        sends.labels("telegram", "refused").inc()
        raise
    except AnswerLost:
        # Telegram may have delivered it: a retry could deliver it twice, so it is
        # counted and not retried (docs/delivery.md).
        sends.labels("telegram", "unconfirmed").inc()
        log_event(log, "send_unconfirmed", level=logging.WARNING)
        return
    except GaveUp:
        sends.labels("telegram", "failed").inc()
        raise _GiveUp from None
    sends.labels("telegram", "sent").inc()
