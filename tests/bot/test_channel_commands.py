"""User and admin commands, metrics and background jobs through HTTP with the real runtime.

The web app runs as `lembra serve` wires it (Runtime.handle, offline planner); the test
posts real-shaped Telegram updates and WhatsApp payloads and observes the fake Bot API,
the fake Graph API, /metrics and the database.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from agent.conversation.runtime import Runtime
from agent.texts import text
from agent.types import Incoming, Reply
from tests.bot.conftest import FAST, Harness
from tests.support import fake_whatsapp as wa
from tests.support.bulk import stored_notes
from tests.support.fake_telegram import callback_update, message_update

ALICE, BOB, ADMIN = 5550701, 5550702, 5550703
PHONE = "5511977776666"
OFFLINE = {"openai_api_key": None, "openai_base_url": None, "tmdb_api_key": None}


def real_runtime(harness: Any) -> Callable[..., Any]:
    """`async with lembra(**settings) as h:` the app with the real runtime behind it."""

    @asynccontextmanager
    async def make(**overrides: Any) -> AsyncIterator[Harness]:
        runtimes: list[Runtime] = []

        async def handle(incoming: Incoming) -> Reply:
            return await runtimes[0].handle(incoming)

        async with harness(handler=handle, **(OFFLINE | overrides)) as h:
            runtimes.append(Runtime(h.deps))  # built on the app's own deps, as `serve` does
            yield h

    return make


async def say(h: Harness, chat: int, message: str) -> str:
    """Post one message from `chat` and return the last text the bot sent there."""
    before = len(h.tg.texts(chat))
    assert (await h.post_update(message_update(chat, message))).status == 200
    await h.idle()
    assert len(h.tg.texts(chat)) > before, message
    return h.tg.texts(chat)[-1]


async def test_start_answers_with_the_privacy_notice_on_both_channels(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        reply = await say(h, ALICE, "/start")
        assert reply.endswith(text("privacy", "pt"))
        assert "/export" in reply
        assert "/forget" in reply

        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("/start")))
        await h.idle()
        (sent,) = h.wa.sent_to(PHONE)
        assert sent["text"]["body"].endswith(text("privacy", "pt"))


async def test_export_arrives_as_a_json_document_with_only_the_users_data(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await say(h, ALICE, "anota: comprar leite")
        await say(h, BOB, "anota: segredo do bob")

        reply = await say(h, ALICE, "/export")

        assert reply.startswith("Seus dados: 1 item,")
        (document,) = h.tg.sent("sendDocument", chat_id=ALICE)
        ((filename, data),) = document.files.values()
        assert filename == f"lembra-export-tg-{ALICE}.json"
        exported = json.loads(data)
        assert exported["user"]["_id"] == f"tg:{ALICE}"
        assert [item["content"] for item in exported["items"]] == ["comprar leite"]
        assert "bob" not in data.decode()


async def test_while_the_index_catches_up_serve_is_ready_and_searches_find_everything(
    harness: Any,
) -> None:
    """Issue 47: an upgrade's catch-up runs beside serving; nobody can tell from a reply."""
    async with real_runtime(harness)() as h:
        await say(h, ALICE, "anota: comprar leite")
        await stored_notes(h.db, f"tg:{ALICE}", 30)  # stored whole, by a version without words
        await h.db.word_index.mark_stale()
        assert await h.db.items.prepare_index()  # as a start finds them: not indexed yet

        ready = await h.client.get("/readyz")
        found = await say(h, ALICE, "procura número 17")

        assert ready.status == 200
        assert not h.db.word_index.ready
        assert "nota número 17 — «ação»" in found
        await h.db.items.catch_up()
        assert await say(h, ALICE, "procura número 17") == found


async def test_a_long_export_is_announced_then_arrives_as_a_document(harness: Any) -> None:
    """Issue 47: "preparando seu arquivo..." at once, then the file, written as it was read."""
    async with real_runtime(harness)() as h:
        await say(h, ALICE, "anota: comprar leite")
        await stored_notes(h.db, f"tg:{ALICE}", 1_200)

        await say(h, ALICE, "/export")

        preparing, ready = h.tg.texts(ALICE)[-2:]
        assert preparing.startswith("Preparando seu arquivo... (1201 itens)")
        assert ready.startswith("Seus dados: 1201 itens,")
        (document,) = h.tg.sent("sendDocument", chat_id=ALICE)
        ((filename, data),) = document.files.values()
        assert filename == f"lembra-export-tg-{ALICE}.json"
        assert len(json.loads(data)["items"]) == 1_201
        outgoing = h.deps.settings.data_dir / "exports" / "outgoing"
        assert list(outgoing.iterdir()) == []  # sent: its file is gone


async def test_a_long_export_reaches_whatsapp_the_same_way(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("anota: comprar leite")))
        await h.idle()
        await stored_notes(h.db, f"wa:{PHONE}", 1_200)

        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("/export")))
        await h.idle()

        *_, preparing, ready = h.wa.bodies(PHONE)
        assert preparing.startswith("Preparando seu arquivo... (1201 itens)")
        assert ready.startswith("Seus dados: 1201 itens,")
        ((filename, kind, data),) = h.wa.media
        assert (filename, kind) == (f"lembra-export-wa-{PHONE}.json", "application/json")
        assert len(json.loads(data)["items"]) == 1_201
        assert h.wa.sent_to(PHONE)[-1]["type"] == "document"


