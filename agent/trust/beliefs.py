"""Beliefs (DESIGN 3.5, seed 000): named values in [0, 1] the model must guess before acting.

`check` implements the pseudo-code of DESIGN 3.5 literally, one planning step at a
time; a refusal executes nothing and uses the step's retry budget.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.schema import PlannerResponse
from agent.trust.confidence import AMBIGUITY_POINTS, MAPPING_POINTS, RULES_POINTS, TurnFacts
from agent.trust.ledgering import append_event, digest

ANSWER_CONFIDENCE = "answer.confidence"
READ_ONLY = frozenset({ANSWER_CONFIDENCE})
PREF_KEY = re.compile(r"^pref\.[a-z0-9_.-]{1,60}$")
NEW_PREF_VALUE = 0.5
TOLERANCE = 1e-9
CALIBRATION = "calibration"  # usage documents `calibration:<model>`


def answer_confidence(facts: TurnFacts, *, refused_or_retried: bool, unresolved: bool) -> float:
    """The real value of `answer.confidence` at a model call: the turn's score so far / 100."""
    pipeline = 40 if not refused_or_retried and facts.pipeline == "complete" else 25
    ambiguity = 0 if unresolved else AMBIGUITY_POINTS["none"]
    return (pipeline + ambiguity + RULES_POINTS["all"] + MAPPING_POINTS["exact"]) / 100


def valid_key(key: str) -> bool:
    return key == ANSWER_CONFIDENCE or bool(PREF_KEY.match(key))


@dataclass(slots=True)
class BeliefStep:
    """What the belief check remembers within one planning step."""

    asked_adjustment: bool = False
    first_refused: tuple[str, str, str, str] | None = None


@dataclass(frozen=True, slots=True)
class BeliefVerdict:
    accepted: bool
    reason: str = ""
    real: float = 0.0
    delta_applied: float = 0.0
    # an accepted delta not stored yet (`judge` leaves it to `apply`)
    store: float | None = None


_WHITESPACE = re.compile(r"\s+")


def _trimmed(value: Any) -> Any:
    """Every string in `value` with its whitespace trimmed and runs of it made one space."""
    if isinstance(value, str):
        return _WHITESPACE.sub(" ", value).strip()
    if isinstance(value, dict):
        return {k: _trimmed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_trimmed(v) for v in value]
    return value


def step_signature(response: PlannerResponse) -> tuple[str, str, str, str]:
    """The parts of an output that a resend must keep (compared after trimming whitespace,
    inside arguments too: "comprar  leite " resends "comprar leite")."""
    args = (
        json.dumps(_trimmed(response.args), sort_keys=True, ensure_ascii=False)
        if response.args is not None
        else ""
    )
    return (response.action, response.tool or "", args, _trimmed(response.message or ""))


async def real_value(deps: Deps, turn: Turn, key: str, confidence_now: float) -> float:
    if key == ANSWER_CONFIDENCE:
        return confidence_now
    stored = await deps.db.beliefs.get(turn.user_id, key)
    return NEW_PREF_VALUE if stored is None else stored


async def check(
    deps: Deps,
    turn: Turn,
    response: PlannerResponse,
    step: BeliefStep,
    *,
    confidence_now: float,
) -> BeliefVerdict:
    """Accept or refuse one planner output under the belief contract; apply an accepted delta."""
    verdict = await judge(deps, turn, response, step, confidence_now=confidence_now)
    return await apply(deps, turn, response, verdict)


def carries_delta(response: PlannerResponse) -> bool:
    """Whether the output asks to move a writable belief (its acceptance stores it)."""
    return response.belief.delta != 0 and response.belief.key not in READ_ONLY


async def judge(
    deps: Deps,
    turn: Turn,
    response: PlannerResponse,
    step: BeliefStep,
    *,
    confidence_now: float,
) -> BeliefVerdict:
    """The contract's verdict on one output, storing nothing (`apply` stores an accepted delta)."""
    belief = response.belief
    key, guessed, delta = belief.key, belief.guessed, belief.delta
    margin = deps.settings.belief_margin
    if not valid_key(key):
        return BeliefVerdict(
            False, f"unknown belief key {key!r}: use {ANSWER_CONFIDENCE} or pref.<slug>"
        )
    real = await real_value(deps, turn, key, confidence_now)
    if delta != 0 and not step.asked_adjustment:
        return BeliefVerdict(False, "delta must be 0 until the system asks for an adjustment", real)
    if abs(guessed - real) > margin + TOLERANCE:
        step.asked_adjustment = True
        if step.first_refused is None:
            step.first_refused = step_signature(response)
        return BeliefVerdict(
            False,
            f"{key} is {real:.2f}; your guess {guessed:.2f} is outside ±{margin}. "
            f"Resend the same step with guessed={real:.2f} and, if you meant to move it, "
            f"delta = your target - {real:.2f}",
            real,
        )
    if step.first_refused is not None and step_signature(response) != step.first_refused:
        return BeliefVerdict(False, "resend the same step", real)
    if delta != 0:
        if key in READ_ONLY:
            return BeliefVerdict(False, f"{key} is read-only", real)
        return BeliefVerdict(True, real=real, store=min(1.0, max(0.0, real + delta)))
    return BeliefVerdict(True, real=real)


async def apply(
    deps: Deps, turn: Turn, response: PlannerResponse, verdict: BeliefVerdict
) -> BeliefVerdict:
    """Store the delta of an accepted verdict (ledger `belief_updated`); refusals pass through."""
    if not verdict.accepted or verdict.store is None:
        return verdict
    belief, real, after = response.belief, verdict.real, verdict.store
    await deps.db.beliefs.set(turn.user_id, belief.key, after, now_ms=turn.now_ms)
    await append_event(
        deps,
        turn,
        "belief_updated",
        {
            "key_sha256": digest(belief.key),
            "before": real,
            "after": after,
            "guessed": belief.guessed,
            "delta": belief.delta,
        },
    )
    return BeliefVerdict(True, real=real, delta_applied=after - real)


async def record_calibration(deps: Deps, guessed: float, real: float) -> None:
    """Calibration over first attempts, per model: mean |guessed - real| and share within the margin."""
    error = abs(guessed - real)
    within = 1 if error <= deps.settings.belief_margin + TOLERANCE else 0
    deps.metrics.calibration_error.observe(error)
    await deps.db.usage.increment_doc(
        f"{CALIBRATION}:{deps.model_name}", {"n": 1, "abs_error_sum": error, "within": within}
    )
