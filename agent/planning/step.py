"""One planning step: ask the planner, validate its output, refuse and retry, or execute the tool.

This is DESIGN 3.1's table in code. One budget of 2 retries per step covers invalid
outputs and belief refusals alike; a pipeline violation or an item id that is not
the user's fails the turn at once; transport failures are the transport's (they do
not use this budget). Every output and every answer the runtime gives the model is
kept, in order, as native messages (`ai` with `tool_calls`, then `tool` results).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from agent.conversation import shelf as shelves
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import (
    PlannerError,
    PlannerKeyRejected,
    PlannerRejected,
    PlannerTimeout,
    QuotaExceeded,
)
from agent.memory.history import CORRECTION
from agent.planning.backend import PlanHints, PlannerBackend
from agent.planning.claims import check_model_text
from agent.planning.grounding import Grounder
from agent.planning.reading import ran_away
from agent.planning.schema import PLANNER_FUNCTION_NAME, PlannerResponse, planner_function_schema
from agent.planning.validation import (
    ECHO_LIMIT,
    PlannerCall,
    calls_of,
    control_characters,
    echo_args,
    parse,
    validate_args,
)
from agent.planning.wire import STEP_TEXT
from agent.texts import text
from agent.tools import paths
from agent.tools.base import (
    Candidates,
    Clarification,
    DeleteChoice,
    DeletePreview,
    Failed,
    Found,
    Listed,
    MarkChoice,
    Marked,
    MarkedMany,
    NotFound,
    Outcome,
    PageFetched,
    Reasoned,
    Remembered,
    Replied,
    Saved,
    SavedMany,
    SaveUnasked,
    Simulated,
    Suggested,
    Tool,
    ToolArgs,
    ToolContext,
    UnknownItem,
    Updated,
    WatchFound,
)
from agent.trust import beliefs
from agent.trust.blocks import blocks_for
from agent.trust.ledgering import append_event
from agent.trust.quotas import Quotas
from agent.types import BeliefView
from agent.understanding.questions import asks_to_save, only_asks
from agent.understanding.textnorm import data_block, one_line
from storage.documents import ToolCallRecord
from storage.messages import NewMessage

MAX_RETRIES = 2
_LATENCY_BUCKETS = ((1.0, "<1s"), (5.0, "1-5s"), (15.0, "5-15s"), (60.0, "15-60s"))
StepStatus = Literal[
    "tool",
    "respond",
    "noop",
    "failed",
    "violation",
    "blocked",
    "timeout",
    "unavailable",
    "quota",
    "key_rejected",
]


@dataclass(frozen=True, slots=True)
class StepResult:
    status: StepStatus
    response: PlannerResponse | None = None
    outcome: Outcome | None = None
    tool: str | None = None
    detail: str = ""
    call_id: str = ""  # the call a clarification's answer must answer (issue 13)
    # the model failed for a transport reason (timeout, 5xx, unreachable, key refused):
    # the offline planner may serve the turn instead (DESIGN 10.5)
    transport: bool = False
    # a runaway answer (cut, looping) that was not re-asked: code does what the message asks
    left_to_code: bool = False


def _data(text: str | None, limit: int = 300) -> str | None:
    """Outside content enters the model's view only inside a delimited data block."""
    return None if text is None else data_block(one_line(text, limit))


def unasked_save(tool: str, args: ToolArgs) -> SaveUnasked:
    """The save a message that asked for none would have run, kept to be offered."""
    values = args.model_dump(exclude_none=True)
    if tool == "save_items":
        names = [
            str(i.get("title") or i.get("content") or i.get("url") or "")
            for i in values.get("items", [])
        ]
        label = ", ".join(n for n in names if n)
    else:
        label = str(values.get("title") or values.get("content") or values.get("url") or "")
    return SaveUnasked(tool=tool, args=values, label=one_line(label, 120))


