"""Days, weekdays, dates, days of the month and the nth weekday (issue 36)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.dates import (
    Date,
    DayOffset,
    NthWeekday,
    Weekday,
    read_day_of_month,
    read_day_word,
    read_month_date,
    read_nth_weekday,
    read_numeric_date,
    read_weekday,
    read_weekdays_from_now,
)
from tests.agent.reminders.helpers import toks, whole


@pytest.mark.parametrize(
    ("text", "days"),
    [("hoje", 0), ("hj", 0), ("amanhã", 1), ("tomorrow", 1), ("depois de amanhã", 2),
     ("the day after tomorrow", 2), ("ontem", -1), ("tomorrows", 1)],
)  # fmt: skip
def test_day_words(text: str, days: int) -> None:
    assert whole(read_day_word, text) == DayOffset(days)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sexta", Weekday(4, "plain", False)),
        ("na sexta-feira", Weekday(4)),
        ("sexta feira", Weekday(4)),
        ("2ª feira", Weekday(0)),
        ("seg", Weekday(0, "plain", False)),
        ("qua.", Weekday(2)),
        ("sáb.", Weekday(5)),
        ("fri", Weekday(4)),
        ("thurs", Weekday(3)),
        ("on sat", Weekday(5)),
        ("próxima terça", Weekday(1, "next_one")),
        ("domingo próximo", Weekday(6, "next_one")),
        ("sexta que vem", Weekday(4, "next_week")),
        ("terça da semana que vem", Weekday(1, "next_week")),
        ("next friday", Weekday(4, "next_week")),
        ("monday next week", Weekday(0, "next_week")),
        ("this coming friday", Weekday(4, "next_one")),
        ("terça agora", Weekday(1)),  # this week's
    ],
)
def test_weekdays_full_short_and_which_one(text: str, expected: Weekday) -> None:
    assert whole(read_weekday, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5 de maio", Date(5, 5)),
        ("dia 15 de agosto", Date(15, 8)),
        ("12 de setembro de 2014", Date(12, 9, 2014)),
        ("1º de maio", Date(1, 5)),
        ("primeiro de abril", Date(1, 4)),
        ("seis de outubro", Date(6, 10)),
        ("15 de nov.", Date(15, 11)),
        ("28 fev 2027", Date(28, 2, 2027)),
        ("Jul 18, 2014", Date(18, 7, 2014)),
        ("May 5th", Date(5, 5)),
        ("the 5th of May", Date(5, 5)),
        ("May the 4th", Date(4, 5)),
        ("December 25th", Date(25, 12)),
        ("on the twentieth of April", Date(20, 4)),
        ("31 de fevereiro", Date(31, 2, invalid=True)),
        ("de 13 a 15 de julho", Date(13, 7)),  # a range: from its first day
        ("July 13-15", Date(13, 7)),
        ("between July 13 and July 15", Date(13, 7)),
    ],
)
def test_dates_with_month_names(text: str, expected: Date) -> None:
    assert whole(read_month_date, text) == expected


def test_month_names_that_are_words_need_a_link() -> None:
    assert read_month_date(toks("set 5 alarms"), 0) is None
    assert read_month_date(toks("5 out of 10"), 0) is None
    assert whole(read_month_date, "5 de set") == Date(5, 9)


def test_a_month_name_that_is_a_word_is_a_month_after_a_weekday() -> None:
    assert read_month_date(toks("Fri, Mar 21"), 2) == (Date(21, 3), 4)
    assert read_month_date(toks("sex. 12 set"), 2) == (Date(12, 9), 4)
    assert read_month_date(toks("to set 5 alarms"), 1) is None


@pytest.mark.parametrize(
    ("text", "month_first", "expected"),
    [
        ("15/03", False, Date(15, 3)),
        ("3/4", False, Date(3, 4)),
        ("3/4", True, Date(4, 3)),  # en-US
        ("4/25", False, Date(25, 4)),  # only m/d is a date
        ("25/4", True, Date(25, 4)),  # only d/m is a date
        ("15/08/2026", False, Date(15, 8, 2026)),
        ("10/05/27", False, Date(10, 5, 2027)),
        ("2026-04-10", False, Date(10, 4, 2026)),
        ("15.08.2026", False, Date(15, 8, 2026)),
        ("dia 20/03", False, Date(20, 3)),
        ("31/02", False, Date(31, 2, invalid=True)),
        ("dia 15.03", False, Date(15, 3)),  # a dot between two numbers: a date after "dia"
        ("31/12/9999", False, Date(31, 12, invalid=True)),  # past 2200: ask which day
    ],
)
def test_slash_dates(text: str, month_first: bool, expected: Date) -> None:
    found = read_numeric_date(toks(text), 0, month_first=month_first)
    assert found is not None
    assert found[0] == expected


@pytest.mark.parametrize("text", ["3-4", "2.5", "13/13", "1/2/3/4"])
def test_no_slash_date(text: str) -> None:
    found = read_numeric_date(toks(text), 0, month_first=False)
    assert found is None or found[1] != len(toks(text))


@pytest.mark.parametrize(
    ("text", "day"),
    [("dia 15", 15), ("no dia 3", 3), ("dia primeiro", 1), ("dia quinze", 15), ("the 20th", 20),
     ("on the 15th", 15), ("17th", 17), ("essa dia 16", 16), ("neste dia 3", 3)],
)  # fmt: skip
def test_days_of_the_month(text: str, day: int) -> None:
    assert whole(read_day_of_month, text) == Date(day)


def test_an_ordinal_before_a_noun_is_no_day() -> None:
    assert read_day_of_month(toks("the 3rd chapter"), 0) is None
    assert read_day_of_month(toks("the 20"), 0) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("primeira terça de outubro", NthWeekday(1, 1, 10)),
        ("segunda sexta de abril", NthWeekday(2, 4, 4)),
        ("última sexta de março", NthWeekday(-1, 4, 3)),
        ("first tuesday of october", NthWeekday(1, 1, 10)),
        ("the last friday of march", NthWeekday(-1, 4, 3)),
        ("third sunday in may", NthWeekday(3, 6, 5)),
        ("último dia de abril", NthWeekday(-1, None, 4)),
        ("o último dia do mês", NthWeekday(-1, None, None, 0)),
        ("first monday of next month", NthWeekday(1, 0, None, 1)),
        ("second wednesday of october 2026", NthWeekday(2, 2, 10, 0, 2026)),
    ],
)
def test_nth_weekday_of_a_month(text: str, expected: NthWeekday) -> None:
    assert whole(read_nth_weekday, text) == expected


@pytest.mark.parametrize(
    ("text", "end"),
    [("20 of next month", 1), ("20th day of the next month", 3), ("20 do mês que vem", 1)],
)
def test_a_bare_day_number_before_a_month_is_a_day(text: str, end: int) -> None:
    assert read_day_of_month(toks(text), 0) == (Date(20), end)
    assert read_day_of_month(toks("buy 20 of them"), 1) is None


@pytest.mark.parametrize(
    ("text", "day", "later"),
    [("2 saturdays from now", 5, 1), ("three fridays from now", 4, 2),
     ("daqui a duas sextas-feiras", 4, 1), ("in 2 sundays", 6, 1)],
)  # fmt: skip
def test_n_weekdays_from_now(text: str, day: int, later: int) -> None:
    assert whole(read_weekdays_from_now, text) == Weekday(day, "next_one", True, later)


def test_a_count_of_weekdays_without_from_now_is_no_time() -> None:
    assert read_weekdays_from_now(toks("3 fridays"), 0) is None
