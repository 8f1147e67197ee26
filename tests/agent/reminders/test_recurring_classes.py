"""Repeating requests the blind run missed (issue 43, remind2): joined weekdays, every other
weekday, business days, nth weekday, "dia 21" vs "21h", shorthand, ends, two times a day,
vague repetition (asked), and repetition-led messages without a reminder verb."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.reminders import AskWhen, SetReminder, parse, route
from agent.understanding.reminders.rules import occurrences

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 1, 5, 10, 0, tzinfo=SP)  # a Monday


def read(message: str) -> tuple[str, list[str], str]:
    got = parse(message, NOW)
    assert isinstance(got, SetReminder), got
    assert got.rule is not None, got
    times = [a.strftime("%Y-%m-%d %H:%M") for a in occurrences(got.rule, got.due, limit=3)]
    return got.rule.full(), times, got.what


@pytest.mark.parametrize(
    ("message", "rule", "first", "what"),
    [
        ("terças e quintas às 7h natação", "FREQ=WEEKLY;BYDAY=TU,TH", "2026-01-06 07:00", "natação"),
        ("seg, qua e sex 6h30 correr", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-01-07 06:30", "correr"),
        ("mon wed fri at 7pm gym", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-01-05 19:00", "gym"),
        ("segunda sim, segunda não às 8h reunião", "FREQ=WEEKLY;BYDAY=MO;INTERVAL=2",
         "2026-01-12 08:00", "reunião"),
        ("every other monday at 9am team sync", "FREQ=WEEKLY;BYDAY=MO;INTERVAL=2",
         "2026-01-12 09:00", "team sync"),
        ("primeiro dia útil do mês às 9h pagar", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1",
         "2026-02-02 09:00", "pagar"),
        ("último dia útil do mês às 18h fechar o caixa",
         "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-01-30 18:00", "fechar o caixa"),
        ("second tuesday of every month at 10am book club", "FREQ=MONTHLY;BYDAY=2TU",
         "2026-01-13 10:00", "book club"),
        ("last friday of the month at 5pm timesheet", "FREQ=MONTHLY;BYDAY=-1FR",
         "2026-01-30 17:00", "timesheet"),
        ("nos próximos 3 sábados às 9h feira", "FREQ=WEEKLY;BYDAY=SA;COUNT=3",
         "2026-01-10 09:00", "feira"),
        ("todo dia 21h ligar pra mãe", "FREQ=DAILY", "2026-01-05 21:00", "ligar pra mãe"),
        ("td dia as 19h tomar remedio", "FREQ=DAILY", "2026-01-05 19:00", "tomar remedio"),
        ("todo dia às 12h e às 18h beber água", "FREQ=DAILY;BYHOUR=12,18", "2026-01-05 12:00",
         "beber água"),
        ("twice a day at 8am and 8pm take pills", "FREQ=DAILY;BYHOUR=8,20", "2026-01-05 20:00",
         "take pills"),
        ("todo dia útil às 18h lembrar de fechar o relatório", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
         "2026-01-05 18:00", "fechar o relatório"),
    ],
)  # fmt: skip
def test_a_repeating_request_gives_its_rule_first_time_and_text(
    message: str, rule: str, first: str, what: str
) -> None:
    full, times, text = read(message)
    assert (full, times[0], text) == (rule, first, what)


def test_an_end_day_after_a_daily_rule_keeps_the_first_time_next() -> None:
    full, times, _ = read("todo dia às 6h até domingo alongar")
    assert times == ["2026-01-06 06:00", "2026-01-07 06:00", "2026-01-08 06:00"]
    assert "UNTIL=20260112T025959Z" in full  # 2026-01-11 23:59:59 in São Paulo


@pytest.mark.parametrize(
    "message",
    [
        "toda tarde regar as plantas",
        "todo dia à noite ler",
        "remind me every evening to journal",
        "me lembra de vez em quando de beber água",
        "remind me regularly to check the mail",
        "me lembra várias vezes por dia de beber água",
        "2 vezes por dia tomar remédio",  # two times wanted, none given
        "me lembra todo dia às 8h e toda sexta às 18h de correr",  # rule words left unread
    ],
)
def test_vague_or_partly_read_repetition_is_asked_never_set(message: str) -> None:
    got = parse(message, NOW)
    assert isinstance(got, AskWhen), got
    assert got.options
    assert all(o > NOW for o in got.options)


@pytest.mark.parametrize(
    "message",
    ["todo dia 7h30 tomar o remédio da pressão", "toda sexta às 18h pagar a diarista",
     "every monday at 9am weekly report", "academia toda segunda às 7h"],
)  # fmt: skip
def test_a_message_led_by_a_repetition_routes_as_a_reminder(message: str) -> None:
    assert route(message) == ("remind", message)


@pytest.mark.parametrize(
    "message",
    ["anota: toda sexta tem feira", "salva toda sexta às 18h pagar a diarista",
     "anota: reunião segunda 10h", "a feira é toda sexta", "busca o que salvei toda sexta",
     "as tres sao series", "as 2 sao filmes"],  # a statement typed without accents
)  # fmt: skip
def test_a_note_or_a_save_that_mentions_a_repetition_stays_what_it_was(message: str) -> None:
    assert route(message) is None
