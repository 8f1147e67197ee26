"""Where planner outputs come from: the model (over ModelTransport) or the offline rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from langchain_core.messages import BaseMessage

from agent.planning.answer import ModelAnswer
from agent.planning.structured import first_step_tools, unstated_facts
from agent.tools import paths

if TYPE_CHECKING:  # the transport loads the OpenAI client: only processes with a model do
    from agent.planning.transport import ModelTransport
    from agent.tools.base import Tool, ToolArgs


@dataclass(frozen=True, slots=True)
class PlanHints:
    """What the offline rules need (a model reads the same from the messages)."""

    text: str
    llm_intent: str
    confidence_now: float
    step: int
    allowed: frozenset[str] | None = None  # the tools this path allows (None: every one)
    handles: tuple[str, ...] = ()  # the items the situation showed, by handle


class PlannerBackend(Protocol):
    name: str
    calls_model: bool

    def count_prompt(
        self, messages: Sequence[BaseMessage], *, tools: Sequence[Mapping[str, Any]]
    ) -> int: ...

    async def complete(
        self,
        messages: Sequence[BaseMessage],
        *,
        tools: Sequence[Mapping[str, Any]],
        hints: PlanHints,
    ) -> ModelAnswer: ...


class ModelBackend:
    """The configured OpenAI-compatible model."""

    calls_model = True

    def __init__(self, transport: ModelTransport, tools: Sequence[Tool[ToolArgs]]) -> None:
        self._transport = transport
        self.name = transport.model
        self._tools = tuple(tools)  # what each does decides a first step's cut (paths.py)
        self._facts = paths.facts(self._tools)

    def count_prompt(
        self, messages: Sequence[BaseMessage], *, tools: Sequence[Mapping[str, Any]]
    ) -> int:
        return self._transport.count_prompt(messages, tools=tools)

    async def complete(
        self,
        messages: Sequence[BaseMessage],
        *,
        tools: Sequence[Mapping[str, Any]],
        hints: PlanHints,
    ) -> ModelAnswer:
        # a first step plans (short); a later one phrases an answer and may need more
        first = hints.step == 0
        cap = self._transport.planner_max_tokens if first else None
        only = first_step_tools(hints.llm_intent, hints.text, self._tools) if first else None
        if first and hints.allowed is not None:  # never offer what the path refuses (issue 26)
            only = hints.allowed if only is None else only & hints.allowed
        unstated = unstated_facts(hints.text) if first else frozenset()
        return await self._transport.complete(
            messages,
            tools=tools,
            max_tokens=cap,
            only=only,
            unstated=unstated,
            facts=self._facts,
            handles=hints.handles if first else None,
        )
