"""Reminders as people type them in chat (issue 43): a time (or a repetition) and one activity,
with no request verb, is a reminder; a note, a save, a question, a statement or a title is not."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.reminders import AskWhen, SetReminder, parse, route

NOW = datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))  # a Monday


@pytest.mark.parametrize(
    ("message", "due", "what"),
    [
        ("amanhã 15h dentista", "2026-01-06 15:00", "dentista"),
        ("reunião segunda 10h", "2026-01-12 10:00", "reunião"),
        ("hoje às 8 da noite pagar o pix do aluguel", "2026-01-05 20:00", "pagar o pix do aluguel"),
        ("daqui a 40 min tirar o bolo do forno", "2026-01-05 10:40", "tirar o bolo do forno"),
        ("tmrw 10am standup prep", "2026-01-06 10:00", "standup prep"),
        ("call mom tomorrow at 6pm", "2026-01-06 18:00", "call mom"),
        ("sunday 9am call dad", "2026-01-11 09:00", "call dad"),
        ("sexta 18h happy hour da firma", "2026-01-09 18:00", "happy hour da firma"),
    ],
)
def test_a_time_and_an_activity_is_a_reminder(message: str, due: str, what: str) -> None:
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert (parsed.due.strftime("%Y-%m-%d %H:%M"), parsed.what) == (due, what)


@pytest.mark.parametrize(
    "message", ["amanhã de manhã ir ao banco", "tomorrow evening call the landlord"]
)
def test_a_day_and_a_part_of_it_ask_which_hour(message: str) -> None:
    """docs/reminders.md: a part of the day without a clock is asked, with 2-3 of its hours
    on that day, never a guessed hour that may be earlier than meant."""
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen)
    assert 2 <= len(parsed.options) <= 3
    assert {o.date() for o in parsed.options} == {date(2026, 1, 6)}


@pytest.mark.parametrize(
    "message", ["next week call the plumber", "semana que vem ligar pro contador"]
)
def test_a_period_and_an_activity_is_asked(message: str) -> None:
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen)
    assert 2 <= len(parsed.options) <= 3
    assert all(o > NOW for o in parsed.options)


@pytest.mark.parametrize(
    "message",
    [
        "anota: reunião segunda 10h",  # a note
        "salva amanhã 15h dentista",  # a save
        "o que tenho amanhã",  # a question
        "o que tenho amanhã?",
        "quando é o dentista amanhã",
        "na verdade às 10",  # a change to the reminder just set
        "no, at 10 instead",
        "meeting at 5pm with Sam",  # the time inside the activity
        "a reunião é em 10 minutos",  # a statement of when
        "boleto vence dia 10",
        "quero ver o jogo domingo",  # a wish
        "já vi duna ontem",  # the past
        "vi Interestelar 10/10",  # a watchlist mark
        "filme pra ver sexta à noite",  # a saved thing's type
        "O dia depois de amanhã",  # titles
        "Friday Night Lights",
        "não vi nada hoje",
        "Esqueceram de Mim é perfeito pro Natal!",
        "marca esse filme pra ver com a Ana no sábado",
        "me recomenda um restaurante pra hoje",
        "boa noite, até amanhã",  # greetings and wishes
        "bom fim de semana",
        "feliz natal",
        "see you later",
        "happy new year",
        "sugere um filme pra hoje à noite",  # suggestions from the list (issue 44)
        "suggest something for tonight",
        "algo curto pra hoje à noite",
        "remember that the gym closes at 10pm on Fridays",  # a fact about the user
        "tarde demais",
        "a5a95dd6",
        "exclui a 3ª",
        "nightly.jsonl.gz",
        "https://example.com/agenda?dia=15 amanhã 15h",
        "vlw, vou ver hj a noite",  # a plan of one's own after chatter, not a request
        "valeu! vamos ao cinema amanhã às 20h",
        "cool, I'm watching it tomorrow at 8pm",
        # something done or told, with a time in it
        "levantei 5h hoje, tô morto",
        "o ônibus atrasou 40min de novo",
        "Ozark ep 2 pausei em 35min",
        "toda semana é a mesma correria",
        "texted Ana at 4 today",
        # "lembrar" said of something or someone else, or beside another request
        "esse cheiro me lembra a casa da vó amanhã cedo",
        "meu chefe sempre me lembra de bater ponto às 9",
        "anota o nome do filme e me lembra amanhã às 8 de ver",
        "me lembro que sexta tem show",
    ],
)
def test_what_is_not_a_reminder_request_stays_what_it_was(message: str) -> None:
    assert route(message) is None


@pytest.mark.parametrize(
    "message",
    ["comprar leite amanhã", "ligar pro dentista na segunda", "amanhã dentista",
     "segunda celular novo", "quinta aniversário do Leo", "tomorrow bar with friends",
     "Oppenheimer 8/10", "Severance 9.5/10"],  # a rating as much as a date
)  # fmt: skip
def test_a_day_alone_and_a_task_ask_reminder_or_note(message: str) -> None:
    """A note as much as a reminder: one question (the runtime offers both), never an effect."""
    assert route(message) == ("remind_or_note", message)


@pytest.mark.parametrize(
    ("message", "due", "what"),
    [("sexta levar o bolo", "2026-01-09 09:00", "levar o bolo"),
     ("quarta ir ao cartório", "2026-01-07 09:00", "ir ao cartório"),
     ("depois de amanhã devolver a furadeira pro Zé", "2026-01-07 09:00",
      "devolver a furadeira pro Zé"),
     ("sábado malhar", "2026-01-10 09:00", "malhar"),
     ("domingo assistir Duna com a Bia", "2026-01-11 09:00", "assistir Duna com a Bia"),
     ("thursday water the ferns", "2026-01-08 09:00", "water the ferns"),
     ("next tuesday bring the cake", "2026-01-13 09:00", "bring the cake")],
)  # fmt: skip
def test_a_day_then_what_to_do_on_it_is_a_reminder_at_nine(
    message: str, due: str, what: str
) -> None:
    """The day first and a verb of a to-do after it: the day's reminder, no question."""
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW)
    assert isinstance(parsed, SetReminder)
    assert (parsed.due.strftime("%Y-%m-%d %H:%M"), parsed.what) == (due, what)


