"""Changing what a saved item is (issue 34): "é uma série", "it's a note", in code.

The offline planner saves a bare title ("salva inception") as a movie and says so; a
correction right after it ("é uma série", "na verdade é uma nota") changes the type of
the item the user saved last (their newest effect, within the session's idle time).
The change is one `item_updated` event (`fields: ["type"]`, content-free) whose
payload names a snapshot of the item as it was, kept 24 hours: «desfaz» puts it back
(agent/trust/inverses.py).
A movie becoming a TV show keeps its title and year and loses what TMDB said about the
movie; a title becoming a note becomes its text ("Inception (2010)"), and a short one-line
note a title (its "(2010)" the year again, so the dedup key is the one it had).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import cast, get_args

from agent.conversation import shelf as shelves
from agent.conversation.replies import finish, item_label, titled_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.step import StepResult
from agent.texts import OK_MARK, joined, text
from agent.tools.base import Saved
from agent.tools.saving import dedup_key
from agent.trust.ledgering import append_event
from agent.types import Reply
from agent.understanding.kinds import (
    Retype,
    correction,
    named_correction,
    names_a_movie,
    of_several,
    placed_correction,
)
from agent.understanding.textnorm import fold, one_line
from storage.documents import ItemDoc, LedgerDoc
from storage.errors import DuplicateKey

RETYPABLE = frozenset({"movie", "tv_show", "note"})
# What titled_label writes after a title: a note made of one becomes that title and year again
_LABEL_YEAR = re.compile(r"^(?P<title>.*\S)\s+\((?P<year>1[89]\d\d|20\d\d|2100)\)$")
MAX_TITLE_CHARS = 200
# The effects a correction could be about: the newest one must be a save (or a retype).
# A reminder set (or changed, cancelled) or an item marked since then is what a correction
# after it is about, never the item saved before it.
_EFFECTS = frozenset(
    {
        "item_saved",
        "item_deleted",
        "all_deleted",
        "item_updated",
        "undone",
        "reminder_set",
        "reminder_changed",
        "reminder_cancelled",
        "item_marked",
    }
)


@dataclass(frozen=True, slots=True)
class Asked:
    kind: Retype
    name: str = ""  # the title the correction names ("o Dark é uma série"), folded
    place: int = 0  # the line of the last save it names ("o terceiro é série"); -1 the last


def asked_type(turn: Turn) -> Asked | None:
    """The type the message corrects the last save, or the title it names, to ("é uma
    série", "o Dark na vdd é uma série"), or None."""
    if turn.incoming.kind != "text":
        return None
    said = turn.incoming.text or ""
    if (kind := correction(said)) is not None:
        return Asked(kind)
    if (placed := placed_correction(said)) is not None:
        return Asked(placed[1], place=placed[0])
    named = named_correction(said)
    return Asked(named[1], named[0]) if named is not None else None


def kind_of(word: str) -> Retype | None:
    """`word` (a type a shelf kept) as a type a correction can make, or None."""
    for kind in get_args(Retype):
        if word == kind:
            return cast(Retype, kind)
    return None


def announce_guess(turn: Turn, result: StepResult, reply: Reply) -> Reply:
    """A bare title the offline planner saved as a movie: say it guessed, and how to correct it."""
    outcome = result.outcome
    if (
        result.tool != "enrich_movie"
        or not isinstance(outcome, Saved)
        or not outcome.created
        or outcome.item.type != "movie"
        or names_a_movie(turn.incoming.text or "")
    ):
        return reply
    turn.facts.apply_rule("type_guessed")
    body = f"{OK_MARK} " + text(
        "saved_guessed_movie", turn.language, label=item_label(outcome.item)
    )
    guessed = finish(turn, body, kind="saved_with_caveat" if outcome.caveats else "effect")
    return replace(reply, text=guessed.text, meta=guessed.meta)


async def retype(deps: Deps, turn: Turn, asked: Asked) -> Reply | None:
    """Change the type of the user's last saved item to `asked.kind`, or of the one recent
    save `asked.name` names (None, for the planner, when it names none or several); of
    every item the last message saved when the correction speaks of several ("são séries",
    "they're shows")."""
    lang, kind = turn.language, asked.kind
    if asked.name:
        named = await _recent_named(deps, turn, asked.name)
        if named is None:
            return None  # "o Dark é uma série" with no Dark just saved: not sure which
        turn.facts.apply_rule("type_corrected_in_code")
        return await retype_item(deps, turn, named, kind)
    if asked.place:
        several = await _last_several(deps, turn)
        index = asked.place - 1 if asked.place > 0 else asked.place
        if not -len(several) <= index < len(several):
            return None  # "o terceiro" with no third line just saved: the planner's
        turn.facts.apply_rule("type_corrected_in_code")
        return await retype_item(deps, turn, several[index], kind)
    turn.facts.apply_rule("type_corrected_in_code")
    several = await _last_several(deps, turn) if of_several(turn.incoming.text or "") else []
    if len(several) > 1:
        outcomes = [await _retype_one(deps, turn, item, kind) for item in several]
        changed = [item for item in outcomes if isinstance(item, ItemDoc)]
        reasons = [reason for reason in outcomes if isinstance(reason, str)]
        if not changed:
            return finish(turn, "\n".join(dict.fromkeys(reasons)), kind="deterministic")
        labels = joined([item_label(item) for item in changed], lang)
        kinds = text(f"kinds_{kind}", lang)
        body = f"{OK_MARK} " + text("retyped_several", lang, kinds=kinds, labels=labels)
        if reasons:  # some were that type already, or could not change: said below
            body += "\n" + "\n".join(dict.fromkeys(reasons))
        return finish(turn, body, kind="effect")
    item = await last_saved(deps, turn)
    if item is None:
        return finish(turn, text("retype_nothing", lang), kind="deterministic")
    return await retype_item(deps, turn, item, kind)


async def retype_item(deps: Deps, turn: Turn, item: ItemDoc, kind: Retype) -> Reply:
    """`item` made a `kind`, said; the shelf keeps it as the one talked about, and the
    retype as the last action ("e o outro tb", "the last one too" carry it)."""
    lang = turn.language
    done = await _retype_one(deps, turn, item, kind)
    if isinstance(done, str):
        return finish(turn, done, kind="deterministic")
    shelves.point_at(turn, done)
    shelves.did(turn, "retype", kind)
    body = f"{OK_MARK} " + text(
        "retyped", lang, kind=text(f"kind_{kind}", lang), label=item_label(done)
    )
    return finish(turn, body, kind="effect")


async def _recent_named(deps: Deps, turn: Turn, name: str) -> ItemDoc | None:
    """The one item on the list just shown, or else saved this session, whose title is
    `name` (folded, articles aside); None when none or several are."""
    wanted = _bare(name)
    shelf = shelves.shown(turn)
    ids = [e.item_id for e in shelf.entries] if shelf is not None else []
    since = turn.now_ms - deps.settings.handover_idle_minutes * 60_000
    events = await deps.db.ledger.events_in(turn.user_id, since, turn.now_ms)
    ids += [str(e.payload.get("item_id", "")) for e in reversed(events) if e.type == "item_saved"]
    found: dict[str, ItemDoc] = {}
    for item_id in dict.fromkeys(ids):
        item = await deps.db.items.get(turn.user_id, item_id) if item_id else None
        if item is not None and item.type in RETYPABLE and _bare(item_label(item)) == wanted:
            found[item.id] = item
        elif item is not None and item.title and _bare(item.title) == wanted:
            found[item.id] = item
    return next(iter(found.values())) if len(found) == 1 else None


def _bare(title: str) -> str:
    """A title folded without its leading article or its year, for comparing what is said."""
    words = fold(_LABEL_YEAR.sub(r"\g<title>", title)).split()
    return " ".join(words[1:] if len(words) > 1 and words[0] in _ARTICLES else words)


_ARTICLES = frozenset("o a os as the um uma an".split())


async def _retype_one(deps: Deps, turn: Turn, item: ItemDoc, kind: Retype) -> ItemDoc | str:
    """`item` made a `kind` (one `item_updated` event, undoable), or why not, said."""
    lang = turn.language
    label = item_label(item)
    kind_word = text(f"kind_{kind}", lang)
    if item.type == kind:
        return text("retype_same", lang, label=label, kind=kind_word)
    if item.type not in RETYPABLE:
        return text("retype_not_possible", lang, label=label)
    fields = _fields(item, kind)
    if fields is None:
        return text("retype_too_long", lang)
    if await deps.db.items.find_by_dedup(turn.user_id, str(fields["dedup_key"])) is not None:
        return text("retype_duplicate", lang, label=label, kind=kind_word)
    batch = f"retype:{turn.turn_id}:{item.id}"
    await deps.db.snapshots.keep(turn.user_id, batch, [item], turn.now_ms)
    try:
        changed = await deps.db.items.update_fields(turn.user_id, item.id, fields, turn.now_ms)
    except DuplicateKey:  # saved as that type meanwhile
        return text("retype_duplicate", lang, label=label, kind=kind_word)
    if changed is None:
        return text("retype_nothing", lang)
    await deps.db.users.move_count(turn.user_id, item.type, kind)
    payload = {
        "item_id": item.id,
        "type": kind,
        "from_type": item.type,
        "fields": ["type"],
        "snapshot": batch,
    }
    await append_event(deps, turn, "item_updated", payload)
    return changed


def undoable(event: LedgerDoc) -> bool:
    """Whether `event` is a change «desfaz» can put back from its snapshot."""
    return event.type == "item_updated" and bool(event.payload.get("snapshot"))


async def last_effect_on(deps: Deps, turn: Turn, item_id: str) -> bool:
    """Whether the user's newest effect (within the session's idle time) saved or changed `item_id`."""
    item = await last_saved(deps, turn)
    return item is not None and item.id == item_id


async def _last_several(deps: Deps, turn: Turn) -> list[ItemDoc]:
    """The items the user's newest saves put on the list just shown (a batch: "salva X e Y"),
    when those saves are the user's newest effects; else none."""
    since = turn.now_ms - deps.settings.handover_idle_minutes * 60_000
    events = await deps.db.ledger.events_in(turn.user_id, since, turn.now_ms)
    shelf = shelves.shown(turn)
    listed = {entry.item_id for entry in shelf.entries} if shelf is not None else set()
    ids: list[str] = []
    for event in reversed(events):
        if event.type not in _EFFECTS:
            continue
        item_id = str(event.payload.get("item_id", ""))
        if event.type != "item_saved" or item_id not in listed:
            break
        ids.append(item_id)
    items = [await deps.db.items.get(turn.user_id, item_id) for item_id in reversed(ids)]
    return [item for item in items if item is not None]


async def last_saved(deps: Deps, turn: Turn) -> ItemDoc | None:
    """The item of the user's newest effect when that effect saved (or retyped) it, recently."""
    since = turn.now_ms - deps.settings.handover_idle_minutes * 60_000
    events = await deps.db.ledger.events_in(turn.user_id, since, turn.now_ms)
    newest = next((e for e in reversed(events) if e.type in _EFFECTS), None)
    if newest is not None and newest.type == "undone" and newest.payload.get("count"):
        # a correction undone: the item it put back is still the one being talked about
        undone = str(newest.payload.get("event_hash"))
        newest = next((e for e in events if e.hash == undone and undoable(e)), None)
    if newest is None or newest.type not in ("item_saved", "item_updated"):
        return None
    return await deps.db.items.get(turn.user_id, str(newest.payload.get("item_id", "")))


def _fields(item: ItemDoc, kind: Retype) -> dict[str, object] | None:
    """The fields that make `item` a `kind`, or None when its text cannot be a title."""
    if kind == "note":
        content = titled_label(item.title or "", item.year) if item.title else item.content
        return {
            "type": "note",
            "content": content,
            "title": None,
            "original_title": None,
            "year": None,
            "tmdb_id": None,
            "overview": None,
            "enriched": False,
            "dedup_key": dedup_key("note", content=content),
        }
    title = item.title if item.type != "note" else one_line(item.content or "", 10_000)
    if not title or "\n" in (item.content or "") or len(title) > MAX_TITLE_CHARS:
        return None
    year = item.year
    if item.type == "note":  # "Inception (2010)", a movie made a note: the same key again
        labelled = _LABEL_YEAR.match(title)
        title, year = (labelled["title"], int(labelled["year"])) if labelled else (title, None)
    return {
        "type": kind,
        "title": title,
        "content": None,
        "year": year,
        # TMDB's id and overview describe the other kind of thing: they go
        "tmdb_id": None,
        "overview": None,
        "enriched": False,
        "dedup_key": dedup_key(kind, title=title, year=year),
    }
