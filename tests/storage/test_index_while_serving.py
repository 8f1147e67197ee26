"""The word index caught up while the process serves (issue 47; DESIGN 10.5).

`open_storage` answers at once with the index out of date; the catch-up runs beside it,
user by user, leaving a marker lookups read meanwhile; `lembra stats` sees how far it is.
Items whose stored words went stale (a whole document put back) are indexed again.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from pathlib import Path

import pytest

from agent.conversation.commands import index_line
from agent.tools.candidates import word_source
from storage import Database, StorageConfig, open_storage
from storage import wordindex as wordindex_module
from storage.documents import ItemDoc
from tests.storage.test_word_index import holding, movie
from tests.support.servers import RunningServer


class Died(Exception):
    """A catch-up stopped half-way (its process went away)."""


async def stored_without_words(db: Database, items: Iterable[ItemDoc]) -> None:
    await db.word_index.mark_stale()
    await db.collections()["items"].insert_many([i.to_doc() for i in items])


async def test_a_catch_up_that_died_half_way_resumes_after_the_users_marker(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wordindex_module, "CATCH_UP_PAGE", 2)
    items = [movie("tg:1", n, f"Title {n}") for n in range(1, 8)]
    await stored_without_words(db, items)
    pages = 0

    async def dies_after_two_pages() -> None:
        nonlocal pages
        pages += 1
        if pages == 2:
            raise Died

    with pytest.raises(Died):
        await db.items.catch_up(users=["tg:1"], total=7, heartbeat=dies_after_two_pages)

    assert not db.word_index.ready
    assert await db.word_index.indexed_through("tg:1") == 4  # two pages of two, in seq order
    progress = await db.word_index.progress()
    assert (progress.ready, progress.done, progress.of) == (False, 4, 7)
    assert index_line(progress, "en") == (  # what `lembra stats` prints meanwhile
        "search index: catching up, 4 of 7 items (57%); searches read the rest"
    )
    # the next start reads only what comes after the marker for this user
    again = await db.items.catch_up(users=["tg:1"], total=7)
    assert (again.checked, again.reindexed) == (3, 3)
    assert db.word_index.ready
    assert (await db.word_index.progress()).ready
    assert await holding(db, "tg:1", "title") == {i.id for i in items}


async def test_an_item_stamped_with_words_it_no_longer_shows_is_indexed_again(
    db: Database,
) -> None:
    item, _ = await db.items.insert(movie("tg:1", 1, "Matrix"))
    raw = db.collections()["items"]
    stored = await raw.find_one({"_id": item.id})
    assert stored is not None
    # a whole document put back by hand, with the stamp and words it had
    await raw.replace_one({"_id": item.id}, {**stored, "title": "Inception"})
    await db.word_index.mark_stale()

    caught = await db.items.catch_up()

    assert caught.reindexed == 1
    assert await holding(db, "tg:1", "inception") == {item.id}
    assert await holding(db, "tg:1", "matrix") == set()


async def test_putting_a_whole_item_back_keeps_its_words_in_step(db: Database) -> None:
    item, _ = await db.items.insert(movie("tg:1", 1, "Matrix"))
    changed = await db.items.update_fields("tg:1", item.id, {"title": "Inception"}, 5)
    assert changed is not None

    assert await db.items.put_back(item)  # an undone edit: the stored document as it was

    assert await holding(db, "tg:1", "matrix") == {item.id}
    assert await holding(db, "tg:1", "inception") == set()
    raw = await db.collections()["items"].find_one({"_id": item.id})
    assert raw is not None
    assert raw["words_v"] == db.word_index.stamp


async def test_storage_opens_before_the_index_is_caught_up_and_catches_up_beside_it(
    nx_server: RunningServer, tmp_path: Path
) -> None:
    name = f"t_{uuid.uuid4().hex[:12]}"
    config = StorageConfig(
        uri=nx_server.uri, db_name=name, data_dir=tmp_path, search_words=word_source()
    )
    items = [movie("tg:1", n, f"Lembrete {n}") for n in range(1, 30)]
    async with open_storage(config) as first:
        assert first.word_index.ready  # nothing to index: a new database never waits
        assert first.indexer is None
        await first.users.ensure("tg:1", language="pt", timezone="UTC", now_ms=1)
        await first.users.set_counts("tg:1", {"movie": len(items)})
        await stored_without_words(first, items)
    try:
        async with open_storage(config) as db:
            assert db.indexer is not None  # running beside whatever the process does now
            assert db.word_index.stamp is not None  # a save now is indexed as it is written
            await db.indexer
            assert db.word_index.ready
            assert await holding(db, "tg:1", "lembrete") == {i.id for i in items}
            assert (await db.word_index.progress()).ready
            # the lease is given back: another process would not wait for it
            assert await db.leases.acquire("job:word-index", "other", ttl_ms=1_000, now_ms=1)
    finally:
        async with open_storage(config) as db:
            await db.drop()
