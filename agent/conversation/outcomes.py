"""The reply after a planner step: what follows its status and its tool's outcome (ADR-011)."""

from __future__ import annotations

import dataclasses

from agent.conversation import (
    batching,
    clarifying,
    deleting,
    listing,
    memorycmd,
    offers,
    riskgate,
    watching,
)
from agent.conversation import pending as pendings
from agent.conversation import shelf as shelves
from agent.conversation.replies import finish, item_label, numbered, titled_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.claims import offers_to_act
from agent.planning.step import StepResult
from agent.texts import OK_MARK, has_text, plural, text
from agent.tools.base import (
    Candidates,
    Clarification,
    DeleteChoice,
    DeletePreview,
    Failed,
    Found,
    Listed,
    NotFound,
    PageFetched,
    Remembered,
    Replied,
    Saved,
    SavedMany,
    SaveUnasked,
    Simulated,
    ToolContext,
    Updated,
)
from agent.trust.confidence import TurnKind
from agent.types import Reply
from agent.understanding.textnorm import clean_text, one_line, without_data_tags, without_emojis


async def after_step(
    deps: Deps, turn: Turn, result: StepResult, wants_save: bool, *, offline: bool
) -> Reply:
    """Decide what follows the planner's step (ADR-011): the runtime, not the model."""
    lang = turn.language
    if result.status in ("timeout", "unavailable", "quota", "key_rejected"):
        turn.facts.pipeline = "failed"  # the planning stage could not run
    if result.status in ("timeout", "unavailable", "quota", "failed", "violation", "blocked"):
        turn.facts.apply_rule(f"planner_{result.status}")  # the session's errors (handover)
    match result.status:
        case "timeout":
            return finish(turn, text("model_timeout", lang), kind="unavailable")
        case "unavailable":
            return finish(turn, text("model_unavailable", lang), kind="unavailable")
        case "key_rejected":
            return finish(turn, text("model_key_rejected", lang), kind="unavailable")
        case "quota":
            key = "quota_exceeded_global" if result.detail == "global" else "quota_exceeded"
            return finish(turn, text(key, lang), kind="unavailable")
        case "failed":
            turn.facts.block("pipeline_violation")
            await count_planner_failure(deps, turn)
            return finish(turn, text("planner_failed", lang), kind="blocked")
        case "violation":
            return finish(turn, text("pipeline_violation", lang), kind="blocked")
        case "blocked":
            return finish(turn, text("unknown_item", lang), kind="blocked")
        case "noop":
            await planner_recovered(deps, turn)
            if offline:  # never a silent save: say what it can do, offer to keep it
                return await offers.capabilities(deps, turn)
            return finish(turn, text("noop", lang), kind="answer")
        case "respond":
            await planner_recovered(deps, turn)
            return await model_message(deps, turn, result, kind="answer")
    await planner_recovered(deps, turn)
    return await after_tool(deps, turn, result, wants_save)


async def planner_recovered(deps: Deps, turn: Turn) -> None:
    """Reset the count of planner failures in a row after a step that worked."""
    if turn.user.planner_failures_in_row:
        await deps.db.users.update(turn.user_id, {"planner_failures_in_row": 0})


async def count_planner_failure(deps: Deps, turn: Turn) -> None:
    """Three planner failures in a row ask for a consolidation (DESIGN 3.8)."""
    failures = turn.user.planner_failures_in_row + 1
    fields: dict[str, object] = {"planner_failures_in_row": failures}
    if failures >= 3:
        fields["dream_due"] = "planner_failures"
    await deps.db.users.update(turn.user_id, fields)


async def model_message(deps: Deps, turn: Turn, result: StepResult, *, kind: TurnKind) -> Reply:
    """Deliver the model's own message, already checked (agent/planning/claims.py); an offer
    to act in it is asked as a clarification with options instead."""
    assert result.response is not None
    # The model's text is plain text: controls stripped, never markup.
    message = deliverable(deps, turn, clean_text(result.response.message or ""))
    if message and offers_to_act(message, turn.language):
        return await clarifying.offer(deps, turn, result, message)
    return finish(turn, message or text("noop", turn.language), kind=kind)


def deliverable(deps: Deps, turn: Turn, message: str) -> str:
    """Model text as it may be sent: emojis and the data fences it echoed removed."""
    unfenced = without_data_tags(message)
    if unfenced != message:
        deps.metrics.model_text.labels("data_tag_removed").inc()
        turn.facts.apply_rule("data_tag_removed")
    plain = without_emojis(unfenced)
    if plain != unfenced:
        deps.metrics.model_text.labels("emoji_removed").inc()
        turn.facts.apply_rule("emoji_removed")
    return plain


