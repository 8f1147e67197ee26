"""The five save tools and the one function that stores an item (dedup, counters, ledger)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, field_validator

from agent.errors import ServiceError, ToolFailure
from agent.services.tmdb import TMDB_LANGUAGE, TmdbCandidate, clear_candidate
from agent.texts import text
from agent.tools.base import Failed, Outcome, Saved, Tool, ToolArgs, ToolContext
from agent.tools.watching import learn_details
from agent.trust import effects
from agent.trust.confidence import evaluate
from agent.trust.ledgering import digest
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.urls import (
    InvalidUrl,
    extract_urls,
    is_video_url,
    normalize_url,
    parse_user_url,
    said_about_link,
)
from storage.documents import DONE_STATE, ItemDoc, ItemState, ItemType, done_key_of

MIN_YEAR, MAX_YEAR = 1870, 2100


def _clean(value: str | None) -> str | None:
    if value is None:
        return None
    cleaned = clean_text(value)
    return cleaned or None


class SaveNoteArgs(ToolArgs):
    content: str = Field(min_length=1, max_length=4_000)


class _TitledArgs(ToolArgs):
    title: str = Field(min_length=1, max_length=300)
    year: int | None = Field(default=None, ge=MIN_YEAR, le=MAX_YEAR)
    tmdb_id: int | None = Field(default=None, gt=0)

    @field_validator("title")
    @classmethod
    def _has_text(cls, value: str) -> str:
        if not clean_text(value):
            raise ValueError("title is empty")
        return value


class SaveMovieArgs(_TitledArgs):
    pass


class SaveTvShowArgs(_TitledArgs):
    pass


class SaveVideoArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=2_048)
    title: str | None = Field(default=None, max_length=300)


class SaveLinkArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=2_048)
    description: str | None = Field(default=None, max_length=1_000)


def dedup_key(
    item_type: ItemType,
    *,
    title: str | None = None,
    year: int | None = None,
    tmdb_id: int | None = None,
    url: str | None = None,
    content: str | None = None,
) -> str:
    """One key per "same thing" for a user (DESIGN 3.2)."""
    if item_type in ("movie", "tv_show"):
        if tmdb_id is not None:
            return f"tmdb:{item_type}:{tmdb_id}"
        return f"title:{item_type}:{digest(_key_text(title))}:{year or ''}"
    if item_type in ("video", "link"):
        return f"url:{digest(normalize_url(url or ''))}"
    return f"note:{digest(_key_text(content))}"


def _key_text(value: str | None) -> str:
    """`fold(value)`; for text with no letter or digit (emoji, punctuation), the text itself.

    fold() drops symbols, so without this every emoji-only note would be "the same".
    """
    value = value or ""
    return fold(value) or " ".join(clean_text(value).casefold().split())


@dataclass(frozen=True, slots=True)
class NewItem:
    """What to store: an item's type and fields, as `store_item` takes them."""

    type: ItemType
    title: str | None = None
    year: int | None = None
    tmdb_id: int | None = None
    url: str | None = None
    description: str | None = None
    content: str | None = None
    overview: str | None = None
    enriched: bool = False
    original_title: str | None = None
    state: ItemState | None = None  # an import's seen/read/done (DESIGN 11.5)
    state_at_ms: int | None = None
    rating: int | None = None
    # what TMDB told (runtime_min, genres, seasons); an import's comment on a seen item
    details: Mapping[str, object] | None = None
    learn: bool = True  # False: ask TMDB nothing more (an import of hundreds of titles)


SAVE_BATCH = 100  # items a batch save writes as one effect (`store_items`)


