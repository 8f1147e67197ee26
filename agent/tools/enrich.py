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

from agent.errors import ServiceError, ServiceNotConfigured, ToolFailure
from agent.services.links import LinkRefused
from agent.services.tmdb import TMDB_LANGUAGE, TmdbCandidate, clear_candidate
from agent.texts import text
from agent.tools.base import (
    Candidates,
    Failed,
    Outcome,
    PageFetched,
    SavedMany,
    Tool,
    ToolArgs,
    ToolContext,
)
from agent.tools.saving import MAX_YEAR, MIN_YEAR, store_item
from agent.understanding.batches import MAX_BATCH, Run, is_known_title, split_title
from agent.understanding.kinds import names_a_movie
from agent.understanding.textnorm import fold
from agent.understanding.urls import InvalidUrl, is_video_url, parse_user_url
from config.logging import log_event
from storage.documents import ItemType

logger = logging.getLogger(__name__)

MAX_CANDIDATES = 8
MAX_RUN = 4  # a title is at most this many pieces joined by "e" / "and"


class EnrichMovieArgs(ToolArgs):
    title: str = Field(min_length=1, max_length=300)
    year: int | None = Field(default=None, ge=MIN_YEAR, le=MAX_YEAR)


class EnrichTvShowArgs(EnrichMovieArgs):
    pass


class EnrichLinkArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=2_048)


Lookup = list[TmdbCandidate] | ServiceError


async def lookup(
    ctx: ToolContext, kind: Literal["movie", "tv"], title: str, year: int | None
) -> Lookup:
    """TMDB's candidates for `title` in the user's language, or the error that stopped it."""
    language = TMDB_LANGUAGE[ctx.turn.language]
    try:
        found = await ctx.deps.tmdb.search(kind, title, language=language, year=year, limit=10)
    except ServiceError as exc:  # unavailable and not configured are both ServiceErrors
        if not isinstance(exc, ServiceNotConfigured):
            ctx.turn.facts.apply_rule("tmdb_unanswered")  # asked, and no answer came
        return exc
    ctx.turn.facts.apply_rule(f"tmdb_language:{language}")  # /why says it searched: it did
    return found


async def _enrich(
    ctx: ToolContext, kind: Literal["movie", "tv"], title: str, year: int | None
) -> Outcome:
    found = await lookup(ctx, kind, title, year)
    if ctx.wants_save and year is None and not isinstance(found, ServiceError):
        # "matrix e interestelar" named as one title: several, when TMDB knows each part
        several = await split_by_lookup(ctx, kind, title, found)
        if several is not None:
            return several
    if found == [] and ctx.wants_save and "," in title:
        # "o filme aftersun, me indicaram": TMDB knows no title with the words after the
        # comma and clearly knows the one before it: those words were said about it
        head = title.split(",", 1)[0].strip()
        known = await lookup(ctx, kind, head, year) if head else found
        if not isinstance(known, ServiceError) and clear_candidate(known, head, year) is not None:
            return await settle(ctx, kind, head, year, known)
    if kind == "movie" and found == [] and not names_a_movie(ctx.turn.incoming.text or ""):
        # "save the office": no movie by that name, and the message never said movie; a
        # show TMDB clearly means by it is saved as the show
        shows = await lookup(ctx, "tv", title, year)
        if not isinstance(shows, ServiceError) and clear_candidate(shows, title, year) is not None:
            return await settle(ctx, "tv", title, year, shows)
    return await settle(ctx, kind, title, year, found)


