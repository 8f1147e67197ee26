"""Periods without a day and vague times: read so that they get a question (issue 36)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.periods import Period, read_period
from tests.agent.reminders.helpers import toks, whole


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("semana que vem", Period("week", 1)),
        ("next week", Period("week", 1)),
        ("the coming week", Period("week", 1)),
        ("até o fim do dia", Period("end_of_day")),
        ("esta semana", Period("week", 0)),
        ("no fim de semana", Period("weekend", 0)),
        ("next weekend", Period("weekend", 1)),
        ("mês que vem", Period("month", 1)),
        ("next month", Period("month", 1)),
        ("fim do mês", Period("month_end", 0)),
        ("ano que vem", Period("year", 1)),
        ("em maio", Period("month_name", month=5)),
        ("in april", Period("month_name", month=4)),
        ("daqui a pouco", Period("soon")),
        ("mais tarde", Period("later", weak=True)),
        ("in a few minutes", Period("few", unit="minute")),
        ("daqui a algumas horas", Period("few", unit="hour")),
    ],
)
def test_periods_and_vague_times(text: str, expected: Period) -> None:
    assert whole(read_period, text) == expected


def test_a_short_month_name_or_a_date_is_no_period() -> None:
    assert read_period(toks("em mar"), 0) is None  # "mar": the sea, not March
    assert read_period(toks("em 5 de maio"), 0) is None  # a date, read by the dates grammar
