"""`/memory` (issue 12): list the assistant's notes and bookmarks, delete one by number, or all after a "sim".

Also the replies to the `remember` and `bookmark` tools. All in code, 0 model calls.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from agent.conversation import pending as pendings
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.memory.modelmemory import Entry, entries
from agent.texts import OK_MARK, text
from agent.tools.base import Failed, Remembered
from agent.types import Language, Reply
from agent.understanding.textnorm import fold, one_line

_DELETE_ONE = re.compile(
    r"^(?:apaga|apagar|apague|remove|remover|delete|del|esquece|forget)\s+#?(\d{1,3})$"
)
_DELETE_ALL = frozenset(
    {
        "apaga tudo",
        "apagar tudo",
        "limpa",
        "limpar",
        "delete all",
        "clear",
        "forget all",
        "esquece tudo",
    }
)
_LIST = frozenset({"", "lista", "listar", "list", "ver", "show"})


def _line(entry: Entry, language: Language) -> str:
    if entry.is_fact:
        return one_line(entry.target, 160)
    pinned = text("memory_pinned", language) if entry.memory.pinned else ""
    return text(
        "memory_bookmark_line",
        language,
        target=one_line(entry.target, 80),
        note=one_line(entry.memory.text, 120),
        pinned=pinned,
    )


def handlers(deps: Deps) -> dict[str, Callable[[Turn, str], Awaitable[Reply]]]:
    """`/memory` and `/memoria`, by the name the classifier routes them under."""

    async def memory(turn: Turn, args: str) -> Reply:
        return await command(deps, turn, args)

    return {"memory": memory, "memoria": memory}


async def command(deps: Deps, turn: Turn, args: str) -> Reply:
    """`/memory [apaga N | apaga tudo]`."""
    wanted = fold(args)
    if wanted in _LIST:
        return await _list(deps, turn)
    if wanted in _DELETE_ALL:
        return await _ask_clear(deps, turn)
    match = _DELETE_ONE.match(wanted)
    if match is not None:
        return await _delete_one(deps, turn, int(match.group(1)))
    return finish(turn, text("memory_usage", turn.language), kind="deterministic")


async def _list(deps: Deps, turn: Turn) -> Reply:
    lang = turn.language
    found = await entries(deps, turn.user_id)
    if not found:
        return finish(turn, text("memory_empty", lang), kind="deterministic")
    lines: list[str] = []
    heading = ""
    for number, entry in enumerate(found, start=1):
        wanted = text("memory_facts" if entry.is_fact else "memory_bookmarks", lang)
        if wanted != heading:
            heading = wanted
            lines.append(heading)
        lines.append(f"{number}. {_line(entry, lang)}")
    lines.append(text("memory_hint", lang))
    return finish(turn, "\n".join(lines), kind="deterministic")


async def _delete_one(deps: Deps, turn: Turn, number: int) -> Reply:
    lang = turn.language
    found = await entries(deps, turn.user_id)
    if not 1 <= number <= len(found):
        return finish(
            turn,
            text("memory_no_number", lang, number=number, count=len(found)),
            kind="deterministic",
        )
    entry = found[number - 1]
    if not await deps.db.memories.delete(turn.user_id, entry.memory.id):
        return finish(
            turn,
            text("memory_no_number", lang, number=number, count=len(found)),
            kind="deterministic",
        )
    body = text("memory_deleted", lang, line=_line(entry, lang))
    return finish(turn, f"{OK_MARK} {body}", kind="effect")


async def _ask_clear(deps: Deps, turn: Turn) -> Reply:
    lang = turn.language
    count = len(await deps.db.memories.list_for(turn.user_id))
    if count == 0:
        return finish(turn, text("memory_empty", lang), kind="deterministic")
    pending = pendings.ConfirmClearMemory(count=count)
    body = text("memory_clear_preview", lang, count=count)
    return await pendings.ask_to_confirm(deps, turn, pending, body)


async def clear_all(deps: Deps, turn: Turn) -> Reply:
    """The confirmed `/memory apaga tudo`: the user's items stay."""
    removed = await deps.db.memories.delete_for_user(turn.user_id)
    body = text("memory_cleared", turn.language, count=removed)
    return finish(turn, f"{OK_MARK} {body}", kind="effect")


def tool_reply(turn: Turn, outcome: Remembered | Failed) -> Reply:
    """What the user reads after `remember` or `bookmark`."""
    lang = turn.language
    if isinstance(outcome, Failed):  # every bookmark is pinned
        return finish(turn, text("memory_bookmarks_full", lang), kind="unavailable")
    fact = outcome.memory.kind == "fact"
    key = ("memory_noted" if fact else "memory_bookmarked") + ("" if outcome.created else "_again")
    body = text(key, lang, label=one_line(outcome.label, 120))
    if outcome.dropped is not None:
        body += " " + text("memory_dropped_oldest", lang, label=one_line(outcome.dropped.text, 80))
    return finish(turn, f"{OK_MARK} {body}", kind="effect")
