"""Deleting everything at thousands of items (issue 47, deliver 1).

The reply comes once the intent is written; the kept copy is written a pack at a time,
the items and their words go in one `delete_many` each, one content-free `all_deleted`
event carries the count, and the counters reset as the intent clears, all off the turn.
The user's next turn waits for it; the kept copy comes back in batches.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.texts import OK_MARK
from agent.trust.audit import audit_user
from agent.trust.inverses import restore_kept
from storage import Database
from tests.support.bulk import stored_notes
from tests.support.harness import ALICE, Lembra, open_lembra
from tests.support.trips import Trips

MANY = 1_200


@pytest.fixture
async def lembra(watched_db: Database, tmp_path: Path) -> AsyncIterator[Lembra]:
    async with open_lembra(watched_db, data_dir=tmp_path) as running:
        await running.say("anota: comprar leite")  # saved the ordinary way: its words indexed
        await stored_notes(watched_db, ALICE, MANY)
        yield running


async def test_deleting_thousands_answers_at_once_and_finishes_off_the_turn(
    lembra: Lembra, watched_db: Database, trips: Trips
) -> None:
    db = watched_db
    preview = await lembra.say("apaga tudo")
    assert preview.choice_kind == "confirm"
    trips.seen.clear()

    reply = await lembra.say("sim")

    assert reply.text == f"{OK_MARK} Apaguei 1201 itens."
    await lembra.deps.inflight.settle(ALICE)
    # a constant number of round trips for the deletion; the kept copy a pack of 500 at a time
    assert trips.on("items").count("delete_many") == 1
    assert trips.on("word_index").count("delete_many") == 1
    assert trips.on("undo_snapshots") == ["delete_many", "insert_one", "insert_one", "insert_one"]
    assert trips.on("ledger").count("insert_one") == 1
    [event] = [e for e in await db.ledger.events(ALICE) if e.type == "all_deleted"]
    assert set(event.payload) == {"count", "by_type", "snapshot"}  # content-free
    assert event.payload["count"] == 1_201
    assert event.payload["by_type"]["note"] == 1_201
    user = await db.users.get(ALICE)
    assert user is not None
    assert sum(user.counts.values()) == 0
    assert all(slot is None for slot in user.effects.values())
    assert await db.derived()["word_index"].find({"u": ALICE}) == []
    batch = str(event.payload["snapshot"])
    assert await db.snapshots.size(ALICE, batch, now_ms=lembra.clock.ms()) == 1_201
    assert (await audit_user(lembra.deps, ALICE)).ok

    listed = await lembra.say("lista tudo")
    assert "comprar leite" not in listed.text
    assert await db.items.list_for(ALICE) == []

    # the kept copy comes back a pack at a time, words and counters with it; once
    assert await restore_kept(lembra.deps, ALICE, batch, now_ms=lembra.clock.ms()) == 1_201
    assert await restore_kept(lembra.deps, ALICE, batch, now_ms=lembra.clock.ms()) == 0
    back = await lembra.known_user()
    assert back.counts["note"] == 1_201
    found = await lembra.say("procura leite")
    assert "comprar leite" in found.text
    assert (await audit_user(lembra.deps, ALICE)).counts == {}  # (stored whole: no events)


async def test_the_next_turn_waits_for_the_deletion_it_follows(
    lembra: Lembra, watched_db: Database
) -> None:
    await lembra.say("apaga tudo")
    await lembra.say("sim")

    listed = await lembra.say("lista tudo")  # not settled by the test: the turn waits itself

    assert not lembra.deps.inflight.running(ALICE)
    assert "comprar leite" not in listed.text
    assert await watched_db.items.list_for(ALICE) == []


async def test_undoing_a_delete_all_of_thousands_brings_them_back_off_the_turn(
    lembra: Lembra, watched_db: Database
) -> None:
    await lembra.say("apaga tudo")
    await lembra.say("sim")
    preview = await lembra.say("desfaz")
    assert "1201" in preview.text
    assert preview.choice_kind == "confirm"

    reply = await lembra.say("sim")

    assert reply.text.startswith(f"{OK_MARK} Desfeito: 1201 itens de volta")
    user = await watched_db.users.get(ALICE)
    assert user is not None
    assert len(str(user.model_dump())) < 20_000  # the plan names the kept copy, not its items
    found = await lembra.say("procura leite")  # the next turn waits for the restore
    assert "comprar leite" in found.text
    assert (await lembra.known_user()).counts["note"] == 1_201
    assert len(await watched_db.items.list_for(ALICE)) == 1_201
    audit = await audit_user(lembra.deps, ALICE)
    assert (audit.counts, audit.unfinished) == ({}, 0)  # (stored whole: no save events)
    assert "Desfeito" in (await lembra.say("desfaz")).text  # the undo itself is undoable
