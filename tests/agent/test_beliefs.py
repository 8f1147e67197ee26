"""The belief contract (DESIGN 3.5), row by row, against a real database and ledger."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from agent.assembly import open_deps
from agent.clock import FakeClock
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.schema import PlannerResponse
from agent.trust import beliefs
from agent.trust.beliefs import BeliefStep, BeliefVerdict
from agent.trust.confidence import TurnFacts
from agent.trust.ledgering import digest
from agent.types import Incoming
from config.settings import load_settings
from storage import Database

USER = "cli:alice"
CONFIDENCE = "answer.confidence"


@dataclass
class World:
    deps: Deps
    turn: Turn

    async def check(
        self, response: PlannerResponse, step: BeliefStep, *, confidence_now: float = 1.0
    ) -> BeliefVerdict:
        return await beliefs.check(
            self.deps, self.turn, response, step, confidence_now=confidence_now
        )

    async def stored(self, key: str) -> float | None:
        return await self.deps.db.beliefs.get(USER, key)

    async def events(self) -> list[tuple[str, dict[str, Any]]]:
        return [(e.type, e.payload) for e in await self.deps.db.ledger.events(USER)]


@asynccontextmanager
async def open_world(db: Database, **settings: Any) -> AsyncIterator[World]:
    clock = FakeClock(datetime(2026, 1, 5, 13, 0, tzinfo=UTC))
    config = load_settings(_env_file=None, **settings)
    async with open_deps(config, db=db, clock=clock) as deps:
        user = await db.users.ensure(
            USER, language="pt", timezone="America/Sao_Paulo", now_ms=clock.ms()
        )
        incoming = Incoming(channel="console", chat_id="alice", user_id=USER, text="x")
        yield World(deps, Turn(incoming=incoming, user=user, language="pt", now_ms=clock.ms()))


@pytest.fixture
async def world(db: Database) -> AsyncIterator[World]:
    async with open_world(db, belief_margin=0.15) as built:
        yield built


def plan(
    key: str = CONFIDENCE,
    guessed: float = 1.0,
    delta: float = 0.0,
    *,
    content: str = "comprar leite",
    action: str = "CALL_TOOL",
    tool: str | None = "save_note",
    message: str | None = None,
) -> PlannerResponse:
    return PlannerResponse.model_validate(
        {
            "action": action,
            "tool": tool,
            "args": {"content": content} if tool else None,
            "message": message,
            "belief": {"key": key, "guessed": guessed, "delta": delta},
        }
    )


def respond(message: str, guessed: float = 1.0, delta: float = 0.0) -> PlannerResponse:
    return plan(guessed=guessed, delta=delta, action="RESPOND", tool=None, message=message)


# -- real values ------------------------------------------------------------------------------


def test_answer_confidence_is_1_at_the_first_call_and_085_after_a_refusal() -> None:
    fresh = TurnFacts()
    assert beliefs.answer_confidence(fresh, refused_or_retried=False, unresolved=False) == 1.0
    assert beliefs.answer_confidence(fresh, refused_or_retried=True, unresolved=False) == 0.85


def test_answer_confidence_drops_when_the_turn_degraded_or_left_candidates() -> None:
    degraded = TurnFacts()
    degraded.add_caveat("TMDB indisponível")
    assert beliefs.answer_confidence(degraded, refused_or_retried=False, unresolved=False) == 0.85
    fresh = TurnFacts()
    assert beliefs.answer_confidence(fresh, refused_or_retried=False, unresolved=True) == 0.70
    assert beliefs.answer_confidence(fresh, refused_or_retried=True, unresolved=True) == 0.55


async def test_a_pref_key_the_user_does_not_have_starts_at_half(world: World) -> None:
    assert await beliefs.real_value(world.deps, world.turn, "pref.genre.horror", 1.0) == 0.5
    await world.deps.db.beliefs.set(USER, "pref.genre.horror", 0.8, now_ms=0)
    assert await beliefs.real_value(world.deps, world.turn, "pref.genre.horror", 1.0) == 0.8


async def test_answer_confidence_reads_the_turn_score_not_the_store(world: World) -> None:
    await world.deps.db.beliefs.set(USER, CONFIDENCE, 0.1, now_ms=0)
    assert await beliefs.real_value(world.deps, world.turn, CONFIDENCE, 0.85) == 0.85


# -- row 1: a delta before the system asked ---------------------------------------------------------


async def test_a_delta_before_any_request_is_refused_and_writes_nothing(world: World) -> None:
    step = BeliefStep()
    verdict = await world.check(plan("pref.verbosity", 0.5, 0.2), step)
    assert not verdict.accepted
    assert verdict.reason == "delta must be 0 until the system asks for an adjustment"
    assert not step.asked_adjustment  # this refusal does not open the adjustment
    assert await world.stored("pref.verbosity") is None
    assert await world.events() == []


async def test_the_delta_row_comes_before_the_margin_row(world: World) -> None:
    step = BeliefStep()
    verdict = await world.check(plan("pref.verbosity", 0.95, 0.2), step)  # also 0.45 off
    assert verdict.reason == "delta must be 0 until the system asks for an adjustment"
    assert not step.asked_adjustment
    assert step.first_refused is None


# -- row 2: the margin ----------------------------------------------------------------------------


async def test_a_guess_outside_the_margin_is_refused_with_the_real_value(world: World) -> None:
    step = BeliefStep()
    verdict = await world.check(plan(CONFIDENCE, 0.5), step)
    assert not verdict.accepted
    assert verdict.reason == (
        "answer.confidence is 1.00; your guess 0.50 is outside ±0.15. "
        "Resend the same step with guessed=1.00 and, if you meant to move it, "
        "delta = your target - 1.00"
    )
    assert step.asked_adjustment  # from now on this step may carry a delta


@pytest.mark.parametrize(
    ("real", "guessed", "accepted"),
    [
        (1.0, 0.85, True),  # exactly the margin: 1.0 - 0.85 is 0.15000000000000002 in floats
        (1.0, 0.8499, False),
        (0.5, 0.65, True),
        (0.5, 0.35, True),
        (0.5, 0.6501, False),
        (0.85, 1.0, True),
        (0.85, 0.7, True),
        (0.85, 0.6999, False),
    ],
)
async def test_the_margin_is_015_inclusive_with_a_tolerance(
    world: World, real: float, guessed: float, accepted: bool
) -> None:
    if real == 0.5:
        verdict = await world.check(plan("pref.genre.horror", guessed), BeliefStep())
    else:
        verdict = await world.check(plan(CONFIDENCE, guessed), BeliefStep(), confidence_now=real)
    assert verdict.accepted is accepted, verdict.reason


async def test_the_margin_comes_from_the_settings(db: Database) -> None:
    async with open_world(db, belief_margin=0.05) as world:
        verdict = await world.check(plan(CONFIDENCE, 0.9), BeliefStep())
        assert not verdict.accepted
        assert "outside ±0.05" in verdict.reason
        assert (await world.check(plan(CONFIDENCE, 0.95), BeliefStep())).accepted


# -- row 3: the same step ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "changed",
    [
        plan(CONFIDENCE, 0.85, content="comprar leite e pão"),  # other args
        plan(CONFIDENCE, 0.85, tool="save_movie"),  # other tool
        respond("Anotado.", guessed=0.85),  # other action
    ],
    ids=["args", "tool", "action"],
)
async def test_after_a_margin_refusal_a_changed_step_is_refused(
    world: World, changed: PlannerResponse
) -> None:
    step = BeliefStep()
    assert not (await world.check(plan(CONFIDENCE, 0.4), step)).accepted
    verdict = await world.check(changed, step, confidence_now=0.85)
    assert (verdict.accepted, verdict.reason) == (False, "resend the same step")


async def test_a_changed_message_is_refused_but_surrounding_whitespace_is_not_a_change(
    world: World,
) -> None:
    step = BeliefStep()
    assert not (await world.check(respond("Inception é de 2010.", 0.3), step)).accepted
    changed = await world.check(respond("Inception é de 2014.", 0.85), step, confidence_now=0.85)
    assert changed.reason == "resend the same step"
    same = await world.check(respond("  Inception é de 2010.\n", 0.85), step, confidence_now=0.85)
    assert same.accepted


async def test_the_step_is_compared_with_the_first_margin_refusal(world: World) -> None:
    step = BeliefStep()
    first = plan(CONFIDENCE, 0.4)
    assert not (await world.check(first, step)).accepted
    # a second margin miss with another step does not replace the reference
    assert not (await world.check(plan(CONFIDENCE, 0.3, content="outra"), step)).accepted
    other = await world.check(plan(CONFIDENCE, 0.85, content="outra"), step, confidence_now=0.85)
    assert other.reason == "resend the same step"
    assert (await world.check(plan(CONFIDENCE, 0.85), step, confidence_now=0.85)).accepted


async def test_without_a_margin_refusal_any_step_is_accepted(world: World) -> None:
    step = BeliefStep()
    assert (await world.check(plan(CONFIDENCE, 1.0), step)).accepted
    assert (await world.check(plan(CONFIDENCE, 1.0, content="outra"), step)).accepted


# -- row 4: an accepted delta ----------------------------------------------------------------------


async def test_an_adjustment_after_the_request_stores_the_value_and_appends_an_event(
    world: World,
) -> None:
    step = BeliefStep()
    refused = await world.check(plan("pref.genre.horror", 0.9), step)
    assert "pref.genre.horror is 0.50" in refused.reason
    verdict = await world.check(plan("pref.genre.horror", 0.5, 0.3), step)
    assert verdict.accepted
    assert verdict.delta_applied == pytest.approx(0.3)
    assert await world.stored("pref.genre.horror") == pytest.approx(0.8)
    [(kind, payload)] = await world.events()
    assert kind == "belief_updated"
    assert payload == {
        "key_sha256": digest("pref.genre.horror"),
        "before": 0.5,
        "after": pytest.approx(0.8),
        "guessed": 0.5,
        "delta": 0.3,
    }
    assert "horror" not in str(payload)  # the ledger holds digests, never the key itself


@pytest.mark.parametrize(
    ("before", "delta", "after"),
    [(0.9, 0.5, 1.0), (0.1, -0.5, 0.0), (0.4, 0.1, 0.5)],
)
async def test_the_stored_value_is_clamped_to_0_1(
    world: World, before: float, delta: float, after: float
) -> None:
    await world.deps.db.beliefs.set(USER, "pref.verbosity", before, now_ms=0)
    step = BeliefStep()
    far_off = 0.0 if before >= 0.5 else 1.0
    assert not (await world.check(plan("pref.verbosity", far_off), step)).accepted
    verdict = await world.check(plan("pref.verbosity", before, delta), step)
    assert verdict.accepted
    assert await world.stored("pref.verbosity") == pytest.approx(after)
    assert verdict.delta_applied == pytest.approx(after - before)


async def test_answer_confidence_is_read_only_even_after_the_request(world: World) -> None:
    step = BeliefStep()
    assert not (await world.check(plan(CONFIDENCE, 0.5), step)).accepted
    verdict = await world.check(plan(CONFIDENCE, 0.85, 0.1), step, confidence_now=0.85)
    assert (verdict.accepted, verdict.reason) == (False, "answer.confidence is read-only")
    assert await world.stored(CONFIDENCE) is None
    assert await world.events() == []
    assert (await world.check(plan(CONFIDENCE, 0.85), step, confidence_now=0.85)).accepted


# -- row 5: accepted with no delta -----------------------------------------------------------------


async def test_an_accurate_guess_with_no_delta_is_accepted_and_writes_nothing(
    world: World,
) -> None:
    verdict = await world.check(plan("pref.genre.horror", 0.5), BeliefStep())
    assert (verdict.accepted, verdict.real, verdict.delta_applied) == (True, 0.5, 0.0)
    assert await world.stored("pref.genre.horror") is None
    assert await world.events() == []


@pytest.mark.parametrize("key", ["pref.", "pref.Genre", "pref.genre horror", "mood", "pref.x;y"])
async def test_a_key_that_is_not_a_belief_is_refused(world: World, key: str) -> None:
    verdict = await world.check(plan(key, 0.5), BeliefStep())
    assert not verdict.accepted
    assert "unknown belief key" in verdict.reason
