"""References to the shelf in a turn (DESIGN 10.1): "apaga o 2", "mostra a segunda", "muda esse para X".

Read in code (agent/understanding/references.py) and resolved against the conversation's
shelf (agent/conversation/shelf.py), with no model call: a deletion is previewed and waits
for its "sim"; "show" reads the item; a bookmark and an explicit edit run their tools.
Resolving costs no database read: the shelf is on the user document the turn has read.
A number the shelf does not have gets a plain reply ("A lista tinha 3 itens").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from pydantic import ValidationError

from agent.conversation import deleting, incode, memorycmd, retyping
from agent.conversation import shelf as shelves
from agent.conversation.batching import save_batch
from agent.conversation.replies import finish, item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, plural, text
from agent.tools.base import (
    DeletePreview,
    Failed,
    Remembered,
    Tool,
    ToolArgs,
    ToolContext,
    UnknownItem,
    Updated,
)
from agent.tools.finding import find_items
from agent.types import Reply
from agent.understanding.batches import Batch, PieceType
from agent.understanding.facts import (
    TYPED,
    ListEdit,
    changed_value,
    corrected_value,
    given_back,
    holds_words,
    list_edit,
    list_edited,
    naming_overlap,
    note_value,
    put_value,
    read_fact,
    renamed,
    replace_alike,
    restated,
    rewritten,
    said_title,
    states_value,
    swap_in,
    swapped,
)
from agent.understanding.references import Reference, Target, named_titles, read_reference
from agent.understanding.textnorm import fold, one_line
from agent.understanding.vocabulary import ANOTHER_REQUEST
from storage.documents import ITEM_TYPES, ItemDoc


@dataclass(frozen=True, slots=True)
class Miss:
    why: Literal["no_shelf", "out_of_range", "which"]
    shelf: shelves.Shown | None = None


_YEAR_ONLY = re.compile(r"^\(?(\d{4})\)?$")
_TITLE_AND_YEAR = re.compile(r"^(?P<title>.*\S)\s*[(,-]\s*(?P<year>\d{4})\)?$")


async def act(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], message: str
) -> Reply | None:
    """Answer `message` in code when it points at the shelf; None when it does not."""
    current = shelves.shown(turn)
    ref = read_reference(message) or stated(message)
    if ref is None or ref.correction or ref.bare:
        # "actually it's 555-0134", "ops, é 181" right after a note: a value of the note,
        # not its title nor line 181
        restated_ref = await _restated(deps, turn, message)
        if restated_ref is not None:
            ref, current = restated_ref, shelves.shown(turn)  # the note it names, now "it"
    if ref is None and (said := _said_then_saved(message)) is not None:
        # "two films, Past Lives and Aftersun. save the first one": what the message named
        ref, named = said
        shelves.did(turn, "named", named=named)
    if ref is not None and ref.action == "save":
        return await save_named(deps, turn, ref.target)
    if ref is not None and ref.target.kind == "both":
        return None  # "os dois" names the two things only a save reads
    said_why = False
    if ref is None and (why := _said_why(message)) is not None:
        ref, said_why = (
            why,
            True,
        )  # "já liguei pro encanador, pode apagar essa": why, then the deletion
    if ref is None and (
        (ref := await _changed(deps, turn, message)) is not None
        or (ref := await _renamed(deps, turn, message)) is not None
    ):
        current = shelves.shown(turn)  # the item it names, now what "it" names
    if ref is None:
        return None
    found = locate(current, ref.target)
    if isinstance(found, Miss) and said_why and found.shelf is not None:
        # "essa" among several lines: the one the reason names ("já liguei pro encanador")
        found = _named_by(found.shelf.entries, message) or found
    if isinstance(found, Miss) and found.why == "which" and ref.field == "year" and ref.correction:
        # "ops o ano é 2011" right after a list was saved: the year of the last one saved
        found = await _last_saved_line(deps, turn, found)
    if isinstance(found, Miss):
        if found.why == "no_shelf" and ref.bare:
            return None  # "1" with nothing shown: the caller's (a stray choice, or a title)
        if found.why == "which" and (
            ref.correction or found.shelf is None or not found.shelf.entries
        ):
            return None  # "esse" with nothing shown this session: the planner has the history
        if found.why == "no_shelf" and ref.target.kind == "ordinal" and ref.target.value == -1:
            newest = await _newest(deps, turn, ref.target)  # "apaga o último": the last one saved
            if newest is None:
                return None
            found = shelves.entry_of(newest, 0)
        elif found.why != "which" and ref.target.kind == "number" and ref.target.type:
            return None  # "apaga o filme 300" names a title, not a line of the list
        else:
            return _missed(turn, ref, found)
    if ref.correction and found.type not in ("movie", "tv_show"):
        return None  # "é o de 2021" about a note or a link: the planner has the conversation
    if ref.instead_of and not _was(found.label, ref):
        return None  # "era pra ser Ronin, não Matrix" where the line is Heat: not this line
    if ref.fix and not await retyping.last_effect_on(deps, turn, found.item_id):
        return None  # "corrige: 17h" after a reminder is not about the item: the planner's
    turn.facts.apply_rule("shelf_reference")
    match ref.action:
        case "delete":
            incode.record(turn, "delete_item", {"item_id": found.item_id}, _previewed(found))
            return await deleting.delete_preview(
                deps, turn, found.item_id, found.label, item_type=found.type
            )
        case "show":
            return await show(deps, turn, found)
        case "bookmark":
            return await _bookmark(deps, turn, tools, found, ref)
        case "edit":
            return await _edit(deps, turn, tools, found, ref)
        case "save":  # saved above: a save points at titles named off the list, not a line
            return None


def _said_then_saved(message: str) -> tuple[Reference, tuple[str, ...]] | None:
    """A save of something named earlier in the same message ("me indicaram dois filmes, A e
    B. salva o primeiro") and the titles named before it ("type:title"); None otherwise."""
    parts = [p for p in re.split(r"(?<=[.!;])\s+|\n+", message.strip()) if p.strip()]
    if len(parts) < 2:
        return None
    ref = read_reference(parts[-1])
    if ref is None or ref.action != "save":
        return None
    named = named_titles(" ".join(parts[:-1]))
    return (ref, tuple(f"{kind}:{title}" for kind, title in named)) if named else None


async def save_named(deps: Deps, turn: Turn, target: Target) -> Reply | None:
    """ "salva ele", "save the first one", "add both", "e o segundo tb" after a save: the
    titles the last reply or the user's last message named off the list, saved as the type
    they were named with (or the type said now); None (the planner's) when the reference
    does not pick them for sure: nothing named, an ordinal past them, a type unknown."""
    last = shelves.last_action(turn)
    named = list(last.named) if last is not None else []
    if named:
        shelves.keep_named(turn)  # a save asked back ("filme ou série?") still points at them
    if target.kind == "both":
        chosen = named if len(named) == 2 else []
    elif target.kind == "ordinal":
        index = target.value - 1 if target.value > 0 else target.value
        chosen = [named[index]] if -len(named) <= index < len(named) else []
    elif target.kind == "pronoun":
        chosen = named[-1:]  # the one the last answer named
    else:
        chosen = []
    return await _save_chosen(deps, turn, target, chosen, named)


async def save_other_named(deps: Deps, turn: Turn) -> Reply | None:
    """ "e o outro também" after "salva o primeiro" of two titles named: the one title named
    that is not saved yet; None when none or several are left."""
    last = shelves.last_action(turn)
    named = list(last.named) if last is not None else []
    left = []
    for one in named:
        title = one.partition(":")[2]
        found = await find_items(deps.db, turn.user_id, title)
        if not any(_bare_title(i.title or "") == _bare_title(title) for i in found):
            left.append(one)
    return (
        await _save_chosen(deps, turn, Target("pronoun"), left, named) if len(left) == 1 else None
    )


async def _save_chosen(
    deps: Deps, turn: Turn, target: Target, chosen: list[str], named: list[str]
) -> Reply | None:
    """The titles `chosen` ("type:title") saved, of the type `target` says if it says one."""
    pieces: list[str] = []
    types: list[PieceType] = []
    for one in chosen:
        kind, _, title = one.partition(":")
        kind = target.type or kind
        if kind not in ("movie", "tv_show", "note") or not title:
            return None
        pieces.append(title)
        types.append("movie" if kind == "movie" else "tv_show" if kind == "tv_show" else "note")
    if not pieces:
        return None
    turn.facts.apply_rule("shelf_reference")
    reply = await save_batch(deps, turn, Batch("mixed", tuple(pieces), types=tuple(types)))
    # "e o segundo também": the titles named stay there to point at
    kept = shelves.last_action(turn)
    shelves.did(turn, "save", kept.type if kept is not None else "", named=tuple(named))
    return reply


def _was(label: str, ref: Reference) -> bool:
    """Whether the line `label` has what `ref` takes back: its title, or its year when the
    year is corrected ("it's 2010 not 2008" on "Midnight Ferry (2008)")."""
    if ref.field == "year":
        return label.endswith(f"({ref.instead_of})")
    return _titled(label, ref.instead_of)


def _titled(label: str, title: str) -> bool:
    """Whether the line `label` ("Heat (1995)") is the title `title` the user named."""
    shown = fold(label)
    named = fold(title)
    return bool(named) and (shown == named or re.sub(r" \d{4}$", "", shown) == named)


def _said_why(message: str) -> Reference | None:
    """The deletion a message's last clause asks for after clauses saying why ("já liguei
    pro encanador, pode apagar essa"): only a deletion, which asks "sim" before it deletes."""
    parts = [p for p in re.split(r"[,.;!]+", message) if p.strip()]
    if len(parts) < 2 or len(message) > 300:
        return None
    ref = read_reference(parts[-1].strip())
    if ref is None or ref.action != "delete" or ref.target.kind != "pronoun":
        return None
    before = " ".join(parts[:-1])
    if read_reference(before) is not None or ANOTHER_REQUEST.search(fold(before)):
        return None  # "salva X, apaga essa": two requests, the planner's
    return None if _NEGATED.search(fold(before)) else ref


def _named_by(entries: Sequence[shelves.Entry], message: str) -> shelves.Entry | None:
    """The one line whose words the clauses before the request share most ("já liguei pro
    encanador" names "ligar pro encanador": a word of 4 letters or more, its first 5 alike);
    None when none or several do."""
    before = " ".join(re.split(r"[,.;!]+", message)[:-1])
    said = {w[:5] for w in fold(before).split() if len(w) >= 4}
    scores = [
        (len(said & {w[:5] for w in fold(e.label).split() if len(w) >= 4}), e) for e in entries
    ]
    best = max((score for score, _ in scores), default=0)
    named = [e for score, e in scores if score == best]
    return named[0] if best > 0 and len(named) == 1 else None


# a negation before a deletion ("não, não apaga essa") takes it back: no reason for it
_NEGATED: Final = re.compile(r"\b(?:nao|not|don'?t|dont)\b")


def stated(message: str) -> Reference | None:
    """ "e o ano é 1982", "é de 2015 na vdd", "o nome é X": a fact setting a field of the item
    just named, as the correction of it; None for a fact of no field Lembra keeps."""
    fact = read_fact(message)
    if fact is None or fact.field is None:
        return None
    target = Target("pronoun", 0, TYPED.get(fact.attribute))  # "a série é X": the series
    return Reference("edit", target, field=fact.field, value=fact.value, correction=True)


async def _last_saved_line(deps: Deps, turn: Turn, missed: Miss) -> shelves.Entry | Miss:
    """The line of the list the user's last message saved that their newest save put there,
    a film or a show; `missed` when the list was shown since or the newest effect saved
    nothing on it."""
    last = shelves.last_action(turn)
    if last is None or last.action != "save":
        return missed  # a list shown since: which line is meant is the planner's
    item = await retyping.last_saved(deps, turn)
    entries = missed.shelf.entries if missed.shelf is not None else []
    line = next((e for e in entries if item is not None and e.item_id == item.id), None)
    return line if line is not None and line.type in ("movie", "tv_show") else missed


async def _restated(deps: Deps, turn: Turn, message: str) -> Reference | None:
    """ "a senha é 1234" right after saving "senha do wifi 1233", "é 2301 e não 2310" on a
    note holding 2310, or "opa, é apto 12" on "apto 21" (the one value of the new one's
    shape): that note with the new value, as a fix of the item the user's last effect
    touched; or, when the correction's words name another note that holds a value of that
    shape ("o codigo do rastreio ta errado, o certo é QB...56BR" after two notes), that
    one. None unless certain."""
    if not states_value(message) and not any(c.isdigit() for c in message):
        return None
    named = await _named_note_fixed(deps, turn, message)
    if named is not None:
        return named
    one = shelves.shown(turn)
    entry = one.single if one is not None else None
    if entry is None or entry.type != "note":
        return None
    item = await deps.db.items.get(turn.user_id, entry.item_id)
    if item is None:
        return None
    note = item.content or ""
    content = restated(message, note) or given_back(message, note)
    if content is None and (value := corrected_value(message)) is not None:
        content = replace_alike(note, value)  # "opa, é apto 12 na vdd" on "apto 21"
    if content is None:
        return None
    return Reference("edit", Target("pronoun"), value=content, fix=True)


async def _named_note_fixed(deps: Deps, turn: Turn, message: str) -> Reference | None:
    """The note a correction names by its words ("o codigo do rastreio ta errado, o certo é
    X") with the corrected value in place of the one of its shape; None unless exactly one
    note, of those that take the value, shares the most words with the message."""
    value = corrected_value(message)
    if value is None:
        return None
    notes = await deps.db.items.list_for(turn.user_id, item_type="note")
    fits = [
        (naming_overlap(message, item.content or ""), item, content)
        for item in notes
        if (
            content := given_back(message, item.content or "")
            or replace_alike(item.content or "", value)
        )
    ]
    best = max((score for score, _, _ in fits), default=0)
    named = [(item, content) for score, item, content in fits if score == best]
    if best == 0 or len(named) != 1:
        return None
    item, content = named[0]
    shelves.point_at(turn, item)
    return Reference("edit", Target("pronoun"), value=content)


async def _changed(deps: Deps, turn: Turn, message: str) -> Reference | None:
    """ "muda a senha do portão pra 7788" with a note "senha do portão 1234" saved any time,
    or "na nota do churrasco troca linguiça por picanha": that note with the new value; None
    unless exactly one note holds those words (and one word of the value's shape after them,
    or the words to swap once)."""
    asked = changed_value(message)
    swap = swapped(message) if asked is None else None
    whole = rewritten(message) if asked is None and swap is None else None
    valued = note_value(message) if asked is None and swap is None and whole is None else None
    listed = list_edit(message) if asked is None and swap is None and whole is None else None
    if asked is None and swap is None and whole is None and valued is None and listed is None:
        return None
    if listed is not None and not listed.where:
        return await _list_note_edited(deps, turn, listed)  # "e acrescenta banana"
    found: list[tuple[ItemDoc, str]] = []
    notes = await deps.db.items.list_for(turn.user_id, item_type="note")
    for item in notes:
        content: str | None = None
        if asked is not None:
            content = put_value(item.content or "", *asked)
        elif swap is not None:
            content = swap_in(item.content or "", swap)
        elif whole is not None and holds_words(item.content or "", whole[0]):
            content = whole[1]  # "change the dinner note to say ...": its whole new text
        elif valued is not None and holds_words(item.content or "", valued[0]):
            content = replace_alike(item.content or "", valued[1])  # "the alarm note to K#42"
        elif listed is not None and holds_words(item.content or "", listed.where, loose=True):
            content = list_edited(item.content or "", listed)  # "tira o café da lista do X"
        if content is not None:
            found.append((item, content))
    if not found and swap is not None and swap.where:
        # "in the packing note" of a note "pack charger, ...": its name said in another form
        swaps = ((i, swap_in(i.content or "", swap, loose=True)) for i in notes)
        found = [(item, content) for item, content in swaps if content is not None]
    if len(found) != 1:
        return None
    item, content = found[0]
    shelves.point_at(turn, item)
    return Reference("edit", Target("pronoun"), value=content)


async def _list_note_edited(deps: Deps, turn: Turn, listed: ListEdit) -> Reference | None:
    """ "e acrescenta banana", "cross off milk" with no note named: the list note the
    conversation just saved or changed; None when its last action touched no note."""
    last = shelves.last_action(turn)
    one = shelves.shown(turn)
    entry = one.single if one is not None else None
    item: ItemDoc | None
    if entry is None or entry.type != "note" or last is None or last.action not in ("save", "edit"):
        if not listed.pointed:
            return None
        newest = await deps.db.items.newest_of_type(turn.user_id, "note", 1)  # "that note"
        item = newest[0] if newest else None
        if item is not None:
            shelves.point_at(turn, item)
    else:
        item = await deps.db.items.get(turn.user_id, entry.item_id)
    content = list_edited(item.content or "", listed) if item is not None else None
    return Reference("edit", Target("pronoun"), value=content) if content is not None else None


async def _renamed(deps: Deps, turn: Turn, message: str) -> Reference | None:
    """ "muda o ano do Scarface pra 1932", "rename the show X to Y": the one item titled so,
    with the new title or year; None unless exactly one item has that title."""
    asked = renamed(message)
    if asked is None:
        return None
    wanted = _bare_title(asked.name)
    found = await find_items(deps.db, turn.user_id, asked.name)
    named = [i for i in found if i.type != "note" and _bare_title(i.title or "") == wanted]
    if len(named) != 1:
        return None
    shelves.point_at(turn, named[0])
    return Reference("edit", Target("pronoun"), field=asked.field, value=asked.value)


def _bare_title(title: str) -> str:
    """A title folded, without a leading article ("The Office" is "office")."""
    words = fold(title).split()
    return " ".join(words[1:] if len(words) > 1 and words[0] in _ARTICLES else words)


_ARTICLES = frozenset("o a os as the an um uma".split())


def _previewed(entry: shelves.Entry) -> DeletePreview:
    """What the planner's `delete_item` would have returned for this entry (for the record)."""
    stand_in = ItemDoc(
        _id=entry.item_id,
        user_id="",
        seq=0,
        type=entry.type if entry.type in ITEM_TYPES else "note",
        title=entry.label,
        dedup_key="",
        created_at_ms=0,
        updated_at_ms=0,
    )
    return DeletePreview(stand_in, implicit=False)


def locate(shelf: shelves.Shown | None, target: Target) -> shelves.Entry | Miss:
    """The shelf entry `target` names, or why there is none."""
    if target.kind == "pronoun":
        one = shelf.single if shelf is not None else None
        if target.type and (one is None or (one.type and one.type != target.type)):
            of_type = shelf.of_type(target.type) if shelf is not None else []
            one = of_type[0] if len(of_type) == 1 else None  # "a série" among a film and it
        return one if one is not None else Miss("which", shelf)
    if shelf is None or not shelf.entries:
        return Miss("no_shelf")
    if target.kind == "number":
        entry = shelf.at(target.value)
        if target.type and (entry is None or entry.type != target.type):
            of_type = shelf.of_type(target.type)  # "a nota 2": the second note shown
            entry = of_type[target.value - 1] if 1 <= target.value <= len(of_type) else entry
        return entry if entry is not None else Miss("out_of_range", shelf)
    ordered = sorted(
        shelf.of_type(target.type) if target.type else shelf.entries, key=lambda e: e.number
    )
    if not ordered:
        return Miss("no_shelf")  # "o último filme" with no movie listed: the newest movie
    index = target.value - 1 if target.value > 0 else target.value
    if not -len(ordered) <= index < len(ordered):
        return Miss("out_of_range", shelf)
    return ordered[index]


async def _newest(deps: Deps, turn: Turn, target: Target) -> ItemDoc | None:
    if target.type:
        found = await deps.db.items.newest_of_type(turn.user_id, target.type, 1)
    else:
        found = await deps.db.items.newest(turn.user_id, 1)
    return found[0] if found else None


def _missed(turn: Turn, ref: Reference, miss: Miss) -> Reply:
    lang = turn.language
    turn.facts.apply_rule("shelf_reference_unresolved")
    if miss.why == "no_shelf":
        body = text("shelf_none", lang)
    elif miss.why == "out_of_range":
        assert miss.shelf is not None
        count = len(miss.shelf.entries)
        numbers = sorted(e.number for e in miss.shelf.entries)
        body = text("shelf_out_of_range", lang, items=plural(count, "item", lang))
        if numbers and numbers[0] != 1:
            body += " " + text("shelf_numbers", lang, first=numbers[0], last=numbers[-1])
    elif miss.shelf is not None and miss.shelf.entries:
        lines = [
            f"{e.number}. {e.label}" for e in sorted(miss.shelf.entries, key=lambda e: e.number)
        ]
        body = "\n".join([text("shelf_which", lang), *lines[:20]])
    else:
        body = text("shelf_which_none", lang)
    return finish(turn, body, kind="deterministic")


async def show(deps: Deps, turn: Turn, entry: shelves.Entry) -> Reply:
    """The item behind a shelf entry, in full."""
    item = await deps.db.items.get(turn.user_id, entry.item_id)
    if item is None:
        return finish(turn, text("already_gone", turn.language), kind="deterministic")
    shelves.point_at(turn, item)
    shelves.did(turn, "show", item.type)  # "and the next"
    return finish(turn, shown_text(item, entry.number, turn.language), kind="deterministic")


def shown_text(item: ItemDoc, number: int, lang: Literal["pt", "en"]) -> str:
    """One item in full: its label, its kind, and what the label leaves out."""
    head = f"{number}. {item_label(item)}" if number else item_label(item)
    lines = [head, f"({plural(1, item.type, lang, with_count=False)})"]
    if item.type == "note" and item.content and item_label(item) != item.content:
        lines.append(one_line(item.content, 1_500))
    if item.type in ("link", "video") and item.url and item.url not in head:
        lines.append(item.url)
    extra = item.overview or item.description
    if extra:
        lines.append(one_line(extra, 400))
    return "\n".join(lines)


async def _bookmark(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], entry: shelves.Entry, ref: Reference
) -> Reply:
    tool = tools["bookmark"]
    args = tool.args_model.model_validate(
        {"item_id": entry.item_id, "note": one_line(ref.note or entry.label, 300)}
    )
    outcome = await tool.run(ToolContext(deps, turn, wants_save=False), args)
    incode.record(turn, "bookmark", args.model_dump(), outcome)
    if isinstance(outcome, UnknownItem):
        return finish(turn, text("already_gone", turn.language), kind="deterministic")
    assert isinstance(outcome, Remembered | Failed)
    if isinstance(outcome, Remembered):
        turn.tools_executed.append("bookmark")
        shelves.point(turn, entry.item_id, entry.label, entry.type)
    return memorycmd.tool_reply(turn, outcome)


