"""How well a search names an item (DESIGN 9.2): folded words, one typo per word.

The item's words are its title, original title (TMDB `original_title`), year, note
content, link title and description, the words of its URL (and those its site's name joins: "theverge.com" holds "verge") and the words naming its type. Each word of the query
must be found among them: exactly, as the start of a longer word, one edit away
(a long enough word, same first letter), or by its stem: each word also stands for its
Portuguese and English Snowball stems, so "planta" finds "plantar", "running" the "run" of
"runnerslab.io" and "daves" "Dave" (issue 41). Cut-offs are tuned on the labelled set in
tests/agent/search_recall.tsv.

Among items of the same score the closest comes first (issue 26): the one whose title
(or note) has fewest words beyond the query's, so "toy story" finds "Toy Story" before
"Toy Story 2"; the newest breaks what is still tied.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final
from urllib.parse import urlsplit

import snowballstemmer
from rapidfuzz.distance import OSA

from agent.understanding.textnorm import fold
from storage.documents import ItemDoc

EXACT: Final = 1.0
PREFIX: Final = 0.9
ONE_TYPO: Final = 0.85
SAME_STEM: Final = 0.85  # "plantar" for "planta": as close as a typo
MIN_STEMMED: Final = 4  # shorter words are not stemmed ("vai", "run")
# A stem stands for its word only when it cuts an ending, not a derivation: "plantar" ->
# "plant" (Portuguese, 2 letters cut), "running" -> "run" (English, 4); not "papelaria" ->
# "papel" or "equipamento" -> "equip", and no Portuguese stem shorter than 4 ("bola" and
# "bolo" are both "bol"). Tuned on tests/agent/search_recall.tsv.
STEM_RULES: Final = {"portuguese": (4, 3), "english": (3, 4)}  # shortest stem, most cut
MIN_PREFIX: Final = 4  # "incep" finds "inception"; "in" finds nothing
MIN_TYPO: Final = 5  # "matrx" is "matrix"; "park" is not "dark"
MIN_PIECE: Final = 3  # "ars" of "arstechnica.com"; never "t" or "he" of "theverge.com"
STOPWORDS: Final = frozenset(
    """o a os as um uma de do da dos das e em no na nos nas the an of and in on to my meu
    minha meus minhas com for with sobre about que""".split()
)
URL_NOISE: Final = frozenset("http https www com br org net html htm php index amp".split())
# "apaga a nota do wifi", "remove o filme Cidade de Deus": the kind named is matched by the
# item's type (a model passes the whole phrase as the query)
TYPE_WORDS: Final[dict[str, frozenset[str]]] = {
    "note": frozenset("nota notas anotacao anotacoes note notes".split()),
    "movie": frozenset("filme filmes movie movies film films".split()),
    "tv_show": frozenset("serie series seriado seriados show shows".split()),
    "video": frozenset("video videos".split()),
    "link": frozenset("link links site sites".split()),
}


@lru_cache(maxsize=1)
def _stemmers() -> dict[str, snowballstemmer.Stemmer]:
    return {language: snowballstemmer.stemmer(language) for language in STEM_RULES}


@lru_cache(maxsize=50_000)
def stems(word: str) -> frozenset[str]:
    """The Portuguese and English stems of a folded `word` that cut only an ending
    ("plantar" -> "plant", "running" -> "run"); none for short words and words with digits."""
    if len(word) < MIN_STEMMED or not word.isalpha():
        return frozenset()
    found: set[str] = set()
    for language, stemmer in _stemmers().items():
        shortest, most_cut = STEM_RULES[language]
        stem = stemmer.stemWord(word)
        if stem != word and len(stem) >= shortest and len(word) - len(stem) <= most_cut:
            found.add(stem)
    return frozenset(found)


def item_words(item: ItemDoc) -> frozenset[str]:
    """Every folded word a search may match for `item`, and their stems."""
    values = [item.title, item.original_title, item.content, item.description]
    words: set[str] = set()
    for value in values:
        if value:
            words.update(fold(value).split())
    if item.url:
        # "wiki/Alan_Turing": a path's underscores separate words as its hyphens do
        words.update(w for w in fold(item.url.replace("_", " ")).split() if w not in URL_NOISE)
        words.update(host_pieces(item.url))
    if item.year:
        words.add(str(item.year))
    words.update({s for w in words for s in stems(w)})
    words.update(TYPE_WORDS.get(item.type, ()))
    return frozenset(words)


def host_pieces(url: str) -> set[str]:
    """The words a site's name may join: "theverge.com" holds "the" and "verge", and
    "arstechnica.com" "ars" and "technica". With no dictionary to say where one word
    ends, each cut that leaves MIN_PIECE letters or more on both sides is taken."""
    try:
        host = urlsplit(url if "://" in url else f"//{url}").hostname or ""
    except ValueError:  # "http://[::1": no site name to read
        return set()
    labels = fold(host.replace(".", " ")).split()
    pieces: set[str] = set()
    for label in labels[:-1] if len(labels) > 1 else labels:  # the last one is a country or kind
        if label in URL_NOISE:
            continue
        for cut in range(MIN_PIECE, len(label) - MIN_PIECE + 1):
            pieces.update((label[:cut], label[cut:]))
    return pieces


def word_score(wanted: str, words: frozenset[str]) -> float:
    """The best match of one query word among an item's words (0 when none)."""
    if wanted in words:
        return EXACT
    best = SAME_STEM if not stems(wanted).isdisjoint(words) else 0.0
    for word in words:
        if len(wanted) >= MIN_PREFIX and word.startswith(wanted):
            best = max(best, PREFIX)
        elif (
            len(wanted) >= MIN_TYPO
            and len(word) >= MIN_TYPO
            and abs(len(word) - len(wanted)) <= 1
            and (word[0] == wanted[0] or word[:2] == wanted[1::-1])
            and OSA.distance(wanted, word, score_cutoff=1) <= 1
        ):
            best = max(best, ONE_TYPO)
    return best


