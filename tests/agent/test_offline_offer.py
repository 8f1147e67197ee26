"""The offline planner saves only what a message asks to save (DESIGN 9.2, issue 11).

Anything else gets one short reply of what Lembra can do and, where the message could be
kept, a "Guardar como nota" offer held for 2 minutes: a button, or "sim".
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from agent.texts import text
from storage import Database
from tests.support.harness import Lembra, open_lembra


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


async def test_a_statement_is_not_saved_but_offered_as_a_note(lembra: Lembra) -> None:
    reply = await lembra.say("comprar leite e pão")

    assert text("offline_capabilities", "pt") in reply.text
    assert [c.label for c in reply.choices] == ["Guardar como nota", "Não"]
    assert await lembra.items() == []
    assert await lembra.event_types() == []

    saved = await lembra.say("sim")

    assert saved.text == "✅ Salvo: comprar leite e pão."
    assert saved.meta.tools_executed == ("save_note",)
    assert [(i.type, i.content) for i in await lembra.items()] == [("note", "comprar leite e pão")]
    assert await lembra.event_types() == ["item_saved"]


async def test_the_button_keeps_the_note(lembra: Lembra) -> None:
    offer = await lembra.say("ligar pro dentista na clínica")

    reply = await lembra.press(0, token=offer.choice_token)

    assert "ligar pro dentista na clínica" in reply.text
    assert [i.content for i in await lembra.items()] == ["ligar pro dentista na clínica"]


@pytest.mark.parametrize("answer", ["ok", "beleza", "não", "no"])
async def test_anything_but_a_plain_yes_keeps_nothing(lembra: Lembra, answer: str) -> None:
    await lembra.say("comprar leite e pão")

    reply = await lembra.say(answer)

    assert "não guardei" in reply.text.lower() or "did not keep" in reply.text
    assert await lembra.items() == []
    assert await lembra.pending() is None


async def test_a_new_message_lets_the_offer_lapse_quietly(lembra: Lembra) -> None:
    await lembra.say("comprar leite e pão")

    reply = await lembra.say("obrigado!")

    assert reply.text == text("smalltalk_thanks", "pt")  # no "pending question dropped" line
    assert await lembra.pending() is None
    assert await lembra.items() == []


async def test_the_offer_expires_after_two_minutes(lembra: Lembra) -> None:
    await lembra.say("comprar leite e pão")
    lembra.clock.advance(120)

    reply = await lembra.say("sim")

    assert reply.text == text("nothing_to_confirm", "pt")
    assert await lembra.items() == []


async def test_an_english_statement_is_offered_in_english(lembra: Lembra) -> None:
    reply = await lembra.say("I went to the beach with my sister yesterday")

    assert text("offline_capabilities", "en") in reply.text
    assert [c.label for c in reply.choices] == ["Keep as a note", "No"]
    assert await lembra.items() == []


async def test_a_question_gets_no_offer_and_no_save(lembra: Lembra) -> None:
    reply = await lembra.say("qual a capital da França?")

    assert reply.text == text("offline_capabilities", "pt")
    assert reply.choices == ()
    assert await lembra.pending() is None
    assert await lembra.items() == []


async def test_a_question_about_a_link_reads_it_and_never_saves_it(lembra: Lembra) -> None:
    url = lembra.pages.url("/article")

    reply = await lembra.say(f"o que é {url}?")

    assert await lembra.items() == []
    assert reply.meta.tools_executed == ("enrich_link",)
    assert url in reply.text


async def test_a_message_that_is_only_a_link_is_saved(lembra: Lembra) -> None:
    url = lembra.pages.url("/article")

    await lembra.say(url)

    assert [(i.type, i.url) for i in await lembra.items()] == [("link", url)]


async def test_a_link_with_chat_around_it_is_offered_not_saved(lembra: Lembra) -> None:
    url = lembra.pages.url("/article")

    offer = await lembra.say(f"olha que legal isso {url}")

    assert [c.label for c in offer.choices] == ["Guardar o link", "Não"]
    assert await lembra.items() == []
    await lembra.say("sim")
    assert [(i.type, i.url) for i in await lembra.items()] == [("link", url)]


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        ("qual filme eu salvei?", "Filmes (1)"),
        ("quais filmes eu tenho?", "Filmes (1)"),
        ("que notas eu tenho?", "Notas (1)"),
        ("what movies do I have?", "Movies (1)"),
    ],
)
async def test_a_question_about_saved_things_lists_them_in_code(
    lembra: Lembra, question: str, heading: str
) -> None:
    await lembra.say("salva o filme the matrix")
    await lembra.say("anota: comprar pão")

    reply = await lembra.say(question)

    assert reply.meta.intent == "list_all"
    assert reply.meta.llm_calls == 0
    assert heading in reply.text
    assert len(await lembra.items()) == 2
