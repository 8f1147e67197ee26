"""`update_item` (DESIGN 9.4): correct an item's title, year or note text, user-scoped.

No preview is needed (nothing is lost: the item as it was is kept 24 hours in
`undo_snapshots`, named by `item_updated`, so «desfaz» puts it back). The dedup key
stays the one the item was saved with, so saving the original again is still recognised.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pydantic import Field, model_validator

from agent.errors import ToolFailure
from agent.tools.base import Failed, Outcome, Tool, ToolArgs, ToolContext, UnknownItem, Updated
from agent.trust.ledgering import append_event
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.vocabulary import TYPE_WORDS
from agent.understanding.watchlist import marks_a_title, said_rating
from storage.documents import ItemDoc

TITLED = frozenset({"movie", "tv_show", "video", "link"})
DATED = frozenset({"movie", "tv_show"})
MIN_YEAR, MAX_YEAR = 1870, 2100
# what the model is told (it reads English); the user reads the text key, in their language
_WHY = {
    "edit_no_year": "only movies and TV shows have a year",
    "edit_year_invalid": "a year is four digits, 1870-2100",
    "edit_invalid": "nothing to change: give the new text, title or year",
    "edit_request_words": "the new value must be only the new title or text, never the words "
    "of the request",
    "edit_other_type": "the message names another kind of item than this one: find the item "
    "it names, or ask",
}


class UpdateItemArgs(ToolArgs):
    item_id: str = Field(min_length=1, max_length=64)
    title: str | None = Field(default=None, min_length=1, max_length=200)
    year: int | None = Field(default=None)
    content: str | None = Field(default=None, min_length=1, max_length=4000)

    @model_validator(mode="after")
    def _something_changes(self) -> UpdateItemArgs:
        if self.title is None and self.year is None and self.content is None:
            raise ValueError("give at least one of title, year, content")
        return self


_YEAR = re.compile(r"^\(?(\d{4})\)?$")
_ASKS_YEAR = re.compile(r"\b(?:ano|year|de|from|of|in)\b", re.IGNORECASE)


def _changes(item: ItemDoc, args: UpdateItemArgs, said: str) -> dict[str, object] | str:
    """The fields to set, or the text key saying why this item cannot take them.

    Models name fields loosely: for a note, `title` is its text; for a titled item,
    `content` is its title; "o ano" / "the year" sent as a title is the year.
    """
    title, content, year = args.title, args.content, args.year
    if not _may_name(item, said, args):
        return "edit_other_type"
    if _holds_request(item, args):
        return "edit_request_words"
    if item.type == "note" and title is not None and content is None:
        title, content = None, title  # a note's "title" is its text
    elif item.type in TITLED and content is not None and title is None:
        title, content = content, None
    if title is not None and item.type in DATED and year is None:
        digits = _YEAR.match(title.strip())
        if digits is not None and _ASKS_YEAR.search(said):
            title, year = None, int(digits.group(1))  # "muda o ano para 2021"
    fields: dict[str, object] = {}
    if title is not None:
        fields["title"] = clean_text(title)
    if year is not None:
        if item.type not in DATED:
            return "edit_no_year"
        if not MIN_YEAR <= year <= MAX_YEAR:
            return "edit_year_invalid"
        fields["year"] = year
    if content is not None:
        fields["content"] = clean_text(content)
    if not any(fields.values()):
        return "edit_invalid"
    return fields


def _may_name(item: ItemDoc, said: str, args: UpdateItemArgs) -> bool:
    """False when the message names kinds of item and this item's is none of them ("na nota
    do churrasco troca ..." never edits a film); words of the new values do not count."""
    new_words = set(fold(f"{args.title or ''} {args.content or ''}").split())
    named = {TYPE_WORDS[w] for w in fold(said).split() if w in TYPE_WORDS and w not in new_words}
    return not named or item.type in named


_EDIT_VERBS = frozenset(
    """troca trocar troque muda mudar mude altera alterar altere corrige corrigir corrija renomeia
    renomear substitui substituir substitua atualiza atualizar change rename replace edit update
    fix swap""".split()
)


def _holds_request(item: ItemDoc, args: UpdateItemArgs) -> bool:
    """Whether the new value carries a verb of editing the old one lacks: the request copied
    into the title ("Na nota do churrasco troca linguiça por picanha")."""
    new_words = set(fold(f"{args.title or ''} {args.content or ''}").split())
    old_words = set(fold(f"{item.title or ''} {item.content or ''}").split())
    return bool((new_words - old_words) & _EDIT_VERBS)


_RENAMES = re.compile(r"\b(?:t[ií]tulo|title|renomei\w*|rename\w*|nome|name)\b", re.IGNORECASE)


def check_not_a_mark(ctx: ToolContext, args: UpdateItemArgs) -> str | None:
    """Invalid output when the new title or text adds a rating or a seen mark to the item's
    name ("Whiplash - Nota 8"): that is `mark_item`'s job, and a title keeps no rating; the
    model is told which call to make instead. A user who asks to rename it so is obeyed."""
    said = ctx.turn.incoming.text or ""
    written = [t for t in (args.title, args.content) if t]
    if _RENAMES.search(said) or not any(marks_a_title(t) for t in written):
        return None
    rating = said_rating(said)
    also = f', "rating": {rating}' if rating is not None else ""
    return (
        "a rating or a seen mark is no part of a title: leave the title as it is and call "
        f'mark_item {{"item_id": "{args.item_id}", "state": "seen"{also}}}'
    )


async def update_item(ctx: ToolContext, args: UpdateItemArgs) -> Outcome:
    return await apply_update(ctx, args)


async def apply_update(
    ctx: ToolContext, args: UpdateItemArgs, *, also: Mapping[str, object] | None = None
) -> Outcome:
    """`update_item`'s effect; `also` are fields of the runtime's own written in the same update
    (an edit's date), never shown to the model nor named in the event."""
    deps, turn = ctx.deps, ctx.turn
    item = await deps.db.items.get(turn.user_id, args.item_id)
    if item is None:
        return UnknownItem(args.item_id)
    changes = _changes(item, args, turn.incoming.text or "")
    if isinstance(changes, str):
        return Failed(
            ToolFailure("INVALID_ARGUMENT", "validation", _WHY[changes], "rephrase", reason=changes)
        )
    snapshot = f"edit:{turn.turn_id}:{item.id}"  # the item as it was, for undo (DESIGN 9.4)
    await deps.db.snapshots.keep(turn.user_id, snapshot, [item], turn.now_ms)
    written = {**changes, **(also or {})}
    updated = await deps.db.items.update_fields(turn.user_id, item.id, written, turn.now_ms)
    if updated is None:
        return UnknownItem(args.item_id)
    await deps.db.users.items_changed(turn.user_id)  # its label may be on the user's shelf
    payload = {
        "item_id": item.id,
        "type": item.type,
        "fields": sorted(changes),
        "snapshot": snapshot,
    }
    await append_event(deps, turn, "item_updated", payload)
    return Updated(updated, tuple(sorted(changes)))


EDIT_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "update_item",
        UpdateItemArgs,
        "low",
        "Correct one of the user's items by id: title (movie, show, video, link), year "
        "(movie, show) or content (note). Only fields the user asked to change.",
        update_item,
        {"item_id": "<id of the item>", "title": "The Matrix Reloaded"},
        check=check_not_a_mark,
    ),
)
