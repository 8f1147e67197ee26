"""Corrections and edits that carry over to new words (issue 41): a year is a year, never a
title; a value of a note's shape replaces the old one in the note the words name; a
list-like note takes a swap, an addition or a removal; a type said in passing types the
save. Each declines (the planner's) when it is not sure."""

from __future__ import annotations

import pytest

from storage import Database
from tests.support.harness import open_lembra


@pytest.mark.parametrize(
    ("fix", "year"),
    [
        ("hang on, it's 1999 not 1998", 1999),
        ("opa, é 2001 e não 1998", 2001),
        ("na verdade é 2003", 2003),
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
