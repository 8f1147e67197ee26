"""Holidays by country, Easter, and the country of a time zone (issue 36)."""

from __future__ import annotations

from datetime import date

import pytest

from agent.understanding.reminders.holidays import (
    Holiday,
    country_of_zone,
    easter,
    holiday_dates,
    nth_weekday,
    read_holiday,
)
from tests.agent.reminders.helpers import whole


@pytest.mark.parametrize(
    ("year", "day"),
    [(2024, date(2024, 3, 31)), (2026, date(2026, 4, 5)), (2027, date(2027, 3, 28))],
)
def test_easter(year: int, day: date) -> None:
    assert easter(year) == day


def test_nth_weekday_and_the_last_one() -> None:
    assert nth_weekday(2026, 11, 4, 3) == date(2026, 11, 26)
    assert nth_weekday(2026, 5, -1, 0) == date(2026, 5, 25)
    assert nth_weekday(2026, 2, 5, 0) is None


@pytest.mark.parametrize(
    ("zone", "country"),
    [("America/Sao_Paulo", "BR"), ("America/Manaus", "BR"), ("America/New_York", "US"),
     ("America/Indiana/Indianapolis", "US"), ("Pacific/Honolulu", "US"), ("Europe/Lisbon", "PT"),
     ("Europe/Berlin", None), ("UTC", None)],
)  # fmt: skip
def test_country_of_a_zone(zone: str, country: str | None) -> None:
    assert country_of_zone(zone) == country


@pytest.mark.parametrize(
    ("text", "key"),
    [("no natal", "christmas"), ("na véspera de Natal", "christmas_eve"), ("Dia das Mães", "mothers_day"),
     ("on mother's day", "mothers_day"), ("on Thanksgiving", "thanksgiving"), ("na páscoa", "easter"),
     ("new year's eve", "new_year_eve"), ("carnaval", "carnival")],
)  # fmt: skip
def test_holiday_names(text: str, key: str) -> None:
    assert whole(read_holiday, text) == Holiday(key)


def test_a_holiday_kept_by_the_users_country_has_its_date() -> None:
    assert holiday_dates(Holiday("mothers_day"), "BR", 2026) == [date(2026, 5, 10)]
    assert holiday_dates(Holiday("mothers_day"), "PT", 2026) == [date(2026, 5, 3)]
    assert holiday_dates(Holiday("namorados"), "BR", 2026) == [date(2026, 6, 12)]
    assert holiday_dates(Holiday("carnival"), None, 2027) == [date(2027, 2, 9)]


def test_a_holiday_whose_date_depends_on_an_unknown_country_gives_the_candidates() -> None:
    assert holiday_dates(Holiday("mothers_day"), None, 2026) == [
        date(2026, 5, 3),
        date(2026, 5, 10),
    ]
    assert holiday_dates(Holiday("thanksgiving"), None, 2026) == [date(2026, 11, 26)]
