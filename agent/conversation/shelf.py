"""The shelf (DESIGN 10.1): what the conversation was last shown, numbered, and the list cache.

Two things live here, both on the user document:

- The conversation's shelf (`users.shelves.<slot>`, the slot of the conversation's pending
  action): the entries of the last numbered list, search result, choice or summary the
  user was shown (display number, item id, label, type), and the one item the last reply
  that named exactly one item was about (its focus: a save, a preview, an item shown).
  "o 2", "a segunda", "o último", "esse", "it" resolve against it in code
  (agent/conversation/pointing.py). It is valid while the session that showed it is open
  (a new session starts with none), not for the 2 minutes of a pending action. A turn
  stages its change (`Turn.shelf_change`); the change is written in the same round trip
  as the turn's pending action when it holds one, else with the turn's other user fields.
- The list cache: what `lista tudo` shows and the delete-all preview names (ids and
  labels), under a key made of the counters every change to the items moves: `item_seq`,
  `items_v` and `counts`. A cache whose key is not the user's current one is never shown.
  A save extends it in the same round trip that finishes the save (agent/trust/effects.py):
  the new key is the one the user document has after that save alone, so if anything else
  changed the items meanwhile the keys differ and the next list reads the items again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.conversation.replies import item_label
from agent.conversation.turn import Turn
from agent.understanding.textnorm import fold
from storage.documents import ITEM_TYPES, ItemDoc, UserDoc
from storage.pending import pending_key, pending_slot

LIST_PER_TYPE = 10
PREVIEW_EXAMPLES = 3  # the delete-all preview names this many of the oldest items
SHELF_FORMAT = 2  # part of the key: what the cache holds changes with it
MAX_ENTRIES = 60  # a shelf keeps at most this many entries (two pages of a typed list)
MAX_NAMED = 3  # titles off the list the last action named, kept for "salva os dois"


_YEAR_AFTER = re.compile(r"\s*\(\d{4}\)\s*$")

# -- the conversation's shelf --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One numbered line the user was shown: what "o 2" names."""

    number: int  # as displayed (0: named alone, not in a numbered list)
    item_id: str
    label: str
    type: str

    def stored(self) -> list[Any]:
        return [self.number, self.item_id, self.label, self.type]


@dataclass(frozen=True, slots=True)
class Last:
    """What the conversation last did (issue 41): "e o outro também", "and this week?" and
    "e a série X tb" carry it to a message that says only what is new."""

    action: str  # save, delete, list, count, find, show, edit
    type: str = ""  # the item type it was about, if one
    period: str = ""  # a list's or a count's period, if one
    # titles it named off the list ("type:title", the type "" when unknown): what "salva ele"
    # and "save the first one" save (agent/conversation/pointing.py `save_named`)
    named: tuple[str, ...] = ()

    @property
    def off_list(self) -> tuple[str, ...]:
        """The titles named that are still off the list: none once the last action saved
        them (they stay in `named` for "e o segundo tb")."""
        return () if self.action == "save" else self.named

    def stored(self) -> list[Any]:
        core: list[Any] = [self.action, self.type, self.period]
        return [*core, list(self.named)] if self.named else core


@dataclass(frozen=True, slots=True)
class Shown:
    entries: tuple[Entry, ...]
    focus: Entry | None  # the one item the last reply naming exactly one was about
    last: Last | None = None

    def at(self, number: int) -> Entry | None:
        """The entry displayed as `number`; -1 is the last one, -2 the one before."""
        if number < 0:
            ordered = sorted(self.entries, key=lambda e: e.number)
            return ordered[number] if -len(ordered) <= number else None
        return next((e for e in self.entries if e.number == number), None)

    def of_type(self, item_type: str) -> list[Entry]:
        return [e for e in self.entries if e.type == item_type]

    @property
    def single(self) -> Entry | None:
        """What "esse", "ele", "it" name: the focus, or the only entry of a one-line list."""
        if self.focus is not None:
            return self.focus
        return self.entries[0] if len(self.entries) == 1 else None

    def stored(self, at_ms: int) -> dict[str, Any]:
        return {
            "entries": [e.stored() for e in self.entries],
            "focus": self.focus.stored() if self.focus is not None else None,
            "last": self.last.stored() if self.last is not None else None,
            "at_ms": at_ms,
        }


def entry_of(item: ItemDoc, number: int) -> Entry:
    return Entry(number, item.id, item_label(item), item.type)


def _slot(turn: Turn) -> str:
    return pending_slot(pending_key(turn.user_id, turn.conversation_id))


def _parse_entry(raw: Any) -> Entry | None:
    if not isinstance(raw, list | tuple) or len(raw) != 4:
        return None
    number, item_id, label, item_type = raw
    if not (isinstance(number, int) and isinstance(item_id, str) and isinstance(label, str)):
        return None
    return Entry(number, item_id, label, str(item_type))


