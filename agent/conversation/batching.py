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

from pydantic import ValidationError

from agent.conversation import shelf as shelves
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ServiceError, ToolFailure
from agent.texts import OK_MARK, plural, text
from agent.tools.base import (
    Candidates,
    Failed,
    Outcome,
    Saved,
    SavedMany,
    Tool,
    ToolArgs,
    ToolContext,
)
from agent.tools.enrich import Lookup, lookup, segment, settle
from agent.trust.confidence import TurnKind
from agent.types import Reply
from agent.understanding.batches import MAX_BATCH, Batch, known_runs
from agent.understanding.textnorm import fold, one_line
from agent.understanding.urls import is_video_url
from storage.documents import ItemDoc


async def save_batch(
    deps: Deps, turn: Turn, tools: dict[str, Tool[ToolArgs]], batch: Batch
) -> Reply:
    """Store every piece of `batch` and say what became of each."""
    turn.facts.apply_rule("several_items_in_code")
    ctx = ToolContext(deps, turn, wants_save=True)
    results: list[tuple[str, Outcome]] = []
    if batch.kind == "titles":
        kind: Literal["movie", "tv"] = "movie" if batch.item_type == "movie" else "tv"
        titles = await _titles(ctx, kind, batch)
        for title, found in titles[:MAX_BATCH]:
            if len(title) > MAX_TITLE:
                results.append((title, _invalid("title too long")))
                continue
            results.append((title, await settle(ctx, kind, title, None, found)))
        left_out = max(0, len(titles) - MAX_BATCH)
    else:
        for piece in batch.pieces[:MAX_BATCH]:
            if batch.kind == "notes":
                tool, args = "save_note", {"content": piece}
            else:
                tool = "save_video" if is_video_url(piece) else "save_link"
                args = {"url": piece}
            chosen = tools[tool]
            try:
                valid = chosen.args_model.model_validate(args)
            except ValidationError:  # a note or a link past the tool's own limits
                results.append((piece, _invalid(f"{tool}: arguments refused")))
                continue
            results.append((piece, await chosen.run(ctx, valid)))
        left_out = max(0, len(batch.pieces) - MAX_BATCH)
    for _, outcome in results:
        if isinstance(outcome, Saved) and outcome.created:
            turn.tools_executed.append(f"save_{outcome.item.type}")
    return many_reply(turn, SavedMany(tuple(results), left_out))


MAX_TITLE = 300  # as save_movie takes it


def _invalid(why: str) -> Failed:
    return Failed(ToolFailure("INVALID_ARGUMENT", "validation", why, "rephrase"))


async def _titles(
    ctx: ToolContext, kind: Literal["movie", "tv"], batch: Batch
) -> list[tuple[str, Lookup]]:
    """The titles of `batch`, joined back where TMDB knows the longer run, with their lookups."""
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
