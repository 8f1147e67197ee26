"""The planner's clarifications in a turn (issue 13): ask with options, read the answer, hand it back.

Asking stores a pending choice holding the planner call that asked. The answer (a button,
a number or ordinal, an option's words, or anything else as the user's own words) is
given back to the planner as that call's result: the call and a `tool` message
answering its id are appended after the user's message, so the request stays a valid
native sequence and the stored history never holds a call without its result.
"""

from __future__ import annotations

import difflib
import json
import re
import uuid
from dataclasses import dataclass

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from agent.conversation import pending as pendings
from agent.conversation.replies import finish, numbered
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.schema import PLANNER_FUNCTION_NAME, PlannerResponse
from agent.planning.step import StepResult
from agent.texts import text
from agent.tools.asking import RequestClarificationArgs, request_clarification
from agent.tools.base import Clarification, ToolContext
from agent.types import Reply
from agent.understanding.batches import headed_note, read_batch
from agent.understanding.intent import Intent
from agent.understanding.questions import read_question
from agent.understanding.references import read_reference
from agent.understanding.textnorm import clean_text, data_block, fold, one_line, without_emojis
from storage.documents import ToolCallRecord
from storage.messages import NewMessage

TOOL_NAME = "request_clarification"
FUZZY_RATIO = 0.8  # one or two typos in a short option
FUZZY_MARGIN = 0.05  # ...and clearly closer than any other option
_WORD = re.compile(r"\w+")
EXTRA_WORDS = (
    2  # "o de nota, por favor" still picks "nota"; a longer message is the user's own words
)


@dataclass(frozen=True, slots=True)
class Answer:
    """What the user answered: an option (0-based) or, when `index` is None, their own words."""

    pending: pendings.ChooseClarification
    index: int | None
    said: str


async def ask(deps: Deps, turn: Turn, outcome: Clarification, result: StepResult) -> Reply:
    """Show the question with its options as a pick, and hold the call until the user answers."""
    assert result.response is not None
    pending = pendings.ChooseClarification(
        call_id=result.call_id,
        step_json=result.response.model_dump_json(),
        options=list(outcome.options),
    )
    await pendings.store(deps, turn, pending)
    _unkeep_call(turn, result.call_id)
    turn.facts.ambiguity = "unresolved"
    turn.facts.apply_rule("clarification_asked")
    labels = [without_emojis(option) or option for option in outcome.options]
    question = without_emojis(outcome.question) or outcome.question
    return finish(
        turn,
        question + "\n" + numbered(labels),
        kind="candidates",
        choices=labels,
        choice_kind="pick",
        choice_token=pending.token,
    )


async def offer(deps: Deps, turn: Turn, result: StepResult, message: str) -> Reply:
    """An offer to act the model wrote as prose ("Quer que eu anote?"), asked instead as a
    clarification with options (DESIGN 9.2, seed 003): never shown as a plain answer."""
    assert result.response is not None
    lang = turn.language
    args = RequestClarificationArgs(
        question=one_line(message, 300),
        options=[text("offer_choice_yes", lang), text("offer_choice_no", lang)],
    )
    outcome = await request_clarification(ToolContext(deps, turn, False), args)
    assert isinstance(outcome, Clarification)
    step = PlannerResponse(
        action="CALL_TOOL",
        tool="request_clarification",
        args=args.model_dump(),
        message=None,
        belief=result.response.belief,
    )
    turn.tools_executed.append(TOOL_NAME)
    deps.metrics.model_text.labels("offer_asked").inc()
    turn.facts.apply_rule("offer_to_act_asked")
    asked = StepResult("tool", step, outcome, TOOL_NAME, call_id=f"code_{uuid.uuid4().hex[:12]}")
    return await ask(deps, turn, outcome, asked)


async def resolve(
    deps: Deps, turn: Turn, current: pendings.ChooseClarification
) -> Answer | Reply | None:
    """The answer to `current`, a reply of its own (stale button, cancel, out of range), or None to route."""
    lang = turn.language
    incoming = turn.incoming
    if incoming.kind == "choice":
        if incoming.choice_token != current.token or incoming.choice is None:
            return finish(turn, text("stale_button", lang), kind="deterministic")
        return await _chosen(deps, turn, current, incoming.choice)
    intent = turn.intent
    if intent is not None and intent.action in ("help", "command"):
        return None  # the question stays open while the user asks for help or runs a command
    if intent is not None and intent.action == "cancel":
        await pendings.clear(deps, turn)
        return finish(turn, text("cancelled", lang), kind="deterministic")
    if intent is not None and intent.action == "select" and "index" in intent.entities:
        return await _chosen(deps, turn, current, int(intent.entities["index"]))
    if moves_on(intent, incoming.text or ""):
        # a new request of its own ("lista tudo", "anota: X", "apaga o 2"): the question
        # is dropped, not answered with it (issue 26)
        await pendings.clear(deps, turn)
        turn.notes.append(text("pending_dropped", lang))
        return None
    said = clean_text(incoming.text or "")
    await pendings.clear(deps, turn)
    index = matching_option(said, current.options)
    turn.facts.apply_rule(
        "clarification_answered" if index is not None else "clarification_free_text"
    )
    return Answer(current, index, said)