def outcome_payload(outcome: Outcome) -> dict[str, Any]:
    """What the model is told about a tool's result (ids, counts, delimited labels)."""
    from agent.conversation.replies import item_label, titled_label

    if isinstance(outcome, Saved):
        return {
            "status": "saved" if outcome.created else "already_saved",
            "item_id": outcome.item.id,
            "type": outcome.item.type,
            "label": _data(item_label(outcome.item)),
        }
    if isinstance(outcome, SaveUnasked):
        return {"status": "not_saved_asked_user", "label": _data(outcome.label)}
    if isinstance(outcome, SavedMany):  # several titles in one request (issue 26)
        return {
            "status": "saved_several",
            "items": [
                outcome_payload(o) | {"asked": _data(piece, 120)} for piece, o in outcome.results
            ],
            "left_out": outcome.left_out,
        }
    if isinstance(outcome, Candidates):
        return {
            "status": "candidates",
            "count": len(outcome.candidates),
            "options": [_data(titled_label(c.title, c.year)) for c in outcome.candidates],
        }
    if isinstance(outcome, PageFetched):
        return {
            "status": "page",
            "title": _data(outcome.title),
            "description": _data(outcome.description),
        }
    if isinstance(outcome, Found):
        return {
            "status": "found",
            "count": len(outcome.items),
            "items": [
                {"item_id": i.id, "type": i.type, "label": _data(item_label(i))}
                for i in outcome.items
            ],
        }
    if isinstance(outcome, DeletePreview):
        return {"status": "awaiting_confirmation", "label": _data(item_label(outcome.item))}
    if isinstance(outcome, DeleteChoice):
        return {
            "status": "awaiting_choice",
            "options": [_data(item_label(i)) for i in outcome.items],
        }
    if isinstance(outcome, NotFound):
        return {"status": "not_found"}
    if isinstance(outcome, UnknownItem):
        return {"status": "refused", "reason": "not one of this user's items"}
    if isinstance(outcome, Updated):
        return {"status": "updated", "item_id": outcome.item.id, "fields": list(outcome.fields)}
    if isinstance(outcome, Clarification):
        return {"status": "awaiting_answer", "options": len(outcome.options)}
    if isinstance(outcome, Remembered):
        return {"status": "noted" if outcome.created else "already_noted", "id": outcome.memory.id}
    if isinstance(outcome, Simulated):
        a = outcome.assessment
        return {
            "status": "simulated",
            "tool": a.tool,
            "count": a.count,
            "examples": [_data(item_label(i)) for i in outcome.examples],
            "ambiguous": outcome.ambiguous,
            "reversible_by_undo": a.reversible,
            "first_use": a.first_use,
            "risk": a.score,
            "decision": a.decision,
            **(outcome.estimate.to_json() if outcome.estimate else {}),
        }
    if isinstance(outcome, Replied):  # reminders and undo: the runtime's own reply was given
        return {"status": outcome.status}
    if isinstance(outcome, Listed):  # the runtime words it (agent/conversation/listing.py)
        return {
            "status": "counted" if outcome.count_only else "listed",
            "total": outcome.total,
            "by_type": dict(outcome.by_type),
            **(
                {"items": [_data(label, 80) for _, label, _ in outcome.entries[:10]]}
                if outcome.entries
                else {}
            ),
        }
    if isinstance(outcome, Reasoned):  # the note is not echoed back (agent/tools/reasoning.py)
        return {"status": "noted", "next": "plan the step"}
    if isinstance(outcome, Marked):  # DESIGN 11.5
        return {
            "status": "marked" if outcome.changed else "already_marked",
            "item_id": outcome.item.id,
            "state": outcome.item.current_state,
            "label": _data(item_label(outcome.item)),
        }
    if isinstance(outcome, MarkedMany):
        return {
            "status": "marked",
            "items": [
                {"label": _data(item_label(m.item)), "state": m.item.current_state}
                for m in outcome.marks
            ],
        }
    if isinstance(outcome, MarkChoice):
        return {
            "status": "awaiting_choice",
            "options": [_data(item_label(i)) for i in outcome.items],
        }
    if isinstance(outcome, WatchFound):
        offers = outcome.options.to_json() if outcome.options else {}
        return {
            "status": outcome.failure or ("found" if outcome.options else "nowhere"),
            "label": _data(outcome.label),
            "country": outcome.country,
            **{
                k: [_data(n, 60) for n in v] for k, v in offers.items() if isinstance(v, list) and v
            },
        }
    if isinstance(outcome, Suggested):
        return {
            "status": "suggested" if outcome.picks else (outcome.none_because or "none"),
            "items": [
                {"item_id": p.item.id, "label": _data(item_label(p.item))} for p in outcome.picks
            ],
        }
    assert isinstance(outcome, Failed)
    return {"status": "error", **outcome.failure.to_json()}


