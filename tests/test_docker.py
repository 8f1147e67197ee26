"""The Docker path (issue 45): what compose and the image promise, read from the files; and
the image built and started, answering /healthz and /readyz (`make docker-test`).

The build needs a Docker engine and minutes: it runs only with LEMBRA_DOCKER_TEST=1 (what
`make docker-test` sets) and is skipped where no engine answers, as on the development
machines (`docker --version` answers there, `docker info` does not).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
import yaml

from storage.embedded import free_port

REPO_ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((REPO_ROOT / "docker-compose.yml").read_text())
    return loaded


def test_compose_keeps_data_on_a_named_volume_and_limits_the_logs() -> None:
    compose = _compose()
    app = compose["services"]["app"]
    assert "lembra-data:/data" in app["volumes"]  # the ledger signing key outlives the container
    assert "lembra-data" in compose["volumes"]
    for name, service in compose["services"].items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        assert logging["options"]["max-size"], name
        assert int(logging["options"]["max-file"]) >= 2, name


def test_the_image_is_healthy_only_when_ready() -> None:
    dockerfile = (REPO_ROOT / "Dockerfile").read_text()
    check = next(line for line in dockerfile.splitlines() if line.strip().startswith("CMD ["))
    assert "/readyz" in check
    assert "/healthz" not in check


def _engine() -> str | None:
    """Why the image cannot be built here, or None when a Docker engine answers."""
    if os.environ.get("LEMBRA_DOCKER_TEST") != "1":
        return "builds an image: run it with `make docker-test`"
    if shutil.which("docker") is None:
        return "no docker command"
    info = subprocess.run(["docker", "info"], capture_output=True, text=True, check=False)
    if info.returncode != 0:
        return "no Docker engine answers (`docker info` failed)"
    return None


def _docker(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["docker", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def _get(url: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def test_the_image_builds_starts_and_answers_healthz_and_readyz() -> None:
    reason = _engine()
    if reason is not None:
        pytest.skip(reason)
    tag = f"lembra-test:{uuid.uuid4().hex[:8]}"
    built = _docker("build", "-t", tag, str(REPO_ROOT), timeout=1800)
    assert built.returncode == 0, built.stderr[-3000:]
    port = free_port()
    # A WhatsApp channel that needs no outside server to start; no model (the offline planner).
    env = {
        "WHATSAPP_ACCESS_TOKEN": "t",
        "WHATSAPP_APP_SECRET": "s",
        "WHATSAPP_VERIFY_TOKEN": "v",
        "WHATSAPP_PHONE_NUMBER_ID": "1",
        "WHATSAPP_API_BASE_URL": "http://127.0.0.1:9",
    }
    flags = [item for key, value in env.items() for item in ("-e", f"{key}={value}")]
    started = _docker("run", "-d", "-p", f"127.0.0.1:{port}:8080", *flags, tag)
    assert started.returncode == 0, started.stderr
    container = started.stdout.strip()
    try:
        deadline = time.monotonic() + 120
        health: tuple[int, dict[str, Any]] = (0, {})
        while time.monotonic() < deadline:
            try:
                health = _get(f"http://127.0.0.1:{port}/healthz")
                break
            except (OSError, ValueError):
                time.sleep(1)
        assert health[0] == 200, _docker("logs", container).stderr[-3000:]
        assert health[1]["database"] == "embedded"
        ready = (0, {})
        while time.monotonic() < deadline and ready[0] != 200:
            ready = _get(f"http://127.0.0.1:{port}/readyz")
            time.sleep(1)
        assert ready == (200, {"status": "ready"})
        stopped = _docker("stop", "-t", "45", container, timeout=90)
        assert stopped.returncode == 0
        code = _docker("inspect", "-f", "{{.State.ExitCode}}", container).stdout.strip()
        assert code == "0"  # SIGTERM is the normal stop
        logs = _docker("logs", container)
        assert "Traceback" not in logs.stdout + logs.stderr
    finally:
        _docker("rm", "-f", container)
        _docker("rmi", "-f", tag)
