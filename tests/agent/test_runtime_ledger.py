"""Every effect is a content-free ledger event on a verifiable chain; replies follow the user's language."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from agent.texts import text
from agent.types import Incoming
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra

SECRETS = ("Matrix", "segredo", "azul", "example.com", "privado", "receita-da-vovo")


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


async def test_effects_are_ledger_events_without_user_content(lembra: Lembra, db: Database) -> None:
    for message in (
        "salva o filme the matrix",
        "anota: segredo azul",
        "guarda https://example.com/privado/receita-da-vovo",
        "apaga segredo azul",
        "sim",
        "apaga tudo",
        "sim",
    ):
        await lembra.say(message)

    events = await lembra.events()
    assert [e.type for e in events] == [
        "item_saved",
        "item_saved",
        "item_saved",
        "item_deleted",
        "all_deleted",
    ]
    assert [e.payload["type"] for e in events[:4]] == ["movie", "note", "link", "note"]
    assert events[4].payload == {
        "count": 2,
        "by_type": {"note": 0, "movie": 1, "tv_show": 0, "video": 0, "link": 1},
        "snapshot": events[4].payload["snapshot"],  # the undo batch: an id, no content
    }
    assert str(events[4].payload["snapshot"]).startswith("all:")
    # Nothing anyone wrote is in the ledger collection, in any field of any document.
    everything = await db.client[db.name]["ledger"].find({}).to_list(None)
    dumped = json.dumps(everything, default=str).casefold()
    for secret in SECRETS:
        assert secret.casefold() not in dumped, secret
    assert (await db.ledger.verify(ALICE)).ok


async def test_a_ledger_event_carries_the_platform_update_id(lembra: Lembra) -> None:
    await lembra.handle(
        Incoming(
            channel="telegram",
            chat_id="42",
            user_id="tg:42",
            text="anota: comprar leite",
            update_id="tg:90001",
        )
    )

    [event] = await lembra.events("tg:42")
    assert event.type == "item_saved"
    assert event.payload["update_id"] == "tg:90001"


async def test_a_duplicate_save_appends_no_event(lembra: Lembra, db: Database) -> None:
    await lembra.say("anota: comprar leite")
    await lembra.say("anota: comprar leite")
    await lembra.say("lista tudo")

    assert await lembra.event_types() == ["item_saved"]
    assert (await db.ledger.verify(ALICE)).ok


# -- localization -----------------------------------------------------------------------------


async def test_portuguese_is_the_default(lembra: Lembra) -> None:
    reply = await lembra.say("salva o filme inception")

    assert reply.text.startswith("Encontrei 2 opções para «inception». Qual?")
    assert (await lembra.known_user()).language == "pt"


async def test_a_language_hint_on_first_contact_makes_it_english(lembra: Lembra) -> None:
    help_reply = await lembra.say("hi", user="cli:emma", language_hint="en")
    choice = await lembra.say("save the movie inception", user="cli:emma")
    saved = await lembra.say("the first one", user="cli:emma")
    preview = await lembra.say("delete everything", user="cli:emma")

    assert help_reply.text == text("greeting", "en")
    assert choice.text.startswith("I found 2 matches for «inception». Which one?")
    assert lembra.tmdb.requests[-1].params["language"] == "en-US"
    assert saved.text == "✅ Saved: Inception (2010)."
    assert preview.text.startswith(
        "This will delete 1 item (movies: 1), for example: Inception (2010)."
    )
    assert [c.label for c in preview.choices] == ["Yes", "No"]


async def test_lang_en_switches_an_existing_user_to_english(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite")

    await lembra.say("/lang en")
    listed = await lembra.say("list everything")
    stray = await lembra.say("sim")

    assert listed.text.splitlines() == ["Your items (1):", "", "Notes (1):", "1. comprar leite"]
    assert stray.text == "There is nothing pending to confirm."
