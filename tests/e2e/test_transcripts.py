"""Every transcript in tests/transcripts runs through `lembra replay`'s engine and must pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.replay import replay_files

FOLDER = Path(__file__).resolve().parents[1] / "transcripts"
TRANSCRIPTS = sorted([*FOLDER.glob("*.yaml"), *FOLDER.glob("*.yml"), *FOLDER.glob("*.json")])


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
async def test_transcript(path: Path) -> None:
    reports: list[str] = []
    status = await replay_files([str(path)], emit=reports.append)
    report = json.loads(reports[0])
    failures = [f"turn {t['index']}: {f}" for t in report["turns"] for f in t["failures"]]
    if "error" in report:
        failures.append(report["error"])
    assert status == 0, (
        "\n".join(failures) + "\n" + json.dumps(report, ensure_ascii=False, indent=1)[:4000]
    )
