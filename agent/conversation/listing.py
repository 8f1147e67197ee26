"""Lists and counts as the user reads them: the reply to every `list_items` (agent/tools/listing.py).

`lista tudo` shows everything by type (newest first, from the list cache kept on the
user document) with the open reminders; `lista meus filmes` one type a page at a time;
a period or a state lists what it holds with how many of each type; `count_only` says
how many. The planner's `list_items` call, `lista`, "quantos filmes eu tenho?" and "o que
eu salvei hoje?" all come here, so they read the same and none needs a model to phrase
it.

Every list is numbered the same way, 1-based, `lista tudo` straight through its types,
and what it shows becomes the conversation's shelf, so "apaga o 2" names its line 2.
"""

from __future__ import annotations

from dataclasses import replace

from agent.conversation import reminding, watching
from agent.conversation import shelf as shelves
from agent.conversation.replies import finish, list_paging
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import DONE_MARK, plural, text, type_heading, type_word
from agent.tools.base import Listed, ToolContext
from agent.tools.listing import ListItemsArgs, listed
from agent.types import Language, Reply
from storage.documents import ITEM_TYPES, ItemType


async def list_reply(
    deps: Deps,
    turn: Turn,
    args: ListItemsArgs,
    *,
    page: int = 1,
    only: tuple[ItemType, ...] = (),
) -> Reply:
    """Run `list_items` in code (a reader's request) and word its answer; `only` keeps the
    types a question asked for together ("q filmes e séries eu tenho?"), as `lista tudo`
    shows them.

    Like `lista tudo` always was, a deterministic turn: its message and its reply are
    the whole record (the history the model reads stays as short)."""
    found = await listed(deps, turn, args, page=page)
    if only:
        by_type: dict[str, int] = {t: n for t, n in found.by_type.items() if t in only}
        found = replace(
            found,
            total=sum(by_type.values()),
            by_type=by_type,
            entries=tuple(e for e in found.entries if e[2] in only),
        )
    return await listed_reply(ToolContext(deps, turn, wants_save=False), found, only=only)


def kind_words(item_type: str | None, count: int, lang: Language) -> str:
    """ "3 filmes", "1 nota", "2 itens": a count with the word for its kind."""
    return plural(count, item_type or "item", lang)


def _breakdown(found: Listed, lang: Language) -> str:
    """ " (filmes: 2, notas: 1)" when several types are counted together."""
    if found.type is not None or len(found.by_type) < 2:
        return ""
    ordered = sorted(found.by_type.items(), key=lambda pair: -pair[1])
    return " (" + ", ".join(f"{type_word(t, lang)}: {n}" for t, n in ordered) + ")"


async def listed_reply(
    ctx: ToolContext, found: Listed, *, only: tuple[ItemType, ...] = ()
) -> Reply:
    """What the user reads for `found`: a count, a list by type, or what a period or state
    holds; of the types in `only`, when given, each counted even at none."""
    turn, lang = ctx.turn, ctx.turn.language
    if found.total or found.period:  # "and this week?" asks it again
        action = "count" if found.count_only else "list"
        shelves.did(turn, action, found.type or "", found.period or "")
    if found.period is None and found.state is None:
        if found.count_only:
            return _count(turn, found, only)
        if found.type is None:
            return await _everything(ctx, found, reminders=not only)
        return await _one_type(ctx, found)
    what = kind_words(found.type, found.total, lang)
    when = text(f"window_{found.period}", lang) if found.period else ""
    state = text(f"states_{found.state}", lang) if found.state else ""
    if not found.total:
        key = ("when_none" if found.period else "state_none") + ("_type" if found.type else "")
        words = type_word(found.type, lang) if found.type else ""
        body = text(key, lang, type_word=words, when=when, state=state)
        return finish(turn, " ".join(body.split()), kind="deterministic")
    if found.count_only:
        key = "when_counted" if found.period else "state_counted"
        body = text(key, lang, what=what + _breakdown(found, lang), when=when, state=state)
        return finish(turn, " ".join(body.split()), kind="deterministic")
    head = text(
        "when_found" if found.period else "state_found",
        lang,
        what=what + _breakdown(found, lang),
        when=when,
        state=state,
    )
    entries = [
        shelves.Entry(n, item_id, label, item_type)
        for n, (item_id, label, item_type) in enumerate(found.entries, start=1)
    ]
    shelves.show(turn, entries)
    lines = [" ".join(head.split()), *(f"{e.number}. {e.label}" for e in entries)]
    if found.total > len(entries):
        lines.append(text("saved_in_more", lang, count=found.total - len(entries)))
    return finish(turn, "\n".join(lines), kind="deterministic")


