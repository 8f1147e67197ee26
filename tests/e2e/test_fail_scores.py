"""Every FAIL the transcripts reach scores at most 29 (DESIGN 10.2; seed 003: a failed stage scores
no pipeline points), read from `lembra replay`'s own report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.tokens import TokenCounter
from bot.cli.replay import replay_files
from tests.support.servers import RunningServer

FOLDER = Path(__file__).resolve().parents[1] / "transcripts"
# a risk refusal (kind "blocked"), a link that cannot be read (a tool failing), the model
# unavailable, a claim re-asked until the budget is spent
FAILING = [
    "risk_delete_over_block_refused.yaml",
    "tool_enrich_link_refused.yaml",
    "model_500_three_times_unavailable.yaml",
    "claims_false_claim_budget_fail.yaml",
]


@pytest.mark.parametrize("name", FAILING)
async def test_a_fail_never_scores_above_29(
    name: str, nx_server: RunningServer, counter: TokenCounter
) -> None:
    reports: list[str] = []
    await replay_files(
        [str(FOLDER / name)], emit=reports.append, server_uri=nx_server.uri, counter=counter
    )
    turns = json.loads(reports[0])["turns"]
    fails = [t for t in turns if t["state"] == "FAIL"]
    assert fails, f"{name} reaches no FAIL"
    assert all(t["score"] <= 29 for t in fails), [(t["index"], t["score"]) for t in fails]


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()
