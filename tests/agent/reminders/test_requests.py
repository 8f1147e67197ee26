"""Which messages ask for a reminder, and what is left to remember (issue 36)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from agent.understanding.reminders import AskWhen, SetReminder, parse, route, untimed

NOW = datetime(2026, 3, 18, 14, 20, tzinfo=ZoneInfo("America/Sao_Paulo"))
TIME_WORDS = [
    "amanhã", "às", "3", "15h", "de", "manhã", "noite", "tonight", "at", "pm", "sexta", "seg",
    "dia", "15", "/", "maio", "next", "week", "semana", "que", "vem", "em", "daqui", "a",
    "minutos", "hours", "in", "1/2", "PST", "GMT-3", "natal", "primeira", "terça", "of",
    "quinze", "para", "as", "oito", "meio-dia", "e", "meia", "quarter", "past", ",", "2014",
]  # fmt: skip


@pytest.mark.parametrize(
    ("message", "what"),
    [
        ("me lembra às 15 horas de pagar a conta", "pagar a conta"),
        ("me lembra de pagar a conta às 15 horas", "pagar a conta"),
        ("me lembra amanhã de ligar às 9h pro médico", "ligar pro médico"),
        ("remind me Thursday 8:00 PST to join the call", "join the call"),
        ("remind me at 3p to stretch", "stretch"),
        ("me lembra dia 15 de agosto às 10h de renovar", "renovar"),
        ("me lembra sexta, 12 de setembro de 2027, de pagar", "pagar"),
        ("remind me to do the exam on the 8th", "do the exam"),
        (
            "me lembra de ligar pro João sobre a reunião das 15h amanhã",
            "ligar pro João sobre a reunião",
        ),
        ("lembrete pra mim: a consulta do dentista é dia 12", "a consulta do dentista"),
        ("remind me in 7 days at 5pm to water the plants", "water the plants"),
        ("me lembra às 15.30 de pagar a conta", "pagar a conta"),
        ("me lembra de pagar 12.50 amanhã", "pagar 12.50"),
        ("remind me today in one hour to pay the bill", "pay the bill"),
    ],
)
def test_every_time_word_is_cut_from_the_reminder(message: str, what: str) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder | AskWhen)
    assert parsed.what == what


@pytest.mark.parametrize(
    ("message", "due", "what"),
    [
        ("remind me at 5 30 in the afternoon to pay the bill", (18, 17, 30), "pay the bill"),
        ("remind me at 5 30 tomorrow to pay the bill", (19, 17, 30), "pay the bill"),
        ("me lembra às 5 30 amanhã de pagar a conta", (19, 17, 30), "pagar a conta"),
        ("me lembra às 5 30 h de pagar a conta", (18, 17, 30), "pagar a conta"),
        ("remind me at 5 30 and call mom", (18, 17, 30), "call mom"),
        ("me lembra amanhã das 5 30 às 6 de pagar a conta", (19, 17, 30), "pagar a conta"),
        ("me lembra das 5 30 às 6 da tarde de pagar a conta", (18, 17, 30), "pagar a conta"),
        ("remind me tomorrow from 8 15 to 9 am to stretch", (19, 8, 15), "stretch"),
    ],
)
def test_spoken_minutes_before_more_of_the_time(
    message: str, due: tuple[int, int, int], what: str
) -> None:
    """ "at 5 30 tomorrow" is 17:30, not 17:00 with "30" left in the text."""
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    day, hour, minute = due
    assert parsed.due == NOW.replace(day=day, hour=hour, minute=minute)
    assert parsed.what == what


def test_a_period_is_routed_as_a_reminder_and_a_question_is_not() -> None:
    assert route("me lembra semana que vem de pagar o IPVA") == (
        "remind",
        "me lembra semana que vem de pagar o IPVA",
    )
    assert route("lembra do filme que salvei?") is None


@pytest.mark.parametrize(
    "message",
    [
        "me lembra de renovar o seguro do carro",
        "lembra eu de devolver a furadeira pro vizinho",
        "me avisa pra trocar o óleo",
        "remind me to call the vet",
        "please remind me about the tax form",
        "não me deixa esquecer de levar o guarda-chuva",
    ],
)
def test_a_reminder_request_with_no_time_is_a_reminder_that_asks_when(message: str) -> None:
    assert route(message) == ("remind", message)
    asked = untimed(message, NOW)
    assert asked.reason == "no_time"
    assert len(asked.options) >= 2


@pytest.mark.parametrize(
    "message",
    ["me lembra que a senha do wifi é tigre42", "lembra de mim?", "remind me what I saved"],
)
def test_a_fact_or_a_question_after_the_reminder_verb_is_not_an_untimed_reminder(
    message: str,
) -> None:
    assert route(message) is None


def test_a_reminder_without_a_time_asks_when() -> None:
    asked = untimed("/remind pagar a conta", NOW)
    assert asked.reason == "no_time"
    assert asked.what == "pagar a conta"
    assert len(asked.options) == 3
    assert all(o > NOW for o in asked.options)


# the calendar's edges: big amounts and years, midnight, month ends, summer time changes
EDGE_WORDS = [
    "31/12/9999", "9999-12-31", "1/1/0001", "12/31/2200", "99999", "9999999999", "anos", "years",
    "dias", "days", "meses", "24h", "0h", "meia-noite", "midnight", "12am", "12pm", "31",
    "29/02", "31/02", "2200", "1900", ".", "00:00", "23:59", "hoje", "today", "madrugada",
]  # fmt: skip
NOWS = [
    NOW,
    datetime(2025, 1, 31, 23, 59, tzinfo=ZoneInfo("America/Sao_Paulo")),  # a month's last minute
    datetime(2025, 11, 1, 22, 0, tzinfo=ZoneInfo("America/New_York")),  # the night clocks go back
    datetime(2025, 3, 29, 23, 30, tzinfo=ZoneInfo("Europe/Lisbon")),  # the night clocks go forward
    datetime(2200, 12, 31, 23, 0, tzinfo=ZoneInfo("UTC")),  # the last year a date may name
]


# shapes that reach the calendar arithmetic with extreme values
AMOUNTS = st.tuples(
    st.sampled_from(["em", "daqui a", "in", "há", ""]),
    st.integers(0, 10**12).map(str) | st.sampled_from(["1.5", "2,5", "1/2", "3/4"]),
    st.sampled_from(["anos", "meses", "semanas", "dias", "horas", "minutos", "years", "days"]),
    st.sampled_from(["", "às 10h", "at 5pm", "à meia-noite", "from now"]),
).map(" ".join)
DATES = st.tuples(
    st.integers(0, 40).map(str),
    st.sampled_from(["/", "-", "."]),
    st.integers(0, 40).map(str),
    st.sampled_from(["", "/1", "/0001", "/2200", "/9999", "/99"]),
    st.sampled_from(["", " às 2 da noite", " à meia-noite", " at 11pm PST", " às 24h", " 0h"]),
).map("".join)


@settings(max_examples=400, deadline=None)
@given(
    text=st.text(max_size=60)
    | st.lists(st.sampled_from(TIME_WORDS + EDGE_WORDS), max_size=12).map(" ".join)
    | AMOUNTS
    | DATES,
    now=st.sampled_from(NOWS),
    month_first=st.booleans(),
)
@example(text="2/29/01", now=NOW, month_first=False)  # an impossible date in a year past
def test_any_text_is_read_without_raising(text: str, now: datetime, month_first: bool) -> None:
    """Outside input: whatever the words and the moment, reading never raises and never sets
    or offers a time already past."""
    for message in (text, f"me lembra {text} de x", f"remind me {text} to x"):
        route(message)
        parsed = parse(message, now, month_first=month_first, country="BR")
        if isinstance(parsed, SetReminder):
            assert parsed.due.timestamp() >= now.timestamp(), message
        if isinstance(parsed, AskWhen):
            assert parsed.options
            assert all(o.timestamp() > now.timestamp() for o in parsed.options), message


@pytest.mark.parametrize(
    ("message", "what"),
    [
        ("vc pode me lembrar quinta às 10 de renovar o seguro?", "renovar o seguro"),
        ("could you remind me on friday at 4pm to water the plants?", "water the plants"),
        ("consegue me lembrar amanhã às 7 de levar o lixo", "levar o lixo"),
        ("sexta às 18h me lembra de buscar a encomenda", "buscar a encomenda"),
        ("toda segunda às 8h me lembra da planilha", "planilha"),
    ],
)
def test_a_polite_or_timed_lead_before_the_verb_is_still_a_request(message: str, what: str) -> None:
    assert route(message) is not None
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder), parsed
    assert parsed.what == what


def test_a_reminder_request_with_only_a_question_mark_has_no_task() -> None:
    parsed = parse("me lembra amanhã?", NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.what == ""


def test_the_same_time_on_another_day_is_nows_clock_on_that_day() -> None:
    for message, due, what in (
        (
            "amanhã no mesmo horário me lembra de tomar o antibiótico",
            "2026-03-19 14:20",
            "tomar o antibiótico",
        ),
        (
            "remind me same time on friday to water the plants",
            "2026-03-20 14:20",
            "water the plants",
        ),
    ):
        parsed = parse(message, NOW)
        assert isinstance(parsed, SetReminder), message
        assert (parsed.due.strftime("%Y-%m-%d %H:%M"), parsed.what) == (due, what)


@pytest.mark.parametrize(
    ("message", "first", "last"),
    [
        # NOW is Wednesday 18/03 14:20: a deadline asks, the day before or the day itself
        ("me lembra até segunda de renovar o seguro", "2026-03-22 09:00", "2026-03-23 09:00"),
        ("by saturday remind me to return the drill", "2026-03-20 09:00", "2026-03-21 09:00"),
        (
            "me lembra antes das 18h de tirar a roupa do varal",
            "2026-03-18 17:00",
            "2026-03-18 18:00",
        ),
    ],
)
def test_a_deadline_asks_instead_of_reminding_at_the_deadline(
    message: str, first: str, last: str
) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen)
    shown = [o.strftime("%Y-%m-%d %H:%M") for o in parsed.options]
    assert (shown[0], shown[-1]) == (first, last)


def test_ate_naming_a_place_is_no_deadline() -> None:
    parsed = parse("me lembra sexta de ir até a padaria", NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.what == "ir até a padaria"


@pytest.mark.parametrize(
    ("message", "due", "what"),
    [
        # NOW is Wednesday 2026-03-18 14:20
        ("thursday 8pm?? no wait friday 8pm, poker night", "2026-03-20 20:00", "poker night"),
        (
            "me lembra quinta 20h, não pera, sexta 19h de levar o bolo",
            "2026-03-20 19:00",
            "levar o bolo",
        ),
        (
            "remind me on friday, wait no, saturday at 3pm to water the ferns",
            "2026-03-21 15:00",
            "water the ferns",
        ),
        (
            "me lembra sexta 10h ou melhor sábado 11h de lavar o carro",
            "2026-03-21 11:00",
            "lavar o carro",
        ),
    ],
)
def test_a_time_taken_back_in_the_same_message_gives_way_to_the_one_said_after(
    message: str, due: str, what: str
) -> None:
    # the first reading was the earlier day: a reminder set then would come before the one meant
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == due
    assert parsed.what == what


@pytest.mark.parametrize(
    ("message", "due", "what"),
    [
        # NOW is Wednesday 2026-03-18 14:20; the clock taken back was the earlier one
        ("me lembra de regar as plantas às 17h, na vdd 18h", "2026-03-18 18:00", "regar as plantas"),
        ("me lembra às 16h, quer dizer 17h, de ligar pro síndico", "2026-03-18 17:00",
         "ligar pro síndico"),
        ("remind me at 4pm, actually 5pm, to feed the fish", "2026-03-18 17:00", "feed the fish"),
        ("sexta às 9h consulta, não, às 11h", "2026-03-20 11:00", "consulta"),
        ("me lembra amanhã às 2 da tarde de buscar a Bia, na verdade 3", "2026-03-19 15:00",
         "buscar a Bia"),
        ("remind me at 4pm, actually make it 6, to walk the dog", "2026-03-18 18:00",
         "walk the dog"),
        ("me lembra amanhã às 15h de ligar pro Zé, na vdd deixa pras 16h", "2026-03-19 16:00",
         "ligar pro Zé"),
    ],
)  # fmt: skip
def test_a_clock_taken_back_gives_way_to_the_one_said_after(
    message: str, due: str, what: str
) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert (parsed.due.strftime("%Y-%m-%d %H:%M"), parsed.what) == (due, what)


@pytest.mark.parametrize(
    "message",
    ["me lembra amanhã às 9h de dizer não 10 vezes", "me lembra às 17h de comprar pão, na real 4 pães",
     "remind me at 5pm to tell him no 6pm is too late"],
)  # fmt: skip
def test_a_no_or_a_count_inside_the_task_keeps_the_clock(message: str) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.due.hour in (9, 17)


def test_words_between_a_time_and_a_correction_keep_the_time() -> None:
    # "não, na verdade sexta" after the task takes back nothing it can place: no time dropped
    parsed = parse("me lembra quinta 9h de ligar pro joão, não, na verdade, de ligar pra ana", NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == "2026-03-19 09:00"


@pytest.mark.parametrize(
    ("message", "meant"),
    [
        ("me lembra quinat às 8h de pagar o aluguel", datetime(2026, 3, 19, 8, 0)),
        ("remind me satruday at 10 to mow the lawn", datetime(2026, 3, 21, 10, 0)),
        ("me lembra dmingo 11h de ligar pra vó", datetime(2026, 3, 22, 11, 0)),
    ],
)
def test_a_day_word_with_a_slip_asks_between_that_day_and_the_time_as_written(
    message: str, meant: datetime
) -> None:
    # left unread, the slip set the clock today, before the day the user meant
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen)
    assert meant.replace(tzinfo=NOW.tzinfo) in parsed.options
    assert all(option > NOW for option in parsed.options)


@pytest.mark.parametrize(
    "message",
    ["me lembra de varrer o quintal às 17h", "me lembra de comprar sabão às 16h"],
)
def test_a_word_of_its_own_one_slip_from_a_day_word_keeps_the_time(message: str) -> None:
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert parsed.due.date() == NOW.date()
