"""The planner contract (DESIGN 3.1): every model output must parse into `PlannerResponse`."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ToolName = Literal[
    "save_note",
    "save_movie",
    "save_tv_show",
    "save_video",
    "save_link",
    "enrich_movie",
    "enrich_tv_show",
    "enrich_link",
    "search_items",
    "delete_item",
    "delete_all_memories",
    "update_item",  # DESIGN 9.4
    "request_clarification",  # issue 13
    "simulate",  # issue 13: a dry run with the risk score
    "remember",  # issue 12: model memory
    "bookmark",
    "log_reasoning",  # issue 31: a note for /why, no effect
    "set_reminder",  # DESIGN 11.1: reminders and undo as tools
    "list_reminders",
    "change_reminder",
    "cancel_reminder",
    "undo_last",
    "save_items",  # DESIGN 11.1: several typed items in one call
    "list_items",  # DESIGN 11.1: list or count by type, period, state
    "mark_item",  # DESIGN 11.1: the watchlist (issue 44)
    "where_to_watch",
    "suggest_from_list",
    "what_i_said",  # issue 44: the rating and seen date kept of one item
]
TOOL_NAMES: tuple[str, ...] = ToolName.__args__  # type: ignore[attr-defined]
PLANNER_FUNCTION_NAME = "plan"


class Belief(BaseModel):
    """The model's guess of one belief's current value, and the change it asks for."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, max_length=80)
    guessed: float = Field(ge=0.0, le=1.0)
    delta: float = Field(default=0.0, ge=-1.0, le=1.0)


class PlannerResponse(BaseModel):
    """One planning step: call one tool, respond with a message, or do nothing."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["CALL_TOOL", "RESPOND", "NOOP"]
    tool: ToolName | None = None
    args: dict[str, Any] | None = None
    message: str | None = Field(default=None, max_length=4_000)
    belief: Belief

    @model_validator(mode="after")
    def _shape_matches_action(self) -> PlannerResponse:
        if self.action == "CALL_TOOL":
            if self.tool is None or self.args is None:
                raise ValueError("CALL_TOOL needs `tool` and `args` (use {} for no arguments)")
            if self.message is not None:
                raise ValueError("CALL_TOOL must have `message` null")
        elif self.action == "RESPOND":
            if not (self.message or "").strip():
                raise ValueError("RESPOND needs a non-empty `message`")
            if self.tool is not None or self.args is not None:
                raise ValueError("RESPOND must have `tool` and `args` null")
        elif self.tool is not None or self.args is not None or self.message is not None:
            raise ValueError("NOOP must have `tool`, `args` and `message` null")
        return self


def planner_function_schema() -> dict[str, Any]:
    """The one function the model may call, in OpenAI's `tools` format (no strict mode).

    Its parameters are `PlannerResponse`'s own JSON schema (a tool name added to `ToolName`
    is in it with no edit here), with `$ref`s inlined (servers that turn a schema into a
    grammar do not all follow them) and the classes' titles, docstrings and defaults left
    out (for the code's readers, not worth their tokens on every request; a field with a
    default is simply not `required`). The rules across fields
    (CALL_TOOL needs `tool` and `args`, ...) are `PlannerResponse`'s validator's: a schema
    of the shape the model sees cannot say them, so a step breaking one is invalid output.
    """
    return {
        "type": "function",
        "function": {
            "name": PLANNER_FUNCTION_NAME,
            "description": (
                "Your only way to act or speak. Call it exactly once per answer with one planning step."
            ),
            "parameters": copy.deepcopy(_parameters()),
        },
    }


# what the model needs no words for: titles name classes; a default only repeats that the
# field is not `required`
_LEFT_OUT = frozenset({"title", "default"})


@cache
def _parameters() -> dict[str, Any]:
    schema = PlannerResponse.model_json_schema()
    inlined: dict[str, Any] = _plain(schema, schema.pop("$defs", {}))
    return inlined


def _plain(node: Any, defs: dict[str, Any]) -> Any:
    """`node` with `$ref`s replaced by their definitions and object titles and docstrings dropped."""
    if isinstance(node, list):
        return [_plain(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        return _plain(defs[ref.removeprefix("#/$defs/")], defs)
    plain: dict[str, Any] = {}
    for key, value in node.items():
        if key in _LEFT_OUT or (key == "description" and node.get("type") == "object"):
            continue
        if key == "properties":
            plain[key] = {name: _plain(field, defs) for name, field in value.items()}
        else:
            plain[key] = _plain(value, defs)
    return plain
