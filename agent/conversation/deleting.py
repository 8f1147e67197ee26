"""Deletions in a turn: one item previewed for its "sim" (or run, or refused), all previewed."""

from __future__ import annotations

from collections.abc import Sequence

from agent.conversation import pending as pendings
from agent.conversation import riskgate
from agent.conversation import shelf as shelves
from agent.conversation.replies import confirm_choices, finish, item_label
from agent.conversation.shelf import PREVIEW_EXAMPLES, kept_shelf
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, items_word, joined, text, type_word
from agent.texts.durations import duration
from agent.tools import estimating
from agent.tools.base import Deleted, NotFound
from agent.tools.finding import execute_delete, one_named
from agent.types import Reply
from agent.understanding.references import deleted_names
from storage.documents import ITEM_TYPES


async def delete_preview(
    deps: Deps,
    turn: Turn,
    item_id: str,
    label: str,
    *,
    item_type: str = "",
    score: float | None = None,
    also: Sequence[pendings.ItemOption] = (),
) -> Reply:
    """Hold one item's deletion (and those of `also`, asked in the same message) for an
    explicit confirmation (DESIGN 3.2); nothing is deleted.

    `score`: how surely the planner's target is the one meant (the matcher's; 100 when
    named by id), shown in the preview's estimate with the similar items that stay. None
    for a target the user picked themselves (a position, a choice): nothing to estimate,
    and a pick by position stays within its three round trips (issue 26).
    """
    shelves.point(turn, item_id, label, item_type)  # "esse" is now this item (DESIGN 10.1)
    shelves.did(turn, "delete", item_type)  # "e o outro também" deletes again
    assessment, limits = await riskgate.assess_delete(deps, turn)
    if assessment.decision == "block":
        return riskgate.refused(turn, assessment, limits, label)
    if assessment.decision == "run" and not also:  # the risk tolerance let it through (issue 13)
        return deleted_reply(turn, await execute_delete(deps, turn, item_id))
    pending = pendings.ConfirmDeleteItem(item_id=item_id, label=label, also=list(also))
    waiting = turn.waiting_delete or turn.open_pending
    if isinstance(waiting, pendings.ConfirmDeleteItem) and item_id not in _ids(waiting):
        # a deletion asked while another waited for its "sim": one question for both
        earlier = [pendings.ItemOption(item_id=waiting.item_id, label=waiting.label)]
        pending.also = [*earlier, *waiting.also, *also]
        dropped = text("pending_dropped", turn.language)
        turn.notes = [n for n in turn.notes if n != dropped]
    if pending.also:
        label = joined([*(o.label for o in pending.also), label], turn.language)
    await pendings.store(deps, turn, pending)
    estimate = (
        await _estimate(deps, turn, item_id, score, reversible=assessment.reversible)
        if score is not None
        else []
    )
    return finish(
        turn,
        text("delete_preview", turn.language, label=label, expires=_expires(deps, turn))
        + "\n"
        + riskgate.preview_line(turn, assessment, label)
        + "".join("\n" + line for line in estimate),
        kind="preview",
        choices=confirm_choices(turn),
        choice_kind="confirm",
        choice_token=pending.token,
    )


async def several_named(deps: Deps, turn: Turn, message: str) -> Reply | None:
    """ "apaga a série Irmandade e o link tb": each thing named, one question for them all;
    None unless every part names one item for sure and no two the same ("apaga Velozes e
    Furiosos" is one title's)."""
    names = deleted_names(message)
    if names is None:
        return None
    found = [await one_named(deps.db, turn.user_id, n, turn.user.counts) for n in names]
    items = [item for item in found if item is not None]
    if len(items) != len(names) or len({item.id for item in items}) != len(items):
        return None
    *also, last = items
    options = [pendings.ItemOption(item_id=i.id, label=item_label(i)) for i in also]
    return await delete_preview(
        deps, turn, last.id, item_label(last), item_type=last.type, also=options
    )


async def delete_all_preview(deps: Deps, turn: Turn) -> Reply:
    """Hold deleting everything for an explicit confirmation, with counts and examples."""
    lang = turn.language
    counts = {t: int(turn.user.counts.get(t, 0)) for t in ITEM_TYPES}
    total = sum(counts.values())
    if total == 0:
        return finish(turn, text("delete_all_nothing", lang), kind="deterministic")
    kept = kept_shelf(turn.user)
    examples = (
        kept.oldest
        if kept is not None
        else [
            item_label(i)
            for i in await deps.db.items.list_for(turn.user_id, limit=PREVIEW_EXAMPLES)
        ]
    )
    breakdown = ", ".join(f"{type_word(t, lang)}: {n}" for t, n in counts.items() if n)
    pending = pendings.ConfirmDeleteAll(count=total, up_to_seq=turn.user.item_seq)
    turn.facts.apply_rule("dry_run_preview")
    body = text(
        "delete_all_preview",
        lang,
        count=total,
        items=items_word(total, lang),
        breakdown=breakdown,
        examples=", ".join(examples),
        expires=_expires(deps, turn),
    )
    return await pendings.ask_to_confirm(deps, turn, pending, body)


async def _estimate(
    deps: Deps, turn: Turn, item_id: str, score: float, *, reversible: bool
) -> list[str]:
    """The preview's estimate lines (undo is already in its outcome line); none if it is gone."""
    item = await deps.db.items.get(turn.user_id, item_id)
    if item is None:
        return []
    estimate = await estimating.of_targets(
        deps.db, turn.user_id, [(score, item)], reversible=reversible, type_counts=turn.user.counts
    )
    return riskgate.estimate_lines(estimate, turn.language)


def _expires(deps: Deps, turn: Turn) -> str:
    """How long the preview waits for its "sim", in words, from PENDING_TTL_SECONDS."""
    return duration(deps.settings.pending_ttl_seconds, turn.language)


def _ids(pending: pendings.ConfirmDeleteItem) -> set[str]:
    return {pending.item_id, *(o.item_id for o in pending.also)}


async def confirmed(deps: Deps, turn: Turn, pending: pendings.ConfirmDeleteItem) -> Reply:
    """The "sim" to a deletion: the item, and any asked for while it waited, deleted."""
    gone: list[str] = []
    for option in pending.also:
        outcome = await execute_delete(deps, turn, option.item_id)
        if isinstance(outcome, Deleted):
            gone.append(item_label(outcome.item))
    last = await execute_delete(deps, turn, pending.item_id)
    if not gone:
        return deleted_reply(turn, last)
    gone += [item_label(last.item)] if isinstance(last, Deleted) else []
    label = joined(gone, turn.language)
    return finish(turn, f"{OK_MARK} " + text("deleted", turn.language, label=label), kind="effect")


def deleted_reply(turn: Turn, outcome: Deleted | NotFound) -> Reply:
    """Say that an item was deleted, or that it was already gone."""
    if isinstance(outcome, NotFound):
        return finish(turn, text("already_gone", turn.language), kind="deterministic")
    return finish(
        turn,
        f"{OK_MARK} " + text("deleted", turn.language, label=item_label(outcome.item)),
        kind="effect",
    )
