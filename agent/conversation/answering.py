"""Questions about saved things answered from storage, in code (issue 26).

"qual era aquele link da bbc?", "which link did I save about X?", "eu salvei inception?",
"quantos vídeos eu tenho?", "o que eu salvei ontem?", "what was it?": read by
agent/understanding/questions.py and answered here with no model call, in the language
of the message. A lookup (TMDB, a page fetch) is never the answer: what the user saved
is. What is listed is numbered and becomes the shelf, like every list.
"""

from __future__ import annotations

from agent.conversation import incode, listing, pointing
from agent.conversation import shelf as shelves
from agent.conversation.listing import kind_words
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import text
from agent.tools.base import Found, Tool, ToolArgs, ToolContext
from agent.tools.candidates import naming_any
from agent.tools.finding import SEARCH_CUTOFF
from agent.tools.listing import ListItemsArgs, window_bounds, zone_of
from agent.tools.matching import item_words, search_score, word_score
from agent.types import Reply
from agent.understanding.questions import (
    AskedWords,
    OverShown,
    SavedQuestion,
    asked_words,
    read_over_shown,
    read_question,
)
from agent.understanding.smalltalk import last_saved_question
from agent.understanding.textnorm import one_line
from storage.documents import ItemDoc, ItemType

WINDOW_READ = 200  # the newest items a "what did I save today?" looks through
COUNT_READ = 50  # results a count with a subject counts (more is "50+")


async def answer(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], message: str
) -> Reply | None:
    """The answer to a question about saved things, or None when `message` is not one."""
    over = read_over_shown(message)
    if over is not None:  # "desses, qual é série?", "how many videos is that?"
        reply = await _over_shown(deps, turn, over)
        if reply is not None:
            return reply
    last = last_saved_question(message)
    if last is not None:  # "qual foi o último filme que eu salvei?": that one
        return await _last_saved(deps, turn, None if last == "all" else last)
    question = read_question(message)
    if question is None:
        asked = asked_words(message)
        return await _named_by_words(deps, turn, tools, asked) if asked is not None else None
    match question.kind:
        case "recall":
            return await _recall(deps, turn)
        case "count" | "when" if not question.subject:
            turn.facts.apply_rule("question_in_code")
            return await listing.list_reply(deps, turn, list_request(question), only=question.types)
        case "count":
            turn.facts.apply_rule("question_in_code")
            return await _count_about(deps, turn, tools, question)
        case "when":
            turn.facts.apply_rule("question_in_code")
            return await _when_about(deps, turn, question)
        case "find" | "exists":
            asked = asked_words(message) if question.kind == "find" else None
            reply = await _find(deps, turn, tools, question, asked)
            if reply is not None:
                turn.facts.apply_rule("question_in_code")
            return reply


async def _over_shown(deps: Deps, turn: Turn, over: OverShown) -> Reply | None:
    """The items of one type in the list just shown, or how many there are; None when no
    list of two or more was shown (the question is then about the whole list, elsewhere)."""
    current = shelves.shown(turn)
    if current is None or len(current.entries) < 2:
        return None
    kept = sorted(current.of_type(over.type), key=lambda e: e.number)
    items = {i.id: i for i in await deps.db.items.get_many(turn.user_id, [e.item_id for e in kept])}
    still = [items[e.item_id] for e in kept if e.item_id in items]
    turn.facts.apply_rule("question_in_code")
    lang = turn.language
    what = kind_words(over.type, len(still), lang)
    if over.count or not still:
        return finish(turn, text("shown_count", lang, what=what), kind="deterministic")
    shelves.did(turn, "find", over.type)
    return _listed(turn, text("shown_of_type", lang, what=what), still)


async def _named_by_words(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], asked: AskedWords
) -> Reply | None:
    """The saved thing a question names by its words ("me passa o numero do encanador"), in
    full, so its value shows; None (the planner's, or the offer) when the words do not name one.

    After an opening that asks for something had ("me passa", "whats"), a word no item holds
    ("numero", "again") says what is wanted, not which item: it is left out, as long as the
    words some item holds are at least half of them. After a bare "?" every word must be
    held ("inception é bom?" asks an opinion; "leite?" names the note). The items found are
    those holding every such word, through the search tool (one implementation).
    """
    items = await naming_any(deps.db, turn.user_id, asked.words)
    known = [w for w in asked.words if any(word_score(w, item_words(i)) for i in items)]
    wanted = len(asked.words) if not asked.opened else (len(asked.words) + 1) // 2
    if not known or len(known) < wanted:
        return None
    # a word left out asks for a value a note keeps ("o numero do encanador"); of a film or a
    # show it asks what was never saved ("os streamings de duna", "quem dirigiu X")
    kind = asked.type if len(known) == len(asked.words) else "note"
    if asked.type not in (None, kind):
        return None
    question = SavedQuestion("find", " ".join(known), kind, if_found=True)
    found = await _search(deps, turn, tools, question, limit=10)
    # (a search by type finds any type when that one has nothing: only the type asked counts)
    held = [i for i in found.items if kind is None or i.type == kind]
    if not held:
        return None
    turn.facts.apply_rule("question_in_code")
    if len(held) == 1:
        return await pointing.show(deps, turn, shelves.entry_of(held[0], 0))
    shelves.did(turn, "find", kind or "")
    return _listed(turn, text("search_found", turn.language, count=len(held)), held)


