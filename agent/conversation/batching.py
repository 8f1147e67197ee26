"""Several items saved from one message (issue 26): each stored, one reply for all of them.

The pieces come from agent/understanding/batches.py (read in code, 0 model calls) or from
an enrichment tool that found several titles in one (`SavedMany`). Each piece goes
through the same store path as a single save (tools, dedup, ledger). Titles split on
"e" / "and" are settled by TMDB first when it answers ("velozes e furiosos" is one title);
otherwise the reading without a source stands. At most `MAX_BATCH` are taken.

The reply numbers what is stored (saved now or already there) the way every list is
numbered, and that becomes the shelf; what was not saved is listed with the reason.
"""

from __future__ import annotations

from typing import Literal

from agent.conversation import incode
from agent.conversation import shelf as shelves
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ServiceError
from agent.services.tmdb import clear_candidate
from agent.texts import OK_MARK, plural, text
from agent.tools.base import (
    Candidates,
    Failed,
    Outcome,
    Saved,
    SavedMany,
    ToolContext,
)
from agent.tools.enrich import Lookup, lookup, segment
from agent.tools.several import Entry, save_entries
from agent.tools.several import entry as make_entry
from agent.trust.confidence import TurnKind
from agent.types import Reply
from agent.understanding.batches import MAX_BATCH, Batch, PieceType, known_runs
from agent.understanding.textnorm import fold, one_line
from agent.understanding.urls import is_video_url
from storage.documents import ItemDoc, ItemType


async def save_batch(deps: Deps, turn: Turn, batch: Batch) -> Reply:
    """Store every piece of `batch` (through `save_items`' implementation) and say what became of each."""
    ctx = ToolContext(deps, turn, wants_save=True)
    titles = await _titles(ctx, batch) if batch.kind == "titles" else []
    return await _store(ctx, batch, titles)


async def save_if_settled(deps: Deps, turn: Turn, batch: Batch) -> Reply | None:
    """`save_batch`, or None when the titles were split only on "e" / "and" and TMDB does not
    clearly know each part ("salva X e Y" naming one title TMDB lacks): the planner's."""
    ctx = ToolContext(deps, turn, wants_save=True)
    titles = await _titles(ctx, batch) if batch.kind == "titles" else []
    if batch.confirm and not (len(titles) > 1 and all(_clear(t, found) for t, found, _ in titles)):
        return None
    return await _store(ctx, batch, titles)


def _clear(title: str, found: Lookup) -> bool:
    return isinstance(found, list) and clear_candidate(found, title, None) is not None


_Title = tuple[str, Lookup, ItemType]  # a title, its lookup, the type it is saved as


async def _store(ctx: ToolContext, batch: Batch, titles: list[_Title]) -> Reply:
    turn = ctx.turn
    turn.facts.apply_rule("several_items_in_code")
    entries: list[Entry | tuple[str, Failed]] = []
    left_out = 0
    if batch.kind == "titles":
        for title, found, item_type in titles[:MAX_BATCH]:
            made = make_entry(item_type, title, found=found)
            entries.append((title, made) if isinstance(made, Failed) else made)
        left_out = max(0, len(titles) - MAX_BATCH)
    else:
        types = batch.types or tuple(_piece_type(batch, piece) for piece in batch.pieces)
        abouts = batch.about or ("",) * len(batch.pieces)
        for piece, typed, about in list(zip(batch.pieces, types, abouts, strict=True))[:MAX_BATCH]:
            made = make_entry(typed, piece, about=about)
            entries.append((piece, made) if isinstance(made, Failed) else made)
        left_out = max(0, len(batch.pieces) - MAX_BATCH)
    many = await save_entries(ctx, entries, left_out=left_out)
    incode.record(turn, "save_items", {"items": [_spec_of(e) for e in entries]}, many)
    return many_reply(turn, many)


def _piece_type(batch: Batch, piece: str) -> PieceType:
    if batch.kind == "notes":
        return "note"
    return "video" if is_video_url(piece) else "link"


def _spec_of(one: Entry | tuple[str, Failed]) -> dict[str, object]:
    if isinstance(one, tuple):
        return {"type": "note", "content": one_line(one[0], 60)}
    return one.spec.model_dump(exclude_none=True)


