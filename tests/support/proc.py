"""Run the `lembra` command line in a subprocess with a controlled environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def lembra_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The parent's PATH and Python settings, without any LEMBRA/chat settings leaking in."""
    keep = ("PATH", "HOME", "LANG", "SYSTEMROOT", "TMPDIR", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["LOG_LEVEL"] = "WARNING"
    env.update(extra or {})
    return env


def run_lembra(
    args: list[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path,
    stdin: str = "",
    timeout: float = 240,
) -> subprocess.CompletedProcess[str]:
    """`lembra ARGS` to its end. The timeout only catches a hang: a command that takes 2 s
    alone took over 60 s once on a busy shared CI machine (a fresh interpreter's imports and
    a database other workers are loading), so it is set far above any honest run."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=lembra_env(env),
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
