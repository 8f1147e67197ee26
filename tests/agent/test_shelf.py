"""`lista tudo` from the shelf on the user document, and never a stale one.

Issue 16: listing everything read `items` once per type on every turn. What a list
shows is now kept with the user (agent/conversation/listing.py) under a key that every
change to the items moves. These tests watch the real database's round trips and check
what a user would notice: a repeated list costs no read of `items`, a save keeps the
shelf exactly as reading the items would show it, and a delete, an edit, an undo or a
repair of the counters shows up in the very next list.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra, seed
from tests.support.trips import Trips


@pytest.fixture
async def lembra(watched_db: Database) -> AsyncIterator[Lembra]:
    await seed(watched_db, ["anota: comprar leite", "anota: ligar para a Ana"])
    async with open_lembra(watched_db) as running:
        yield running


async def listed(lembra: Lembra, trips: Trips) -> tuple[str, list[str]]:
    """`lista tudo`'s reply and the `items` operations it took."""
    trips.seen.clear()
    reply = await lembra.say("lista tudo")
    return reply.text, trips.on("items")


async def test_a_repeated_list_reads_no_items_and_shows_the_same(
    lembra: Lembra, trips: Trips
) -> None:
    first, reads = await listed(lembra, trips)
    again, reads_again = await listed(lembra, trips)

    assert reads != []
    assert reads_again == []
    assert again == first
    assert "comprar leite" in again
    assert "ligar para a Ana" in again


async def test_a_save_keeps_the_shelf_exactly_as_reading_the_items_would(
    lembra: Lembra, watched_db: Database, trips: Trips
) -> None:
    await listed(lembra, trips)
    for message in ("anota: pagar a conta de luz", "https://example.com/artigo", "anota: regar"):
        await lembra.say(message)

    kept, reads = await listed(lembra, trips)
    await watched_db.users.items_changed(ALICE)  # as an edit would: the next list reads
    read, reads_again = await listed(lembra, trips)

    assert reads == []
    assert reads_again != []
    assert kept == read
    assert "1. regar" in kept
    assert "example.com/artigo" in kept
    assert "Seus itens (5)" in kept


async def test_deletes_and_undo_show_in_the_next_list(lembra: Lembra, trips: Trips) -> None:
    await listed(lembra, trips)
    await lembra.say("apaga a nota comprar leite")
    await lembra.say("sim")
    text, _ = await listed(lembra, trips)
    assert "comprar leite" not in text
    assert "Seus itens (1)" in text

    await lembra.say("desfaz")
    text, _ = await listed(lembra, trips)
    assert "comprar leite" in text


def edit(item_id: str, content: str) -> dict[str, Any]:
    return {
        "action": "CALL_TOOL",
        "tool": "update_item",
        "args": {"item_id": item_id, "content": content},
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": 0.9, "delta": 0},
    }


async def test_an_edit_shows_in_the_next_list(watched_db: Database, trips: Trips) -> None:
    await seed(watched_db, ["anota: comprar leite"])
    async with open_lembra(watched_db, counting_model=True) as lembra:
        await listed(lembra, trips)
        (note,) = await lembra.items()

        await lembra.say(
            "corrige a nota: comprar leite integral",
            llm=[edit(note.id, "comprar leite integral")],
        )

        text, reads = await listed(lembra, trips)
        assert "comprar leite integral" in text
        assert reads != []


async def test_the_delete_all_preview_names_examples_from_the_shelf(
    lembra: Lembra, trips: Trips
) -> None:
    await listed(lembra, trips)
    trips.seen.clear()

    preview = await lembra.say("apaga tudo")

    assert "comprar leite" in preview.text
    assert trips.on("items") == []
    await lembra.say("cancela")


async def test_a_shelf_kept_for_older_items_is_never_shown(
    lembra: Lembra, watched_db: Database, trips: Trips
) -> None:
    await listed(lembra, trips)
    # another process repairs the counters (consolidation does) after a lost update
    await watched_db.users.set_counts(ALICE, {"note": 1})
    text, reads = await listed(lembra, trips)
    assert reads != []
    assert "Seus itens (1)" in text
