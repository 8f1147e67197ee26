"""Corrections and edits that carry over to new words (issue 41): a year is a year, never a
title; a value of a note's shape replaces the old one in the note the words name; a
list-like note takes a swap, an addition or a removal; a type said in passing types the
save. Each declines (the planner's) when it is not sure."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.facts import (
    ListEdit,
    corrected_value,
    list_edit,
    list_edited,
    naming_overlap,
    note_value,
)
from storage import Database
from tests.support.harness import open_lembra


@pytest.mark.parametrize(
    ("fix", "year"),
    [
        ("hang on, it's 1999 not 1998", 1999),
        ("opa, é 2001 e não 1998", 2001),
        ("na verdade é 2003", 2003),
        ("não, o ano certo é 2004", 2004),
        ("é de 2005, não 1998", 2005),
    ],
)
async def test_a_year_said_as_a_correction_fixes_the_year_never_the_title(
    db: Database, fix: str, year: int
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Rio Escuro de 1998")
        fixed = await lembra.say(fix)
        items = await lembra.items()

    assert [(i.title, i.year) for i in items] == [("Rio Escuro", year)]
    assert "Rio Escuro" in fixed.text


async def test_a_year_taken_back_that_the_film_does_not_have_changes_nothing(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Rio Escuro de 1998")
        await lembra.say("wait, it's 2004 not 2002")
        items = await lembra.items()

    assert [(i.title, i.year) for i in items] == [("Rio Escuro", 1998)]


@pytest.mark.parametrize(
    ("first", "then", "title", "year"),
    [
        ("salva o filme Rio Escuro", "e o filme Pedra Azul tb, 2011", "Pedra Azul", 2011),
        ("save the movie Dark River", "and the film Blue Stone, 2012", "Blue Stone", 2012),
    ],
)
async def test_a_continuation_with_a_year_after_a_comma_saves_a_dated_film(
    db: Database, first: str, then: str, title: str, year: int
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say(first)
        await lembra.say(then)
        items = await lembra.items()

    assert (title, year, "movie") in [(i.title, i.year, i.type) for i in items]


@pytest.mark.parametrize(
    "fix",
    ["the third one is actually a movie, not a show", "o terceiro é na verdade um filme"],
)
async def test_a_line_named_by_its_place_is_retyped_with_an_adverb_by_the_verb(
    db: Database, fix: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva as séries Lume, Bruma e Vértice")
        await lembra.say(fix)
        items = await lembra.items()

    assert [i.type for i in sorted(items, key=lambda i: i.seq)] == ["tv_show", "tv_show", "movie"]


async def test_a_type_said_in_passing_types_the_save(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva a série Lume")
        await lembra.say("salva tb Bruma Alta, essa também é série")
        items = await lembra.items()

    assert sorted((i.title, i.type) for i in items) == [
        ("Bruma Alta", "tv_show"),
        ("Lume", "tv_show"),
    ]


async def test_a_correction_naming_an_older_note_by_its_words_fixes_that_note(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: protocolo da operadora AX77120931")
        await lembra.say("anota: voucher do hotel ZZ91")
        fixed = await lembra.say("o protocolo da operadora ta errado, o certo é AX77120981")
        items = await lembra.items()

    assert sorted(i.content or "" for i in items) == [
        "protocolo da operadora AX77120981",
        "voucher do hotel ZZ91",
    ]
    assert "AX77120981" in fixed.text


async def test_a_correction_whose_words_name_no_note_leaves_older_notes_alone(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: protocolo da operadora AX77120931")
        await lembra.say("anota: voucher do hotel ZZ91")
        await lembra.say("o pedido da farmacia ta errado, o certo é AX77120981")
        items = await lembra.items()

    assert sorted(i.content or "" for i in items) == [
        "protocolo da operadora AX77120931",
        "voucher do hotel ZZ91",
    ]


async def test_a_note_named_after_a_clause_saying_why_takes_the_new_value(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("jot down: garage door pin is Lemon#12")
        await lembra.say("jot down: buy oat milk")
        await lembra.say("they reset it yesterday, update the garage note to Melon#40")
        items = await lembra.items()

    assert sorted(i.content or "" for i in items) == [
        "buy oat milk",
        "garage door pin is Melon#40",
    ]


async def test_a_list_note_takes_a_swap_an_addition_and_a_removal(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: feira de sábado: tomate, alface, cebola e ovos")
        await lembra.say("na nota da feira troca a alface por rúcula")
        await lembra.say("e põe batata tb")
        await lembra.say("tira a cebola da lista da feira")
        items = await lembra.items()

    assert [i.content for i in items] == ["feira de sábado: tomate, rúcula, ovos e batata"]


async def test_an_addition_to_a_list_named_by_its_words_is_written_as_the_list(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("note: packing list: charger, socks and adapter")
        await lembra.say("note: call the bank")
        await lembra.say("add sunscreen to the packing list")
        items = await lembra.items()

    assert sorted(i.content or "" for i in items) == [
        "call the bank",
        "packing list: charger, socks, adapter and sunscreen",
    ]


def test_a_list_one_per_line_keeps_its_bullets() -> None:
    added = list_edit("add sunscreen to the packing list")
    taken = list_edit("cross off socks")
    assert added is not None
    assert taken is not None
    assert list_edited("packing list:\n- charger\n- socks", added) == (
        "packing list:\n- charger\n- socks\n- sunscreen"
    )
    assert list_edited("1. charger\n2. socks\n3. hat", added) == (
        "1. charger\n2. socks\n3. hat\n4. sunscreen"
    )
    assert list_edited("packing list:\n- charger\n- socks", taken) == "packing list:\n- charger"


async def test_an_addition_after_a_film_was_saved_is_no_list_edit(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: feira: tomate, alface e ovos")
        await lembra.say("salva o filme Rio Escuro")
        await lembra.say("e acrescenta banana")
        items = await lembra.items()

    assert "feira: tomate, alface e ovos" in [i.content for i in items]


def test_list_edits_decline_what_names_an_item_or_a_save() -> None:
    assert list_edit("adiciona o filme Duna") is None
    assert list_edit("apaga o leite") is None  # an item to delete as likely
    assert list_edit("add it") is None
    assert list_edit("tira o café da lista?") is None
    assert list_edit("bota um lembrete amanhã") is None  # a reminder, not an element
    assert list_edit("add a reminder at 9pm") is None
    edit = list_edit("tira o café")
    assert edit is not None
    assert list_edited("arroz e feijão", edit) is None  # not on the list: nothing changes
    assert list_edited("ligar pro banco amanhã cedo", edit) is None  # no list


_LIST_WORDS = st.sampled_from(
    "e acrescenta põe tira risca add cross off na nota da lista do mercado to the list from "
    "o a leite café , : - \n 12 Kiwi#42 ? filme it banana ovos".split(" ")
)
_LIST_TEXT = st.one_of(st.text(max_size=80), st.lists(_LIST_WORDS, max_size=14).map(" ".join))


@given(_LIST_TEXT, _LIST_TEXT)
def test_the_edit_readers_never_raise(message: str, content: str) -> None:
    edit = list_edit(message)
    if edit is not None:
        list_edited(content, edit)
    list_edited(content, ListEdit("remove", ("leite",), []))
    list_edited(content, ListEdit("add", ("ovos", "pão"), []))
    naming_overlap(message, content)
    note_value(message)
    corrected_value(message)
