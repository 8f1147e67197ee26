"""The recurrence engine (DESIGN 11.4): python-dateutil's rrule read in the user's zone, across
changes to and from summer time and month ends; and a rule delivered with a fake clock."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.reminders.rules import (
    Rule,
    first_from,
    last,
    next_after,
    occurrences,
    read_rrule,
)

NY = ZoneInfo("America/New_York")
LISBON = ZoneInfo("Europe/Lisbon")


def local(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M %Z")


def test_a_daily_rule_keeps_its_wall_time_across_new_yorks_spring_and_fall_changes() -> None:
    daily = Rule("FREQ=DAILY")
    start = datetime(2026, 3, 7, 8, 0, tzinfo=NY)
    spring = occurrences(daily, start, limit=3)
    assert [local(a) for a in spring] == [
        "2026-03-07 08:00 EST",
        "2026-03-08 08:00 EDT",
        "2026-03-09 08:00 EDT",
    ]
    assert spring[1].timestamp() - spring[0].timestamp() == 23 * 3600  # a night an hour short
    fall = occurrences(daily, datetime(2026, 10, 31, 8, 0, tzinfo=NY), limit=3)
    assert [local(a) for a in fall][1:] == ["2026-11-01 08:00 EST", "2026-11-02 08:00 EST"]
    assert fall[1].timestamp() - fall[0].timestamp() == 25 * 3600


def test_a_wall_time_the_change_skips_is_just_after_the_gap_and_a_repeated_one_comes_once() -> None:
    daily = Rule("FREQ=DAILY")
    skipped = occurrences(daily, datetime(2026, 3, 7, 2, 30, tzinfo=NY), limit=3)
    assert [local(a) for a in skipped] == [
        "2026-03-07 02:30 EST",
        "2026-03-08 03:30 EDT",  # 02:30 does not exist that night
        "2026-03-09 02:30 EDT",
    ]
    repeated = occurrences(daily, datetime(2026, 10, 24, 1, 30, tzinfo=LISBON), limit=3)
    instants = [a.astimezone(UTC) for a in repeated]
    assert len(set(instants)) == 3  # 01:30 on the 25th happens twice; it is sent once
    assert [local(a) for a in repeated][1] == "2026-10-25 01:30 WEST"


def test_next_after_crosses_lisbons_change_with_a_fake_clock_and_sends_each_occurrence_once() -> (
    None
):
    rule = Rule("FREQ=WEEKLY;BYDAY=SU")
    start = datetime(2026, 3, 22, 9, 0, tzinfo=LISBON)
    clock = start
    sent = []
    for _ in range(3):  # the scheduler's pass at each due time, then the next one computed
        sent.append(clock)
        following = next_after(rule, start, clock)
        assert following is not None
        clock = following
    assert [local(a) for a in sent] == [
        "2026-03-22 09:00 WET",
        "2026-03-29 09:00 WEST",  # the change happens at 01:00 that morning
        "2026-04-05 09:00 WEST",
    ]


def test_month_ends_the_31st_and_the_last_day() -> None:
    start = datetime(2026, 1, 31, 9, 0, tzinfo=NY)
    on_31st = occurrences(Rule("FREQ=MONTHLY;BYMONTHDAY=31"), start, limit=3)
    assert [a.date().isoformat() for a in on_31st] == ["2026-01-31", "2026-03-31", "2026-05-31"]
    month_end = occurrences(Rule("FREQ=MONTHLY;BYMONTHDAY=-1"), start, limit=3)
    assert [a.date().isoformat() for a in month_end] == ["2026-01-31", "2026-02-28", "2026-03-31"]
    leap = occurrences(Rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"), start, limit=2)
    assert [a.date().isoformat() for a in leap] == ["2028-02-29", "2032-02-29"]


def test_count_until_and_the_first_occurrence_after_now() -> None:
    now = datetime(2026, 1, 5, 10, 0, tzinfo=NY)  # a Monday
    weekly = Rule("FREQ=WEEKLY;BYDAY=MO,WE", count=3)
    first = first_from(weekly, now.replace(hour=8), now)
    assert first is not None
    assert local(first) == "2026-01-07 08:00 EST"  # Monday's 08:00 has passed
    assert local(last(weekly, first) or first) == "2026-01-14 08:00 EST"
    until = Rule("FREQ=DAILY", until=datetime(2026, 1, 9, 23, 59, 59, tzinfo=NY))
    assert len(occurrences(until, first, limit=10)) == 3
    assert next_after(until, first, datetime(2026, 1, 9, 9, 0, tzinfo=NY)) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("RRULE:FREQ=DAILY;COUNT=5", Rule("FREQ=DAILY", count=5)),
        ("FREQ=WEEKLY;BYDAY=MO,WE", Rule("FREQ=WEEKLY;BYDAY=MO,WE")),
        ("freq=monthly;byday=1mo", Rule("FREQ=MONTHLY;BYDAY=1MO")),
        ("FREQ=SECONDLY", None),  # not a reminder's
        ("FREQ=DAILY;BYSECOND=5", None),
        ("FREQ=DAILY;COUNT=0", None),
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", None),  # never
        ("DTSTART:20260101T000000\nRRULE:FREQ=DAILY", None),
        ("FREQ=DAILY;FREQ=WEEKLY", None),
        ("", None),
    ],
)
def test_an_rrule_from_outside_is_checked(text: str, expected: Rule | None) -> None:
    assert read_rrule(text, NY) == expected


def test_until_from_outside_is_an_instant() -> None:
    rule = read_rrule("FREQ=DAILY;UNTIL=20260110", NY)
    assert rule is not None
    assert rule.until == datetime(2026, 1, 10, 23, 59, 59, tzinfo=NY)
    assert rule.full() == "FREQ=DAILY;UNTIL=20260111T045959Z"
