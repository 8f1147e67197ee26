"""The word index (storage/wordindex.py) on every backend: in step with every item write,
read by `_id` and one equality, rebuilt at start when the word function changes."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterable
from pathlib import Path

from storage import Database
from storage.documents import ItemDoc
from storage.maintenance import backup, restore
from storage.wordindex import STATE_ID, WordSource, shard_keys
from tests.conftest import open_test_db
from tests.support.servers import RunningServer

NOW = 1_767_600_000_000


def movie(user_id: str, seq: int, title: str, **fields: object) -> ItemDoc:
    return ItemDoc(
        _id=uuid.uuid4().hex,
        user_id=user_id,
        seq=seq,
        type="movie",
        title=title,
        dedup_key=f"title:{title.lower()}",
        created_at_ms=NOW + seq,
        updated_at_ms=NOW + seq,
        **fields,  # type: ignore[arg-type]
    )


async def holding(db: Database, user_id: str, *words: str) -> set[str]:
    return await db.word_index.holding(user_id, words)


async def test_the_operations_the_index_relies_on_agree_on_every_backend(any_db: Database) -> None:
    coll = any_db.derived()["word_index"]
    # upserts in one bulk: a missing document is made with its dotted `$set` nested (a
    # number as a key stays a key) and its `$inc` counted from zero
    await coll.update_each(
        [
            ({"_id": "s|x|matr"}, {"$set": {"w.matrix": 1, "w.1999": 1, "u": "x"}}),
            ({"_id": "n|x|matrix"}, {"$inc": {"n": 2}, "$set": {"u": "x", "s": True}}),
        ],
        upsert=True,
    )
    await coll.update_each(
        [
            ({"_id": "s|x|matr"}, {"$set": {"w.matrx": 1}}),
            ({"_id": "n|x|matrix"}, {"$inc": {"n": -1}}),
        ],
        upsert=True,
    )
    docs = {d["_id"]: d for d in await coll.find({"_id": {"$in": ["s|x|matr", "n|x|matrix"]}})}
    assert docs["s|x|matr"]["w"] == {"matrix": 1, "1999": 1, "matrx": 1}
    assert (docs["n|x|matrix"]["n"], docs["n|x|matrix"]["s"]) == (1, True)
    # an equality on the single-field index finds exactly its documents
    await coll.insert_many([{"_id": f"p|x|w|{n}", "k": "x|w", "u": "x"} for n in range(3)])
    await coll.insert_one({"_id": "p|x|ww|9", "k": "x|ww", "u": "x"})
    assert sorted(d["_id"] for d in await coll.find({"k": "x|w"})) == [
        f"p|x|w|{n}" for n in range(3)
    ]
    # one cursor, page by page
    pages = [len(page) async for page in coll.stream({"k": "x|w"}, batch_size=2)]
    assert pages == [2, 1]


async def test_item_writes_keep_the_postings_in_step(any_db: Database) -> None:
    item, created = await any_db.items.insert(movie("tg:1", 1, "Matrix Reloaded", year=2003))
    assert created
    await any_db.items.insert(movie("tg:2", 1, "Matrix"))  # another user's matrix
    assert await holding(any_db, "tg:1", "matrix") == {item.id}
    assert await holding(any_db, "tg:1", "2003", "reloaded") == {item.id}

    await any_db.items.update_fields("tg:1", item.id, {"title": "Inception"}, NOW + 5)
    assert await holding(any_db, "tg:1", "matrix", "reloaded") == set()
    assert await holding(any_db, "tg:1", "inception", "2003") == {item.id}
    assert (await any_db.word_index.counts("tg:1", ["matrix", "inception"])) == {
        "matrix": 0,
        "inception": 1,
    }

    await any_db.items.delete("tg:1", item.id)
    assert await holding(any_db, "tg:1", "inception", "2003") == set()
    assert await holding(any_db, "tg:2", "matrix") != set()


async def test_a_duplicate_save_leaves_no_postings_for_the_item_never_created(
    any_db: Database,
) -> None:
    first, _ = await any_db.items.insert(movie("tg:1", 1, "Heat"))
    again, created = await any_db.items.insert(movie("tg:1", 2, "Heat"))
    assert (again.id, created) == (first.id, False)
    assert await holding(any_db, "tg:1", "heat") == {first.id}


async def test_words_are_listed_under_every_shard_a_neighbour_can_reach(any_db: Database) -> None:
    await any_db.items.insert(movie("tg:1", 1, "Interstellar"))
    listed = await any_db.word_index.listed("tg:1", shard_keys("intrestellar"))  # one typo
    assert "interstellar" in listed
    assert "interstellar" in await any_db.word_index.listed("tg:1", ["inte"])  # a prefix
    assert await any_db.word_index.listed("tg:2", shard_keys("interstellar")) == frozenset()


async def test_concurrent_saves_of_a_new_word_lose_none_of_it(any_db: Database) -> None:
    saved = await asyncio.gather(
        *(any_db.items.insert(movie("tg:1", n, f"Matrix {n}")) for n in range(12))
    )
    ids = {item.id for item, _ in saved}
    assert await holding(any_db, "tg:1", "matrix") == ids
    assert "matrix" in await any_db.word_index.listed("tg:1", shard_keys("matrix"))
    assert (await any_db.word_index.counts("tg:1", ["matrix"]))["matrix"] >= 12


async def test_deleting_all_forgets_the_words_of_what_went_and_keeps_the_rest(
    any_db: Database,
) -> None:
    old, _ = await any_db.items.insert(movie("tg:1", 1, "Alien"))
    new, _ = await any_db.items.insert(movie("tg:1", 2, "Aliens"))
    await any_db.items.insert(movie("tg:2", 1, "Alien"))

    assert await any_db.items.delete_all("tg:1", up_to_seq=1) == 1
    assert await holding(any_db, "tg:1", "alien", "aliens") == {new.id}

    await any_db.items.delete_all("tg:1")  # erasing everything: nothing of theirs is left
    assert await any_db.derived()["word_index"].find({"u": "tg:1"}) == []
    assert await holding(any_db, "tg:2", "alien") != set()
    assert old.id not in await holding(any_db, "tg:2", "alien")


async def stored_without_words(db: Database, items: Iterable[ItemDoc]) -> None:
    """Items as a database written before the index has them (and an index that knows it)."""
    await db.word_index.mark_stale()
    await db.collections()["items"].insert_many([i.to_doc() for i in items])


async def test_the_start_up_catch_up_indexes_what_is_missing_and_only_that(
    any_db: Database,
) -> None:
    items = [movie("tg:1", n, f"Title {n}") for n in range(1, 8)]
    await stored_without_words(any_db, items)

    first = await any_db.items.catch_up()
    assert (first.checked, first.reindexed) == (7, 7)
    assert await holding(any_db, "tg:1", "title") == {i.id for i in items}
    stored = await any_db.collections()["items"].find_one({"_id": items[0].id})
    assert stored is not None
    assert stored["words"] == ["1", "titl", "title"]  # its words and their stems (issue 41)

    # the index says it is current: the next start reads nothing
    assert (await any_db.items.catch_up()).checked == 0
    # a start that died half-way: what already carries this version is not done again
    await stored_without_words(any_db, [movie("tg:1", 9, "Nine")])
    again = await any_db.items.catch_up()
    assert (again.checked, again.reindexed) == (8, 1)


async def test_a_new_word_function_moves_every_item_to_its_words(
    any_db: Database, nx_server: RunningServer
) -> None:
    item, _ = await any_db.items.insert(movie("tg:1", 1, "Matrix"))
    reversed_words = WordSource(lambda i: {w[::-1] for w in (i.title or "").lower().split()}, "r")
    later = Database(any_db.client, any_db.name, words=reversed_words)

    caught = await later.items.catch_up()

    assert caught.reindexed == 1
    assert later.word_index.ready
    assert await holding(later, "tg:1", "matrix") == set()
    assert await holding(later, "tg:1", "xirtam") == {item.id}
    state = await later.derived()["word_index"].find_one({"_id": STATE_ID})
    assert state is not None
    assert state["version"] == later.word_index.version


async def test_a_restore_clears_the_index_and_the_next_start_rebuilds_it(
    db: Database, nx_server: RunningServer, tmp_path: Path
) -> None:
    item, _ = await db.items.insert(movie("tg:1", 1, "Matrix"))
    archive = tmp_path / "lembra.jsonl.gz"
    await backup(db, archive, lembra_version="test")
    into = await open_test_db(nx_server.uri)
    try:
        await into.items.insert(movie("tg:1", 1, "Stale"))

        await restore(into, archive, force=True)

        assert not into.word_index.ready
        assert await holding(into, "tg:1", "stale", "matrix") == set()
        await into.items.catch_up()
        assert await holding(into, "tg:1", "matrix") == {item.id}
    finally:
        await into.drop()
        await into.close()
