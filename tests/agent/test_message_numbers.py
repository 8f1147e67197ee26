"""A private chat's messages are numbered on the user document, reserved with its read.

Issue 16: every turn spent a round trip on `summaries.find_one_and_update` to number
the messages it stores. In a private chat (the conversation id is the user id) the
turn now reserves its two numbers in the `users` round trip it makes anyway, so a
deterministic turn stores its messages with one `insert_many` and never touches
`summaries`. These tests watch the real database's round trips and check what users
and operators rely on: history in order with no number used twice, model turns that
store more messages, groups, an upgrade from a database numbered the old way, and a
counter left behind its messages.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from storage import Database
from storage.schema import SCHEMA_ID, upgrade
from tests.support.harness import ALICE, Lembra, open_lembra
from tests.support.trips import Trips

BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}
NOTE = {
    "action": "CALL_TOOL",
    "tool": "save_note",
    "args": {"content": "comprar pão"},
    "message": None,
    "belief": BELIEF,
}


@pytest.fixture
async def lembra(watched_db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(watched_db, counting_model=True) as running:
        yield running


def numbers(messages: list[Any]) -> list[int]:
    return [m.seq for m in messages]


async def test_a_deterministic_turn_numbers_its_messages_without_a_counter_trip(
    lembra: Lembra, trips: Trips
) -> None:
    await lembra.say("oi")
    trips.seen.clear()

    await lembra.say("lista tudo")

    assert trips.on("summaries") == []
    assert trips.on("users") == ["find_one_and_update"]  # the read that reserves
    assert trips.on("messages") == ["insert_many"]
    history = await lembra.messages()
    assert [m.role for m in history] == ["human", "ai", "human", "ai"]
    assert numbers(history) == [1, 2, 3, 4]


async def test_a_planned_turn_reserves_its_four_messages_with_the_user_read(
    lembra: Lembra, trips: Trips
) -> None:
    await lembra.say("oi")
    trips.seen.clear()

    await lembra.say("anota: comprar pão", llm=[NOTE])  # human, call, result, reply

    assert trips.on("users").count("find_one_and_update") == 2  # the read, the save's intent
    assert trips.on("messages") == ["find", "insert_many"]  # the frame's history, the turn
    assert "find_one_and_update" not in trips.on("summaries")
    history = await lembra.messages()
    assert [m.role for m in history] == ["human", "ai", "human", "ai", "tool", "ai"]
    assert numbers(history) == [1, 2, 3, 4, 5, 6]


async def test_a_turn_storing_more_than_it_reserved_keeps_its_messages_together(
    lembra: Lembra,
) -> None:
    # an invalid first output: human, bad call, its correction, call, result, reply
    bad = {**NOTE, "args": {}}
    await lembra.say("anota: comprar pão", llm=[bad, NOTE])
    await lembra.say("lista tudo")

    history = await lembra.messages()
    assert [m.role for m in history][-2:] == ["human", "ai"]
    assert len(history) > 4 + 2  # more than the four numbers the planned turn reserved
    assert numbers(history) == list(range(1, len(history) + 1))  # the extras followed them
    assert await lembra.db.messages.last_seq(ALICE, ALICE) == len(history)


async def test_an_offline_save_reads_no_frame_and_takes_eight_round_trips(
    watched_db: Database, trips: Trips
) -> None:
    """The offline rules read only the message: no history, memory or constitution reads,
    and the effect is six trips (intent with number, the item's words indexed in two,
    insert, event, counters)."""
    async with open_lembra(watched_db) as offline:
        await offline.say("anota: ligar para a Ana")  # the user's ledger head is known now
        trips.seen.clear()

        reply = await offline.say("anota: comprar pão")

        assert "comprar pão" in reply.text
        assert trips.seen == [
            ("users", "find_one_and_update"),  # the user, four message numbers reserved
            ("users", "find_one_and_update"),  # the save's intent and its item number
            ("word_index", "find"),  # which of its words the index lists already (issue 35)
            ("word_index", "update_each"),  # its words' shards, counts and postings, one bulk
            ("items", "insert_one"),
            ("ledger", "insert_one"),
            ("users", "update_one"),  # the counter moved as the intent is cleared
            ("messages", "insert_many"),
        ]
        history = await offline.messages()
        assert numbers(history) == list(range(1, 9))
        user = await watched_db.users.get(ALICE)
        assert user is not None
        assert user.counts["note"] == 2
        assert all(slot is None for slot in user.effects.values())


async def test_a_group_keeps_one_sequence_for_all_its_members(lembra: Lembra) -> None:
    alice, bob, group = "tg:1001", "tg:1002", "-100777"
    await lembra.say("oi", user=alice, chat=group)
    await lembra.say("oi", user=bob, chat=group)
    await lembra.say("oi", user=alice)  # alice's private chat counts on its own

    conversation = f"tg:{group}"
    assert numbers(await lembra.db.messages.last(alice, conversation, 10)) == [1, 2]
    assert numbers(await lembra.db.messages.last(bob, conversation, 10)) == [3, 4]
    assert numbers(await lembra.messages(alice)) == [1, 2]


async def test_an_upgraded_database_goes_on_numbering_after_its_last_message(
    lembra: Lembra, watched_db: Database
) -> None:
    for message in ("oi", "lista tudo"):
        await lembra.say(message)
    # as a database written at schema 2 holds it: the counter on `summaries`, none on the user
    collections = watched_db.collections()
    await collections["summaries"].insert_one(
        {"_id": f"conv:{ALICE}", "kind": "conversation", "user_id": ALICE, "last_seq": 4}
    )
    await collections["users"].update_one({"_id": ALICE}, {"$set": {"message_seq": 0}})
    await collections["leases"].update_one({"_id": SCHEMA_ID}, {"$set": {"version": 2}})

    applied = await upgrade(collections, now_ms=lembra.clock.ms())
    await lembra.say("oi de novo")

    assert "private conversations numbered on the user document" in [m.name for m in applied]
    assert numbers(await lembra.messages()) == [1, 2, 3, 4, 5, 6]


async def test_a_counter_behind_its_messages_catches_up_and_loses_nothing(
    lembra: Lembra, watched_db: Database
) -> None:
    await lembra.say("oi")
    await lembra.say("lista tudo")
    # a counter that fell behind (e.g. data copied in by hand): the next numbers are taken
    users = watched_db.collections()["users"]
    await users.update_one({"_id": ALICE}, {"$set": {"message_seq": 1}})

    reply = await lembra.say("oi de novo")

    history = await lembra.messages()
    assert reply.text
    assert [m.content for m in history].count("oi de novo") == 1
    assert numbers(history) == sorted(set(numbers(history)))
    assert history[-2].content == "oi de novo"
    assert history[-1].content == reply.text
