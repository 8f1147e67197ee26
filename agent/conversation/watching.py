"""The watchlist in a turn (DESIGN 11.5, issue 44): marks, lists by state, where to watch,
what to watch tonight, `/pais`, and the ✓ buttons on list lines.

A message agent/understanding/watchlist.py reads with certainty is answered here with the
same tool implementations the planner calls (`mark_item`, `where_to_watch`,
`suggest_from_list`), recorded as the planner's call would be; anything it declines goes
to the planner. This module also phrases those tools' outcomes when the planner ran them.
What is shown numbered becomes the shelf, so "vi o 2" and "onde assistir o 1" follow.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Final, Literal
from zoneinfo import ZoneInfo

from agent.conversation import deleting, incode, offers
from agent.conversation import pending as pendings
from agent.conversation import shelf as shelves
from agent.conversation.pointing import Miss, locate
from agent.conversation.replies import finish, item_label
from agent.conversation.said import said_reply
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.services.tmdb import OFFER_KINDS, WatchOptions
from agent.texts import DONE_MARK, OK_MARK, plural, text, type_heading
from agent.tools.base import (
    DeletePreview,
    Found,
    MarkChoice,
    Marked,
    MarkedMany,
    NotFound,
    Outcome,
    Suggested,
    UnknownItem,
    WatchFound,
)
from agent.tools.marking import MarkTo, mark, resolve, seen_at
from agent.tools.matching import STOPWORDS
from agent.tools.suggesting import suggest
from agent.tools.watching import country_of, own_title, where
from agent.types import Choice, Language, Reply
from agent.understanding.continuations import read_continuation
from agent.understanding.references import Target, shelf_target
from agent.understanding.textnorm import fold
from agent.understanding.watchlist import (
    WATCHABLE,
    ListRequest,
    MarkRequest,
    Period,
    RatingCompare,
    StateQuestion,
    SuggestRequest,
    WhereRequest,
    days_named,
    newest_saved,
    read,
)
from storage.documents import DONE_STATE, ITEM_TYPES, ItemDoc, ItemType
from storage.ledger import sha256_hex

TOOLS = frozenset({"mark_item", "where_to_watch", "suggest_from_list"})
BUTTON_PREFIX = "mk:"  # a ✓ button's choice token: `mk:<the shelf's time, base 36>`
MAX_BUTTONS = 10  # WhatsApp's list rows; Telegram takes them one a row
PER_TYPE = 10  # lines of each type a list by state shows
PERIOD_CAP = 1_000  # items marked in a period read at most
COMPARE_CAP = 50  # items one "qual ganhou nota maior?" compares at most
DROP_CAP = 20  # seen items one "tira os que eu já vi" previews for its "sim"
PERIODS = ("today", "yesterday", "this_week", "last_7_days", "this_month")
RECENT_SAVE_MS = 30 * 60 * 1000  # saves this close count as one conversation's
MAX_SEVERAL = 5
MIN_DESCRIBING = 5  # letters a word of a description needs to name an item by itself  # titles one "já vi X, Y e Z" marks at most
_DAY_WORDS = (
    r"ontem|hoje|anteontem|semana passada|agora|yesterday|today|last night|last week|tonight"
)


# -- reading a message ----------------------------------------------------------------------


async def answer(deps: Deps, turn: Turn, message: str) -> Reply | None:
    """Answer `message` in code when it is a watchlist request read with certainty."""
    request = read(message)
    if request is None:
        return None
    turn.facts.apply_rule("watchlist_in_code")
    if isinstance(request, MarkRequest) and request.also_seen:
        return await _swap(deps, turn, request)
    if isinstance(request, MarkRequest) and (request.refs or request.carried):
        return await _mark_refs(deps, turn, request)
    if isinstance(request, MarkRequest) and (request.both or request.every):
        return await _mark_both(deps, turn, request)
    if isinstance(request, MarkRequest):
        return await _mark(deps, turn, request)
    if isinstance(request, RatingCompare):
        return await _compare_ratings(deps, turn, request)
    if isinstance(request, ListRequest) and request.only:
        return await _only_one(deps, turn, request)
    if isinstance(request, ListRequest) and request.drop:
        return await _drop_seen(deps, turn, request)
    if isinstance(request, ListRequest):
        return await _list(deps, turn, request)
    if isinstance(request, WhereRequest):
        return await _where(deps, turn, request)
    if isinstance(request, StateQuestion):
        return await _state_of(deps, turn, request)
    return await _suggest(deps, turn, request)


async def _list(deps: Deps, turn: Turn, request: ListRequest) -> Reply:
    """A list or a count by state; "quantos vi e quantos faltam?" answers both counts."""
    types = request.types
    last = shelves.last_action(turn)
    if request.carried and last is not None and last.action.startswith("state_"):
        # "and how many are left?" after a list of shows: the shows
        types = next(((t,) for t in ITEM_TYPES if t == last.type), types)
    reply = await list_by_state(
        deps, turn, request.state, types, count=request.count, period=request.period
    )
    if request.then is None:
        return reply
    more = await _list(deps, turn, replace(request.then, types=types, carried=False))
    lines = reply.text.splitlines()
    lines += [line for line in more.text.splitlines() if line not in lines]
    return replace(more, text="\n".join(lines))


async def _compare_ratings(deps: Deps, turn: Turn, request: RatingCompare) -> Reply | None:
    """ "dos dois, qual ganhou nota maior?": of the items just shown (or every seen item of
    the type named), the one rated highest (lowest), then the others with theirs; nothing
    shown to compare is the planner's."""
    lang = turn.language
    if request.type is not None:
        items = await deps.db.items.done_recently(turn.user_id, request.type, COMPARE_CAP)
    else:
        current = shelves.shown(turn)
        entries = current.entries if current is not None else ()
        if not 2 <= len(entries) <= COMPARE_CAP:
            return None
        got = [await deps.db.items.get(turn.user_id, e.item_id) for e in entries]
        items = [i for i in got if i is not None]
    if not items:
        return await list_by_state(deps, turn, "done", (request.type or "movie",))
    rated = sorted(
        (i for i in items if i.rating is not None),
        key=lambda i: i.rating or 0,
        reverse=request.highest,
    )
    if not rated:
        labels = ", ".join(item_label(i) for i in items)
        return finish(turn, text("rated_none", lang, labels=labels), kind="deterministic")
    top = rated[0]
    shelves.point_at(turn, top)  # "e onde passa ele?": the one named
    key = "rated_highest" if request.highest else "rated_lowest"
    lines = [text(key, lang, label=f"{item_label(top)} · {top.rating}/10")]
    for item in [*rated[1:], *(i for i in items if i.rating is None)]:
        lines.append(
            f"• {item_label(item)} · "
            + (f"{item.rating}/10" if item.rating is not None else text("unrated", lang))
        )
    return finish(turn, "\n".join(lines), kind="deterministic")


async def _only_one(deps: Deps, turn: Turn, request: ListRequest) -> Reply:
    """ "so Dark is the only one I haven't watched?": yes or no, then the list that shows
    it; the title asked is the line whose title its words contain."""
    found: list[ItemDoc] = []
    for item_type in request.types:  # two of the state say "no" already
        if request.state == "left":
            found += await deps.db.items.list_for(
                turn.user_id, item_type=item_type, limit=2, not_done=True
            )
        else:
            found += await deps.db.items.done_recently(turn.user_id, item_type, 2)
    asked = f" {_spaced_words(request.only)} "
    named = [i for i in found if f" {_spaced_words(i.title or '')} " in asked]
    reply = await list_by_state(deps, turn, request.state, request.types)
    if len(found) == 1 and named:
        key = "only_yes"
    elif named:
        key = "only_no_more"
    else:
        key = "only_no_other"
    return replace(reply, text=text(key, turn.language) + "\n" + reply.text)


