"""The tools-mode function schema is `PlannerResponse`'s own (issue 45): it accepts exactly the
steps the model accepts, field by field, and follows `ToolName` with no edit of its own."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from agent.planning.schema import TOOL_NAMES, PlannerResponse, planner_function_schema

SCHEMA = planner_function_schema()["function"]["parameters"]
VALIDATOR = Draft202012Validator(SCHEMA)
BELIEF = {"key": "answer.confidence", "guessed": 0.9, "delta": 0}


def model_verdict(step: Any) -> str:
    """`ok`, `fields` (a field's own rule refused it) or `across` (only the rules across
    fields, which no schema of this shape can say), as strict JSON validation has it:
    the schema speaks of JSON values, lax coercions ("0.5" for 0.5) are the model's own."""
    try:
        PlannerResponse.model_validate_json(json.dumps(step), strict=True)
    except ValidationError as exc:
        across = all(e["loc"] == () and e["type"] == "value_error" for e in exc.errors())
        return "across" if across else "fields"
    return "ok"


def schema_accepts(step: Any) -> bool:
    return VALIDATOR.is_valid(step)


EXAMPLES: list[tuple[str, dict[str, Any], str]] = [
    ("a call", {"action": "CALL_TOOL", "tool": "save_note", "args": {"content": "x"}}, "ok"),
    ("an answer", {"action": "RESPOND", "message": "Oi!"}, "ok"),
    ("nothing", {"action": "NOOP"}, "ok"),
    ("nulls written out", {"action": "NOOP", "tool": None, "args": None, "message": None}, "ok"),
    ("an unknown tool", {"action": "CALL_TOOL", "tool": "rm_rf", "args": {}}, "fields"),
    ("an unknown action", {"action": "DANCE"}, "fields"),
    ("an extra field", {"action": "NOOP", "why": "because"}, "fields"),
    ("args not an object", {"action": "CALL_TOOL", "tool": "save_note", "args": "x"}, "fields"),
    ("a message too long", {"action": "RESPOND", "message": "a" * 4001}, "fields"),
    ("a message not text", {"action": "RESPOND", "message": 5}, "fields"),
]
BELIEFS: list[tuple[str, Any, str]] = [
    ("no delta", {"key": "k", "guessed": 1}, "ok"),
    ("a guess over 1", {"key": "k", "guessed": 1.5}, "fields"),
    ("a delta under -1", {"key": "k", "guessed": 0.5, "delta": -2}, "fields"),
    ("an empty key", {"key": "", "guessed": 0.5}, "fields"),
    ("a key too long", {"key": "k" * 81, "guessed": 0.5}, "fields"),
    ("an extra field", {"key": "k", "guessed": 0.5, "why": 1}, "fields"),
    ("a guess as text", {"key": "k", "guessed": "0.5"}, "fields"),
    ("no guess", {"key": "k"}, "fields"),
    ("not an object", "sure", "fields"),
]


@pytest.mark.parametrize(("name", "step", "verdict"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_step_is_judged_alike_by_the_schema_and_the_model(
    name: str, step: dict[str, Any], verdict: str
) -> None:
    step = {**step, "belief": BELIEF}
    assert model_verdict(step) == verdict
    assert schema_accepts(step) == (verdict == "ok")


@pytest.mark.parametrize(("name", "belief", "verdict"), BELIEFS, ids=[b[0] for b in BELIEFS])
def test_each_belief_is_judged_alike(name: str, belief: Any, verdict: str) -> None:
    step = {"action": "NOOP", "belief": belief}
    assert model_verdict(step) == verdict
    assert schema_accepts(step) == (verdict == "ok")


def test_a_missing_belief_or_action_is_refused_by_both() -> None:
    for step in ({"action": "NOOP"}, {"belief": BELIEF}):
        assert model_verdict(step) == "fields"
        assert not schema_accepts(step)


def test_the_rules_across_fields_are_the_model_s_alone() -> None:
    # a call with no tool: every field is fine on its own
    step = {"action": "CALL_TOOL", "message": "hi", "belief": BELIEF}
    assert model_verdict(step) == "across"
    assert schema_accepts(step)


def test_the_tool_names_are_toolname_s_own() -> None:
    tool = SCHEMA["properties"]["tool"]
    names = next(option["enum"] for option in tool["anyOf"] if "enum" in option)
    assert names == list(TOOL_NAMES)
    assert "$ref" not in json.dumps(SCHEMA)  # inlined, for servers that build a grammar from it


JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2, allow_nan=False)
    | st.text(max_size=6)
)
STEPS = st.fixed_dictionaries(
    {"action": st.sampled_from(["CALL_TOOL", "RESPOND", "NOOP", "call_tool", ""])},
    optional={
        "tool": st.none() | st.sampled_from([*TOOL_NAMES, "nope"]),
        "args": st.none()
        | st.dictionaries(st.text(max_size=4), JSON_SCALARS, max_size=2)
        | JSON_SCALARS,
        "message": st.none() | st.text(max_size=8) | st.integers(),
        "belief": st.fixed_dictionaries(
            {},
            optional={
                "key": st.text(max_size=3) | st.integers(),
                "guessed": JSON_SCALARS,
                "delta": JSON_SCALARS,
                "extra": st.integers(),
            },
        )
        | JSON_SCALARS,
        "extra": JSON_SCALARS,
    },
)


@settings(max_examples=400, deadline=None)
@given(step=STEPS)
def test_any_step_is_accepted_by_the_schema_exactly_when_its_fields_pass(step: Any) -> None:
    assert schema_accepts(step) == (model_verdict(step) in ("ok", "across"))
