"""A weekday's agenda answered from the reminders due that day ("tenho algo pra quinta?",
"anything on saturday?", "e sexta?"), never a search of the items for the weekday's name.
The test clock starts on Monday 2026-01-05."""

from __future__ import annotations

from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.reminders.asks import ListAsk, Period, read_ask
from storage import Database
from tests.support.harness import open_lembra

PERIODS = {p for part in get_args(Period) for p in (get_args(part) or (part,))}


async def test_a_weekday_question_lists_that_days_reminders_only(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra quinta às 8h de levar o lixo reciclável")
        await lembra.say("me lembra sexta às 19h de jantar com a Lu")
        await lembra.say("anota: quinta é feriado na cidade")  # an item naming the day
        reply = await lembra.say("o que eu tenho marcado pra quinta-feira?")
        assert "levar o lixo" in reply.text
        assert "jantar" not in reply.text
        assert "feriado" not in reply.text
        again = await lembra.say("e sexta?")
        assert "jantar com a Lu" in again.text
        assert "levar o lixo" not in again.text


async def test_in_english_an_empty_weekday_says_so(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("remind me thursday at 6pm to pick up the kids")
        reply = await lembra.say("anything scheduled for saturday?")
        assert "Saturday" in reply.text
        assert "pick up" not in reply.text
        assert "pick up the kids" in (await lembra.say("what do i have on thursday?")).text


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["tenho algo pra ", "anything on ", "e ", "quais lembretes pra "]),
    st.text(max_size=30),
)
def test_the_agenda_reader_never_raises(lead: str, rest: str) -> None:
    asked = read_ask(lead + rest + "?")
    assert not isinstance(asked, ListAsk) or asked.period is None or asked.period in PERIODS


@pytest.mark.parametrize(
    ("said", "period"),
    [
        ("o q eu tenho essa semana?", "this_week"),
        ("o que eu tenho hoje?", "today"),
        ("what do i have today?", "today"),
        ("what do i have this week?", "this_week"),
        ("whats on for tomorrow?", "tomorrow"),
    ],
)
def test_what_the_user_has_on_a_day_is_the_agenda(said: str, period: str) -> None:
    assert read_ask(said) == ListAsk(period=period)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "said", ["o que eu tenho salvo hoje?", "o que eu salvei essa semana?", "what did i save today?"]
)
def test_what_was_saved_on_a_day_is_no_agenda(said: str) -> None:
    assert read_ask(said) is None


async def test_what_the_user_has_this_week_lists_the_reminders(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra quinta 10h de pagar o condomínio")
        await lembra.say("salva o filme Heat")
        week = await lembra.say("o q eu tenho essa semana?")
        assert "pagar o condomínio" in week.text
        assert "Heat" not in week.text
        saved = await lembra.say("o que eu salvei essa semana?")
        assert "Heat" in saved.text
