"""Reminder moves after the wave-13 review (issue 43), with phrasings of their own: the answer
to "Later or earlier?" moves the reminder, a repeating reminder moved past midnight or by
days moves its rule's days (or asks), "what time is …" asks about a reminder only when one is
named, a move continued moves and sets nothing new."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.reminders.asks import WhenAsk, read_ask
from agent.understanding.reminders.rules import Rule, days_moved
from agent.understanding.reminders.shifting import Shift
from storage import Database
from tests.support.harness import ALICE, open_lembra

HOUR_MS = 3600 * 1000
DAY_MS = 24 * HOUR_MS


@pytest.mark.parametrize(
    ("setup", "move", "answer", "delta_ms"),
    [
        ("remind me tomorrow at 4pm to call the plumber", "move the plumber one 2 hours", "earlier", -2 * HOUR_MS),
        ("me lembra amanhã às 15h de buscar o bolo", "mexe o do bolo 1 hora", "mais cedo", -HOUR_MS),
        ("me lembra amanhã às 15h de buscar o bolo", "mexe o do bolo 1 hora", "1", HOUR_MS),
    ],
)  # fmt: skip
async def test_the_side_named_after_later_or_earlier_moves_by_the_amount(
    db: Database, setup: str, move: str, answer: str, delta_ms: int
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say(setup)
        (before,) = await db.reminders.for_user(ALICE)
        await lembra.say(move)
        await lembra.say(answer)
        (after,) = await db.reminders.for_user(ALICE)
    assert after.due_at_ms - before.due_at_ms == delta_ms


async def test_a_button_under_later_or_earlier_moves_the_reminder(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("remind me tomorrow at 4pm to call the plumber")
        (before,) = await db.reminders.for_user(ALICE)
        asked = await lembra.say("shift it 30 min")
        await lembra.press(1, token=asked.choice_token)
        (after,) = await db.reminders.for_user(ALICE)
    assert after.due_at_ms - before.due_at_ms == -HOUR_MS // 2


async def test_a_weekly_reminder_moved_past_midnight_rings_the_day_before(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra toda sexta às 0h15 de ver o backup")
        (before,) = await db.reminders.for_user(ALICE)
        await lembra.say("antecipa o do backup meia hora")
        (after,) = await db.reminders.for_user(ALICE)
    assert after.due_at_ms - before.due_at_ms == -HOUR_MS // 2
    assert "TH" in (after.rule or "")


async def test_a_monthly_reminder_pushed_past_a_months_end_changes_nothing_and_asks(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra todo dia 28 às 9h de pagar o aluguel")
        (before,) = await db.reminders.for_user(ALICE)
        reply = await lembra.say("atrasa o do aluguel 1 dia")
        (after,) = await db.reminders.for_user(ALICE)
    assert (after.due_at_ms, after.rule) == (before.due_at_ms, before.rule)
    assert "?" in reply.text


async def test_a_move_continued_with_tb_moves_the_second_one(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra amanhã às 14h de levar o carro")
        await lembra.say("me lembra amanhã às 16h de buscar o carro")
        (_, fetch) = sorted(await db.reminders.for_user(ALICE), key=lambda r: r.due_at_ms)
        await lembra.say("atrasa o de levar 1 hora")
        await lembra.say("e adia o de buscar 1 hora tb")
        moved = next(r for r in await db.reminders.for_user(ALICE) if r.id == fetch.id)
        count = len(await db.reminders.for_user(ALICE))
    assert (moved.due_at_ms - fetch.due_at_ms, count) == (HOUR_MS, 2)


@pytest.mark.parametrize("said", ["what time is it now?", "que horas são?", "que horas é?"])
def test_asking_the_clock_is_no_question_about_a_reminder(said: str) -> None:
    assert not isinstance(read_ask(said), WhenAsk)


@pytest.mark.parametrize(
    ("said", "query"),
    [("what time is the haircut one?", "haircut"), ("que horas ficou o da pizza?", "pizza")],
)
def test_what_time_with_a_reminder_named_asks_about_it(said: str, query: str) -> None:
    assert read_ask(said) == WhenAsk(query)


_PART = st.sampled_from(["FREQ", "BYDAY", "BYMONTHDAY", "BYMONTH", "INTERVAL", "X", ""])
_VALUE = st.text(alphabet="MOTUWEFRSAH0123456789,+-=", max_size=12)


@given(
    st.lists(st.tuples(_PART, _VALUE), max_size=4) | st.text(max_size=40),
    st.integers(min_value=-40, max_value=40),
)
def test_moving_a_rules_days_never_raises(parts: list[tuple[str, str]] | str, days: int) -> None:
    rrule = parts if isinstance(parts, str) else ";".join(f"{k}={v}" for k, v in parts)
    days_moved(Rule(rrule), days)


@pytest.mark.parametrize("said", ["e 1 hora antes também", "meia hora antes", "20 min after"])
def test_an_amount_before_or_after_with_no_verb_moves_nothing(said: str) -> None:
    assert read_ask(said) is None or not isinstance(read_ask(said), Shift)
