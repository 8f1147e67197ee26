"""`log_reasoning` (seed 002-44): the model leaves a short note of why it chose a step.

It touches no item. The note (at most 200 characters) is kept as data on the turn and
shown by `/why` for that turn's reply; it is never put back in a prompt: the copy of
the call kept in the conversation holds a marker in its place, so later requests do
not carry it. The ledger gets its length and digest only (DESIGN 9.5).
"""

from __future__ import annotations

import dataclasses
import json

from pydantic import Field

from agent.conversation.turn import Turn
from agent.tools.base import Outcome, Reasoned, Tool, ToolArgs, ToolContext
from agent.trust.ledgering import append_event, digest
from agent.understanding.textnorm import clean_text, one_line

NOTE_CHARS = 200
KEPT_MARKER = "[kept for /why]"


class LogReasoningArgs(ToolArgs):
    note: str = Field(min_length=1, max_length=NOTE_CHARS)


def _unsaid(turn: Turn) -> None:
    """The stored copy of the call, with the note replaced by a marker."""
    for index in range(len(turn.messages) - 1, -1, -1):
        message = turn.messages[index]
        if message.role != "ai" or not message.tool_calls:
            continue
        calls = []
        for call in message.tool_calls:
            try:
                args = json.loads(call.args_json)
            except ValueError:
                args = None
            inner = args.get("args") if isinstance(args, dict) else None
            if isinstance(inner, dict) and "note" in inner:
                inner["note"] = KEPT_MARKER
                call = call.model_copy(update={"args_json": json.dumps(args, ensure_ascii=False)})
            calls.append(call)
        turn.messages[index] = dataclasses.replace(message, tool_calls=tuple(calls))
        return


async def log_reasoning(ctx: ToolContext, args: LogReasoningArgs) -> Outcome:
    """Keep the note for `/why`; change nothing else."""
    note = one_line(clean_text(args.note), NOTE_CHARS)
    ctx.turn.reasoning = note
    _unsaid(ctx.turn)
    await append_event(
        ctx.deps, ctx.turn, "reasoning_logged", {"chars": len(note), "sha256": digest(note)}
    )
    return Reasoned(note)


REASONING_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "log_reasoning",
        LogReasoningArgs,
        "read",
        "Note (<=200 chars) why you chose your next step; shown to the user by /why. Then plan the step.",
        log_reasoning,
        {"note": "two items match; asking which one"},
        kind="meta",
    ),
)
