"""The repository contract, run against every available backend (DESIGN section 4)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from storage import Database
from storage.documents import EffectDoc, ItemDoc, PendingDoc, ToolCallRecord, done_key_of
from storage.ledger import GENESIS, event_hash
from storage.messages import NewMessage

NOW = 1_767_600_000_000  # 2026-01-05T08:00:00Z


def make_item(
    db: Database, user_id: str, seq: int, title: str, *, dedup: str | None = None
) -> ItemDoc:
    return ItemDoc(
        _id=db.items.new_id(),
        user_id=user_id,
        seq=seq,
        type="movie",
        title=title,
        year=2010,
        dedup_key=dedup or f"title:{title.lower()}:2010",
        created_at_ms=NOW + seq,
        updated_at_ms=NOW + seq,
    )


async def test_saving_the_same_thing_twice_keeps_one_item(any_db: Database) -> None:
    await any_db.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=NOW)
    first, created = await any_db.items.insert(make_item(any_db, "tg:1", 1, "Inception"))
    again, created_again = await any_db.items.insert(make_item(any_db, "tg:1", 2, "Inception"))
    assert created
    assert not created_again
    assert again.id == first.id
    assert [i.title for i in await any_db.items.list_for("tg:1")] == ["Inception"]


async def test_a_batch_inserts_what_is_new_and_leaves_a_taken_dedup_key(any_db: Database) -> None:
    await any_db.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=NOW)
    taken, _ = await any_db.items.insert(make_item(any_db, "tg:1", 1, "Heat"))
    batch = [make_item(any_db, "tg:1", n, t) for n, t in ((2, "Alien"), (3, "Heat"), (4, "Ran"))]
    inserted = await any_db.items.insert_many(batch)
    assert sorted(i.title or "" for i in inserted) == ["Alien", "Ran"]
    assert [i.title for i in await any_db.items.list_for("tg:1")] == ["Heat", "Alien", "Ran"]
    found = await any_db.items.by_dedup("tg:1", [i.dedup_key for i in batch])
    assert found[taken.dedup_key].id == taken.id
    assert await any_db.items.by_dedup("tg:2", [taken.dedup_key]) == {}


async def test_the_same_dedup_key_is_allowed_for_different_users(any_db: Database) -> None:
    await any_db.items.insert(make_item(any_db, "tg:1", 1, "Inception"))
    _, created = await any_db.items.insert(make_item(any_db, "tg:2", 1, "Inception"))
    assert created


async def test_items_are_scoped_to_their_user(any_db: Database) -> None:
    alice_item, _ = await any_db.items.insert(make_item(any_db, "tg:alice", 1, "Alien"))
    await any_db.items.insert(make_item(any_db, "tg:bob", 1, "Heat"))
    assert await any_db.items.get("tg:bob", alice_item.id) is None
    assert await any_db.items.delete("tg:bob", alice_item.id) is None
    assert await any_db.items.delete_many("tg:bob", [alice_item.id]) == 0
    assert [i.title for i in await any_db.items.list_for("tg:alice")] == ["Alien"]
    assert await any_db.items.delete_all("tg:bob") == 1
    assert [i.title for i in await any_db.items.list_for("tg:alice")] == ["Alien"]


async def test_items_list_in_creation_order_and_by_type(any_db: Database) -> None:
    await any_db.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=NOW)
    titles = ["Zodiac", "Alien", "Memento", "Heat"]
    for seq, title in enumerate(titles, 1):
        await any_db.items.insert(make_item(any_db, "tg:1", seq, title))
    note = ItemDoc(
        _id="n1",
        user_id="tg:1",
        seq=99,
        type="note",
        content="buy milk",
        dedup_key="note:buy milk",
        created_at_ms=NOW,
        updated_at_ms=NOW,
    )
    await any_db.items.insert(note)
    assert [i.title for i in await any_db.items.list_for("tg:1", item_type="movie")] == titles
    assert [i.label for i in await any_db.items.list_for("tg:1")][-1] == "buy milk"
    assert [i.title for i in await any_db.items.list_for("tg:1", limit=2)] == titles[:2]


async def test_user_content_with_operator_like_keys_is_stored_as_data(any_db: Database) -> None:
    await any_db.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=NOW)
    hostile = '{"$where": "sleep(1000)", "a.b": {"$ne": null}}'
    item = make_item(any_db, "tg:1", 1, "$where.title", dedup="title:$where.title")
    item = item.model_copy(update={"content": hostile})
    await any_db.items.insert(item)
    call = ToolCallRecord(id="call_1", name="save_note", args_json=hostile)
    await any_db.messages.append(
        "tg:1", "tg:1", [NewMessage(role="ai", tool_calls=(call,))], now_ms=NOW
    )
    stored = await any_db.items.get("tg:1", item.id)
    assert stored is not None
    assert stored.content == hostile
    assert stored.title == "$where.title"
    [message] = await any_db.messages.last("tg:1", "tg:1", 5)
    assert json.loads(message.tool_calls[0].args_json) == json.loads(hostile)
    await any_db.beliefs.set("tg:1", "$where.pref.genre", 0.5, now_ms=NOW)  # a model-named key
    assert await any_db.beliefs.all("tg:1") == {"$where.pref.genre": 0.5}
    assert await any_db.beliefs.get("tg:1", "$where.pref.genre") == 0.5


async def test_messages_keep_their_order_and_native_roles(any_db: Database) -> None:
    conv = "tg:1"
    call = ToolCallRecord(id="call_a", name="enrich_movie", args_json='{"title": "inception"}')
    await any_db.messages.append(
        "tg:1",
        conv,
        [
            NewMessage(role="human", content="salva inception"),
            NewMessage(role="ai", tool_calls=(call,)),
            NewMessage(
                role="tool", content="2 candidates", tool_call_id="call_a", name="enrich_movie"
            ),
            NewMessage(role="ai", content="Qual?"),
        ],
        now_ms=NOW,
    )
    await any_db.messages.append(
        "tg:1", conv, [NewMessage(role="human", content="1")], now_ms=NOW + 1
    )
    last = await any_db.messages.last("tg:1", conv, 3)
    assert [(m.seq, m.role) for m in last] == [(3, "tool"), (4, "ai"), (5, "human")]
    assert last[0].tool_call_id == "call_a"
    assert last[0].name == "enrich_movie"
    everything = await any_db.messages.last("tg:1", conv, 100)
    assert everything[1].tool_calls[0].id == "call_a"
    assert await any_db.messages.last("tg:2", conv, 10) == []  # scoped to the user


async def test_concurrent_message_appends_never_share_a_sequence(any_db: Database) -> None:
    async def write(i: int) -> None:
        await any_db.messages.append(
            "tg:1", "tg:1", [NewMessage(role="human", content=str(i))], now_ms=NOW
        )

    await asyncio.gather(*(write(i) for i in range(20)))
    messages = await any_db.messages.last("tg:1", "tg:1", 100)
    assert sorted(m.seq for m in messages) == list(range(1, 21))


def pending_for(user: str, conversation: str, kind: str, expires_at_ms: int) -> PendingDoc:
    return PendingDoc(
        _id=conversation,
        user_id=user,
        kind=kind,
        payload_json="{}",
        created_at_ms=NOW,
        expires_at_ms=expires_at_ms,
    )


async def test_pending_action_expires_by_the_callers_clock(any_db: Database) -> None:
    await any_db.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=NOW)
    await any_db.pending.put(pending_for("tg:1", "tg:1", "confirm_delete_all", NOW + 120_000))
    assert await any_db.pending.get("tg:1", "tg:1", now_ms=NOW + 119_999) is not None
    assert await any_db.pending.get("tg:2", "tg:1", now_ms=NOW) is None  # someone else's
    assert await any_db.pending.get("tg:1", "tg:1", now_ms=NOW + 120_000) is None
    assert await any_db.pending.peek("tg:1", "tg:1") is None  # removed on the way


async def test_one_pending_action_per_conversation(any_db: Database) -> None:
    await any_db.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=NOW)
    for kind in ("choose_movie", "confirm_delete_item"):
        await any_db.pending.put(pending_for("tg:1", "tg:1", kind, NOW + 1000))
    current = await any_db.pending.get("tg:1", "tg:1", now_ms=NOW)
    assert current is not None
    assert current.kind == "confirm_delete_item"
    assert await any_db.pending.delete("tg:1", "tg:1")
    assert not await any_db.pending.delete("tg:1", "tg:1")  # settled once


async def test_the_sweep_removes_only_what_expired_and_each_members_own(any_db: Database) -> None:
    group = "-100777"
    for user in ("tg:1", "tg:2"):
        await any_db.users.ensure(user, language="pt", timezone="UTC", now_ms=NOW)
    await any_db.pending.put(pending_for("tg:1", "tg:1", "confirm_delete_all", NOW + 1000))
    await any_db.pending.put(pending_for("tg:1", group, "choose_movie", NOW + 5000))
    await any_db.pending.put(pending_for("tg:2", group, "confirm_delete_item", NOW + 1000))

    swept = await any_db.pending.sweep(NOW + 1000)

    assert sorted((p.user_id, p.kind) for p in swept) == [
        ("tg:1", "confirm_delete_all"),
        ("tg:2", "confirm_delete_item"),
    ]
    kept = await any_db.pending.get("tg:1", group, now_ms=NOW + 1000)
    assert kept is not None
    assert kept.kind == "choose_movie"
    assert await any_db.pending.sweep(NOW + 1000) == []
    assert [p.kind for p in await any_db.pending.sweep(NOW + 5000)] == ["choose_movie"]
    assert await any_db.pending.sweep(NOW + 10_000) == []


async def test_holding_a_pending_action_for_an_unknown_user_is_an_error(any_db: Database) -> None:
    with pytest.raises(LookupError):
        await any_db.pending.put(pending_for("tg:404", "tg:404", "choose_movie", NOW + 1000))


async def append_events(db: Database, stream: str, n: int) -> None:
    for i in range(n):
        await db.ledger.append(
            stream, "item_saved", {"item_id": f"i{i}", "type": "movie"}, ts=NOW + i
        )


async def test_ledger_chain_links_every_event(any_db: Database) -> None:
    await append_events(any_db, "tg:1", 5)
    events = await any_db.ledger.events("tg:1")
    assert [e.seq for e in events] == [1, 2, 3, 4, 5]
    assert events[0].prev_hash == GENESIS
    for before, after in zip(events, events[1:], strict=False):
        assert after.prev_hash == before.hash
    first = events[0]
    assert first.hash == event_hash("tg:1", 1, "item_saved", first.payload, first.ts, GENESIS)
    assert (await any_db.ledger.verify("tg:1")).ok


async def test_ledger_verify_catches_an_edited_event(any_db: Database) -> None:
    await append_events(any_db, "tg:1", 5)
    raw = any_db.client[any_db.name]["ledger"]
    await raw.update_one({"stream": "tg:1", "seq": 3}, {"$set": {"payload.type": "note"}})
    result = await any_db.ledger.verify("tg:1")
    assert not result.ok
    assert result.bad_seq == 3
    assert "edited" in (result.reason or "")


async def test_ledger_verify_catches_an_interior_deletion(any_db: Database) -> None:
    await append_events(any_db, "tg:1", 5)
    await any_db.client[any_db.name]["ledger"].delete_one({"stream": "tg:1", "seq": 2})
    result = await any_db.ledger.verify("tg:1")
    assert not result.ok
    assert result.bad_seq == 3


async def test_ledger_verify_catches_swapped_events(any_db: Database) -> None:
    await append_events(any_db, "tg:1", 5)
    raw = any_db.client[any_db.name]["ledger"]
    two = await raw.find_one({"stream": "tg:1", "seq": 2})
    four = await raw.find_one({"stream": "tg:1", "seq": 4})
    assert two
    assert four
    for doc, other in ((two, four), (four, two)):
        await raw.replace_one({"_id": doc["_id"]}, {**other, "_id": doc["_id"], "seq": doc["seq"]})
    result = await any_db.ledger.verify("tg:1")
    assert not result.ok
    assert result.bad_seq == 2


@pytest.mark.parametrize(
    ("seq", "edit"),
    [
        (3, {"$unset": {"hash": ""}}),  # a field removed
        (2, {"$set": {"ts": str(NOW + 1)}}),  # the same value as another type
        (4, {"$set": {"payload": "not a mapping"}}),
    ],
    ids=["field-removed", "type-changed", "payload-replaced"],
)
async def test_ledger_verify_names_a_malformed_event(
    any_db: Database, seq: int, edit: dict[str, dict[str, str]]
) -> None:
    await append_events(any_db, "tg:1", 5)
    await any_db.client[any_db.name]["ledger"].update_one({"stream": "tg:1", "seq": seq}, edit)
    result = await any_db.ledger.verify("tg:1")
    assert not result.ok
    assert result.bad_seq == seq
    assert "edited" in (result.reason or "")


async def test_ledger_truncation_is_caught_against_a_saved_head(any_db: Database) -> None:
    await append_events(any_db, "tg:1", 4)
    saved = await any_db.ledger.head("tg:1")
    assert (await any_db.ledger.verify("tg:1", against=saved)).ok
    await any_db.client[any_db.name]["ledger"].delete_one({"stream": "tg:1", "seq": 4})
    assert (await any_db.ledger.verify("tg:1")).ok  # a clean prefix, undetectable alone
    result = await any_db.ledger.verify("tg:1", against=saved)
    assert not result.ok
    assert "truncated" in (result.reason or "")


async def test_fifty_concurrent_appends_leave_one_valid_chain(any_db: Database) -> None:
    # Separate repositories stand in for separate processes: none shares a cached head.
    other = Database(any_db.client, any_db.name)

    async def append(i: int) -> None:
        repo = any_db.ledger if i % 2 else other.ledger
        await repo.append("tg:1", "item_saved", {"n": i}, ts=NOW + i)

    await asyncio.gather(*(append(i) for i in range(50)))
    events = await any_db.ledger.events("tg:1")
    assert [e.seq for e in events] == list(range(1, 51))
    assert sorted(e.payload["n"] for e in events) == list(range(50))
    assert (await any_db.ledger.verify("tg:1")).ok


async def test_ledger_streams_are_independent(any_db: Database) -> None:
    await append_events(any_db, "tg:1", 2)
    await append_events(any_db, "tg:2", 3)
    heads = {h.stream: h.seq for h in await any_db.ledger.heads()}
    assert heads == {"tg:1": 2, "tg:2": 3}


async def test_lease_is_exclusive_under_concurrency(any_db: Database) -> None:
    results = await asyncio.gather(
        *(
            any_db.leases.acquire("chat:tg:1", f"worker-{i}", ttl_ms=30_000, now_ms=NOW)
            for i in range(30)
        )
    )
    assert sum(results) == 1
    holder = await any_db.leases.holder("chat:tg:1", now_ms=NOW)
    assert holder == f"worker-{results.index(True)}"


async def test_a_lease_held_elsewhere_is_not_taken_by_an_owner_of_another_lease(
    any_db: Database,
) -> None:
    # nx-27017 0.8.1 matched `{"_id": k, "$or": [{e: {"$lte": n}}, {owner: o}]}` against
    # any of o's documents: b's acquire of chat:1 "succeeded" by renewing b's job lease.
    leases = any_db.leases
    assert await leases.acquire("job:redrive", "b", ttl_ms=45_000, now_ms=NOW)
    assert await leases.acquire("chat:tg:1", "a", ttl_ms=15_000, now_ms=NOW)
    assert not await leases.acquire("chat:tg:1", "b", ttl_ms=15_000, now_ms=NOW + 5)
    assert await leases.holder("chat:tg:1", now_ms=NOW + 5) == "a"
    assert await leases.holder("job:redrive", now_ms=NOW + 40_000) == "b"


async def test_lease_renew_release_and_expiry(any_db: Database) -> None:
    leases = any_db.leases
    assert await leases.acquire("job:dream", "a", ttl_ms=1_000, now_ms=NOW)
    assert not await leases.acquire("job:dream", "b", ttl_ms=1_000, now_ms=NOW + 500)
    assert await leases.renew("job:dream", "a", ttl_ms=1_000, now_ms=NOW + 900)
    assert not await leases.acquire("job:dream", "b", ttl_ms=1_000, now_ms=NOW + 1_500)
    assert await leases.acquire("job:dream", "b", ttl_ms=1_000, now_ms=NOW + 1_900)  # a's expired
    assert not await leases.release("job:dream", "a")
    assert await leases.release("job:dream", "b")
    assert await leases.acquire("job:dream", "a", ttl_ms=1_000, now_ms=NOW + 2_000)


async def test_a_chat_lease_given_back_in_place_tells_its_last_holder_who_came_since(
    any_db: Database,
) -> None:
    leases, ttl = any_db.leases, 15_000
    assert await leases.acquire("chat:tg:1", "a", ttl_ms=ttl, now_ms=NOW)
    assert await leases.acquire("chat:tg:2", "a", ttl_ms=ttl, now_ms=NOW)
    keys = ["chat:tg:1", "chat:tg:2", "chat:tg:3"]
    assert await leases.give_back_many(keys, "a", epoch="e1", now_ms=NOW) == 2
    assert await leases.holder("chat:tg:1", now_ms=NOW + 1) is None  # free for anyone

    assert await leases.take_back("chat:tg:1", "a", epoch="e1", ttl_ms=ttl, now_ms=NOW + 1) == (
        "untouched"
    )
    assert not await leases.acquire("chat:tg:1", "b", ttl_ms=ttl, now_ms=NOW + 2)
    # given back in an earlier stretch of serving alone: someone may have come and gone
    assert await leases.take_back("chat:tg:2", "a", epoch="e2", ttl_ms=ttl, now_ms=NOW + 3) == (
        "marked"
    )

    await leases.give_back_many(["chat:tg:2"], "a", epoch="e2", now_ms=NOW + 4)
    await leases.mark_wanted("chat:tg:2", until_ms=NOW + 5_000)  # a process came up
    for at in (NOW + 5, NOW + 6):  # the mark holds until it lapses, read after read
        assert await leases.take_back("chat:tg:2", "a", epoch="e2", ttl_ms=ttl, now_ms=at) == (
            "marked"
        )
        await leases.give_back_many(["chat:tg:2"], "a", epoch="e2", now_ms=at)
    assert await leases.take_back("chat:tg:2", "a", epoch="e2", ttl_ms=ttl, now_ms=NOW + 5_000) == (
        "untouched"
    )

    await leases.give_back_many(["chat:tg:2"], "a", epoch="e2", now_ms=NOW + 5_001)
    assert await leases.acquire("chat:tg:2", "b", ttl_ms=ttl, now_ms=NOW + 5_002)  # b held it
    assert (
        await leases.take_back("chat:tg:2", "a", epoch="e2", ttl_ms=ttl, now_ms=NOW + 5_003) is None
    )
    assert await leases.holder("chat:tg:2", now_ms=NOW + 5_003) == "b"


async def test_a_mark_on_a_chat_without_a_lease_leaves_a_free_one_carrying_it(
    any_db: Database,
) -> None:
    leases = any_db.leases
    await leases.mark_wanted("chat:tg:9", until_ms=NOW + 5_000)
    await leases.mark_wanted("chat:tg:9", until_ms=NOW + 6_000)
    assert await leases.holder("chat:tg:9", now_ms=NOW) is None
    assert await leases.acquire("chat:tg:9", "a", ttl_ms=15_000, now_ms=NOW)  # free to take
    await leases.give_back_many(["chat:tg:9"], "a", epoch="e1", now_ms=NOW + 1)
    assert await leases.take_back("chat:tg:9", "a", epoch="e1", ttl_ms=15_000, now_ms=NOW + 2) == (
        "marked"
    )


async def test_peers_are_the_processes_announced_and_not_expired(any_db: Database) -> None:
    leases = any_db.leases
    await leases.announce("host:1:aa", ttl_ms=30_000, now_ms=NOW)
    await leases.announce("host:2:bb", ttl_ms=30_000, now_ms=NOW)
    await leases.acquire("chat:tg:1", "host:1:aa", ttl_ms=15_000, now_ms=NOW)
    assert await leases.peers(now_ms=NOW + 1) == ["host:1:aa", "host:2:bb"]
    await leases.announce("host:1:aa", ttl_ms=30_000, now_ms=NOW + 20_000)
    assert await leases.peers(now_ms=NOW + 40_000) == ["host:1:aa"]
    # everything that expired an hour ago goes; what is held or fresh stays
    await leases.mark_wanted("chat:tg:7", until_ms=NOW + 90_000)  # a free lease, marked
    assert await leases.sweep(expired_before_ms=NOW + 40_000, now_ms=NOW + 40_000) == 2
    assert await leases.peers(now_ms=NOW + 40_000) == ["host:1:aa"]
    assert await leases.sweep(expired_before_ms=NOW + 40_000, now_ms=NOW + 90_001) == 1


async def test_token_reservation_never_overspends(any_db: Database) -> None:
    results = await asyncio.gather(
        *(any_db.usage.reserve("tg:1", "2026-01-05", 300, 1_000) for _ in range(20))
    )
    assert sum(results) == 3
    day = await any_db.usage.day("tg:1", "2026-01-05")
    assert day is not None
    assert day["tokens"] == 900


async def test_processed_update_lifecycle(any_db: Database) -> None:
    now = time.time_ns() // 1_000_000  # wall clock: the TTL index compares with real time
    assert await any_db.updates.record("tg:10", "{}", now_ms=now) == "new"
    assert await any_db.updates.record("tg:10", "{}", now_ms=now) == "received"
    stale = await any_db.updates.stale(now + 60_001)
    assert [u.id for u in stale] == ["tg:10"]
    claims = await asyncio.gather(
        *(
            any_db.updates.claim_stale("tg:10", seen_updated_at_ms=now, now_ms=now + 70_000)
            for _ in range(5)
        )
    )
    assert sum(claims) == 1
    await any_db.updates.mark_done("tg:10", '{"text": "ok"}', now_ms=now + 1)
    assert await any_db.updates.record("tg:10", "{}", now_ms=now + 2) == "done"
    assert await any_db.updates.stale(now + 10**9) == []


async def test_users_counters_and_quota(any_db: Database) -> None:
    user = await any_db.users.ensure("wa:5511", language="en", timezone="UTC", now_ms=NOW)
    assert user.channel == "wa"
    assert user.counts["movie"] == 0
    again = await any_db.users.ensure("wa:5511", language="pt", timezone="UTC", now_ms=NOW + 5)
    assert again.language == "en"  # first contact wins
    await any_db.users.adjust_count("wa:5511", "movie", 2)
    effect = EffectDoc(id="e1", op="save", started_ms=NOW)
    assert await any_db.users.begin_effect("wa:5511", "s", effect, take_item_seq=True) == 1
    assert await any_db.users.begin_effect("wa:5511", "s", effect, take_item_seq=True) == 2
    assert await any_db.users.begin_effect("wa:5511", "s", effect, take_item_seqs=3) == 5
    assert await any_db.users.set_daily_quota("wa:5511", 5_000)
    stored = await any_db.users.get("wa:5511")
    assert stored is not None
    assert stored.counts["movie"] == 2
    assert stored.daily_token_quota == 5_000


async def test_beliefs_per_user(any_db: Database) -> None:
    await any_db.beliefs.set("tg:1", "pref.genre.horror", 0.7, now_ms=NOW)
    await any_db.beliefs.set("tg:1", "pref.genre.horror", 0.75, now_ms=NOW + 1)
    await any_db.beliefs.set("tg:2", "pref.genre.horror", 0.1, now_ms=NOW)
    assert await any_db.beliefs.all("tg:1") == {"pref.genre.horror": 0.75}
    assert await any_db.beliefs.get("tg:3", "pref.genre.horror") is None


async def test_constitution_versions(any_db: Database) -> None:
    assert await any_db.constitutions.latest() is None
    await any_db.constitutions.add("v1 text", author="system", now_ms=NOW)
    second = await any_db.constitutions.add("v2 text", author="tg:1", now_ms=NOW + 1)
    latest = await any_db.constitutions.latest()
    assert second.version == 2
    assert latest is not None
    assert latest.text == "v2 text"


async def test_summaries_handovers_in_order(any_db: Database) -> None:
    for n in range(3):
        await any_db.summaries.add_handover(
            "tg:1", "tg:1", {"text": f"handover {n}"}, now_ms=NOW + n
        )
    last = await any_db.summaries.last_handover("tg:1", "tg:1")
    assert last is not None
    assert last["text"] == "handover 2"
    assert await any_db.summaries.last_handover("tg:2", "tg:1") is None
    with pytest.raises(ValueError, match="last_seq"):
        await any_db.summaries.set_conversation_fields("tg:1", "tg:1", {"last_seq": 0})


async def test_done_items_are_one_equality_and_the_others_include_items_stored_before_states(
    any_db: Database,
) -> None:
    """DESIGN 11.5: `done_key: None` finds items with no such field (stored before states)."""
    for seq, title in enumerate(["Alien", "Heat", "Zodiac"], 1):
        await any_db.items.insert(make_item(any_db, "tg:1", seq, title))
    await any_db.items.insert(make_item(any_db, "tg:2", 1, "Alien"))
    [alien, heat, _] = await any_db.items.list_for("tg:1")
    raw = any_db.client[any_db.name]["items"]
    await raw.update_one({"_id": alien.id}, {"$unset": {"done_key": ""}})  # as stored before
    await any_db.items.update_fields(
        "tg:1", heat.id, {"state": "seen", "done_key": done_key_of("tg:1", "movie")}, NOW
    )
    [other] = await any_db.items.list_for("tg:2")
    await any_db.items.update_fields(
        "tg:2", other.id, {"state": "seen", "done_key": done_key_of("tg:2", "movie")}, NOW
    )

    assert await any_db.items.done_ids("tg:1", "movie") == [heat.id]
    assert [i.title for i in await any_db.items.done_first("tg:1", "movie", 10)] == ["Heat"]
    assert [i.title for i in await any_db.items.done_recently("tg:1", "movie", 10)] == ["Heat"]
    left = await any_db.items.list_for("tg:1", item_type="movie", not_done=True)
    assert [i.title for i in left] == ["Alien", "Zodiac"]
    assert [i.current_state for i in left] == ["to_see", "to_see"]
    assert await any_db.items.done_ids("tg:1", "note") == []


async def test_a_seen_movie_made_a_note_is_a_done_note(any_db: Database) -> None:
    await any_db.items.insert(make_item(any_db, "tg:1", 1, "Alien"))
    [alien] = await any_db.items.list_for("tg:1")
    await any_db.items.update_fields(
        "tg:1", alien.id, {"state": "seen", "done_key": done_key_of("tg:1", "movie")}, NOW
    )
    after = await any_db.items.update_fields("tg:1", alien.id, {"type": "note"}, NOW)
    assert after is not None
    assert (after.current_state, after.done) == ("done", True)
    assert await any_db.items.done_ids("tg:1", "note") == [alien.id]
    assert await any_db.items.done_ids("tg:1", "movie") == []
