"""`word_index`: the folded search words of every item, so a lookup by words reads only the
items that hold them (DESIGN 10.5, issue 35).

The words come from the agent's word function, handed in at start-up as a `WordSource`
(storage knows no words of its own), and sit on each item: `items.words`, with the version
that made them in `items.words_v`. nx-27017 matches no array element by equality and scans
for `$in` on any field but `_id` (measured at 50,000 items: 60-120 ms for a multikey `$in`
that finds one item, 0.6 ms for an equality on a single indexed field), so the index is
made of small documents of its own, each read by `_id` or by that one equality:

- a posting `p|<user>|<word>|<item>` for each word of each item, with `k: "<user>|<word>"`
  (indexed): the items holding a word are one equality read;
- a count `n|<user>|<word>`: how many items hold the word, to expand the rarest query word
  first. Only an estimate: it may overcount after a crash or a race, and never decides what
  is found;
- a shard `s|<user>|<key>`: the user's words of five letters or more, listed under each of
  `shard_keys(word)`, so the words a prefix or one typo away from a query word are in a few
  shards read by `_id` instead of a scan of the whole vocabulary.

Order is what keeps a lookup complete: a word's shards, count and posting are written before
the item shows the word, and the posting is removed only after the item no longer does. A
read may meet postings of items that are gone; it never lacks one. Shard entries are never
removed one by one (a stale word costs a few bytes, never a wrong result).

Derived from `items`, so not backed up: cleared on restore and rebuilt at start (`catch_up`)
whenever the word function's version is not the one the index was built with. The index
document `state` names its generation, begun when the index was last empty: an item stamped
with another generation (restored beside a cleared index) has no postings, whatever words
it carries.

The catch-up runs while the bot serves (issue 47): it goes user by user, each user's items in
`seq` order, and after each page a marker `c|<user>` says up to which number that user's
items are indexed. Until the whole catch-up is done a lookup reads the index and also the
user's items numbered after their marker (`not_indexed_after`), so it finds what it would
find afterwards. Items written meanwhile are indexed as they are written. A stamped item
whose stored words are not what the word function makes of it now (a whole document put
back) is indexed again, not skipped.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from pydantic import ValidationError

from config.logging import log_event
from storage.collection import Collection, Doc
from storage.documents import ItemDoc
from storage.errors import DuplicateKey, StorageError

KEY_LEN: Final = 4
MIN_SHARDED: Final = KEY_LEN + 1  # a shorter word is a neighbour of no other word: found exactly
SCHEME: Final = "1"  # this module's document layout; part of every index version
STATE_ID: Final = "state"
BATCH: Final = 1_000  # ids per `$in`, documents per insert
CATCH_UP_PAGE: Final = 500
THREAD_FROM: Final = 200  # items (or words) from which working out their statements leaves the loop
EVERY_SEQ: Final = 2**62  # a marker's `upto` once every item of its user is indexed
LOG_EVERY: Final = 5_000  # items between two "catching up" log lines
log = logging.getLogger("lembra.storage.wordindex")
T = TypeVar("T")

ItemWords = Callable[[ItemDoc], Iterable[str]]
Entry = tuple[str, str, Sequence[str]]  # user id, item id, words
Heartbeat = Callable[[], Awaitable[None]]  # told after each page of a catch-up


@dataclass(frozen=True, slots=True)
class WordSource:
    """The agent's word function and a version that changes whenever what it returns does."""

    words: ItemWords
    version: str


@dataclass(frozen=True, slots=True)
class CaughtUp:
    """What a start-up catch-up did."""

    checked: int
    reindexed: int
    skipped: int  # stored items that are not valid items (never listed either)


@dataclass(frozen=True, slots=True)
class IndexProgress:
    """How far the index is, as `lembra stats` shows it (`of` is 0 when not known)."""

    ready: bool
    done: int = 0
    of: int = 0


@dataclass(slots=True)
class _Tally:
    checked: int = 0
    reindexed: int = 0
    skipped: int = 0
    of: int = 0

    def add(self, checked: int, moved: int, bad: int) -> None:
        before = self.checked
        self.checked += checked
        self.reindexed += moved
        self.skipped += bad
        if self.checked // LOG_EVERY > before // LOG_EVERY:
            log_event(
                log,
                "search index catching up",
                checked=self.checked,
                reindexed=self.reindexed,
                of=self.of,
            )


