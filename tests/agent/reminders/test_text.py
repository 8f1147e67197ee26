"""The text of a reminder (issue 43): the activity, without the time words, the words that
only spoke of the time, the request verb (typed with a slip) or the glue."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.reminders import AskWhen, SetReminder, parse

NOW = datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))  # a Monday


@pytest.mark.parametrize(
    ("message", "what"),
    [
        # words left at the task's edge that only said something about the time
        ("a cada 3 dias às 20h trocar a água das flores, a partir de hoje",
         "trocar a água das flores"),
        ("me lembra de 8 em 8 horas de tomar o antibiótico começando às 14h",
         "tomar o antibiótico"),
        ("every 3 days at 8pm starting today change the cat litter", "change the cat litter"),
        ("every 12 hours starting 8pm tonight, 4 times, eye drops", "eye drops"),
        ("todo dia de semana às 12h almoçar longe do pc", "almoçar longe do pc"),
        ("nos finais de semana às 20h ligar pros meus pais", "ligar pros meus pais"),
        # an end day is every word of it
        ("todo dia às 21h até dia 3 de março passar a pomada", "passar a pomada"),
        # a meal after a clock is the task
        ("amanhã meio dia almoço com o Rafa", "almoço com o Rafa"),
        ("tomorrow noon lunch with Ann", "lunch with Ann"),
        # a frequency word that names the thing, when other words say the rule
        ("every monday at 9am send the weekly report", "send the weekly report"),
        ("todo dia às 9h mandar o relatório diário", "mandar o relatório diário"),
        ("daily at 8 am walk the dog", "walk the dog"),
        # the request verb, typed with a slip or said another way
        ("me lembar dia 15 às 14h de pagar o IPTU", "pagar o IPTU"),
        ("remidn me tomorrow 8am gym", "gym"),
        ("rmd me fri 3pm dentist", "dentist"),
        ("lembra eu sexta às 18h de comprar o presente", "comprar o presente"),
        # what stays: a task that merely contains such words
        ("me lembra amanhã às 9h de ler o último capítulo", "ler o último capítulo"),
        ("amanhã 15h dia de faxina", "dia de faxina"),
    ],
)  # fmt: skip
def test_the_text_is_the_activity(message: str, what: str) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder), parsed
    assert parsed.what == what


def test_a_lunch_without_a_clock_is_still_a_time() -> None:
    parsed = parse("me lembra amanhã no almoço de ligar pro Pedro", NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.due == NOW.replace(day=6, hour=12)
    assert parsed.what == "ligar pro Pedro"


@pytest.mark.parametrize(
    "message",
    ["amanhã às 25h ligar pro João", "tmrw at 25:00 call mom", "me lembra hoje 9h75 de X"],
)
def test_a_clock_the_grammar_cannot_read_is_asked_never_dropped(message: str) -> None:
    """Never the day's 09:00 with "às 25h" left in the text: a question with 2-3 choices."""
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen), parsed
    assert 2 <= len(parsed.options) <= 3
    assert all(o > NOW for o in parsed.options)
    assert "25" not in parsed.what


def test_the_weekend_said_short_or_plural() -> None:
    asked = parse("no fds me lembra de lavar o carro", NOW)
    assert isinstance(asked, AskWhen)
    assert (asked.reason, asked.what) == ("period", "lavar o carro")
    weekly = parse("nos finais de semana às 20h ligar pros meus pais", NOW)
    assert isinstance(weekly, SetReminder)
    assert weekly.rule is not None
    assert "BYDAY=SA,SU" in weekly.rule.rrule


@pytest.mark.parametrize(
    "message",
    ["quarta de cinzas me lembra de voltar pra dieta", "remind me on ash wednesday to fast"],
)
def test_ash_wednesday_is_a_day_of_its_own_not_a_wednesday(message: str) -> None:
    parsed = parse(message, NOW, country="BR")
    assert isinstance(parsed, SetReminder)
    assert parsed.due == NOW.replace(month=2, day=18, hour=9)  # Easter 2026-04-05 minus 46 days


def test_on_the_nth_is_a_day_whatever_follows() -> None:
    parsed = parse("remind me on the 15th pay the water bill", NOW)
    assert isinstance(parsed, SetReminder)
    assert (parsed.due, parsed.what) == (NOW.replace(day=15, hour=9), "pay the water bill")
    chapter = parse("remind me tomorrow to read the 3rd chapter", NOW)
    assert isinstance(chapter, SetReminder)
    assert chapter.what == "read the 3rd chapter"
