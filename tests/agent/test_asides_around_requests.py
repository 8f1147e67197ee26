"""Words around a request that say when or how it is asked, never what about (issue 41).

A blind session set run with no model read "how many films do I have rn?" as a search for
«rn» and offered "actually remove X" as a note. The phrasings here are new ones.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.chatter import without_asides, without_chatter
from storage import Database
from tests.support.harness import open_lembra


def test_a_question_s_now_or_again_is_cut_at_its_end_only() -> None:
    assert without_chatter("how many shows have I got rn?") == "how many shows have I got?"
    assert without_chatter("qts vídeos tenho agr?") == "qts vídeos tenho?"
    assert without_chatter("quantas notas tenho aí msm?") == "quantas notas tenho?"
    assert without_chatter("what now?") == "what now?"  # nothing would be left to ask
    assert without_chatter("anota: e agora?") == "anota: e agora?"  # a note's content
    assert without_chatter("salva o filme Now") == "salva o filme Now"  # no question
    assert without_chatter("tem algum filme chamado Now?") == "tem algum filme chamado Now?"


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("ok so erase the gym note", "erase the gym note"),  # a lead-in, only at the head
        ("na real, apaga a nota do pão", "apaga a nota do pão"),
        ("não apaga a nota do pão", "não apaga a nota do pão"),  # never a negation
        ("salva So Long", "salva So Long"),
        ("eita, foi mal, desfaz isso", "desfaz isso"),  # clauses of interjections
        ("hmm no, actually drop the last one", "drop the last one"),  # both, in one step
        ("ops, errei", "ops, errei"),  # nothing but chatter: kept whole
        ("anota:\nops, pão", "anota:\nops, pão"),  # a list a line
        ("pensando bem tira a série Dark, não curto suspense", "tira a série Dark"),
        ("on second thought delete the horror one, I don't like gore", "delete the horror one"),
    ],
)
def test_asides_around_a_request_are_cut_in_one_step(said: str, left: str) -> None:
    assert without_asides(said) == left


@pytest.mark.parametrize(
    ("question", "count"),
    [("how many notes do I have right now?", "2"), ("quantas notas eu tenho agora msm?", "2")],
)
async def test_a_count_asked_with_now_counts(db: Database, question: str, count: str) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: levar o lixo")
        await lembra.say("anota: trocar a resistência")
        reply = await lembra.say(question)
        assert count in reply.text
        assert "«" not in reply.text  # no search for the words of "now"


@pytest.mark.parametrize(
    ("said", "confirm", "gone"),
    [
        ("na verdade apaga a nota do lixo", "sim", "levar o lixo"),
        ("ok so delete the trash note", "yes", "take out the trash"),
        ("actually, remove the trash note", "yes", "take out the trash"),
    ],
)
async def test_a_command_after_a_lead_in_is_that_command(
    db: Database, said: str, confirm: str, gone: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say(f"anota: {gone}")
        await lembra.say("anota: trocar a resistência")
        preview = await lembra.say(said)
        assert gone in preview.text
        await lembra.say(confirm)
        assert [i.content for i in await lembra.items()] == ["trocar a resistência"]


@pytest.mark.parametrize(
    ("said", "listing"),
    [
        ("edit #2 to renew the car insurance", "list my notes"),
        ("muda o item #2 pra renovar o seguro do carro", "lista minhas notas"),
    ],
)
async def test_an_edit_by_a_hash_position_edits_that_line(
    db: Database, said: str, listing: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: levar o lixo")
        await lembra.say("anota: renovar o seguro")
        await lembra.say(listing)
        await lembra.say(said)
        contents = sorted(i.content or "" for i in await lembra.items())
        assert contents == ["levar o lixo", said.split(" to ", 1)[-1].split(" pra ", 1)[-1]]


@pytest.mark.parametrize(
    ("said", "notes"),
    [
        (
            "duas coisas rapidinho: buscar o terno, pagar o boleto",
            ["buscar o terno", "pagar o boleto"],
        ),
        (
            "three things: oil the hinge, mail the form and fix the tap",
            ["fix the tap", "mail the form", "oil the hinge"],
        ),
    ],
)
async def test_notes_announced_by_their_count_are_that_many_notes(
    db: Database, said: str, notes: list[str]
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say(said)
        assert sorted(i.content or "" for i in await lembra.items()) == sorted(notes)


def test_a_count_that_does_not_match_the_pieces_reads_no_list() -> None:
    from agent.understanding.batches import read_batch

    assert read_batch("três coisas: buscar o terno, pagar o boleto") is None
    assert read_batch("two things I love: rain") is None


async def test_the_other_one_after_deleting_one_of_two_alike_items_is_the_alike_one(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: conta do gás de março")
        await lembra.say("anota: regar as plantas")
        await lembra.say("anota: conta do gás de abril")
        await lembra.say("apaga a nota conta do gás de março")
        await lembra.say("sim")
        preview = await lembra.say("e a outra tb")
        assert "abril" in preview.text
        await lembra.say("sim")
        assert [i.content for i in await lembra.items()] == ["regar as plantas"]


async def test_the_other_one_declines_when_two_items_are_as_alike(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: conta do gás de março")
        await lembra.say("anota: conta do gás de abril")
        await lembra.say("anota: conta do gás de maio")
        await lembra.say("apaga a nota conta do gás de março")
        await lembra.say("sim")
        await lembra.say("e a outra tb")
        await lembra.say("sim")
        assert len(await lembra.items()) == 2  # nothing guessed


@pytest.mark.parametrize("said", ["and the show Hacks too thanks", "e a série Hacks tb né"])
async def test_a_typed_continuation_with_chatter_after_it_saves(db: Database, said: str) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva a série Dark")
        await lembra.say(said)
        assert sorted(i.title or "" for i in await lembra.items()) == ["Dark", "Hacks"]


@pytest.mark.parametrize(
    ("said", "changed"),
    [
        ("troca o pin do cofre pra 0427", "pin do cofre: 0427"),
        ("update the safe pin to 0427", "pin do cofre: 0427"),
    ],
)
async def test_a_note_named_by_its_words_takes_the_new_value(
    db: Database, said: str, changed: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: pin do cofre: 9911")
        await lembra.say("anota: safe pin 9911")
        await lembra.say("anota: comprar fita")
        await lembra.say(said)
        contents = sorted(i.content or "" for i in await lembra.items())
        expected = "safe pin 0427" if said.startswith("update") else changed
        assert expected in contents
        assert len([c for c in contents if "0427" in c]) == 1


async def test_a_change_that_two_notes_could_take_changes_none(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: senha do wifi da sala 1234")
        await lembra.say("anota: senha do wifi do quarto 5678")
        await lembra.say("muda a senha do wifi pra 4321")
        contents = sorted(i.content or "" for i in await lembra.items())
        assert contents == ["senha do wifi da sala 1234", "senha do wifi do quarto 5678"]


@pytest.mark.parametrize(
    "question", ["quem me recomendou o Cais do Porto mesmo?", "who told me about Cais do Porto?"]
)
async def test_who_said_something_about_a_thing_is_found_in_the_notes(
    db: Database, question: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: a Bia recomendou o bar Cais do Porto")
        await lembra.say("anota: comprar fita")
        reply = await lembra.say(question)
        assert "Bia" in reply.text
        assert len(await lembra.items()) == 2  # nothing saved


def test_who_asked_of_nothing_saved_reads_no_search() -> None:
    from agent.understanding.questions import read_question

    assert read_question("who are you?") is None
    assert read_question("quem é você?") is None


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("boa tardee! anota: levar o cachorro no banho", "anota: levar o cachorro no banho"),
        ("nice, thanks. list my shows", "list my shows"),
        ("outra coisa, quantos links eu tenho?", "quantos links eu tenho?"),
        ("by the way delete the gym note", "delete the gym note"),
        ("show me my notes", "show me my notes"),  # a verb, no clause of its own
        ("Top Gun, salva esse filme", "Top Gun, salva esse filme"),  # a title, not approval
        ("valeu!", "valeu!"),  # nothing but chatter: kept whole
        ("oii! anota:\npão\nleite", "anota:\npão\nleite"),  # a list a line: its first line's
        ("anota:\nbom dia pra vó\nleite", "anota:\nbom dia pra vó\nleite"),  # an item
    ],
)
def test_a_clause_that_only_greets_thanks_or_changes_the_subject_is_cut(
    said: str, left: str
) -> None:
    assert without_chatter(said) == left


@pytest.mark.parametrize(
    "said", ["cansei dessa bagunça, apaga tudo", "my list is a mess, delete everything"]
)
async def test_delete_all_after_why_asks_then_deletes(db: Database, said: str) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar pão")
        preview = await lembra.say(said)
        assert "comprar pão" in preview.text  # what would go, before anything goes
        assert len(await lembra.items()) == 1
        await lembra.say("sim" if "apaga" in said else "yes")
        assert await lembra.items() == []


async def test_a_second_request_before_delete_all_is_not_read_as_why(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar pão")
        await lembra.say("salva o filme Duna, apaga tudo")
        await lembra.say("sim")
        assert "comprar pão" in [i.content for i in await lembra.items()]  # nothing deleted


@pytest.mark.parametrize(
    ("said", "confirm"),
    [("já paguei a conta, pode apagar essa", "sim"), ("paid it already, delete that one", "yes")],
)
async def test_a_deletion_after_why_previews_the_item_in_focus(
    db: Database, said: str, confirm: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar sabão")
        await lembra.say("anota: pagar a conta de luz")
        preview = await lembra.say(said)
        assert "pagar a conta de luz" in preview.text
        await lembra.say(confirm)
        assert [i.content for i in await lembra.items()] == ["comprar sabão"]


async def test_an_unread_request_is_never_offered_as_a_note(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar sabão")
        reply = await lembra.say("na verdade era outra coisa, troca tudo aquilo")
        assert "nota?" not in reply.text
        seen = await lembra.say("aquele do tubarão eu vi sim, nota 7")  # a mark it cannot place
        assert "nota?" not in seen.text
        await lembra.say("sim")
        assert [i.content for i in await lembra.items()] == ["comprar sabão"]


@given(st.text(max_size=120))
def test_the_why_then_request_readers_never_raise(said: str) -> None:
    from agent.conversation.pointing import _said_why
    from agent.planning.offline import offer_for
    from agent.understanding.intent import IntentClassifier

    _said_why(said)
    offer_for(said)
    IntentClassifier().classify(said)
