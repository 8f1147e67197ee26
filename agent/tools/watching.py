"""`where_to_watch` (DESIGN 11.1) and what a saved movie or show learns from TMDB's details.

Where a title streams is JustWatch's data as TMDB serves it, per country: the user's
(`/pais XX`, else BR for Portuguese and US for English), or the one the request names.
A title on the user's list keeps what it learned for a day (`ItemDoc.watch`), and the
TMDB client keeps every title it asked about for a day, so a title costs at most one
request a day. TMDB not configured or down is said as such; nothing else changes.

Saving a movie or show with a TMDB id asks for its details once, where it streams
appended (`append_to_response`): the runtime, genres and seasons are stored on the item
(what `suggest_from_list` reads), and the save's reply says where it streams.
"""

from __future__ import annotations

import logging
import re
from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from agent.conversation.replies import item_label, titled_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ServiceError, ServiceNotConfigured
from agent.services.tmdb import (
    TMDB_LANGUAGE,
    WATCH_TTL_MS,
    TmdbCandidate,
    TmdbKind,
    WatchOptions,
    clear_candidate,
)
from agent.tools.base import Outcome, Tool, ToolArgs, ToolContext, UnknownItem, WatchFound
from agent.tools.finding import DELETE_CUTOFF, find_named
from agent.types import Language
from agent.understanding.textnorm import fold
from config.logging import log_event
from storage.documents import ItemDoc, ItemType

logger = logging.getLogger(__name__)

COUNTRY_OF_LANGUAGE: dict[Language, str] = {"pt": "BR", "en": "US"}
_COUNTRY = re.compile(r"^[A-Za-z]{2}$")
Failure = Literal["not_configured", "unavailable", "no_match"]


class WhereToWatchArgs(ToolArgs):
    item_id: str | None = Field(default=None, min_length=1, max_length=64)
    title: str | None = Field(default=None, min_length=1, max_length=300)
    country: str | None = Field(default=None, min_length=2, max_length=2)

    @field_validator("country")
    @classmethod
    def _iso_country(cls, value: str | None) -> str | None:
        if value is not None and not _COUNTRY.match(value):
            raise ValueError("country is a two-letter ISO 3166-1 code, e.g. BR or US")
        return value.upper() if value else None

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        if (self.item_id is None) == (self.title is None):
            raise ValueError("give exactly one of item_id or title")
        return self


def country_of(turn: Turn) -> str:
    """Where-to-watch's country for this user: `/pais`, else their language's."""
    return turn.user.country or COUNTRY_OF_LANGUAGE[turn.language]


def _kind(item_type: ItemType | None) -> TmdbKind | None:
    return {"movie": "movie", "tv_show": "tv"}.get(item_type or "")  # type: ignore[return-value]


def kept_options(item: ItemDoc, country: str, now_ms: int) -> WatchOptions | None:
    """What `item` learned of `country` less than a day ago, if anything."""
    raw = item.watch or {}
    at = raw.get("at_ms")
    if raw.get("country") != country or not isinstance(at, int) or now_ms - at >= WATCH_TTL_MS:
        return None
    return WatchOptions.from_json(raw)


async def where(
    deps: Deps,
    turn: Turn,
    *,
    item: ItemDoc | None = None,
    title: str = "",
    item_type: ItemType | None = None,
    country: str | None = None,
) -> WatchFound:
    """Where `item` (one of the user's) or `title` (looked up on TMDB) streams in `country`."""
    country = (country or country_of(turn)).upper()
    turn.facts.apply_rule("tmdb_watch_providers")
    label = item_label(item) if item is not None else title
    if item is not None:
        kept = kept_options(item, country, turn.now_ms)
        if kept is not None:
            return WatchFound(label, item, country, None if kept.empty else kept)
    kind = _kind(item.type if item is not None else item_type)
    if item is not None and kind is None:
        return WatchFound(label, item, country, None, failure="no_match")  # a note, a link
    if not deps.tmdb.configured:
        return _failed(turn, label, item, country, "not_configured")
    try:
        tmdb_id = item.tmdb_id if item is not None else None
        if tmdb_id is None or kind is None:
            found = await _lookup(deps, turn, title or (item.title if item else "") or "", kind)
            if found is None:
                return WatchFound(label, item, country, None, failure="no_match")
            kind, tmdb_id, named = found
            label = label if item is not None else named
        by_country = await deps.tmdb.watch_providers(kind, tmdb_id, now_ms=turn.now_ms)
    except ServiceError as exc:
        cause: Failure = (
            "not_configured" if isinstance(exc, ServiceNotConfigured) else "unavailable"
        )
        log_event(logger, "tmdb_caveat", level=logging.WARNING, cause=cause)
        return _failed(turn, label, item, country, cause)
    options = by_country.get(country) or WatchOptions(country)
    if item is not None:
        await deps.db.items.set_details(item, {"watch": _kept(options, turn.now_ms)})
    found_type: Literal["movie", "tv_show"] = "movie" if kind == "movie" else "tv_show"
    return WatchFound(
        label, item, country, None if options.empty else options, found_type=found_type
    )


