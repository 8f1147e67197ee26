"""Outgoing messages (issue 34): one retry policy decides for Telegram and WhatsApp sends,
its attempts and no more; the Telegram error handler logs a traceback, never text.

Failed before: PTB's rate limiter retried a 429 twice inside each of our own three
retries, so one message cost up to 12 Bot API calls.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from telegram.ext import CallbackContext

from agent.services.retrying import RetryPolicy
from bot.web.app import CHANNELS
from tests.bot.conftest import FAST, events, json_logs
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import message_update

CHAT = 5556001
PHONE = "5511966660000"


class Waits:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def _options(waits: Waits) -> Any:
    policy = RetryPolicy(delays=(0.05, 0.05, 0.05), sleep=waits)
    return replace(
        FAST,
        telegram=replace(FAST.telegram, retry=policy),
        whatsapp=replace(FAST.whatsapp, retry=policy),
    )


async def test_telegram_429s_cost_the_policys_attempts_and_nothing_more(harness: Any) -> None:
    waits = Waits()
    async with harness(options=_options(waits)) as h:
        h.tg.fail("sendMessage", 429, "Too Many Requests", retry_after=1, times=50)
        update = message_update(CHAT, "oi")
        await h.post_update(update)
        await h.idle()

        assert len(h.tg.attempts("sendMessage")) == 4
        assert waits.waits == [1.1, 1.1, 1.1]  # each Retry-After, as Telegram asked
        record = await h.record(f"tg:{update['update_id']}")
        assert record is not None
        assert record.status == "received"  # the reply is kept for the re-drive
        assert record.reply_json


async def test_whatsapp_5xx_and_429_share_the_same_bound(harness: Any) -> None:
    waits = Waits()
    async with harness(options=_options(waits)) as h:
        h.wa.fail(503, times=2)
        h.wa.fail(429, retry_after=2, times=50)
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("oi")))
        await h.idle()

        assert h.wa.attempts == 4
        assert waits.waits == [0.05, 0.05, 2.0]
        assert h.wa.sent_to(PHONE) == []


async def test_the_telegram_error_handler_logs_the_traceback_without_message_text(
    harness: Any,
) -> None:
    """Failed before issue 34: the error handler logged the exception's type only."""

    said = "quero lembrar do exame de sangue"

    def handler_that_fails() -> None:
        raise ValueError(said)  # a library quoting the user's text in its message

    async with harness() as h:
        channel = h.client.server.app[CHANNELS].telegram
        try:
            handler_that_fails()
        except ValueError as exc:
            error = exc
        context = CallbackContext.from_error(None, error, channel.app)
        with json_logs() as stream:
            await channel._on_error(None, context)

    (line,) = [e for e in events(stream) if e["event"] == "telegram_handler_error"]
    assert line["error_type"] == "ValueError"
    assert "handler_that_fails" in line["traceback"]
    assert "exame de sangue" not in stream.getvalue()