async def store_item(
    ctx: ToolContext,
    item_type: ItemType,
    *,
    title: str | None = None,
    year: int | None = None,
    tmdb_id: int | None = None,
    url: str | None = None,
    description: str | None = None,
    content: str | None = None,
    overview: str | None = None,
    enriched: bool = False,
    original_title: str | None = None,
    caveats: tuple[str, ...] = (),
    state: ItemState | None = None,
    state_at_ms: int | None = None,
    rating: int | None = None,
    details: Mapping[str, object] | None = None,
    learn: bool = True,
) -> Outcome:
    """Store an item for the turn's user unless it is already there; record the effect.

    `state`, `state_at_ms` and `rating` (an import's) store it seen/read/done; `details`
    are what TMDB told of it (runtime_min, genres, seasons); `learn` False asks TMDB for
    nothing more (an import of hundreds of titles).
    """
    turn = ctx.turn
    for caveat in caveats:
        turn.facts.add_caveat(text(caveat, turn.language))
    blocked = _blocked(ctx, "saved_with_caveat" if caveats else "effect")
    if blocked is not None:
        return blocked
    new = NewItem(
        item_type,
        title=title,
        year=year,
        tmdb_id=tmdb_id,
        url=url,
        description=description,
        content=content,
        overview=overview,
        enriched=enriched,
        original_title=original_title,
        state=state,
        state_at_ms=state_at_ms,
        rating=rating,
        details=details,
    )
    item = _item_doc(ctx, new)
    stored, created = await effects.save(ctx.deps, turn, item, dedup_sha256=digest(item.dedup_key))
    if created and stored.done:
        await _marked(ctx, {stored.type})
    if not created:  # the re-drive of the update that saved it answers as that first run did
        created = stored.update_id is not None and stored.update_id == turn.incoming.update_id
        return Saved(stored, created=created, caveats=caveats)
    if not learn:
        return Saved(stored, created=created, caveats=caveats)
    # a movie or show TMDB knows: its runtime and genres, and where it streams (issue 44)
    stored, watch = await learn_details(ctx.deps, turn, stored)
    return Saved(stored, created=created, caveats=caveats, watch=watch)


async def _marked(ctx: ToolContext, types: set[ItemType]) -> None:
    """Types that have marked items from now on (DESIGN 11.5): a new item stored seen."""
    turn = ctx.turn
    for item_type in sorted(types - {t for t, on in turn.user.marked.items() if on}):
        await ctx.deps.db.users.item_marked(turn.user_id, item_type)
        turn.user = turn.user.model_copy(update={"marked": {**turn.user.marked, item_type: True}})


async def store_items(ctx: ToolContext, items: Sequence[NewItem]) -> list[Outcome]:
    """Store many items as `store_item` stores one (dedup keys, counters, one event each),
    written `SAVE_BATCH` at a time: a few round trips a batch instead of several an item."""
    blocked = _blocked(ctx, "effect")
    if blocked is not None:
        return [blocked] * len(items)
    outcomes: list[Outcome] = []
    for start in range(0, len(items), SAVE_BATCH):
        docs = [_item_doc(ctx, new) for new in items[start : start + SAVE_BATCH]]
        for stored, created in await effects.save_many(ctx.deps, ctx.turn, docs):
            outcomes.append(Saved(stored, created=created))
    done = {o.item.type for o in outcomes if isinstance(o, Saved) and o.created and o.item.done}
    if done:
        await _marked(ctx, done)
    return outcomes


def _blocked(ctx: ToolContext, rule: Literal["effect", "saved_with_caveat"]) -> Failed | None:
    """The failure a save gets when the turn's confidence allows no writes."""
    gate = evaluate(ctx.turn.facts, rule)
    if gate.writes_allowed:
        return None
    return Failed(
        ToolFailure(
            "WRITE_BLOCKED",
            "forbidden",
            f"confidence state {gate.state} allows no writes",
            "rephrase",
            reason=gate.state,
        )
    )