async def _titles(ctx: ToolContext, batch: Batch) -> list[_Title]:
    """The titles of `batch`, joined back where TMDB knows the longer run, with their lookups
    and types: a title whose type no word said, no movie has and TMDB clearly knows as a show
    is that show (as `enrich_movie` decides for one title)."""
    found_as = await _looked_up(ctx, batch)
    if not batch.guessed or batch.item_type != "movie":
        return [(title, found, batch.item_type or "movie") for title, found in found_as]
    out: list[_Title] = []
    for title, found in found_as:
        if found == []:  # no movie by that name: a show TMDB clearly means by it (as one save)
            shows = await lookup(ctx, "tv", title, None)
            if _clear(title, shows):
                out.append((title, shows, "tv_show"))
                continue
        out.append((title, found, "movie"))
    return out


async def _looked_up(ctx: ToolContext, batch: Batch) -> list[tuple[str, Lookup]]:
    kind: Literal["movie", "tv"] = "movie" if batch.item_type == "movie" else "tv"
    seen: dict[str, Lookup] = {}
    out: list[tuple[str, Lookup]] = []
    for run in batch.runs:
        parts = await segment(ctx, kind, run, seen)
        if parts is None:  # TMDB did not answer: the reading without a source stands
            error = next((v for v in seen.values() if isinstance(v, ServiceError)), None)
            for title in known_runs(run):
                out.append(
                    (title, error if error is not None else await lookup(ctx, kind, title, None))
                )
            continue
        for title, found in parts:
            out.append((title, found if found is not None else seen[fold(title)]))
    return out


def many_reply(turn: Turn, many: SavedMany) -> Reply:
    """One reply for several saves: what is stored (numbered), what is not and why."""
    lang = turn.language
    stored: list[tuple[ItemDoc, bool]] = []  # the item, and whether it was already there
    missed: list[str] = []
    for piece, outcome in many.results:
        if isinstance(outcome, Saved):
            stored.append((outcome.item, not outcome.created))
        else:
            reason = _reason(turn, piece, outcome)
            missed.append(f"• «{one_line(piece, 60)}»: {reason}")
    created = sum(1 for _, already in stored if not already)
    entries = shelves.show_items(turn, [item for item, _ in stored])
    types = {item.type for item, _ in stored}
    shelves.did(turn, "save", types.pop() if len(types) == 1 else "")
    lines: list[str] = []
    if created:
        lines.append(f"{OK_MARK} " + text("batch_saved", lang, items=plural(created, "item", lang)))
    elif stored:
        lines.append(text("batch_nothing_new", lang))
    for entry, (_, already) in zip(entries, stored, strict=True):
        suffix = " " + text("batch_already", lang) if already else ""
        lines.append(f"{entry.number}. {entry.label}{suffix}")
    if missed:
        lines.append(text("batch_not_saved", lang, count=len(missed)))
        lines += missed
        turn.facts.add_caveat(text("caveat_batch_missed", lang, count=len(missed)))
    if many.left_out:
        lines.append(text("batch_cut", lang, limit=MAX_BATCH, left=many.left_out))
        turn.facts.add_caveat(text("caveat_batch_cut", lang, left=many.left_out))
    kind: TurnKind = "effect"
    if turn.facts.caveats:
        kind = "saved_with_caveat"
    elif not created and stored:
        kind = "dedup"
    if not stored:
        kind = "unavailable"  # nothing of it is kept: said plainly, as a failure
    return finish(turn, "\n".join(lines), kind=kind)


def _reason(turn: Turn, piece: str, outcome: Outcome) -> str:
    lang = turn.language
    if isinstance(outcome, Candidates):
        if not outcome.candidates:
            return text("batch_reason_lookup_failed", lang)
        return text("batch_reason_several", lang, count=len(outcome.candidates))
    if isinstance(outcome, Failed):
        failure = outcome.failure
        if failure.code in ("INVALID_URL", "LINK_REFUSED"):
            return text(f"url_reason_{failure.reason or 'invalid'}", lang)
        if failure.code == "WRITE_BLOCKED":
            return text("batch_reason_blocked", lang)
        if failure.code == "EMPTY_NOTE":
            return text("batch_reason_empty", lang)
    return text("batch_reason_failed", lang)
