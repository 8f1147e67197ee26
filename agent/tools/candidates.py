"""The items a query's words can name, read through the word index (DESIGN 10.5, issue 35).

Scoring stays in `agent/tools/matching.py` (and `finding.rank` for deletes); this module
only decides which items are worth scoring. Each query word becomes its neighbours among the
user's indexed words by matching's own rules: itself, the longer words it starts (4 letters
or more), the words one typo away (5 or more, same first letter). rapidfuzz finds them among
the few words the index's shards list for it. Then only the query word whose neighbours
hold the fewest items is read: an item every query word finds holds a neighbour of each, so
scoring those items gives what scoring every item would, in the same order (the property
test in tests/agent/test_search_index.py holds it to the full scan).

An item's stored words are matching's `item_words` without the words naming its type:
every movie has "filme", so the type's counter stands for those and the type is read whole
only when such a word is the rarest.

While the start-up catch-up runs (issue 47), the items it has not reached yet are read too,
a page at a time, and kept only when every query word finds a word of theirs (what scoring
asks of an item anyway): a search finds then what it finds after the catch-up.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final, TypeVar

from rapidfuzz import process
from rapidfuzz.distance import OSA

from agent.tools.matching import (
    MIN_PREFIX,
    MIN_TYPO,
    STOPWORDS,
    TYPE_WORDS,
    URL_NOISE,
    item_words,
    stems,
    word_score,
)
from agent.understanding.textnorm import fold
from storage import Database
from storage.documents import ITEM_TYPES, ItemDoc, ItemType
from storage.wordindex import (
    EVERY_SEQ,
    KEY_LEN,
    MIN_SHARDED,
    ItemWords,
    WordSource,
    shard_keys,
)

# Raise when `item_index_words` changes in a way the probes below would not show: every
# stored item is then indexed again at the next start.
WORDS_VERSION: Final = 1
THREAD_FROM: Final = 200  # scoring more items than this runs off the event loop

T = TypeVar("T")


def item_index_words(item: ItemDoc) -> frozenset[str]:
    """The words stored for `item`: its search words but those naming its type."""
    return item_words(item) - TYPE_WORDS.get(item.type, frozenset())


def _probes() -> list[ItemDoc]:
    """Items whose words show any change of the word function (accents, URLs, years, scripts)."""
    fields: list[tuple[ItemType, dict[str, object]]] = [
        (
            "movie",
            {
                "title": "O Fabuloso Destino de Amélie Poulain",
                "original_title": "Le Fabuleux Destin d'Amélie Poulain",
                "year": 2001,
            },
        ),
        ("tv_show", {"title": "기생충 — Parasite: Ação/AÇÃO", "year": 2019}),
        ("note", {"content": "Comprar PÃO, café & leite às 7h30 — ok? ½ dúzia"}),
        (
            "link",
            {
                "url": "https://www.nytimes.com/2024/01/05/science/Black-Holes_and_more.html?x=1#top",
                "title": "Black holes are weirder",
                "description": "a micro framework for the web",
            },
        ),
        ("video", {"url": "https://youtu.be/abc123_XYZ", "title": "Receita de bolo"}),
        (  # every field an item has, each with words of its own: a field the words come to
            # include (or stop including) changes what this one gives
            "movie",
            {
                "title": "Alpha",
                "original_title": "Bravo",
                "year": 1987,
                "tmdb_id": 4242,
                "url": "https://charlie.example/delta_echo",
                "description": "Foxtrot",
                "content": "Golf",
                "overview": "Hotel India",
            },
        ),
    ]
    return [
        ItemDoc(
            _id=f"probe{n}",
            user_id="probe",
            seq=n,
            type=item_type,
            dedup_key=f"probe{n}",
            created_at_ms=0,
            updated_at_ms=0,
            **values,  # type: ignore[arg-type]
        )
        for n, (item_type, values) in enumerate(fields)
    ]


def word_source(words: ItemWords = item_index_words) -> WordSource:
    """The word function storage indexes items with, versioned by what it makes of the probes."""
    made = [sorted(words(probe)) for probe in _probes()]
    stamp = json.dumps([WORDS_VERSION, MIN_PREFIX, MIN_TYPO, made], ensure_ascii=False)
    return WordSource(words, hashlib.sha256(stamp.encode()).hexdigest()[:16])


def query_words(query: str) -> list[str]:
    """The words `search_score` looks for one by one: stopwords out, unless nothing else is left."""
    folded = fold(query).split()
    return [w for w in folded if w not in STOPWORDS] or folded


def named_words(query: str) -> list[str]:
    """The words a name to delete must all match: `query_words` without URL noise ("https", "www")."""
    words = query_words(query)
    return [w for w in words if w not in URL_NOISE] or words


def shards_for(wanted: str) -> frozenset[str]:
    """The shard keys listing every word `wanted` starts or is one typo away from."""
    if len(wanted) >= MIN_SHARDED:
        return shard_keys(wanted)
    return frozenset({wanted}) if len(wanted) >= KEY_LEN else frozenset()


def neighbours(wanted: str, listed: Collection[str]) -> frozenset[str]:
    """`wanted`, its stems (read exactly, like `wanted`) and the listed words `word_score`
    finds for it (a prefix, or one typo)."""
    found = {wanted, *stems(wanted)}
    if len(wanted) >= MIN_PREFIX:
        found.update(w for w in listed if w.startswith(wanted))
    if len(wanted) >= MIN_TYPO:
        close = process.extract(
            wanted, list(listed), scorer=OSA.distance, score_cutoff=1, limit=None
        )
        found.update(str(match[0]) for match in close)
    return frozenset(
        w for w in found if w == wanted or w in stems(wanted) or word_score(wanted, frozenset((w,)))
    )


def types_named(wanted: str) -> tuple[ItemType, ...]:
    """The item types whose words `wanted` finds ("filme" -> movie)."""
    return tuple(t for t in ITEM_TYPES if word_score(wanted, TYPE_WORDS.get(t, frozenset())))


async def candidates(
    db: Database,
    user_id: str,
    words: Sequence[str],
    *,
    item_type: ItemType | None = None,
    type_counts: Mapping[str, int] | None = None,
) -> list[ItemDoc]:
    """The user's items (of `item_type`) that may hold a neighbour of every one of `words`, by seq.

    Every item holding a neighbour of each word is among them. Without a word function
    (nothing is indexed) that is every item.
    """
    if not words:
        return []
    index = db.word_index
    if index.stamp is None:
        return await db.items.list_for(user_id, item_type=item_type)
    unique = list(dict.fromkeys(words))
    keys = {key for w in unique for key in shards_for(w)}
    listed, counts = await index.look_up(user_id, keys, unique)
    near = {w: neighbours(w, listed) for w in unique}
    kinds = {w: types_named(w) for w in unique}
    if len(unique) > 1 and type_counts is None and any(kinds.values()):
        user = await db.users.get(user_id)
        type_counts = user.counts if user else {}
    rarest = await _rarest(db, user_id, near, kinds, counts, type_counts or {})
    found = await db.items.get_many(user_id, await index.holding(user_id, near[rarest]))
    for kind in kinds[rarest]:
        if item_type in (None, kind):
            found += await db.items.list_for(user_id, item_type=kind)
    if not index.ready:
        found += await not_indexed(db, user_id, _finds_every(unique), item_type=item_type)
    unique_items = {item.id: item for item in found if item_type in (None, item.type)}
    return sorted(unique_items.values(), key=lambda item: item.seq)


def _finds_every(words: Sequence[str]) -> Callable[[ItemDoc], bool]:
    """Whether every one of `words` finds a word of the item, by the search rules (type words too)."""
    return lambda item: all(word_score(w, item_words(item)) for w in words)


def _finds_any(words: Sequence[str]) -> Callable[[ItemDoc], bool]:
    """Whether one of `words` finds a word the item is indexed under (its type words aside)."""
    return lambda item: any(word_score(w, item_index_words(item)) for w in words)


async def not_indexed(
    db: Database,
    user_id: str,
    keep: Callable[[ItemDoc], bool],
    *,
    item_type: ItemType | None = None,
) -> list[ItemDoc]:
    """The user's items the catch-up has not reached yet that `keep` keeps (none once it is done)."""
    through = await db.word_index.indexed_through(user_id)
    if through >= EVERY_SEQ:
        return []
    return await db.items.not_indexed(user_id, after_seq=through, keep=keep, item_type=item_type)


