"""Questions about reminders and changes to them, read in code only where certain (issue 43)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.reminders.asks import CancelAsk, ChangeAsk, ListAsk, read_ask
from agent.understanding.reminders.requests import tells_of_oneself


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tenho algum lembrete?", ListAsk()),
        ("tenho lembretes pra hoje?", ListAsk("today")),
        ("quais lembretes pra amanhã?", ListAsk("tomorrow")),
        ("quais são os meus lembretes para esta semana", ListAsk("this_week")),
        ("do I have any reminders?", ListAsk()),
        ("what reminders do I have tomorrow?", ListAsk("tomorrow")),
        ("muda o lembrete do dentista para 10h", ChangeAsk("dentista", "10h")),
        ("move the dentist reminder to 10am", ChangeAsk("dentist", "10am")),
        ("change the reminder about rent to friday", ChangeAsk("rent", "friday")),
        ("na verdade às 10", ChangeAsk("", "às 10")),
        ("actually make it 9am", ChangeAsk("", "9am")),
        ("opa errei, é às 17h30", ChangeAsk("", "às 17h30")),
        ("sorry, I meant 9pm", ChangeAsk("", "9pm")),
        ("cancela o do dentista", CancelAsk("dentista")),
        ("cancel the dentist one", CancelAsk("dentist")),
        # a change of mind before it and a reason after it are not the request (issue 41)
        ("pensando bem cancela o do contador pq ele remarcou", CancelAsk("contador")),
        ("on second thought cancel the gym one because it rained", CancelAsk("gym")),
        # the reason is no part of the reminder's words with no change of mind before it
        ("desmarca o lembrete da academia porque machuquei o pé", CancelAsk("academia")),
        ("cancel the piano lesson reminder since the teacher is sick", CancelAsk("piano lesson")),
        ("ah e cancela o lembrete da academia, que eu vou viajar", CancelAsk("academia")),
        ("nvm cancel the pharmacy one, got it already", CancelAsk("pharmacy")),
        ("pensando bem apaga o inception", None),
        ("apaga o inception", None),
        ("tenho algum filme de terror?", None),
        ("salva inception", None),
    ],
)
def test_each_shape(text: str, expected: object) -> None:
    assert read_ask(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a day in chat spelling, and a day's agenda asked with no reminder word
        ("tem lembrete pra hj?", ListAsk("today")),
        ("algum lembrete amnh?", ListAsk("tomorrow")),  # an agenda word and a period
        ("tenho lembretes 2moro?", ListAsk("tomorrow")),
        ("eu tenho alguma coisa marcada pra amanhã?", ListAsk("tomorrow")),
        ("oq eu tenho pra hoje", ListAsk("today")),
        ("is there anything planned for tomorrow?", ListAsk("tomorrow")),
        ("what's on today?", ListAsk("today")),
        ("what do I have to do tmrw", ListAsk("tomorrow")),
        ("tenho algo sobre cinema?", None),
        ("o que eu tenho de filme?", None),
        # a reminder named by what it is about, then the new time
        ("on second thought make the haircut one 5pm", ChangeAsk("haircut", "5pm")),
        ("set the vet reminder for friday", ChangeAsk("vet", "friday")),
        ("passa o do cabeleireiro pra quinta", ChangeAsk("cabeleireiro", "quinta")),
        ("could you make the haircut reminder 6pm instead", ChangeAsk("haircut", "6pm")),
        ("muda o da faxina pras 15h", ChangeAsk("faxina", "15h")),
        ("bota o da manicure pras 11h", ChangeAsk("manicure", "11h")),
        ("bota o filme pra sexta", None),  # a list's verb: only in the "o do X" form
        # a cancel with a clause of its own after it
        ("cancela o da manicure, ela desmarcou", CancelAsk("manicure")),
        ("cancela o lembrete do curso; acabou", CancelAsk("curso")),
        ("drop the yoga one - class got moved", CancelAsk("yoga")),
        ("cancel my laundry reminder, did it already", CancelAsk("laundry")),
        ("apaga o duna, já vi", None),  # an item, not a reminder
    ],
)
def test_shapes_people_type(text: str, expected: object) -> None:
    assert read_ask(text) == expected


@given(
    st.sampled_from(["o do ", "e a da ", "push it to ", "ops, é ", "muda o lembrete do ", ""]),
    st.text(max_size=60),
    st.sampled_from([" passa pra ", " joga pra ", ", mesmo horário", " same time", ""]),
    st.text(max_size=40),
)
def test_reading_a_move_or_a_question_never_raises(
    head: str, middle: str, verb: str, tail: str
) -> None:
    said = head + middle + verb + tail
    read_ask(said)
    tells_of_oneself(said)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tenho oq agendado pra amanhã?", ListAsk("tomorrow")),
        ("anything planned for me today?", ListAsk("today")),
        ("e na agenda essa semana, o que tem?", ListAsk("this_week")),
        ("meus compromissos?", ListAsk()),
        ("tenho alguma série marcada como vista?", None),  # the list, not the agenda
        ("tenho lembrete hoje ou amanhã?", None),  # two periods: the planner's
        ("o jogo tá marcado pra amanhã", None),  # a statement
    ],
)
def test_an_agenda_question_is_read_in_any_word_order(text: str, expected: object) -> None:
    assert read_ask(text) == expected
