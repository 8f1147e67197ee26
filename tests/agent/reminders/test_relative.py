"""Amounts of time from now (issue 36)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.relative import Relative, read_relative
from tests.agent.reminders.helpers import toks, whole


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("daqui a 10 minutos", Relative(seconds=600)),
        ("daqui 2 horas", Relative(seconds=7200)),
        ("em 5 min", Relative(seconds=300)),
        ("dentro de 20 minutos", Relative(seconds=1200)),
        ("em meia hora", Relative(seconds=1800)),
        ("in half an hour", Relative(seconds=1800)),
        ("in 1/2 hour", Relative(seconds=1800)),
        ("in a quarter of an hour", Relative(seconds=900)),
        ("em 2,5 horas", Relative(seconds=9000)),
        ("daqui a uma hora e meia", Relative(seconds=5400)),
        ("in an hour and a half", Relative(seconds=5400)),
        ("in one and a half hours", Relative(seconds=5400)),
        ("daqui a 1h30", Relative(seconds=5400)),
        ("daqui a uma hora e 15", Relative(seconds=4500)),
        ("in 2 hours and 15 minutes", Relative(seconds=8100)),
        ("in 2 more minutes", Relative(seconds=120)),
        ("2 minutes from now", Relative(seconds=120)),
        ("7 days hence", Relative(days=7)),
        ("em 3 dias", Relative(days=3)),
        ("daqui a uma semana", Relative(days=7)),
        ("in a fortnight", Relative(days=14)),
        ("em dois meses", Relative(months=2)),
        ("in a year", Relative(years=1)),
        ("amanhã a essa hora", Relative(days=1)),
        ("agora", Relative()),
        ("em 3/4 de hora", Relative(seconds=2700)),
        ("há 2 horas", Relative(seconds=-7200)),
        ("3 days ago", Relative(days=-3)),
        ("a week from tomorrow", Relative(days=8)),
        ("a day from right now", Relative(days=1)),
        ("in a pair of minutes", Relative(seconds=120)),
        ("nesse instante", Relative()),
        ("in 1/4 h", Relative(seconds=900)),
        ("em 2 h", Relative(seconds=7200)),
    ],
)
def test_relative_amounts(text: str, expected: Relative) -> None:
    assert whole(read_relative, text) == expected


def test_days_and_more_move_the_calendar_and_keep_a_clock() -> None:
    assert Relative(days=7).moves_calendar
    assert not Relative(seconds=60, days=1).moves_calendar


@pytest.mark.parametrize("text", ["10 minutos", "em 2026", "in the morning", "5 m", "in a bit"])
def test_no_relative_amount(text: str) -> None:
    found = read_relative(toks(text), 0)
    assert found is None or found[1] != len(toks(text))