async def after_tool(deps: Deps, turn: Turn, result: StepResult, wants_save: bool) -> Reply:
    """Reply to the outcome of the tool the planner's step ran."""
    lang = turn.language
    outcome = result.outcome
    if isinstance(outcome, Replied):  # a reminder or undo tool: code phrased the reply
        return outcome.reply
    if result.tool in watching.TOOLS and outcome is not None and not isinstance(outcome, Failed):
        return watching.outcome_reply(turn, outcome)  # DESIGN 11.5
    if isinstance(outcome, Saved):
        return saved_reply(turn, outcome)
    if isinstance(outcome, SaveUnasked):  # the message asked to save nothing: asked instead
        return await offers.ask_to_save(deps, turn, outcome)
    if isinstance(outcome, SavedMany):  # several titles in one (issue 26)
        return batching.many_reply(turn, outcome)
    if isinstance(outcome, Clarification):
        return await clarifying.ask(deps, turn, outcome, result)
    if isinstance(outcome, Updated):
        shelves.point_at(turn, outcome.item)
        shelves.did(turn, "edit", outcome.item.type)
        label = item_label(outcome.item)
        return finish(turn, f"{OK_MARK} " + text("item_updated", lang, label=label), kind="effect")
    if isinstance(outcome, Candidates):
        return await candidates_reply(deps, turn, outcome, wants_save)
    if isinstance(outcome, PageFetched):
        details = "\n".join(one_line(v, 300) for v in (outcome.title, outcome.description) if v)
        return finish(
            turn,
            text("page_info", lang, url=outcome.url, details=details).strip(),
            kind="effect",
        )
    if isinstance(outcome, Found):
        return found_reply(turn, outcome)
    if isinstance(outcome, Listed):  # a list or a count: worded by the runtime, never phrased
        return await listing.listed_reply(ToolContext(deps, turn, wants_save), outcome)
    if isinstance(outcome, Simulated):
        return riskgate.simulated_reply(turn, outcome)
    if isinstance(outcome, DeletePreview):
        if outcome.implicit:
            turn.facts.ambiguity = "implicit"
            query = (
                result.response.args.get("query", "")
                if result.response and result.response.args
                else ""
            )
            turn.facts.caveats.append(
                text("caveat_implicit_match", lang, query=one_line(str(query), 60))
            )
        return await deleting.delete_preview(
            deps,
            turn,
            outcome.item.id,
            item_label(outcome.item),
            item_type=outcome.item.type,
            score=outcome.score,
        )
    if isinstance(outcome, DeleteChoice):
        turn.facts.ambiguity = "unresolved"
        options = [
            pendings.ItemOption(item_id=i.id, label=item_label(i), year=i.year)
            for i in outcome.items
        ]
        pending_choice = pendings.ChooseDelete(query=outcome.query, options=options)
        shelves.show_items(turn, outcome.items)  # the choice is the shelf too (DESIGN 10.1)
        await pendings.store(deps, turn, pending_choice)
        labels = [o.label for o in options]
        return finish(
            turn,
            text("delete_choose", lang) + "\n" + numbered(labels),
            kind="candidates",
            choices=labels,
            choice_kind="pick",
            choice_token=pending_choice.token,
        )
    if isinstance(outcome, NotFound):
        return finish(
            turn,
            text("delete_not_found", lang, query=one_line(outcome.query, 60)),
            kind="effect",
        )
    if isinstance(outcome, Remembered):
        return memorycmd.tool_reply(turn, outcome)  # issue 12: model memory
    assert isinstance(outcome, Failed)
    if outcome.failure.code == "BOOKMARKS_FULL":
        return memorycmd.tool_reply(turn, outcome)
    return failed_reply(turn, outcome)


