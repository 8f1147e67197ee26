"""The reminder parser against a labelled PT/EN set (DESIGN 9.3): when, what, and what is not one."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.reminders import PastTime, SetReminder, parse, route

CORPUS = Path(__file__).with_name("reminder_corpus.tsv")
NOW = datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))  # a Monday


def _rows() -> list[tuple[str, str, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            text, due, *what = line.split("\t")
            rows.append((text, due, what[0] if what else ""))
    return rows


def _outcome(text: str) -> tuple[str, str]:
    routed = route(text)
    if routed is None or routed[0] != "remind":
        return ("-", "")
    parsed = parse(routed[1], NOW)
    if not isinstance(parsed, SetReminder):
        return ("?", "")
    return (parsed.due.strftime("%Y-%m-%d %H:%M"), parsed.what)


def test_labelled_set_is_read_right() -> None:
    rows = _rows()
    assert len(rows) >= 80
    wrong = [
        (text, due, what, _outcome(text))
        for text, due, what in rows
        if _outcome(text) != (due, what)
    ]
    accuracy = 1 - len(wrong) / len(rows)
    assert accuracy >= 0.98, "\n".join(map(str, wrong))
    # no reminder is ever set from a message that did not ask for one
    assert not [w for w in wrong if w[1] == "-"], wrong


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("meus lembretes", ("reminders", "")),
        ("quais são meus lembretes?", ("reminders", "")),
        ("my reminders", ("reminders", "")),
        ("show my reminders", ("reminders", "")),
        ("cancela o lembrete 2", ("unremind", "2")),
        ("cancela o lembrete de ligar pro médico", ("unremind", "de ligar pro médico")),
        ("cancel reminder #1", ("unremind", "1")),
        ("desfaz", ("undo", "")),
        ("Desfazer!", ("undo", "")),
        ("undo", ("undo", "")),
        ("undo that", ("undo", "")),
    ],
)
def test_list_cancel_and_undo_are_routed(text: str, expected: tuple[str, str]) -> None:
    assert route(text) == expected


def test_a_time_already_past_today_is_reported_not_scheduled() -> None:
    assert isinstance(parse("me lembra hoje às 8 da manhã de correr", NOW), PastTime)
    assert isinstance(parse("me lembra hoje às 08:00 de correr", NOW), PastTime)
    assert isinstance(parse("remind me today at 8am to run", NOW), PastTime)
