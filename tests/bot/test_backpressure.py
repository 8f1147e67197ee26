"""Backpressure: above MAX_BACKLOG (or MAX_BACKLOG_AGE_S) a webhook answers 503 and records nothing."""

from __future__ import annotations

import asyncio
import io
from typing import Any

from bot.web.app import CHANNELS
from tests.bot.conftest import events, json_logs
from tests.support.fake_telegram import message_update
from tests.support.scripted_runtime import ScriptedRuntime


async def test_a_full_backlog_refuses_with_503_records_nothing_and_recovers(harness: Any) -> None:
    held = ScriptedRuntime(release=asyncio.Event())
    with json_logs() as logged:
        async with harness(runtime=held, max_backlog=2) as h:
            await _full_backlog(h, held, logged)


async def _full_backlog(h: Any, held: ScriptedRuntime, json_logs: io.StringIO) -> None:
    first, second = message_update(801, "devagar"), message_update(802, "devagar")
    for update in (first, second):
        assert (await h.post_update(update)).status == 200
    third = message_update(803, "oi")
    refused = await h.post_update(third)
    assert refused.status == 503
    assert refused.headers["Retry-After"].isdigit()
    assert await h.record(f"tg:{third['update_id']}") is None  # the platform redelivers it
    assert await h.metric("lembra_updates_total", channel="telegram", outcome="refused_size") == 1
    warnings = [e for e in events(json_logs) if e["event"] == "backpressure"]
    assert warnings
    assert warnings[0]["level"] == "warning"
    assert warnings[0]["reason"] == "size"

    held.release.set()  # type: ignore[union-attr]
    await h.idle()
    assert (await h.post_update(third)).status == 200  # the redelivery is simply new
    await h.until_status(f"tg:{third['update_id']}", "done")
    assert len(h.tg.texts(803)) == 1
    assert h.tg.texts(801) == ["pronto"]


async def test_an_old_backlog_refuses_too(harness: Any) -> None:
    held = ScriptedRuntime(release=asyncio.Event())
    async with harness(runtime=held, max_backlog=100, max_backlog_age_s=30) as h:
        backlog = h.client.server.app[CHANNELS].lifecycle.backlog  # type: ignore[union-attr]
        now = [1_000.0]
        backlog.clock = lambda: now[0]  # the injectable clock: no sleeping in tests
        assert (await h.post_update(message_update(811, "devagar"))).status == 200
        now[0] += 10
        assert (await h.post_update(message_update(812, "devagar"))).status == 200
        now[0] += 25  # the oldest has now waited 35 s
        late = message_update(813, "oi")
        assert (await h.post_update(late)).status == 503
        assert await h.record(f"tg:{late['update_id']}") is None
        assert (
            await h.metric("lembra_updates_total", channel="telegram", outcome="refused_age") == 1
        )
        held.release.set()  # type: ignore[union-attr]
        await h.idle()
        assert (await h.post_update(late)).status == 200