def shard_keys(word: str) -> frozenset[str]:
    """The shards listing `word`: its first four letters, and the first four left when one is dropped.

    Two words one edit apart (a letter changed, added or dropped, two neighbours swapped)
    always share a key: SymSpell's deletion neighbourhood, cut to a prefix. A word that starts
    with a query of four letters or more is under that query's first four.
    """
    dropped = ((word[:i] + word[i + 1 :])[:KEY_LEN] for i in range(KEY_LEN))
    return frozenset({word[:KEY_LEN], *dropped})


def _posting(user_id: str, word: str, item_id: str) -> str:
    return f"p|{user_id}|{word}|{item_id}"


def _key(user_id: str, word: str) -> str:
    return f"{user_id}|{word}"


def _count(user_id: str, word: str) -> str:
    return f"n|{user_id}|{word}"


def _shard(user_id: str, key: str) -> str:
    return f"s|{user_id}|{key}"


def _marker(user_id: str) -> str:
    return f"c|{user_id}"


async def _maybe_off_loop(off: bool, work: Callable[..., T], *args: Any) -> T:
    return await asyncio.to_thread(work, *args) if off else work(*args)


def _postings(entries: Sequence[Entry]) -> tuple[Counter[tuple[str, str]], list[tuple[Doc, Doc]]]:
    """How many of the entries hold each (user, word), and one posting upsert per word of each."""
    per_word: Counter[tuple[str, str]] = Counter()
    postings: list[tuple[Doc, Doc]] = []
    for user_id, item_id, words in entries:
        for word in words:
            per_word[(user_id, word)] += 1
            fields = {"k": _key(user_id, word), "u": user_id}
            postings.append(({"_id": _posting(user_id, word, item_id)}, {"$set": fields}))
    return per_word, postings


def _shards_and_counts(
    per_word: Counter[tuple[str, str]], known: dict[str, Doc]
) -> list[tuple[Doc, Doc]]:
    """The shard listings a word still lacks, then each word's count, as upserts."""
    # a count marked `s` has its shards written: a crash between the two leaves it unmarked
    shards: dict[str, dict[str, Any]] = {}
    for user_id, word in per_word:
        if len(word) >= MIN_SHARDED and not known.get(_count(user_id, word), {}).get("s"):
            for key in shard_keys(word):
                shards.setdefault(_shard(user_id, key), {"u": user_id})[f"w.{word}"] = 1
    counts = [
        ({"_id": _count(u, w)}, {"$inc": {"n": n}, "$set": {"u": u, "s": True}})
        for (u, w), n in per_word.items()
    ]
    return [*(({"_id": sid}, {"$set": fields}) for sid, fields in shards.items()), *counts]


def _chunks(values: Sequence[Any], size: int = BATCH) -> Iterable[Sequence[Any]]:
    return (values[start : start + size] for start in range(0, len(values), size))