def _item_doc(ctx: ToolContext, new: NewItem) -> ItemDoc:
    """The document `new` is stored as (numbered later, by the effect that writes it)."""
    turn, db = ctx.turn, ctx.deps.db
    key = dedup_key(
        new.type,
        title=new.title,
        year=new.year,
        tmdb_id=new.tmdb_id,
        url=new.url,
        content=new.content,
    )
    turn.facts.apply_rule("dedup")
    now = turn.now_ms
    return ItemDoc(
        _id=db.items.new_id(),
        user_id=turn.user_id,
        seq=0,  # numbered by the effect, in the round trip that writes its intent
        type=new.type,
        title=_clean(new.title),
        original_title=_clean(new.original_title) if new.original_title != new.title else None,
        year=new.year,
        tmdb_id=new.tmdb_id,
        url=new.url,
        description=_clean(new.description),
        content=_clean(new.content),
        overview=_clean(new.overview),
        dedup_key=key,
        enriched=new.enriched,
        created_at_ms=now,
        updated_at_ms=now,
        update_id=turn.incoming.update_id,
        source_message=turn.source_message,
    ).model_copy(
        update={
            **_state_fields(turn.user_id, new.type, new.state, new.state_at_ms, new.rating),
            **(new.details or {}),
        }
    )


def _state_fields(
    user_id: str,
    item_type: ItemType,
    state: ItemState | None,
    state_at_ms: int | None,
    rating: int | None,
) -> dict[str, Any]:
    """The state fields of a new item: none for its first state; its done state, its time,
    rating and `done_key` for one stored seen (read, done)."""
    if state is None or state != DONE_STATE[item_type]:
        return {}
    return {
        "state": state,
        "state_at_ms": state_at_ms,
        "rating": rating,
        "done_key": done_key_of(user_id, item_type),
    }


async def save_note(ctx: ToolContext, args: SaveNoteArgs) -> Outcome:
    content = clean_text(args.content)
    if not content:
        return Failed(ToolFailure("EMPTY_NOTE", "validation", "the note is empty", "rephrase"))
    return await store_item(ctx, "note", content=content)


def _unlooked(ctx: ToolContext, tmdb_id: int | None) -> tuple[str, ...]:
    """A title saved as given while TMDB is not configured says so, as a lookup would (issue 41)."""
    unlooked = tmdb_id is None and not ctx.deps.tmdb.configured
    return ("caveat_tmdb_not_configured",) if unlooked else ()


async def save_movie(ctx: ToolContext, args: SaveMovieArgs) -> Outcome:
    return await _save_title(ctx, "movie", args.title, args.year, args.tmdb_id)


async def save_tv_show(ctx: ToolContext, args: SaveTvShowArgs) -> Outcome:
    return await _save_title(ctx, "tv_show", args.title, args.year, args.tmdb_id)


async def _save_title(
    ctx: ToolContext, item_type: ItemType, title: str, year: int | None, tmdb_id: int | None
) -> Outcome:
    """A movie or show saved as the planner named it; with no TMDB id, the one TMDB clearly
    means by the title is saved instead (its year, id, runtime, where it streams), as a
    save in code does. No clear match, or TMDB not answering: saved as given."""
    chosen = await _clear_match(ctx, item_type, title, year) if tmdb_id is None else None
    if chosen is not None:
        ctx.turn.facts.apply_rule("save_when_asked")
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
    return await store_item(
        ctx, item_type, title=title, year=year, tmdb_id=tmdb_id, caveats=_unlooked(ctx, tmdb_id)
    )


async def _clear_match(
    ctx: ToolContext, item_type: ItemType, title: str, year: int | None
) -> TmdbCandidate | None:
    if not ctx.deps.tmdb.configured:
        return None
    language = TMDB_LANGUAGE[ctx.turn.language]
    kind: Literal["movie", "tv"] = "movie" if item_type == "movie" else "tv"
    try:
        found = await ctx.deps.tmdb.search(kind, title, language=language, year=year, limit=10)
    except ServiceError:
        ctx.turn.facts.apply_rule("tmdb_unanswered")
        return None
    ctx.turn.facts.apply_rule(f"tmdb_language:{language}")
    return clear_candidate(found, title, year)


