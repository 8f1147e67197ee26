"""`lembra serve` starting without the Bot API, on a busy port, and stopping on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from config.version import lembra_version
from storage.embedded import free_port
from tests.bot.conftest import WEBHOOK_SECRET
from tests.support.fake_telegram import TOKEN, FakeTelegram, message_update
from tests.support.proc import lembra_env, run_lembra
from tests.support.servers import RunningServer


def _env(port: int, api_port: int, nx: RunningServer, tmp_path: Path) -> dict[str, str]:
    return lembra_env(
        {
            "DATA_DIR": str(tmp_path / "data"),
            "MONGODB_URI": nx.uri,
            "MONGODB_DB": f"t_serve_{port}",
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{api_port}/bot",
            "TELEGRAM_WEBHOOK_URL": WEBHOOK_URL,
            "LOG_LEVEL": "INFO",
        }
    )


WEBHOOK_URL = "https://bot.example.com/telegram/webhook"


def _tail(log: Path) -> str:
    return log.read_text()[-2000:]


async def _health(session: aiohttp.ClientSession, url: str, want: str, log: Path) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, _tail(log)
        try:
            async with session.get(f"{url}/healthz") as response:
                body: dict[str, Any] = await response.json()
                if body.get("status") == want:
                    assert response.status == 200
                    return body
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)


async def test_serve_waits_for_an_unreachable_bot_api_then_stops_cleanly_on_sigterm(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    port, api_port = free_port(), free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as sink:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "serve",
            env=_env(port, api_port, nx_server, tmp_path),
            cwd=tmp_path,
            stdout=sink,
            stderr=sink,
        )
    fake: FakeTelegram | None = None
    url = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            body = await _health(session, url, "degraded", log)
            assert body["waiting_for"] == ["telegram"]
            # an update that arrives meanwhile is recorded, then answered once connected
            headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
            update = message_update(7001, "oi")
            async with session.post(f"{url}/telegram/webhook", json=update, headers=headers) as r:
                assert r.status == 200

            fake = FakeTelegram()
            fake.webhook_info["url"] = WEBHOOK_URL  # registered earlier: the checks pass
            await fake.start(port=api_port)
            # once connected the services are checked again at once, not in a minute
            await _health(session, url, "ok", log)
            await fake.wait_for(lambda: len(fake.texts(7001)) == 1, timeout_s=20)
            async with session.get(f"{url}/metrics") as r:
                exposition = await r.text()
        _check_operations_metrics(exposition)

        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        if fake is not None:
            await fake.close()

    text = log.read_text()
    assert code == 0, text[-2000:]
    assert "Unclosed client session" not in text
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    kinds = [line["event"] for line in lines]
    assert "channel_unreachable" in kinds
    assert "channel_connected" in kinds
    serving = [line for line in lines if line["event"] == "serving"]
    assert len(serving) == 1
    assert {"version", "channels", "model", "output_mode", "database", "jobs"} <= serving[0].keys()
    assert serving[0]["channels"] == "telegram"
    assert serving[0]["model"] == "offline"
    assert serving[0]["database"] == "mongodb"


def test_a_busy_port_is_one_line_naming_it(nx_server: RunningServer, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_lembra(["serve"], env=_env(port, free_port(), nx_server, tmp_path), cwd=tmp_path)
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if line.startswith("lembra: error:")]
    assert len(errors) == 1
    assert f"127.0.0.1:{port}" in errors[0]
    assert "PORT" in errors[0]
    assert "Traceback" not in done.stderr


def _sample(exposition: str, name: str, **labels: str) -> float:
    """The value of one series in a Prometheus text exposition (0 when absent)."""
    for line in exposition.splitlines():
        series, _, value = line.rpartition(" ")
        if series.split("{", 1)[0] == name and all(
            f'{k}="{v}"' in series for k, v in labels.items()
        ):
            return float(value)
    return 0.0


def _check_operations_metrics(exposition: str) -> None:
    assert _sample(exposition, "process_cpu_seconds_total") > 0
    assert _sample(exposition, "process_resident_memory_bytes") > 0
    assert _sample(exposition, "lembra_build_info", version=lembra_version()) == 1
    # the reply went out, and the failed getMe attempts before the API came up are counted
    assert (
        _sample(
            exposition, "lembra_outbound_request_seconds_count", service="telegram", status="200"
        )
        >= 2
    )
    assert (
        _sample(
            exposition,
            "lembra_outbound_request_seconds_count",
            service="telegram",
            status="ClientConnectorError",
        )
        >= 1
    )
    assert (
        _sample(
            exposition,
            "lembra_db_round_trip_seconds_count",
            collection="processed_updates",
            operation="insert_one",
        )
        >= 1
    )


async def test_a_failed_start_up_closes_every_session_it_opened(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    """Failed before issue 34: a rejected token left two aiohttp sessions unclosed."""
    fake = await FakeTelegram().start()
    try:
        env = _env(free_port(), fake.port, nx_server, tmp_path) | {
            "TELEGRAM_BOT_TOKEN": "999:not-the-token",
            "TELEGRAM_API_BASE_URL": fake.base_url,
            "WHATSAPP_ACCESS_TOKEN": "wa-token",
            "WHATSAPP_APP_SECRET": "wa-secret",
            "WHATSAPP_VERIFY_TOKEN": "wa-verify",
            "WHATSAPP_PHONE_NUMBER_ID": "1234",
            "WHATSAPP_API_BASE_URL": "http://127.0.0.1:9",
            "PYTHONWARNINGS": "always::ResourceWarning",
        }
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-X",
            "dev",
            "-m",
            "bot",
            "serve",
            env=env,
            cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    finally:
        await fake.close()
    stderr = err.decode()
    assert proc.returncode == 2, stderr
    assert "TELEGRAM_BOT_TOKEN was rejected" in stderr
    assert "Unclosed" not in stderr
    assert "Traceback" not in stderr
