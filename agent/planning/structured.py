"""The planner step as a strict JSON schema for constrained output (`LLM_OUTPUT_MODE=json_schema`).

Built from the tool registry, so every tool is in the schema without listing it here.
The schema is a union of one object per step kind (issue 28): a `CALL_TOOL` object per
tool (`tool` a constant, `args` only that tool's arguments), a `RESPOND` object and a
`NOOP` object, each with the `belief` the contract requires. An optional argument (and
the belief's `delta`) can be left out, so a constraining server lets the model write
`{"action":"CALL_TOOL","tool":"save_note","args":{"content":"x"},"belief":{...}}` instead
of spelling every optional field as `null`: about half the tokens to generate.

Strict mode (OpenAI structured outputs; llama.cpp grammars, vLLM guided decoding and
Ollama `format` read the same schema) wants every property of an object required, no
additional properties and no defaults. So "optional" is written as alternatives: one
object per subset of the optional properties, each with all of its properties
required. OpenAI also wants an object at the root, never a union: OpenAI's own API gets
the flat step (`flat=True`: all five fields, `tool`/`args`/`message` nullable, `args`
the union of every tool's argument objects). Length and range limits are left to the
runtime's own validation, which still runs on every answer (a schema only narrows what
the model can say).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from agent.planning.schema import Belief
from agent.tools import paths
from agent.tools.base import Tool, ToolArgs
from agent.understanding.batches import headed_note
from agent.understanding.searches import plain_search
from agent.understanding.textnorm import fold
from agent.understanding.urls import extract_urls
from agent.understanding.vocabulary import TYPE_WORDS
from agent.understanding.watchlist import said_rating, speaks_of_seeing

# A critical tool is never the model's to call (the runtime deletes everything itself):
# leaving it out of the schema makes the pipeline violation impossible where the server
# enforces it.
_KEPT_KEYS = frozenset(
    {"type", "enum", "const", "anyOf", "properties", "items", "required", "description"}
)
# An object with more optional properties than this keeps them required and nullable
# instead of one alternative per subset (2**4 = 16 alternatives at most).
MAX_OPTIONAL = 4


def output_schema(tools: Iterable[Tool[ToolArgs]], *, flat: bool = False) -> dict[str, Any]:
    """The strict-compatible JSON schema of one planning step over `tools`.

    A union of one object per step kind; `flat` gives the single object OpenAI's strict
    mode needs at the root instead.
    """
    offered = sorted((t for t in tools if t.risk != "critical"), key=lambda t: t.name)
    belief = _one_or_union(object_variants(Belief.model_json_schema()))
    if flat:
        return _flat(offered, belief)
    steps: list[dict[str, Any]] = [
        _object(
            {
                "action": {"type": "string", "const": "CALL_TOOL"},
                "tool": {"type": "string", "const": tool.name},
                "args": _one_or_union(object_variants(tool.args_model.model_json_schema())),
                "belief": belief,
            }
        )
        for tool in offered
    ]
    steps.append(
        _object(
            {
                "action": {"type": "string", "const": "RESPOND"},
                "message": {"type": "string"},
                "belief": belief,
            }
        )
    )
    steps.append(_object({"action": {"type": "string", "const": "NOOP"}, "belief": belief}))
    return {"anyOf": steps}


def _flat(offered: list[Tool[ToolArgs]], belief: dict[str, Any]) -> dict[str, Any]:
    variants: list[dict[str, Any]] = []
    for tool in offered:
        for variant in object_variants(tool.args_model.model_json_schema()):
            if variant not in variants:  # save_movie and save_tv_show take the same object
                variants.append(variant)
    return _object(
        {
            "action": {"type": "string", "enum": ["CALL_TOOL", "RESPOND", "NOOP"]},
            "tool": {"type": ["string", "null"], "enum": [*(t.name for t in offered), None]},
            "args": {"anyOf": [*variants, {"type": "null"}]},
            "message": {"type": ["string", "null"]},
            "belief": belief,
        }
    )


def step_tools(schema: Mapping[str, Any]) -> set[str | None]:
    """The tool names a step of `schema` may carry (None when it may carry no tool)."""
    if "anyOf" in schema:
        names: set[str | None] = set()
        for step in schema["anyOf"]:
            tool = step["properties"].get("tool")
            names.add(tool["const"] if tool is not None else None)
        return names
    return set(schema["properties"]["tool"]["enum"])


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _one_or_union(variants: list[dict[str, Any]]) -> dict[str, Any]:
    return variants[0] if len(variants) == 1 else {"anyOf": variants}


# Where the server enforces the schema, a first planning step may only name the tools
# its message can need, by the code's reading of it (DESIGN 3.3), decided by what each
# tool does (agent/tools/paths.py). A small model then cannot bookmark a "keep <url>" or
# search on a delete; RESPOND and NOOP stay open, and later steps (after a tool's result)
# get every tool. The prompt is not changed, so the server's prefix cache still matches.
# The transport cuts the schema (agent/planning/shaping.py) to what these functions give.

# A message naming a tool the cut would close is never narrowed ("bookmark this link").
_NAMES_A_CLOSED_TOOL = re.compile(
    r"\b(?:bookmark|marcador|favorit|lembra\w* de mim)", re.IGNORECASE
)


def first_step_tools(
    llm_intent: str, text: str, tools: Iterable[Tool[ToolArgs]]
) -> frozenset[str] | None:
    """The tools a first planning step may name for this reading of `text`, or None for all."""
    if _NAMES_A_CLOSED_TOOL.search(text) or speaks_of_seeing(text):
        return None  # "X eu já vi, nota 8" read as a search still needs mark_item (issue 44)
    listed = list(tools)
    if llm_intent == "search" and plain_search(text) is not None:
        return paths.of_kinds(listed, paths.PLAIN_SEARCH)
    if headed_note(text) is not None:
        return paths.of_kinds(listed, paths.HEADED_NOTE)
    return paths.first_step(llm_intent, listed)


# A first step's optional facts that the message gives no value for are left out of the
# grammar too (each tool names its facts: `Tool.facts`): grounding (DESIGN 9.6) would drop
# them before the tool ran, and the 1.5B model spent tokens inventing them from its own
# knowledge (Interestelar and Dark "2014", a link's description, a search's type and
# limit). A later step, after a tool's result, may state them; so may the message itself
# ("salva o filme Parasita de 2019").
_YEAR = re.compile(r"\b(?:18[7-9]\d|19\d\d|20\d\d|2100)\b")
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\w+")
_FEW_WORDS = 3  # "salva esse link <url>": no words left to describe or title it


def unstated_facts(text: str) -> frozenset[str]:
    """The facts `text` gives no value for: optional ones (`Tool.facts`), and an address."""
    rest = text
    for url in extract_urls(text):
        rest = rest.replace(url, " ")
    words = [fold(w) for w in _WORD.findall(rest)]
    unstated = set()
    if rest == text and _POINTING.isdisjoint(words):
        # no address and nothing pointing at one shown before ("salva esse"): the 1.5B
        # model invented a YouTube address for "anota: ver o jogo domingo" (issue 41)
        unstated.add("url")
    if not _YEAR.search(rest):
        unstated.add("year")
    if "tmdb" not in words:
        unstated.add("tmdb_id")
    if not any(w in TYPE_WORDS for w in words):
        unstated.add("type")
    if not _DIGIT.search(rest):
        unstated.add("limit")
    if said_rating(rest) is None:
        unstated.add("rating")
    if len(words) <= _FEW_WORDS:
        unstated |= {"title", "description"}
    return frozenset(unstated)


_POINTING = frozenset(
    "esse essa este esta isso isto ele ela aquele aquela aquilo this that it link site".split()
)


def object_variants(schema: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A pydantic object schema as strict alternatives: one per subset of its optional properties.

    Each alternative requires every property it has, so an optional one is left out
    rather than written as null; nested objects become alternatives the same way.
    """
    defs = dict(schema.get("$defs") or {})
    return _variants(schema, defs)


