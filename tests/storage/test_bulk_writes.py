"""A user-sized list is written a bounded batch at a time (issue 47, deliver 4).

One insert of 50,000 documents outlasted the driver's 10 s socket timeout on the embedded
server: every write of many documents or statements goes in batches of `WRITE_BATCH`, each
its own round trip (and its own kill point).
"""

from __future__ import annotations

import pytest

from storage import Database
from storage.collection import WRITE_BATCH
from storage.faults import Killed
from tests.storage.test_word_index import movie
from tests.support.trips import Trips, trips, watched_db

__all__ = ["trips", "watched_db"]  # fixtures


async def test_many_documents_go_in_batches_each_its_own_round_trip(
    watched_db: Database, trips: Trips
) -> None:
    coll = watched_db.derived()["word_index"]
    docs = [{"_id": f"x|{n}", "u": "x"} for n in range(2 * WRITE_BATCH + 100)]
    trips.seen.clear()

    await coll.insert_many(docs)
    await coll.update_each([({"_id": d["_id"]}, {"$set": {"k": "x|w"}}) for d in docs])

    assert trips.on("word_index") == ["insert_many"] * 3 + ["update_each"] * 3
    assert len(await coll.find({"k": "x|w"})) == len(docs)


async def test_a_kill_between_batches_leaves_the_batches_before_it(db: Database) -> None:
    coll = db.derived()["word_index"]
    docs = [{"_id": f"y|{n}", "u": "y"} for n in range(WRITE_BATCH + 5)]
    db.faults.hook = lambda point: (_ for _ in ()).throw(Killed(point))
    try:
        with pytest.raises(Killed):
            await coll.insert_many(docs)
    finally:
        db.faults.hook = None
    assert len(await coll.find({"u": "y"})) == WRITE_BATCH


async def test_restoring_many_items_indexes_them_and_leaves_what_is_there(db: Database) -> None:
    items = [movie("tg:1", n, f"Tubarão {n}") for n in range(1, 2 * WRITE_BATCH + 2)]
    await db.items.insert(items[5])  # already back (a restore run twice)
    clash = movie("tg:1", 9_999, "Tubarão 7")  # the user saved the same film again meanwhile
    await db.items.insert(clash)

    stored = await db.items.restore_many("tg:1", items)

    assert {i.id for i in stored} == {i.id for i in items} - {items[5].id, items[6].id}
    assert await db.items.get("tg:1", items[6].id) is None
    assert await db.word_index.holding("tg:1", ["tubarao"]) >= {i.id for i in stored}
    assert items[6].id not in await db.word_index.holding("tg:1", ["7"])
    assert len(await db.items.list_for("tg:1")) == len(items)
