"""The strict planning schema shaped for one request, and the field that asks for it.

`agent/planning/structured.py` builds the schema once from the tool registry; the
transport shapes it per request (tools cut, item ids to the handles shown, arguments
carrying facts the message does not state left out) and sends it as `response_format`.
Plain dictionaries in, plain dictionaries out: this module imports no tool, so the
transport, which `Deps` names, never reaches back to the tools and `Deps` (no import
circle, tests/test_architecture.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agent.planning.schema import PLANNER_FUNCTION_NAME

# an address is a fact only the user's words (or what they were shown) can give
ADDRESSES = frozenset({"url"})


def without_facts(
    schema: Mapping[str, Any], unstated: frozenset[str], facts: Mapping[str, frozenset[str]]
) -> dict[str, Any]:
    """`schema` (the union form) without the argument objects that carry an unstated fact
    (`facts`: each tool's fact arguments, agent/tools/paths.py)."""
    if "anyOf" not in schema or not unstated:
        return dict(schema)
    steps = []
    for step in schema["anyOf"]:
        tool = step["properties"].get("tool")
        named = (facts.get(tool["const"], frozenset()) | ADDRESSES) if tool else frozenset()
        cut = named & unstated
        args = step["properties"].get("args", {})
        if cut:
            variants = args["anyOf"] if "anyOf" in args else [args]
            kept = [v for v in variants if not cut & set(v.get("properties") or ())]
            if not kept:
                continue  # every way to call it needs what the message does not give
            args = kept[0] if len(kept) == 1 else {"anyOf": kept}
            step = {**step, "properties": {**step["properties"], "args": args}}
        steps.append(step)
    return {**schema, "anyOf": steps}


def with_handles(schema: Mapping[str, Any], handles: Iterable[str]) -> dict[str, Any]:
    """`schema` (the union form) whose `item_id` may only be one of `handles` (issue 41).

    A first step names an item by the handle the situation shows beside it (the shelf,
    the item in focus); the 1.5B model otherwise copied the prompt example's handle on a
    message about no item, and an id that is no item of the user's fails the turn (3.1).
    With nothing on the shelf, the argument objects that need an item are left out (a
    tool with none left is left out), so a model cannot name an item nobody showed it.
    """
    if "anyOf" not in schema:
        return dict(schema)
    allowed = sorted(set(handles))
    steps = []
    for step in schema["anyOf"]:
        args = step["properties"].get("args")
        if args is None:
            steps.append(step)
            continue
        variants = [
            _with_item_ids(v, allowed) for v in (args["anyOf"] if "anyOf" in args else [args])
        ]
        kept = [v for v in variants if v is not None]
        if not kept:
            continue
        shaped = kept[0] if len(kept) == 1 else {"anyOf": kept}
        steps.append({**step, "properties": {**step["properties"], "args": shaped}})
    return {**schema, "anyOf": steps}


def _with_item_ids(variant: Mapping[str, Any], handles: list[str]) -> dict[str, Any] | None:
    properties = variant.get("properties") or {}
    if "item_id" not in properties:
        return dict(variant)
    if not handles:
        return None
    item_id = {"type": "string", "enum": handles}
    return {**variant, "properties": {**properties, "item_id": item_id}}


def narrowed(schema: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """`schema` with its tool steps cut to `names` (kept in order; RESPOND, NOOP and null stay)."""
    keep = frozenset(names)
    if "anyOf" in schema:
        steps = [
            step
            for step in schema["anyOf"]
            if "tool" not in step["properties"] or step["properties"]["tool"]["const"] in keep
        ]
        return {**schema, "anyOf": steps}
    tool = dict(schema["properties"]["tool"])
    tool["enum"] = [name for name in tool["enum"] if name is None or name in keep]
    return {**schema, "properties": {**schema["properties"], "tool": tool}}


def response_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The `response_format` request field asking for `schema`, strictly."""
    return {
        "type": "json_schema",
        "json_schema": {"name": PLANNER_FUNCTION_NAME, "strict": True, "schema": dict(schema)},
    }
