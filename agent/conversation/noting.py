"""An explicit save the planner did not do (issues 26, 41): done as written, in code.

Small models read an imperative note ("note: call the bank") as a request to act and
ask back ("Do you want me to call the bank?"), or answer with a message; they answer
"salva The Bear" with nothing to do (a NOOP). The message said what to do in a form the offline
rules read with no doubt (a headed note; a save verb before a title, a typed title or a
link: agent/planning/offline.py, the same reading a process with no model acts on): the
program does it, through the tool that reading names, and a title is saved as written
when TMDB is not there to ask.
"""

from __future__ import annotations

from pydantic import ValidationError

from agent.conversation import incode, outcomes
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.offline import asked_to_save, plan_offline
from agent.planning.step import StepResult
from agent.tools import registry
from agent.tools.base import Clarification, Saved, Tool, ToolArgs, ToolContext
from agent.types import Reply
from agent.understanding.batches import headed_note
from agent.understanding.textnorm import fold


async def unsaved_note(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], result: StepResult
) -> Reply | None:
    """The note, when the planner answered an explicit one without saving it (a question
    back, a message, nothing); None otherwise: a tool it ran, or a failure, stands."""
    text = turn.incoming.text or ""
    content = headed_note(text)
    asked_back = result.status == "tool" and isinstance(result.outcome, Clarification)
    if not (asked_back or result.status in ("respond", "noop") or result.left_to_code):
        return None
    # beyond a headed note, only a step that did nothing is overruled (a NOOP, or a runaway
    # answer left to code): a question back ("salva aquele documentário") or words of the
    # model's own stand (its claims checked)
    did_nothing = result.status == "noop" or result.left_to_code
    planned = None if content is not None or not did_nothing else explicit_save(text)
    if content is None and planned is None:
        return None
    if asked_back:  # the question is not asked: its call leaves this turn's record
        if "request_clarification" in turn.tools_executed:
            turn.tools_executed.remove("request_clarification")
        turn.messages[:] = [
            m
            for m in turn.messages
            if not (m.role == "ai" and any(c.id == result.call_id for c in m.tool_calls))
        ]
    name, raw = ("save_note", {"content": (content or "")[:4_000]}) if planned is None else planned
    turn.facts.apply_rule("explicit_save_kept_in_code")
    tool = tools[name]
    try:
        args = tool.args_model.model_validate(raw)
    except ValidationError:
        return None  # past the tool's own limits: the planner's answer stands
    outcome = await tool.run(ToolContext(deps, turn, wants_save=True), args)
    incode.record(turn, name, args.model_dump(), outcome)
    if isinstance(outcome, Saved) and outcome.created:
        turn.tools_executed.append(name)
    done = StepResult("tool", outcome=outcome, tool=name)
    return await outcomes.after_tool(deps, turn, done, wants_save=True)


async def keep_note(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], content: str
) -> Reply:
    """The message the user chose to keep as a note (a reminder was offered first): saved as
    written, through `save_note`."""
    tool = tools["save_note"]
    args = tool.args_model.model_validate({"content": content[:4_000]})
    turn.facts.apply_rule("clarification_answered")
    outcome = await tool.run(ToolContext(deps, turn, wants_save=True), args)
    incode.record(turn, "save_note", args.model_dump(), outcome)
    if isinstance(outcome, Saved) and outcome.created:
        turn.tools_executed.append("save_note")
    done = StepResult("tool", outcome=outcome, tool="save_note")
    return await outcomes.after_tool(deps, turn, done, wants_save=True)


def reads_save(text: str) -> bool:
    """Whether code reads the save `text` asks for with no doubt (a headed note, or a save
    verb before what to save), so it keeps it should the planner not."""
    return headed_note(text) is not None or explicit_save(text) is not None


def explicit_save(text: str) -> tuple[str, dict[str, object]] | None:
    """The save a message asks for with a save verb, as the offline rules read it, if any."""
    if not asked_to_save(text):
        return None
    planned = plan_offline(text, "save")
    if planned is None or registry()[planned[0]].does not in ("save", "lookup"):
        return None
    named = str(planned[1].get("title") or "")
    if fold(named).split()[:1] and fold(named).split()[0] in _POINTING:
        return None  # "salva aquele documentário" points at something: no title to save
    return planned


_POINTING = frozenset(
    "aquele aquela aqueles aquelas esse essa isso este esta isto that this".split()
)