async def naming_any(db: Database, user_id: str, words: Sequence[str]) -> list[ItemDoc]:
    """The user's items holding a neighbour of any of `words` (type words aside), by seq.

    What a text can name: checking a model's "Salvei Matrix" needs the items "Matrix" may
    be, not every item. Without a word function that is every item.
    """
    unique = list(dict.fromkeys(w for w in words if w))
    if not unique:
        return []
    if db.word_index.stamp is None:
        return await db.items.list_for(user_id)
    keys = {key for w in unique for key in shards_for(w)}
    listed, _ = await db.word_index.look_up(user_id, keys, ())
    near = {n for w in unique for n in neighbours(w, listed)}
    found = await db.items.get_many(user_id, await db.word_index.holding(user_id, near))
    if not db.word_index.ready:
        later = await not_indexed(db, user_id, _finds_any(unique))
        found = sorted({i.id: i for i in [*found, *later]}.values(), key=lambda i: i.seq)
    return found


async def _rarest(
    db: Database,
    user_id: str,
    near: Mapping[str, frozenset[str]],
    kinds: Mapping[str, tuple[ItemType, ...]],
    counts: dict[str, int],
    type_counts: Mapping[str, int],
) -> str:
    """The query word whose neighbours the fewest items hold, by the index's counts.

    The counts of the query words themselves come with the shards. Those of their other
    neighbours are read only when they could change the choice: not when the word with
    the fewest known is fully known, since the others' can only grow.
    """
    words = list(near)
    if len(words) == 1:
        return words[0]

    def known(word: str) -> int:
        held = sum(counts.get(n, 0) for n in near[word])
        return held + sum(int(type_counts.get(t, 0)) for t in kinds[word])

    best = min(words, key=known)
    if all(n in counts for n in near[best]):
        return best
    unknown = {n for w in words for n in near[w] if n not in counts}
    counts.update(await db.word_index.counts(user_id, unknown))
    return min(words, key=known)


async def off_loop(
    score: Callable[[Sequence[ItemDoc], str], T], items: Sequence[ItemDoc], query: str
) -> T:
    """`score(items, query)`, in a thread when there are enough items to hold the event loop."""
    if len(items) <= THREAD_FROM:
        return score(items, query)
    return await asyncio.to_thread(score, items, query)
