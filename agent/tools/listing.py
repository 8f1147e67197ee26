"""`list_items` (DESIGN 11.1): the user's items by type, period and state, or how many there are.

The one implementation of every list and count the program gives: `lista tudo`, `lista
meus filmes`, "quantas séries eu tenho?", "o que eu salvei hoje / essa semana / nos
últimos 7 dias / esse mês?", and the planner's `list_items` call. It reads; the runtime
words the reply (agent/conversation/listing.py), so a list or a count never needs a
second model call to be phrased.

- no period and no state: the counters on the user document give the counts (no read);
  everything is listed from the list cache kept on the user document (newest of each
  type, agent/conversation/shelf.py), one type a page at a time in the order saved;
- a period: the items created since it began, in the user's time zone (`this_week`
  from Monday, `last_7_days` the 7 days up to now, `this_month` from the 1st);
- a state: the watchlist state of DESIGN 11.5 (`to_see`, `seen`, `to_read`, `read`,
  `open`, `done`), read from the item's `state` field; an item without one has its type's
  first state.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from pydantic import field_validator

from agent.conversation.replies import item_label
from agent.conversation.shelf import LIST_PER_TYPE, PREVIEW_EXAMPLES, Shelf, kept_shelf, shelf_key
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.tools.base import Listed, Outcome, Tool, ToolArgs, ToolContext
from agent.understanding.vocabulary import type_named
from storage.documents import DONE_STATE, FIRST_STATE, ITEM_TYPES, ItemDoc, ItemState, ItemType

# what code reads, the planner can ask for (DESIGN 11.1): "semana passada" is `last_week`
Period = Literal["today", "yesterday", "this_week", "last_week", "last_7_days", "this_month"]
State = ItemState
LIST_PAGE = 30  # a typed list shows this many a page
SHOWN = 30  # a period or a state lists this many (the count says how many more)
READ_CAP = 1_000  # a period is read up to this many items


class ListItemsArgs(ToolArgs):
    type: ItemType | None = None
    period: Period | None = None
    state: State | None = None
    count_only: bool = False

    @field_validator("type", mode="before")
    @classmethod
    def _type_word(cls, value: Any) -> Any:
        """ "filmes", "série", "tv": the type they name (a model writes the user's word)."""
        return type_named(value)


def item_state(item: ItemDoc) -> str:
    """The item's watchlist state; an item stored without one has its type's first."""
    return item.current_state


def zone_of(deps: Deps, turn: Turn) -> ZoneInfo:
    try:
        return ZoneInfo(turn.user.timezone)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)


def window_bounds(now_ms: int, zone: ZoneInfo, window: Period) -> tuple[int, int]:
    """The period as epoch ms [start, end) in `zone`."""
    now = datetime.fromtimestamp(now_ms / 1000, zone)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    monday = midnight - timedelta(days=now.weekday())
    later = now + timedelta(seconds=1)
    start, end = {
        "today": (midnight, later),
        "yesterday": (midnight - timedelta(days=1), midnight),
        "this_week": (monday, later),
        "last_week": (monday - timedelta(days=7), monday),
        "last_7_days": (now - timedelta(days=7), later),
        "this_month": (midnight.replace(day=1), later),
    }[window]
    return int(start.timestamp() * 1000), int(end.timestamp() * 1000)


async def list_items(ctx: ToolContext, args: ListItemsArgs) -> Outcome:
    return await listed(ctx.deps, ctx.turn, args)


async def listed(
    deps: Deps,
    turn: Turn,
    args: ListItemsArgs,
    *,
    page: int = 1,
) -> Listed:
    """What `args` asks for; `page` of a typed list."""
    turn.facts.apply_rule("user_scope")
    period = args.period
    if period is None and args.state is None:
        return await _by_counters(deps, turn, args, page)
    if period is None and args.state is not None:
        return await _by_state(deps, turn, args, args.state)
    items: list[ItemDoc]
    if period is not None:
        start, end = window_bounds(turn.now_ms, zone_of(deps, turn), period)
        read = await deps.db.items.created_since(turn.user_id, start, READ_CAP)
        items = [i for i in read if i.created_at_ms < end]
    elif args.type is not None:
        items = await deps.db.items.newest_of_type(turn.user_id, args.type, READ_CAP)
    else:
        items = await deps.db.items.newest(turn.user_id, READ_CAP)
    items = [
        i
        for i in items
        if (args.type is None or i.type == args.type)
        and (args.state is None or item_state(i) == args.state)
    ]
    by_type = Counter(str(i.type) for i in items)
    entries = () if args.count_only else _entries(items[:SHOWN])
    return Listed(
        args.type, period, args.state, args.count_only, len(items), dict(by_type), entries
    )


