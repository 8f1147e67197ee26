"""An operator's surfaces (issue 45, DESIGN 11.6): `lembra check`, `serve`'s start-up checks,
`/healthz` and `/readyz`, against the fake Telegram, WhatsApp, TMDB, model and transcription
servers speaking their real protocols."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.conversation.access import code_digest
from bot.fakes.scripted_model import ScriptedModelServer
from bot.fakes.tmdb import FakeTmdb
from bot.fakes.transcription import FakeTranscriptionServer
from bot.probes import Probe, error_message, model_ids, run_probes
from bot.telegram.updates import ALLOWED_UPDATES
from config.settings import Settings
from storage import Database
from storage.database import make_client
from tests.bot.conftest import FAST, channel_settings, events, json_logs
from tests.support.fake_telegram import FakeTelegram
from tests.support.fake_whatsapp import FakeWhatsApp
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer

WEBHOOK_URL = "https://bot.example.com/telegram/webhook"
TMDB_KEY = "tmdb-test-key"
MODEL = "qwen2.5-test"


@asynccontextmanager
async def services(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp, **model_options: Any
) -> AsyncIterator[tuple[dict[str, Any], ScriptedModelServer]]:
    """A model, TMDB and transcription server beside the channels: the settings to reach all."""
    async with AsyncExitStack() as stack:
        model = await stack.enter_async_context(ScriptedModelServer(**model_options))
        tmdb = await stack.enter_async_context(FakeTmdb(api_key=TMDB_KEY))
        hearing = await stack.enter_async_context(FakeTranscriptionServer(api_key="heard"))
        await tmdb.start()
        fake_tg.webhook_info |= {"url": WEBHOOK_URL, "allowed_updates": list(ALLOWED_UPDATES)}
        yield (
            {
                "telegram_webhook_url": WEBHOOK_URL,
                "openai_base_url": model.base_url,
                "openai_api_key": "test-not-a-secret",
                "llm_model": MODEL,
                "tmdb_base_url": tmdb.base_url,
                "tmdb_api_key": TMDB_KEY,
                "transcribe_base_url": hearing.base_url,
                "transcribe_api_key": "heard",
            },
            model,
        )


async def _probes(settings: Settings, *, serving: bool = True) -> dict[str, Probe]:
    return {p.service: p for p in await run_probes(settings, serving=serving)}


async def test_every_service_passes_with_one_line_each(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp
) -> None:
    async with services(fake_tg, fake_wa) as (values, model):
        model.begin_turn([{"raw": "OK"}])
        found = await _probes(channel_settings(fake_tg, fake_wa, **values))
        (request,) = model.end_turn().requests

    assert {name: p.state for name, p in found.items()} == dict.fromkeys(found, "ok")
    assert found["telegram"].line() == (
        f"ok   telegram: @lembra_test_bot; webhook {WEBHOOK_URL}, 0 pending, last error: none"
    )
    assert found["whatsapp"].detail == "number +55 11 90000-0000 (Lembra Test)"
    assert found["model"].detail.startswith(f"LLM_MODEL={MODEL} answers at http://127.0.0.1:")
    assert request.body["max_tokens"] == 16  # one tiny request
    assert found["tmdb"].state == "ok"
    assert found["transcription"].detail.startswith("TRANSCRIBE_MODEL=whisper-1 is served")


async def test_nothing_configured_is_off_not_failing(fake_tg: FakeTelegram) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    found = await _probes(settings)
    assert {p.state for p in found.values()} == {"off"}
    assert found["model"].detail.startswith("no model configured: the offline rule-based planner")


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("no_v1", "OPENAI_BASE_URL needs /v1: set OPENAI_BASE_URL=http://127.0.0.1:"),
        ("model", "LLM_MODEL=gpt-4o-mini is not served by http://127.0.0.1:"),
        ("key", "refused OPENAI_API_KEY (HTTP 401); set a valid key"),
    ],
)
async def test_a_misconfigured_model_is_named_with_the_setting_to_fix(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp, case: str, expected: str
) -> None:
    async with services(fake_tg, fake_wa, models=[MODEL], v1_only=True) as (values, model):
        if case == "no_v1":
            values["openai_base_url"] = model.base_url.removesuffix("/v1")
        elif case == "model":
            values["llm_model"] = "gpt-4o-mini"
        else:
            model.begin_turn([], errors=[{"status": 401}])
        probe = (await _probes(channel_settings(fake_tg, fake_wa, **values)))["model"]

    assert probe.state == "fail"
    assert expected in probe.detail
    assert probe.blocks_ready  # `/readyz` fails: every answer would be the offline planner's
    if case == "model":
        assert probe.detail.endswith(f"it serves: {MODEL}; set LLM_MODEL to one of them")
    assert "test-not-a-secret" not in probe.detail


async def test_a_model_that_is_down_is_degraded_not_misconfigured(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp
) -> None:
    async with services(fake_tg, fake_wa) as (values, model):
        model.begin_turn([], errors=[{"status": 503}])
        probe = (await _probes(channel_settings(fake_tg, fake_wa, **values)))["model"]
    assert probe.state == "fail"
    assert "HTTP 503" in probe.detail
    assert not probe.blocks_ready


@pytest.mark.parametrize("registered", ["", "https://old.example.com/telegram/webhook"])
async def test_a_webhook_not_set_to_telegram_webhook_url_is_named(
    fake_tg: FakeTelegram, registered: str
) -> None:
    fake_tg.webhook_info |= {
        "url": registered,
        "pending_update_count": 7,
        "last_error_date": 1_700_000_000,
        "last_error_message": "Wrong response from the webhook: 502 Bad Gateway",
    }
    settings = channel_settings(fake_tg, None, telegram_webhook_url=WEBHOOK_URL)
    probe = (await _probes(settings))["telegram"]

    assert probe.state == "fail"
    assert probe.blocks_ready
    assert "run `lembra telegram --set-webhook`" in probe.detail
    assert "7 pending" in probe.detail
    assert "last error: 2023-11-14T22:13:20+00:00 Wrong response from the webhook" in probe.detail


async def test_without_telegram_webhook_url_serve_fails_and_polling_passes(
    fake_tg: FakeTelegram,
) -> None:
    settings = channel_settings(fake_tg, None)
    serving = (await _probes(settings, serving=True))["telegram"]
    polling = (await _probes(settings, serving=False))["telegram"]
    assert serving.state == "fail"
    assert "set TELEGRAM_WEBHOOK_URL" in serving.detail
    assert polling.state == "ok"


async def test_a_webhook_missing_an_update_kind_lembra_reads_is_named(
    fake_tg: FakeTelegram,
) -> None:
    fake_tg.webhook_info |= {"url": WEBHOOK_URL, "allowed_updates": ["message"]}
    settings = channel_settings(fake_tg, None, telegram_webhook_url=WEBHOOK_URL)
    probe = (await _probes(settings))["telegram"]
    assert probe.state == "fail"
    assert "leaves out edited_message, callback_query" in probe.detail
    assert not probe.blocks_ready


async def test_refused_keys_and_tokens_name_their_setting(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp
) -> None:
    async with services(fake_tg, fake_wa) as (values, model):
        model.begin_turn([{"raw": "OK"}])
        values |= {
            "telegram_bot_token": "999:not-the-token",
            "whatsapp_access_token": "stale-token-9",
            "tmdb_api_key": "wrong",
            "transcribe_api_key": "wrong",
        }
        found = await _probes(channel_settings(fake_tg, fake_wa, **values))
        model.end_turn()

    assert found["telegram"].detail.startswith("TELEGRAM_BOT_TOKEN was refused")
    assert "refused WHATSAPP_ACCESS_TOKEN" in found["whatsapp"].detail
    assert "refused TMDB_API_KEY" in found["tmdb"].detail
    assert "refused TRANSCRIBE_API_KEY" in found["transcription"].detail
    for probe in found.values():
        assert "wrong" not in probe.detail
        assert "stale-token-9" not in probe.detail


async def test_a_transcription_model_the_server_does_not_list_is_named(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp
) -> None:
    async with services(fake_tg, fake_wa) as (values, model):
        values["transcribe_model"] = "whisper-large"
        probe = (await _probes(channel_settings(None, None, **values)))["transcription"]
    assert probe.state == "fail"
    assert "TRANSCRIBE_MODEL=whisper-large is not served" in probe.detail
    assert probe.detail.endswith("it serves: whisper-1")


async def test_lembra_check_prints_one_line_a_service_and_fails_on_one(
    fake_tg: FakeTelegram, fake_wa: FakeWhatsApp, tmp_path: Any
) -> None:
    async with ScriptedModelServer(models=[MODEL], v1_only=True) as model:
        env = {
            "DATA_DIR": str(tmp_path / "data"),
            "OPENAI_BASE_URL": model.base_url.removesuffix("/v1"),  # the likeliest mistake
            "OPENAI_API_KEY": "local",
            "LLM_MODEL": MODEL,
        }
        failed = await asyncio.to_thread(run_lembra, ["check"], env=env, cwd=tmp_path)
        env["OPENAI_BASE_URL"] = model.base_url
        model.begin_turn([{"raw": "OK"}])
        passed = await asyncio.to_thread(run_lembra, ["check"], env=env, cwd=tmp_path)

    assert failed.returncode == 1, failed.stderr
    lines = failed.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "off  telegram",
        "off  whatsapp",
        "FAIL model",
        "off  tmdb",
        "off  transcription",
    ]
    assert f"set OPENAI_BASE_URL={model.base_url}" in lines[2]
    assert failed.stderr == ""
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert f"ok   model: LLM_MODEL={MODEL} answers at {model.base_url}" in passed.stdout


# -- serve: the menus, warnings at start, /healthz and /readyz -------------------------------

CHECKED = replace(FAST, menus=True, probes=True, check_failing_every_s=0.05)


async def test_serve_sets_the_menus_warns_once_and_is_not_ready_until_the_webhook_is_set(
    harness: Any, fake_tg: FakeTelegram
) -> None:
    with json_logs() as logs:
        async with harness(options=CHECKED, telegram_webhook_url=WEBHOOK_URL) as h:
            await h.tg.wait_for(lambda: h.tg.answered["getWebhookInfo"] >= 3)
            ready = await h.client.get("/readyz")
            health = await h.client.get("/healthz")
            not_ready, degraded = await ready.json(), await health.json()

            fake_tg.webhook_info |= {"url": WEBHOOK_URL}  # `lembra telegram --set-webhook`
            for _ in range(200):
                if (await h.client.get("/readyz")).status == 200:
                    break
                await asyncio.sleep(0.02)
            ready_now = await (await h.client.get("/readyz")).json()
            healthy_now = await (await h.client.get("/healthz")).json()

    assert ready.status == 503
    (reason,) = not_ready["reasons"]
    assert reason.startswith("telegram: @lembra_test_bot; webhook (none)")
    assert "run `lembra telegram --set-webhook`" in reason
    assert health.status == 200  # liveness: the process is up
    assert degraded["status"] == "degraded"
    assert degraded["reasons"] == [reason]
    assert ready_now == {"status": "ready"}
    assert healthy_now["status"] == "ok"
    failed = [e for e in events(logs) if e["event"] == "service_check_failed"]
    assert [(e["level"], e["service"]) for e in failed] == [("warning", "telegram")]  # once
    passed = [e["service"] for e in events(logs) if e["event"] == "service_check_passed"]
    assert passed == ["telegram"]
    assert {key[2] for key in fake_tg.menus} == {"", "pt", "en"}


async def test_readyz_fails_while_the_database_is_down(harness: Any, outage_db: Any) -> None:
    db, proxy = outage_db
    async with harness(database=db) as h:
        assert (await h.client.get("/readyz")).status == 200
        proxy.cut()
        response = await h.client.get("/readyz")
        body = await response.json()
        proxy.restore()
    assert response.status == 503
    assert body["reasons"][0] == "database: unreachable"


# -- lembra users ------------------------------------------------------------------------------


async def test_lembra_users_approves_a_code_lists_and_revokes(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    db = Database(make_client(nx_server.uri), f"t_{uuid.uuid4().hex[:10]}")
    try:
        await db.ensure_indexes()
        # what a refusal left on the sender's update record (agent/conversation/access.py)
        now = int(time.time() * 1000)
        await db.updates.record("tg:1", "{}", now_ms=now, user_id="tg:4242", queue=None)
        await db.updates.note_refusal(
            "tg:1", "2026-01-01", code_hash=code_digest("ABCD-EFGH"), until_ms=now + 60_000
        )
        env = {
            "MONGODB_URI": nx_server.uri,
            "MONGODB_DB": db.name,
            "ALLOWED_USER_IDS": "tg:1000",
            "ADMIN_USER_IDS": "tg:1",
        }

        def lembra(*args: str) -> Any:
            return run_lembra(["users", *args], env=env, cwd=tmp_path)

        allowed = await asyncio.to_thread(lembra, "allow", "abcd efgh")
        again = await asyncio.to_thread(lembra, "allow", "ABCD-EFGH")
        listed = await asyncio.to_thread(lembra, "list")
        denied = await asyncio.to_thread(lembra, "deny", "tg:4242")
        env_listed = await asyncio.to_thread(lembra, "deny", "tg:1000")
        after = await db.allowed.all()
    finally:
        await db.drop()
        await db.close()

    assert (allowed.returncode, allowed.stdout) == (0, "tg:4242 may use the bot from now on\n")
    assert again.returncode == 1  # a code is good once
    assert "no pairing code" in again.stderr
    assert listed.stdout.splitlines() == [
        "tg:1  admin (ADMIN_USER_IDS)",
        "tg:1000  listed (ALLOWED_USER_IDS)",
        "tg:4242  approved by cli",
    ]
    assert denied.stdout == "tg:4242 may no longer use the bot\n"
    assert "is in ALLOWED_USER_IDS" in env_listed.stdout
    assert after == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(body=JSON | st.fixed_dictionaries({"data": JSON, "error": JSON}))
def test_whatever_a_server_answers_is_read_without_raising(body: Any) -> None:
    ids = model_ids(body)
    assert ids is None or all(isinstance(i, str) for i in ids)
    message = error_message(body)
    assert message == "" or (message.startswith(": ") and len(message) <= 162)
