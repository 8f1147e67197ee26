"""`mark_item` (DESIGN 11.1, 11.5): an item seen, read or done, or back to its first state.

One implementation for the planner's tool and the in-code reader
(agent/conversation/watching.py): `resolve` finds the item the user named (by id, or by
a query matched as a deletion's name is), `mark` changes its state. A change keeps the
item as it was in `undo_snapshots` (a day) and appends `item_marked` (content-free:
id, type, the states, whether a rating came), so «desfaz» puts it back. A rating is kept
only when the user's own message gives that number ("nota 8", "8/10"): a model's number
for "adorei" is dropped, never stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal, Self

from pydantic import Field, model_validator

from agent.conversation import shelf as shelves
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.tools.base import (
    MarkChoice,
    Marked,
    MarkedMany,
    NotFound,
    Outcome,
    Replied,
    Tool,
    ToolArgs,
    ToolContext,
    UnknownItem,
)
from agent.tools.finding import DELETE_CUTOFF, UNIQUE_MARGIN, OneItemArgs, find_named
from agent.trust.ledgering import append_event
from agent.understanding.textnorm import fold
from agent.understanding.watchlist import WATCHABLE, said_rating
from storage.documents import DONE_STATE, FIRST_STATE, ItemDoc, ItemType, done_key_of

MarkTo = Literal["seen", "unseen", "done"]
MAX_CHOICES = 8
DAY_MS = 24 * 3600 * 1000


MAX_MARKED = 5  # items one call marks at most ("já vi X, Y e Z")
ItemId = Annotated[str, Field(min_length=1, max_length=64)]
Query = Annotated[str, Field(min_length=1, max_length=200)]


class MarkItemArgs(ToolArgs):
    """One item, or a few (a list of ids or of names), and the state they all take."""

    item_id: ItemId | Annotated[list[ItemId], Field(min_length=1, max_length=MAX_MARKED)] | None = (
        None
    )
    query: Query | Annotated[list[Query], Field(min_length=1, max_length=MAX_MARKED)] | None = None
    state: MarkTo
    rating: int | None = Field(default=None, ge=0, le=10)
    comment: str | None = Field(default=None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        if (self.item_id is None) == (self.query is None):
            raise ValueError("give exactly one of item_id or query")
        return self

    def named(self) -> list[tuple[str | None, str | None]]:
        """Each item the call names, as (item_id, query)."""
        if self.item_id is not None:
            ids = [self.item_id] if isinstance(self.item_id, str) else self.item_id
            return [(one, None) for one in ids]
        assert self.query is not None
        queries = [self.query] if isinstance(self.query, str) else self.query
        return [(None, one) for one in queries]


Resolved = ItemDoc | NotFound | UnknownItem | MarkChoice


async def resolve(
    deps: Deps,
    turn: Turn,
    *,
    item_id: str | None = None,
    query: str | None = None,
    item_type: ItemType | None = None,
    prefer: Sequence[ItemType] = (),
) -> Resolved:
    """The one item the user named, or why there is not one.

    By query, the delete rules decide (DESIGN 3.2): a unique exact match, a clear best, or
    the choice between the close ones. `item_type` ("a série Dark") keeps that type when
    it has a match; `prefer` ("li" prefers links) breaks ties between types.
    """
    turn.facts.apply_rule("user_scope")
    if item_id is not None:
        item = await deps.db.items.get(turn.user_id, item_id)
        return item if item is not None else UnknownItem(item_id)
    assert query is not None
    hits = await find_named(
        deps.db, turn.user_id, query, DELETE_CUTOFF, type_counts=turn.user.counts
    )
    for wanted in ((item_type,) if item_type else (), tuple(prefer)):
        kept = [(s, i) for s, i in hits if i.type in wanted]
        if kept:
            hits = kept
    if not hits:
        return await _spelled_out(deps, turn, query) or NotFound(query)
    exact = [item for score, item in hits if score >= 100]
    if len(exact) == 1:
        return exact[0]
    if len(hits) == 1 or (not exact and hits[0][0] - hits[1][0] >= UNIQUE_MARGIN):
        turn.facts.ambiguity = "implicit"
        return hits[0][1]
    tied = exact if len(exact) > 1 else [item for _, item in hits]
    return MarkChoice(query, tuple(tied[:MAX_CHOICES]))


async def _spelled_out(deps: Deps, turn: Turn, query: str) -> ItemDoc | None:
    """ "dune 2" for "Dune: Part Two", "creed 2" for "Creed II": the only item the words name
    with their one number spelled, else None."""
    for spelled in _spelled(query.split())[1:]:
        hits = await find_named(
            deps.db, turn.user_id, spelled, DELETE_CUTOFF, type_counts=turn.user.counts
        )
        if len(hits) == 1:
            return hits[0][1]
    return None


_SPELLED: Final = {
    "2": ("two", "dois", "ii"), "3": ("three", "tres", "iii"), "4": ("four", "quatro", "iv"),
    "5": ("five", "cinco"), "6": ("six", "seis"),
}  # fmt: skip


def _spelled(words: list[str]) -> list[str]:
    """`words` as written, then with their one number as a digit spelled out ("dune two")."""
    joined = " ".join(words)
    at = [i for i, w in enumerate(words) if w in _SPELLED]
    if len(at) != 1:
        return [joined]
    i = at[0]
    return [joined, *(" ".join([*words[:i], form, *words[i + 1 :]]) for form in _SPELLED[words[i]])]


async def mark(
    deps: Deps,
    turn: Turn,
    item: ItemDoc,
    to: MarkTo,
    *,
    rating: int | None = None,
    at_ms: int | None = None,
    comment: str | None = None,
) -> Marked | UnknownItem:
    """Put `item` in its done state (seen, read, done) or back in its first; record it.
    A rating or a comment ("loved it") given with it is kept with the state."""
    target = FIRST_STATE[item.type] if to == "unseen" else DONE_STATE[item.type]
    before = item.current_state
    if to == "unseen":
        rating = comment = None
    unchanged = (
        target == before
        and (rating is None or rating == item.rating)
        and (not comment or comment == item.comment)
    )
    if unchanged:
        return Marked(item, before, changed=False)
    done = target == DONE_STATE[item.type]
    when = at_ms or turn.now_ms
    if before == target and item.state_at_ms is not None and when == turn.now_ms:
        when = item.state_at_ms  # a rating added to what was seen: still seen when it was
    fields: dict[str, object] = {
        "state": target,
        "state_at_ms": when if done else None,
        "done_key": done_key_of(turn.user_id, item.type) if done else None,
        "rating": rating if done and rating is not None else (item.rating if done else None),
        "comment": comment if done and comment else (item.comment if done else None),
    }
    snapshot = f"mark:{turn.turn_id}:{item.id}"  # the item as it was, for undo
    await deps.db.snapshots.keep(turn.user_id, snapshot, [item], turn.now_ms)
    after = await deps.db.items.update_fields(turn.user_id, item.id, fields, turn.now_ms)
    if after is None:
        return UnknownItem(item.id)
    # the list cache moves with the mark, in the same round trip (as a save extends it)
    await deps.db.users.item_marked(
        turn.user_id, item.type, shelf=shelves.after_mark(turn.user, after, was_done=item.done)
    )
    if not turn.user.marked.get(item.type):
        turn.user = turn.user.model_copy(update={"marked": {**turn.user.marked, item.type: True}})
    payload = {
        "item_id": item.id,
        "type": item.type,
        "state": target,
        "from": before,
        "rated": rating is not None,
        "snapshot": snapshot,
        "turn": turn.turn_id,  # the marks of one message are one effect, with or without an update
    }
    await append_event(deps, turn, "item_marked", payload)
    return Marked(after, before, changed=True)


def seen_at(now_ms: int, days_ago: int) -> int:
    """When something seen `days_ago` days back was seen (the same time of that day)."""
    return now_ms - max(0, days_ago) * DAY_MS


async def mark_item(ctx: ToolContext, args: MarkItemArgs) -> Outcome:
    deps, turn = ctx.deps, ctx.turn
    rating = args.rating
    if rating is not None and said_rating(turn.incoming.text or "") != rating:
        rating = None  # a number the user did not give is never stored (issue 44)
        turn.facts.apply_rule("ungrounded:rating")
    comment = args.comment
    if comment is not None and not _said_in(comment, turn.incoming.text or ""):
        comment = None  # a comment is the user's own words, never the model's
        turn.facts.apply_rule("ungrounded:comment")
    prefer: tuple[ItemType, ...] = ("link",) if args.state == "done" else WATCHABLE
    items: list[ItemDoc] = []
    for item_id, query in args.named():
        found = await resolve(deps, turn, item_id=item_id, query=query, prefer=prefer)
        if not isinstance(found, ItemDoc):
            return found  # nothing is marked until every name is one item
        if all(found.id != i.id for i in items):
            items.append(found)
    marks: list[Marked] = []
    for item in items:
        marked = await mark(deps, turn, item, args.state, rating=rating, comment=comment)
        if not isinstance(marked, Marked):
            return marked
        marks.append(marked)
    return marks[0] if len(marks) == 1 else MarkedMany(tuple(marks))


def _said_in(words: str, message: str) -> bool:
    """Whether every word of `words` is a word of the user's message (folded)."""
    said = set(fold(message).split())
    return bool(fold(words).split()) and all(w in said for w in fold(words).split())


class WhatISaidArgs(OneItemArgs):
    pass


async def what_i_said(ctx: ToolContext, args: WhatISaidArgs) -> Outcome:
    """The rating and seen date the user's marks kept of one of their items, phrased by the
    same code as the in-code answer ("what rating did I give Dune?")."""
    from agent.conversation.said import said_reply

    found = await resolve(
        ctx.deps, ctx.turn, item_id=args.item_id, query=args.query, prefer=WATCHABLE
    )
    if not isinstance(found, ItemDoc):
        return found
    return Replied(said_reply(ctx.deps, ctx.turn, found), "answered")


MARK_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "mark_item",
        MarkItemArgs,
        "low",
        "Mark items seen/read/done, or unseen.",
        mark_item,
        {"query": "dune", "state": "seen"},
        facts=frozenset({"rating", "comment"}),  # what the user gave, or none
    ),
    Tool(
        "what_i_said",
        WhatISaidArgs,
        "read",
        "The rating and seen date kept of one of the user's items.",
        what_i_said,
        {"query": "dune"},
    ),
)
