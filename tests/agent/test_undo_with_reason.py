"""«desfaz» said with why, and "all or only the next?" answered in a sentence (issue 43).

A blind session set run with no model offered to keep "desfaz pfv, minha irmã q vai levar"
as a note and left the reminder set; "todos, pode cancelar" got the same offer. The phrasings
here are new ones.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.conversation.reminding import scope_said
from agent.understanding.reminders.requests import route
from storage import Database
from tests.support.harness import ALICE, open_lembra

ZONE = ZoneInfo("America/Sao_Paulo")


@pytest.mark.parametrize(
    "said",
    [
        "desfaz esse último",
        "desfaz aí, o Pedro que vai buscar",
        "desfaz, era pra ser na terça",
        "undo that, my mistake with the day",
        "undo the last one",
        "desfaz isso pfv, já resolvi",
        "wait undo that, wrong day",  # an interjection before it
        "oh wait undo, i still need it",  # two of them
        "xi desfaz, as ferias so comecam semana q vem",  # a reason with time words in it
        "putz, desfaz",
        "eita desfaz, apaguei sem querer kkk",  # what the user did is why, not a request
        "undo, deleted it by mistake",
        "não, desfaz",
        "poxa, não era pra ter apagado, desfaz",  # why, then the undo
        "não, desfaz, deixa como estava",  # "deixa como estava" is the undo's own reason
        "desfaz mais um",  # one more, the one before
        "xi mudei de ideia rsrs desfaz",  # a change of mind and laughter before it
        "changed my mind haha, undo",
        "undo that one too, I don't need a reminder for it after all",  # the noun says why
        "desfaz, o lembrete nem era pra hoje",
    ],
)
def test_undo_with_a_reason_after_it_is_an_undo(said: str) -> None:
    assert route(said) == ("undo", "")


@pytest.mark.parametrize(
    "said",
    [
        "desfaz, não, deixa assim",  # taken back
        "desfaz e salva o filme Duna",  # a second request
        "desfaz, e anota: pão",
        "undo that, no wait keep it",
        "desfaz o quê?",
        "desfaz a mala amanhã às 9h",  # a reminder about unpacking, not an undo
        "não desfaz",  # a negation is no interjection
        "no undo",
        "salva o filme Duna, desfaz",  # a request before it: two requests
        "undo that, and set a reminder for friday",  # a request of its own after it
        "desfaz, cria um lembrete pra amanhã",
    ],
)
def test_undo_words_that_ask_more_or_take_it_back_are_no_bare_undo(said: str) -> None:
    assert route(said) != ("undo", "")


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("refaz pfv, era pra ficar sim", ("redo", "")),
        ("redo that, i need it", ("redo", "")),
        ("refaz, e salva o filme Duna", None),  # a second request
        ("desfaz, e anota: pão", None),
    ],
)
def test_a_redo_takes_a_reason_as_an_undo_does(said: str, expected: object) -> None:
    assert route(said) == expected


async def test_a_note_undone_then_redone_with_a_reason_is_back(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: lista do churras - carvão, linguiça e gelo")
        await lembra.say("desfaz")
        redone = await lembra.say("refaz pfv, era pra ficar sim")
        assert "Refeito" in redone.text
        assert [i.content for i in await lembra.items()] == [
            "lista do churras - carvão, linguiça e gelo"
        ]


async def test_a_reminder_set_then_undone_with_a_reason_is_gone(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: comprar ração")
        await lembra.say("me lembra amanhã às 8h de levar a gata na vacina")
        before = lembra.model_calls
        reply = await lembra.say("ops, desfaz pfv, meu irmão que vai levar")
        assert "vacina" in reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.state == "cancelled"
        assert [i.content for i in await lembra.items()] == ["comprar ração"]  # kept
        assert lembra.model_calls == before


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("todas, pode cancelar", 1),
        ("all of them please", 1),
        ("só o de amanhã", 0),
        ("just the next one", 0),
        ("todos menos o próximo", None),  # both sides: no answer
        ("sim", None),
        ("cancela o do gás", None),
    ],
)
def test_all_or_only_the_next_is_read_from_the_words(said: str, expected: int | None) -> None:
    assert scope_said(said) == expected


async def test_a_repeating_reminder_cancelled_with_a_sentence_answer(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra toda terça às 7h de colocar o lixo reciclável")
        asked = await lembra.say("cancela o do lixo")
        assert "Só o próximo" in asked.text
        done = await lembra.say("todos, pode cancelar")
        assert "cancelado" in done.text
        assert (await db.reminders.for_user(ALICE))[0].state == "cancelled"
        back = await lembra.say("eita, desfaz, ainda preciso dele")
        assert "lixo" in back.text
        assert (await db.reminders.for_user(ALICE))[0].state == "scheduled"
        assert lembra.model_calls == 0


@given(st.text(max_size=80))
def test_the_undo_and_scope_readers_never_raise(said: str) -> None:
    route(said)
    scope_said(said)


async def test_a_reminder_moved_with_bota_then_undone_is_back_at_its_time(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra quinta 10h de levar o notebook no conserto")
        moved = await lembra.say("na vdd bota às 14h")
        assert "14:00" in moved.text
        back = await lembra.say("não, desfaz, deixa como estava")
        assert "notebook" in back.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert datetime.fromtimestamp(reminder.due_at_ms / 1000, ZONE).hour == 10


def test_an_english_no_after_an_interjection_opens_an_undo() -> None:
    # issue 44: "wait no undo that, it was my kid watching not me lol" went to the planner
    assert route("oh no undo that, my brother was using my phone") == ("undo", "")
    assert route("no undo that") != ("undo", "")  # "no" alone first: not certain
    assert route("ops não desfaz") != ("undo", "")  # "não desfaz" is "don't undo"


def test_what_the_user_had_done_said_as_why_is_a_reason() -> None:
    # issue 44: "desfaz de novo pfv, na vdd nem queria ter salvo" went to the planner
    assert route("desfaz pfv, eu nem devia ter anotado isso") == ("undo", "")
    assert route("undo it, i should never have added that") == ("undo", "")
    assert route("desfaz e anota outra coisa") != ("undo", "")
