"""`save_items` (DESIGN 11.1): 1-10 typed items saved in one call, each as its own save would be.

The one implementation of saving several things at once: the planner's `save_items`
call, the pieces read in code from one message (agent/understanding/batches.py, through
agent/conversation/batching.py) and the titles an enrichment found in one
(agent/tools/enrich.py) all end in `save_entries`. Each entry goes through the path
its single save takes (a note, a link or a video by its address, a movie or a show
looked up on TMDB), so dedup, counters and the ledger are the same. TMDB never blocks
one: not configured or down, the title is saved as written with the caveat (DESIGN
3.2). The outcome lists what became of each entry; the runtime words one reply for all
of them (agent/conversation/batching.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

from pydantic import Field, ValidationError, field_validator, model_validator

from agent.errors import ToolFailure
from agent.tools.base import Failed, Outcome, Saved, SavedMany, Tool, ToolArgs, ToolContext
from agent.tools.enrich import Lookup, lookup, settle
from agent.tools.saving import (
    MAX_YEAR,
    MIN_YEAR,
    SaveLinkArgs,
    SaveNoteArgs,
    SaveVideoArgs,
    save_note,
    store_link,
    store_video,
)
from agent.understanding.vocabulary import type_named
from storage.documents import ItemType

MAX_ITEMS = 10
MAX_TITLE = 300


class ItemSpec(ToolArgs):
    """One item to save: its type and what names it (title, url or content)."""

    type: ItemType
    title: str | None = Field(default=None, min_length=1, max_length=MAX_TITLE)
    year: int | None = Field(default=None, ge=MIN_YEAR, le=MAX_YEAR)
    url: str | None = Field(default=None, min_length=1, max_length=2_048)
    content: str | None = Field(default=None, min_length=1, max_length=4_000)

    @field_validator("type", mode="before")
    @classmethod
    def _type_word(cls, value: Any) -> Any:
        """ "filmes", "série", "tv": the type they name (a model writes the user's word)."""
        return type_named(value)

    @model_validator(mode="after")
    def _named(self) -> Self:
        """Each type has what names it; a note's title is its text, a title's content its title."""
        if self.type == "note" and self.content is None and self.title is not None:
            self.content, self.title = self.title, None
        if self.type in ("movie", "tv_show") and self.title is None and self.content is not None:
            self.title, self.content = self.content, None
        if self.type in ("link", "video") and self.url is None:
            written = self.title or self.content or ""
            if "." in written and " " not in written.strip():  # the address given as its name
                self.url, self.title, self.content = written.strip(), None, None
        needs = {"note": "content", "movie": "title", "tv_show": "title"}.get(self.type, "url")
        if getattr(self, needs) is None:
            raise ValueError(f"a {self.type} needs `{needs}`")
        return self


class SaveItemsArgs(ToolArgs):
    items: list[ItemSpec] = Field(min_length=1, max_length=MAX_ITEMS)


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing to save: its spec, and for a title the TMDB lookup already made (if any)."""

    spec: ItemSpec
    asked: str  # how the reply names it when it is not saved (the user's words)
    found: Lookup | None = None


def invalid(why: str) -> Failed:
    return Failed(ToolFailure("INVALID_ARGUMENT", "validation", why, "rephrase"))


def entry(
    item_type: ItemType,
    text: str,
    *,
    found: Lookup | None = None,
    year: int | None = None,
    about: str = "",
) -> Entry | Failed:
    """An entry for `text` (a title, an address or a note's text) of `item_type`; `about`,
    what a link or video was said to be about, its description."""
    field = {"note": "content", "movie": "title", "tv_show": "title"}.get(item_type, "url")
    dated = {"year": year} if year is not None and field == "title" else {}
    described = {"title": about} if about and field == "url" else {}
    try:
        spec = ItemSpec.model_validate({"type": item_type, field: text, **dated, **described})
    except ValidationError:
        return invalid(f"{item_type}: arguments refused")
    return Entry(spec, text, found)


async def save_entries(
    ctx: ToolContext, entries: Sequence[Entry | tuple[str, Failed]], *, left_out: int = 0
) -> SavedMany:
    """Save every entry (a (piece, Failed) stands for one refused before) and say what became of each."""
    save = ToolContext(ctx.deps, ctx.turn, wants_save=True)  # save_items always asks to save
    results: list[tuple[str, Outcome]] = []
    for one in entries[:MAX_ITEMS]:
        if isinstance(one, tuple):
            results.append(one)
            continue
        outcome = await _save_one(save, one)
        if isinstance(outcome, Saved) and outcome.created:
            ctx.turn.tools_executed.append(f"save_{outcome.item.type}")
        results.append((one.asked, outcome))
    return SavedMany(tuple(results), left_out + max(0, len(entries) - MAX_ITEMS))


async def _save_one(ctx: ToolContext, one: Entry) -> Outcome:
    spec = one.spec
    try:
        match spec.type:
            case "note":
                return await save_note(ctx, SaveNoteArgs(content=spec.content or ""))
            case "video":
                return await store_video(ctx, SaveVideoArgs(url=spec.url or "", title=spec.title))
            case "link":
                return await store_link(
                    ctx, SaveLinkArgs(url=spec.url or "", description=spec.title)
                )
    except ValidationError:
        return invalid(f"{spec.type}: arguments refused")
    kind: Literal["movie", "tv"] = "movie" if spec.type == "movie" else "tv"
    title = spec.title or ""
    found = one.found if one.found is not None else await lookup(ctx, kind, title, spec.year)
    return await settle(ctx, kind, title, spec.year, found)


async def save_items(ctx: ToolContext, args: SaveItemsArgs) -> Outcome:
    ctx.turn.facts.apply_rule("several_items")
    asked = [
        Entry(spec, spec.title or spec.url or spec.content or spec.type) for spec in args.items
    ]
    return await save_entries(ctx, asked)


SEVERAL_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "save_items",
        SaveItemsArgs,
        "low",
        "Save several items at once.",
        save_items,
        {"items": [{"type": "movie", "title": "Duna"}, {"type": "note", "content": "pão"}]},
        kind="save",
    ),
)
