"""Questions about reminders and changes to them, read in code only where certain (issue 43)."""

from __future__ import annotations

import pytest

from agent.understanding.reminders.asks import CancelAsk, ChangeAsk, ListAsk, read_ask


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
        ("ah e cancela o lembrete da academia, que eu vou viajar", CancelAsk("academia")),
        ("pensando bem apaga o inception", None),
        ("apaga o inception", None),
        ("tenho algum filme de terror?", None),
        ("salva inception", None),
    ],
)
def test_each_shape(text: str, expected: object) -> None:
    assert read_ask(text) == expected
