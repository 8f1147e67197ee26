"""«desfaz» naming what it undoes (issue 43): the last save, or the effect on something named;
during an open question, the question is dropped and the named effect undone (a bare «desfaz»
still only drops the question). An undone move says the time the reminder has again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.reminders import route, undo_target
from storage import Database
from tests.support.harness import ALICE, open_lembra


async def test_a_pending_delete_kept_and_the_last_save_undone(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: trocar o óleo do carro")
        await lembra.say("anota: comprar pilhas")
        await lembra.say("me lembra amanhã às 10h de ligar pra Joana")  # not a save
        await lembra.say("apaga a nota trocar o óleo do carro")
        reply = await lembra.say("não, deixa. desfaz a última coisa que eu anotei")
        assert reply.text.startswith("Ok, não apago trocar o óleo do carro")
        assert "comprar pilhas" in reply.text
        assert await lembra.pending() is None
        assert [i.content for i in await lembra.items()] == ["trocar o óleo do carro"]
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.state == "scheduled"  # the newer effect, not a save, stays


async def test_in_english_the_question_is_dropped_and_the_last_thing_added_undone(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("note: spare key is under the blue pot")
        await lembra.say("note: call the plumber")
        await lembra.say("delete the note spare key")
        reply = await lembra.say("no wait, keep it. undo the last thing i added")
        assert "call the plumber" in reply.text
        assert [i.content for i in await lembra.items()] == ["spare key is under the blue pot"]


async def test_a_bare_undo_during_a_question_still_only_drops_it(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar pilhas")
        await lembra.say("apaga a nota comprar pilhas")
        await lembra.say("não, desfaz isso")
        assert [i.content for i in await lembra.items()] == ["comprar pilhas"]
        assert "undone" not in await lembra.event_types()


async def test_an_undo_naming_an_older_reminder_undoes_that_one(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã às 9h de levar a gata no veterinário")
        await lembra.say("me lembra sexta às 18h de pagar o condomínio")
        reply = await lembra.say("desfaz o do veterinário")
        assert "veterinário" in reply.text
        states = {r.text: r.state for r in await db.reminders.for_user(ALICE)}
        assert states == {
            "levar a gata no veterinário": "cancelled",
            "pagar o condomínio": "scheduled",
        }


async def test_a_reason_after_the_named_undo_is_no_part_of_what_it_names(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã às 8h de buscar o bolo na padaria")
        await lembra.say("me lembra sábado às 20h de ir no aniversário do Léo")
        reply = await lembra.say("desfaz o da padaria, já encomendaram outro")
        assert "padaria" in reply.text
        states = {r.text: r.state for r in await db.reminders.for_user(ALICE)}
        assert states == {
            "buscar o bolo na padaria": "cancelled",
            "ir no aniversário do Léo": "scheduled",
        }


async def test_an_undo_naming_nothing_done_undoes_nothing(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar pilhas")
        reply = await lembra.say("undo the dentist one")
        assert "nothing was undone" in reply.text
        assert len(await lembra.items()) == 1
        assert "undone" not in await lembra.event_types()


async def test_an_undone_move_names_the_time_the_reminder_has_again(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra quinta às 14h de buscar o exame")
        await lembra.say("na verdade às 16h")
        reply = await lembra.say("opa, desfaz")
        assert "14:00" in reply.text
        assert "buscar o exame" in reply.text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_the_named_undo_reader_never_raises(words: str) -> None:
    routed = route("desfaz " + words)
    undo_target(words)
    if routed is not None and routed[0] == "undo" and routed[1]:
        assert undo_target(routed[1]) is not None
