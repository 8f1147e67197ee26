"""Telegram faults: Bot API errors and timeouts, blocked users, floods, the database down."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from storage import Database
from storage.database import make_client
from storage.embedded import EmbeddedServer
from tests.bot.conftest import FAST, events, json_logs
from tests.support.fake_telegram import message_update

CHAT = 5550002


async def test_a_5xx_when_sending_is_retried_and_the_reply_arrives_once(harness: Any) -> None:
    async with harness() as h:
        h.tg.fail("sendMessage", 502, "Bad Gateway", times=2)
        update = message_update(CHAT, "oi")
        await h.post_update(update)
        await h.idle()

        assert [c.status for c in h.tg.attempts("sendMessage")] == [502, 502, 200]
        assert h.tg.texts(CHAT) == ["eco: oi"]
        assert len(h.runtime.seen) == 1  # only the send was retried, not the turn
        assert await h.status(f"tg:{update['update_id']}") == "done"


async def test_a_send_written_in_full_whose_answer_timed_out_is_not_retried(
    harness: Any,
) -> None:
    """Failed on main before issue 15 ([0, 200]: Telegram may have delivered the first, so
    the user could get the reply twice). See docs/delivery.md."""
    async with harness() as h:
        h.tg.drop("sendMessage", after_s=1.0)  # the client gives up after 0.5 s
        update = message_update(CHAT, "oi")
        await h.post_update(update)
        await h.idle()

        assert [c.status for c in h.tg.attempts("sendMessage")] == [0]
        assert len(h.runtime.seen) == 1
        assert await h.status(f"tg:{update['update_id']}") == "done"
        sample = {"channel": "telegram", "outcome": "unconfirmed"}
        assert await h.metric("lembra_messages_sent_total", **sample) == 1


async def test_a_429_retry_after_is_honoured(harness: Any) -> None:
    async with harness() as h:
        h.tg.fail("sendMessage", 429, "Too Many Requests: retry after 1", retry_after=1)
        await h.post_update(message_update(CHAT, "oi"))
        await h.idle()

        first, second = h.tg.attempts("sendMessage")
        assert (first.status, second.status) == (429, 200)
        assert second.at - first.at >= 1.0
        assert h.tg.texts(CHAT) == ["eco: oi"]


async def test_a_user_who_blocked_the_bot_is_marked_inactive(harness: Any) -> None:
    async with harness() as h:
        await h.db.users.ensure(f"tg:{CHAT}", language="pt", timezone="UTC", now_ms=1)
        h.tg.block(CHAT)
        update = message_update(CHAT, "longo")  # several parts: stop at the first refusal
        await h.post_update(update)
        await h.idle()

        user = await h.db.users.get(f"tg:{CHAT}")
        assert user is not None
        assert user.active is False
        assert [c.status for c in h.tg.attempts("sendMessage")] == [403]
        assert await h.status(f"tg:{update['update_id']}") == "done"


async def test_a_reply_that_cannot_be_sent_is_kept_and_resent_by_the_redrive(
    harness: Any,
) -> None:
    options = replace(
        FAST, jobs=True, tuning=replace(FAST.tuning, stale_after_s=0.3, redrive_interval_s=0.1)
    )
    async with harness(options=options) as h:
        h.tg.fail("sendMessage", 500, times=4)  # the first try and its three retries
        update = message_update(CHAT, "escolhe")
        await h.post_update(update)
        await h.tg.wait_for(lambda: len(h.tg.texts(CHAT)) == 1)
        await h.idle()

        assert len(h.runtime.seen) == 1  # re-sent, not handled again
        sent = h.tg.sent(chat_id=CHAT)[0]
        assert (
            sent.params["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
            == f"c:pk1:0@{CHAT}"
        )
        assert await h.status(f"tg:{update['update_id']}") == "done"
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="redriven") == 1


async def test_with_the_database_down_the_webhook_answers_503_and_tells_nobody(
    harness: Any,
) -> None:
    server = EmbeddedServer(Path(tempfile.gettempdir()), memory=True)
    uri = server.start()
    db = Database(make_client(uri, timeout_ms=300), "down")
    try:
        async with harness(database=db) as h:
            health = await h.client.get("/healthz")
            assert health.status == 200
            server.stop()

            update = message_update(CHAT, "oi")
            first = await h.post_update(update)
            redelivered = await h.post_update(update)
            health = await h.client.get("/healthz")
            await h.idle()

            assert (first.status, redelivered.status) == (503, 503)
            assert health.status == 503
            assert await health.json() == {"status": "unavailable", "database": "embedded"}
            assert h.runtime.seen == []
            assert h.tg.sent() == []
    finally:
        server.stop()
        await db.close()


async def test_a_flood_gets_one_notice_then_silence_until_it_calms(harness: Any) -> None:
    async with harness(rate_limit_messages=3, rate_limit_window_seconds=2) as h:
        flood = [message_update(CHAT, f"msg {n}") for n in range(6)]
        for update in flood:
            assert (await h.post_update(update)).status == 200
        await h.post_update(message_update(CHAT + 1, "outra pessoa"))
        await h.idle()

        assert h.tg.texts(CHAT) == [
            "eco: msg 0",
            "eco: msg 1",
            "eco: msg 2",
            # the window is RATE_LIMIT_WINDOW_SECONDS=2 here (issue 34: durations from settings)
            "Você está mandando mensagens rápido demais. Vou ignorar as próximas por 2 segundos.",
        ]
        assert h.tg.texts(CHAT + 1) == ["eco: outra pessoa"]
        assert [i.text for i in h.runtime.seen if i.user_id == f"tg:{CHAT}"] == [
            "msg 0",
            "msg 1",
            "msg 2",
        ]
        assert await h.metric("lembra_rate_limited_total") == 3

        await asyncio.sleep(2.1)  # the window drains
        await h.post_update(message_update(CHAT, "de novo"))
        await h.idle()
        assert h.tg.texts(CHAT)[-1] == "eco: de novo"


async def test_message_text_never_reaches_the_logs(harness: Any) -> None:
    secret_text = "meu segredo 8271"
    with json_logs() as stream:  # what `lembra serve` logs, at its most verbose
        async with harness() as h:
            h.tg.fail("sendMessage", 500)
            await h.post_update(message_update(CHAT, secret_text))
            await h.post_update(message_update(CHAT, "quebra"))
            await h.idle()
    names = [e["event"] for e in events(stream)]
    assert "send_retry" in names
    assert "turn_failed" in names
    assert secret_text not in stream.getvalue()
    assert "eco:" not in stream.getvalue()