class WordIndex:
    """The `word_index` collection: written beside every item write, read by word lookups."""

    def __init__(self, coll: Collection, source: WordSource | None) -> None:
        self._c = coll
        self.source = source
        # True once every stored item is indexed at this version (`catch_up` in this process):
        # until then a lookup reads every item, as before the index existed
        self.ready = False
        self.generation: str | None = None  # the index's, learnt by `prepare`
        self._catching = asyncio.Lock()  # one catch-up at a time in this process

    @property
    def version(self) -> str | None:
        return f"{SCHEME}:{self.source.version}" if self.source else None

    @property
    def stamp(self) -> str | None:
        """What an item indexed now carries in `words_v`; None while items cannot be indexed."""
        if self.version is None or self.generation is None:
            return None
        return f"{self.version}|{self.generation}"

    def indexed(self, doc: Doc) -> list[str]:
        """The words of a stored item that have postings: none unless it is of this generation."""
        stamp = doc.get("words_v")
        if self.generation is None or not isinstance(stamp, str):
            return []
        if stamp.rpartition("|")[2] != self.generation:
            return []
        return [w for w in doc.get("words") or [] if isinstance(w, str)]

    async def ensure_indexes(self) -> None:
        await self._c.create_index([("k", 1)])  # postings of one user's word
        await self._c.create_index([("u", 1)])  # everything of one user, for erasing it

    def words_of(self, item: ItemDoc) -> list[str] | None:
        """The item's words as stored (sorted, unique); None when this process has no word function."""
        return sorted(set(self.source.words(item))) if self.source else None

    # -- writes ---------------------------------------------------------------------------

    async def add(self, user_id: str, item_id: str, words: Sequence[str]) -> None:
        """Index `words` for one item; before the item shows them."""
        await self.add_many([(user_id, item_id, words)])

    async def add_many(self, entries: Sequence[Entry]) -> None:
        """Index the words of several items: shards, then counts, then postings, in one bulk.

        The statements of a large batch (a catch-up page, a restored pack) are worked out
        off the event loop.
        """
        many = sum(len(words) for _, _, words in entries) > THREAD_FROM
        per_word, postings = await _maybe_off_loop(many, _postings, entries)
        if not postings:
            return
        known = await self._by_id([_count(u, w) for u, w in per_word])
        statements = await _maybe_off_loop(many, _shards_and_counts, per_word, known)
        # one ordered bulk: a statement runs only after those before it (SUBSET.md), and
        # every one of them can run again harmlessly (a re-drive, a crash half-way)
        await self._upsert([*statements, *postings])

    async def remove(self, user_id: str, item_id: str, words: Sequence[str]) -> None:
        """Forget `words` of one item; after the item no longer shows them."""
        await self.remove_many([(user_id, item_id, words)])

    async def remove_many(self, entries: Sequence[Entry]) -> None:
        per_word: Counter[tuple[str, str]] = Counter()
        ids: list[str] = []
        for user_id, item_id, words in entries:
            for word in words:
                per_word[(user_id, word)] += 1
                ids.append(_posting(user_id, word, item_id))
        for chunk in _chunks(ids):
            await self._c.delete_many({"_id": {"$in": list(chunk)}})
        decrements = [
            ({"_id": _count(u, w)}, {"$inc": {"n": -n}}) for (u, w), n in per_word.items()
        ]
        for chunk in _chunks(decrements):
            await self._c.update_each(chunk)

    async def forget(self, user_id: str) -> int:
        """Erase everything indexed for one user (their words are their data), in one round trip.

        A catch-up marker goes too: the user's items left, if any, are read whole until
        they are indexed again.
        """
        return await self._c.delete_many({"u": user_id})

    async def mark_stale(self) -> None:
        """An item was written without words: the next start re-reads every item."""
        await self._c.update_one({"_id": STATE_ID}, {"$set": {"version": "stale"}})

    async def _upsert(self, updates: Sequence[tuple[Doc, Doc]]) -> None:
        for chunk in _chunks(updates):
            for attempt in range(3):
                try:
                    await self._c.update_each(chunk, upsert=True)
                    break
                except DuplicateKey:
                    # two writers created the same document at once (SUBSET.md): the second
                    # statement is an update now; `$set`s repeat harmlessly, counts overcount
                    if attempt == 2:
                        raise

    async def _by_id(self, ids: Sequence[str]) -> dict[str, Doc]:
        found: dict[str, Doc] = {}
        for chunk in _chunks(sorted(ids)):
            for doc in await self._c.find({"_id": {"$in": list(chunk)}}):
                found[str(doc["_id"])] = doc
        return found

    # -- reads ----------------------------------------------------------------------------

    async def look_up(
        self, user_id: str, keys: Iterable[str], words: Iterable[str]
    ) -> tuple[frozenset[str], dict[str, int]]:
        """The user's words listed under any of the shard `keys`, and the counts of `words`: one read."""
        shard_ids = {_shard(user_id, key) for key in keys}
        count_ids = {_count(user_id, w) for w in words}
        docs = await self._by_id([*shard_ids, *count_ids])
        listed = frozenset(
            w
            for sid in shard_ids
            if (doc := docs.get(sid)) is not None and doc.get("u") == user_id
            for w in doc.get("w") or {}
        )
        return listed, self._counted(user_id, docs, count_ids)

    async def listed(self, user_id: str, keys: Iterable[str]) -> frozenset[str]:
        """The user's words listed under any of the shard `keys`."""
        return (await self.look_up(user_id, keys, ()))[0]

    async def counts(self, user_id: str, words: Iterable[str]) -> dict[str, int]:
        """How many of the user's items hold each word (an estimate that may overcount)."""
        count_ids = {_count(user_id, w) for w in words}
        return self._counted(user_id, await self._by_id(list(count_ids)), count_ids)

    @staticmethod
    def _counted(user_id: str, docs: dict[str, Doc], count_ids: set[str]) -> dict[str, int]:
        """Each asked word's count; 0 for a word the user has no count of."""
        prefix = len(_count(user_id, ""))
        counted: dict[str, int] = {}
        for cid in count_ids:
            doc = docs.get(cid)
            held = int(doc.get("n") or 0) if doc is not None and doc.get("u") == user_id else 0
            counted[cid[prefix:]] = max(0, held)
        return counted

    async def indexed_through(self, user_id: str) -> int:
        """Up to which `seq` the user's items are indexed: all once ready, else their marker's."""
        if self.ready:
            return EVERY_SEQ
        marker = await self._c.find_one({"_id": _marker(user_id)})
        if marker is None or marker.get("v") != self.stamp or marker.get("u") != user_id:
            return -1
        return int(marker.get("upto", -1))

    async def progress(self) -> IndexProgress:
        """How far the catch-up is, from the index's state (another process may be running it)."""
        if self.version is None:
            return IndexProgress(ready=False)
        state = await self._c.find_one({"_id": STATE_ID}) or {}
        if state.get("version") == self.version:
            return IndexProgress(ready=True)
        done = state.get("progress") or {}
        return IndexProgress(ready=False, done=int(done.get("done", 0)), of=int(done.get("of", 0)))

    async def holding(self, user_id: str, words: Iterable[str]) -> set[str]:
        """The ids of the user's items holding any of `words` (and maybe of items since deleted)."""
        pages = await asyncio.gather(
            *(
                self._c.find({"k": _key(user_id, w)}, projection={"_id": 1}, batch_size=2_000)
                for w in sorted(set(words))
            )
        )
        return {str(doc["_id"]).rsplit("|", 1)[1] for page in pages for doc in page}

    # -- start-up -------------------------------------------------------------------------

    async def prepare(self, items: Collection) -> bool:
        """Learn the index's generation (so writes can be indexed); True when a catch-up is due.

        An index with no item to index is current at once: a new database never waits.
        """
        version = self.version
        if version is None:
            return False
        state = await self._state()
        self.generation = str(state["generation"])
        if state.get("version") != version and not await items.find(
            {}, projection={"_id": 1}, limit=1
        ):
            await self._c.update_one({"_id": STATE_ID}, {"$set": {"version": version}})
            state = {**state, "version": version}
        self.ready = state.get("version") == version
        return not self.ready

    async def catch_up(
        self,
        items: Collection,
        *,
        users: Sequence[str] = (),
        total: int = 0,
        heartbeat: Heartbeat | None = None,
    ) -> CaughtUp:
        """Index every item not indexed at this version, a page at a time; then mark it ready.

        `users` go first, one at a time, each leaving its marker (what their lookups need
        meanwhile); then the items of anyone else. `total` is the expected item count, for
        `progress`. Resumable: a stamped item is skipped, a user's marker is taken up where it
        was, so a start that dies half-way leaves the next one only the rest to do.
        Idempotent: two processes doing it at once write the same documents (counts may
        overcount).
        """
        async with self._catching:
            if not await self.prepare(items):
                return CaughtUp(0, 0, 0)
            version, stamp = self.version, self.stamp
            assert version is not None
            assert stamp is not None
            started = time.monotonic()
            log_event(log, "search index out of date: reading every item", version=version)
            tally = _Tally(of=total)
            for user_id in users:
                await self._catch_up_user(items, user_id, stamp, tally, heartbeat)
            await self._catch_up_rest(items, frozenset(users), stamp, tally, heartbeat)
            await self._c.update_one({"_id": STATE_ID}, {"$set": {"version": version}})
            self.ready = True
            log_event(
                log,
                "search index ready",
                checked=tally.checked,
                reindexed=tally.reindexed,
                skipped=tally.skipped,
                seconds=round(time.monotonic() - started, 1),
            )
            return CaughtUp(tally.checked, tally.reindexed, tally.skipped)

    async def _catch_up_user(
        self,
        items: Collection,
        user_id: str,
        stamp: str,
        tally: _Tally,
        heartbeat: Heartbeat | None,
    ) -> None:
        """One user's items in `seq` order, their marker moved after each page."""
        marker = await self._c.find_one({"_id": _marker(user_id)})
        after = int(marker.get("upto", -1)) if marker and marker.get("v") == stamp else -1
        if after >= EVERY_SEQ:
            return
        pages = items.stream(
            {"user_id": user_id, "seq": {"$gt": after}},
            sort=[("seq", 1)],
            batch_size=CATCH_UP_PAGE,
        )
        async for page in pages:
            moved, bad = await self._reindex(items, page, stamp)
            tally.add(len(page), moved, bad)
            seqs = [d["seq"] for d in page if isinstance(d.get("seq"), int)]
            await self._moved_on(user_id, stamp, max(seqs, default=after), tally)
            if heartbeat is not None:
                await heartbeat()
        await self._moved_on(user_id, stamp, EVERY_SEQ, tally)

    async def _moved_on(self, user_id: str, stamp: str, upto: int, tally: _Tally) -> None:
        """The user's marker and the index's progress, in one round trip."""
        marker = {"u": user_id, "v": stamp, "upto": upto}
        progress = {"progress": {"done": tally.checked, "of": tally.of}}
        await self._upsert(
            [({"_id": _marker(user_id)}, {"$set": marker}), ({"_id": STATE_ID}, {"$set": progress})]
        )

    async def _catch_up_rest(
        self,
        items: Collection,
        done: frozenset[str],
        stamp: str,
        tally: _Tally,
        heartbeat: Heartbeat | None,
    ) -> None:
        """Every item no user of `done` owns: owners and stamps read first, whole items by id."""
        owners = items.stream({}, projection={"user_id": 1}, batch_size=5 * CATCH_UP_PAGE)
        waiting: list[str] = []
        async for page in owners:
            waiting += [str(d["_id"]) for d in page if d.get("user_id") not in done]
            while len(waiting) >= CATCH_UP_PAGE:
                ids, waiting = waiting[:CATCH_UP_PAGE], waiting[CATCH_UP_PAGE:]
                await self._reindex_ids(items, ids, stamp, tally, heartbeat)
        if waiting:
            await self._reindex_ids(items, waiting, stamp, tally, heartbeat)

    async def _reindex_ids(
        self,
        items: Collection,
        ids: list[str],
        stamp: str,
        tally: _Tally,
        heartbeat: Heartbeat | None,
    ) -> None:
        whole = await items.find({"_id": {"$in": ids}}, batch_size=CATCH_UP_PAGE)
        moved, bad = await self._reindex(items, whole, stamp)
        tally.add(len(whole), moved, bad)
        if heartbeat is not None:
            await heartbeat()

    async def _state(self) -> Doc:
        """The index's state; a new generation when there is none (a new or cleared index)."""
        for _ in range(2):
            state = await self._c.find_one({"_id": STATE_ID})
            if state is not None and state.get("generation"):
                return state
            fresh = {"_id": STATE_ID, "version": "building", "generation": uuid.uuid4().hex[:12]}
            try:
                await self._c.insert_one(fresh)
                return fresh
            except DuplicateKey:
                continue  # another process began one at this moment: take theirs
        raise StorageError("the search index state could not be read or created")

    async def _reindex(self, items: Collection, page: list[Doc], stamp: str) -> tuple[int, int]:
        """Move one page of items to this stamp's words: (items moved, invalid ones)."""
        if len(page) > THREAD_FROM:
            planned = await asyncio.to_thread(self._plan, page, stamp)
        else:
            planned = self._plan(page, stamp)
        added, removed, stamps, bad = planned
        await self.add_many(added)
        await items.update_each(stamps)
        await self.remove_many(removed)
        return len(stamps), bad

    def _plan(
        self, page: list[Doc], stamp: str
    ) -> tuple[list[Entry], list[Entry], list[tuple[Doc, Doc]], int]:
        """What indexing a page takes: words to add and remove, stamps to write, invalid items.

        An item already stamped is skipped only when its stored words are still the ones the
        word function makes of it (a whole document put back may carry other words).
        """
        added: list[Entry] = []
        removed: list[Entry] = []
        stamps: list[tuple[Doc, Doc]] = []
        bad = 0
        for doc in page:
            try:
                item = ItemDoc.model_validate(doc)
            except ValidationError:
                bad += 1
                continue
            new = self.words_of(item) or []
            if doc.get("words_v") == stamp and doc.get("words") == new:
                continue
            old = self.indexed(doc)
            added.append((item.user_id, item.id, sorted(set(new) - set(old))))
            removed.append((item.user_id, item.id, sorted(set(old) - set(new))))
            stamps.append(({"_id": item.id}, {"$set": {"words": new, "words_v": stamp}}))
        return added, removed, stamps, bad