def list_request(question: SavedQuestion) -> ListItemsArgs:
    """The `list_items` a count or a period question asks for."""
    return ListItemsArgs(
        type=question.type, period=question.window, count_only=question.kind == "count"
    )


async def _search(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], question: SavedQuestion, limit: int
) -> Found:
    tool = tools["search_items"]
    args = tool.args_model.model_validate(
        {"query": question.subject[:200], "type": question.type, "limit": limit}
    )
    found = await tool.run(ToolContext(deps, turn, wants_save=False), args)
    assert isinstance(found, Found)
    if found.items or not question.if_found:  # else the planner takes the question, unrecorded
        turn.tools_executed.append("search_items")
        incode.record(turn, "search_items", args.model_dump(), found)
    return found


def _listed(turn: Turn, head: str, items: list[ItemDoc] | tuple[ItemDoc, ...]) -> Reply:
    entries = shelves.show_items(turn, items)
    lines = [head, *(f"{e.number}. {e.label}" for e in entries)]
    return finish(turn, "\n".join(lines), kind="effect")


async def _find(
    deps: Deps,
    turn: Turn,
    tools: dict[str, Tool[ToolArgs]],
    question: SavedQuestion,
    asked: AskedWords | None,
) -> Reply | None:
    """What a search for the question's subject finds; when it finds nothing, what the
    question's words name (`asked`: "cadê o telefone do Dave?" finds Dave's note)."""
    lang = turn.language
    found = await _search(deps, turn, tools, question, limit=10)
    if not found.items and asked is not None:
        named = await _named_by_words(deps, turn, tools, asked)
        if named is not None:
            return named
    if not found.items and question.if_found:
        return None  # "qual a capital da França?": nothing saved answers it, the planner may
    subject = one_line(question.subject, 60)
    if found.items:
        shelves.did(turn, "find", question.type or "")
    else:
        shelves.found_nothing(turn, subject, question.type or "")
        key = "exists_no" if question.kind == "exists" else "find_none"
        return finish(turn, text(key, lang, query=subject), kind="effect")
    if question.kind == "exists":
        return _listed(turn, text("exists_yes", lang), found.items)
    return _listed(turn, text("search_found", lang, count=len(found.items)), found.items)


async def _count_about(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], question: SavedQuestion
) -> Reply:
    """ "quantas notas sobre trabalho eu tenho?": the search's results, counted."""
    lang = turn.language
    if question.window is not None:
        return await _when_about(deps, turn, question, counting=True)
    found = await _search(deps, turn, tools, question, limit=COUNT_READ)
    n = len(found.items)
    head = text(
        "count_about", lang, what=kind_words(question.type, n, lang), query=question.subject
    )
    return _listed(turn, head, found.items[:10]) if n else finish(turn, head, kind="effect")


async def _when_about(
    deps: Deps, turn: Turn, question: SavedQuestion, *, counting: bool = False
) -> Reply:
    """ "o que eu salvei hoje sobre viagem?": a period's items that match a subject."""
    lang = turn.language
    assert question.window is not None
    start, end = window_bounds(turn.now_ms, zone_of(deps, turn), question.window)
    newest = await deps.db.items.newest(turn.user_id, WINDOW_READ)
    items = [
        i
        for i in newest
        if start <= i.created_at_ms < end
        and (question.type is None or i.type == question.type)
        and search_score(i, question.subject) >= SEARCH_CUTOFF
    ]
    when = text(f"window_{question.window}", lang)
    what = kind_words(question.type, len(items), lang)
    if not items:
        return finish(turn, text("when_none", lang, when=when), kind="effect")
    head = text("when_found", lang, when=when, what=what)
    if counting:
        return finish(turn, head.rstrip(":") + ".", kind="effect")
    return _listed(turn, head, items[:30])


async def _last_saved(deps: Deps, turn: Turn, item_type: ItemType | None) -> Reply:
    """The newest item (of `item_type`), in full; none saved says so as the list would."""
    turn.facts.apply_rule("question_in_code")
    if item_type is None:
        found = await deps.db.items.newest(turn.user_id, 1)
    else:
        found = await deps.db.items.newest_of_type(turn.user_id, item_type, 1)
    if not found:
        return await listing.list_reply(deps, turn, ListItemsArgs(type=item_type))
    return await pointing.show(deps, turn, shelves.entry_of(found[0], 0))


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