async def _by_state(deps: Deps, turn: Turn, args: ListItemsArgs, state: ItemState) -> Listed:
    """A state whatever the list's size: the done ones through their index, the rest by the
    counters less them (a read capped at `READ_CAP` would miscount a large list)."""
    items = deps.db.items
    by_type: dict[str, int] = {}
    shown: list[ItemDoc] = []
    for item_type in [args.type] if args.type is not None else list(ITEM_TYPES):
        done = state == DONE_STATE[item_type]
        if not done and state != FIRST_STATE[item_type]:
            continue
        marked = bool(turn.user.marked.get(item_type))
        seen = len(await items.done_ids(turn.user_id, item_type)) if marked else 0
        count = seen if done else max(0, int(turn.user.counts.get(item_type, 0)) - seen)
        if not count:
            continue
        by_type[item_type] = count
        if not args.count_only and len(shown) < SHOWN:
            left = SHOWN - len(shown)
            shown += await (
                items.done_first(turn.user_id, item_type, left)
                if done
                else items.list_for(turn.user_id, item_type=item_type, limit=left, not_done=True)
            )
    total = sum(by_type.values())
    return Listed(args.type, None, state, args.count_only, total, by_type, _entries(shown))


def _entries(items: list[ItemDoc]) -> tuple[tuple[str, str, str], ...]:
    return tuple((i.id, item_label(i), i.type) for i in items)


async def _by_counters(deps: Deps, turn: Turn, args: ListItemsArgs, page: int) -> Listed:
    counts: dict[str, int] = {t: int(turn.user.counts.get(t, 0)) for t in ITEM_TYPES}
    if args.type is not None:
        counts = {args.type: counts[args.type]}
    by_type = {t: n for t, n in counts.items() if n}
    total = sum(by_type.values())
    if args.count_only or total == 0:
        return Listed(args.type, None, None, args.count_only, total, by_type)
    if args.type is None:  # everything: the newest of each type, from the list cache
        cached = await current_shelf(deps, turn)
        entries = tuple(
            (item_id, label, t) for t in by_type for item_id, label in cached.newest.get(t, [])
        )
        return Listed(
            None,
            None,
            None,
            False,
            total,
            by_type,
            entries,
            done=cached.done,
            done_counts=cached.done_counts,
        )
    pages = max(1, -(-total // LIST_PAGE))
    page = min(max(page, 1), pages)
    in_order = await deps.db.items.list_for(
        turn.user_id, item_type=args.type, limit=page * LIST_PAGE
    )
    first = (page - 1) * LIST_PAGE + 1
    shown = _entries(in_order[first - 1 :])
    return Listed(args.type, None, None, False, total, by_type, shown, first, page, pages)


async def current_shelf(deps: Deps, turn: Turn) -> Shelf:
    """The user's list cache: kept on the user document, or read from `items` and kept there."""
    kept = kept_shelf(turn.user)
    if kept is not None:
        return kept
    items = deps.db.items
    types = [t for t in ITEM_TYPES if turn.user.counts.get(t, 0)]
    newest, oldest = await asyncio.gather(
        items.newest_by_type(turn.user_id, types, LIST_PER_TYPE),
        items.list_for(turn.user_id, limit=PREVIEW_EXAMPLES),
    )
    # DESIGN 11.5: how many of each type are seen (read, done), counted here and kept with
    # the cache (a mark moves them, agent/conversation/shelf.py `after_mark`)
    marked = [t for t in types if turn.user.marked.get(t)]
    done_ids = await asyncio.gather(*(items.done_ids(turn.user_id, t) for t in marked))
    done_counts: dict[str, int] = {
        t: len(ids) for t, ids in zip(marked, done_ids, strict=True) if ids
    }
    built = Shelf(
        newest={t: [(i.id, item_label(i)) for i in of_type] for t, of_type in newest.items()},
        oldest=[item_label(i) for i in oldest],
        done=frozenset(i.id for of_type in newest.values() for i in of_type if i.done),
        done_counts=done_counts,
        counted=bool(marked),
    )
    raw = built.stored(shelf_key(turn.user))
    if await deps.db.users.keep_shelf(turn.user, raw):
        turn.user = turn.user.model_copy(update={"shelf": raw})
    return built


LIST_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "list_items",
        ListItemsArgs,
        "read",
        "List or count the user's items; the runtime words the answer.",
        list_items,
        {"type": "movie", "period": "this_week"},
        facts=frozenset({"type"}),
    ),
)
