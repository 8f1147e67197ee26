"""search_items, delete_item and delete_all_memories: reading and removing the user's items.

Deleting is high risk: `delete_item` only previews (or offers a choice); the runtime
executes `execute_delete` after an explicit confirmation. `delete_all_memories` is
critical and reachable only from the deterministic path; with thousands of items it
finishes off the turn (agent/trust/effects.py), and its undo puts the kept copy back in
batches (`agent.trust.inverses.restore_kept`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Self

from pydantic import Field, model_validator
from rapidfuzz import fuzz

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ToolFailure
from agent.tools.base import (
    DeleteChoice,
    Deleted,
    DeletePreview,
    Failed,
    Found,
    NotFound,
    Outcome,
    Tool,
    ToolArgs,
    ToolContext,
    UnknownItem,
)
from agent.tools.candidates import candidates, named_words, off_loop, query_words
from agent.tools.matching import (
    TYPE_WORDS,
    closeness,
    host_pieces,
    item_words,
    search_score,
    without_own_type,
    word_score,
)
from agent.trust import effects
from agent.understanding.searches import search_subject
from agent.understanding.textnorm import fold
from storage import Database
from storage.documents import ItemDoc, ItemType

SEARCH_CUTOFF = 80
DELETE_CUTOFF = 85
UNIQUE_MARGIN = 15
MAX_DELETE_CHOICES = 8


class SearchItemsArgs(ToolArgs):
    query: str | None = Field(default=None, max_length=200)
    type: ItemType | None = None
    limit: int | None = Field(default=None, ge=1, le=50)


class OneItemArgs(ToolArgs):
    """One of the user's items, by its id or by words that name it: exactly one of the two."""

    item_id: str | None = Field(default=None, min_length=1, max_length=64)
    query: str | None = Field(default=None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        if (self.item_id is None) == (self.query is None):
            raise ValueError("give exactly one of item_id or query")
        return self


class DeleteItemArgs(OneItemArgs):
    pass


class DeleteAllArgs(ToolArgs):
    pass


def _fields(item: ItemDoc) -> list[str]:
    values = (item.title, item.original_title, item.content, item.description, item.url)
    return [fold(v) for v in values if v]


STOPWORDS = frozenset(
    "o a os as um uma de do da dos das e em no na the an of and in on to my meu minha".split()
)


def score_item(item: ItemDoc, query: str) -> float:
    """How well `query` names `item` (0-100): exact, then whole words, then fuzzy similarity.

    Exact is the same words apart from articles and prepositions: "o toy story" is
    exactly "Toy Story", and only close to "Toy Story 2" (issue 26).
    """
    wanted = fold(query)
    if not wanted:
        return 0.0
    words = [w for w in wanted.split() if w not in STOPWORDS] or wanted.split()
    # "a nota do wifi" names the note by "wifi": such a match scores a point below the same
    # match word for word, so an item holding every word wins, and only a word-for-word
    # match is exact (a delete's preview then says it chose)
    named = without_own_type(item, words)
    best = 0.0
    for value in _fields(item):
        kept = [w for w in value.split() if w not in STOPWORDS]
        if value == wanted or kept == words:
            return 100.0
        if kept == named:
            best = max(best, 99.0)
        tokens = set(value.split())
        if item.url and value == fold(item.url):
            tokens |= host_pieces(item.url)  # "the ars technica one" names arstechnica.com
        if all(w in tokens for w in words):
            best = max(best, 95.0)  # every word of the query is a word of the item
        elif all(w in tokens for w in named):
            best = max(best, 94.0)
        elif len(wanted) >= 4 and wanted in value:
            best = max(best, 90.0)
        best = max(best, fuzz.ratio(wanted, value), fuzz.token_sort_ratio(wanted, value))
    return best


def rank(items: Sequence[ItemDoc], query: str, cutoff: float) -> list[tuple[float, ItemDoc]]:
    """Items `query` names, best first: by score, then the closest, then the newest."""
    scored = [(score_item(item, query), item) for item in items]
    hits = [(s, i) for s, i in scored if s >= cutoff]
    hits.sort(key=lambda pair: (-pair[0], closeness(pair[1], query), -pair[1].seq))
    return hits


def _ranked(query: str) -> Callable[[tuple[float, ItemDoc]], tuple[float, int, int]]:
    """The search order (DESIGN 9.2, issue 26): best score, then the closest, then the newest."""

    def key(pair: tuple[float, ItemDoc]) -> tuple[float, int, int]:
        return -pair[0], closeness(pair[1], query), -pair[1].created_at_ms

    return key


async def search_items(ctx: ToolContext, args: SearchItemsArgs) -> Outcome:
    turn, db = ctx.turn, ctx.deps.db
    turn.facts.apply_rule("user_scope")
    limit = args.limit or 10
    if not (args.query and args.query.strip()):
        if args.type is None:
            return Found(args.query, tuple(await db.items.newest(turn.user_id, limit)))
        return Found(
            args.query, tuple(await db.items.newest_of_type(turn.user_id, args.type, limit))
        )
    counts = turn.user.counts
    # the question's own words are no subject: "X salvo aí" searches for X (issue 41)
    query = search_subject(args.query)
    found = await find_items(db, turn.user_id, query, item_type=args.type, type_counts=counts)
    if not found and args.type is not None and not names_type(turn.incoming.text, args.type):
        # A type the user never said (a small model copies the schema example's "movie")
        # must not hide the one item they asked about: every type is searched.
        found = await find_items(db, turn.user_id, query, type_counts=counts)
    return Found(query, tuple(found[:limit]))


async def find_items(
    db: Database,
    user_id: str,
    query: str,
    *,
    item_type: ItemType | None = None,
    type_counts: Mapping[str, int] | None = None,
) -> list[ItemDoc]:
    """The user's items `query` finds, best first (DESIGN 9.2), read through the word index."""
    words = query_words(query)
    found = await candidates(db, user_id, words, item_type=item_type, type_counts=type_counts)
    return await off_loop(_matching, found, query)


async def find_named(
    db: Database,
    user_id: str,
    query: str,
    cutoff: float,
    *,
    type_counts: Mapping[str, int] | None = None,
) -> list[tuple[float, ItemDoc]]:
    """The user's items `query` names, ranked as `rank` does, read through the word index.

    A name must find every one of its words in the item by the search rules (DESIGN 9.2:
    whole words, prefixes, one typo); `rank` then orders those by how closely they match.
    """
    words = named_words(query)
    found = await candidates(db, user_id, words, type_counts=type_counts)
    return await off_loop(lambda items, q: rank(_naming(items, words), q, cutoff), found, query)


def _naming(items: Sequence[ItemDoc], words: Sequence[str]) -> list[ItemDoc]:
    """The items in which every one of `words` is found (as a search finds a word)."""
    return [i for i in items if _finds_all(words, item_words(i))]


def _finds_all(words: Sequence[str], held: frozenset[str]) -> bool:
    return all(word_score(w, held) for w in words)


def _matching(items: Sequence[ItemDoc], query: str) -> list[ItemDoc]:
    """The items `query` finds, by score, then the newest first (DESIGN 9.2)."""
    scored = [(search_score(item, query), item) for item in items]
    return [
        item
        for _, item in sorted(((s, i) for s, i in scored if s >= SEARCH_CUTOFF), key=_ranked(query))
    ]


def names_type(text: str | None, item_type: ItemType) -> bool:
    """Whether `text` names `item_type` ("filme", "notes", "links"...)."""
    return not TYPE_WORDS[item_type].isdisjoint(fold(text or "").split())


async def delete_item(ctx: ToolContext, args: DeleteItemArgs) -> Outcome:
    """Resolve what would be deleted; nothing is deleted here."""
    turn = ctx.turn
    turn.facts.apply_rule("user_scope")
    turn.facts.apply_rule("confirmation_required")
    if args.item_id is not None:
        item = await ctx.deps.db.items.get(turn.user_id, args.item_id)
        return DeletePreview(item, implicit=False) if item else UnknownItem(args.item_id)
    assert args.query is not None
    if (latest := await _latest_of_type_named(ctx.deps.db, turn.user_id, args.query)) is not None:
        return DeletePreview(latest, implicit=True)  # "that note": never "That Thing You Do"
    hits = await find_named(
        ctx.deps.db, turn.user_id, args.query, DELETE_CUTOFF, type_counts=turn.user.counts
    )
    head = re.split(r"\s*[,;.!]\s+", args.query.strip(), maxsplit=1)[0]
    if not hits and head != args.query.strip() and head:
        # "ted lasso, my sister spoiled the whole thing": the name, then why; the preview
        # shows what the name alone finds, and nothing goes before the user's yes
        hits = await find_named(
            ctx.deps.db, turn.user_id, head, DELETE_CUTOFF, type_counts=turn.user.counts
        )
    if not hits:
        return NotFound(args.query)
    exact = [item for score, item in hits if score >= 100]
    if len(exact) == 1:
        return DeletePreview(exact[0], implicit=False)
    if len(hits) == 1 or (not exact and hits[0][0] - hits[1][0] >= UNIQUE_MARGIN):
        return DeletePreview(hits[0][1], implicit=True, score=hits[0][0])
    if not exact and _closest_alone(hits, args.query):
        return DeletePreview(
            hits[0][1], implicit=True, score=hits[0][0]
        )  # "toy story": not "Toy Story 2"
    # what is still tied is the user's to choose (issue 26)
    candidates = exact if len(exact) > 1 else [item for _, item in hits]
    return DeleteChoice(args.query, tuple(candidates[:MAX_DELETE_CHOICES]))


# a query that is one thing's type and a word pointing at it ("that note", "essa série",
# "o link"): the newest item of that type, the one just spoken of (the deletion still asks)
_ONE_OF_TYPE: Final[Mapping[str, ItemType]] = {
    **dict.fromkeys(("filme", "movie", "film"), "movie"),
    **dict.fromkeys(("serie", "seriado", "show"), "tv_show"),
    **dict.fromkeys(("nota", "anotacao", "note"), "note"),
    "video": "video",
    "link": "link",
}
_POINTING_AT_ONE: Final = frozenset(
    "that this esse essa este esta aquele aquela ultimo ultima last latest".split()
)


async def _latest_of_type_named(db: Database, user_id: str, query: str) -> ItemDoc | None:
    """The newest item of the one type `query` points at with nothing else ("that note");
    None otherwise (the type word alone, "a nota", names nothing in particular)."""
    said = [w for w in fold(query).split() if w not in ("o", "a", "the")]
    words = [w for w in said if w not in _POINTING_AT_ONE]
    if len(words) != 1 or words[0] not in _ONE_OF_TYPE or len(said) == 1:
        return None
    newest = await db.items.newest_of_type(user_id, _ONE_OF_TYPE[words[0]], 1)
    return newest[0] if newest else None


async def one_named(
    db: Database, user_id: str, query: str, counts: Mapping[str, int]
) -> ItemDoc | None:
    """The one item `query` names for sure, or None: the newest of a type pointed at ("that
    note"), the only item of a type named alone ("o link" with one link saved), or the only
    item every word of the name finds, or the only one matching it exactly."""
    if (latest := await _latest_of_type_named(db, user_id, query)) is not None:
        return latest
    words = [w for w in fold(query).split() if w not in ("o", "a", "the")]
    if len(words) == 1 and (kind := _ONE_OF_TYPE.get(words[0])) is not None:
        sole = await db.items.newest_of_type(user_id, kind, 2) if counts.get(kind) == 1 else []
        return sole[0] if len(sole) == 1 else None
    hits = await find_named(db, user_id, query, DELETE_CUTOFF, type_counts=counts)
    exact = [item for score, item in hits if score >= 100]
    if len(exact) == 1:
        return exact[0]
    return hits[0][1] if len(hits) == 1 else None


def _closest_alone(hits: Sequence[tuple[float, ItemDoc]], query: str) -> bool:
    """Whether the best hit is the only one at its score holding the query and nothing more."""
    best_score, best = hits[0]
    if closeness(best, query) != 0:
        return False
    return all(score < best_score or closeness(item, query) > 0 for score, item in hits[1:])


async def delete_all_preview(ctx: ToolContext, args: DeleteAllArgs) -> Outcome:
    """Never executed from a plan: the runtime refuses this tool as a pipeline violation."""
    return Failed(
        ToolFailure(
            "CRITICAL_TOOL", "forbidden", "delete_all_memories is deterministic only", "none"
        )
    )


async def execute_delete(deps: Deps, turn: Turn, item_id: str) -> Deleted | NotFound:
    """Delete one of the turn user's items after confirmation; record the effect."""
    item = await deps.db.items.get(turn.user_id, item_id)
    if item is None or not await effects.delete(deps, turn, item):
        gone = await effects.deleted_by_this_update(deps, turn, item_id)
        if gone is None:
            return NotFound(item_id)
        item = gone  # the re-drive of this very deletion: answered as its first run
    turn.tools_executed.append("delete_item")
    if not turn.user.destructive_used.get("delete_item"):
        # the risk policy's first use is over (agent/trust/risk.py)
        await deps.db.users.update(turn.user_id, {"destructive_used.delete_item": True})
    return Deleted(item)


async def execute_delete_all(
    deps: Deps, turn: Turn, *, up_to_seq: int | None = None
) -> tuple[int, int]:
    """Delete the items the preview showed (numbered up to `up_to_seq`); record the effect.

    Items saved after the preview (from another chat of the same user) were not in it,
    so they are kept. Returns (deleted, kept).
    """
    done = await effects.delete_all(deps, turn, up_to_seq=up_to_seq)
    turn.tools_executed.append("delete_all_memories")
    return done.count, done.kept


FINDING_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "search_items",
        SearchItemsArgs,
        "read",
        "Find the user's saved items by text and/or type (no query: the most recent).",
        search_items,
        {"query": "inception", "type": "movie"},
        facts=frozenset({"type", "limit"}),
    ),
    Tool(
        "delete_item",
        DeleteItemArgs,
        "high",
        "Delete one of the user's items by item_id or by a query naming it; the runtime asks for confirmation.",
        delete_item,
        {"query": "inception"},
    ),
    Tool(
        "delete_all_memories",
        DeleteAllArgs,
        "critical",
        "Never call this: deleting everything is handled by the runtime itself.",
        delete_all_preview,
        {},
    ),
)
