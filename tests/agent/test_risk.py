"""The risk policy and `simulate` (issue 13): one score per effect, thresholds, dry runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent.trust import risk
from storage import Database
from tests.support.harness import Lembra, open_lembra, seed

DEFAULTS = risk.thresholds(0.3, 0.9)


def step(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return {
        "action": "CALL_TOOL",
        "tool": tool,
        "args": args,
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": 0.9, "delta": 0},
    }


SAY = {
    "action": "RESPOND",
    "tool": None,
    "args": None,
    "message": "Nada mudou; eu pediria confirmação.",
    "belief": {"key": "answer.confidence", "guessed": 0.9, "delta": 0},
}


@pytest.mark.parametrize(
    ("tool", "level", "count", "used", "expected"),
    [
        ("save_note", "low", 1, False, (0.1, "run")),
        ("search_items", "read", 5, False, (0.0, "run")),
        ("update_item", "low", 1, False, (0.3, "confirm")),  # undo cannot revert an edit
        ("delete_item", "high", 1, False, (0.5, "confirm")),  # first use
        ("delete_item", "high", 1, True, (0.4, "confirm")),  # DESIGN 3.2 keeps it
        ("delete_all_memories", "critical", 40, True, (0.8, "confirm")),  # always
    ],
)
def test_each_effect_gets_one_score_and_a_decision(
    tool: str, level: risk.Risk, count: int, used: bool, expected: tuple[float, str]
) -> None:
    got = risk.assess(tool, level, DEFAULTS, count=count, used_before=used)
    assert (got.score, got.decision) == expected


def test_a_first_use_is_confirmed_even_under_the_threshold_and_the_block_wins() -> None:
    lenient = risk.thresholds(0.8, 0.95)
    assert risk.assess("delete_item", "high", lenient, count=1, used_before=True).decision == "run"
    assert (
        risk.assess("delete_item", "high", lenient, count=1, used_before=False).decision
        == "confirm"
    )
    strict = risk.thresholds(0.1, 0.45)
    assert (
        risk.assess("delete_item", "high", strict, count=1, used_before=False).decision == "block"
    )
    assert (
        risk.assess("delete_all_memories", "critical", strict, count=99, used_before=True).decision
        == "confirm"
    )


def test_thresholds_rise_with_the_risk_tolerance() -> None:
    levels = [risk.thresholds(0.3, 0.9, tolerance=t / 4) for t in range(5)]
    assert levels[0] == DEFAULTS
    assert [t.confirm for t in levels] == sorted(t.confirm for t in levels)
    assert all(a.block <= b.block for a, b in zip(levels, levels[1:], strict=False))
    later_delete = [
        risk.assess("delete_item", "high", t, count=1, used_before=True).decision for t in levels
    ]
    assert later_delete[0] == "confirm"
    assert later_delete[-1] == "run"
    assert risk.thresholds(0.3, 0.9, tolerance=7) == levels[-1]  # clamped to 1


def _tool_result(lembra: Lembra) -> dict[str, Any]:
    """The `simulate` result the model was shown in its second request."""
    messages = lembra.requests[-1].body["messages"]
    tool_messages = [m for m in messages if m["role"] == "tool"]
    content = tool_messages[-1]["content"]
    return dict(json.loads(content[content.index("{") :]))


async def test_simulate_tells_the_model_what_a_delete_would_do_and_changes_nothing(
    db: Database,
) -> None:
    await seed(db, ["anota: comprar leite", "anota: comprar leite integral", "anota: pagar luz"])
    async with open_lembra(db, counting_model=True) as lembra:
        before = await lembra.items()
        await lembra.say(
            "o que acontece se eu apagar comprar leite?",
            llm=[
                step("simulate", {"tool": "delete_item", "args": {"query": "comprar leite"}}),
                SAY,
            ],
        )
        result = _tool_result(lembra)
        assert result["status"] == "simulated"
        assert result["count"] == 1
        assert result["ambiguous"] is True
        assert len(result["examples"]) == 2
        assert result["reversible_by_undo"] is True
        assert result["first_use"] is True
        assert (result["risk"], result["decision"]) == (0.5, "confirm")
        # the estimate, computed in code (issue 31): both named by every word, one stays
        assert result["match_confidence"] == [100, 95]
        assert (result["undo_restores"], result["similar_kept"]) == (1, 1)
        assert result["assessment"] == "similar"
        assert await lembra.items() == before
        assert await lembra.pending() is None

        calls = lembra.model_calls
        await lembra.say(
            "simula o efeito de limpar minha lista",
            llm=[step("simulate", {"tool": "delete_all_memories"}), SAY],
        )
        assert lembra.model_calls == calls + 2
        result = _tool_result(lembra)
        assert (result["count"], result["decision"]) == (3, "confirm")
        assert (result["similar_kept"], result["assessment"]) == (0, "everything")
        assert len(result["examples"]) == 3
        assert await lembra.items() == before


async def test_simulate_with_bad_arguments_is_refused_with_the_field_named(db: Database) -> None:
    await seed(db, ["anota: comprar leite"])
    async with open_lembra(db, counting_model=True) as lembra:
        bad = step("simulate", {"tool": "delete_item", "args": {"item_id": "x", "query": "y"}})
        reply = await lembra.say("simula apagar comprar leite", llm=[bad] * 3)
        assert reply.meta.state == "FAIL"
        error = [m for m in lembra.requests[1].body["messages"] if m["role"] == "tool"][-1]
        assert "exactly one of item_id or query" in error["content"]
        assert len(await lembra.items()) == 1
