"""Structured outputs as the scripted model server checks them (`response_format: json_schema`).

Two checks, as OpenAI's strict mode makes them: the schema itself must be strict
(every object `additionalProperties: false` and every property required; optional
ones are nullable instead), else the request is refused with HTTP 400; and what the
server answers must conform to it (a scripted output that does not is a script
error, since a constraining server could never have produced it). Only the JSON
Schema subset strict mode allows is understood: type, enum, const, anyOf,
properties, required, additionalProperties, items.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,),
    "array": (list,),
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
}


def structured_schema(body: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The schema a request's `response_format` asks for, or None (not a json_schema request)."""
    response_format = body.get("response_format")
    if not isinstance(response_format, Mapping) or response_format.get("type") != "json_schema":
        return None
    spec = response_format.get("json_schema")
    schema = spec.get("schema") if isinstance(spec, Mapping) else None
    return schema if isinstance(schema, Mapping) else {}


def strict_problem(schema: Mapping[str, Any], path: str = "()") -> str | None:
    """Why strict mode would refuse `schema` (OpenAI's wording), or None."""
    if not schema:
        return "Invalid schema for response_format: a schema is required"
    if "anyOf" in schema:
        for position, option in enumerate(schema["anyOf"]):
            problem = strict_problem(option, f"{path}, anyOf, {position}")
            if problem is not None:
                return problem
    if schema.get("type") == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False:
            return (
                f"Invalid schema for response_format: In context={path}, 'additionalProperties' "
                "is required to be supplied and to be false."
            )
        missing = [name for name in properties if name not in (schema.get("required") or [])]
        if missing:
            return (
                f"Invalid schema for response_format: In context={path}, 'required' is required to "
                f"be supplied and to be an array including every key in properties. Missing '{missing[0]}'."
            )
        for name, spec in properties.items():
            problem = strict_problem(spec, f"{path}, properties, {name}")
            if problem is not None:
                return problem
    if isinstance(schema.get("items"), Mapping):
        return strict_problem(schema["items"], f"{path}, items")
    return None


def mismatch(value: Any, schema: Mapping[str, Any], path: str = "$") -> str | None:
    """Where `value` does not conform to `schema`, or None."""
    if "anyOf" in schema:
        if any(mismatch(value, option, path) is None for option in schema["anyOf"]):
            return None
        return f"{path}: matches none of the anyOf options"
    if "const" in schema and value != schema["const"]:
        return f"{path}: must be {schema['const']!r}"
    if "enum" in schema and value not in schema["enum"]:
        return f"{path}: {value!r} is not one of {schema['enum']!r}"
    kinds = schema.get("type")
    if kinds is not None:
        names = [kinds] if isinstance(kinds, str) else list(kinds)
        if not any(_is(value, name) for name in names):
            return f"{path}: expected {' or '.join(names)}"
    if isinstance(value, dict) and "properties" in schema:
        properties = schema["properties"]
        for name in value:
            if name not in properties:
                return f"{path}: unexpected property {name!r}"
        for name in schema.get("required") or []:
            if name not in value:
                return f"{path}: missing property {name!r}"
        for name, inner in value.items():
            problem = mismatch(inner, properties[name], f"{path}.{name}")
            if problem is not None:
                return problem
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, inner in enumerate(value):
            problem = mismatch(inner, schema["items"], f"{path}[{index}]")
            if problem is not None:
                return problem
    return None


def _is(value: Any, name: str) -> bool:
    if isinstance(value, bool) and name in ("integer", "number"):
        return False
    return isinstance(value, _TYPES.get(name, ()))


def conformed(value: Any, schema: Mapping[str, Any]) -> Any:
    """`value` as `schema` has it: when it does not conform as it is but does once its null
    properties are left out (a step scripted with every unused field as null, served by a
    server whose schema lets them be omitted), the version without them; else `value`."""
    if mismatch(value, schema) is None:
        return value
    trimmed = _without_nulls(value)
    return trimmed if mismatch(trimmed, schema) is None else value


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value
