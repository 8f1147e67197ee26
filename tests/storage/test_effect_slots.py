"""The effect slots on a user document behave the same on every backend (issue 15)."""

from __future__ import annotations

from storage import Database
from storage.documents import EffectDoc


async def test_an_effect_moves_its_counters_once_as_its_slot_is_cleared(any_db: Database) -> None:
    users = any_db.users
    await users.ensure("tg:1", language="pt", timezone="UTC", now_ms=1)
    effect = EffectDoc(id="e1", op="save", started_ms=1, item_id="i1", item_type="note")
    assert await users.begin_effect("tg:1", "slot1", effect, take_item_seq=True) == 1
    user = await users.get("tg:1")
    assert user is not None
    assert user.effects["slot1"] == effect
    assert user.item_seq == 1

    assert not await users.end_effect("tg:1", "slot1", "other", inc={"note": 1})
    assert await users.end_effect("tg:1", "slot1", "e1", inc={"note": 1})
    assert not await users.end_effect("tg:1", "slot1", "e1", inc={"note": 1})  # a retry
    user = await users.get("tg:1")
    assert user is not None
    assert user.counts["note"] == 1
    assert user.effects == {"slot1": None}


async def test_ending_can_set_all_counters_at_once(any_db: Database) -> None:
    users = any_db.users
    await users.ensure("tg:2", language="pt", timezone="UTC", now_ms=1)
    await users.adjust_count("tg:2", "movie", 3)
    assert (
        await users.begin_effect("tg:2", "s", EffectDoc(id="e", op="delete_all", started_ms=1)) == 0
    )
    assert await users.end_effect("tg:2", "s", "e", counts={"note": 1})
    user = await users.get("tg:2")
    assert user is not None
    assert user.counts == {"note": 1, "movie": 0, "tv_show": 0, "video": 0, "link": 0}
    assert user.item_seq == 0


async def test_a_save_extends_only_the_shelf_it_was_computed_from(any_db: Database) -> None:
    users = any_db.users
    user = await users.ensure("tg:3", language="pt", timezone="UTC", now_ms=1)
    assert await users.keep_shelf(user, {"key": "k0", "newest": {}, "oldest": []})
    for effect_id, was, label in (("e1", "k0", "first"), ("e2", "stale", "second")):
        effect = EffectDoc(id=effect_id, op="save", started_ms=1, item_type="note")
        await users.begin_effect("tg:3", "s", effect, take_item_seq=True)
        after = {"key": f"k-{label}", "newest": {"note": [label]}, "oldest": [label]}
        assert await users.end_effect("tg:3", "s", effect_id, inc={"note": 1}, shelf=(after, was))

    stored = await users.get("tg:3")
    assert stored is not None
    assert stored.shelf == {"key": "k-first", "newest": {"note": ["first"]}, "oldest": ["first"]}
    assert stored.counts["note"] == 2  # the second save ended all the same
    assert stored.items_v == 2