def test_any_time_of_a_day_is_asked() -> None:
    """ "sometime tomorrow": the day is said, the time left open: asked, never 09:00 set."""
    parsed = parse("tomorrow sometime call the vet", NOW)
    assert isinstance(parsed, AskWhen)
    assert [o.hour for o in parsed.options] == [9, 14, 19]
    assert parsed.what == "call the vet"


@pytest.mark.parametrize(
    ("message", "due"),
    [("dia 20 renovar o seguro", "2026-01-20 09:00"),
     ("25/02 aniversário da Bia", "2026-02-25 09:00"),
     ("mês que vem dia 8 pagar o IPVA", "2026-02-08 09:00"),
     ("feb 3 renew the car tag", "2026-02-03 09:00"),
     ("on the 18th pay the gas bill", "2026-01-18 09:00")],
)  # fmt: skip
def test_a_date_and_a_task_is_a_reminder_at_nine(message: str, due: str) -> None:
    """A date is said for a reminder: set at 09:00 of it (the reply says so), not asked."""
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW, month_first=True)
    assert isinstance(parsed, SetReminder)
    assert parsed.due.strftime("%Y-%m-%d %H:%M") == due


@given(st.text(max_size=80))
def test_routing_never_raises(message: str) -> None:
    routed = route(message)
    assert routed is None or routed[0] in (
        "remind",
        "remind_or_note",
        "reminders",
        "unremind",
        "undo",
        "redo",
    )


@pytest.mark.parametrize(
    "message",
    ["every 3 days at 8pm starting today change the cat litter",
     "every day at 11pm until jan 2 post the daily photo", "daqui 3 dias devolver o livro",
     "in 2 hours move the car"],
)  # fmt: skip
def test_words_that_only_speak_of_the_time_are_no_activity(message: str) -> None:
    assert route(message) == ("remind", message)


_TIMES = st.sampled_from(
    ["amanhã às 15h", "hoje 17h45", "sexta 14h", "dia 12 às 15h", "daqui a 40 min",
     "em 2 horas", "segunda às 8h30", "amanhã ao meio-dia", "quinta às 19h30", "15/03 às 10h",
     "tomorrow at 3pm", "friday 2pm", "in 2 hours", "monday at 9am", "jan 20 at 8am"]
)  # fmt: skip
_TASKS = st.sampled_from(
    ["dentista", "ligar pro João", "pagar o aluguel", "buscar as crianças na escola",
     "call mom", "pick up the suit", "reunião com o cliente"]
)  # fmt: skip


@given(_TIMES, _TASKS, st.booleans())
def test_typed_in_chat_it_is_the_same_reminder_as_asked_for(
    time_words: str, task: str, time_first: bool
) -> None:
    """A time and a task with no verb routes as a reminder, due exactly when "me lembra <time>
    de <task>" is (never earlier), with the task as its text."""
    message = f"{time_words} {task}" if time_first else f"{task} {time_words}"
    assert route(message) == ("remind", message)
    typed = parse(message, NOW)
    asked = parse(f"me lembra {time_words} de {task}", NOW)
    assert isinstance(typed, SetReminder), typed
    assert isinstance(asked, SetReminder), asked
    assert typed.due == asked.due
    assert typed.what == task


@pytest.mark.parametrize(
    ("message", "what"),
    [("de manhã levar o lixo pra fora", "levar o lixo pra fora"),
     ("fim do mês renovar o seguro do carro", "renovar o seguro do carro"),
     ("mês que vem cancelar o plano do celular", "cancelar o plano do celular"),
     ("this weekend cancel the gym membership", "cancel the gym membership"),
     ("às 26h fechar a janela", "fechar a janela"),
     ("at 14pm water the garden", "water the garden")],
)  # fmt: skip
def test_a_vague_or_unreadable_time_then_a_task_is_asked(message: str, what: str) -> None:
    """A part of the day, a period or a clock that does not exist, then a to-do: the
    reminder's question, never a time guessed (nor the message left unread)."""
    assert route(message) == ("remind", message)
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen)
    assert parsed.what == what


@pytest.mark.parametrize(
    "message",
    ["cancel the 3pm one", "amanhã cancelar o lembrete das 10h", "sexta cancelar esse",
     "guarda-chuva amanhã"],
)  # fmt: skip
def test_a_cancel_of_a_reminder_is_never_a_new_one(message: str) -> None:
    routed = route(message)
    assert routed is None or routed[0] != "remind"


def test_a_request_with_a_clock_that_does_not_exist_asks() -> None:
    parsed = parse("me lembra às 27h de tirar a roupa do varal", NOW)
    assert isinstance(parsed, AskWhen)
    assert parsed.what == "tirar a roupa do varal"


@pytest.mark.parametrize(
    "message",
    ["antes do almoço levar o carro no lava-jato", "remind me tomorrow before lunch to call Bea"],
)
def test_before_lunch_asks_among_the_late_morning_hours(message: str) -> None:
    """ "before lunch": 10:00 or 11:00 of that day, asked; never a guess, never later than noon."""
    parsed = parse(message, NOW)
    assert isinstance(parsed, AskWhen)
    assert {o.hour for o in parsed.options} <= {10, 11}
    assert all(o > NOW for o in parsed.options)
