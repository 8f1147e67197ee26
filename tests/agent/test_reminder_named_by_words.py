"""Reminders named by what they are about, time questions answered with filler, and undo or
redo with a clause after them (issue 43): a time beside words that ask nothing ("às 15h pode
ser", "5pm sounds good") or beside a reminder named by its words ("o do francês pode ser
20h") is never a new reminder whose text is those words; "de vez"/"for good" cancels every
occurrence unasked; a skip after "então"/"so" is read; "desfaz de novo, X tb não precisava"
and "aii não, refaz" are an undo and a redo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.reminders.asks import CancelAsk, ChangeAsk, SkipAsk, read_ask, read_retime
from agent.understanding.reminders.requests import route
from storage import Database
from tests.support.harness import ALICE, open_lembra


@pytest.mark.parametrize(
    ("said", "query", "when"),
    [
        ("o do francês pode ser 20h entao", "francês", "20h"),
        ("the laundry one 6pm instead", "laundry", "6pm"),
        ("e a da vacina fica pra amanhã 9h", "vacina", "amanhã 9h"),
        ("às 15h pode ser", "", "às 15h"),
        ("5pm sounds good", "", "5pm"),
        ("foi mal, é 16h30 que ela chega, corrige ai", "", "16h30"),
    ],
)
def test_a_time_beside_a_named_reminder_or_filler_is_a_change(
    said: str, query: str, when: str
) -> None:
    assert read_retime(said) == ChangeAsk(query, when)
    assert route(said) is None  # never a new reminder


@pytest.mark.parametrize(
    "said",
    [
        "amanhã 15h dentista",  # a task: a new reminder
        "sexta 19h jantar com a Bia",
        "16h",  # a time alone: an answer, or a new one's
        "o do 10h",  # no words name a reminder
        "16h não",
    ],
)
def test_a_time_with_a_task_or_nothing_beside_it_is_no_change(said: str) -> None:
    assert read_retime(said) is None


def test_for_good_and_a_skip_after_a_connective_are_read() -> None:
    assert read_ask("cancela o do yoga de vez") == CancelAsk("yoga", every=True)
    assert read_ask("drop the piano one for good") == CancelAsk("piano", every=True)
    assert read_ask("cancela o do yoga") == CancelAsk("yoga")
    assert read_ask("semana que vem to viajando entao pula o proximo do yoga") == SkipAsk("yoga")
    assert read_ask("i'll be away, so skip the next piano one") == SkipAsk("piano")


@pytest.mark.parametrize(
    ("said", "command"),
    [
        ("desfaz de novo, aquele filme tb nao precisava", "undo"),
        ("undo it again pls, wrong film", "undo"),
        ("aii não, refaz", "redo"),
        ("ai, refaz pfv", "redo"),
    ],
)
def test_undo_or_redo_with_an_interjection_or_a_reason(said: str, command: str) -> None:
    assert route(said) == (command, "")


def test_an_undo_taken_back_stays_no_undo() -> None:
    assert route("desfaz, não precisa") is None


async def test_a_time_question_answered_with_filler_sets_the_reminder_asked(db: Database) -> None:
    async with open_lembra(db) as lembra:
        asked = await lembra.say("me lembra de pagar o IPVA")
        assert await lembra.pending() is not None, asked.text
        reply = await lembra.say("às 15h pode ser")
        (reminder,) = await db.reminders.for_user(ALICE)
    assert reminder.text == "pagar o IPVA"
    assert "15:00" in reply.text
    assert "pode ser" not in reply.text


async def test_in_english_a_time_that_sounds_good_answers_the_question(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("remind me to call grandma")
        await lembra.say("5pm sounds good")
        (reminder,) = await db.reminders.for_user(ALICE)
    assert reminder.text == "call grandma"


async def test_a_reminder_named_by_its_words_moves_and_no_new_one_is_set(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("toda terça 19h me lembra do curso de francês")
        await lembra.say("me lembra amanhã 10h de devolver o livro")
        reply = await lembra.say("o do francês pode ser 20h entao")
        reminders = {r.text: r for r in await db.reminders.for_user(ALICE)}
    assert sorted(reminders) == ["curso de francês", "devolver o livro"]
    assert "20:00" in reply.text
    assert reminders["curso de francês"].rule  # still repeats


async def test_right_after_setting_one_a_corrected_time_with_a_reason_moves_it(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra hoje às 18h de buscar a Lia na natação")
        reply = await lembra.say("foi mal, é 16h30 que ela sai, corrige ai")
        (reminder,) = await db.reminders.for_user(ALICE)
    assert reminder.text == "buscar a Lia na natação"
    assert "16:30" in reply.text


async def test_for_good_cancels_a_repeating_reminder_without_asking(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("toda segunda e sexta 7h me lembra do yoga")
        await lembra.say("me lembra dia 20 de pagar o seguro")
        await lembra.say("cancela o do yoga de vez, cansei kkk")
        states = {r.text: r.state for r in await db.reminders.for_user(ALICE)}
        assert await lembra.pending() is None
    assert states == {"yoga": "cancelled", "pagar o seguro": "scheduled"}


async def test_a_skip_after_so_skips_only_the_next(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("remind me every day at 8am to walk the dog")
        before = (await db.reminders.for_user(ALICE))[0].due_at_ms
        await lembra.say("my sister takes him tomorrow, so skip the next dog one")
        (after,) = await db.reminders.for_user(ALICE)
    assert after.state == "scheduled"
    assert after.due_at_ms - before == 24 * 3600 * 1000


_WORDS = st.sampled_from(
    "o a do da the one reminder pode ser 16h 8pm às as amanhã tá bom works muda aí q que ela "
    "sai , . cancela de vez for good so skip next então pula próximo desfaz refaz ai não "
    "precisava".split()
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.lists(_WORDS, max_size=12).map(" ".join)))
def test_the_readers_never_raise(text: str) -> None:
    read_retime(text)
    read_ask(text)
    route(text)