async def test_forget_previews_then_a_button_press_erases_the_account(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await say(h, ALICE, "anota: comprar leite")
        await say(h, BOB, "anota: comprar pão")

        preview = await say(h, ALICE, "/forget")

        assert preview.startswith("Isto apagará sua conta e todos os seus dados: 1 item e")
        (buttons,) = h.tg.sent(chat_id=ALICE)[-1].params["reply_markup"]["inline_keyboard"]
        assert [b["text"] for b in buttons] == ["Sim", "Não"]
        assert all(len(b["callback_data"].encode()) <= 64 for b in buttons)
        assert len(await h.db.items.list_for(f"tg:{ALICE}")) == 1

        await h.post_update(callback_update(ALICE, buttons[0]["callback_data"]))
        await h.idle()

        assert h.tg.texts(ALICE)[-1] == "✅ Pronto: sua conta e seus dados foram apagados."
        assert len(h.tg.sent("answerCallbackQuery")) == 1
        assert await h.db.users.get(f"tg:{ALICE}") is None
        assert await h.db.items.list_for(f"tg:{ALICE}") == []
        events = await h.db.ledger.events(f"tg:{ALICE}")
        assert events[-1].type == "user_forgotten"
        assert events[-1].payload["items"] == 1
        assert (await h.db.ledger.verify(f"tg:{ALICE}")).ok
        assert len(await h.db.items.list_for(f"tg:{BOB}")) == 1
        # The replies kept on her processed updates went too; Bob's stay.
        records = await h.db.client[h.db.name]["processed_updates"].find({}).to_list(None)
        kept = json.dumps(records, default=str, ensure_ascii=False)
        assert "comprar leite" not in kept
        assert "comprar pão" in kept


async def test_admin_commands_need_the_admins_namespaced_id(harness: Any) -> None:
    # The same number as a WhatsApp id grants nothing on Telegram.
    async with real_runtime(harness)(admin_user_ids=f"tg:{ADMIN},wa:{ALICE}") as h:
        unknown = await say(h, ALICE, "/naoexiste")
        refused = await say(h, ALICE, "/stats")

        assert refused == unknown.replace("/naoexiste", "/stats")
        events = await h.db.ledger.events(f"tg:{ALICE}")
        (event,) = events
        assert (event.type, event.payload["command"], event.payload["allowed"]) == (
            "admin_action",
            "stats",
            False,
        )

        stats = await say(h, ADMIN, "/stats")

        # in the admin's language: Portuguese by default (issue 27)
        assert "usuários: 2" in stats.splitlines()
        assert any(line.startswith("respondidas sem o modelo:") for line in stats.splitlines())
        admin_events = await h.db.ledger.events(f"tg:{ADMIN}")
        assert [(e.payload["command"], e.payload["allowed"]) for e in admin_events] == [
            ("stats", True)
        ]
        assert f"tg:{ALICE}" in await say(h, ADMIN, "/users")


async def test_metrics_name_every_figure_of_the_web_app(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        update = message_update(ALICE, "lista")
        await h.post_update(update)
        await h.post_update(update)  # a redelivery
        await h.post_update(message_update(ALICE, "oi"), secret="wrong")
        await h.idle()

        body = await (await h.client.get("/metrics")).text()

        for outcome, value in (("received", 1), ("processed", 1), ("duplicated", 1)):
            sample = f'lembra_updates_total{{channel="telegram",outcome="{outcome}"}} {value}.0'
            assert sample in body, outcome
        assert 'lembra_updates_total{channel="telegram",outcome="rejected"} 1.0' in body
        assert "lembra_model_calls_avoided_total 1.0" in body
        assert 'lembra_confidence_state_total{state="OK"} 1.0' in body
        for name, kind in (
            ("lembra_model_latency_seconds", "histogram"),
            ("lembra_tokens_total", "counter"),
            ("lembra_belief_calibration_abs_error", "histogram"),
            ("lembra_planner_outputs_total", "counter"),  # invalid outputs among them
            ("lembra_planner_steps_total", "counter"),  # first_try, recovered, failed
            ("lembra_whatsapp_status_callbacks_total", "counter"),
            ("lembra_rate_limited_total", "counter"),
        ):
            assert f"# TYPE {name} {kind}" in body, name


async def test_serve_expires_pending_actions_in_its_background_job(harness: Any) -> None:
    jobs = replace(FAST, jobs=True, background_every_s=0.1)
    async with real_runtime(harness)(options=jobs, pending_ttl_seconds=1) as h:
        await say(h, ALICE, "anota: comprar leite")
        preview = await say(h, ALICE, "apaga tudo")
        assert "1 item" in preview
        assert await h.db.pending.peek(f"tg:{ALICE}", f"tg:{ALICE}") is not None

        deadline = time.monotonic() + 10
        while await h.db.pending.peek(f"tg:{ALICE}", f"tg:{ALICE}") is not None:
            assert time.monotonic() < deadline, "the background job never expired it"
            await asyncio.sleep(0.05)

        holder = await h.db.leases.holder("job:background", now_ms=h.deps.clock.ms())
        assert holder == h.deps.owner
        assert len(await h.db.items.list_for(f"tg:{ALICE}")) == 1  # expired, not confirmed


async def test_an_admins_own_dream_runs_over_both_channels(harness: Any) -> None:
    """Failed before issue 30: consolidation took the chat lease the admin's own turn held."""
    async with real_runtime(harness)(admin_user_ids=f"tg:{ADMIN},wa:{PHONE}") as h:
        await say(h, ADMIN, "anota: comprar leite")
        dreamed = await say(h, ADMIN, "/dream")
        assert dreamed.startswith(f"tg:{ADMIN}: consolidado (manual)")  # in the admin's language

        await h.post_whatsapp(wa.message_payload(PHONE, wa.text_content("/dream")))
        await h.idle()
        assert h.wa.bodies(PHONE)[-1].startswith(f"wa:{PHONE}: consolidado (manual)")
        for user in (f"tg:{ADMIN}", f"wa:{PHONE}"):
            types = [e.type for e in await h.db.ledger.events(user)]
            assert "consolidation_done" in types
