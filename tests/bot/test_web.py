"""The web app's own paths (/healthz, /metrics), routing and `lembra serve` start-up errors."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from storage.embedded import free_port
from tests.bot.conftest import WEBHOOK_SECRET, events, json_logs
from tests.support.fake_telegram import TOKEN, FakeTelegram, message_update
from tests.support.proc import lembra_env


async def test_healthz_reports_the_database(harness: Any) -> None:
    async with harness() as h:
        response = await h.client.get("/healthz")
        assert response.status == 200
        assert await response.json() == {"status": "ok", "database": "embedded"}
    async with harness(mongodb_uri="mongodb://127.0.0.1:1/") as h:  # only the label changes
        assert (await (await h.client.get("/healthz")).json())["database"] == "mongodb"


async def test_metrics_are_prometheus_text_with_the_channel_counters(harness: Any) -> None:
    async with harness() as h:
        await h.post_update(message_update(5550201, "oi"))
        await h.idle()
        response = await h.client.get("/metrics")
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = await response.text()
        assert 'lembra_updates_total{channel="telegram",outcome="received"} 1.0' in text
        assert 'lembra_updates_total{channel="telegram",outcome="processed"} 1.0' in text
        assert 'lembra_messages_sent_total{channel="telegram",outcome="sent"} 1.0' in text


async def test_an_unconfigured_channel_has_no_route(harness: Any) -> None:
    async with harness(telegram_bot_token=None) as h:
        response = await h.post_update(message_update(5550201, "oi"))
        assert response.status == 404
        assert (await h.client.get("/healthz")).status == 200


async def test_refused_callers_are_logged_by_address_forwarded_for_only_when_trusted(
    harness: Any,
) -> None:
    spoofed = {"X-Telegram-Bot-Api-Secret-Token": "wrong", "X-Forwarded-For": "203.0.113.9"}
    remotes = []
    for trust in (False, True):
        with json_logs() as stream:
            async with harness(trust_forwarded_for=trust) as h:
                response = await h.client.post(
                    "/telegram/webhook", json=message_update(1, "oi"), headers=spoofed
                )
                assert response.status == 403
        (refused,) = [e for e in events(stream) if e["event"] == "request_refused"]
        assert (refused["path"], refused["status"]) == ("/telegram/webhook", 403)
        remotes.append(refused["remote"])
    assert remotes == ["127.0.0.1", "203.0.113.9"]


def _lembra(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WHATSAPP_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=clean | {"DATA_DIR": str(cwd / "data")} | env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_serve_refuses_to_start_without_a_channel(tmp_path: Path) -> None:
    result = _lembra(["serve"], {}, tmp_path)
    assert result.returncode == 2
    assert "needs a channel" in result.stderr
    assert "TELEGRAM_BOT_TOKEN" in result.stderr


def test_serve_refuses_telegram_without_the_webhook_secret(tmp_path: Path) -> None:
    result = _lembra(["serve"], {"TELEGRAM_BOT_TOKEN": "1:x"}, tmp_path)
    assert result.returncode == 2
    assert "TELEGRAM_WEBHOOK_SECRET" in result.stderr


SERVED_AT = "https://bot.example.com/telegram/webhook"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not status.exists() or "zombie" not in status.read_text().lower()


async def test_serve_on_the_embedded_database_stops_it_on_sigterm(
    fake_tg: FakeTelegram, tmp_path: Path
) -> None:
    port, data = free_port(), tmp_path / "data"
    env = lembra_env(
        {
            "DATA_DIR": str(data),
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "TELEGRAM_API_BASE_URL": fake_tg.base_url,
            "TELEGRAM_WEBHOOK_URL": SERVED_AT,
            "LOG_LEVEL": "INFO",
        }
    )
    fake_tg.webhook_info["url"] = SERVED_AT  # `lembra telegram --set-webhook` was run
    log = tmp_path / "serve.log"
    with log.open("wb") as sink:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "serve", env=env, cwd=tmp_path, stdout=sink, stderr=sink
        )
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            deadline = time.monotonic() + 30
            health: dict[str, Any] = {}
            while not health:
                assert proc.returncode is None, log.read_text()[-2000:]
                assert time.monotonic() < deadline, log.read_text()[-2000:]
                try:
                    async with session.get(f"{url}/healthz") as response:
                        health = await response.json() if response.status == 200 else {}
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            assert health == {"status": "ok", "database": "embedded"}
            update = message_update(5550990, "oi")
            headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
            async with session.post(f"{url}/telegram/webhook", json=update, headers=headers) as r:
                assert r.status == 200
            await fake_tg.wait_for(lambda: len(fake_tg.texts(5550990)) == 1, timeout_s=20)
        server_pid = json.loads((data / "embedded.json").read_text())["pid"]
        assert _alive(server_pid)

        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()

    assert code == 0  # SIGTERM is the normal stop: a clean shutdown exits 0
    assert '"event": "channels_stopped"' in log.read_text()
    for _ in range(200):  # stopping it is part of shutdown; allow for a slow reap
        if not _alive(server_pid):
            break
        await asyncio.sleep(0.05)
    assert not _alive(server_pid), "SIGTERM left the embedded database running"
    assert not (data / "embedded.json").exists()
