"""Tool runs the runtime makes in code (issue 26), recorded as a planner step would be.

A question answered from storage, an edit or a deletion resolved from the shelf runs
the same tool the planner would have called. Its call and result are kept as native
messages (an `ai` message with the `plan` call, the `tool` message with its result),
so the model's history, the memory tiers and dreaming (searches that found nothing)
read these turns exactly like planned ones.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from agent.conversation.turn import Turn
from agent.planning.schema import PLANNER_FUNCTION_NAME
from agent.planning.step import outcome_payload
from agent.tokens import compact_json
from agent.tools.base import Outcome
from storage.documents import ToolCallRecord
from storage.messages import NewMessage


def record(turn: Turn, tool: str, args: dict[str, Any], outcome: Outcome) -> None:
    """Keep `tool(args)` and its `outcome` in the turn's messages, as the planner's call."""
    call_id = f"code_{uuid.uuid4().hex[:12]}"
    # `written` is the step as a model writes it in json_schema output: a history shown
    # verbatim teaches the short form, not `"message": null` and a zero delta (issue 28)
    written = {
        "action": "CALL_TOOL",
        "tool": tool,
        "args": {k: v for k, v in args.items() if v is not None},
        "belief": {"key": "answer.confidence", "guessed": 1},
    }
    step = {
        **written,
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0.0},
    }
    turn.messages.append(
        NewMessage(
            role="ai",
            content="",
            tool_calls=(
                ToolCallRecord(
                    id=call_id,
                    name=PLANNER_FUNCTION_NAME,
                    args_json=json.dumps(step, ensure_ascii=False),
                ),
            ),
            turn_id=turn.turn_id,
            step_text=compact_json(written),
        )
    )
    turn.messages.append(
        NewMessage(
            role="tool",
            content=json.dumps(outcome_payload(outcome), ensure_ascii=False),
            tool_call_id=call_id,
            name=tool,
            turn_id=turn.turn_id,
        )
    )
