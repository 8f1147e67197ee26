"""The web app's own paths (/healthz, /metrics), routing and `lembra serve` start-up errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.bot.conftest import events, json_logs
from tests.support.fake_telegram import message_update


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
