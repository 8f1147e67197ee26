"""An explicit "anota: X" the planner did not save (issue 26): saved as written, in code.

Small models read an imperative note ("note: call the bank") as a request to act and
ask back ("Do you want me to call the bank?"), or answer with a message. The message
said what to do, in the one form that leaves nothing to read: the program does it.
"""

from __future__ import annotations

from agent.conversation import incode, outcomes
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.step import StepResult
from agent.tools.base import Clarification, Saved, Tool, ToolArgs, ToolContext
from agent.types import Reply
from agent.understanding.batches import headed_note


async def unsaved_note(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], result: StepResult
) -> Reply | None:
    """The note, when the planner answered an explicit one without saving it (a question
    back, a message, nothing); None otherwise: a tool it ran, or a failure, stands."""
    content = headed_note(turn.incoming.text or "")
    asked_back = result.status == "tool" and isinstance(result.outcome, Clarification)
    if content is None or not (asked_back or result.status in ("respond", "noop")):
        return None
    if asked_back:  # the question is not asked: its call leaves this turn's record
        if "request_clarification" in turn.tools_executed:
            turn.tools_executed.remove("request_clarification")
        turn.messages[:] = [
            m
            for m in turn.messages
            if not (m.role == "ai" and any(c.id == result.call_id for c in m.tool_calls))
        ]
    turn.facts.apply_rule("explicit_note_kept_in_code")
    tool = tools["save_note"]
    args = tool.args_model.model_validate({"content": content[:4_000]})
    outcome = await tool.run(ToolContext(deps, turn, wants_save=True), args)
    incode.record(turn, "save_note", args.model_dump(), outcome)
    if isinstance(outcome, Saved) and outcome.created:
        turn.tools_executed.append("save_note")
    return outcomes.saved_reply(turn, outcome)
