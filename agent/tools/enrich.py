"""The three enrichment tools: TMDB for movies and TV shows, the page fetcher for links.

A clear candidate (the only result, or the only one whose normalized title equals
the query and whose year matches when one was given) is saved at once when the
message asked to save; several become candidates for the runtime to offer; a TMDB
outage still saves, un-enriched, with a caveat (DESIGN 3.2).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from agent.errors import ServiceError, ServiceNotConfigured, ServiceUnavailable, ToolFailure
from agent.services.links import LinkRefused
from agent.services.tmdb import TmdbCandidate
from agent.texts import text
from agent.tools.base import Candidates, Failed, Outcome, PageFetched, Tool, ToolArgs, ToolContext
from agent.tools.saving import MAX_YEAR, MIN_YEAR, store_item
from agent.understanding.textnorm import fold
from agent.understanding.urls import InvalidUrl, is_video_url, parse_user_url
from config.logging import log_event
from storage.documents import ItemType

logger = logging.getLogger(__name__)

MAX_CANDIDATES = 8
TMDB_LANGUAGE = {"pt": "pt-BR", "en": "en-US"}


class EnrichMovieArgs(ToolArgs):
    title: str = Field(min_length=1, max_length=300)
    year: int | None = Field(default=None, ge=MIN_YEAR, le=MAX_YEAR)


class EnrichTvShowArgs(EnrichMovieArgs):
    pass


class EnrichLinkArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=2_048)


def clear_candidate(
    candidates: Sequence[TmdbCandidate], query: str, year: int | None
) -> TmdbCandidate | None:
    """The one candidate that is unambiguously what was asked for, if any."""
    if len(candidates) == 1:
        only = candidates[0]
        return only if year is None or only.year in (None, year) else None
    wanted = fold(query)
    matches = [
        c
        for c in candidates
        if wanted in (fold(c.title), fold(c.original_title or ""))
        and (year is None or c.year == year)
    ]
    return matches[0] if len(matches) == 1 else None


async def _enrich(
    ctx: ToolContext, kind: Literal["movie", "tv"], title: str, year: int | None
) -> Outcome:
    item_type: ItemType = "movie" if kind == "movie" else "tv_show"
    language = TMDB_LANGUAGE[ctx.turn.language]
    ctx.turn.facts.apply_rule(f"tmdb_language:{language}")
    try:
        candidates = await ctx.deps.tmdb.search(kind, title, language=language, year=year, limit=10)
    except (ServiceUnavailable, ServiceError) as exc:
        # the cause named: not configured (the operator's) vs unavailable now (DESIGN 9.2)
        cause = "not_configured" if isinstance(exc, ServiceNotConfigured) else "unavailable"
        log_event(logger, "tmdb_caveat", level=logging.WARNING, cause=cause)
        if ctx.wants_save:
            return await store_item(
                ctx, item_type, title=title, year=year, caveats=(f"caveat_tmdb_{cause}",)
            )
        ctx.turn.facts.add_caveat(text(f"caveat_tmdb_{cause}_read", ctx.turn.language))
        return Candidates(kind, title, (), caveats=(f"caveat_tmdb_{cause}_read",))
    if ctx.wants_save:
        ctx.turn.facts.apply_rule("save_when_asked")
        chosen = clear_candidate(candidates, title, year)
        if chosen is not None:
            return await store_item(
                ctx,
                item_type,
                title=chosen.title,
                year=chosen.year,
                tmdb_id=chosen.tmdb_id,
                overview=chosen.overview,
                enriched=True,
                original_title=chosen.original_title,
            )
        if not candidates:
            return await store_item(
                ctx, item_type, title=title, year=year, caveats=("caveat_tmdb_no_match",)
            )
    return Candidates(kind, title, tuple(candidates[:MAX_CANDIDATES]))


async def enrich_movie(ctx: ToolContext, args: EnrichMovieArgs) -> Outcome:
    return await _enrich(ctx, "movie", args.title, args.year)


async def enrich_tv_show(ctx: ToolContext, args: EnrichTvShowArgs) -> Outcome:
    return await _enrich(ctx, "tv", args.title, args.year)


async def enrich_link(ctx: ToolContext, args: EnrichLinkArgs) -> Outcome:
    try:
        parsed = parse_user_url(args.url)
    except InvalidUrl as exc:
        return Failed(ToolFailure("INVALID_URL", "validation", str(exc), "rephrase", exc.code))
    if parsed.coerced and ctx.turn.facts.mapping == "exact":
        ctx.turn.facts.mapping = "coerced"
    item_type: ItemType = "video" if is_video_url(parsed.url) else "link"
    ctx.turn.facts.apply_rule("public_address_only")
    try:
        page = await ctx.deps.links.fetch(parsed.url)
    except LinkRefused as exc:
        return Failed(ToolFailure("LINK_REFUSED", "forbidden", str(exc), "none", exc.code))
    except (ServiceUnavailable, ServiceError) as exc:
        if ctx.wants_save:
            return await store_item(
                ctx, item_type, url=parsed.url, caveats=("caveat_link_unavailable",)
            )
        return Failed(ToolFailure("LINK_UNAVAILABLE", "unavailable", str(exc), "retry"))
    if ctx.wants_save:
        ctx.turn.facts.apply_rule("save_when_asked")
        return await store_item(
            ctx,
            item_type,
            url=parsed.url,
            title=page.title,
            description=page.description,
            enriched=True,
        )
    return PageFetched(parsed.url, page.title, page.description)


ENRICH_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "enrich_movie",
        EnrichMovieArgs,
        "read",
        "Look a movie up on TMDB; the runtime saves a clear match when the user asked to save, or offers the candidates.",
        enrich_movie,
        {"title": "inception"},
    ),
    Tool(
        "enrich_tv_show",
        EnrichTvShowArgs,
        "read",
        "Look a TV show up on TMDB (same rules as enrich_movie).",
        enrich_tv_show,
        {"title": "dark", "year": 2017},
    ),
    Tool(
        "enrich_link",
        EnrichLinkArgs,
        "read",
        "Fetch a public web page's title and description (saved as a link or video when the user asked to save).",
        enrich_link,
        {"url": "https://example.com/article"},
    ),
)
