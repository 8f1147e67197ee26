"""Readers one chat word away from what they were built on (issue 41's discipline, after the
first run of the blind understanding set): shorthand, a header line over a line list, a
correction of a reminder's time in other words."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.batches import read_batch
from agent.understanding.kinds import correction
from agent.understanding.reminders import SetReminder, parse
from agent.understanding.reminders.asks import ChangeAsk, read_ask
from agent.understanding.watchlist import ListRequest, SuggestRequest, read

NOW = datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))


@pytest.mark.parametrize(
    ("message", "due", "what"),
    [
        ("me lembra amn as 15h de ligar pro dentista", "2026-01-06 15:00", "ligar pro dentista"),
        ("me lembra amnha 9h de pagar o boleto", "2026-01-06 09:00", "pagar o boleto"),
    ],
)
def test_tomorrow_in_shorthand_is_tomorrow_never_today(message: str, due: str, what: str) -> None:
    """It was read as today at that time, "amn" left in the text: a day early."""
    parsed = parse(message, NOW, month_first=False, country="BR")
    assert isinstance(parsed, SetReminder)
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == due
    assert parsed.what == what


@pytest.mark.parametrize(
    ("message", "when"),
    [
        ("opa errei, é as 17h30", "as 17h30"),
        ("actually make it 8pm", "8pm"),
        ("ops, na verdade é 17h", "17h"),
        ("sorry, I meant 9pm", "9pm"),
        ("no, make it tomorrow at 9", "tomorrow at 9"),
    ],
)
def test_a_reminder_retimed_in_passing_is_read_to_its_time_words(message: str, when: str) -> None:
    assert read_ask(message) == ChangeAsk("", when)


def test_watchlist_questions_in_shorthand() -> None:
    assert read("oq falta ver?") == read("o que falta ver?")
    assert isinstance(read("oq falta ver?"), ListRequest)
    assert isinstance(read("oq eu vejo hj?"), SuggestRequest)


def test_a_correction_in_shorthand() -> None:
    assert correction("na vdd é uma serie") == "tv_show"
    assert correction("q é uma serie") is None


@pytest.mark.parametrize(
    ("message", "pieces"),
    [
        (
            "coloca na lista esses aqui\neduardo e monica\nbacurau\naquarius",
            ("eduardo e monica", "bacurau", "aquarius"),
        ),
        (
            "put these on my list:\n- Dumb and Dumber\n- Heat\n- Alien",
            ("Dumb and Dumber", "Heat", "Alien"),
        ),
        ("salva os filmes:\n- Marley e Eu\n- Lilo e Stitch", ("Marley e Eu", "Lilo e Stitch")),
        ("salva Duna, Matrix e Tenet", ("Duna", "Matrix", "Tenet")),
    ],
)
def test_a_line_list_is_one_title_a_line_under_its_header(
    message: str, pieces: tuple[str, ...]
) -> None:
    batch = read_batch(message)
    assert batch is not None
    assert batch.pieces == pieces