def search_score(item: ItemDoc, query: str) -> float:
    """0-100: 100 when every query word is an item word, less for prefixes and typos."""
    folded = fold(query)
    if not folded:
        return 0.0
    wanted = [w for w in folded.split() if w not in STOPWORDS] or folded.split()
    words = item_words(item)
    scores = [word_score(w, words) for w in wanted]
    if not all(scores):
        # a word the item does not have: only a partial match, below any cut-off
        return 50.0 * sum(scores) / len(scores)
    return 100.0 * sum(scores) / len(scores)


FAR: Final = 1_000  # `closeness` of an item no single field of which holds every query word


def without_own_type(item: ItemDoc, words: Sequence[str]) -> list[str]:
    """`words` without those naming `item`'s own type ("a nota do wifi" names a note by
    "wifi"), or all of them when nothing else is left: a type word alone names no item."""
    own = TYPE_WORDS.get(item.type, frozenset())
    return [w for w in words if w not in own] or list(words)


def closeness(item: ItemDoc, query: str) -> int:
    """How many words the item's closest field has beyond the query's (0: the query exactly).

    Fields are the title, original title, note content and link description, each taken
    whole; only a field that holds every query word (as `word_score` finds them) counts.
    """
    folded = fold(query).split()
    wanted = [w for w in folded if w not in STOPWORDS] or folded
    if not wanted:
        return FAR
    named = without_own_type(item, wanted)  # "o filme bom" is exactly the movie "Bom"
    best = FAR
    for value in (item.title, item.original_title, item.content, item.description):
        if not value:
            continue
        words = [w for w in fold(value).split() if w not in STOPWORDS]
        field = frozenset(words).union(*(stems(w) for w in words))
        for asked in (wanted, named):
            if all(word_score(w, field) for w in asked):
                best = min(best, max(0, len(words) - len(asked)))
                break
    return best
