"""Parts of the day fix a.m./p.m. on either side of the clock (issue 36)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.clocks import Clock
from agent.understanding.reminders.parts import Part, clock_in_part, read_part
from tests.agent.reminders.helpers import whole


@pytest.mark.parametrize(
    ("text", "name", "today"),
    [("de manhã", "morning", False), ("à tarde", "afternoon", False), ("à noite", "night", False),
     ("de madrugada", "dawn", False), ("da noite", "night", False), ("hoje à noite", "night", True),
     ("esta tarde", "afternoon", True), ("tonight", "night", True), ("this morning", "morning", True),
     ("in the evening", "night", False), ("at night", "night", False), ("cedo", "early", False),
     ("na hora do almoço", "lunch", False)],
)  # fmt: skip
def test_parts_of_the_day(text: str, name: str, today: bool) -> None:
    part = whole(read_part, text)
    assert isinstance(part, Part)
    assert (part.name, part.today) == (name, today)


def test_a_bare_part_word_is_weak() -> None:
    part = whole(read_part, "tarde")
    assert isinstance(part, Part)
    assert not part.strong


@pytest.mark.parametrize(
    ("hour", "part", "expected"),
    [
        (11, "night", (23, 0, 0)),
        (9, "night", (21, 0, 0)),
        (2, "night", (2, 0, 1)),  # after midnight: the next day
        (12, "night", (0, 0, 1)),
        (2, "afternoon", (14, 0, 0)),
        (8, "afternoon", (20, 0, 0)),  # never 08:00 for "à tarde"
        (7, "morning", (7, 0, 0)),
        (3, "dawn", (3, 0, 0)),
        (1, "lunch", (13, 0, 0)),
    ],
)
def test_an_ambiguous_clock_in_a_part(hour: int, part: str, expected: tuple[int, int, int]) -> None:
    assert clock_in_part(Clock(hour), Part(part)) == expected  # type: ignore[arg-type]


def test_a_fixed_clock_is_kept_whatever_the_part() -> None:
    assert clock_in_part(Clock(20, 0, fixed=True), Part("night")) == (20, 0, 0)
    assert clock_in_part(Clock(8, 0, "am"), Part("night")) == (8, 0, 0)


def test_midnight_in_a_part_of_the_day_is_that_days_end() -> None:
    midnight = Clock(0, 0, fixed=True, end_of_day=True)  # "midnight tonight"
    assert clock_in_part(midnight, Part("night", today=True)) == (0, 0, 1)
