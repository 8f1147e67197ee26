"""`suggest_from_list` (DESIGN 11.1): one to three of the user's unseen items for tonight, in code.

Only what is on the list and still to see is ever suggested, chosen from what TMDB stored
on each item (runtime, genres, seasons: agent/tools/watching.py) and the request's words:
a genre or a mood ("uma comédia", "algo leve"), a length ("algo curto", "less than 2
hours"), "a series to binge". An item whose details are unknown never passes a filter it
might fail. Without a filter the ones waiting longest come first. Nothing unseen, or
nothing that fits, is said as such: never a title from elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from pydantic import Field

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.tools.base import Outcome, Pick, Suggested, Tool, ToolArgs, ToolContext
from agent.understanding.watchlist import (
    WATCHABLE,
    genres_of_names,
    genres_of_words,
    is_binge_word,
    is_short_word,
)
from storage.documents import ItemDoc, ItemType

MAX_PICKS = 3
MAX_WAITING = 10  # unseen items named when none has a runtime or genres (saved without TMDB)
READ_PER_TYPE = 500  # unseen items of a type looked at (the oldest first)


class SuggestFromListArgs(ToolArgs):
    type: Literal["movie", "tv_show", "video"] | None = None
    max_minutes: int | None = Field(default=None, ge=1, le=1_000)
    genre_words: list[str] = Field(default_factory=list, max_length=8)


async def suggest(
    deps: Deps,
    turn: Turn,
    *,
    item_type: ItemType | None = None,
    max_minutes: int | None = None,
    words: Sequence[str] = (),
    short: bool = False,
    binge: bool = False,
) -> Suggested:
    """Up to three unseen items of the user's list that fit, each with what makes it fit.

    A type asked for with nothing unseen ("a series to binge" when every unseen item is a
    movie), or none of it fitting ("a comedy show" when only movies are comedies), picks
    from the other types, saying so (`instead_of`); items a filter cannot be checked on (no
    genres, no runtime) are named as such, never counted as not fitting."""
    turn.facts.apply_rule("user_scope")
    turn.facts.apply_rule("suggest_from_own_list")
    short = short or any(is_short_word(w) for w in words)
    binge = binge or any(is_binge_word(w) for w in words)
    if binge and item_type is None:
        item_type = "tv_show"
    wanted = genres_of_words(list(words))
    if item_type not in WATCHABLE:
        unseen = await _unseen(deps, turn, WATCHABLE)
        if not unseen:
            return Suggested((), 0, none_because="nothing_unseen")
        return _choose(unseen, wanted, max_minutes, short=short, binge=binge)
    asked = await _unseen(deps, turn, (item_type,))
    found = _choose(asked, wanted, max_minutes, short=short, binge=binge) if asked else None
    if found is not None and (found.picks or found.none_because == "no_details"):
        return found  # what could not be checked is said, not "nothing of it fits"
    # nothing of that type to watch, or nothing of it fits: the other types', said so
    others = await _unseen(deps, turn, tuple(t for t in WATCHABLE if t != item_type))
    instead = _choose(others, wanted, max_minutes, short=short, binge=binge) if others else None
    why: Literal["unseen", "fits"] = "fits" if asked else "unseen"
    if instead is not None and (instead.picks or found is None):
        return replace(instead, instead_of=item_type, instead_because=why)
    return found or Suggested((), 0, none_because="nothing_unseen")


def _choose(
    unseen: list[ItemDoc],
    wanted: frozenset[str],
    max_minutes: int | None,
    *,
    short: bool,
    binge: bool,
) -> Suggested:
    """Up to three of `unseen` that fit, or why none does (`unseen` is not empty)."""
    timed = short or max_minutes is not None
    fits: list[Pick] = []
    unchecked: list[ItemDoc] = []
    for item in unseen:
        pick = _fit(item, wanted, max_minutes, timed=short)
        if pick is not None:
            fits.append(pick)
        elif (wanted and not item.genres) or (timed and item.runtime_min is None):
            unchecked.append(item)  # might fit: what the filter needs is not known
    if not fits:
        if not unchecked:
            return Suggested((), len(unseen), none_because="nothing_fits")
        unknown: list[Literal["genre", "length"]] = []
        if wanted and any(not i.genres for i in unchecked):
            unknown.append("genre")
        if timed and any(i.runtime_min is None for i in unchecked):
            unknown.append("length")
        oldest = tuple(sorted(unchecked, key=lambda i: i.seq)[:MAX_WAITING])
        return Suggested(
            (),
            len(unseen),
            none_because="no_details",
            waiting=oldest,
            unchecked=len(unchecked),
            unknown=tuple(unknown),
        )
    if binge:
        fits.sort(key=lambda p: (-(p.seasons or 0), p.item.seq))
    elif timed:
        fits.sort(key=lambda p: (p.minutes or 0, p.item.seq))  # the shortest first
    else:
        fits.sort(key=lambda p: (-len(p.genres), p.item.seq))
    picks = fits[:MAX_PICKS]
    if not (wanted or timed or binge):
        picks = [Pick(p.item, p.genres, p.minutes, p.seasons, oldest=True) for p in picks]
    return Suggested(tuple(picks), len(unseen))


async def _unseen(deps: Deps, turn: Turn, types: Sequence[ItemType]) -> list[ItemDoc]:
    """The user's unseen items of `types`, the oldest first within each type."""
    unseen: list[ItemDoc] = []
    for each in types:
        if turn.user.counts.get(each, 0):
            unseen += await deps.db.items.list_for(
                turn.user_id, item_type=each, limit=READ_PER_TYPE, not_done=True
            )
    return unseen


def _fit(
    item: ItemDoc, wanted: frozenset[str], cap: int | None, *, timed: bool = False
) -> Pick | None:
    """`item` as a pick when it passes the request's filters (genres, minutes), else None.

    `timed` ("algo curto"): only items whose minutes are known, the shortest chosen first.
    """
    matched: tuple[str, ...] = ()
    if wanted:
        matched = tuple(g for g in item.genres if genres_of_names([g]) & wanted)
        if not matched:
            return None
    minutes = item.runtime_min
    if cap is not None and (minutes is None or minutes > cap):
        return None
    if timed and minutes is None:
        return None
    return Pick(item, matched, minutes, item.seasons if item.type == "tv_show" else None)


async def suggest_from_list(ctx: ToolContext, args: SuggestFromListArgs) -> Outcome:
    return await suggest(
        ctx.deps,
        ctx.turn,
        item_type=args.type,
        max_minutes=args.max_minutes,
        words=args.genre_words,
    )


SUGGEST_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "suggest_from_list",
        SuggestFromListArgs,
        "read",
        "Pick 1-3 unseen items to watch now.",
        suggest_from_list,
        {"genre_words": ["comedia"]},
    ),
)
