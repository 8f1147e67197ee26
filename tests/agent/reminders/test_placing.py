"""The reminder conventions (DESIGN 10.5) when a time is put on the calendar (issue 36)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.reminders import AskWhen, PastTime, SetReminder, parse

ZONE = ZoneInfo("America/Sao_Paulo")
MONDAY_10 = datetime(2026, 1, 5, 10, 0, tzinfo=ZONE)
TUESDAY_0430 = datetime(2026, 2, 10, 4, 30, tzinfo=ZONE)
WEDNESDAY_1420 = datetime(2026, 3, 18, 14, 20, tzinfo=ZONE)


def _due(text: str, now: datetime, **reading: object) -> str:
    parsed = parse(text, now, **reading)  # type: ignore[arg-type]
    assert isinstance(parsed, SetReminder), parsed
    return parsed.due.strftime("%Y-%m-%d %H:%M")


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("me lembra às 3 de x", "2026-03-18 15:00"),  # the next 3 o'clock is 15:00
        ("me lembra às 2 de x", "2026-03-19 02:00"),  # 14:00 has passed: 02:00
        ("remind me at 9 to x", "2026-03-18 21:00"),
        ("remind me at 12:30 to x", "2026-03-19 12:30"),  # twelve is noon
        ("me lembra às 16h de x", "2026-03-18 16:00"),
        ("me lembra às 13h de x", "2026-03-19 13:00"),  # a fixed clock already past: tomorrow
    ],
)
def test_a_bare_clock_is_the_next_one(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("me lembra amanhã às 3 de x", "2026-03-19 15:00"),  # 1-6 beside a day: p.m.
        ("me lembra sexta às 6 de x", "2026-03-20 18:00"),
        ("me lembra amanhã às 8 de x", "2026-03-19 08:00"),  # 7-11 beside a day: a.m.
        ("remind me tomorrow at 11 to x", "2026-03-19 11:00"),
        ("remind me tomorrow at 12 to x", "2026-03-19 12:00"),
        # written in hours (PT's 24-hour form), 5-6 is a dawn time as written
        ("me lembra amanhã 6h40 de pegar o ônibus", "2026-03-19 06:40"),
        ("me lembra sexta às 5h academia", "2026-03-20 05:00"),
        ("me lembra amanhã às 6 horas de x", "2026-03-19 06:00"),
        ("me lembra sexta às 3h de x", "2026-03-20 15:00"),  # 1-4 a.m. is no one's reminder
    ],
)
def test_an_ambiguous_hour_beside_a_day(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("me lembra hoje à noite às 11 de x", "2026-03-18 23:00"),
        ("me lembra às 11 da noite de x", "2026-03-18 23:00"),
        ("remind me this afternoon at 2 to x", "2026-02-10 14:00"),
        ("remind me tomorrow evening at 5 to x", "2026-02-11 17:00"),
        ("remind me at 7 tomorrow morning to x", "2026-02-11 07:00"),
        ("me lembra amanhã às 2 da madrugada de x", "2026-02-11 02:00"),
        ("me lembra sexta à noite às 1 de x", "2026-02-14 01:00"),  # after midnight: Saturday
    ],
)
def test_a_part_of_the_day_is_never_twelve_hours_early(text: str, due: str) -> None:
    now = WEDNESDAY_1420 if "noite às 11" in text or "11 da noite" in text else TUESDAY_0430
    assert _due(text, now) == due


@settings(max_examples=200, deadline=None)
@given(
    hour=st.integers(1, 11),
    minute=st.sampled_from(["", ":15", "h30", " e meia"]),
    side=st.booleans(),
    part=st.sampled_from(["da tarde", "da noite"]),
)
def test_any_afternoon_or_evening_clock_is_after_noon(
    hour: int, minute: str, side: bool, part: str
) -> None:
    word = "à tarde" if part == "da tarde" else "à noite"
    text = f"me lembra amanhã {word} às {hour}{minute} de x" if side else (
        f"me lembra amanhã às {hour}{minute} {part} de x"
    )  # fmt: skip
    parsed = parse(text, TUESDAY_0430)
    assert isinstance(parsed, SetReminder)
    due = parsed.due
    assert due.hour >= 12 or (part == "da noite" and hour <= 4 and due.day == 12), text


@pytest.mark.parametrize(
    ("text", "now", "due"),
    [
        ("me lembra amanhã de x", MONDAY_10, "2026-01-06 09:00"),
        ("remind me on friday to x", MONDAY_10, "2026-01-09 09:00"),
        ("me lembra terça de x", TUESDAY_0430, "2026-02-10 09:00"),  # today, before 09:00
        ("me lembra segunda de x", MONDAY_10, "2026-01-12 09:00"),  # today, after 09:00
        ("me lembra 5 de maio de x", MONDAY_10, "2026-05-05 09:00"),
        ("me lembra 2 de janeiro de x", MONDAY_10, "2027-01-02 09:00"),  # the future one
        ("me lembra dia 3 de x", MONDAY_10, "2026-02-03 09:00"),
        ("me lembra primeira terça de outubro de x", MONDAY_10, "2026-10-06 09:00"),
        ("me lembra no Natal de x", MONDAY_10, "2026-12-25 09:00"),
    ],
)
def test_a_day_without_a_time_is_0900_and_says_so(text: str, now: datetime, due: str) -> None:
    parsed = parse(text, now, country="BR")
    assert isinstance(parsed, SetReminder)
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == due
    assert parsed.default_time


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("me lembra na próxima terça de x", "2026-03-24 09:00"),
        ("me lembra na próxima quinta de x", "2026-03-19 09:00"),
        ("me lembra quinta que vem de x", "2026-03-26 09:00"),
        ("remind me next thursday to x", "2026-03-26 09:00"),
        ("remind me this thursday to x", "2026-03-19 09:00"),
        ("remind me the friday after next to x", "2026-03-27 09:00"),
        ("me lembra até amanhã de x", "2026-03-19 09:00"),
    ],
)
def test_next_weekdays(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("me lembra daqui a 3 dias de x", "2026-03-21 14:20"),
        ("remind me in 7 days at 5pm to x", "2026-03-25 17:00"),
        ("me lembra em dois meses de x", "2026-05-18 14:20"),
        ("remind me in 1/2 hour to x", "2026-03-18 14:50"),
    ],
)
def test_relative_amounts_keep_a_clock_only_when_given(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


def test_a_zone_is_converted_and_the_day_stays_the_users() -> None:
    parsed = parse("me lembra amanhã às 10h PST de x", TUESDAY_0430)
    assert isinstance(parsed, SetReminder)
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == "2026-02-11 15:00"
    assert parsed.zone == "PST"
    assert parsed.what == "x"


def test_month_first_only_when_asked() -> None:
    assert _due("remind me on 4/5 to x", MONDAY_10) == "2026-05-04 09:00"
    assert _due("remind me on 4/5 to x", MONDAY_10, month_first=True) == "2026-04-05 09:00"


@pytest.mark.parametrize(
    ("text", "reason", "count"),
    [
        ("me lembra semana que vem de x", "period", 3),
        ("remind me next month to x", "period", 3),
        ("me lembra no fim de semana de x", "period", 2),
        ("me lembra em maio de x", "period", 3),
        ("me lembra mais tarde de x", "vague", 3),
        ("remind me in a few minutes to x", "vague", 3),
        ("me lembra hoje de x", "passed_today", 3),
        ("me lembra dia 31/02 de x", "invalid_date", 2),
        ("remind me on mother's day to x", "holiday", 2),
        ("remind me Mon, Feb 17 to x", "weekday_mismatch", 2),
        # the nearest 13/01 or 15th is not that weekday: ask, never a date months away
        ("me lembra quarta 13/03 às 15h de x", "weekday_mismatch", 2),
        ("remind me wed the 19th at 3pm to x", "weekday_mismatch", 3),
    ],
)
def test_a_question_instead_of_a_guess(text: str, reason: str, count: int) -> None:
    parsed = parse(text, WEDNESDAY_1420)
    assert isinstance(parsed, AskWhen), parsed
    assert parsed.reason == reason
    assert len(parsed.options) == count
    assert all(option > WEDNESDAY_1420 for option in parsed.options)
    assert parsed.what == "x"


def test_next_week_offers_concrete_days_of_next_week() -> None:
    parsed = parse("me lembra semana que vem de x", WEDNESDAY_1420)
    assert isinstance(parsed, AskWhen)
    assert [o.strftime("%a %d %H:%M") for o in parsed.options] == [
        "Mon 23 09:00",
        "Wed 25 09:00",
        "Fri 27 09:00",
    ]


def test_past_times_are_reported() -> None:
    assert isinstance(parse("me lembra ontem de x", WEDNESDAY_1420), PastTime)
    assert isinstance(parse("remind me on Jul 18, 2014 at 7pm to x", WEDNESDAY_1420), PastTime)


def test_an_hour_from_now_is_an_hour_of_real_time_when_summer_time_ends() -> None:
    new_york = ZoneInfo("America/New_York")
    now = datetime.fromtimestamp(datetime(2026, 11, 1, 5, 30, tzinfo=UTC).timestamp(), new_york)
    parsed = parse("remind me in 1 hour to x", now)  # 01:30 EDT; the clock goes back at 02:00
    assert isinstance(parsed, SetReminder)
    assert parsed.due.timestamp() - now.timestamp() == 3600


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("remind me from 3 to 5pm to x", "2026-03-18 15:00"),
        ("me lembra das 3 às 5 da tarde de x", "2026-03-18 15:00"),
        ("remind me between 2 and 4 tomorrow to x", "2026-03-19 14:00"),
        ("remind me 11-1pm to x", "2026-03-19 11:00"),
    ],
)
def test_a_range_is_due_when_it_opens(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


@pytest.mark.parametrize(
    "text",
    ["me lembra terça passada de x", "remind me last tuesday to x", "remind me 2 days ago to x",
     "me lembra há 2 horas de x"],
)  # fmt: skip
def test_a_time_in_the_past_is_reported(text: str) -> None:
    assert isinstance(parse(text, WEDNESDAY_1420), PastTime)


@pytest.mark.parametrize(
    "text",
    [
        "me lembra daqui a 99999 anos de x",
        "me lembra daqui a 99999 anos às 10h de x",  # the clock alone would be today: ask
        "remind me in 69896791 hours to x",
        "me lembra 31/12/9999 às 2 da noite de x",  # the date alone would be dropped: ask
        "remind me on 12/31/9999 at 11pm PST to x",
        "me lembra 9999-12-31 de x",
    ],
)
def test_a_time_past_the_calendars_edge_gets_a_question(text: str) -> None:
    parsed = parse(text, WEDNESDAY_1420, month_first=True)
    assert isinstance(parsed, AskWhen), parsed
    assert parsed.reason == "invalid_date"
    assert parsed.what == "x"


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("me lembra amanhã à meia-noite de x", "2026-03-20 00:00"),  # tomorrow night
        ("remind me tomorrow at midnight to x", "2026-03-20 00:00"),
        ("me lembra hoje à meia-noite de x", "2026-03-19 00:00"),  # not 'passed'
        ("remind me midnight tonight to x", "2026-03-19 00:00"),
        ("me lembra sexta à meia-noite de x", "2026-03-21 00:00"),  # Friday night
        ("me lembra amanhã às 24h de x", "2026-03-20 00:00"),
        ("me lembra à meia-noite de x", "2026-03-19 00:00"),  # no day: the next one
        ("me lembra amanhã às 0h de x", "2026-03-19 00:00"),  # 0h is the clock that starts it
    ],
)
def test_midnight_beside_a_day_is_the_end_of_that_day(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


def test_a_weekday_with_its_date_is_that_date_not_this_weeks() -> None:
    """ "Fri, Mar 27" with "mar" read as a word left this Friday: a week early."""
    text = "remind me at 7:30 PM on Fri, Mar 27 to x"
    assert _due(text, WEDNESDAY_1420, month_first=True) == "2026-03-27 19:30"
    parsed = parse(text, WEDNESDAY_1420, month_first=True)
    assert isinstance(parsed, SetReminder)
    assert parsed.what == "x"


@pytest.mark.parametrize(
    ("text", "due"),
    [
        ("remind me 20 of next month to x", "2026-04-20 09:00"),
        ("remind me the 25th of this month to x", "2026-03-25 09:00"),
        ("me lembra 20 do mês que vem de x", "2026-04-20 09:00"),
        ("remind me 2 saturdays from now to x", "2026-03-28 09:00"),  # Wed: Sat 21, Sat 28
        ("remind me 4 wednesdays from now at 3pm to x", "2026-04-15 15:00"),  # not today
        ("me lembra daqui a duas sextas às 10h de x", "2026-03-27 10:00"),
    ],
)
def test_a_day_counted_from_a_month_or_in_weekdays(text: str, due: str) -> None:
    assert _due(text, WEDNESDAY_1420) == due


def test_a_clock_in_another_zone_is_its_next_occurrence_there() -> None:
    """Tue 01:00 in Tokyo is still Monday 16:00 UTC: "at 5pm UTC" is in an hour, not a day."""
    now = datetime(2025, 3, 11, 1, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
    parsed = parse("remind me at 5pm UTC to x", now)
    assert isinstance(parsed, SetReminder)
    assert parsed.due == datetime(2025, 3, 10, 17, 0, tzinfo=UTC)


def test_a_weekday_with_a_bare_day_offers_the_next_one_that_is_both() -> None:
    parsed = parse("me lembra sexta dia 13 de comprar sal grosso", MONDAY_10)
    assert isinstance(parsed, AskWhen), parsed
    assert [o.strftime("%a %d/%m") for o in parsed.options] == [
        "Tue 13/01",
        "Fri 16/01",
        "Fri 13/02",
    ]
    assert _due("me lembra sexta dia 9 de x", MONDAY_10) == "2026-01-09 09:00"  # it is a Friday
