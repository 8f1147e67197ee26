"""Issue 15, channel side: what an outside fault campaign lost or mishandled, kept fixed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import Database
from storage.database import make_client
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import message_update
from tests.support.servers import RunningServer
from tests.support.tcp_proxy import TcpProxy

CHAT = 5551500


@pytest.fixture
async def outage_db(nx_server: RunningServer) -> AsyncIterator[tuple[Database, TcpProxy]]:
    """A fresh database reached through a relay the test can cut (a database outage)."""
    proxy = await TcpProxy(nx_server.uri).start()
    db = Database(make_client(proxy.uri, timeout_ms=300), f"t_outage_{CHAT}")
    await db.ensure_indexes()
    try:
        yield db, proxy
    finally:
        proxy.restore()
        await db.drop()
        await db.close()
        await proxy.close()


async def test_no_acknowledged_update_is_lost_across_a_database_outage_with_redeliveries(
    harness: Any, outage_db: tuple[Database, TcpProxy]
) -> None:
    """Failed on main before issue 15: the limiter ran before the record and counted every
    503'd redelivery, so while the database was still down a user's fourth delivery got
    200 and was dropped unrecorded, and after it came back every message was."""
    db, proxy = outage_db
    users = [CHAT + n for n in range(2)]
    async with harness(database=db, rate_limit_messages=3, rate_limit_window_seconds=60) as h:
        updates = [message_update(chat, f"m{n}") for chat in users for n in range(3)]
        proxy.cut()
        for update in updates:  # each one delivered, refused, redelivered, refused
            assert (await h.post_update(update)).status == 503
            assert (await h.post_update(update)).status == 503
        proxy.restore()
        acknowledged = [u for u in updates if await _redeliver_until_200(h, u)]
        await h.idle()

        assert len(acknowledged) == len(updates)
        statuses = [await h.status(f"tg:{u['update_id']}") for u in acknowledged]
        lost = [s for s in statuses if s != "done"]
        assert lost == []
        for chat in users:
            assert h.tg.texts(chat) == ["eco: m0", "eco: m1", "eco: m2"]


async def _redeliver_until_200(h: Any, update: dict[str, Any]) -> bool:
    """Redeliver as the platform does while it gets 503 (the driver reconnects meanwhile)."""
    for _ in range(100):
        if (await h.post_update(update)).status == 200:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_a_flooded_update_is_recorded_as_throttled_and_redeliveries_count_once(
    harness: Any,
) -> None:
    """Failed on main before issue 15: a dropped update left no record at all, and each
    redelivery of one update counted as another message."""
    async with harness(rate_limit_messages=2, rate_limit_window_seconds=60) as h:
        first = message_update(CHAT, "m0")
        for _ in range(3):  # one update redelivered: one message, not three
            assert (await h.post_update(first)).status == 200
        flood = [message_update(CHAT, f"m{n}") for n in range(1, 4)]
        for update in flood:
            assert (await h.post_update(update)).status == 200
        await h.idle()

        notice = (
            "Você está mandando mensagens rápido demais. Vou ignorar as próximas por um minuto."
        )
        assert h.tg.texts(CHAT) == ["eco: m0", "eco: m1", notice]
        assert [await h.status(f"tg:{u['update_id']}") for u in flood] == [
            "done",
            "done",
            "throttled",
        ]
        throttled = await h.record(f"tg:{flood[2]['update_id']}")
        assert throttled is not None
        assert throttled.payload_json == ""  # the refused message's text is not kept
        assert await h.metric("lembra_rate_limited_total") == 2


def _nested(levels: int) -> bytes:
    return b"[" * levels + b"]" * levels


async def test_deeply_nested_json_gets_400_on_both_webhooks(harness: Any) -> None:
    """Failed on main before issue 15: 200,000 levels raised RecursionError, a 500."""
    deep_inside = json.dumps(message_update(CHAT, "oi")).encode()
    deep_inside = deep_inside[:-1] + b', "x": ' + _nested(5_000) + b"}"
    async with harness() as h:
        assert (await h.post_update(_nested(200_000))).status == 400
        assert (await h.post_update(deep_inside)).status == 400
        payload = wa.encode(wa.message_payload("5511900001111", wa.text_content("oi")))
        wa_deep = payload[:-1] + b', "x": ' + _nested(5_000) + b"}"
        assert (await h.post_whatsapp(_nested(200_000))).status == 400
        assert (await h.post_whatsapp(wa_deep)).status == 400
        assert (await h.post_update(message_update(CHAT, "depois"))).status == 200
        await h.idle()
        assert h.tg.texts(CHAT) == ["eco: depois"]
        assert [i.text for i in h.runtime.seen] == ["depois"]


async def test_a_whatsapp_status_is_a_label_from_a_fixed_set(harness: Any) -> None:
    """Failed on main before issue 15: any status text became its own label (cardinality)."""
    async with harness() as h:
        for status in ("read", "x" * 5_000, "bogus-1", "bogus-2"):
            assert (await h.post_whatsapp(wa.status_payload(status))).status == 200
        metrics = await (await h.client.get("/metrics")).text()
        labels = [
            line.split('status="')[1].split('"')[0]
            for line in metrics.splitlines()
            if line.startswith("lembra_whatsapp_status_callbacks_total{")
        ]
        assert sorted(labels) == ["other", "read"]
        assert await h.metric("lembra_whatsapp_status_callbacks_total", status="other") == 3