def user_text_of(response: PlannerResponse, validated: ToolArgs | None) -> list[str]:
    """What of an output the user would read: a message, or a clarification's question and options."""
    if response.action == "RESPOND":
        return [response.message or ""]
    question = (
        getattr(validated, "question", None) if response.tool == "request_clarification" else None
    )
    if isinstance(question, str):
        return [question, *(str(o) for o in getattr(validated, "options", None) or [])]
    return []


def shown_titles(outcome: Outcome) -> list[str]:
    """The titles a tool result shows (kept as they are in a reply in any language)."""
    if isinstance(outcome, Saved | Updated):
        return [outcome.item.title or ""]
    if isinstance(outcome, Candidates):
        return [c.title for c in outcome.candidates]
    if isinstance(outcome, Found):
        return [i.title or "" for i in outcome.items]
    if isinstance(outcome, PageFetched):
        return [outcome.title or ""]
    if isinstance(outcome, DeletePreview):
        return [outcome.item.title or ""]
    if isinstance(outcome, DeleteChoice):
        return [i.title or "" for i in outcome.items]
    if isinstance(outcome, Simulated):
        return [i.title or "" for i in outcome.examples]
    if isinstance(outcome, Listed):
        return [label for _, label, _ in outcome.entries]
    if isinstance(outcome, Marked):
        return [outcome.item.title or ""]
    if isinstance(outcome, MarkedMany):
        return [m.item.title or "" for m in outcome.marks]
    if isinstance(outcome, MarkChoice):
        return [i.title or "" for i in outcome.items]
    if isinstance(outcome, WatchFound):
        return [outcome.label]
    if isinstance(outcome, Suggested):
        return [p.item.title or "" for p in outcome.picks]
    return []