def _parse_last(raw: Any) -> Last | None:
    if not isinstance(raw, list | tuple) or len(raw) not in (3, 4):
        return None
    core, named = raw[:3], raw[3] if len(raw) == 4 else []
    if not all(isinstance(part, str) for part in core) or not core[0]:
        return None
    if not isinstance(named, list) or not all(isinstance(n, str) for n in named):
        return None
    return Last(core[0], core[1], core[2], tuple(named[:MAX_NAMED]))


def _parse(raw: Any) -> Shown | None:
    if not isinstance(raw, dict):
        return None
    entries = tuple(e for e in map(_parse_entry, raw.get("entries") or []) if e is not None)
    focus = _parse_entry(raw.get("focus"))
    last = _parse_last(raw.get("last"))
    if not entries and focus is None and last is None:
        return None
    return Shown(entries, focus, last)


def shown(turn: Turn) -> Shown | None:
    """The conversation's shelf as this turn sees it: staged this turn, or kept this session."""
    if turn.shelf_change is not None:
        return _parse(turn.shelf_change)
    return _kept(turn)


def _kept(turn: Turn) -> Shown | None:
    """The shelf kept on the user document for this session (what the turn started with)."""
    raw = turn.user.shelves.get(_slot(turn))
    if not raw or not turn.user.session_open:
        return None  # a new session starts with nothing on the shelf
    started = turn.user.session_start_ms or 0
    if not isinstance(raw.get("at_ms"), int) or raw["at_ms"] < started:
        return None
    return _parse(raw)


# -- item handles: an id as the model sees it on the shelf ---------------------------------

HANDLE_LENGTH = 8  # of an id's 32 hex digits: a full id is 32 prompt tokens for Qwen's tokenizer


def handle(item_id: str) -> str:
    """The short form of an item id the situation shows beside a shelf line (issue 28)."""
    return item_id[:HANDLE_LENGTH]


def shelf_ids(turn: Turn) -> frozenset[str]:
    """The full ids of the items on the shelf: the kept one the situation showed, and the
    one this turn staged (a step after a search may name what it found)."""
    return frozenset(
        entry.item_id
        for shelf in (_kept(turn), shown(turn))
        if shelf is not None
        for entry in (*shelf.entries, *((shelf.focus,) if shelf.focus else ()))
    )


# words that name the one item the last reply was about, as the situation tells the model
# ("este"/"esta" are not among them: folded, "está" is "esta")
_ONE_ITEM_WORDS = re.compile(
    r"\b(?:it|that one|this one|ele|ela|dele|dela|nele|nela|esse|essa|desse|dessa)\b"
)
# "superbad não, o outro": a no beside a name may leave that item out, so nothing is read
_NEGATION = re.compile(r"\b(?:nao|n|no|not|nem|nunca|never|except|menos|sem)\b")
# ... unless the no is the state asked for: "mark it as not seen", "ainda não vi"
_NOT_SEEN = re.compile(
    r"\b(?:nao|n|not)\s+(?:yet\s+)?(?:seen|watched|visto|vista|vi|assisti|assistido|lido|read)\b"
)


def named_on_shelf(turn: Turn, text: str) -> str | None:
    """The full id of the one item on the shelf `text` names, or None.

    By its whole title ("and coco too" when the last list showed Coco), when exactly one
    line's title is in the message; titles under four letters ("It", "Up") are never read
    from running text. Else by a word for the one item just talked about ("mark it as not
    seen"), when the shelf has one (its focus, or its only line). A message with a no in it
    reads nothing: the item named may be the one left out."""
    said = f" {' '.join(fold(text).replace('#', ' ').split())} "
    if _NEGATION.search(_NOT_SEEN.sub(" ", said)):
        return None
    named: set[str] = set()
    singles: set[str] = set()
    for shelf in (_kept(turn), shown(turn)):
        if shelf is None:
            continue
        if shelf.single is not None:
            singles.add(shelf.single.item_id)
        for entry in (*shelf.entries, *((shelf.focus,) if shelf.focus else ())):
            title = " ".join(fold(_YEAR_AFTER.sub("", entry.label)).split())
            if sum(c.isalpha() for c in title) >= 4 and f" {title} " in said:
                named.add(entry.item_id)
    if named:
        return named.pop() if len(named) == 1 else None
    if len(singles) == 1 and _ONE_ITEM_WORDS.search(said):
        return singles.pop()
    return None