def _parse_url(ctx: ToolContext, raw: str) -> str | Failed:
    try:
        parsed = parse_user_url(raw)
    except InvalidUrl as exc:
        return Failed(ToolFailure("INVALID_URL", "validation", str(exc), "rephrase", exc.code))
    if parsed.coerced:
        ctx.turn.facts.mapping = (
            "coerced" if ctx.turn.facts.mapping == "exact" else ctx.turn.facts.mapping
        )
        ctx.turn.facts.apply_rule("url_scheme_added")
    return parsed.url


async def store_video(
    ctx: ToolContext, args: SaveVideoArgs, *, about: str | None = None
) -> Outcome:
    """A video saved with what the arguments give (and `about` as its description)."""
    url = _parse_url(ctx, args.url)
    if isinstance(url, Failed):
        return url
    return await store_item(ctx, "video", url=url, title=args.title, description=about)


async def store_link(ctx: ToolContext, args: SaveLinkArgs) -> Outcome:
    """A link saved with what the arguments give, and nothing else."""
    url = _parse_url(ctx, args.url)
    if isinstance(url, Failed):
        return url
    if is_video_url(url):  # YouTube/Vimeo-style addresses are videos (DESIGN 3.2)
        ctx.turn.facts.apply_rule("video_url_as_video")
        return await store_item(ctx, "video", url=url, title=None, description=args.description)
    return await store_item(ctx, "link", url=url, description=args.description)


def said_with(ctx: ToolContext, raw_url: str) -> str | None:
    """What the user's message says the one link it holds is about ("guarda esse link sobre
    como plantar manjericão <url>"), when that link is `raw_url` (issue 41): kept as the
    link's description, so its words find it."""
    message = ctx.turn.incoming.text or ""
    links = extract_urls(message[:2_000])
    if len(links) != 1:
        return None
    try:
        if parse_user_url(links[0]).url != parse_user_url(raw_url).url:
            return None
    except InvalidUrl:
        return None
    return said_about_link(message)


async def save_video(ctx: ToolContext, args: SaveVideoArgs) -> Outcome:
    return await store_video(ctx, args, about=None if args.title else said_with(ctx, args.url))


async def save_link(ctx: ToolContext, args: SaveLinkArgs) -> Outcome:
    if args.description:
        return await store_link(ctx, args)
    about = said_with(ctx, args.url)
    return await store_link(ctx, args.model_copy(update={"description": about}))


SAVE_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "save_note",
        SaveNoteArgs,
        "low",
        "Save a free-text note.",
        save_note,
        {"content": "comprar leite"},
        kind="save",
    ),
    Tool(
        "save_movie",
        SaveMovieArgs,
        "low",
        "Save a movie as given (prefer enrich_movie first to find it on TMDB).",
        save_movie,
        {"title": "Inception", "year": 2010, "tmdb_id": 27205},
        kind="save",
        facts=frozenset({"year", "tmdb_id"}),
    ),
    Tool(
        "save_tv_show",
        SaveTvShowArgs,
        "low",
        "Save a TV show as given (prefer enrich_tv_show first).",
        save_tv_show,
        {"title": "Dark", "year": 2017},
        kind="save",
        facts=frozenset({"year", "tmdb_id"}),
    ),
    Tool(
        "save_video",
        SaveVideoArgs,
        "low",
        "Save a video URL (YouTube, Vimeo...).",
        save_video,
        {"url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ"},
        kind="save",
        facts=frozenset({"title"}),
    ),
    Tool(
        "save_link",
        SaveLinkArgs,
        "low",
        "Save a web link.",
        save_link,
        {"url": "https://example.com/article", "description": "artigo sobre café"},
        kind="save",
        facts=frozenset({"description"}),
    ),
)
