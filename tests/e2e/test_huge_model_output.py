"""A 1 MB model output is refused and re-asked without echoing it back (too big for a YAML file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from agent.tokens import TokenCounter
from bot.cli.replay import replay_files
from tests.support.servers import RunningServer

MEGABYTE = "x" * (1024 * 1024)


def _step(content: str, guessed: float) -> dict[str, Any]:
    return {
        "action": "CALL_TOOL",
        "tool": "save_note",
        "args": {"content": content},
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": guessed, "delta": 0},
    }


async def test_megabyte_outputs_are_re_asked_and_never_poison_later_turns(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    transcript = {
        "user": "alice",
        # Counting and parsing a megabyte takes seconds on a busy machine: that is no timeout.
        "model_timeout": 60,
        "turns": [
            {
                "user": "anota: comprar leite",
                "llm": [_step(MEGABYTE, 1.0), _step("comprar leite", 0.85)],
                "expect": {
                    "llm_calls": 2,
                    "state": "OK",
                    "tools_executed": ["save_note"],
                    "items": [{"type": "note", "content": "comprar leite"}],
                    "max_prompt_tokens": 4_200,
                },
            },
            {
                "user": "anota: ligar para o dentista",
                "llm": [{"raw": MEGABYTE}, _step("ligar para o dentista", 0.85)],
                "expect": {"llm_calls": 2, "state": "OK", "max_prompt_tokens": 4_200},
            },
            {
                "user": "anota: pagar a conta de luz",
                "llm": [_step("pagar a conta de luz", 1.0)],
                "expect": {"llm_calls": 1, "state": "OK", "items_count": 3},
            },
        ],
    }
    path = tmp_path / "huge_output.json"
    path.write_text(json.dumps(transcript), encoding="utf-8")
    reports: list[str] = []

    status = await replay_files(
        [str(path)], emit=reports.append, server_uri=nx_server.uri, counter=TokenCounter()
    )

    report = json.loads(reports[0])
    failures = [f"turn {t['index']}: {f}" for t in report["turns"] for f in t["failures"]]
    assert status == 0, failures
    later = report["turns"][2]
    assert later["llm_calls"] == 1
    assert 0 < later["prompt_tokens"] < 4_500  # the stored history holds no megabyte


async def test_deeply_nested_arguments_are_re_asked_instead_of_crashing_the_turn(
    tmp_path: Path, nx_server: RunningServer
) -> None:
    """Nesting past the recursion limit, or a 5,000-digit number, used to escape the client."""
    bomb = '{"a":' * 3000 + "1" + "}" * 3000  # deeper than json.loads can go
    huge_number = json.dumps(_step("ligar para o dentista", 1.0)).replace(
        '"guessed": 1.0',
        '"guessed": 1' + "0" * 5000,  # past int's 4,300-digit limit
    )
    deep_step = _step("comprar leite", 1.0)
    inner: Any = "x"
    for _ in range(40):  # parses, but no valid step nests like this
        inner = {"k": inner}
    deep_step["args"] = {"content": inner}
    transcript = {
        "user": "alice",
        "model_timeout": 60,
        "turns": [
            {
                "user": "anota: comprar leite",
                "llm": [{"raw_arguments": bomb}, deep_step, _step("comprar leite", 0.85)],
                "expect": {
                    "llm_calls": 3,
                    "state": "OK",
                    "tools_executed": ["save_note"],
                    "items": [{"type": "note", "content": "comprar leite"}],
                },
            },
            {
                "user": "anota: ligar para o dentista",
                "llm": [{"raw_arguments": huge_number}, _step("ligar para o dentista", 0.85)],
                "expect": {"llm_calls": 2, "state": "OK", "items_count": 2},
            },
        ],
    }
    path = tmp_path / "deep_output.json"
    path.write_text(json.dumps(transcript), encoding="utf-8")
    reports: list[str] = []

    status = await replay_files(
        [str(path)], emit=reports.append, server_uri=nx_server.uri, counter=TokenCounter()
    )

    report = json.loads(reports[0])
    assert status == 0, [f for t in report["turns"] for f in t["failures"]]