def in_view(turn: Turn) -> Entry | None:
    """The one item the conversation is about ("ele", "it", "esse" name it): the single of the
    shelf kept and of the one staged, when they agree; None when there are two or none."""
    singles = {
        shelf.single.item_id: shelf.single
        for shelf in (_kept(turn), shown(turn))
        if shelf is not None and shelf.single is not None
    }
    return next(iter(singles.values())) if len(singles) == 1 else None


def bare_label(entry: Entry) -> str:
    """The entry's title as shown, without the year after it ("Duna (2021)" is "Duna")."""
    return _YEAR_AFTER.sub("", entry.label).strip()


def expand_ids(value: Any, ids: frozenset[str]) -> Any:
    """`value` (a step's arguments, as the model wrote them) with every `item_id` that is
    the handle of exactly one of `ids` made that full id. Anything else is left as it is:
    an unknown id stays unknown to the tool."""
    if isinstance(value, dict):
        return {
            key: _expanded(item, ids) if key == "item_id" else expand_ids(item, ids)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [expand_ids(item, ids) for item in value]
    return value


def _expanded(item_id: Any, ids: frozenset[str]) -> Any:
    if isinstance(item_id, list):  # mark_item's several items: each a handle
        return [_expanded(one, ids) for one in item_id]
    if not isinstance(item_id, str) or len(item_id) != HANDLE_LENGTH:
        return item_id
    matching = {full for full in ids if full.startswith(item_id.lower())}
    return matching.pop() if len(matching) == 1 else item_id


def _stage(turn: Turn, shelf: Shown) -> None:
    if shown(turn) == shelf:
        return  # the same list shown again: nothing to write
    turn.shelf_change = shelf.stored(turn.now_ms)
    turn.shelf_written = False


def show(turn: Turn, entries: Sequence[Entry]) -> None:
    """The user is shown `entries` (numbered): they become the shelf."""
    kept = tuple(entries[:MAX_ENTRIES])
    focus = kept[0] if len(kept) == 1 else None
    _stage(turn, Shown(kept, focus, _last(turn)))


def _last(turn: Turn) -> Last | None:
    current = shown(turn)
    return current.last if current is not None else None


def did(
    turn: Turn, action: str, item_type: str = "", period: str = "", named: Sequence[str] = ()
) -> None:
    """What this turn did, for a next message that continues it (issue 41); `named`: the
    titles it named that are not on the list, "type:title" (issue 44: "salva os dois")."""
    current = shown(turn)
    last = Last(action, item_type, period, tuple(named)[-MAX_NAMED:])
    turn.named_now = turn.named_now or bool(named)
    if current is None:
        _stage(turn, Shown((), None, last))
    elif current.last != last:
        _stage(turn, Shown(current.entries, current.focus, last))


MAX_NAMED_WORDS = 6  # a query longer than this is no title "salva ele" could save


def found_nothing(turn: Turn, query: str, item_type: str = "") -> None:
    """A search for `query` found nothing: "salva ele" now names what was asked about
    ("e Moonlight, tenho?" -> "então salva ele, é filme"). A subject searched in the notes
    or the links ("tenho nota sobre o dentista?") is no title: nothing is named then."""
    title = " ".join(query.split())
    is_title = item_type in ("", "movie", "tv_show") and len(title.split()) <= MAX_NAMED_WORDS
    named = (f"{item_type}:{title}",) if title and is_title else ()
    did(turn, "find", item_type, named=named)


def keep_named(turn: Turn) -> None:
    """This turn pointed at the titles named ("salva ele" asked back which type): the next
    message may point at them still."""
    turn.named_now = True


def forget_named(turn: Turn) -> None:
    """At the end of a turn that named no title: the titles an earlier turn named are
    forgotten, so "salva isso" after a reply about something else never saves them."""
    current = shown(turn)
    last = current.last if current is not None else None
    if turn.named_now or current is None or last is None or not last.named:
        return
    _stage(turn, Shown(current.entries, current.focus, Last(last.action, last.type, last.period)))


def last_action(turn: Turn) -> Last | None:
    """What the conversation last did, as this turn sees it (kept this session)."""
    return _last(turn)


def show_items(turn: Turn, items: Sequence[ItemDoc], *, first: int = 1) -> list[Entry]:
    """Number `items` from `first` as the reply shows them and make them the shelf."""
    entries = [entry_of(item, n) for n, item in enumerate(items, start=first)]
    show(turn, entries)
    return entries


def point_at(turn: Turn, item: ItemDoc) -> None:
    """The reply named exactly this item: "esse" / "it" now mean it; the list stays."""
    point(turn, item.id, item_label(item), item.type)


def point(turn: Turn, item_id: str, label: str, item_type: str = "") -> None:
    """`point_at` for an item known by its id and label."""
    current = shown(turn)
    entries = current.entries if current is not None else ()
    listed = next((e for e in entries if e.item_id == item_id), None)
    focus = Entry(
        listed.number if listed else 0, item_id, label, item_type or (listed.type if listed else "")
    )
    if current is not None and current.focus == focus:
        return  # nothing changes: nothing to write
    _stage(turn, Shown(entries, focus, current.last if current is not None else None))


def take_staged(turn: Turn) -> dict[str, Any]:
    """The user-document fields that write the staged shelf (empty when nothing is left to write)."""
    if turn.shelf_change is None or turn.shelf_written:
        return {}
    turn.shelf_written = True
    return {f"shelves.{_slot(turn)}": turn.shelf_change}


# -- the list cache ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Shelf:
    newest: dict[
        str, list[tuple[str, str]]
    ]  # type -> (id, label) of its newest items, newest first
    oldest: list[str]  # labels of the user's first items, in creation order
    # DESIGN 11.5: which of `newest` are seen/read/done, and how many of each type are;
    # empty (and not stored) for a user who never marked anything
    done: frozenset[str] = frozenset()
    done_counts: dict[str, int] = field(default_factory=dict)
    counted: bool = False  # `done_counts` were counted (a user who never marked needs none)

    def stored(self, key: str) -> dict[str, Any]:
        """The cache as `users.shelf` holds it, valid for `key`."""
        raw: dict[str, Any] = {
            "key": key,
            "newest": {t: [list(pair) for pair in pairs] for t, pairs in self.newest.items()},
            "oldest": self.oldest,
        }
        if self.done_counts or self.counted:
            raw["done"] = sorted(self.done)
            raw["done_counts"] = dict(self.done_counts)
        return raw


def shelf_key(user: UserDoc) -> str:
    counts = ",".join(str(int(user.counts.get(t, 0))) for t in ITEM_TYPES)
    return f"{SHELF_FORMAT}:{user.item_seq}:{user.items_v}:{counts}"


def kept_shelf(user: UserDoc) -> Shelf | None:
    """The list cache on the user document, when it still shows the items as they are."""
    raw = user.shelf
    if not raw or raw.get("key") != shelf_key(user):
        return None
    newest = {
        str(t): [(str(pair[0]), str(pair[1])) for pair in pairs]
        for t, pairs in dict(raw["newest"]).items()
    }
    done = frozenset(str(i) for i in raw.get("done") or ())
    counts = {str(t): int(n) for t, n in dict(raw.get("done_counts") or {}).items()}
    return Shelf(
        newest=newest,
        oldest=list(raw["oldest"]),
        done=done,
        done_counts=counts,
        counted="done_counts" in raw,
    )


def after_save(user: UserDoc, item: ItemDoc) -> tuple[dict[str, Any], str] | None:
    """The list cache once `item` (numbered by this save) is saved, and the key it replaces.

    None when `user` (as the turn read it) has no current cache to extend.
    """
    kept = kept_shelf(user)
    if kept is None:
        return None
    counts = {t: int(user.counts.get(t, 0)) for t in ITEM_TYPES}
    counts[item.type] += 1
    after = user.model_copy(
        update={"item_seq": item.seq, "items_v": user.items_v + 1, "counts": counts}
    )
    label = item_label(item)
    extended = Shelf(
        newest={
            **kept.newest,
            item.type: [(item.id, label), *kept.newest.get(item.type, [])][:LIST_PER_TYPE],
        },
        oldest=kept.oldest if len(kept.oldest) >= PREVIEW_EXAMPLES else [*kept.oldest, label],
        done=kept.done,
        done_counts=kept.done_counts,
        counted=kept.counted,
    )
    return extended.stored(shelf_key(after)), shelf_key(user)


def after_mark(
    user: UserDoc, item: ItemDoc, *, was_done: bool
) -> tuple[dict[str, Any], str] | None:
    """The list cache once `item` (as the mark left it) changed state, and the key it replaces.

    None when `user` (as the turn read it) has no current cache to change. A mark moves
    `items_v` only (storage/users.py `item_marked`), so that is the new key's one change.
    `was_done`: the item was done before (a new rating on a seen item counts it once).
    """
    kept = kept_shelf(user)
    if kept is None or not (kept.counted or not user.marked):
        return None  # counts never taken for a user who marked before: nothing to move
    after = user.model_copy(update={"items_v": user.items_v + 1})
    counts = dict(kept.done_counts)
    counts[item.type] = max(0, counts.get(item.type, 0) + int(item.done) - int(was_done))
    done = kept.done | {item.id} if item.done else kept.done - {item.id}
    changed = Shelf(
        newest=kept.newest,
        oldest=kept.oldest,
        done=done,
        done_counts={t: n for t, n in counts.items() if n},
        counted=True,
    )
    return changed.stored(shelf_key(after)), shelf_key(user)