class PlanningSession:
    """The model-facing side of one turn: the messages so far and the steps taken."""

    def __init__(
        self,
        deps: Deps,
        turn: Turn,
        backend: PlannerBackend,
        tools: dict[str, Tool[ToolArgs]],
        messages: list[BaseMessage],
        *,
        wants_save: bool,
        llm_intent: str,
        quotas: Quotas,
        consented: bool = False,
    ) -> None:
        self.deps = deps
        self.turn = turn
        self.backend = backend
        self.tools = tools
        self.messages = messages
        self.wants_save = wants_save
        self.llm_intent = llm_intent
        self.quotas = quotas
        # a save runs only where the message asked for one, or the user answered a question
        # the planner asked (`consented`); elsewhere it is offered, never done (issue 41)
        # ("... Past Lives and Aftersun. save the first one": the request is its own sentence)
        self.may_save = wants_save or consented or asks_to_save(turn.incoming.text or "")
        self.function = planner_function_schema()
        self.refused_or_retried = False
        self.unresolved = False
        self.grounder = Grounder(
            deps, turn.incoming.text or "", turn.language, messages, user_id=turn.user_id
        )
        self.shown: list[str] = []  # titles this turn's tool results showed (DESIGN 10.2)
        self.allowed_now: frozenset[str] | None = None
        # what the model may name: the tools that can do their job with the services
        # configured (paths.runnable). On a save a lookup saves as written without TMDB, and
        # the offline rules are code that falls back itself: both keep every tool.
        self.runnable = (
            paths.runnable(tools.values(), deps.unconfigured)
            if backend.calls_model and not wants_save
            else None
        )

    # -- the step ---------------------------------------------------------------------------

    async def step(
        self, *, allowed: frozenset[str], index: int, phrasing: bool = False, retry: bool = True
    ) -> StepResult:
        """Plan one step. `phrasing`: the step only phrases results already read, so running
        out of retries raises no block (the runtime phrases them itself). `retry=False`: an
        answer cut at the cap or looping is not sent back (code does what the message asks
        without it, and a re-ask would cost a whole cap again)."""
        # a constrained output names only these (PlanHints)
        self.allowed_now = allowed if self.runnable is None else allowed & self.runnable
        belief_step = beliefs.BeliefStep()
        retries_left = MAX_RETRIES
        left_to_code = False  # a runaway answer not re-asked: code does what it asks
        first_attempt = True
        while True:
            confidence_now = beliefs.answer_confidence(
                self.turn.facts,
                refused_or_retried=self.refused_or_retried,
                unresolved=self.unresolved,
            )
            try:
                answer = await self._call(confidence_now, index)
            except PlannerTimeout as exc:
                self.turn.llm_calls += exc.attempts
                return StepResult("timeout", detail=str(exc), transport=True)
            except PlannerKeyRejected as exc:  # the operator's to fix: never "try again"
                self.turn.llm_calls += exc.attempts
                return StepResult("key_rejected", detail=str(exc), transport=True)
            except PlannerError as exc:
                self.turn.llm_calls += exc.attempts
                # a request the server refused (HTTP 400) is ours to fix, not an outage
                transport = not isinstance(exc, PlannerRejected)
                return StepResult("unavailable", detail=str(exc), transport=transport)
            except QuotaExceeded as exc:
                return StepResult("quota", detail=exc.scope)
            calls = calls_of(answer)
            self._keep_ai(answer, calls)
            if not retry and isinstance(answer.message, AIMessage) and ran_away(answer.message):
                retries_left, left_to_code = 0, True
            response, problem = parse(answer, calls)
            # the offline rules echo the program's own confidence: nothing to calibrate
            if response is not None and first_attempt and self.backend.calls_model:
                await beliefs.record_calibration(
                    self.deps, response.belief.guessed, await self._real(response, confidence_now)
                )
            first_attempt = False
            if (
                response is not None
                and response.action == "CALL_TOOL"
                and response.tool not in allowed
            ):
                return await self._violation(calls[0], response)
            validated: ToolArgs | None = None
            if problem is None and response is not None:
                problem = control_characters(response)
            if problem is None and response is not None and response.action == "CALL_TOOL":
                problem = self._unrunnable(str(response.tool))
            if problem is None and response is not None and response.action == "CALL_TOOL":
                # an item's handle on the shelf (the situation shows 8 of its 32 digits)
                # is that item's id: the tool gets the full one
                args = shelves.expand_ids(response.args or {}, shelves.shelf_ids(self.turn))
                args = self._named_item(self.tools[str(response.tool)], args)
                checked = validate_args(self.tools[str(response.tool)], args, self._other_fields)
                if isinstance(checked, str):
                    problem = checked
                else:
                    validated, coerced = checked
                    if coerced and self.turn.facts.mapping == "exact":
                        self.turn.facts.mapping = "coerced"
                        self.turn.facts.apply_rule("argument_coerced")
            if problem is None and validated is not None and response is not None:
                # DESIGN 9.6: facts come from sources; ungrounded optional ones are dropped here.
                grounding = await self.grounder.check(str(response.tool), validated)
                problem, validated = grounding.problem, grounding.args
            if problem is None and validated is not None and response is not None:
                check = self.tools[str(response.tool)].check  # e.g. a reminder's time (DESIGN 11.1)
                if check is not None:
                    context = ToolContext(self.deps, self.turn, self.wants_save)
                    problem = check(context, validated)
            if (
                problem is None
                and response is not None
                and response.action == "CALL_TOOL"
                and self.tools[str(response.tool)].writes
                and only_asks(self.grounder.user_text)
            ):
                # a question that asks for no act changes nothing (the 1.5B model marked a
                # title seen on "e round 6 ainda tá faltando?"): answer it or ask
                problem = (
                    "the user asked a question and asked for no change: answer it with a "
                    "read tool or RESPOND, or ask with request_clarification; change nothing"
                )
            verdict: beliefs.BeliefVerdict | None = None
            if problem is None and response is not None:
                # Only an otherwise valid output reaches the belief contract; its delta is
                # stored only once the text checks below pass too.
                verdict = await beliefs.judge(
                    self.deps, self.turn, response, belief_step, confidence_now=confidence_now
                )
                if not verdict.accepted:
                    problem = verdict.reason
                    self.deps.metrics.planner_outputs.labels("belief_refused").inc()
                else:
                    # DESIGN 11.2: model text says no effect happened or will, and what it
                    # says of the list is true; an accepted delta is the one note it may claim
                    problem = await check_model_text(
                        self.deps,
                        self.turn,
                        user_text_of(response, validated),
                        pending=("belief_updated",) if beliefs.carries_delta(response) else (),
                        shown=self.shown,
                        answer=response.action == "RESPOND",
                    )
                    if problem is not None:
                        self.deps.metrics.planner_outputs.labels("invalid").inc()
            elif problem is not None:
                self.deps.metrics.planner_outputs.labels("invalid").inc()
            if problem is not None:
                self._refuse(calls, problem)
                self.refused_or_retried = True
                if not left_to_code:  # no second attempt: no caveat saying there was one
                    self.turn.facts.add_warning(text("caveat_planner_retry", self.turn.language))
                if retries_left == 0:
                    self.deps.metrics.planner_steps.labels("failed").inc()
                    blocks = blocks_for(
                        problem, calls[0].args if calls else None, self.turn.user_id
                    )
                    for reason in () if phrasing or left_to_code else blocks:
                        self.turn.facts.block(reason)
                    return StepResult("failed", detail=problem, left_to_code=left_to_code)
                retries_left -= 1
                continue
            assert response is not None
            assert verdict is not None
            verdict = await beliefs.apply(self.deps, self.turn, response, verdict)
            self.deps.metrics.planner_outputs.labels("accepted").inc()
            self.deps.metrics.planner_steps.labels(
                "recovered" if self.refused_or_retried else "first_try"
            ).inc()
            self.turn.belief = BeliefView(
                response.belief.key, response.belief.guessed, verdict.delta_applied
            )
            call = calls[0]
            if response.action != "CALL_TOOL":
                self._answer(
                    call,
                    {"status": "delivered" if response.action == "RESPOND" else "nothing_done"},
                )
                return StepResult(
                    "respond" if response.action == "RESPOND" else "noop", response=response
                )
            tool = self.tools[str(response.tool)]
            assert validated is not None
            for rule in self.grounder.settle(tool.name):
                self.turn.facts.apply_rule(rule)
            if tool.does == "save" and not self.may_save:
                outcome: Outcome = unasked_save(tool.name, validated)
                self.turn.facts.apply_rule("save_offered_not_done")
                self._answer(call, outcome_payload(outcome), name=tool.name)
                return StepResult("tool", response=response, outcome=outcome, tool=tool.name)
            outcome = await tool.run(ToolContext(self.deps, self.turn, self.wants_save), validated)
            if not isinstance(
                outcome, Failed | UnknownItem | DeletePreview | DeleteChoice | MarkChoice
            ):
                self.turn.tools_executed.append(tool.name)
            if isinstance(outcome, Clarification):  # answered when the user answers (issue 13)
                return StepResult("tool", response, outcome, tool.name, call_id=call.id)
            self._answer(call, outcome_payload(outcome), name=tool.name)
            self.shown.extend(shown_titles(outcome))
            if isinstance(outcome, Candidates) and len(outcome.candidates) > 1:
                self.unresolved = True
            if isinstance(outcome, UnknownItem):
                self.turn.facts.block("unknown_item")
                return StepResult("blocked", response=response, outcome=outcome, tool=tool.name)
            return StepResult("tool", response=response, outcome=outcome, tool=tool.name)

    # -- pieces -------------------------------------------------------------------------------

    async def _call(self, confidence_now: float, index: int) -> Any:
        tools = [self.function]
        counted = self.backend.count_prompt(self.messages, tools=tools)
        if self.backend.calls_model:
            await self.quotas.reserve(self.turn, counted)
        hints = PlanHints(
            self.turn.incoming.text or "",
            self.llm_intent,
            confidence_now,
            index,
            allowed=self.allowed_now,
            handles=tuple(sorted(shelves.handle(i) for i in shelves.shelf_ids(self.turn))),
        )
        try:
            answer = await self.backend.complete(self.messages, tools=tools, hints=hints)
        except PlannerError as exc:
            if self.backend.calls_model:
                # no answer came back: the reservation is returned (a timeout keeps its prompt)
                charged = counted if isinstance(exc, PlannerTimeout) else 0
                await self.quotas.release(self.turn, reserved=counted, charged=charged)
                self.deps.metrics.observe_outbound("model", type(exc).__name__, 0.0)
            raise
        self.turn.llm_calls += answer.attempts
        if self.backend.calls_model:
            self.turn.prompt_tokens.append(counted)
            await self.quotas.settle(
                self.turn,
                reserved=counted,
                used=answer.prompt_tokens + answer.completion_tokens,
                cached=answer.cached_tokens,
            )
            self.deps.metrics.model_latency.observe(answer.latency_s)
            self.deps.metrics.observe_outbound("model", "200", answer.latency_s)
            self.deps.metrics.tokens.labels("prompt").inc(answer.prompt_tokens)
            self.deps.metrics.tokens.labels("completion").inc(answer.completion_tokens)
            self.deps.metrics.tokens.labels("cached").inc(answer.cached_tokens)
            self.turn.cached_tokens.append(answer.cached_tokens)
            self.quotas.count_request(self.quotas.day(self.turn), self.backend.name, answer)
            await append_event(
                self.deps, self.turn, "model_usage", usage_payload(self.deps, answer)
            )
            if answer.content_form is not None:
                self.deps.metrics.content_calls.labels(answer.content_form).inc()
        return answer

    async def _real(self, response: PlannerResponse, confidence_now: float) -> float:
        if not beliefs.valid_key(response.belief.key):
            return confidence_now
        return await beliefs.real_value(self.deps, self.turn, response.belief.key, confidence_now)

    @property
    def _other_fields(self) -> frozenset[str]:
        """Every argument name some tool takes (what a crossed-over union can carry)."""
        return frozenset(f for t in self.tools.values() for f in t.args_model.model_fields)

    def _keep_ai(self, answer: Any, calls: Sequence[PlannerCall]) -> None:
        content = (
            answer.message.content
            if isinstance(answer.message.content, str)
            else json.dumps(answer.message.content)
        )[:ECHO_LIMIT]
        echoed = [echo_args(c.args) for c in calls]
        records = tuple(
            ToolCallRecord(id=c.id, name=c.name[:64], args_json=json.dumps(a, ensure_ascii=False))
            for c, a in zip(calls, echoed, strict=True)
        )
        written = answer.message.additional_kwargs.get(STEP_TEXT)
        # kept only whole: a cut text is not what the model wrote (a step is capped far below)
        step_text = written if isinstance(written, str) and 0 < len(written) <= ECHO_LIMIT else None
        self.messages.append(
            AIMessage(
                content=content,
                tool_calls=[
                    {"name": r.name, "args": a, "id": r.id, "type": "tool_call"}
                    for r, a in zip(records, echoed, strict=True)
                ],
                additional_kwargs={STEP_TEXT: step_text} if step_text else {},
            )
        )
        self.turn.messages.append(
            NewMessage(
                role="ai",
                content=content,
                tool_calls=records,
                turn_id=self.turn.turn_id,
                step_text=step_text,
            )
        )

    def _refuse(self, calls: Sequence[PlannerCall], problem: str) -> None:
        if calls:
            for call in calls:
                self._answer(call, {"status": "refused", "error": problem})
        else:
            note = f"error: {problem}"
            self.messages.append(HumanMessage(content=note))
            self.turn.messages.append(
                NewMessage(role="system", content=note, name=CORRECTION, turn_id=self.turn.turn_id)
            )

    def _answer(
        self, call: PlannerCall, payload: dict[str, Any], *, name: str = PLANNER_FUNCTION_NAME
    ) -> None:
        # compact: a tool result is read again from the history on every later turn
        content = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        self.messages.append(ToolMessage(content=content, tool_call_id=call.id, name=name))
        self.turn.messages.append(
            NewMessage(
                role="tool",
                content=content,
                tool_call_id=call.id,
                name=name,
                turn_id=self.turn.turn_id,
            )
        )

    def _named_item(self, tool: Tool[ToolArgs], args: dict[str, Any]) -> dict[str, Any]:
        """A one-item tool called with neither `item_id` nor `query` ("and coco too" ->
        mark_item with no item): the item is the one line of the shelf the user's message
        names by its whole title, when exactly one does; otherwise the step is refused and
        re-asked as before. A small model drops the reference more often than it errs in it."""
        fields = tool.args_model.model_fields
        if "item_id" not in fields or "query" not in fields:
            return args
        if args.get("item_id") is not None or args.get("query") is not None:
            return args
        named = shelves.named_on_shelf(self.turn, self.turn.incoming.text or "")
        return args if named is None else {**args, "item_id": named}

    def _unrunnable(self, name: str) -> str | None:
        """Invalid output when the tool needs a service that is not configured (a server that
        does not enforce the schema let the model name it): what to call instead."""
        if self.runnable is None or name in self.runnable:
            return None
        return (
            f"{name} cannot run: {self.tools[name].needs} is not configured. Save a title as "
            "the user wrote it (save_movie, save_tv_show), find their items (search_items), "
            "correct one (update_item)"
        )

    async def _violation(self, call: PlannerCall, response: PlannerResponse) -> StepResult:
        """delete_all_memories (or any tool not allowed on this path): FAIL now, on the record."""
        self.deps.metrics.planner_outputs.labels("violation").inc()
        self._answer(
            call,
            {"status": "refused", "error": "pipeline violation: this tool is not allowed here"},
        )
        self.turn.facts.block("pipeline_violation")
        await append_event(
            self.deps,
            self.turn,
            "pipeline_violation",
            {"tool": str(response.tool), "reason": "tool_not_allowed"},
        )
        return StepResult("violation", response=response, tool=response.tool)


def usage_payload(deps: Deps, answer: Any) -> dict[str, Any]:
    """The `model_usage` ledger payload (DESIGN 9.5): tokens, cached tokens, model, latency bucket."""
    latency = answer.latency_s
    bucket = next((name for limit, name in _LATENCY_BUCKETS if latency < limit), "60s+")
    return {
        "model": deps.settings.llm_model,
        "prompt_tokens": answer.prompt_tokens,
        "completion_tokens": answer.completion_tokens,
        "cached_tokens": answer.cached_tokens,
        "latency": bucket,
    }
