"""The planner step as a strict JSON schema for constrained output (`LLM_OUTPUT_MODE=json_schema`).

Built from the tool registry, so every tool's argument model is in the union without
listing it here: `args` is one of the tools' argument objects (or null), `tool` one
of their names. Strict mode (OpenAI structured outputs; llama.cpp grammars, vLLM
guided decoding and Ollama `format` read the same schema) wants every property
required, optional ones nullable, no additional properties and no defaults; length
and range limits are left to the runtime's own validation, which still runs on
every answer (a schema only narrows what the model can say).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from agent.planning.schema import PLANNER_FUNCTION_NAME, Belief
from agent.tools.base import Tool, ToolArgs
from agent.understanding.searches import plain_search

# Never the model's to call (the runtime deletes everything itself): leaving it out of
# the schema makes the pipeline violation impossible where the server enforces it.
EXCLUDED_TOOLS = frozenset({"delete_all_memories"})
_KEPT_KEYS = frozenset(
    {"type", "enum", "const", "anyOf", "properties", "items", "required", "description"}
)


def output_schema(tools: Iterable[Tool[ToolArgs]]) -> dict[str, Any]:
    """The strict-compatible JSON schema of one planning step, `args` a union over `tools`."""
    offered = sorted((t for t in tools if t.name not in EXCLUDED_TOOLS), key=lambda t: t.name)
    variants: list[dict[str, Any]] = []
    for tool in offered:
        variant = strict_object(tool.args_model.model_json_schema())
        if variant not in variants:  # save_movie and save_tv_show take the same object
            variants.append(variant)
    return {
        "type": "object",
        "properties": {
            "action": {"type": "string", "enum": ["CALL_TOOL", "RESPOND", "NOOP"]},
            "tool": {"type": ["string", "null"], "enum": [*(t.name for t in offered), None]},
            "args": {"anyOf": [*variants, {"type": "null"}]},
            "message": {"type": ["string", "null"]},
            "belief": strict_object(Belief.model_json_schema()),
        },
        "required": ["action", "tool", "args", "message", "belief"],
        "additionalProperties": False,
    }


# Where the server enforces the schema, a first planning step may only name the tools
# its message can need, by the code's reading of it (DESIGN 3.3). A small model then
# cannot bookmark a "keep <url>" or search on a delete; RESPOND and NOOP stay open, and
# later steps (after a tool's result) get every tool. The prompt is not changed, so the
# server's prefix cache still matches.
_SAVES = frozenset({"save_note", "save_link", "save_video", "save_movie", "save_tv_show"})
_ENRICH = frozenset({"enrich_movie", "enrich_tv_show", "enrich_link"})
FIRST_STEP_TOOLS: Mapping[str, frozenset[str]] = {
    "save": _SAVES | _ENRICH | {"request_clarification", "remember", "update_item"},
    "search": _ENRICH | {"search_items", "request_clarification"},
    "delete": frozenset({"delete_item", "search_items", "simulate", "request_clarification"}),
}


# A message naming a tool the cut would close is never narrowed ("bookmark this link").
_NAMES_A_CLOSED_TOOL = re.compile(
    r"\b(?:bookmark|marcador|favorit|lembra\w* de mim)", re.IGNORECASE
)


# A plain search ("look for gym", "did I save anything about Turing?") needs no lookup:
# the 1.5B model looked up the previous turn's show or link instead of searching.
PLAIN_SEARCH_TOOLS = frozenset({"search_items", "request_clarification"})


def first_step_tools(llm_intent: str, text: str) -> frozenset[str] | None:
    """The tools a first planning step may name for this reading of `text`, or None for all."""
    if _NAMES_A_CLOSED_TOOL.search(text):
        return None
    if llm_intent == "search" and plain_search(text) is not None:
        return PLAIN_SEARCH_TOOLS
    return FIRST_STEP_TOOLS.get(llm_intent)


def narrowed(schema: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """`schema` with its `tool` enum cut to `names` (kept in order; null stays)."""
    keep = frozenset(names)
    tool = dict(schema["properties"]["tool"])
    tool["enum"] = [name for name in tool["enum"] if name is None or name in keep]
    return {**schema, "properties": {**schema["properties"], "tool": tool}}


def response_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The `response_format` request field asking for `schema`, strictly."""
    return {
        "type": "json_schema",
        "json_schema": {"name": PLANNER_FUNCTION_NAME, "strict": True, "schema": dict(schema)},
    }


def strict_object(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A pydantic object schema in strict form: every property required, optional ones nullable."""
    defs = dict(schema.get("$defs") or {})
    return _strict(schema, defs)


def _strict(node: Mapping[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    if "$ref" in node:
        node = defs[str(node["$ref"]).rsplit("/", 1)[-1]]
    out = {key: value for key, value in node.items() if key in _KEPT_KEYS}
    if "anyOf" in out:
        out["anyOf"] = [_strict(option, defs) for option in out["anyOf"]]
    if "items" in out and isinstance(out["items"], Mapping):
        out["items"] = _strict(out["items"], defs)
    if out.get("type") == "object" or "properties" in out:
        required = set(node.get("required") or ())
        properties = {
            name: _strict(spec, defs) if name in required else _nullable(_strict(spec, defs))
            for name, spec in (node.get("properties") or {}).items()
        }
        out.update(
            type="object",
            properties=properties,
            required=list(properties),
            additionalProperties=False,
        )
    return out


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in node:
        if {"type": "null"} not in node["anyOf"]:
            node["anyOf"] = [*node["anyOf"], {"type": "null"}]
        return node
    kind = node.get("type")
    if isinstance(kind, str) and kind != "null":
        node["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        node["type"] = [*kind, "null"]
    if "enum" in node and None not in node["enum"]:
        node["enum"] = [*node["enum"], None]
    return node