def _variants(node: Mapping[str, Any], defs: Mapping[str, Any]) -> list[dict[str, Any]]:
    if "$ref" in node:
        node = defs[str(node["$ref"]).rsplit("/", 1)[-1]]
    if not (node.get("type") == "object" or "properties" in node):
        return [_compact(node, defs)]
    properties = dict(node.get("properties") or {})
    required = [name for name in properties if name in set(node.get("required") or ())]
    optional = [name for name in properties if name not in required]
    if len(optional) > MAX_OPTIONAL:
        return [_strict(node, defs)]
    present = {name: _compact(_without_null(spec), defs) for name, spec in properties.items()}
    variants = []
    for size in range(len(optional) + 1):
        for chosen in itertools.combinations(optional, size):
            kept = set(required) | set(chosen)
            # in declaration order: a server's grammar writes the properties in this order
            variants.append(_object({n: present[n] for n in properties if n in kept}))
    return variants


def _compact(node: Mapping[str, Any], defs: Mapping[str, Any]) -> dict[str, Any]:
    """A value schema in strict form, with nested objects as alternatives (`_variants`)."""
    if "$ref" in node:
        node = defs[str(node["$ref"]).rsplit("/", 1)[-1]]
    if node.get("type") == "object" or "properties" in node:
        return _one_or_union(_variants(node, defs))
    out = {key: value for key, value in node.items() if key in _KEPT_KEYS}
    if "anyOf" in out:
        options: list[dict[str, Any]] = []
        for option in out["anyOf"]:
            compacted = _compact(option, defs)
            options.extend(compacted["anyOf"] if set(compacted) == {"anyOf"} else [compacted])
        out["anyOf"] = options
    if "items" in out and isinstance(out["items"], Mapping):
        out["items"] = _compact(out["items"], defs)
    return out


def _without_null(node: Mapping[str, Any]) -> Mapping[str, Any]:
    """An optional property's schema without its null branch (leaving it out says null)."""
    options = node.get("anyOf")
    if not isinstance(options, list):
        return node
    kept = [option for option in options if option != {"type": "null"}]
    if len(kept) == 1:
        return {**{k: v for k, v in node.items() if k != "anyOf"}, **kept[0]}
    return {**node, "anyOf": kept}


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