def edit_fields(item: ItemDoc, ref: Reference) -> dict[str, object] | str:
    """The update_item fields an explicit edit means for this item, or a text key saying why not."""
    value = ref.value.strip()
    dated = item.type in ("movie", "tv_show")
    if ref.field == "year":
        year = _YEAR_ONLY.match(value)
        if not dated:
            return "edit_no_year"
        return {"year": int(year.group(1))} if year else "edit_year_invalid"
    if item.type == "note":
        return {"content": value}
    if dated and ref.field is None and (year := _YEAR_ONLY.match(value)) is not None:
        return {"year": int(year.group(1))}  # "muda o 2 para 2021"
    if dated and ref.field in (None, "title") and (both := _TITLE_AND_YEAR.match(value)):
        return {"title": both.group("title"), "year": int(both.group("year"))}  # "X (2007)"
    if dated and (ref.fix or ref.correction):
        return {"title": said_title(value)}  # "corrige: é Interestelar, com e"
    return {"title": value}


async def _edit(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], entry: shelves.Entry, ref: Reference
) -> Reply:
    lang = turn.language
    item = await deps.db.items.get(turn.user_id, entry.item_id)
    if item is None:
        return finish(turn, text("already_gone", lang), kind="deterministic")
    fields = edit_fields(item, ref)
    if isinstance(fields, str):
        return finish(turn, text(fields, lang), kind="deterministic")
    tool = tools["update_item"]
    try:
        args = tool.args_model.model_validate({"item_id": item.id, **fields})
    except ValidationError:
        return finish(turn, text("edit_invalid", lang), kind="deterministic")
    outcome = await tool.run(ToolContext(deps, turn, wants_save=False), args)
    incode.record(turn, "update_item", args.model_dump(), outcome)
    if isinstance(outcome, Updated):
        turn.tools_executed.append("update_item")
        shelves.point_at(turn, outcome.item)
        shelves.did(turn, "edit", outcome.item.type)
        body = f"{OK_MARK} " + text("item_updated", lang, label=item_label(outcome.item))
        return finish(turn, body, kind="effect")
    if isinstance(outcome, Failed) and outcome.failure.reason:
        return finish(turn, text(outcome.failure.reason, lang), kind="deterministic")
    return finish(turn, text("already_gone", lang), kind="deterministic")