def _failed(
    turn: Turn, label: str, item: ItemDoc | None, country: str, cause: Failure
) -> WatchFound:
    turn.facts.apply_rule(f"tmdb_{cause}")
    return WatchFound(label, item, country, None, failure=cause)


def _kept(options: WatchOptions, now_ms: int) -> dict[str, object]:
    return {**options.to_json(), "at_ms": now_ms}


async def _lookup(
    deps: Deps, turn: Turn, title: str, kind: TmdbKind | None
) -> tuple[TmdbKind, int, str] | None:
    """The title TMDB means by `title`: a clear match (a movie's before a show's when no
    kind is known), else the first result (movies first, then shows)."""
    language = TMDB_LANGUAGE[turn.language]
    kinds: tuple[TmdbKind, ...] = (kind,) if kind else ("movie", "tv")
    first: tuple[TmdbKind, TmdbCandidate] | None = None
    for each in kinds:
        found = await deps.tmdb.search(each, title, language=language, limit=10, now_ms=turn.now_ms)
        if not found:
            continue
        wanted = fold(title)
        named = [c for c in found if wanted in (fold(c.title), fold(c.original_title or ""))]
        if named:  # "slow horses": the show of that name, not a film with the words in it
            best = clear_candidate(named, title, None) or named[0]
            return each, best.tmdb_id, titled_label(best.title, best.year)
        first = first or (each, clear_candidate(found, title, None) or found[0])
    if first is None:
        return None
    each, best = first
    return each, best.tmdb_id, titled_label(best.title, best.year)


async def learn_details(deps: Deps, turn: Turn, item: ItemDoc) -> tuple[ItemDoc, WatchFound | None]:
    """A movie or show saved with its TMDB id: its runtime, genres and seasons stored, and
    where it streams in the user's country. One request; a failure changes nothing."""
    kind = _kind(item.type)
    if kind is None or item.tmdb_id is None or not deps.tmdb.configured:
        return item, None
    try:
        details = await deps.tmdb.title_details(
            kind, item.tmdb_id, language=TMDB_LANGUAGE[turn.language], now_ms=turn.now_ms
        )
    except ServiceError as exc:
        log_event(logger, "tmdb_details_skipped", level=logging.WARNING, error=type(exc).__name__)
        return item, None
    if details is None:
        return item, None
    fields: dict[str, object] = {
        "runtime_min": details.runtime_min,
        "genres": list(details.genres),
        "seasons": details.seasons,
    }
    found: WatchFound | None = None
    if details.providers is not None:
        country = country_of(turn)
        options = details.providers.get(country) or WatchOptions(country)
        fields["watch"] = _kept(options, turn.now_ms)
        if not options.empty:
            found = WatchFound(item_label(item), item, country, options)
    await deps.db.items.set_details(item, fields)
    return item.model_copy(update=fields), found


async def where_to_watch(ctx: ToolContext, args: WhereToWatchArgs) -> Outcome:
    deps, turn = ctx.deps, ctx.turn
    turn.facts.apply_rule("user_scope")
    if args.item_id is not None:
        item = await deps.db.items.get(turn.user_id, args.item_id)
        if item is None:
            return UnknownItem(args.item_id)
        return await where(deps, turn, item=item, country=args.country)
    assert args.title is not None
    on_list = await own_title(deps, turn, args.title)
    if on_list is not None:
        return await where(deps, turn, item=on_list, country=args.country)
    return await where(deps, turn, title=args.title, country=args.country)


async def own_title(
    deps: Deps, turn: Turn, title: str, item_type: ItemType | None = None
) -> ItemDoc | None:
    """The user's one movie or show `title` names, if exactly one clearly does."""
    hits = await find_named(
        deps.db, turn.user_id, title, DELETE_CUTOFF, type_counts=turn.user.counts
    )
    wanted = (item_type,) if item_type in ("movie", "tv_show") else ("movie", "tv_show")
    hits = [(s, i) for s, i in hits if i.type in wanted]
    exact = [i for s, i in hits if s >= 100]
    if len(exact) == 1:
        return exact[0]
    if len(hits) == 1:
        return hits[0][1]
    return None


WATCH_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "where_to_watch",
        WhereToWatchArgs,
        "read",
        "Where a movie or show streams.",
        where_to_watch,
        {"title": "dune"},
    ),
)
