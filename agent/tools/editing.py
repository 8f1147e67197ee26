"""`update_item` (DESIGN 9.4): correct an item's title, year or note text, user-scoped.

No preview is needed (nothing is lost: the item as it was is kept 24 hours in
`undo_snapshots`, named by `item_updated`, so «desfaz» puts it back). The dedup key
stays the one the item was saved with, so saving the original again is still recognised.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from agent.errors import ToolFailure
from agent.tools.base import Failed, Outcome, Tool, ToolArgs, ToolContext, UnknownItem, Updated
from agent.trust.ledgering import append_event
from agent.understanding.textnorm import clean_text
from storage.documents import ItemDoc

TITLED = frozenset({"movie", "tv_show", "video", "link"})
DATED = frozenset({"movie", "tv_show"})


class UpdateItemArgs(ToolArgs):
    item_id: str = Field(min_length=1, max_length=64)
    title: str | None = Field(default=None, min_length=1, max_length=200)
    year: int | None = Field(default=None, ge=1870, le=2100)
    content: str | None = Field(default=None, min_length=1, max_length=4000)

    @model_validator(mode="after")
    def _something_changes(self) -> UpdateItemArgs:
        if self.title is None and self.year is None and self.content is None:
            raise ValueError("give at least one of title, year, content")
        return self


def _changes(item: ItemDoc, args: UpdateItemArgs) -> dict[str, object] | str:
    """The fields to set, or why this item cannot take them."""
    fields: dict[str, object] = {}
    if args.title is not None:
        if item.type not in TITLED:
            return "a note has no title: change its content"
        fields["title"] = clean_text(args.title)
    if args.year is not None:
        if item.type not in DATED:
            return "only movies and TV shows have a year"
        fields["year"] = args.year
    if args.content is not None:
        if item.type != "note":
            return "only notes have content: change the title"
        fields["content"] = clean_text(args.content)
    return fields


async def update_item(ctx: ToolContext, args: UpdateItemArgs) -> Outcome:
    deps, turn = ctx.deps, ctx.turn
    item = await deps.db.items.get(turn.user_id, args.item_id)
    if item is None:
        return UnknownItem(args.item_id)
    changes = _changes(item, args)
    if isinstance(changes, str):
        return Failed(ToolFailure("INVALID_ARGUMENT", "validation", changes, "rephrase"))
    snapshot = f"edit:{turn.turn_id}:{item.id}"  # the item as it was, for undo (DESIGN 9.4)
    await deps.db.snapshots.keep(turn.user_id, snapshot, [item], turn.now_ms)
    updated = await deps.db.items.update_fields(turn.user_id, item.id, changes, turn.now_ms)
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
    ),
)
