"""Issue 15, channel side: what an outside fault campaign lost or mishandled, kept fixed."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bot.delivery.refusals import RefusalLog
from bot.web.app import CHANNELS
from storage import Database
from storage.errors import DatabaseUnavailable
from tests.bot.conftest import events, json_logs
from tests.bot.test_channel_commands import real_runtime, say
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import callback_update, message_update
from tests.support.tcp_proxy import TcpProxy

CHAT = 5551500


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


async def test_deeply_nested_json_is_acknowledged_and_dropped_on_both_webhooks(
    harness: Any,
) -> None:
    """Failed on main before issue 15: 200,000 levels raised RecursionError, a 500.

    It is JSON, so since issue 30 it is a 200 (`update_rejected`), never a 400 the
    platform would deliver again (DESIGN 10.4), and it is never parsed.
    """
    deep_inside = json.dumps(message_update(CHAT, "oi")).encode()
    deep_inside = deep_inside[:-1] + b', "x": ' + _nested(5_000) + b"}"
    async with harness() as h:
        assert (await h.post_update(_nested(200_000))).status == 200
        assert (await h.post_update(deep_inside)).status == 200
        payload = wa.encode(wa.message_payload("5511900001111", wa.text_content("oi")))
        wa_deep = payload[:-1] + b', "x": ' + _nested(5_000) + b"}"
        assert (await h.post_whatsapp(_nested(200_000))).status == 200
        assert (await h.post_whatsapp(wa_deep)).status == 200
        assert await h.metric("lembra_updates_total", channel="telegram", outcome="malformed") == 2
        assert await h.metric("lembra_updates_total", channel="whatsapp", outcome="malformed") == 2
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


GROUP = -1005551500


def group_message(from_id: int, text: str) -> dict[str, Any]:
    return message_update(
        GROUP, text, from_id=from_id, chat={"id": GROUP, "type": "group", "title": "família"}
    )


async def test_admin_commands_are_refused_in_a_group_and_answered_in_private(
    harness: Any,
) -> None:
    """Failed on main before issue 15: /users in a group posted every user id there."""
    admin, member = CHAT + 10, CHAT + 11
    lembra = real_runtime(harness)(admin_user_ids=f"tg:{admin}", allow_group_chats=True)
    async with lembra as h:
        await say(h, member, "anota: comprar leite")  # a user the admin output would list
        for command in ("/users", "/stats"):
            assert (await h.post_update(group_message(admin, command))).status == 200
        await h.idle()

        in_group = h.tg.texts(GROUP)
        assert len(in_group) == 2
        assert all("conversa privada" in reply for reply in in_group)
        assert not any(f"tg:{member}" in reply or "users:" in reply for reply in in_group)
        events = await h.db.ledger.events(f"tg:{admin}")
        assert [(e.payload["command"], e.payload["allowed"]) for e in events] == [
            ("users", False),
            ("stats", False),
        ]
        assert f"tg:{member}" in await say(h, admin, "/users")  # in private: answered


async def test_after_forget_no_processed_update_holds_the_user_id(harness: Any) -> None:
    """Failed on main before issue 15: her records kept `user_id` for up to 8 days."""
    alice = CHAT + 20
    async with real_runtime(harness)() as h:
        await say(h, alice, "anota: comprar leite")
        await say(h, alice, "/forget")
        (buttons,) = h.tg.sent(chat_id=alice)[-1].params["reply_markup"]["inline_keyboard"]
        await h.post_update(callback_update(alice, buttons[0]["callback_data"]))
        await h.idle()
        assert await h.db.users.get(f"tg:{alice}") is None

        records = await h.db.client[h.db.name]["processed_updates"].find({}).to_list(None)
        assert len(records) >= 3
        assert str(alice) not in json.dumps(records, default=str)


async def test_healthz_is_degraded_while_every_write_fails(
    harness: Any, outage_db: tuple[Database, TcpProxy]
) -> None:
    """Failed on main before issue 15: /healthz only pinged, so a full disk stayed 200."""
    db, proxy = outage_db
    async with harness(database=db) as h:
        assert (await h.client.get("/healthz")).status == 200
        proxy.refuse_writes = True
        proxy.cut()  # drop pooled connections; new ones pass reads, refuse writes
        proxy.restore()
        for _ in range(100):  # the driver reconnects first (ping fails until it has)
            body = await (response := await h.client.get("/healthz")).json()
            if body["status"] != "unavailable":
                break
            await asyncio.sleep(0.05)
        assert response.status == 503
        assert body == {"status": "degraded", "database": "embedded", "writes": "failing"}
        # reads still work: not an outage (the driver may still be re-selecting the server)
        for _ in range(100):
            try:
                await db.ping()
                break
            except DatabaseUnavailable:
                await asyncio.sleep(0.05)
        else:
            pytest.fail("reads did not come back while only writes were refused")
        proxy.refuse_writes = False
        assert (await h.client.get("/healthz")).status == 200


async def test_wrong_secrets_cannot_flood_the_log(harness: Any) -> None:
    """Failed on main before issue 15: 2 WARNING lines per wrong-secret POST (100 here)."""
    with json_logs() as stream:
        async with harness() as h:
            for _ in range(50):
                response = await h.post_update(message_update(CHAT, "oi"), secret="wrong")
                assert response.status == 403
    warnings = [e for e in events(stream) if e["level"] == "warning"]
    assert [(e["event"], e["status"]) for e in warnings] == [("request_refused", 403)]

    now = [0.0]
    refusals = RefusalLog(window_s=60, clock=lambda: now[0])
    with json_logs() as stream:
        for _ in range(3):
            refusals.note("/telegram/webhook", 403, "127.0.0.1")
        now[0] = 61.0
        refusals.note("/telegram/webhook", 403, "127.0.0.1")
    summary = [e for e in events(stream) if e["event"] == "requests_refused_suppressed"]
    assert [e["count"] for e in summary] == [2]  # the suppressed ones are still told


async def test_in_a_group_one_members_pending_confirmation_survives_anothers(
    harness: Any,
) -> None:
    """Failed on main before issue 15: B's "apaga tudo" replaced A's pending confirmation,
    and A's "sim" then got "nada pendente"."""
    ana, bia = CHAT + 30, CHAT + 31
    async with real_runtime(harness)(allow_group_chats=True) as h:
        for member, note in ((ana, "comprar leite"), (bia, "comprar pão")):
            assert (await h.post_update(group_message(member, f"anota: {note}"))).status == 200
        for member in (ana, bia):
            assert (await h.post_update(group_message(member, "apaga tudo"))).status == 200
        await h.idle()
        assert (await h.post_update(group_message(ana, "sim"))).status == 200
        await h.idle()

        assert "Apaguei 1 item" in h.tg.texts(GROUP)[-1]
        assert await h.db.items.list_for(f"tg:{ana}") == []
        assert len(await h.db.items.list_for(f"tg:{bia}")) == 1  # hers waits for her "sim"
        assert await h.db.pending.get(f"tg:{bia}", f"tg:{GROUP}", now_ms=h.deps.clock.ms())


async def test_a_wall_clock_step_back_delays_neither_the_redrive_nor_a_lease(
    harness: Any,
) -> None:
    """Failed on main before issue 15: after the clock stepped back 10 minutes, what a dead
    worker left (a `received` record, its chat lease) waited out the whole step."""
    chat = CHAT + 40
    async with harness() as h:
        update = message_update(chat, "antes do passo")
        before_step = h.deps.clock.ms() + 10 * 60_000  # the clock then went back 10 minutes
        update_id = f"tg:{update['update_id']}"
        await h.db.updates.record(update_id, json.dumps(update), now_ms=before_step)
        await h.db.leases.acquire(f"chat:tg:{chat}", "dead", ttl_ms=15_000, now_ms=before_step)

        assert await h.client.server.app[CHANNELS].lifecycle.redrive_pass() == 1
        await h.idle()

        assert h.tg.texts(chat) == ["eco: antes do passo"]
        assert await h.status(update_id) == "done"
