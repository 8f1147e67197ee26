"""`lista`/`list`: everything saved by type with the open reminders, or one type a page at a time.

`lista tudo` shows the list cache kept on the user document (agent/conversation/shelf.py)
when its key is current, with no read of `items`; otherwise it reads the items (a
few queries at once) and stores the cache back unless the items changed meanwhile.
A save keeps the cache current itself; after a delete, an edit or an undo the next
list pays those reads and one write.

Every list is numbered the same way, 1-based, `lista tudo` straight through its types,
and what it shows becomes the conversation's shelf, so "apaga o 2" names its line 2.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from agent.conversation import reminding, watching
from agent.conversation import shelf as shelves
from agent.conversation.replies import finish, item_label, list_paging
from agent.conversation.shelf import (
    LIST_PER_TYPE,
    PREVIEW_EXAMPLES,
    Shelf,
    kept_shelf,
    shelf_key,
)
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import DONE_MARK, text, type_heading, type_word
from agent.types import Language, Reply
from agent.understanding.intent import Intent
from storage.documents import ITEM_TYPES, ItemType

LIST_PAGE = 30


async def current_shelf(deps: Deps, turn: Turn) -> Shelf:
    """The user's shelf: kept on the user document, or read from `items` and kept there."""
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


async def list_items(deps: Deps, turn: Turn, intent: Intent) -> Reply:
    """List the newest items of every type, or one type a page at a time."""
    lang = turn.language
    counts = {t: int(turn.user.counts.get(t, 0)) for t in ITEM_TYPES}
    wanted = intent.entities.get("type")
    items = deps.db.items
    if wanted in ITEM_TYPES:
        item_type: ItemType = wanted
        total = counts[item_type]
        if total == 0:
            return finish(
                turn,
                text("list_empty_type", lang, type=type_word(item_type, lang)),
                kind="deterministic",
            )
        page = page_number(turn.incoming.text or "")
        pages = max(1, -(-total // LIST_PAGE))
        page = min(page, pages)
        first = (page - 1) * LIST_PAGE
        # the unseen first, then the seen (DESIGN 11.5), once any of the type is marked
        split = await watching.typed_page(deps, turn, item_type, total, first, page * LIST_PAGE)
        if split is not None:
            shown, done, left = split
            lines, entries = watching.typed_lines(turn, item_type, shown, first, total, done, left)
        else:
            all_of_type = await items.list_for(
                turn.user_id, item_type=item_type, limit=page * LIST_PAGE
            )
            shown = all_of_type[first:]
            entries = shelves.show_items(turn, shown, first=first + 1)
            lines = [f"{type_heading(item_type, lang)} ({total}):"]
            lines += [f"{e.number}. {e.label}" for e in entries]
        if page < pages:
            lines.append(
                text(
                    "list_page",
                    lang,
                    page=page,
                    pages=pages,
                    type_word=type_word(item_type, lang),
                    next=page + 1,
                )
            )
        reply = finish(turn, "\n".join(lines), kind="deterministic")
        if item_type != "note":  # a ✓ under each line still to see or read (issue 44)
            reply = watching.typed_buttons(turn, reply, entries, shown)
        return replace(reply, paging=list_paging(type_word(item_type, lang), page, pages))
    total = sum(counts.values())
    if total == 0:
        body = "\n".join([text("list_empty", lang), *await reminder_section(deps, turn)])
        return finish(turn, body, kind="deterministic")
    lines = [text("list_header", lang, count=total)]
    cached = await current_shelf(deps, turn)
    newest = cached.newest
    numbered: list[shelves.Entry] = []
    for item_type in [t for t in ITEM_TYPES if counts[t]]:
        recent = newest.get(item_type, [])
        lines.append(f"\n{_heading(item_type, counts[item_type], cached, lang)}")
        for item_id, label in recent:  # numbered straight through the types
            numbered.append(shelves.Entry(len(numbered) + 1, item_id, label, item_type))
            mark = f" {DONE_MARK}" if item_id in cached.done else ""
            lines.append(f"{len(numbered)}. {label}{mark}")
        if counts[item_type] > len(recent):
            lines.append(
                text(
                    "list_more_of_type",
                    lang,
                    more=counts[item_type] - len(recent),
                    type_word=type_word(item_type, lang),
                )
            )
    shelves.show(turn, numbered)
    lines += await reminder_section(deps, turn)
    return finish(turn, "\n".join(lines), kind="deterministic")


def _heading(item_type: ItemType, count: int, cached: Shelf, lang: Language) -> str:
    """ "Filmes (3):", or "Filmes (3; vistos: 1):" once some are seen (DESIGN 11.5)."""
    done = cached.done_counts.get(item_type, 0)
    if not done:
        return f"{type_heading(item_type, lang)} ({count}):"
    return watching.typed_heading(item_type, count, done, lang)


async def reminder_section(deps: Deps, turn: Turn) -> list[str]:
    """Open reminders under the items of `lista tudo` (DESIGN 9.3)."""
    found = await reminding.list_lines(deps, turn)
    if not found:
        return []
    heading = text("reminders_header", turn.language, count=len(found))
    return [f"\n{heading}", *(f"• {line}" for line in found)]


def page_number(raw: str) -> int:
    """Read the page asked for (`lista filmes 2`), 1 by default."""
    words = raw.strip().split()
    return int(words[-1]) if len(words) > 1 and words[-1].isdigit() and int(words[-1]) > 0 else 1
