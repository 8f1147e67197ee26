"""A turn reads `pending_actions` only when the user document says something may be pending.

Issue 16: every deterministic turn used to spend a round trip looking for a pending
action that almost never exists. The user document, read anyway, now carries a hint
per conversation. These tests watch the real database's round trips (the storage
observer an operator sees as `lembra_db_round_trip_seconds`) and check that the
confirmations users rely on still work: through the hint, after it expires, in a
group, and for actions left pending by a database written before the hint existed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Database
from storage.schema import SCHEMA_ID, upgrade
from tests.support.harness import ALICE, Lembra, open_lembra, seed
from tests.support.trips import Trips


@pytest.fixture
async def lembra(watched_db: Database) -> AsyncIterator[Lembra]:
    await seed(watched_db, ["anota: comprar leite", "anota: ligar para a Ana"])
    async with open_lembra(watched_db) as running:
        yield running


async def say_watched(lembra: Lembra, trips: Trips, text: str, **kwargs: str) -> list[str]:
    """Say `text` and return the `pending_actions` operations the turn made."""
    trips.seen.clear()
    await lembra.say(text, **kwargs)
    return trips.on("pending_actions")


async def test_turns_with_nothing_pending_never_read_pending_actions(
    lembra: Lembra, trips: Trips
) -> None:
    for message in ("lista tudo", "oi", "sim", "cancela", "lista tudo"):
        assert await say_watched(lembra, trips, message) == [], message


async def test_a_confirmation_is_found_through_the_hint_and_then_costs_nothing(
    lembra: Lembra, trips: Trips
) -> None:
    assert (await lembra.say("apaga tudo")).text.startswith("Isto apagará 2 itens")
    assert await say_watched(lembra, trips, "sim") != []  # the hint sends the turn to look

    assert await lembra.items() == []
    assert await say_watched(lembra, trips, "lista tudo") == []  # cleared with the action
    assert (await lembra.say("sim")).text == "Não há nada pendente para confirmar."


async def test_an_expired_confirmation_is_still_reported_once_then_forgotten(
    lembra: Lembra, trips: Trips
) -> None:
    await lembra.say("apaga tudo")
    lembra.clock.advance(lembra.deps.settings.pending_ttl_seconds + 1)

    reply = await lembra.say("sim")

    assert "expirou" in reply.text.lower()
    assert len(await lembra.items()) == 2  # nothing deleted after the deadline
    assert await say_watched(lembra, trips, "sim") == []


async def test_one_members_pending_action_in_a_group_leaves_the_others_alone(
    lembra: Lembra, watched_db: Database, trips: Trips
) -> None:
    alice, bob, group = "tg:1001", "tg:1002", "-100777"
    await seed(watched_db, ["anota: levar o guarda-chuva"], user=alice)
    await seed(watched_db, ["anota: pagar a conta"], user=bob)
    assert (await lembra.say("apaga tudo", user=alice, chat=group)).choice_token

    assert await say_watched(lembra, trips, "lista tudo", user=bob, chat=group) == []
    assert (await lembra.say("sim", user=bob, chat=group)).text == (
        "Não há nada pendente para confirmar."
    )
    assert (await lembra.say("sim", user=alice, chat=group)).text == "✅ Apaguei 1 item."
    assert len(await lembra.items(bob)) == 1


async def test_an_action_pending_before_the_upgrade_is_hinted_by_the_migration(
    lembra: Lembra, watched_db: Database
) -> None:
    await lembra.say("apaga tudo")
    # as a database written at schema 1 holds it: the pending action, and no hint
    users = watched_db.collections()["users"]
    await users.update_one({"_id": ALICE}, {"$set": {"pending_hint": {}}})
    leases = watched_db.collections()["leases"]
    await leases.update_one({"_id": SCHEMA_ID}, {"$set": {"version": 1}})
    if await leases.find_one({"_id": SCHEMA_ID}) is None:
        await leases.insert_one({"_id": SCHEMA_ID, "version": 1, "expires_at_ms": 2**62})

    applied = await upgrade(watched_db.collections(), now_ms=lembra.clock.ms())

    assert "pending-action hints on the user document" in [m.name for m in applied]
    assert (await lembra.say("sim")).text == "✅ Apaguei 2 itens."
