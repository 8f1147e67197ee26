"""Questions about saved things answered from storage, in code (issue 26).

"qual era aquele link da bbc?", "which link did I save about X?", "eu salvei inception?",
"quantos vídeos eu tenho?", "o que eu salvei ontem?", "what was it?": read by
agent/understanding/questions.py and answered here with no model call, in the language
of the message. A lookup (TMDB, a page fetch) is never the answer: what the user saved
is. What is listed is numbered and becomes the shelf, like every list.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from agent.conversation import incode, pointing
from agent.conversation import shelf as shelves
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import plural, text
from agent.tools.base import Found, Tool, ToolArgs, ToolContext
from agent.tools.finding import SEARCH_CUTOFF
from agent.tools.matching import search_score
from agent.types import Language, Reply
from agent.understanding.questions import SavedQuestion, Window, read_question
from agent.understanding.textnorm import one_line
from storage.documents import ITEM_TYPES, ItemDoc

WINDOW_READ = 200  # the newest items a "what did I save today?" looks through
COUNT_READ = 50  # results a count with a subject counts (more is "50+")


def kind_words(item_type: str | None, count: int, lang: Language) -> str:
    """ "3 filmes", "1 nota", "2 items": a count with the word for its kind."""
    return plural(count, item_type or "item", lang)


async def answer(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], message: str
) -> Reply | None:
    """The answer to a question about saved things, or None when `message` is not one."""
    question = read_question(message)
    if question is None:
        return None
    match question.kind:
        case "recall":
            return await _recall(deps, turn)
        case "count":
            turn.facts.apply_rule("question_in_code")
            return await _count(deps, turn, tools, question)
        case "when":
            turn.facts.apply_rule("question_in_code")
            return await _when(deps, turn, question)
        case "find" | "exists":
            turn.facts.apply_rule("question_in_code")
            return await _find(deps, turn, tools, question)


def count(turn: Turn, message: str) -> Reply | None:
    """ "quantos vídeos eu tenho?": the count from the user's counters (no read), else None."""
    question = read_question(message)
    if question is None or question.kind != "count" or question.subject or question.window:
        return None
    turn.facts.apply_rule("question_in_code")
    return _counted(turn, question)


async def _search(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], question: SavedQuestion, limit: int
) -> Found:
    tool = tools["search_items"]
    args = tool.args_model.model_validate(
        {"query": question.subject[:200], "type": question.type, "limit": limit}
    )
    found = await tool.run(ToolContext(deps, turn, wants_save=False), args)
    assert isinstance(found, Found)
    turn.tools_executed.append("search_items")
    incode.record(turn, "search_items", args.model_dump(), found)
    return found


def _listed(turn: Turn, head: str, items: list[ItemDoc] | tuple[ItemDoc, ...]) -> Reply:
    entries = shelves.show_items(turn, items)
    lines = [head, *(f"{e.number}. {e.label}" for e in entries)]
    return finish(turn, "\n".join(lines), kind="effect")


async def _find(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], question: SavedQuestion
) -> Reply:
    lang = turn.language
    found = await _search(deps, turn, tools, question, limit=10)
    subject = one_line(question.subject, 60)
    if not found.items:
        key = "exists_no" if question.kind == "exists" else "find_none"
        return finish(turn, text(key, lang, query=subject), kind="effect")
    if question.kind == "exists":
        return _listed(turn, text("exists_yes", lang), found.items)
    return _listed(turn, text("search_found", lang, count=len(found.items)), found.items)


async def _count(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], question: SavedQuestion
) -> Reply:
    lang = turn.language
    if question.window is not None:
        return await _when(deps, turn, question, counting=True)
    if question.subject:
        found = await _search(deps, turn, tools, question, limit=COUNT_READ)
        n = len(found.items)
        head = text(
            "count_about", lang, what=kind_words(question.type, n, lang), query=question.subject
        )
        return _listed(turn, head, found.items[:10]) if n else finish(turn, head, kind="effect")
    return _counted(turn, question)


def _counted(turn: Turn, question: SavedQuestion) -> Reply:
    lang = turn.language
    counts = {t: int(turn.user.counts.get(t, 0)) for t in ITEM_TYPES}
    if question.type is not None:
        body = text("count_have", lang, what=kind_words(question.type, counts[question.type], lang))
        return finish(turn, body, kind="deterministic")
    total = sum(counts.values())
    breakdown = ", ".join(kind_words(t, n, lang) for t, n in counts.items() if n)
    body = text("count_have", lang, what=kind_words(None, total, lang))
    if breakdown and len([n for n in counts.values() if n]) > 1:
        body = body.rstrip(".") + f": {breakdown}."
    return finish(turn, body, kind="deterministic")


def _bounds(turn: Turn, deps: Deps, window: Window) -> tuple[int, int]:
    """The window as epoch ms [start, end) in the user's time zone."""
    try:
        zone = ZoneInfo(turn.user.timezone)
    except (ValueError, KeyError):
        zone = ZoneInfo(deps.settings.default_timezone)
    now = datetime.fromtimestamp(turn.now_ms / 1000, zone)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    monday = midnight - timedelta(days=now.weekday())
    later = now + timedelta(seconds=1)
    if window == "today":
        start, end = midnight, later
    elif window == "yesterday":
        start, end = midnight - timedelta(days=1), midnight
    elif window == "week":
        start, end = monday, later
    elif window == "last_week":
        start, end = monday - timedelta(days=7), monday
    else:
        start, end = midnight.replace(day=1), later
    return int(start.timestamp() * 1000), int(end.timestamp() * 1000)


async def _when(
    deps: Deps, turn: Turn, question: SavedQuestion, *, counting: bool = False
) -> Reply:
    lang = turn.language
    assert question.window is not None
    start, end = _bounds(turn, deps, question.window)
    newest = await deps.db.items.newest(turn.user_id, WINDOW_READ)
    items = [
        i
        for i in newest
        if start <= i.created_at_ms < end
        and (question.type is None or i.type == question.type)
        and (not question.subject or search_score(i, question.subject) >= SEARCH_CUTOFF)
    ]
    when = text(f"window_{question.window}", lang)
    what = kind_words(question.type, len(items), lang)
    if not items:
        return finish(turn, text("when_none", lang, when=when, what=what), kind="effect")
    head = text("when_found", lang, when=when, what=what)
    if counting:
        return finish(turn, head.rstrip(":") + ".", kind="effect")
    return _listed(turn, head, items[:30])


async def _recall(deps: Deps, turn: Turn) -> Reply | None:
    """ "what was it?": the one item just named, or the list just shown again."""
    current = shelves.shown(turn)
    if current is None:
        return None  # nothing was shown: the planner has the conversation
    turn.facts.apply_rule("question_in_code")
    one = current.single
    if one is not None:
        return await pointing.show(deps, turn, one)
    lines = [f"{e.number}. {e.label}" for e in sorted(current.entries, key=lambda e: e.number)]
    return finish(
        turn, "\n".join([text("recall_list", turn.language), *lines]), kind="deterministic"
    )
