"""A planner answer checked before anything runs: its calls read, the step parsed, arguments validated.

Each check returns the problem as text for the model (DESIGN 3.1's table): the step
loop (planning/step.py) sends it back as the call's refusal and re-asks.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage
from pydantic import ValidationError

from agent.planning.schema import PLANNER_FUNCTION_NAME, PlannerResponse
from agent.tools.base import Tool, ToolArgs

# The longest model output kept verbatim in the conversation. A valid step is at most
# ~8,200 characters (4,000-character fields, escaping at most doubles them); anything
# longer is invalid anyway, and echoing it back would overflow the context of the
# re-ask and of every later turn that loads it from history.
ECHO_LIMIT = 10_000
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class PlannerCall:
    """One function call in a model answer, as the model sent it."""

    id: str
    name: str
    args: Any
    problem: str | None  # why the call is unusable as given


def calls_of(answer: Any) -> list[PlannerCall]:
    """Every function call in a model answer, the unparsable ones with their problem."""
    message: AIMessage = answer.message
    calls = [
        PlannerCall(
            str(c.get("id") or f"call_{uuid.uuid4().hex[:12]}"),
            str(c.get("name")),
            c.get("args"),
            None,
        )
        for c in message.tool_calls
    ]
    calls += [
        PlannerCall(
            str(c.get("id") or f"call_{uuid.uuid4().hex[:12]}"),
            str(c.get("name")),
            c.get("args"),
            str(c.get("error") or "the function arguments are not valid JSON"),
        )
        for c in message.invalid_tool_calls
    ]
    return calls


def parse(answer: Any, calls: Sequence[PlannerCall]) -> tuple[PlannerResponse | None, str | None]:
    """The planner step in an answer, or the problem that makes it no step."""
    if answer.problem is not None:  # cut, looping, or JSON in content that is no step (9.1)
        return None, answer.problem
    if not calls:
        return None, f"no function call: answer only by calling `{PLANNER_FUNCTION_NAME}`"
    if len(calls) > 1:
        return (
            None,
            f"call `{PLANNER_FUNCTION_NAME}` exactly once per answer ({len(calls)} calls received)",
        )
    call = calls[0]
    if call.problem is not None:
        return None, call.problem
    if call.name != PLANNER_FUNCTION_NAME:
        return (
            None,
            f"unknown function {call.name[:40]!r}: the only function is `{PLANNER_FUNCTION_NAME}`",
        )
    try:
        return PlannerResponse.model_validate(call.args), None
    except ValidationError as exc:
        return None, "invalid step: " + errors_text(exc)


def validate_args(
    tool: Tool[ToolArgs], args: dict[str, Any], other_fields: frozenset[str]
) -> tuple[ToolArgs, bool] | str:
    """The tool's arguments, and whether they were only accepted after a lax coercion ("2010" -> 2010)."""
    try:
        return tool.args_model.model_validate(args, strict=True), False
    except ValidationError:
        pass
    try:
        return tool.args_model.model_validate(args), True
    except ValidationError as exc:
        pruned = _without_extras(args, exc, other_fields)
        if pruned is None:
            return f"invalid args for {tool.name}: " + errors_text(exc)
    # Keys another tool takes ("type", "limit" of search_items on delete_item): a
    # constrained server lets `args` be any tool's object, so the union can cross over.
    # They are dropped, and the step counts as coerced; an unknown key ("user_id") or
    # any other error is still refused and re-asked.
    try:
        return tool.args_model.model_validate(pruned), True
    except ValidationError as exc:
        return f"invalid args for {tool.name}: " + errors_text(exc)


def control_characters(response: PlannerResponse) -> str | None:
    """Where a step's text holds a control character, or None: such a step is re-asked, never cleaned.

    C0/C1 controls (tab, line feed and carriage return allowed) and the bidirectional
    controls that make text display as something it is not. Stripping them ourselves
    would execute something the model did not send.
    """
    found = _first_control("args", response.args) or _first_control("message", response.message)
    if found is None:
        return None
    where, char = found
    return (
        f"{where} contains the control character U+{ord(char):04X}: "
        "resend the same step without control characters"
    )


def _first_control(where: str, value: Any) -> tuple[str, str] | None:
    if isinstance(value, str):
        match = _CONTROL.search(value)
        return (where, match.group()) if match else None
    if isinstance(value, dict):
        for key, inner in value.items():
            path = f"{where}.{str(key)[:40]}"
            found = _first_control(path, str(key)) or _first_control(path, inner)
            if found is not None:
                return found
    if isinstance(value, list):
        for index, inner in enumerate(value):
            found = _first_control(f"{where}[{index}]", inner)
            if found is not None:
                return found
    return None


def echo_args(args: Any) -> dict[str, Any]:
    """A call's arguments as kept in the conversation: verbatim, unless unusable or oversized."""
    text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
    if isinstance(args, dict) and len(text) <= ECHO_LIMIT:
        return args
    return {"unparsed": text[:200]}


def _without_extras(
    args: dict[str, Any], exc: ValidationError, other_fields: frozenset[str]
) -> dict[str, Any] | None:
    """`args` without other tools' keys, when those are all that is wrong with them."""
    errors = exc.errors()
    if not errors or any(
        e["type"] != "extra_forbidden" or len(e["loc"]) != 1 or e["loc"][0] not in other_fields
        for e in errors
    ):
        return None
    extra = {e["loc"][0] for e in errors}
    return {key: value for key, value in args.items() if key not in extra}


def errors_text(exc: ValidationError) -> str:
    """The first validation errors, each located, in one short line."""
    parts = []
    for error in exc.errors(include_input=False, include_url=False)[:5]:
        location = ".".join(str(p) for p in error["loc"]) or "output"
        parts.append(f"{location}: {error['msg']}")
    return "; ".join(parts)[:500]
