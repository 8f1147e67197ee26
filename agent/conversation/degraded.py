"""Degraded mode (DESIGN 10.5): the model failed for a transport reason, the offline planner serves.

A timeout after the retries, a 5xx or a refused connection, an exhausted key (429 to
the end of the retries) or a key the server refuses (401/403): the turn is planned
again by the offline rules, which read the message alone. What they can do (explicit
saves, notes, links, lists, finds, deletes with their confirmation) is done, and the
reply says in one line that it ran in simple mode and why. What they cannot do gets
the model failure's own answer, as before.

A refused key is an operator's error, not an outage, but the user's explicit save
should not be lost to it either: it is served the same way, and the line (and the
`model_key_rejected` warning in the log) says the key must be fixed, never "try again".
A request the server refused as malformed (HTTP 400) is not a transport failure and
gets no fallback.
"""

from __future__ import annotations

from dataclasses import replace

from langchain_core.messages import HumanMessage

from agent.conversation import outcomes, retyping
from agent.conversation import pending as pendings
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.offline import OfflineBackend
from agent.planning.step import PlanningSession, StepResult
from agent.texts import text
from agent.tools.base import Tool, ToolArgs
from agent.trust.quotas import Quotas
from agent.types import Reply

# What the offline rules did that counts as serving the turn; a NOOP (nothing they can do)
# gets the model failure's answer instead of the offline offer to keep the message.
SERVED = frozenset({"tool", "blocked", "failed", "violation"})


async def fall_back(
    deps: Deps,
    turn: Turn,
    failed: StepResult,
    *,
    llm_intent: str,
    tools: dict[str, Tool[ToolArgs]],
    quotas: Quotas,
    allowed: frozenset[str],
) -> Reply:
    """Serve the turn with the offline planner after `failed`, or give `failed`'s answer."""
    reason = failed.status  # timeout, unavailable or key_rejected
    wants_save = llm_intent == "save"
    session = PlanningSession(
        deps,
        turn,
        OfflineBackend(),
        tools,
        [HumanMessage(content=turn.messages[0].content)],
        wants_save=wants_save,
        llm_intent=llm_intent,
        quotas=quotas,
    )
    result = await session.step(allowed=allowed, index=0)
    served = result.status in SERVED
    turn.fallback = "served" if served else "unserved"
    deps.metrics.model_fallbacks.labels(reason, turn.fallback).inc()
    if not served:
        await pendings.settle_open(deps, turn, status=failed.status, outcome=None)
        return await outcomes.after_step(deps, turn, failed, wants_save, offline=False)
    await pendings.settle_open(deps, turn, status=result.status, outcome=result.outcome)
    turn.facts.apply_rule(f"model_fallback:{reason}")
    turn.facts.degrade_pipeline()  # planned by the simpler rules: never a full score
    reply = retyping.announce_guess(
        turn, result, await outcomes.after_step(deps, turn, result, wants_save, offline=True)
    )
    return replace(reply, text=f"{reply.text}\n{text(f'degraded_{reason}', turn.language)}")
