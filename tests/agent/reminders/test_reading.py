"""Pieces of one message grouped and combined into one time (issue 36)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.clocks import Clock
from agent.understanding.reminders.dates import Date, DayOffset, Weekday
from agent.understanding.reminders.lexicon import fold_same_length, tokenize
from agent.understanding.reminders.periods import Period
from agent.understanding.reminders.reading import When, read_when
from agent.understanding.reminders.relative import Relative


def _when(text: str, *, trigger_words: int = 0) -> When | None:
    toks = tokenize(fold_same_length(text))
    return read_when(toks, trigger=(0, trigger_words) if trigger_words else None)


def test_a_part_of_the_day_on_either_side_of_the_clock() -> None:
    for text in ("hoje à noite às 11", "às 11 da noite", "tonight at 11", "at 11 tonight"):
        when = _when(text)
        assert when is not None, text
        assert when.clock is not None
        assert when.clock.hour == 11
        assert when.part is not None
        assert when.part.name == "night"


def test_a_weekday_and_a_date_say_one_day() -> None:
    when = _when("sexta, 12 de setembro de 2014 às 10h")
    assert when is not None
    assert when.day == Date(12, 9, 2014, weekday=4)
    assert when.clock == Clock(10, 0)


def test_a_relative_amount_of_days_keeps_the_clock() -> None:
    when = _when("in 7 days at 5pm")
    assert when is not None
    assert when.relative == Relative(days=7)
    assert when.clock is not None
    assert when.clock.fixed_time() == (17, 0)


def test_a_period_and_a_day_inside_it() -> None:
    when = _when("dia 15 do mês que vem")
    assert when is not None
    assert when.day == Date(15, month_offset=1)
    assert when.period is None
    when = _when("quarta da semana que vem")
    assert when is not None
    assert when.day == Weekday(2, "next_week")
    when = _when("next month")
    assert when is not None
    assert when.period == Period("month", 1)


def test_a_lone_clock_elsewhere_completes_the_day() -> None:
    when = _when("me lembra amanhã de ligar às 9h pro médico", trigger_words=2)
    assert when is not None
    assert when.day == DayOffset(1)
    assert when.clock is not None
    assert when.clock.hour == 9
    assert len(when.spans) == 2


def test_a_contradicting_piece_ends_the_time() -> None:
    text = "me lembra de ver o jogo de sexta amanhã às 9h"
    when = _when(text, trigger_words=2)
    assert when is not None
    assert when.day == DayOffset(1)
    assert [text[a:b] for a, b in when.spans] == ["amanhã às 9h"]


@pytest.mark.parametrize(
    "text",
    [
        "me lembra de ter paciência",  # "ter" is a verb, not Tuesday
        "me lembra de comprar a segunda parcela",  # the second one, not Monday
        "me lembra de tomar 2 comprimidos",  # a bare number is no clock
        "me lembra de ir a uma festa",
        "remind me to set 5 alarms",
        "remind me to read the 3rd chapter",
        "remind me to call now that it is done",
        "remind me to read the friday paper",  # a weekday naming a thing
    ],
)
def test_words_that_are_also_times_are_not_read_as_times(text: str) -> None:
    assert _when(text, trigger_words=2) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("me lembra sexta de pagar", Weekday(4)),  # right after the request
        ("me lembra de pagar a conta sexta", Weekday(4)),  # at the end
        ("remind me sat to call", Weekday(5)),
        ("lembrete: sexta dentista", Weekday(4)),
    ],
)
def test_a_weak_weekday_beside_the_request_or_at_the_end(text: str, expected: Weekday) -> None:
    when = _when(text, trigger_words=2)
    assert when is not None
    assert when.day == expected


def test_today_beside_an_amount_of_hours_is_that_amount() -> None:
    for text in ("today in one hour", "in 1 hour today", "hoje daqui a 1 hora"):
        when = _when(text)
        assert when is not None, text
        assert when.relative == Relative(seconds=3600), text
        assert when.day is None
