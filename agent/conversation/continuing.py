"""A message that continues the last action (issue 41), answered in code when its reading is sure.

"e a série Severance tb" after a save saves it; "e o outro também" after a delete
previews the other item of the list; "e a do leite tb" after a delete previews what
"leite" names; "and this week?" after a list or a count asks it again for that period;
"and the next" after showing one item shows the next. The continuation is read by
agent/understanding/continuations.py and the last action comes from the shelf
(agent/conversation/shelf.py). Whatever this cannot settle is planned with the last
action as the hint, so a model sees "e X também" after a save as a save.

Each path runs the tool a planner would (`save_items`' implementation, `delete_item`,
`list_items`), so nothing here is a second way of doing a job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from agent.conversation import (
    deleting,
    listing,
    outcomes,
    pointing,
    reminding,
    retyping,
    watching,
)
from agent.conversation import pending as pendings
from agent.conversation import shelf as shelves
from agent.conversation.batching import save_if_settled
from agent.conversation.replies import finish, item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.step import StepResult
from agent.texts import text
from agent.tools.base import Failed, Saved, Tool, ToolArgs, ToolContext
from agent.tools.listing import ListItemsArgs
from agent.tools.marking import MarkTo
from agent.tools.several import entry, save_entries
from agent.types import Reply
from agent.understanding import watchlist
from agent.understanding.batches import is_known_title, read_batch
from agent.understanding.continuations import (
    Continuation,
    continued_clause,
    read_continuation,
    title_and_year,
)
from agent.understanding.kinds import carries_clause, guessed_title, names_person
from agent.understanding.references import read_reference
from agent.understanding.reminders.asks import ListAsk, read_ask
from agent.understanding.textnorm import fold
from agent.understanding.urls import extract_urls, is_video_url
from storage.documents import ITEM_TYPES, ItemDoc, ItemType

# the planner's hint for a continuation code leaves to it (DESIGN 3.3 llm intents)
HINTS = {"save": "save", "delete": "delete", "list": "search", "count": "search", "find": "search"}
_NAME_LEAD = re.compile(
    r"^(?:(?:o|a|os|as|the|um|uma|that)\s+)?(?:(?:nota|note|filme|movie|serie|show|link|video|"
    r"item|one)\s+)?(?:(?:de|do|da|dos|das|about|on|of|sobre|with|com)\s+)?"
)
MAX_TITLE_WORDS = 6
_TITLED: dict[str, ItemType] = {"movie": "movie", "tv_show": "tv_show", "note": "note"}


@dataclass(frozen=True, slots=True)
class Continued:
    reply: Reply | None = None  # answered in code
    hint: str | None = None  # else: plan it as this (save, delete, search)


async def act(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], message: str
) -> Continued | None:
    """What `message` continuing the last action means, or None when it continues nothing."""
    last = shelves.last_action(turn)
    if last is not None and last.action in ("remind", "rechange", "unremind"):
        # "e sexta às 19h de X": another one (never one the change or cancel pointed on to)
        again = await reminding.continued(deps, turn, message, after=last.action)
        if again is not None:
            return Continued(again, None)
    if last is not None and last.action == "save" and (link := _one_link(message)) is not None:
        made = entry("video" if is_video_url(link) else "link", link)  # "e esse vídeo tb <url>"
        if not isinstance(made, Failed):
            many = await save_entries(ToolContext(deps, turn, wants_save=True), [made])
            outcome = many.results[0][1]
            if isinstance(outcome, Saved | Failed):
                turn.facts.apply_rule("continued:save")
                return Continued(outcomes.saved_reply(turn, outcome), None)
    cont = read_continuation(message)
    rating: int | None = None
    if last is not None and last.action == "mark_seen":
        # "and the next one too, that one was a 7": the continuation, then its rating
        head, _, said = message.rpartition(",")
        rating = watchlist.said_rating(said) if head.strip() else None
        rated = read_continuation(head) if rating is not None else None
        cont, rating = (rated, rating) if rated is not None else (cont, None)
    read = watchlist.read(message)
    if isinstance(read, watchlist.MarkRequest) and read.carried and last is not None:
        # "e o corra tb, mas esse só nota 6" carries a mark, and only a mark (watching.py)
        read = read if last.action in ("mark_seen", "mark_unseen") else None
    if cont is None or last is None or read is not None:
        return None  # "maratonei dark tb" marks, "ok what's left now" lists (issue 44)
    if last.action == "reminders":  # "e amanhã?" after "o que tenho hoje?": that day's
        asked = read_ask(f"tenho lembretes {cont.rest.strip(' ?')}?")
        if not isinstance(asked, ListAsk) or asked.period is None:
            return None
        turn.facts.apply_rule("continued:reminders")
        return Continued(await reminding.list_reminders(deps, turn, asked.period), None)
    if last.action == "edit" and cont.title and cont.type is not None:
        # "e a série X tb" after fixing the year of what was just saved: the save goes on
        last = replace(last, action="save")
    hint = HINTS.get(last.action)
    if hint == "save" and (cont.period or "?" in message):
        hint = "search"  # "and this week?" after a save asks, it saves nothing
    # "the second one too", "e o outro também" after a save name nothing code can save: the
    # planner resolves which, still a save the user asked for (issue 41: the 1.5B model
    # saved the right film and the save, read as unasked, became a question)
    if hint == "save" and cont.type is None and _not_a_title(cont.title):
        # "e a Ana também", "e o Pedro tb adorou": a person, or words with a verb of their
        # own, is no title to save: the planner reads it with no save asked (issue 41)
        return Continued(None, None) if last.action == "save" else None
    reply: Reply | None = None
    match last.action:
        case "save" if last.named and "?" in message:
            # "and what about the show X?" after saving the title a where-to-watch answer
            # named: the question asked before the save, of X
            reply = await _where(deps, turn, cont)
        case "save":
            reply = await _save(deps, turn, cont, last.type)
        case "delete":
            reply = await _delete(deps, turn, tools, cont)
        case "list" | "count":
            reply = await _list(deps, turn, cont, last)
        case "show":
            reply = await _show(deps, turn, cont)
        case "mark_seen" | "mark_unseen":  # "e o próximo tb" (a title or a line: watching.py)
            reply = await _mark_line(
                deps, turn, cont, "seen" if last.action == "mark_seen" else "unseen", rating
            )
        case "retype":  # "e o outro tb" after "o Dark é uma série"
            reply = await _retype_line(deps, turn, cont, last.type)
        case "where":  # "and The Office?" after where-to-watch (issue 44)
            reply = await _where(deps, turn, cont)
        case "said":  # "e pra Ruptura?" after "quanto eu dei pra Succession?"
            reply = await _said(deps, turn, cont)
        case "state_left" | "state_done":  # "e as séries?" after "o que falta ver?"
            reply = await watching.carried_list(deps, turn, message)
    if reply is not None:
        turn.facts.apply_rule(f"continued:{last.action}")
    return Continued(reply, hint)


def _not_a_title(title: str) -> bool:
    """Whether a continuation's rest names a person ("a Ana") or says something of its own
    ("o Pedro tb adorou", "pra ver com a Ana"): no title a save could take."""
    return names_person(title) or carries_clause(title)


_LINK_WORDS = frozenset(
    """esse essa este esta isso this that these those o a the um uma an video videos vídeo
    vídeos link links site artigo article post page pagina página aqui here tb tbm tambem
    também too also mais more one""".split()
)


def _one_link(message: str) -> str | None:
    """The one address a continuation adds ("e esse vídeo tb <url>", "and this one too <url>"),
    when the words beside it only point at it; else None."""
    rest = continued_clause(message)
    urls = extract_urls(rest) if rest is not None else []
    if rest is None or len(urls) != 1:
        return None
    words = re.findall(r"[^\W\d_]+", re.sub(r"\S*://\S+|www\.\S+", " ", rest).lower())
    return urls[0] if set(words) <= _LINK_WORDS else None


_PLURAL_TYPE = re.compile(
    r"^(?:(?:os|as|the|these|esses|essas)\s+)?(?:filmes|series|seriados|movies|films|shows|"
    r"tv\s+shows)\b"
)


# one title of the type named ("o filme X", "the show X"); a second type word after it
# ("o filme X e a série Y") names a second item
_ONE_TYPED = re.compile(r"^(?:(?:o|a|the|um|uma|an?)\s+)?(?:filme|serie|seriado|movie|film|show)\s")
_TYPE_AGAIN = re.compile(
    r"(?:,|\s(?:e|and|&))\s+(?:(?:o|a|os|as|the|um|uma|an?)\s+)?(?:filmes?|series?|seriados?|"
    r"movies?|films?|shows?|notas?|notes?|links?|videos?)\b"
)


async def _save(deps: Deps, turn: Turn, cont: Continuation, last_type: str) -> Reply | None:
    """ "e a série X tb": the title saved as the type it names, or the type saved last."""
    title, year = title_and_year(cont.title)  # "e o filme X, o de 2024"
    if "?" in (turn.incoming.text or ""):
        return None
    if cont.other and _OTHER_ONE.match(cont.folded):
        return await pointing.save_other_named(deps, turn)  # the other title named
    if cont.other or cont.next or cont.period:
        return None
    if (ref := read_reference(cont.rest)) is not None:
        # "e o segundo também" after "salva o primeiro": what was named, else no title
        return await pointing.save_named(deps, turn, ref.target)
    words = fold(title).split()
    several = re.search(r",|\s(?:e|and|&)\s", title) and not is_known_title(title)
    if several and _ONE_TYPED.match(fold(cont.rest)) and not _TYPE_AGAIN.search(fold(title)):
        several = None  # "e o filme Minha Mãe é uma Peça": one film, its title holds "e"
    if several and _PLURAL_TYPE.match(fold(cont.rest)):
        # "e as séries Dark e The Office tb": several titles of the type named, saved as
        # "salva as séries Dark e The Office" would be
        batch = read_batch(f"salva {cont.rest}", split_and=not deps.tmdb.configured)
        settled = await save_if_settled(deps, turn, batch) if batch is not None else None
        if settled is not None:
            return settled
    if not words or len(words) > MAX_TITLE_WORDS or several:
        return None  # several things, or a sentence: the planner, told it is a save
    item_type: ItemType = cont.type or _TITLED.get(last_type, "movie")
    if cont.type is None and item_type != "note" and guessed_title("salva " + title, title) is None:
        return None  # "e comprar pão também" is no title
    made = entry(item_type, title, year=year if item_type in ("movie", "tv_show") else None)
    if isinstance(made, Failed):
        return None
    ctx = ToolContext(deps, turn, wants_save=True)
    many = await save_entries(ctx, [made])
    outcome = many.results[0][1]
    if isinstance(outcome, Saved) or isinstance(outcome, Failed):
        return outcomes.saved_reply(turn, outcome)
    return None  # several TMDB candidates: the planner's enrichment offers them


async def _delete(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], cont: Continuation
) -> Reply | None:
    """ "e o outro também", "e o 2 tb", "e a do leite tb" after a delete: the next preview."""
    if "?" in (turn.incoming.text or ""):
        return None  # a question is no request to delete
    current = shelves.shown(turn)
    if (several := await _lines(deps, turn, cont.rest)) is not None:
        # "o segundo e o outro tb", "the first and the third too": one question for them all
        *also, last = several
        options = [pendings.ItemOption(item_id=e.item_id, label=e.label) for e in also]
        return await deleting.delete_preview(
            deps, turn, last.item_id, last.label, item_type=last.type, also=options
        )
    if cont.other:
        if current is None:
            return None
        gone = current.focus.item_id if current.focus is not None else ""
        others = [e for e in current.entries if e.item_id != gone]
        alive = [e for e in others if await deps.db.items.get(turn.user_id, e.item_id)]
        if len(alive) == 1:
            one = alive[0]
            return await deleting.delete_preview(
                deps, turn, one.item_id, one.label, item_type=one.type
            )
        if len(alive) > 1 and _OTHER_ONE.match(cont.folded):
            return _which(turn, alive)  # "e o outro tb" among several: asked, never guessed
        if others or current.focus is None:
            return None
        similar = await _similar(deps, turn, current.focus, cont.folded)
        if similar is None:
            return None
        return await deleting.delete_preview(
            deps, turn, similar.id, item_label(similar), item_type=similar.type
        )
    ref = read_reference(cont.rest)
    if ref is not None:
        found = pointing.locate(current, ref.target)
        if isinstance(found, pointing.Miss):
            return None
        return await deleting.delete_preview(
            deps, turn, found.item_id, found.label, item_type=found.type
        )
    name = _NAME_LEAD.sub("", cont.folded).strip()
    if not name or len(name.split()) > MAX_TITLE_WORDS or cont.period or cont.next:
        return None
    tool = tools["delete_item"]
    args = tool.args_model.model_validate({"query": name})
    outcome = await tool.run(ToolContext(deps, turn, wants_save=False), args)
    result = StepResult("tool", outcome=outcome, tool="delete_item")
    return await outcomes.after_tool(deps, turn, result, wants_save=False)


def _which(turn: Turn, entries: list[shelves.Entry]) -> Reply:
    """Which of `entries` a continuation means, asked with their numbers."""
    turn.facts.apply_rule("shelf_reference_unresolved")
    lines = [f"{e.number}. {e.label}" for e in sorted(entries, key=lambda e: e.number)]
    return finish(
        turn, "\n".join([text("shelf_which", turn.language), *lines]), kind="deterministic"
    )


_JOINED: Final = re.compile(r"\s*,\s*|\s+(?:e|and|&)\s+")


async def _lines(deps: Deps, turn: Turn, rest: str) -> list[shelves.Entry] | None:
    """The lines of the list just shown that a rest of several references names ("o segundo
    e o outro", "the first and the third"), each still saved; None unless every part names
    one line for sure ("o outro": the one line left besides the others named and the one
    talked about)."""
    parts = [p for p in _JOINED.split(rest.strip()) if p.strip()]
    current = shelves.shown(turn)
    if len(parts) < 2 or current is None:
        return None
    named: list[shelves.Entry] = []
    others = 0
    for part in parts:
        if _OTHER_ONE.match(fold(part)):
            others += 1
            continue
        ref = read_reference(part)
        if ref is None or ref.target.kind not in ("ordinal", "number"):
            return None
        found = pointing.locate(current, ref.target)
        if isinstance(found, pointing.Miss):
            return None
        named.append(found)
    if others:
        gone = {e.item_id for e in named} | (
            {current.focus.item_id} if current.focus is not None else set()
        )
        left = [e for e in current.entries if e.item_id not in gone]
        left = [e for e in left if await deps.db.items.get(turn.user_id, e.item_id)]
        if others != 1 or len(left) != 1:
            return None
        named += left
    ids = [e.item_id for e in named]
    if len(set(ids)) != len(ids):
        return None
    for e in named:
        if await deps.db.items.get(turn.user_id, e.item_id) is None:
            return None
    return named


_OTHER_ONE: Final = re.compile(r"^(?:(?:o|a|the)\s+)?(?:outro|outra|other)(?:\s+one)?$")


_PLAIN = frozenset(
    """o a os as e de do da dos das the an and of on for to my meu minha outro outra other
    one item nota note tb too""".split()
)


async def _similar(deps: Deps, turn: Turn, gone: shelves.Entry, said: str) -> ItemDoc | None:
    """ "e o outro tb" after deleting one of two alike items ("boleto da luz", "boleto da
    água"): the one item of the same type that shares the most words with the deleted one
    and holds every word said after "outro"; None when none or several do."""

    def words(text: str) -> set[str]:
        return {w for w in fold(text).split() if w not in _PLAIN and len(w) > 2}

    named = words(gone.label)
    wanted = words(said)
    kind = gone.type if gone.type in ITEM_TYPES else None
    scored: list[tuple[int, ItemDoc]] = []
    for item in await deps.db.items.list_for(turn.user_id, item_type=kind):
        if item.id == gone.item_id:
            continue
        have = words(item_label(item))
        if wanted <= have and (shared := len(named & have)) > 0:
            scored.append((shared, item))
    scored.sort(key=lambda pair: -pair[0])
    if not scored or (len(scored) > 1 and scored[0][0] == scored[1][0]):
        return None
    return scored[0][1]


async def _list(deps: Deps, turn: Turn, cont: Continuation, last: shelves.Last) -> Reply | None:
    """ "and this week?", "e os filmes?" after a list or a count: asked again, changed."""
    if cont.title and cont.period is None:
        return None  # "e quantas notas?" is a question of its own (read as one)
    period = cont.period or last.period or None
    item_type = cont.type or (last.type if last.type in ITEM_TYPES else None)
    args = ListItemsArgs.model_validate(
        {
            "type": item_type,
            "period": period,
            "count_only": last.action == "count",
        }
    )
    return await listing.list_reply(deps, turn, args)


async def _where(deps: Deps, turn: Turn, cont: Continuation) -> Reply | None:
    """ "and The Office?", "e a série Dark?" after where-to-watch: where that title streams;
    "and where's X?" asks it of X (the question's own words are no part of the title)."""
    asked = watchlist.read_where_after(cont.rest)
    if asked is not None and (asked.title or asked.target is not None):
        return await watching.where_asked(deps, turn, asked)
    title = cont.title
    words = fold(title).split()
    if cont.other or cont.next or cont.period or not words or len(words) > MAX_TITLE_WORDS:
        return None
    if read_reference(cont.rest) is not None or re.search(r",|\s(?:e|and|&)\s", title):
        return None  # "e o 2?" points at a line; "e X e Y?" is two questions: the planner's
    return await watching.where_named(deps, turn, title, cont.type)


_SAID_OF = re.compile(r"^(?:(?:pr[oa]s?|para|de|d[oa]s?|for|to|about|of|on)\s+)?")


async def _said(deps: Deps, turn: Turn, cont: Continuation) -> Reply | None:
    """ "e pra Ruptura?", "and for Heat?" after what the user said of one item: the same
    question of the title named, when it is one item of the list."""
    title = _SAID_OF.sub("", fold(cont.title).strip(), count=1)
    words = title.split()
    if cont.other or cont.next or cont.period or not words or len(words) > MAX_TITLE_WORDS:
        return None
    if read_reference(cont.rest) is not None or re.search(r",|\s(?:e|and|&)\s", title):
        return None  # "e o 2?" points at a line; "e X e Y?" is two questions: the planner's
    asked = watchlist.StateQuestion(title, cont.type, opinion=True, anchored=True)
    return await watching.state_asked(deps, turn, asked)


async def _mark_line(
    deps: Deps, turn: Turn, cont: Continuation, to: MarkTo, rating: int | None
) -> Reply | None:
    """ "e o próximo tb", "e o outro também" after a mark: that line marked too."""
    found = _line(turn, cont)
    if found is None:
        return None
    return await watching.mark_entry(deps, turn, found, to, rating=rating)


async def _retype_line(deps: Deps, turn: Turn, cont: Continuation, kind: str) -> Reply | None:
    """ "e o outro tb", "the last one too" after a type correction: that line retyped too."""
    found = _line(turn, cont)
    item = await deps.db.items.get(turn.user_id, found.item_id) if found is not None else None
    retype = retyping.kind_of(kind)
    if item is None or retype is None:
        return None
    return await retyping.retype_item(deps, turn, item, retype)


def _line(turn: Turn, cont: Continuation) -> shelves.Entry | None:
    """The line of the list just shown a continuation points at: the next after the one
    talked about, the one other line, or a line it numbers ("o 2", "the last one"); None
    when it points at none for sure."""
    current = shelves.shown(turn)
    if current is None or cont.period or "?" in (turn.incoming.text or ""):
        return None
    focus = current.focus
    if cont.next and focus is not None and focus.number:
        return current.at(focus.number + 1)
    if cont.other:
        others = [e for e in current.entries if focus is None or e.item_id != focus.item_id]
        return others[0] if len(others) == 1 else None
    if (ref := read_reference(cont.rest)) is not None:
        located = pointing.locate(current, ref.target)
        return None if isinstance(located, pointing.Miss) else located
    return None


async def _show(deps: Deps, turn: Turn, cont: Continuation) -> Reply | None:
    """ "and the next" after one item was shown: the line after it."""
    current = shelves.shown(turn)
    if not cont.next or current is None or current.focus is None or not current.focus.number:
        return None
    following = current.at(current.focus.number + 1)
    return await pointing.show(deps, turn, following) if following is not None else None