async def candidates_reply(deps: Deps, turn: Turn, outcome: Candidates, wants_save: bool) -> Reply:
    """Show TMDB candidates, as a pick to save when the user asked to save."""
    lang = turn.language
    labels = [titled_label(c.title, c.year) for c in outcome.candidates]
    query = one_line(outcome.query, 60)
    if not labels:
        # An empty list because TMDB was down is not "not found on TMDB".
        key = "tmdb_lookup_failed" if outcome.caveats else "no_candidates"
        if "caveat_tmdb_not_configured_read" in outcome.caveats:
            if not wants_save and outcome.query.strip():
                # "the show Mr Robot" alone, no TMDB to show: asked to be saved as written
                tool = "save_movie" if outcome.kind == "movie" else "save_tv_show"
                unasked = SaveUnasked(tool, {"title": outcome.query.strip()}, query)
                offer = await offers.ask_to_save(deps, turn, unasked)
                caveat = text("caveat_tmdb_not_configured_read", lang)
                return dataclasses.replace(offer, text=f"{offer.text}\n⚠️ {caveat}")
            key = "tmdb_not_configured_lookup"  # the operator's to fix: no "try again"
        return finish(turn, text(key, lang, query=query), kind="effect")
    if not wants_save:
        return finish(
            turn,
            text("candidates_shown", lang, query=query) + "\n" + numbered(labels),
            kind="effect",
        )
    turn.facts.ambiguity = "unresolved"
    choice = pendings.ChooseCandidate(
        item_type="movie" if outcome.kind == "movie" else "tv_show",
        query=outcome.query,
        options=[
            pendings.CandidateOption(
                tmdb_id=c.tmdb_id,
                title=c.title,
                year=c.year,
                overview=c.overview,
                original_title=c.original_title,
            )
            for c in outcome.candidates
        ],
    )
    await pendings.store(deps, turn, choice)
    return finish(
        turn,
        text("choose_candidate", lang, count=plural(len(labels), "option", lang), query=query)
        + "\n"
        + numbered(labels),
        kind="candidates",
        choices=labels,
        choice_kind="pick",
        choice_token=choice.token,
    )


def saved_reply(turn: Turn, outcome: Saved | Failed | object) -> Reply:
    """Say what a save did: saved, already saved, or why it failed."""
    lang = turn.language
    if isinstance(outcome, Failed):
        return failed_reply(turn, outcome)
    assert isinstance(outcome, Saved)
    shelves.point_at(turn, outcome.item)  # "apaga esse" now names it (DESIGN 10.1)
    shelves.did(turn, "save", outcome.item.type)  # "e a série X também" saves again
    label = item_label(outcome.item)
    if not outcome.created:
        return finish(turn, text("already_saved", lang, label=label), kind="dedup")
    kind: TurnKind = "saved_with_caveat" if outcome.caveats else "effect"
    body = f"{OK_MARK} " + text("saved", lang, label=label)
    where = watching.saved_where_line(outcome.watch, lang)  # TMDB says where it streams
    return finish(turn, f"{body}\n{where}" if where else body, kind=kind)


def found_reply(turn: Turn, outcome: Found) -> Reply:
    """List the items a search found, or say it found none."""
    lang = turn.language
    if not outcome.items:
        shelves.found_nothing(turn, one_line(outcome.query or "", 60))
        body = (
            text("search_none", lang, query=one_line(outcome.query, 60))
            if outcome.query
            else text("search_none_all", lang)
        )
        return finish(turn, body, kind="effect")
    entries = shelves.show_items(turn, outcome.items)
    body = (
        text("search_found", lang, count=len(outcome.items))
        + "\n"
        + "\n".join(f"{e.number}. {e.label}" for e in entries)
    )
    return finish(turn, body, kind="effect")


def failed_reply(turn: Turn, outcome: Failed) -> Reply:
    """Say plainly why a tool failed."""
    lang = turn.language
    failure = outcome.failure
    # the failure's own message is for the model (English, field names): the user reads
    # a text in their language, chosen by code and reason
    reason = text(FAILURE_REASONS.get(failure.code, "failure_reason_other"), lang)
    key = {"INVALID_URL": "invalid_url", "LINK_REFUSED": "link_refused"}.get(failure.code)
    if key is not None:
        reason = text(f"url_reason_{failure.reason or 'invalid'}", lang)
    elif failure.reason and has_text(failure.reason):
        said = text(failure.reason, lang)  # a sentence of its own: lowercase after the colon
        reason = said[:1].lower() + said[1:]
    if failure.code == "LINK_UNAVAILABLE":
        body = text("link_unavailable", lang)
    elif failure.code == "WRITE_BLOCKED":
        body = text("write_blocked", lang, state=failure.reason or "FAIL")
    else:
        body = text(key or "tool_failed", lang, reason=reason)
    return finish(turn, f"{body}", kind="unavailable")


FAILURE_REASONS = {
    "EMPTY_NOTE": "failure_reason_empty_note",
    "NOT_FOUND": "failure_reason_not_found",
    "INVALID_ARGUMENT": "edit_invalid",
}
