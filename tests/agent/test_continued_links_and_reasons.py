"""After a save, "e esse vídeo tb <url>" / "and this one too <url>" saves that address (it was
offered as a note); "delete the X one, <why>" deletes X, the reason no part of what is named,
while a title with a comma stays whole."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.conversation import continuing
from agent.planning.offline import plan_offline
from storage import Database
from tests.support.harness import open_lembra


async def test_an_address_added_after_a_save_is_saved_by_its_kind(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Aftersun")
        await lembra.say("e esse vídeo aqui tb https://youtu.be/dQw4w9WgXcQ")
        await lembra.say("and this one too https://example.org/essay")
        kinds = sorted((i.type, i.url or "") for i in await lembra.items() if i.url)
        assert kinds == [
            ("link", "https://example.org/essay"),
            ("video", "https://youtu.be/dQw4w9WgXcQ"),
        ]


async def test_words_beside_an_address_that_say_more_leave_it_to_the_planner(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Aftersun")
        await lembra.say("e apaga esse https://example.org/essay")
        assert [i.type for i in await lembra.items()] == ["movie"]


async def test_a_delete_with_a_reason_after_it_names_the_item_only(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("note: wifi at the cabin is pinecone77")
        await lembra.say("note: buy sunscreen")
        preview = await lembra.say("delete the cabin one, we sold it")
        assert "wifi at the cabin" in preview.text
        await lembra.say("yes")
        assert [i.content for i in await lembra.items()] == ["buy sunscreen"]


async def test_a_deletion_after_a_reason_deletes_what_it_names(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar vela de aniversário")
        await lembra.say("anota: levar o carro na revisão")
        preview = await lembra.say("não vai ter mais festa, cancelaram. tira a nota da vela")
        await lembra.say("sim")
        kept = await lembra.say("nem pensar, não apaga a do carro")
        assert preview.text.startswith("Apagar comprar vela de aniversário?")
        assert "Apagar" not in kept.text
        assert [i.content for i in await lembra.items()] == ["levar o carro na revisão"]


def test_a_title_with_a_comma_stays_whole() -> None:
    assert plan_offline("delete Crouching Tiger, Hidden Dragon", "delete") == (
        "delete_item",
        {"query": "Crouching Tiger, Hidden Dragon"},
    )


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["e esse vídeo tb ", "and this one too ", "e ", ""]), st.text(max_size=80))
def test_the_link_and_reason_readers_never_raise(lead: str, rest: str) -> None:
    continuing._one_link(lead + rest)
    continuing._one_link(lead + "https://example.org/" + rest)
    plan_offline("delete the " + rest + ", they " + rest, "delete")


def test_a_removal_with_what_the_user_did_as_why_names_the_item_only() -> None:
    # issue 44: "tira o barbie, desisti dele" searched for the whole phrase
    assert plan_offline("tira o heat, cansei de esperar", "delete") == (
        "delete_item",
        {"query": "heat"},
    )
    assert plan_offline("remove dune, gave up on it", "delete") == (
        "delete_item",
        {"query": "dune"},
    )


def test_the_list_an_item_is_taken_from_is_no_part_of_its_name() -> None:
    assert plan_offline("remove Severance from the watch list", "delete") == (
        "delete_item",
        {"query": "Severance"},
    )
    assert plan_offline("remove o Bacurau da minha lista", "delete") == (
        "delete_item",
        {"query": "Bacurau"},
    )
    # a title that holds the word is whole when nothing follows it
    assert plan_offline("apaga o filme Lista de Schindler", "delete") == (
        "delete_item",
        {"query": "Lista de Schindler"},
    )


def test_a_type_said_after_a_comma_types_the_title_and_a_pronoun_stays_the_planners() -> None:
    assert plan_offline("guarda Oldboy, é filme", "save") == ("enrich_movie", {"title": "Oldboy"})
    assert plan_offline("add Taskmaster, it's a show", "save") == (
        "enrich_tv_show",
        {"title": "Taskmaster"},
    )
    # "ela" is what was said before: no title, no note of the words
    assert plan_offline("então guarda ela também, é série", "save") is None