async def settle(
    ctx: ToolContext, kind: Literal["movie", "tv"], title: str, year: int | None, found: Lookup
) -> Outcome:
    """What a lookup comes to: saved (a clear match, or as written with a caveat) or candidates."""
    item_type: ItemType = "movie" if kind == "movie" else "tv_show"
    if isinstance(found, ServiceError):
        # the cause named: not configured (the operator's) vs unavailable now (DESIGN 9.2)
        cause = "not_configured" if isinstance(found, ServiceNotConfigured) else "unavailable"
        log_event(logger, "tmdb_caveat", level=logging.WARNING, cause=cause)
        if ctx.wants_save:
            return await store_item(
                ctx, item_type, title=title, year=year, caveats=(f"caveat_tmdb_{cause}",)
            )
        ctx.turn.facts.add_caveat(text(f"caveat_tmdb_{cause}_read", ctx.turn.language))
        return Candidates(kind, title, (), caveats=(f"caveat_tmdb_{cause}_read",))
    candidates = found
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


async def split_by_lookup(
    ctx: ToolContext, kind: Literal["movie", "tv"], title: str, whole: list[TmdbCandidate]
) -> SavedMany | None:
    """Several titles in one ("matrix e interestelar"), when TMDB has no clear match for the
    whole and a clear match for every part: each part saved. None otherwise (one title)."""
    runs = split_title(title)
    if runs is None or is_known_title(title):
        return None
    if names_all(whole, [atom for run in runs for atom in run.atoms]):
        return None
    seen: dict[str, Lookup] = {fold(title): whole}
    parts: list[tuple[str, Lookup | None]] = []
    for run in runs:
        found = await segment(ctx, kind, run, seen)
        if found is None:
            return None
        parts += found
    if len(parts) < 2 or any(p[1] is None for p in parts):
        return None
    outcomes = [
        (part, await settle(ctx, kind, part, None, found))
        for part, found in parts[:MAX_BATCH]
        if found is not None
    ]
    return SavedMany(tuple(outcomes), left_out=max(0, len(parts) - MAX_BATCH))


def names_all(candidates: Sequence[TmdbCandidate], atoms: Sequence[str]) -> bool:
    """Whether a candidate's title holds every piece: "Tom & Jerry" for "tom e jerry"."""
    wanted = [fold(a) for a in atoms]
    for c in candidates:
        titles = (fold(c.title), fold(c.original_title or ""))
        if any(all(f" {w} " in f" {t} " for w in wanted) for t in titles):
            return True
    return False


async def segment(
    ctx: ToolContext, kind: Literal["movie", "tv"], run: Run, seen: dict[str, Lookup]
) -> list[tuple[str, Lookup | None]] | None:
    """`run` cut into titles TMDB knows, the longest run first ("velozes e furiosos" stays whole).

    Each title comes with its lookup (None: a part with no clear match). None when TMDB
    cannot answer: the caller keeps its reading without a source.
    """

    async def looked(text_: str) -> Lookup:
        key = fold(text_)
        if key not in seen:
            seen[key] = await lookup(ctx, kind, text_, None)
        return seen[key]

    out: list[tuple[str, Lookup | None]] = []
    i = 0
    while i < len(run.atoms):
        for j in range(min(len(run.atoms), i + MAX_RUN), i, -1):
            piece = run.joined(i, j)
            found = await looked(piece)
            if isinstance(found, ServiceError):
                return None
            if clear_candidate(found, piece, None) is not None or (
                j > i + 1 and names_all(found, run.atoms[i:j])
            ):
                out.append((piece, found))
                i = j
                break
        else:
            out.append((run.atoms[i], None))  # no clear match for it alone either
            i += 1
    return out


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
    except ServiceError as exc:  # unavailable included
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
        kind="lookup",
        facts=frozenset({"year"}),
        needs="tmdb",
    ),
    Tool(
        "enrich_tv_show",
        EnrichTvShowArgs,
        "read",
        "Look a TV show up on TMDB (same rules as enrich_movie).",
        enrich_tv_show,
        {"title": "dark", "year": 2017},
        kind="lookup",
        facts=frozenset({"year"}),
        needs="tmdb",
    ),
    Tool(
        "enrich_link",
        EnrichLinkArgs,
        "read",
        "Fetch a public web page's title and description (saved as a link or video when the user asked to save).",
        enrich_link,
        {"url": "https://example.com/article"},
        kind="lookup",
    ),
)