def _spaced_words(words: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", fold(words).lower()).split())


async def _drop_seen(deps: Deps, turn: Turn, request: ListRequest) -> Reply | None:
    """ "tira da lista os que eu já vi": the seen items of the types asked, held for one
    "sim" like any deletion; none seen says so; more than a preview can name is the
    planner's."""
    seen: list[ItemDoc] = []
    for item_type in request.types:
        seen += await deps.db.items.done_recently(turn.user_id, item_type, DROP_CAP + 1)
    if not seen:
        return await list_by_state(deps, turn, "done", request.types)
    if len(seen) > DROP_CAP:
        return None
    first, *rest = seen
    also = [pendings.ItemOption(item_id=i.id, label=item_label(i)) for i in rest]
    incode.record(turn, "delete_item", {"item_id": first.id}, DeletePreview(first, implicit=False))
    return await deleting.delete_preview(
        deps, turn, first.id, item_label(first), item_type=first.type, also=also
    )


def _named_off_list(turn: Turn, title: str, item_type: str, *, more: bool) -> tuple[str, ...]:
    """The titles off the list named so far: this one, after the last answer's when `more`."""
    last = shelves.last_action(turn)
    before = [
        n for n in (last.named if last is not None and more else ()) if n.partition(":")[2] != title
    ]
    return (*before, f"{item_type}:{title}")


async def state_asked(deps: Deps, turn: Turn, request: StateQuestion) -> Reply | None:
    """The answer to `request` asked as a continuation ("e pra Ruptura?"), or None."""
    return await _state_of(deps, turn, request)


async def _state_of(deps: Deps, turn: Turn, request: StateQuestion) -> Reply | None:
    """ "is Dune still on my to-watch list?": the item's state as stored, or that it is not
    on the list; several close ones are the planner's (it may show them). "What did I
    rate Dune?": what the marks kept of it, when it is one item of the list."""
    lang = turn.language
    if request.target is not None:
        return await _said_of_line(deps, turn, request.target)
    found = await resolve(deps, turn, query=request.title, item_type=request.type, prefer=WATCHABLE)
    if request.opinion:
        if request.anchored and not isinstance(found, ItemDoc):
            return None  # "quanto eu dei pro João?": no item of the list, no rating asked
        if isinstance(found, NotFound):
            # what was said is kept only on the list: never a TMDB lookup
            body = text("said_missing", lang, query=_quoted(request.title))
            return finish(turn, body, kind="deterministic")
        if not isinstance(found, ItemDoc) or found.type not in (*WATCHABLE, "link"):
            return None  # "o que eu achei da reunião?": a search, the planner's
        incode.record(turn, "what_i_said", {"query": request.title}, Found(None, (found,)))
        return said_reply(deps, turn, found)
    if isinstance(found, NotFound):
        body = text("state_asked_missing", lang, query=_quoted(request.title))
        return finish(turn, body, kind="deterministic")
    if not isinstance(found, ItemDoc):
        return None
    shelves.point_at(turn, found)  # "marca como visto", "onde assistir?" name it now
    state = state_word(found.current_state, lang)
    if not found.done:
        body = text("state_asked_left", lang, label=item_label(found), state=state)
        return finish(turn, body, kind="deterministic")
    rating = f" · {found.rating}/10" if found.rating is not None else ""
    body = text("state_asked_done", lang, label=item_label(found), state=state, rating=rating)
    return finish(turn, body, kind="deterministic")


async def _said_of_line(deps: Deps, turn: Turn, target: Target) -> Reply:
    """ "qual nota eu dei pra ele?": what the user said of the item just talked about (or of
    that line of the list just shown)."""
    entry = _entry(turn, target)
    if isinstance(entry, str):
        return _missed(turn, entry)
    item = await _shelf_item(deps, turn, entry)
    if not isinstance(item, ItemDoc):
        return item
    incode.record(turn, "what_i_said", {"item_id": item.id}, Found(None, (item,)))
    return said_reply(deps, turn, item)


def _entry(turn: Turn, target: Target) -> shelves.Entry | str:
    """The shelf line `target` names, or the text key saying why there is none."""
    found = locate(shelves.shown(turn), target)
    if not isinstance(found, Miss):
        return found
    if found.why == "out_of_range":
        return "shelf_out_of_range"
    return "shelf_none" if found.why == "no_shelf" else "shelf_which_none"


async def _shelf_item(deps: Deps, turn: Turn, entry: shelves.Entry) -> ItemDoc | Reply:
    """The item a shelf line names, or the reply that it is gone since it was shown."""
    turn.facts.apply_rule("shelf_reference")
    item = await deps.db.items.get(turn.user_id, entry.item_id)
    if item is None:
        return finish(turn, text("already_gone", turn.language), kind="deterministic")
    return item


def _missed(turn: Turn, key: str) -> Reply:
    turn.facts.apply_rule("shelf_reference_unresolved")
    shown = shelves.shown(turn)
    count = len(shown.entries) if shown is not None else 0
    body = text(key, turn.language, items=plural(count, "item", turn.language))
    return finish(turn, body, kind="deterministic")


async def _mark(deps: Deps, turn: Turn, request: MarkRequest) -> Reply | None:
    to: MarkTo = "unseen" if request.state == "unseen" else "seen"
    args: dict[str, object] = {"state": to, "rating": request.rating}
    item: ItemDoc | None = None
    if request.target is not None:
        last = shelves.last_action(turn)
        if request.target.kind == "pronoun" and last is not None and last.off_list:
            # "já vi esse, nota 9" after "onde passa X?", X off the list: save X as seen?
            return await _offer_named(deps, turn, request, last.off_list)
        entry = _entry(turn, request.target)
        if isinstance(entry, str) and request.bare:
            return None  # "assisti agora e amei" with nothing in focus: the planner's
        if isinstance(entry, str) and (only := await _only_open(deps, turn, request)) is not None:
            entry = shelves.entry_of(only, 0)  # "vi o vídeo": the one video still to see
        if isinstance(entry, str):
            return _missed(turn, entry)
        shelved = await _shelf_item(deps, turn, entry)
        if not isinstance(shelved, ItemDoc):
            return shelved
        item = shelved
        args["item_id"] = item.id
    else:
        prefer: tuple[ItemType, ...] = ("link", "note") if request.reading else WATCHABLE
        found = await resolve(
            deps, turn, query=request.title, item_type=request.type, prefer=prefer
        )
        args["query"] = request.title
        if isinstance(found, NotFound) and (newest := await _newest(deps, turn, request, prefer)):
            found = newest  # "o último que eu salvei eu já vi": the item saved last
            args = {**args, "item_id": newest.id}
            args.pop("query")
        if isinstance(found, NotFound) and _several(request.title):
            # "já vi coringa e oppenheimer": each a title of the list, or the planner's
            several = await _mark_several(deps, turn, request)
            if several is not None:
                return several
            return await _offer_seen(deps, turn, request, args, found, joined=True)
        if isinstance(found, NotFound) and request.described:
            found = await _described(deps, turn, request, prefer)  # "liguei pro encanador"
        if isinstance(found, ItemDoc) and _UNFINISHED.search(_beyond(request.title, found)):
            return None  # "vi Duna pela metade": seen only in part
        if isinstance(found, NotFound) and (cut := await _named_before(deps, turn, request)):
            if cut == "unfinished":
                return None  # "vi Duna pela metade": not a mark this reader is sure of
            found, request = cut  # "assisti o coringa ontem com meu irmão": Coringa, yesterday
            args["query"] = request.title
        if isinstance(found, NotFound) and (to == "unseen" or request.anchored):
            # "desmarca aquele do bolo" also cancels: reminders or the planner; a loose
            # reading ("X já vi") is certain only of a title on the list
            return None
        if isinstance(found, NotFound) and (
            offered := await _offer_seen(deps, turn, request, args, found)
        ):
            return offered  # "vi X ontem, nota 8", X not on the list: save it as seen?
        if not isinstance(found, ItemDoc):
            incode.record(turn, "mark_item", args, found)
            if isinstance(found, NotFound) and request.type in (None, "movie", "tv_show"):
                kind = request.type or "movie"  # "ah tá, então salva ele" saves it
                shelves.did(
                    turn,
                    "named",
                    kind,
                    named=_named_off_list(turn, request.title, kind, more=False),
                )
            return outcome_reply(turn, found)
        if to == "unseen" and not found.done:
            return None  # "desmarca o do bolo": nothing to unmark, so a reminder to cancel?
        item = found
    at = seen_at(turn.now_ms, request.days_ago)
    comment = request.comment or None
    outcome = await mark(deps, turn, item, to, rating=request.rating, at_ms=at, comment=comment)
    incode.record(turn, "mark_item", {**args, "comment": comment}, outcome)
    if isinstance(outcome, Marked) and outcome.changed:
        turn.tools_executed.append("mark_item")
    reply = outcome_reply(turn, outcome, days_ago=request.days_ago)
    shelves.did(turn, f"mark_{to}", item.type)  # "e Interestelar também" marks it too
    return reply


NEWEST_READ = 10  # newest items read to find the newest of the types a mark prefers


async def _newest(
    deps: Deps, turn: Turn, request: MarkRequest, prefer: tuple[ItemType, ...]
) -> ItemDoc | None:
    """The item `request.title` points at by when it was saved ("o último que eu salvei",
    "the last movie I added"): the newest of the type said, else of the types the mark
    prefers; None when the title is no such pointer or nothing fits."""
    said = newest_saved(request.title)
    if said is None:
        return None
    if said != "any":
        newest = await deps.db.items.newest_of_type(turn.user_id, said, 1)
        return newest[0] if newest else None
    recent = await deps.db.items.newest(turn.user_id, NEWEST_READ)
    return next((i for i in recent if i.type in prefer), None)


async def _offer_seen(
    deps: Deps,
    turn: Turn,
    request: MarkRequest,
    args: dict[str, object],
    found: NotFound,
    *,
    joined: bool = False,
) -> Reply | None:
    """A title said seen that is not on the list, offered to be saved as seen with what was
    said of it (agent/conversation/offers.py); None when the title is not certain."""
    if request.state != "seen" or request.reading or request.described or request.target:
        return None
    if request.type not in (None, "movie", "tv_show"):
        return None
    offered: Reply | None = None
    words = request.title.split()
    # the whole title, then its longest start whose rest only says when or how it was seen
    # ("sinners last weekend", "weapons on friday with my sister")
    for cut in range(len(words), 0, -1):
        rest = " ".join(words[cut:])
        if rest and _CIRCUMSTANCE.match(fold(rest)) is None:
            continue
        offered = await offers.offer_seen(
            deps,
            turn,
            title=" ".join(words[:cut]),
            item_type=request.type,
            rating=request.rating,
            comment=request.comment,
            seen_at_ms=seen_at(turn.now_ms, max(request.days_ago, days_named(rest))),
            joined=joined,
        )
        if offered is not None or joined:
            break
    if offered is not None:
        incode.record(turn, "mark_item", args, found)
    return offered


async def _offer_named(
    deps: Deps, turn: Turn, request: MarkRequest, named: Sequence[str]
) -> Reply | None:
    """ "esse eu já vi" right after an answer that named one title off the list: that title
    offered to be saved as seen; None (the planner's) when it named several or unmarks."""
    if len(named) != 1 or request.state != "seen":
        return None
    kind, _, title = named[0].partition(":")
    if not title or kind not in ("movie", "tv_show"):
        return None
    args: dict[str, object] = {"state": "seen", "rating": request.rating, "query": title}
    said: ItemType = "movie" if kind == "movie" else "tv_show"
    typed = replace(request, title=title, type=said, target=None)
    return await _offer_seen(deps, turn, typed, args, NotFound(title))


async def mark_entry(
    deps: Deps, turn: Turn, entry: shelves.Entry, to: MarkTo, *, rating: int | None = None
) -> Reply:
    """A shelf line marked as the last mark did ("e o próximo tb" after "já vi o 1"), with
    the rating said of it ("and the next one too, that one was a 7")."""
    item = await _shelf_item(deps, turn, entry)
    if not isinstance(item, ItemDoc):
        return item
    rating = rating if to == "seen" else None
    outcome = await mark(deps, turn, item, to, rating=rating, at_ms=seen_at(turn.now_ms, 0))
    incode.record(turn, "mark_item", {"item_id": item.id, "state": to, "rating": rating}, outcome)
    if isinstance(outcome, Marked) and outcome.changed:
        turn.tools_executed.append("mark_item")
    return outcome_reply(turn, outcome)


async def _swap(deps: Deps, turn: Turn, request: MarkRequest) -> Reply | None:
    """ "pera, Duna eu não vi não, só a Ruptura": Duna back to unseen, Ruptura seen; the
    planner's when either is not certainly one item of the list."""
    other = await resolve(deps, turn, query=request.also_seen, item_type=None, prefer=WATCHABLE)
    if not isinstance(other, ItemDoc):
        return None
    undone = await _mark(deps, turn, replace(request, also_seen=""))
    if undone is None:
        return None
    outcome = await mark(deps, turn, other, "seen")
    incode.record(turn, "mark_item", {"query": request.also_seen, "state": "seen"}, outcome)
    if isinstance(outcome, Marked) and outcome.changed:
        turn.tools_executed.append("mark_item")
    seen = outcome_reply(turn, outcome)
    lines = undone.text.splitlines()
    lines += [line for line in seen.text.splitlines() if line not in lines]
    return replace(seen, text="\n".join(lines))


async def _only_open(deps: Deps, turn: Turn, request: MarkRequest) -> ItemDoc | None:
    """ "vi o vídeo" with no video in focus: the user's one video still to see, if one."""
    target = request.target
    if target is None or target.kind != "pronoun" or target.type is None or request.state != "seen":
        return None
    open_ones = await deps.db.items.list_for(
        turn.user_id, item_type=target.type, limit=2, not_done=True
    )
    return open_ones[0] if len(open_ones) == 1 else None


def _several(title: str) -> bool:
    words = f" {title.casefold()} "
    return " e " in words or " and " in words or "," in title


_PARTS = re.compile(r"\s*,\s*(?:(?:e|and)\s+)?|\s+(?:e|and|&)\s+", re.IGNORECASE)


# what may follow a title and say only how it was seen: "com meu irmão", "no cinema ontem"
def _beyond(said: str, item: ItemDoc) -> str:
    """The words of `said` that are not words of the item's title (folded)."""
    own = set(fold(item.title or item.content or "").split())
    return " ".join(w for w in fold(said).split() if w not in own)


# seen in part: "pela metade", "até o meio", "só o primeiro episódio"
_UNFINISHED = re.compile(
    r"\b(?:metade|meio|half|halfway|middle|parte|part|inicio|comeco|beginning"
    r"|episodio|ep|episode|temporada|season)\b"
)
_CIRCUMSTANCE = re.compile(
    r"^(?:com|no|na|nos|nas|em|pelo|pela|num|numa|de novo|outra vez|faz|ha|fds|"
    r"with|at|in|on|over|during|this|last|again|" + _DAY_WORDS + r")\b",
    re.IGNORECASE,
)


async def _mark_several(deps: Deps, turn: Turn, request: MarkRequest) -> Reply | None:
    """ "já vi coringa e oppenheimer", "vi o 1 e o 3": each part a reference (_mark_refs)."""
    parts = [p.strip() for p in _PARTS.split(request.title) if p.strip()]
    if not 2 <= len(parts) <= MAX_SEVERAL:
        return None
    refs = tuple(shelf_target(part) or part for part in parts)
    return await _mark_refs(deps, turn, replace(request, title="", refs=refs))


async def _mark_both(deps: Deps, turn: Turn, request: MarkRequest) -> Reply | None:
    """ "já vi os dois", "watched both": the two items just shown, when two were; "já vi
    todos": every item just shown, when a few were."""
    current = shelves.shown(turn)
    if request.both and (saved := await _saved_two(deps, turn, current)) is not None:
        if (ratings := _each_rating(request, saved)) is None:
            return None
        turn.facts.apply_rule("shelf_reference")
        return await _mark_items(deps, turn, request, saved, ratings=ratings)
    if current is None or not current.entries:
        return None
    if len(current.entries) != 2 if request.both else len(current.entries) > MAX_SEVERAL:
        return None
    items = [await deps.db.items.get(turn.user_id, e.item_id) for e in current.entries]
    kept = [i for i in items if i is not None]
    if len(kept) != len(current.entries) or (ratings := _each_rating(request, kept)) is None:
        return None
    turn.facts.apply_rule("shelf_reference")
    return await _mark_items(deps, turn, request, kept, shelve=False, ratings=ratings)


async def _mark_refs(deps: Deps, turn: Turn, request: MarkRequest) -> Reply | None:
    """ "o primeiro e o último eu já vi", "desses já vi X, Y e Z", "and coco too, no score"
    after a mark: every reference one item of the list or a line just shown, each marked,
    one reply; the planner's when any is not certain, or a continuation follows no mark."""
    state = request.state
    if request.carried:
        last = shelves.last_action(turn)
        if last is None or last.action not in ("mark_seen", "mark_unseen"):
            return None
        state = "seen" if last.action == "mark_seen" else "unseen"
        if state == "unseen" and (request.rating is not None or request.comment):
            return None
    prefer: tuple[ItemType, ...] = ("link", "note") if request.reading else WATCHABLE
    items: list[ItemDoc] = []
    for ref in request.refs:
        found = await _referred(deps, turn, ref, request.type, prefer)
        if found is None and isinstance(ref, str) and ref is request.refs[-1]:
            # "... e barbie this weekend": the words after the last title say when or how
            cut = await _named_before(deps, turn, replace(request, title=ref, refs=()))
            if cut is None or cut == "unfinished":
                return None
            found, request = [cut[0]], replace(cut[1], title="", refs=request.refs)
        if found is None:
            return None
        for one in found:
            if any(i.id == one.id for i in items) or (state == "unseen" and not one.done):
                return None  # named twice, or nothing to unmark: not a mark this is sure of
            items.append(one)
    if not items:
        return None
    ratings = _each_rating(request, items)
    if ratings is None:
        return None  # a rating said of a title that is not one item marked: not certain
    lines = any(isinstance(ref, Target) for ref in request.refs)
    if lines:
        turn.facts.apply_rule("shelf_reference")
    # lines of a list leave the list shown ("o 2 e o 3", then "e o 4 tb"); titles become it
    return await _mark_items(
        deps, turn, replace(request, state=state), items, shelve=not lines, ratings=ratings
    )


# "o primeiro nota 8 e o segundo 6", "the first a 7, the second a 9": a rating by the place
# of the title in the message
_PLACE_RATED: Final = re.compile(
    r"\b(?P<place>primeir[oa]|segund[oa]|terceir[oa]|ultim[oa]|first|second|third|last)\b"
    r"(?:\s+(?:nota|um|uma|an?|com|with|gets?|ganha|leva|vale|eu\s+dou|i\s+give|é|e\s+um|is))*"
    r"\s+(?P<rating>10|\d)(?:/10)?\b"
)
_PLACES: Final = {"primeir": 0, "first": 0, "segund": 1, "second": 1, "terceir": 2, "third": 2}


def _ratings_by_place(text: str, items: Sequence[ItemDoc]) -> dict[str, int | None]:
    """Each item's rating said by its place among the titles named ("o primeiro nota 8 e o
    segundo 6"), when every item gets one and no place is said twice; {} otherwise."""
    ratings: dict[str, int | None] = {}
    for m in _PLACE_RATED.finditer(fold(text)):
        place = m.group("place")
        stem = place[:-1] if place.endswith(("o", "a")) else place  # "primeira", "first"
        at = _PLACES.get(stem, len(items) - 1)  # "último", "last"
        if at >= len(items) or items[at].id in ratings:
            return {}
        ratings[items[at].id] = int(m.group("rating"))
    return ratings if len(ratings) == len(items) else {}


def _words_of(title: str | None) -> str:
    return re.sub(r"\W+", " ", fold(title or "")).strip()


def _each_rating(request: MarkRequest, items: Sequence[ItemDoc]) -> dict[str, int | None] | None:
    """The rating of each item when the message gave one per title ("barbie (7) e anora (8)"):
    each title said names exactly one of `items`, and the number is no part of its title
    ("toy story 3"); {} when no rating was said per title."""
    ratings: dict[str, int | None] = {}
    for said, rating in request.each:
        owners = [i for i in items if f" {said} " in f" {_words_of(i.title)} "]
        if len(owners) != 1 or owners[0].id in ratings:
            return None
        if f" {said} {rating} " in f" {_words_of(owners[0].title)} ":
            return None
        ratings[owners[0].id] = rating
    return ratings


async def _referred(
    deps: Deps,
    turn: Turn,
    ref: str | Target,
    item_type: ItemType | None,
    prefer: tuple[ItemType, ...],
) -> list[ItemDoc] | None:
    """The items one reference names: a line just shown, or a title of the list (titles
    joined by "e" when the whole is none); None when it names none certainly."""
    if isinstance(ref, Target):
        entry = _entry(turn, ref)
        one = (
            None if isinstance(entry, str) else await deps.db.items.get(turn.user_id, entry.item_id)
        )
        return [one] if one is not None else None
    found = await resolve(deps, turn, query=ref, item_type=item_type, prefer=prefer)
    if isinstance(found, ItemDoc):
        # "já vi dark" never names a note ("e as séries dark e the office tb", saved as one)
        return [found] if found.type in prefer or found.type == "link" else None
    parts = [p.strip() for p in _PARTS.split(ref) if p.strip()]
    if not isinstance(found, NotFound) or len(parts) < 2:
        return None
    items: list[ItemDoc] = []
    for part in parts:
        each = await resolve(deps, turn, query=part, item_type=item_type, prefer=prefer)
        if not isinstance(each, ItemDoc) or not (each.type in prefer or each.type == "link"):
            return None
        items.append(each)
    return items


async def _saved_two(deps: Deps, turn: Turn, current: shelves.Shown | None) -> list[ItemDoc] | None:
    """ "já vi os dois" after two saves in a row ("salva X", "e Y tb"): the user's two newest
    items, when the last action saved, one of them is in focus and both are this
    conversation's (saved minutes ago); None otherwise."""
    last = shelves.last_action(turn)
    if last is None or last.action != "save" or (current is not None and len(current.entries) > 1):
        return None
    two = await deps.db.items.newest(turn.user_id, 2)
    focus = current.focus if current is not None else None
    if len(two) != 2 or focus is None or focus.item_id not in {i.id for i in two}:
        return None
    if any(turn.now_ms - i.created_at_ms > RECENT_SAVE_MS for i in two):
        return None
    return list(reversed(two))


async def _mark_items(
    deps: Deps,
    turn: Turn,
    request: MarkRequest,
    items: Sequence[ItemDoc],
    *,
    shelve: bool = True,
    ratings: dict[str, int | None] | None = None,
) -> Reply:
    """Each of `items` marked as `request` says (with its own rating from `ratings`), one reply
    naming them all; with `shelve`, they become what "o 2" and "desfaz" name."""
    to: MarkTo = "unseen" if request.state == "unseen" else "seen"
    at = seen_at(turn.now_ms, request.days_ago)
    lines: list[str] = []
    reply: Reply | None = None
    comment = request.comment or None
    if not ratings and len(items) > 1:
        ratings = _ratings_by_place(turn.incoming.text or "", items)
    for item in items:
        rating = ratings[item.id] if ratings and item.id in ratings else request.rating
        outcome = await mark(deps, turn, item, to, rating=rating, at_ms=at, comment=comment)
        args = {"item_id": item.id, "state": to, "rating": rating, "comment": comment}
        incode.record(turn, "mark_item", args, outcome)
        if isinstance(outcome, Marked) and outcome.changed:
            turn.tools_executed.append("mark_item")
        reply = outcome_reply(turn, outcome, days_ago=request.days_ago)
        lines += [line for line in reply.text.splitlines() if line not in lines]
    assert reply is not None
    if shelve:
        shelves.show_items(turn, items)  # "onde assistir o 2" names them now
    shelves.did(turn, f"mark_{to}")
    return replace(reply, text="\n".join(lines))


async def _described(
    deps: Deps, turn: Turn, request: MarkRequest, prefer: tuple[ItemType, ...]
) -> ItemDoc | NotFound:
    """ "já liguei pro encanador, marca como feito": the one item every distinctive word of
    the description that finds anything finds (at least one does), else not found."""
    words = [w for w in fold(request.title).split() if len(w) >= MIN_DESCRIBING and w.isalpha()]
    hits: set[str] = set()
    one: ItemDoc | None = None
    for word in words:
        found = await resolve(deps, turn, query=word, item_type=request.type, prefer=prefer)
        if isinstance(found, ItemDoc):
            hits.add(found.id)
            one = found
        elif not isinstance(found, NotFound):
            return NotFound(request.title)  # a word that names several: not certain
    return one if one is not None and len(hits) == 1 else NotFound(request.title)


_JOINERS: Final = frozenset("e and & ou or nem nor mais plus".split())


async def _named_before(
    deps: Deps, turn: Turn, request: MarkRequest
) -> tuple[ItemDoc, MarkRequest] | Literal["unfinished"] | None:
    """The longest start of the title that is one item of the list when the rest only says
    how or when it was seen ("o coringa ontem com meu irmão"); "unfinished" when the rest
    says it was seen only in part ("pela metade"); None otherwise."""
    words = request.title.split()
    prefer: tuple[ItemType, ...] = ("link", "note") if request.reading else WATCHABLE
    for cut in range(len(words) - 1, 0, -1):
        rest = " ".join(words[cut:])
        # how or when it was seen, or a word or two said after the title ("past lives omg",
        # "booksmart tho", "dune 2 in imax"); never a second title ("duna e superbad")
        said_after = len(words) - cut <= 2 and _JOINERS.isdisjoint(fold(rest).split())
        if _CIRCUMSTANCE.match(fold(rest)) is None and not said_after:
            continue
        head = " ".join(words[:cut])
        if STOPWORDS.issuperset(fold(head).split()):
            continue  # "vi o poderoso chefão": "o" alone names no item ("O Urso")
        found = await resolve(deps, turn, query=head, item_type=request.type, prefer=prefer)
        if isinstance(found, ItemDoc) and _UNFINISHED.search(fold(rest)):
            return "unfinished"
        if isinstance(found, ItemDoc):
            days = max(request.days_ago, days_named(rest))
            return found, replace(request, title=head, days_ago=days)
    return None


async def _where(deps: Deps, turn: Turn, request: WhereRequest) -> Reply | None:
    item: ItemDoc | None = None
    args: dict[str, object] = {"country": request.country}
    if request.target is not None:
        last = shelves.last_action(turn)
        if request.target.kind == "pronoun" and last is not None and last.off_list:
            return None  # "put it as watched" after a title off the list: that title's
        entry = _entry(turn, request.target)
        if isinstance(entry, str) and request.paid:
            return None  # "e pra alugar?" with no title in focus: the planner's
        if isinstance(entry, str):
            return _missed(turn, entry)
        shelved = await _shelf_item(deps, turn, entry)
        if not isinstance(shelved, ItemDoc):
            return shelved
        item = shelved
    else:
        item = await own_title(deps, turn, request.title, request.type)
    if item is not None:
        args["item_id"] = item.id
        outcome = await where(deps, turn, item=item, country=request.country)
    else:
        args["title"] = request.title
        outcome = await where(
            deps, turn, title=request.title, item_type=request.type, country=request.country
        )
        if outcome.failure == "no_match" and request.whole:
            # "onde passa Ainda Estou Aqui?": the words cut as "here" were the title's
            whole = await where(
                deps, turn, title=request.whole, item_type=request.type, country=request.country
            )
            if whole.failure is None:
                request, outcome, args["title"] = (
                    replace(request, title=request.whole),
                    whole,
                    request.whole,
                )
    incode.record(turn, "where_to_watch", args, outcome)
    turn.tools_executed.append("where_to_watch")
    named: tuple[str, ...] = ()
    if item is None and outcome.found_type is not None:  # "blz, salva os dois" saves these
        last = shelves.last_action(turn)
        more = last is not None and last.action == "where"
        named = _named_off_list(turn, request.title, outcome.found_type, more=more)
    shelves.did(turn, "where", item.type if item is not None else (request.type or ""), named=named)
    if request.paid and outcome.options is not None:
        return _paid_reply(turn, outcome, outcome.options)
    reply = outcome_reply(turn, outcome)
    if not request.service or outcome.failure is not None:
        return reply
    return replace(reply, text=_on_service(turn, outcome, request.service) + "\n" + reply.text)


def _on_service(turn: Turn, outcome: WatchFound, service: str) -> str:
    """ "tem Dark na Netflix?": whether the service streams it (included, free or with ads)."""
    wanted = set(fold(service).split())
    options = outcome.options
    included = (*options.flatrate, *options.free, *options.ads) if options is not None else ()
    key = (
        "where_service_yes"
        if any(wanted <= set(fold(name).split()) for name in included)
        else "where_service_no"
    )
    return text(key, turn.language, label=outcome.label, service=service, country=outcome.country)


async def where_asked(deps: Deps, turn: Turn, request: WhereRequest) -> Reply | None:
    """ "and where's X?" right after where-to-watch: that question, read in full."""
    return await _where(deps, turn, request)


async def where_named(
    deps: Deps, turn: Turn, title: str, item_type: ItemType | None
) -> Reply | None:
    """ "and The Office?" right after where-to-watch: the same question for this title."""
    if item_type not in (None, *WATCHABLE):
        return None
    return await _where(deps, turn, WhereRequest(title=title, type=item_type))


async def list_named(
    deps: Deps, turn: Turn, state: str, item_type: ItemType | None, period: str
) -> Reply | None:
    """ "e as séries?" right after a list by state: the same list for that type."""
    if state not in ("left", "done") or item_type is None:
        return None
    asked: Literal["left", "done"] = "left" if state == "left" else "done"
    when: Period | None = period if period in PERIODS else None  # type: ignore[assignment]
    return await list_by_state(deps, turn, asked, (item_type,), period=when)


async def carried_list(deps: Deps, turn: Turn, message: str) -> Reply | None:
    """ "e as séries?" right after a list by state ("o que falta ver?"): that list again, for
    the type it names; None when the message is no such continuation."""
    last = shelves.last_action(turn)
    if last is None or not last.action.startswith("state_"):
        return None
    cont = read_continuation(message)
    if cont is None or cont.title or cont.other or cont.next or cont.period:
        return None
    return await list_named(deps, turn, last.action.removeprefix("state_"), cont.type, last.period)


def _paid_reply(turn: Turn, outcome: WatchFound, options: WatchOptions) -> Reply:
    """Only the rent and buy offers: "e pra alugar?" after where-to-watch."""
    lang = turn.language
    if outcome.item is not None:
        shelves.point_at(turn, outcome.item)
    paid = replace(options, flatrate=(), free=(), ads=())
    lines = offers_lines(paid, lang)
    if not lines:
        body = text("where_no_paid", lang, label=outcome.label, country=outcome.country)
        return finish(turn, body, kind="deterministic")
    lines.insert(0, text("where_heading_paid", lang, label=outcome.label, country=outcome.country))
    lines.append(text("where_source", lang))
    return finish(turn, "\n".join(lines), kind="deterministic")


async def _suggest(deps: Deps, turn: Turn, request: SuggestRequest) -> Reply:
    outcome = await suggest(
        deps,
        turn,
        item_type=request.type,
        max_minutes=request.max_minutes,
        words=request.genre_words,
        short=request.short,
        binge=request.binge,
    )
    args = {
        "type": request.type,
        "max_minutes": request.max_minutes,
        "genre_words": list(request.genre_words) or None,
    }
    incode.record(turn, "suggest_from_list", args, outcome)
    turn.tools_executed.append("suggest_from_list")
    shelves.did(turn, "suggest", request.type or "")  # "ok, vou ver esse" continues no save
    return outcome_reply(turn, outcome)


# -- phrasing outcomes --------------------------------------------------------------------------


def outcome_reply(turn: Turn, outcome: Outcome, *, days_ago: int = 0) -> Reply:
    """The reply to a watchlist tool's outcome (planned or run in code)."""
    lang = turn.language
    if isinstance(outcome, Marked):
        return _marked_reply(turn, outcome, days_ago)
    if isinstance(outcome, MarkedMany):  # one reply naming every item
        replies = [_marked_reply(turn, one, days_ago) for one in outcome.marks]
        lines = [line for reply in replies for line in reply.text.splitlines()]
        shelves.show_items(turn, [one.item for one in outcome.marks])  # "desfaz", "o 2"
        return replace(replies[-1], text="\n".join(dict.fromkeys(lines)))
    if isinstance(outcome, MarkChoice):
        turn.facts.ambiguity = "unresolved"
        entries = shelves.show_items(turn, outcome.items)
        lines = [text("mark_choose", lang, query=_quoted(outcome.query))]
        lines += [f"{e.number}. {e.label}" for e in entries]
        return finish(turn, "\n".join(lines), kind="candidates")
    if isinstance(outcome, NotFound):
        body = text("mark_not_found", lang, query=_quoted(outcome.query))
        return finish(turn, body, kind="deterministic")
    if isinstance(outcome, UnknownItem):
        turn.facts.block("unknown_item")
        return finish(turn, text("unknown_item", lang), kind="blocked")
    if isinstance(outcome, WatchFound):
        return _where_reply(turn, outcome)
    assert isinstance(outcome, Suggested)
    return _suggested_reply(turn, outcome)


def _quoted(query: str) -> str:
    return " ".join(query.split())[:60]


def state_word(state: str, language: Language) -> str:
    return text(f"state_{state}", language)


def _marked_reply(turn: Turn, outcome: Marked, days_ago: int) -> Reply:
    lang = turn.language
    item = outcome.item
    shelves.point_at(turn, item)  # "desfaz" / "onde assistir esse" name it now
    shelves.did(turn, "mark_seen" if item.done else "mark_unseen", item.type)  # "e o próximo tb"
    label = item_label(item)
    state = state_word(item.current_state, lang)
    if not outcome.changed:
        return finish(
            turn, text("mark_already", lang, label=label, state=state), kind="deterministic"
        )
    key = "marked" if item.done else "unmarked"
    body = f"{OK_MARK} " + text(key, lang, label=label, state=state)
    if item.done and days_ago in (1, 2):
        body = body[:-1] + text(f"marked_day_{days_ago}", lang) + "."
    if item.done and item.rating is not None:
        body += text("marked_rating", lang, rating=item.rating)
    return finish(turn, body, kind="effect")


def offers_lines(options: WatchOptions, language: Language) -> list[str]:
    """One line per kind of offer, included ones first: "• Streaming: Max, Netflix"."""
    lines = []
    for kind in OFFER_KINDS:
        names = getattr(options, kind)
        if names:
            lines.append(f"• {text(f'where_{kind}', language)}: {', '.join(names[:6])}")
    return lines


def offers_inline(options: WatchOptions, language: Language) -> str:
    """The offers in one line, for a save's reply: "Streaming: Max · Alugar: Apple TV"."""
    parts = []
    for kind in OFFER_KINDS:
        names = getattr(options, kind)
        if names:
            parts.append(f"{text(f'where_{kind}', language)}: {', '.join(names[:4])}")
    return " · ".join(parts)


def _where_reply(turn: Turn, outcome: WatchFound) -> Reply:
    lang = turn.language
    if outcome.item is not None:
        shelves.point_at(turn, outcome.item)
    label = outcome.label
    if outcome.failure == "not_configured":
        turn.facts.add_caveat(text("caveat_tmdb_not_configured_read", lang))
        return finish(turn, text("where_not_configured", lang), kind="effect")
    if outcome.failure == "unavailable":
        turn.facts.add_caveat(text("caveat_tmdb_unavailable_read", lang))
        return finish(turn, text("where_unavailable", lang), kind="effect")
    if outcome.failure == "no_match":
        watchable = outcome.item is None or outcome.item.type in ("movie", "tv_show")
        key = "where_no_match" if watchable else "where_not_watchable"
        return finish(turn, text(key, lang, label=label), kind="deterministic")
    if outcome.options is None:
        body = text("where_nowhere", lang, label=label, country=outcome.country)
        return finish(turn, body, kind="deterministic")
    lines = [text("where_heading", lang, label=label, country=outcome.country)]
    lines += offers_lines(outcome.options, lang)
    lines.append(text("where_source", lang))
    if outcome.options.link:
        lines.append(outcome.options.link)
    return finish(turn, "\n".join(lines), kind="deterministic")


def saved_where_line(outcome: WatchFound | None, language: Language) -> str:
    """The line a save's reply adds when TMDB says where the title streams."""
    if outcome is None or outcome.options is None:
        return ""
    offers = offers_inline(outcome.options, language)
    return text("where_saved", language, country=outcome.country, offers=offers)


def _minutes(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    if not hours:
        return f"{minutes} min"
    return f"{hours}h{rest:02d}" if rest else f"{hours}h"


def _suggested_reply(turn: Turn, outcome: Suggested) -> Reply:
    lang = turn.language
    lines: list[str] = []
    if outcome.instead_of is not None:  # "a series to binge" when only movies are unseen
        what = plural(2, outcome.instead_of, lang, with_count=False)
        key = "suggest_none_of_type" if outcome.instead_because == "unseen" else "suggest_none_fit"
        lines.append(text(key, lang, what=what))
    if not outcome.picks:
        if outcome.waiting:  # what could not be checked (saved without TMDB), named
            return _unchecked_reply(turn, outcome, lines)
        key = (
            "suggest_nothing_fits"
            if outcome.none_because == "nothing_fits"
            else "suggest_nothing_unseen"
        )
        if key == "suggest_nothing_unseen" and not any(
            turn.user.counts.get(t, 0) for t in WATCHABLE
        ):
            key = "suggest_nothing_saved"
        lines.append(text(key, lang, count=outcome.unseen))
        return finish(turn, "\n".join(lines), kind="deterministic")
    heading = "suggest_heading_instead" if outcome.instead_of is not None else "suggest_heading"
    lines.append(text(heading, lang))
    entries = shelves.show_items(turn, [p.item for p in outcome.picks])
    top = entries[0]  # the pick: "esse eu já vi" after "algo curtinho?" names it
    shelves.point(turn, top.item_id, top.label, top.type)
    for entry, pick in zip(entries, outcome.picks, strict=True):
        why: list[str] = [g.lower() if lang == "pt" else g for g in pick.genres]
        if pick.minutes and pick.item.type == "tv_show":
            why.append(text("suggest_episode", lang, minutes=_minutes(pick.minutes)))
        elif pick.minutes:
            why.append(_minutes(pick.minutes))
        if pick.seasons:
            key = "suggest_season" if pick.seasons == 1 else "suggest_seasons"
            why.append(text(key, lang, count=pick.seasons))
        if pick.oldest and entry.number == 1:
            why.append(text("suggest_oldest", lang))
        reason = f" — {', '.join(why)}" if why else ""
        lines.append(f"{entry.number}. {entry.label}{reason}")
    reply = finish(turn, "\n".join(lines), kind="deterministic")
    return with_mark_buttons(turn, reply, entries)


def _unchecked_reply(turn: Turn, outcome: Suggested, lines: list[str]) -> Reply:
    """Nothing known fits, and these could not be checked: what is unknown, then them."""
    lang = turn.language
    unknown = set(outcome.unknown)
    what = text(
        "suggest_unknown_both"
        if unknown == {"genre", "length"}
        else "suggest_unknown_genre"
        if unknown == {"genre"}
        else "suggest_unknown_length",
        lang,
    )
    head = text("suggest_unchecked", lang, what=what, count=outcome.unchecked)
    if (checked := outcome.unseen - outcome.unchecked) > 0:
        head = text("suggest_checked_none", lang, count=checked) + " " + head
    lines.append(head)
    entries = shelves.show_items(turn, list(outcome.waiting))
    lines += [f"{e.number}. {e.label}" for e in entries]
    if outcome.unchecked > len(entries):
        lines.append(text("saved_in_more", lang, count=outcome.unchecked - len(entries)))
    reply = finish(turn, "\n".join(lines), kind="deterministic")
    return with_mark_buttons(turn, reply, entries)


# -- lists by state -------------------------------------------------------------------------------


def _zone(deps: Deps, turn: Turn) -> ZoneInfo:
    try:
        return ZoneInfo(turn.user.timezone)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def period_range(period: Period, now_ms: int, zone: ZoneInfo) -> tuple[int, int]:
    """[start, end) of `period` in epoch ms, in the user's time zone."""
    local = datetime.fromtimestamp(now_ms / 1000, tz=zone)
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    match period:
        case "today":
            return _ms(midnight), now_ms + 1
        case "yesterday":
            return _ms(midnight - timedelta(days=1)), _ms(midnight)
        case "this_week":
            return _ms(midnight - timedelta(days=midnight.weekday())), now_ms + 1
        case "last_7_days":
            return now_ms - 7 * 24 * 3600 * 1000, now_ms + 1
        case "this_month":
            return _ms(midnight.replace(day=1)), now_ms + 1


async def done_counts(deps: Deps, turn: Turn) -> dict[str, int]:
    """How many items of each type are seen (read, done): none for a user who never marked,
    else as the list cache keeps them (counted when it is built, moved by each mark)."""
    if not turn.user.marked:
        return {}
    kept = shelves.kept_shelf(turn.user)
    if kept is not None and kept.counted:
        return kept.done_counts
    from agent.tools.listing import current_shelf  # the listing shows these counts

    return (await current_shelf(deps, turn)).done_counts


def _what(types: Sequence[ItemType], language: Language) -> str:
    if tuple(types) == WATCHABLE:
        return text("what_watchable", language)
    if len(types) == 1:
        return plural(2, types[0], language, with_count=False)
    return " / ".join(plural(2, t, language, with_count=False) for t in types)


async def list_by_state(
    deps: Deps,
    turn: Turn,
    state: Literal["left", "done"],
    types: Sequence[ItemType],
    *,
    count: bool = False,
    period: Period | None = None,
) -> Reply:
    """What is left to see (read) or already seen of `types`, listed or counted.

    The one implementation of a list by state: `list_items` with a `state` runs this too.
    """
    lang = turn.language
    turn.facts.apply_rule("user_scope")
    # "and how many are left?", "e as séries?" carry this list's state and type
    shelves.did(turn, f"state_{state}", types[0] if len(types) == 1 else "", period or "")
    totals = {t: int(turn.user.counts.get(t, 0)) for t in types}
    reading = all(t == "link" for t in types)
    span = period_range(period, turn.now_ms, _zone(deps, turn)) if period else None
    counted = await done_counts(deps, turn)
    done_n = {t: counted.get(t, 0) for t in types}
    done: dict[ItemType, list[ItemDoc]] = {}
    if span is not None:  # marked in the period: read by when, the period's only
        for t in types:
            if done_n[t]:
                recent = await deps.db.items.done_recently(
                    turn.user_id, t, PERIOD_CAP, since_ms=span[0]
                )
                done[t] = [i for i in recent if (i.state_at_ms or 0) < span[1]]
        done_n = {t: len(done.get(t, ())) for t in types}
    elif state == "done" and not count:  # the most recently marked of each type
        for t in types:
            if done_n[t]:
                done[t] = await deps.db.items.done_recently(turn.user_id, t, PER_TYPE)
    left_n = {t: totals[t] - done_n[t] for t in types}
    shown_types = [t for t in types if (left_n if state == "left" else done_n)[t]]
    number = sum((left_n if state == "left" else done_n).values())
    if count:
        items = _count_items(types, left_n if state == "left" else done_n, lang)
        if state == "left":
            key = "count_left_read" if reading else "count_left"
            return finish(turn, text(key, lang, items=items), kind="deterministic")
        if span is not None:
            when = text(f"period_{period}", lang)
            return finish(
                turn,
                text("count_done_period", lang, items=items, period=when),
                kind="deterministic",
            )
        key = "count_done_read" if reading else "count_done"
        return finish(turn, text(key, lang, items=items), kind="deterministic")
    if not number:
        return finish(
            turn, _none_text(state, types, totals, done_n, lang, period), kind="deterministic"
        )
    lines: list[str] = []
    entries: list[shelves.Entry] = []
    if span is not None:
        lines.append(
            text("done_heading_period", lang, period=text(f"period_{period}", lang), count=number)
        )
    elif shown_types == ["link"]:
        lines.append(text(f"{state}_heading_link", lang, count=number))
    elif shown_types == ["note"] and state == "done":
        lines.append(text("done_heading_note", lang, count=number))
    else:
        lines.append(text(f"{state}_heading", lang, count=number))
    for item_type in shown_types:
        if state == "left":
            of_type = await deps.db.items.list_for(
                turn.user_id, item_type=item_type, limit=PER_TYPE, not_done=True
            )
            more = left_n[item_type] - len(of_type)
        else:
            of_type = done[item_type][:PER_TYPE]
            more = done_n[item_type] - len(of_type)
        if len(shown_types) > 1:
            shown = left_n[item_type] if state == "left" else done_n[item_type]
            lines.append(f"\n{type_heading(item_type, lang)} ({shown}):")
        for item in of_type:
            entry = shelves.entry_of(item, len(entries) + 1)
            entries.append(entry)
            lines.append(f"{entry.number}. {entry.label}{_rating(item)}")
        if more > 0:
            lines.append(text("saved_in_more", lang, count=more))
    shelves.show(turn, entries)
    reply = finish(turn, "\n".join(lines), kind="deterministic")
    return with_mark_buttons(turn, reply, entries) if state == "left" else reply


def _rating(item: ItemDoc) -> str:
    return f" · {item.rating}/10" if item.rating is not None else ""


def _count_items(types: Sequence[ItemType], numbers: dict[ItemType, int], lang: Language) -> str:
    if len(types) == 1:
        return plural(numbers[types[0]], types[0], lang)
    total = sum(numbers.values())
    parts = [plural(numbers[t], t, lang) for t in types if numbers[t]]
    head = plural(total, "item", lang)
    return f"{head} ({', '.join(parts)})" if len(parts) > 1 else (parts[0] if parts else head)


def _none_text(
    state: str,
    types: Sequence[ItemType],
    totals: dict[ItemType, int],
    done_n: dict[ItemType, int],
    lang: Language,
    period: Period | None,
) -> str:
    what = _what(types, lang)
    reading = all(t == "link" for t in types)
    if period is not None:
        return text("done_none_period", lang, period=text(f"period_{period}", lang))
    if not sum(totals.values()):
        return text("left_none_saved", lang, what=what)
    if state == "left":
        key = "left_none_read" if reading else "left_none"
        return text(key, lang, what=text("what_all", lang), count=sum(done_n.values()))
    key = "done_none_read" if reading else "done_none"
    return text(key, lang, what=what)


# -- the typed list and `lista tudo` ----------------------------------------------------------


async def typed_page(
    deps: Deps, turn: Turn, item_type: ItemType, total: int, first: int, last: int
) -> tuple[list[ItemDoc], int, int] | None:
    """The items of `lista <type>` at positions [first, last), unseen first, then the done.

    Returns (items, how many are done, where the done start among the positions), or None
    when none of the type is done (the list is then the creation order it always was).
    """
    done = (await done_counts(deps, turn)).get(item_type, 0)
    if not done:
        return None
    left = total - done
    shown: list[ItemDoc] = []
    if first < left:
        unseen = await deps.db.items.list_for(
            turn.user_id, item_type=item_type, limit=min(last, left), not_done=True
        )
        shown += unseen[first:]
    if last > left:
        seen = await deps.db.items.done_first(turn.user_id, item_type, last - left)
        shown += seen[max(0, first - left) :]
    return shown, done, left


def typed_heading(item_type: ItemType, total: int, done: int, language: Language) -> str:
    """ "Filmes (5; vistos: 2):": a type's heading once some of it are seen (read, done)."""
    return text(
        "list_heading_seen",
        language,
        heading=type_heading(item_type, language),
        total=total,
        state=text(f"list_state_{DONE_STATE[item_type]}", language),
        done=done,
    )


def typed_lines(
    turn: Turn,
    item_type: ItemType,
    items: Sequence[ItemDoc],
    first: int,
    total: int,
    done: int,
    left: int,
) -> tuple[list[str], list[shelves.Entry]]:
    """The lines of a typed list page with some items done: heading, unseen, then done."""
    lang = turn.language
    state_key = DONE_STATE[item_type]
    lines = [typed_heading(item_type, total, done, lang)]
    entries = shelves.show_items(turn, items, first=first + 1)
    for position, (entry, item) in enumerate(zip(entries, items, strict=True), start=first):
        if position == left:
            lines.append(text(f"list_{state_key}_part", lang))
        mark = f" {DONE_MARK}{_rating(item)}" if item.done else ""
        lines.append(f"{entry.number}. {entry.label}{mark}")
    return lines, entries


# -- ✓ buttons on list lines ----------------------------------------------------------------------


def list_stamp(entries: Sequence[shelves.Entry]) -> str:
    """What ties a ✓ button to the list it came with: a digest of the list's lines."""
    lines = ",".join(f"{e.number}={e.item_id}" for e in entries)
    return sha256_hex(lines)[:12]


def with_mark_buttons(turn: Turn, reply: Reply, entries: Sequence[shelves.Entry]) -> Reply:
    """`reply` with a ✓ button for each of the first `entries` (at most 10).

    A button is `c:mk:<stamp>:<line number - 1>` (bot/render.py's encoding): the stamp is
    a digest of the list shown, so a press after another list was shown is refused.
    """
    shown = shelves.shown(turn)
    if reply.choices or shown is None or not entries:
        return reply  # a reply with its own question keeps its buttons
    buttons = [
        Choice(
            e.number - 1,
            text("mark_button", turn.language, mark=DONE_MARK, number=e.number, label=e.label),
        )
        for e in entries[:MAX_BUTTONS]
    ]
    token = BUTTON_PREFIX + list_stamp(shown.entries)
    return replace(reply, choices=tuple(buttons), choice_kind="pick", choice_token=token)


def typed_buttons(
    turn: Turn, reply: Reply, entries: Sequence[shelves.Entry], items: Sequence[ItemDoc]
) -> Reply:
    """✓ buttons for a typed list's lines that are not done."""
    done = {i.id for i in items if i.done}
    return with_mark_buttons(turn, reply, [e for e in entries if e.item_id not in done])


def is_mark_button(token: str | None) -> bool:
    return bool(token) and str(token).startswith(BUTTON_PREFIX)


async def press(deps: Deps, turn: Turn) -> Reply:
    """A ✓ button: the line it stands for, on the list it was shown with, marked done."""
    lang = turn.language
    stamp = str(turn.incoming.choice_token)[len(BUTTON_PREFIX) :]
    current = shelves.shown(turn)
    if current is None or list_stamp(current.entries) != stamp:
        return finish(turn, text("mark_button_stale", lang), kind="deterministic")
    entry = current.at((turn.incoming.choice or 0) + 1)
    if entry is None:
        return finish(turn, text("mark_button_stale", lang), kind="deterministic")
    item = await deps.db.items.get(turn.user_id, entry.item_id)
    if item is None:
        return finish(turn, text("already_gone", lang), kind="deterministic")
    turn.facts.apply_rule("shelf_reference")
    outcome = await mark(deps, turn, item, "seen")
    incode.record(turn, "mark_item", {"item_id": item.id, "state": "seen"}, outcome)
    if isinstance(outcome, Marked) and outcome.changed:
        turn.tools_executed.append("mark_item")
    return outcome_reply(turn, outcome)


# -- /pais ----------------------------------------------------------------------------------------


def handlers(deps: Deps) -> dict[str, Callable[[Turn, str], Awaitable[Reply]]]:
    async def country(turn: Turn, args: str) -> Reply:
        lang = turn.language
        code = args.strip().upper()
        if len(code) != 2 or not code.isascii() or not code.isalpha():
            body = text("country_usage", lang, country=country_of(turn))
            return finish(turn, body, kind="deterministic")
        await deps.db.users.set_country(turn.user_id, code)
        turn.user = turn.user.model_copy(update={"country": code})
        return finish(turn, f"{OK_MARK} " + text("country_set", lang, country=code), kind="effect")

    return {"pais": country, "country": country}
