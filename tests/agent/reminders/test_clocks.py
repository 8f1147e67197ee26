"""Clock times and whether they could be a.m. or p.m. (issue 36)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.clocks import Clock, read_clock
from tests.agent.reminders.helpers import toks, whole


def _read(text: str) -> Clock | None:
    return whole(read_clock, text)


@pytest.mark.parametrize(
    ("text", "time", "ambiguous"),
    [
        ("15h", (15, 0), False),
        ("às 15h30", (15, 30), False),
        ("15h30min", (15, 30), False),
        ("às 15 horas", (15, 0), False),
        ("às 08:00", (8, 0), False),  # a leading zero is the 24-hour clock
        ("às 0h30", (0, 30), False),
        ("às 3", (3, 0), True),
        ("às 8h", (8, 0), True),
        ("às 7:30", (7, 30), True),
        ("3pm", (15, 0), False),
        ("at 3p", (15, 0), False),
        ("3:15p", (15, 15), False),
        ("3 p.m.", (15, 0), False),
        ("at 12am", (0, 0), False),
        ("at 12:30", (12, 30), False),  # twelve alone is noon
        ("at 1030", (10, 30), True),
        ("at 2115", (21, 15), False),
        ("at 0930", (9, 30), False),
        ("às 3 e meia", (3, 30), True),
        ("às 3 e trinta", (3, 30), True),
        ("às duas e quarenta", (2, 40), True),
        ("às dezoito", (18, 0), False),
        ("às 7 horas e 15 minutos", (7, 15), True),
        ("meio dia e quinze", (12, 15), False),
        ("ao meio-dia", (12, 0), False),
        ("à meia-noite e meia", (0, 30), False),
        ("quinze para as oito", (7, 45), True),
        ("vinte pras cinco", (4, 40), True),
        ("quinze para o meio-dia", (11, 45), False),
        ("dez para a meia-noite", (23, 50), False),
        ("a quarter past 3pm", (15, 15), False),
        ("at half past 7", (7, 30), True),
        ("quarter to 8", (7, 45), True),
        ("ten to five", (4, 50), True),
        ("half three", (3, 30), True),
        ("at seven thirty", (7, 30), True),
        ("at nine oh five", (9, 5), True),
        ("at 7 o'clock", (7, 0), True),
        ("às 7 em ponto", (7, 0), True),
        ("3 oclock am", (3, 0), False),
        ("at noon", (12, 0), False),
        ("às 15.30", (15, 30), False),  # a dot after "às"/"at" is a clock's
        ("at 3.30 pm", (15, 30), False),
        ("15:23:24", (15, 23), False),  # seconds read and dropped
        ("15 minutes from 1pm", (13, 15), False),
        ("3pm approximately", (15, 0), False),
        ("approximately 1030", (10, 30), True),
        ("depois do meio dia", (12, 0), False),  # after a time: due when it opens
        ("após as quinze horas", (15, 0), False),
        ("since 2pm", (14, 0), False),
        ("9:30 - 11:00", (9, 30), True),  # a range without a lead: due at its start
        ("9:30 till 11:00", (9, 30), True),
        ("3:30 to 6 PM", (15, 30), False),
        ("8am - 1pm", (8, 0), False),
    ],
)
def test_clock_shapes(text: str, time: tuple[int, int], ambiguous: bool) -> None:
    clock = _read(text)
    assert clock is not None
    if clock.ambiguous:
        assert (clock.hour, clock.minute) == time
    else:
        assert clock.fixed_time() == time
    assert clock.ambiguous == ambiguous


def test_a_bare_number_is_a_weak_clock_and_a_marked_one_strong() -> None:
    assert _read("10") == Clock(10, 0, strong=False)
    clock = _read("10h")
    assert clock is not None
    assert clock.strong


@pytest.mark.parametrize("text", ["1030", "15pm", "às 25h", "às 10:75", "a 5", "a uma"])
def test_no_clock(text: str) -> None:
    assert _read(text) is None


def test_midnight_and_24h_end_the_day_and_0h_starts_it() -> None:
    for text in ("à meia-noite", "midnight", "às 24h", "meia-noite e meia"):
        clock = _read(text)
        assert clock is not None
        assert clock.end_of_day, text
    clock = _read("às 0h")
    assert clock is not None
    assert not clock.end_of_day


def test_to_before_the_task_is_no_range() -> None:
    assert read_clock(toks("at 3 to pay 2 bills"), 0) == (Clock(3, 0), 2)


def test_a_dotted_amount_without_at_is_no_clock() -> None:
    assert _read("12.50") is None  # "pagar 12.50 amanhã": an amount, not 12:50


def test_a_task_with_a_to_and_a_number_is_no_clock() -> None:
    assert read_clock(toks("ligar pra Ana"), 0) is None
    assert read_clock(toks("ir a uma festa"), 1) is None
