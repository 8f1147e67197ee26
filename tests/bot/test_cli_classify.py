"""`lembra classify` (DESIGN section 6), run as a real process: stdin lines in, JSON lines out."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

COMMAND = [sys.executable, "-m", "bot", "classify"]


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The caller's environment without any database or service settings; data goes to tmp."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MONGODB_", "TELEGRAM_", "WHATSAPP_", "OPENAI_", "TMDB_", "LLM_"))
    }
    clean["DATA_DIR"] = str(tmp_path / "data")
    return clean


def run_classify(
    stdin: bytes, env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        COMMAND, input=stdin, capture_output=True, env=env, cwd=cwd, timeout=120, check=False
    )


def records(stdout: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.decode("utf-8").splitlines()]


def test_each_line_becomes_one_json_object_and_no_database_starts(
    env: dict[str, str], tmp_path: Path
) -> None:
    stdin = "apaga tudo\nnão apaga nada\nlista meus filmes\n/lang@LembraBot en\n1984\noi, salva inception\n"
    result = run_classify(stdin.encode("utf-8"), env, tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert records(result.stdout) == [
        {"text": "apaga tudo", "action": "delete_all", "entities": {}, "score": 100},
        {"text": "não apaga nada", "action": "deny", "entities": {}, "score": 100},
        {"text": "lista meus filmes", "action": "list_all", "entities": {"type": "movie"}, "score": 100},
        {"text": "/lang@LembraBot en", "action": "command", "entities": {"name": "lang", "args": "en"}, "score": 100},
        {"text": "1984", "action": "select", "entities": {"year": 1984}, "score": 100},
        {"text": "oi, salva inception", "action": "llm", "entities": {"intent": "save"}, "score": 100},
    ]  # fmt: skip
    assert "não apaga nada" in result.stdout.decode("utf-8")  # not \u-escaped
    assert not (tmp_path / "data").exists()  # the embedded database was never started


def test_empty_lines_bad_bytes_and_a_missing_final_newline_are_still_answered(
    env: dict[str, str], tmp_path: Path
) -> None:
    stdin = b"\n   \n\xff\xfe sim\r\n\xf0\x9f\x91\x8d\nlsita tudo"
    result = run_classify(stdin, env, tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    out = records(result.stdout)
    assert [(r["action"], r["score"]) for r in out[:2]] == [("llm", 0), ("llm", 0)]
    assert out[2]["text"] == "\ufffd\ufffd sim"
    assert [r["action"] for r in out[2:]] == ["confirm", "confirm", "list_all"]
    assert 80 <= out[4]["score"] < 100  # a fuzzy hit scores its similarity
    assert all(isinstance(r["score"], int) and 0 <= r["score"] <= 100 for r in out)


def test_each_answer_is_flushed_before_the_next_line_arrives(
    env: dict[str, str], tmp_path: Path
) -> None:
    with subprocess.Popen(
        COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=tmp_path
    ) as proc:
        assert proc.stdin is not None
        assert proc.stdout is not None
        for text, action in [("sim", "confirm"), ("cancela", "cancel")]:
            proc.stdin.write(f"{text}\n".encode())
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)  # a guard, not a timing check
            assert ready, "no answer while stdin is still open"
            assert json.loads(proc.stdout.readline())["action"] == action
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
