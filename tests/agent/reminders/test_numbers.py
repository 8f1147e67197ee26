"""Numbers in words and digits, ordinals and fractions (issue 36)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from agent.understanding.reminders.numbers import cardinal, decimal, ordinal
from tests.agent.reminders.helpers import toks, whole


@pytest.mark.parametrize(
    ("text", "value"),
    [("15", 15), ("dezoito", 18), ("vinte e cinco", 25), ("twenty-five", 25), ("forty two", 42),
     ("uma", 1), ("quinze", 15), ("cinquenta e nove", 59)],
)  # fmt: skip
def test_cardinals_in_digits_and_words(text: str, value: int) -> None:
    assert whole(cardinal, text) == value


def test_a_cardinal_stops_where_the_number_ends() -> None:
    assert cardinal(toks("quinze minutos"), 0) == (15, 1)
    assert cardinal(toks("vinte e tomar"), 0) == (20, 1)
    assert cardinal(toks("minutos"), 0) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [("1º", 1), ("2ª", 2), ("3rd", 3), ("21st", 21), ("primeira", 1), ("terceiro", 3),
     ("twenty-first", 21), ("fifth", 5), ("last", -1), ("última", -1)],
)  # fmt: skip
def test_ordinals(text: str, value: int) -> None:
    assert whole(ordinal, text) == value


def test_a_spaced_suffix_is_no_ordinal() -> None:
    assert ordinal(toks("3 rd"), 0) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [("2,5", Fraction(5, 2)), ("2.5", Fraction(5, 2)), ("1/2", Fraction(1, 2)),
     ("3/4", Fraction(3, 4)), ("90", Fraction(90))],
)  # fmt: skip
def test_amounts_with_fractions(text: str, value: Fraction) -> None:
    assert whole(decimal, text) == value


def test_a_date_is_no_fraction() -> None:
    assert decimal(toks("15/03"), 0) is None
