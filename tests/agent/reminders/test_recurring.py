"""Repeating reminders and partial readings, one test per shape (issue 43).

Now is Monday 2026-01-05 10:00 in São Paulo unless a test says otherwise.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.reminders import AskWhen, SetReminder, parse, route
from agent.understanding.reminders.rules import occurrences

SP = ZoneInfo("America/Sao_Paulo")
NOW = datetime(2026, 1, 5, 10, 0, tzinfo=SP)


def first_three(message: str, now: datetime = NOW) -> tuple[str, list[str], str]:
    assert route(message) is not None, message
    parsed = parse(message, now)
    assert isinstance(parsed, SetReminder), parsed
    assert parsed.rule is not None, parsed
    times = [a.strftime("%Y-%m-%d %H:%M") for a in occurrences(parsed.rule, parsed.due)]
    return parsed.rule.rrule, times, parsed.what


@pytest.mark.parametrize(
    ("message", "rule", "first", "what"),
    [
        ("todo dia às 8h me lembra de tomar o remédio", "FREQ=DAILY", "2026-01-06 08:00", "tomar o remédio"),
        ("remind me every day at 7pm to walk the dog", "FREQ=DAILY", "2026-01-05 19:00", "walk the dog"),
        ("me lembra nos dias úteis às 9 de bater o ponto", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-01-06 09:00", "bater o ponto"),
        ("remind me every weekday at 9am to stand up", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-01-06 09:00", "stand up"),
        ("me lembra toda segunda às 10 da reunião", "FREQ=WEEKLY;BYDAY=MO", "2026-01-12 10:00", "reunião"),
        ("remind me every tuesday and thursday at 6:30pm to go running", "FREQ=WEEKLY;BYDAY=TU,TH", "2026-01-06 18:30", "go running"),
        ("me lembra todo dia 5 de pagar o aluguel", "FREQ=MONTHLY;BYMONTHDAY=5", "2026-02-05 09:00", "pagar o aluguel"),
        ("remind me on the 15th of every month to pay rent", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-01-15 09:00", "pay rent"),
        ("me lembra toda primeira segunda do mês de revisar as contas", "FREQ=MONTHLY;BYDAY=1MO", "2026-02-02 09:00", "revisar as contas"),
        ("remind me on the last friday of every month to send the report", "FREQ=MONTHLY;BYDAY=-1FR", "2026-01-30 09:00", "send the report"),
        ("me lembra a cada 3 dias de regar as plantas", "FREQ=DAILY;INTERVAL=3", "2026-01-06 09:00", "regar as plantas"),
        ("remind me every other day at 8 to stretch", "FREQ=DAILY;INTERVAL=2", "2026-01-06 08:00", "stretch"),
        ("me lembra todo mês no dia 10 às 8h de pagar a escola", "FREQ=MONTHLY;BYMONTHDAY=10", "2026-01-10 08:00", "pagar a escola"),
        ("remind me every May 5th to call grandma", "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=5", "2026-05-05 09:00", "call grandma"),
        ("me lembra toda noite às 21h de tomar o remédio", "FREQ=DAILY", "2026-01-05 21:00", "tomar o remédio"),
        ("remind me to drink water every 2 hours", "FREQ=HOURLY;INTERVAL=2", "2026-01-05 12:00", "drink water"),
        # chat's short weekdays and spellings
        ("me lembra toda qui 18h de pôr o lixo pra fora", "FREQ=WEEKLY;BYDAY=TH", "2026-01-08 18:00", "pôr o lixo pra fora"),
        ("remind me evry fri at 5pm to log my hours", "FREQ=WEEKLY;BYDAY=FR", "2026-01-09 17:00", "log my hours"),
        ("remind me wkdays at 8am to check the mail", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-01-06 08:00", "check the mail"),
        ("remind me every 1st and 3rd tuesday at 7pm to go to choir", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-01-06 19:00", "go to choir"),
        ("me lembra toda segunda e quarta sexta do mês de ir à feira", "FREQ=MONTHLY;BYDAY=2FR,4FR", "2026-01-09 09:00", "ir à feira"),
        ("remind me every month on the 10th and 25th at 8am to pay the card", "FREQ=MONTHLY;BYMONTHDAY=10,25", "2026-01-10 08:00", "pay the card"),
    ],
)  # fmt: skip
def test_a_repeating_shape_gives_its_rule_first_time_and_text(
    message: str, rule: str, first: str, what: str
) -> None:
    read_rule, times, read_what = first_three(message)
    assert (read_rule, times[0], read_what) == (rule, first, what)


def test_until_a_date_and_n_times_end_the_rule() -> None:
    parsed = parse("me lembra todo dia às 22h até 07/01 de tomar remédio", NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.rule is not None
    assert len(occurrences(parsed.rule, parsed.due, limit=10)) == 3  # the 5th, 6th and 7th
    counted = parse("remind me every day at 8 to run 3 times", NOW)
    assert isinstance(counted, SetReminder)
    assert counted.rule is not None
    assert counted.rule.count == 3
    assert counted.what == "run"
    weeks = parse("me lembra toda terça e quinta às 7 por 2 semanas de correr", NOW)
    assert isinstance(weeks, SetReminder)
    assert weeks.rule is not None
    assert len(occurrences(weeks.rule, weeks.due, limit=10)) == 4
    month_end = parse("me lembra toda segunda às 8h até o fim de fevereiro de levar o lixo", NOW)
    assert isinstance(month_end, SetReminder)
    assert month_end.rule is not None
    assert month_end.what == "levar o lixo"
    assert len(occurrences(month_end.rule, month_end.due, limit=20)) == 7  # Jan 12 .. Feb 23
    english = parse("remind me every monday at 8 until end of feb to take out the trash", NOW)
    assert isinstance(english, SetReminder)
    assert english.rule is not None
    assert english.what == "take out the trash"
    assert len(occurrences(english.rule, english.due, limit=20)) == 7


@pytest.mark.parametrize(
    "message",
    ["me lembra toda semana de ligar pro pai", "remind me every month to check the car"],
)
def test_a_rule_with_no_day_asks_which_day_to_start(message: str) -> None:
    asked = parse(message, NOW)
    assert isinstance(asked, AskWhen)
    assert asked.rule is not None
    assert 2 <= len(asked.options) <= 3


@pytest.mark.parametrize(
    "message",
    [
        "remind me monday next week at 9 about the weekly meeting",
        "remind me to take my daily pill at 9",
        "remind me 2 saturdays from now to call",
        "me lembra amanhã às 9 de levar o relatório mensal",
    ],
)
def test_words_of_the_task_are_no_repetition(message: str) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.rule is None


@pytest.mark.parametrize(
    ("message", "due"),
    [
        ("me lembra dps de amanhã de pagar", "2026-01-07 09:00"),
        ("me lembra quarta q vem de pagar", "2026-01-14 09:00"),
        ("me lembra amanhã 15.30 de pagar", "2026-01-06 15:30"),
        ("remind me 2moro at 9 to pay", "2026-01-06 09:00"),
        ("remind me tmrw at 9 to pay", "2026-01-06 09:00"),
        ("me lenbra amanhã às 9 de pagar", "2026-01-06 09:00"),
        ("remnd me tomorrow at 9 to pay", "2026-01-06 09:00"),
    ],
)
def test_shapes_that_were_read_partly_are_read_whole(message: str, due: str) -> None:
    assert route(message) is not None
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder), parsed
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == due
    assert parsed.what in ("pagar", "pay")


@pytest.mark.parametrize(
    "message",
    [
        "me lembra amanhã umas 3 de pagar",
        "remind me like tomorrow at 9 to pay",
        "remind me a week from friday to pay",
        "me lembra amanhã depois do almoço de pagar",
        "remind me after lunch to pay",
        "me lembra amanhã à noitinha de pagar",
        "me lembra amanhã à tardinha de pagar",
        "me lembra amanhã no fim do dia de pagar",
        "remind me tomorrow end of day to pay",
        "me lembra quinta à tarde de pagar",
        "remind me saturday morning to pay",
        "me lembra daqui a 2 dias à noite de pagar",
    ],
)
def test_time_words_left_unread_get_a_question_never_an_early_reminder(message: str) -> None:
    asked = parse(message, NOW)
    assert isinstance(asked, AskWhen), asked
    assert 2 <= len(asked.options) <= 3
    assert all(o > NOW for o in asked.options)
    assert asked.what in ("pagar", "pay")


# -- never early: a property over generated messages ----------------------------------------

_ZONES = ("America/Sao_Paulo", "America/New_York", "Europe/Lisbon")
_WEEKDAYS = ("segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo")
# (words, days from today of the earliest day they may mean, or None for a weekday)
_DAYS = [("amanhã", 1), ("depois de amanhã", 2), ("dps de amanhã", 2), ("daqui a 3 dias", 3)]
_NOISE = ["", "umas", "q vem", "dps", "lá pelas", "tipo"]


def _earliest(day_words: str, weekday: int | None, next_week: bool, now: datetime) -> datetime:
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if weekday is None:
        ahead = dict(_DAYS)[day_words]
        return today + timedelta(days=ahead)
    if next_week:  # "sexta que vem": some day of next week
        return today + timedelta(days=7 - now.weekday())
    return today + timedelta(days=(weekday - now.weekday()) % 7)


@settings(max_examples=100, deadline=None)
@given(
    zone=st.sampled_from(_ZONES),
    minutes=st.integers(0, 364 * 24 * 60),
    day=st.one_of(st.sampled_from(_DAYS), st.tuples(st.sampled_from(_WEEKDAYS), st.none())),
    next_week=st.booleans(),
    hour=st.one_of(st.none(), st.integers(1, 23)),
    noise=st.sampled_from(_NOISE),
    noise_after=st.booleans(),
)
def test_no_reminder_is_due_before_the_earliest_instant_its_words_allow(
    zone: str,
    minutes: int,
    day: tuple[str, int | None],
    next_week: bool,
    hour: int | None,
    noise: str,
    noise_after: bool,
) -> None:
    now = datetime(2026, 1, 1, tzinfo=ZoneInfo(zone)) + timedelta(minutes=minutes)
    words, offset = day
    weekday = _WEEKDAYS.index(words) if offset is None else None
    if weekday is not None and next_week:
        words += " que vem"
    clock = f" às {hour}" if hour is not None else ""
    when = f"{noise} {words}{clock}" if not noise_after else f"{words}{clock} {noise}"
    parsed = parse(f"me lembra {when.strip()} de pagar a conta", now)
    earliest = _earliest(day[0], weekday, weekday is not None and next_week, now)
    if hour is not None:
        earliest = max(earliest, earliest.replace(hour=hour % 12))
    if isinstance(parsed, SetReminder):
        assert parsed.due.timestamp() >= earliest.timestamp(), (when, parsed.due, earliest)
    elif isinstance(parsed, AskWhen):
        assert parsed.options


# -- outside input never raises -------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(text=st.text(max_size=120))
def test_reading_any_text_or_rrule_never_raises(text: str) -> None:
    from agent.understanding.reminders.asks import read_ask
    from agent.understanding.reminders.repeating import read_repeat
    from agent.understanding.reminders.rules import read_rrule

    read_ask(text)
    read_repeat(text.lower())
    read_rrule(text, SP)
    parse(f"me lembra todo dia {text}", NOW)
    parse(f"remind me every {text}", NOW)


_PARTS = st.sampled_from(
    ["FREQ=DAILY", "FREQ=WEEKLY", "FREQ=MONTHLY", "FREQ=YEARLY", "FREQ=HOURLY", "FREQ=MINUTELY",
     "INTERVAL=0", "INTERVAL=3", "BYDAY=MO,FR", "BYDAY=-1SU", "BYDAY=9XX", "BYMONTHDAY=31",
     "BYMONTHDAY=-1", "BYMONTHDAY=99", "BYMONTH=2", "BYMONTH=13", "COUNT=2", "COUNT=-1",
     "UNTIL=20260110", "UNTIL=2026", "BYSETPOS=1", "WKST=MO"]
)  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(parts=st.lists(_PARTS, min_size=1, max_size=4))
def test_an_rrule_a_model_writes_is_checked_or_refused_and_its_occurrences_are_ordered(
    parts: list[str],
) -> None:
    from agent.understanding.reminders.rules import read_rrule

    rule = read_rrule(";".join(parts), SP)
    if rule is None:
        return
    found = occurrences(rule, NOW, limit=3)
    assert [a.timestamp() for a in found] == sorted({a.timestamp() for a in found})


@pytest.mark.parametrize(
    ("message", "due"),
    [("me lembra na black friday de pagar", "2026-11-27 09:00"),
     ("remind me on cyber monday at 8am to pay", "2026-11-30 08:00"),
     ("me lembra na terça gorda de pagar", "2026-02-17 09:00")],
)  # fmt: skip
def test_holidays_named_by_a_weekday_are_their_date_not_that_weekday(
    message: str, due: str
) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder), parsed
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == due
    assert parsed.what in ("pagar", "pay")


@pytest.mark.parametrize(
    "message",
    [
        "de vez em qdo me lembra de alongar",
        "remind me every couple of days to call grandma",
        "4 times a day remind me to drink water",
    ],
)
def test_how_often_without_a_rule_to_read_is_asked(message: str) -> None:
    asked = parse(message, NOW)
    assert isinstance(asked, AskWhen), asked
    assert asked.reason == "vague"


@pytest.mark.parametrize(
    ("message", "count"),
    [("toda quinta 18h aula de francês, nas próximas 5 aulas", 5),
     ("every tuesday at 7pm choir, for the next 3 sessions", 3)],
)  # fmt: skip
def test_a_count_of_what_repeats_named_ends_the_rule(message: str, count: int) -> None:
    """ "for the next 3 sessions": as many occurrences as that, then no more."""
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.rule is not None
    assert parsed.rule.count == count


@pytest.mark.parametrize(
    ("message", "first", "what"),
    [("toda sexta 20h pôquer com a galera, começa semana que vem", "2026-01-16 20:00",
      "pôquer com a galera"),
     ("every monday at 7am swim practice, starts on the 19th", "2026-01-19 07:00",
      "swim practice")],
)  # fmt: skip
def test_a_start_said_as_a_statement_after_the_rule_starts_it(
    message: str, first: str, what: str
) -> None:
    """ "começa semana que vem" after the rule: its first day, never words of the task."""
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert (parsed.due.strftime("%Y-%m-%d %H:%M"), parsed.what) == (first, what)