def moves_on(intent: Intent | None, message: str) -> bool:
    """Whether `message` is a request of its own rather than an answer to a question."""
    if intent is not None and intent.action in ("list_all", "delete_all", "greeting"):
        return True
    reference = read_reference(message)
    return (
        headed_note(message) is not None
        or read_batch(message) is not None
        or (reference is not None and not reference.bare)
        or read_question(message) is not None
    )


async def _chosen(
    deps: Deps, turn: Turn, current: pendings.ChooseClarification, index: int
) -> Answer | Reply:
    count = len(current.options)
    if index < 0:
        index += count  # "o último" / "the last one"
    if not 0 <= index < count:
        return finish(
            turn, text("choice_out_of_range", turn.language, count=count), kind="deterministic"
        )
    await pendings.clear(deps, turn)
    turn.facts.apply_rule("clarification_answered")
    return Answer(current, index, current.options[index])


def matching_option(said: str, options: list[str]) -> int | None:
    """The one option the words name (equal, contained, or clearly the closest spelling), else None."""
    wanted = fold(said)
    if not wanted:
        return None
    folded = [fold(option) for option in options]
    for test in (_equal, _contained):
        hits = [i for i, option in enumerate(folded) if test(wanted, option)]
        if hits:  # several options fit: the user's own words decide, not a guess
            return hits[0] if len(hits) == 1 else None
    ratios = sorted(
        (
            (difflib.SequenceMatcher(None, wanted, option).ratio(), i)
            for i, option in enumerate(folded)
        ),
        reverse=True,
    )
    best, index = ratios[0]
    runner_up = ratios[1][0] if len(ratios) > 1 else 0.0
    return index if best >= FUZZY_RATIO and best - runner_up >= FUZZY_MARGIN else None


def _equal(wanted: str, option: str) -> bool:
    return wanted == option


def _contained(wanted: str, option: str) -> bool:
    said_words, option_words = _WORD.findall(wanted), _WORD.findall(option)
    if _has_run(option_words, said_words):
        return True
    return len(said_words) <= len(option_words) + EXTRA_WORDS and _has_run(said_words, option_words)


def _has_run(words: list[str], run: list[str]) -> bool:
    size = len(run)
    return any(words[i : i + size] == run for i in range(len(words) - size + 1))


def deliver(turn: Turn, messages: list[BaseMessage], answer: Answer) -> None:
    """Append the asking call and its result (the answer) to the request and to the turn's record."""
    call_id = answer.pending.call_id
    step = json.loads(answer.pending.step_json)
    content = json.dumps(answer_payload(answer), ensure_ascii=False)
    call = {"name": PLANNER_FUNCTION_NAME, "args": step, "id": call_id, "type": "tool_call"}
    messages.append(AIMessage(content="", tool_calls=[call]))
    messages.append(ToolMessage(content=content, tool_call_id=call_id, name=TOOL_NAME))
    record = ToolCallRecord(
        id=call_id, name=PLANNER_FUNCTION_NAME, args_json=json.dumps(step, ensure_ascii=False)
    )
    turn.messages.append(
        NewMessage(role="ai", content="", tool_calls=(record,), turn_id=turn.turn_id)
    )
    turn.messages.append(
        NewMessage(
            role="tool", content=content, tool_call_id=call_id, name=TOOL_NAME, turn_id=turn.turn_id
        )
    )


def answer_payload(answer: Answer) -> dict[str, object]:
    """What the planner is told the user answered (their words only inside a data block)."""
    if answer.index is not None:
        return {
            "status": "answered",
            "option": answer.index + 1,
            "label": data_block(one_line(answer.pending.options[answer.index], 80)),
        }
    return {
        "status": "answered",
        "option": None,
        "free_text": data_block(one_line(answer.said, 300)),
    }


def _unkeep_call(turn: Turn, call_id: str) -> None:
    """Drop the asking call from this turn's record: it is stored with its result when answered."""
    turn.messages[:] = [
        m
        for m in turn.messages
        if not (m.role == "ai" and any(call.id == call_id for call in m.tool_calls))
    ]
