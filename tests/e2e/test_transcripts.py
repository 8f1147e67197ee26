"""Every transcript in tests/transcripts runs through `lembra replay`'s engine and must pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.tokens import TokenCounter
from bot.cli.replay import replay_files
from tests.support.servers import RunningServer

FOLDER = Path(__file__).resolve().parents[1] / "transcripts"
TRANSCRIPTS = sorted([*FOLDER.glob("*.yaml"), *FOLDER.glob("*.yml"), *FOLDER.glob("*.json")])


@pytest.fixture(scope="session")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript(path: Path, nx_server: RunningServer, counter: TokenCounter) -> None:
    reports: list[str] = []
    status = await replay_files(
        [str(path)], emit=reports.append, server_uri=nx_server.uri, counter=counter
    )
    report = json.loads(reports[0])
    failures = [f"turn {t['index']}: {f}" for t in report["turns"] for f in t["failures"]]
    if "error" in report:
        failures.append(report["error"])
    assert status == 0, (
        "\n".join(failures) + "\n" + json.dumps(report, ensure_ascii=False, indent=1)[:4000]
    )
