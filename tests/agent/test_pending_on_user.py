"""A pending action lives on the user document: finding it costs no round trip.

Issue 16: every deterministic turn used to spend a round trip looking for a pending
action that almost never exists, and holding or settling one took two more. The user
document, read at the start of every turn anyway, now carries them. These tests watch
the real database's round trips (the storage observer an operator sees as
`lembra_db_round_trip_seconds`) and check that the confirmations users rely on still
work: held and settled in one write, after they expire, in a group, and for actions a
database written before this version left in `pending_actions`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Database
from storage.schema import CURRENT, SCHEMA_ID, upgrade
from tests.support.harness import ALICE, Lembra, open_lembra, seed
from tests.support.trips import Trips


@pytest.fixture
async def lembra(watched_db: Database) -> AsyncIterator[Lembra]:
    await seed(watched_db, ["anota: comprar leite", "anota: ligar para a Ana"])
    async with open_lembra(watched_db) as running:
        yield running


async def say_watched(lembra: Lembra, trips: Trips, text: str, **kwargs: str) -> list[str]:
    """Say `text` and return the `users` operations the turn made."""
    trips.seen.clear()
    await lembra.say(text, **kwargs)
    assert trips.on("pending_actions") == []  # never used since schema version 4
    return trips.on("users")


async def test_turns_with_nothing_pending_only_read_the_user_document(
    lembra: Lembra, trips: Trips
) -> None:
    await lembra.say(
        "lista tudo"
    )  # the first list keeps what it showed (tests/agent/test_shelf.py)
    for message in ("lista tudo", "oi", "sim", "lista tudo"):
        assert await say_watched(lembra, trips, message) == ["find_one_and_update"], message


async def test_a_confirmation_is_held_and_settled_in_one_write_each(
    lembra: Lembra, trips: Trips
) -> None:
    held = await say_watched(lembra, trips, "apaga tudo")
    assert held == ["find_one_and_update", "update_each"]
    assert (await lembra.say("cancela")).text == "Cancelado."
    assert (await lembra.say("sim")).text == "Não há nada pendente para confirmar."

    assert (await lembra.say("apaga tudo")).text.startswith("Isto apagará 2 itens")
    assert (await lembra.say("sim")).text == "✅ Apaguei 2 itens."
    assert await lembra.items() == []
    assert await say_watched(lembra, trips, "sim") == ["find_one_and_update"]


async def test_an_expired_confirmation_is_still_reported_once_then_forgotten(
    lembra: Lembra, trips: Trips
) -> None:
    await lembra.say("apaga tudo")
    lembra.clock.advance(lembra.deps.settings.pending_ttl_seconds + 1)

    reply = await lembra.say("sim")

    assert "expirou" in reply.text.lower()
    assert len(await lembra.items()) == 2  # nothing deleted after the deadline
    assert (await lembra.say("sim")).text == "Não há nada pendente para confirmar."


async def test_one_members_pending_action_in_a_group_leaves_the_others_alone(
    lembra: Lembra, watched_db: Database, trips: Trips
) -> None:
    alice, bob, group = "tg:1001", "tg:1002", "-100777"
    await seed(watched_db, ["anota: levar o guarda-chuva"], user=alice)
    await seed(watched_db, ["anota: pagar a conta"], user=bob)
    assert (await lembra.say("apaga tudo", user=alice, chat=group)).choice_token

    assert "update_each" not in await say_watched(lembra, trips, "lista tudo", user=bob, chat=group)
    assert (await lembra.say("sim", user=bob, chat=group)).text == (
        "Não há nada pendente para confirmar."
    )
    assert (await lembra.say("sim", user=alice, chat=group)).text == "✅ Apaguei 1 item."
    assert len(await lembra.items(bob)) == 1


async def test_an_action_left_in_pending_actions_is_moved_by_the_migration(
    lembra: Lembra, watched_db: Database
) -> None:
    await lembra.say("apaga tudo")
    # as a database written at schema 3 holds it: in `pending_actions`, not on the user
    collections = watched_db.collections()
    user = await collections["users"].find_one({"_id": ALICE})
    assert user is not None
    [legacy] = [doc for doc in user["pending"].values() if doc]
    await collections["pending_actions"].insert_one(legacy)
    await collections["users"].update_one({"_id": ALICE}, {"$set": {"pending": {}}})
    leases = collections["leases"]
    await leases.update_one({"_id": SCHEMA_ID}, {"$set": {"version": 3}})
    if await leases.find_one({"_id": SCHEMA_ID}) is None:
        await leases.insert_one({"_id": SCHEMA_ID, "version": 3, "expires_at_ms": 2**62})

    applied = await upgrade(collections, now_ms=lembra.clock.ms())
    again = await upgrade(collections, now_ms=lembra.clock.ms())

    assert [m.version for m in applied] == list(range(4, CURRENT + 1))
    assert applied[0].name == "pending actions on the user document"
    assert again == []
    assert await collections["pending_actions"].find({}) == []
    assert (await lembra.say("sim")).text == "✅ Apaguei 2 itens."
