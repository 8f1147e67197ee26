"""Daily token quotas (DESIGN 3.9): reserve before each model call, settle after it.

A reservation is the prompt plus the longest answer the call may get
(`LLM_MAX_TOKENS`), so what a call really uses never takes the day past its limit;
settling replaces the reservation by the real use. Reservations are single
conditional updates on the `usage` day documents (the condition `tokens + n <=
limit` is in the filter), so concurrent turns cannot overspend. The day is the
user's local day, so quotas reset at their midnight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from langchain_core.messages import BaseMessage

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import PlannerError, PlannerTimeout, QuotaExceeded
from agent.planning.answer import ModelAnswer
from agent.trust.budgets import prompt_budget
from agent.trust.ledgering import append_event
from storage.documents import UserDoc
from storage.usage import GLOBAL

if TYPE_CHECKING:  # importing the transport loads the OpenAI client
    from agent.planning.transport import ModelTransport


class Quotas:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def day(self, turn: Turn) -> str:
        """The user's local calendar day (YYYY-MM-DD)."""
        return self.user_day(turn.user)

    def user_day(self, user: UserDoc) -> str:
        try:
            zone = ZoneInfo(user.timezone)
        except (ValueError, KeyError):
            zone = ZoneInfo(self.deps.settings.default_timezone)
        return self.deps.clock.now().astimezone(zone).date().isoformat()

    def user_limit(self, turn: Turn) -> int:
        return self.limit_of(turn.user)

    def limit_of(self, user: UserDoc) -> int:
        if user.daily_token_quota is not None:
            return user.daily_token_quota
        settings = self.deps.settings
        return (
            settings.admin_daily_token_quota
            if self.deps.is_admin(user.id)
            else settings.user_daily_token_quota
        )

    def answer_allowance(self) -> int:
        """Tokens held for the answer on top of the prompt: the most one call may generate."""
        return self.deps.settings.llm_max_tokens

    async def reserve(self, turn: Turn, prompt_tokens: int) -> None:
        """Reserve a call of `prompt_tokens` for the user and globally, or raise QuotaExceeded
        (nothing reserved)."""
        usage, day = self.deps.db.usage, self.day(turn)
        tokens = prompt_tokens + self.answer_allowance()
        scope: str | None = None
        if not await usage.reserve(turn.user_id, day, tokens, self.user_limit(turn)):
            scope = "user"
        elif not await usage.reserve(
            GLOBAL, day, tokens, self.deps.settings.global_daily_token_cap
        ):
            await usage.add_tokens(turn.user_id, day, -tokens)
            scope = "global"
        if scope is None:
            return
        self.deps.metrics.quota_exceeded.labels(scope).inc()
        await append_event(
            self.deps, turn, "quota_exceeded", {"scope": scope, "day": day, "requested": tokens}
        )
        raise QuotaExceeded(scope)  # type: ignore[arg-type]

    async def settle(self, turn: Turn, *, reserved: int, used: int, cached: int = 0) -> None:
        """Replace the reservation of a `reserved`-token prompt by what the call really used,
        and count the call (and the prompt tokens the server had cached)."""
        usage, day = self.deps.db.usage, self.day(turn)
        delta = used - (reserved + self.answer_allowance())
        counters: dict[str, int | float] = {"tokens": delta, "model_calls": 1}
        if cached:
            counters["cached_tokens"] = cached
        # the reservation made both day documents exist: plain $inc updates, one each
        await usage.increment(turn.user_id, day, counters)
        if delta:
            await usage.increment(GLOBAL, day, {"tokens": delta})

    def count_request(self, day: str, model: str, answer: ModelAnswer) -> None:
        """What one model request cost the server, by model (`/metrics`, `lembra stats`; issue 28).

        Evaluated prompt tokens are the prompt less what the server served from its cache
        (a server that reports no cached tokens, like Ollama, counts its whole prompt).
        """
        self.deps.metrics.observe_model_request(
            model,
            prompt=answer.prompt_tokens,
            cached=answer.cached_tokens,
            generated=answer.completion_tokens,
        )
        counters: dict[str, int | float] = {
            "requests": 1,
            "prompt_tokens": answer.prompt_tokens,
            "cached_tokens": min(answer.cached_tokens, answer.prompt_tokens),
            "completion_tokens": answer.completion_tokens,
        }
        # summed in memory and written in one batch, like a turn's counters
        self.deps.tally.add(model_subject(model), day, counters, now_ms=self.deps.clock.ms())

    async def release(self, turn: Turn, *, reserved: int, charged: int = 0) -> None:
        """Return the reservation of a call that got no answer, keeping `charged` tokens of it.

        A refused or failed request (HTTP 4xx/5xx, no connection) is not billed, so it
        costs nothing; a timed-out one may have been processed, so its prompt is kept.
        """
        usage, day = self.deps.db.usage, self.day(turn)
        delta = charged - (reserved + self.answer_allowance())
        if delta:
            await usage.add_tokens(turn.user_id, day, delta)
            await usage.add_tokens(GLOBAL, day, delta)

    async def background_complete(
        self,
        user: UserDoc,
        messages: Sequence[BaseMessage],
        *,
        tools: Sequence[Mapping[str, Any]],
        model: ModelTransport | None = None,
    ) -> ModelAnswer | None:
        """A background model call (a handover, an archive summary) billed to `user`.

        `model` is another transport for this call (the dreamer); the planner's by default.

        Reserved and settled like a turn's call, so it counts in the user's and the
        global day; None when no model is configured, the day is spent, or the call
        failed (the caller keeps its deterministic text and tries again later).
        """
        model = model or self.deps.model
        if model is None:
            return None
        usage, day = self.deps.db.usage, self.user_day(user)
        counted = model.count_prompt(messages, tools=tools)
        if counted > prompt_budget(self.deps.settings, "background"):
            # over the background budget: not sent; the caller keeps its deterministic text
            self.deps.metrics.sections_compressed.labels("background_over_budget").inc()
            return None
        held = counted + self.answer_allowance()
        if not await usage.reserve(user.id, day, held, self.limit_of(user)):
            return None
        if not await usage.reserve(GLOBAL, day, held, self.deps.settings.global_daily_token_cap):
            await usage.add_tokens(user.id, day, -held)
            return None
        try:
            answer = await model.complete(messages, tools=tools)
        except PlannerError as exc:
            kept = counted if isinstance(exc, PlannerTimeout) else 0
            await usage.add_tokens(user.id, day, kept - held)
            await usage.add_tokens(GLOBAL, day, kept - held)
            return None
        payload = self._usage_payload(answer, "background")
        await append_event(self.deps, None, "model_usage", payload, stream=user.id)
        self.count_request(day, model.model, answer)
        delta = answer.prompt_tokens + answer.completion_tokens - held
        # also kept apart as background use, so /end and stats can tell it from chat turns
        used = answer.prompt_tokens + answer.completion_tokens
        await usage.increment(
            user.id,
            day,
            {"tokens": delta, "model_calls": 1, "background_calls": 1, "background_tokens": used},
        )
        if delta:
            await usage.increment(GLOBAL, day, {"tokens": delta})
        self.deps.metrics.tokens.labels("prompt").inc(answer.prompt_tokens)
        self.deps.metrics.tokens.labels("completion").inc(answer.completion_tokens)
        return answer

    def _usage_payload(self, answer: ModelAnswer, kind: str) -> dict[str, Any]:
        """The content-free `model_usage` event of one call (DESIGN 9.5)."""
        return {
            "kind": kind,
            "model": self.deps.settings.llm_model,
            "prompt_tokens": answer.prompt_tokens,
            "cached_tokens": answer.cached_tokens,
            "completion_tokens": answer.completion_tokens,
            "latency": latency_bucket(answer.latency_s),
        }


MODEL_SUBJECT = "model:"  # usage documents `model:<name>:<day>`: what each model's requests cost


def model_subject(model: str) -> str:
    """The usage subject of a model's daily request counters."""
    return MODEL_SUBJECT + model


# the buckets of a turn's model_usage (planning/step.py), so both kinds of call add up alike
_LATENCY_BUCKETS = ((1.0, "<1s"), (5.0, "1-5s"), (15.0, "5-15s"), (60.0, "15-60s"))


def latency_bucket(seconds: float) -> str:
    """The latency bucket a model call's duration falls in."""
    return next((name for bound, name in _LATENCY_BUCKETS if seconds < bound), "60s+")