def _count(turn: Turn, found: Listed, only: tuple[ItemType, ...] = ()) -> Reply:
    lang = turn.language
    body = text("count_have", lang, what=kind_words(found.type, found.total, lang))
    counts = {t: found.by_type.get(t, 0) for t in only} if only else found.by_type
    breakdown = ", ".join(kind_words(t, n, lang) for t, n in counts.items())
    if found.type is None and len(counts) > 1:
        body = body.rstrip(".") + f": {breakdown}."
    return finish(turn, body, kind="deterministic")


async def _one_type(ctx: ToolContext, found: Listed) -> Reply:
    turn, lang = ctx.turn, ctx.turn.language
    assert found.type is not None
    item_type: ItemType = found.type  # type: ignore[assignment]
    if found.total == 0:
        body = text("list_empty_type", lang, type=type_word(item_type, lang))
        return finish(turn, body, kind="deterministic")
    first = found.first - 1
    # the unseen first, then the seen (DESIGN 11.5), once any of the type is marked
    split = await watching.typed_page(
        ctx.deps, turn, item_type, found.total, first, first + len(found.entries)
    )
    if split is not None:
        shown, done, left = split
        lines, entries = watching.typed_lines(
            turn, item_type, shown, first, found.total, done, left
        )
    else:
        shown = []
        entries = [
            shelves.Entry(n, item_id, label, t)
            for n, (item_id, label, t) in enumerate(found.entries, start=found.first)
        ]
        shelves.show(turn, entries)
        lines = [f"{type_heading(item_type, lang)} ({found.total}):"]
        lines += [f"{e.number}. {e.label}" for e in entries]
    if found.page < found.pages:
        lines.append(
            text(
                "list_page",
                lang,
                page=found.page,
                pages=found.pages,
                type_word=type_word(item_type, lang),
                next=found.page + 1,
            )
        )
    reply = finish(turn, "\n".join(lines), kind="deterministic")
    if item_type != "note":  # a ✓ under each line still to see or read (issue 44)
        reply = watching.typed_buttons(turn, reply, entries, shown)
    return replace(reply, paging=list_paging(type_word(item_type, lang), found.page, found.pages))


def _heading(item_type: ItemType, count: int, found: Listed, lang: Language) -> str:
    """ "Filmes (3):", or "Filmes (3; vistos: 1):" once some are seen (DESIGN 11.5)."""
    done = found.done_counts.get(item_type, 0)
    if not done:
        return f"{type_heading(item_type, lang)} ({count}):"
    return watching.typed_heading(item_type, count, done, lang)


async def _everything(ctx: ToolContext, found: Listed, *, reminders: bool = True) -> Reply:
    turn, lang = ctx.turn, ctx.turn.language
    if found.total == 0:
        listed = await reminder_section(ctx.deps, turn) if reminders else []
        body = "\n".join([text("list_empty", lang), *listed])
        return finish(turn, body, kind="deterministic")
    lines = [text("list_header", lang, count=found.total)]
    numbered: list[shelves.Entry] = []
    item_type: ItemType
    for item_type in [t for t in ITEM_TYPES if found.by_type.get(t)]:
        of_type = [e for e in found.entries if e[2] == item_type]
        lines.append(f"\n{_heading(item_type, found.by_type[item_type], found, lang)}")
        for item_id, label, _ in of_type:  # numbered straight through the types
            numbered.append(shelves.Entry(len(numbered) + 1, item_id, label, item_type))
            mark = f" {DONE_MARK}" if item_id in found.done else ""
            lines.append(f"{len(numbered)}. {label}{mark}")
        if found.by_type[item_type] > len(of_type):
            lines.append(
                text(
                    "list_more_of_type",
                    lang,
                    more=found.by_type[item_type] - len(of_type),
                    type_word=type_word(item_type, lang),
                )
            )
    shelves.show(turn, numbered)
    if reminders:
        lines += await reminder_section(ctx.deps, turn)
    return finish(turn, "\n".join(lines), kind="deterministic")


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
