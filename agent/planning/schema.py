"""The planner contract (DESIGN 3.1): every model output must parse into `PlannerResponse`."""

from __future__ import annotations

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
    """The one function the model may call, in OpenAI's `tools` format (no strict mode)."""
    return {
        "type": "function",
        "function": {
            "name": PLANNER_FUNCTION_NAME,
            "description": (
                "Your only way to act or speak. Call it exactly once per answer with one planning step."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "action": {"type": "string", "enum": ["CALL_TOOL", "RESPOND", "NOOP"]},
                    "tool": {"type": ["string", "null"], "enum": [*TOOL_NAMES, None]},
                    "args": {"type": ["object", "null"]},
                    "message": {"type": ["string", "null"]},
                    "belief": {
                        "type": "object",
                        "properties": {
                            "key": {"type": "string"},
                            "guessed": {"type": "number", "minimum": 0, "maximum": 1},
                            "delta": {"type": "number", "minimum": -1, "maximum": 1},
                        },
                        "required": ["key", "guessed", "delta"],
                        "additionalProperties": False,
                    },
                },
                "required": ["action", "tool", "args", "message", "belief"],
                "additionalProperties": False,
            },
        },
    }
