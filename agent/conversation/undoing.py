"""`desfaz` / `undo` / `/undo` and `refaz` / `redo` (DESIGN 9.4, 11.3), in code.

The last effect is read from the user's own ledger: the newest event of the last 24 hours
that has an inverse (agent/trust/inverses.py: saves, deletions, delete-all, edits and
retypes, reminders set, changed or cancelled, imports, bookmarks, notes) and that no live
`undone` event names. The events one update recorded of one type are one effect (an import,
a save of several items). Repeated, «desfaz» goes further back; «refaz» undoes the newest
undo when nothing was done since. An undo of `apaga tudo` comes back only after a preview
and "sim". Each undo is one recoverable effect keyed by its update (agent/trust/effects.py):
a re-drive answers what the first run said and never reverts a second, older effect.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from datetime import datetime

from agent.conversation import pending as pendings
from agent.conversation import reminding
from agent.conversation.replies import finish, item_label
from agent.conversation.rulewords import describe, rule_of, start_of
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, items_word, text
from agent.trust import effects, inverses
from agent.types import Language, Reply
from agent.understanding.intent import Intent
from agent.understanding.reminders import UndoTarget, undo_target
from agent.understanding.textnorm import fold, one_line
from storage.documents import ItemDoc, LedgerDoc, MemoryDoc, ReminderDoc

WINDOW_MS = 24 * 3600 * 1000
UNDOABLE = frozenset(inverses.INVERSES) - {"undone"}
_EDITED = ("item_updated", "reminder_changed")  # what "desfaz a mudança" names
NAMED_REACH = 20  # how far back a «desfaz» naming its target looks (DESIGN 11.3 asks for 10)


def asks_undo(intent: Intent) -> bool:
    """Whether the message is «desfaz» / «undo» / `/undo`."""
    return intent.action == "command" and intent.entities.get("name") in ("undo", "desfazer")


def names(intent: Intent) -> bool:
    """Whether the «desfaz» names what it undoes ("desfaz o último que eu salvei")."""
    return asks_undo(intent) and undo_target(str(intent.entities.get("args", ""))) is not None


def _cancelled(events: Sequence[LedgerDoc]) -> set[str]:
    """Hashes of the events a live `undone` reverts (an undo «refaz» reverted counts no more)."""
    by_hash = {e.hash: e for e in events}
    cancelled: set[str] = set()
    for event in events:
        if event.type != "undone":
            continue
        targets = _targets(event)
        for target in targets:
            cancelled.add(target)
            undone = by_hash.get(target)
            if undone is not None and undone.type == "undone":  # a redo: its undo counts no more
                cancelled.difference_update(_targets(undone))
    return cancelled


def _targets(undone: LedgerDoc) -> list[str]:
    return [str(undone.payload.get("event_hash")), *map(str, undone.payload.get("also_hashes", ()))]


def _group(events: Sequence[LedgerDoc], newest: int, cancelled: set[str]) -> list[LedgerDoc]:
    """The newest effect's events: every undoable one its update recorded (an import's items,
    notes and reminders, a message that saved several things)."""
    head = events[newest]
    update = _update_of(head)
    group = [head]
    for event in reversed(events[:newest]):
        if update is None or _update_of(event) != update:
            break
        if event.type in UNDOABLE and event.hash not in cancelled:
            group.insert(0, event)
    return group


def _update_of(event: LedgerDoc) -> object:
    """The message an event came from: its update, or the turn that recorded it (a mark)."""
    update = event.payload.get("update_id")
    return update if update is not None else event.payload.get("turn")


async def _swap(deps: Deps, turn: Turn, group: list[LedgerDoc]) -> inverses.Swap | None:
    """What undoing `group` writes: each event type's inverse, merged."""
    by_type: dict[str, list[LedgerDoc]] = {}
    for event in group:
        by_type.setdefault(event.type, []).append(event)
    swaps = []
    for kind, events in by_type.items():
        swap = await inverses.INVERSES[kind](deps, turn.user_id, events, turn.now_ms)
        if swap is not None:
            swaps.append(swap)
    if len(swaps) <= 1:
        return swaps[0] if swaps else None
    main = max(swaps, key=lambda s: (s.key != "undo_reminder_set", s.count))
    return inverses.Swap(
        changes=tuple(c for s in [main, *(s for s in swaps if s is not main)] for c in s.changes),
        key=main.key,
        count=main.count,
        confirm=any(s.confirm for s in swaps),
        batch=next((s.batch for s in swaps if s.batch), None),
    )


async def _recent(deps: Deps, turn: Turn) -> list[LedgerDoc]:
    return await deps.db.ledger.events_in(turn.user_id, turn.now_ms - WINDOW_MS, turn.now_ms)


def _effects(events: Sequence[LedgerDoc]) -> Iterator[list[LedgerDoc]]:
    """The user's effects not undone (each its events), newest first."""
    cancelled = _cancelled(events)
    seen: set[str] = set()
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.type in UNDOABLE and event.hash not in cancelled and event.hash not in seen:
            group = _group(events, index, cancelled)
            seen.update(e.hash for e in group)
            yield group


def last_effect(events: Sequence[LedgerDoc]) -> list[LedgerDoc]:
    """The user's newest effect not undone (its events), or [] when there is none."""
    return next(_effects(events), [])


async def _named_effect(
    deps: Deps, turn: Turn, events: Sequence[LedgerDoc], target: UndoTarget
) -> tuple[list[LedgerDoc], inverses.Swap | None]:
    """The newest effect `target` names (the last save; what it was about, every word of
    `about` in the name its undo would give), with its swap; ([], None) when none is."""
    wanted = set(fold(target.about).split())
    for group in itertools.islice(_effects(events), NAMED_REACH):
        if target.saves or target.edits:
            if group[-1].type in (_EDITED if target.edits else ("item_saved",)):
                return group, await _swap(deps, turn, group)
            continue
        swap = await _swap(deps, turn, group)
        if swap is not None and wanted <= set(fold(_label(swap, turn.language)).split()):
            return group, swap
    return [], None


def last_undo(events: Sequence[LedgerDoc]) -> list[LedgerDoc]:
    """The newest live undo that nothing was done after (what «refaz» reverts), or []."""
    cancelled = _cancelled(events)
    for event in reversed(events):
        if event.type in UNDOABLE:
            return []  # something was done since the undo: there is nothing to redo
        if event.type != "undone" or event.hash in cancelled:
            continue
        if event.payload.get("of_type") == "undone" or not event.payload.get("count"):
            continue  # a redo, or an undo that changed nothing
        return [event]
    return []


async def undo(deps: Deps, turn: Turn, args: str = "") -> Reply:
    """«desfaz»: the last effect, or the one `args` names ("o último que eu salvei")."""
    lang = turn.language
    turn.facts.apply_rule("undo_in_code")
    receipt = _receipt(turn)
    if receipt is not None:  # this update's undo already ran: answer as it did
        return done_reply(turn, receipt)
    if turn.open_pending is not None or turn.waiting_delete is not None:
        # a question was open when this message came ("não, desfaz, mudei de ideia" after
        # "apaga tudo?"): the undo takes the question back, nothing older (DESIGN 11.3)
        await pendings.clear(deps, turn)
        return finish(turn, text("undo_cancelled_question", lang), kind="deterministic")
    events = await _recent(deps, turn)
    target = undo_target(args)
    if target is not None:
        group, swap = await _named_effect(deps, turn, events, target)
        if not group:
            return finish(turn, text("undo_named_nothing", lang), kind="deterministic")
    else:
        group = last_effect(events)
        if not group:
            return finish(turn, text("undo_nothing", lang), kind="deterministic")
        swap = await _swap(deps, turn, group)
    if swap is None:  # nothing left to bring back: recorded, so it is not offered again
        await _run(deps, turn, group, inverses.Swap(changes=(), key="undo_unsaved", count=0))
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    if swap.confirm:
        pending = pendings.ConfirmUndoAll(
            event_hash=group[-1].hash, batch=str(group[-1].payload.get("snapshot", "")),
            count=swap.count,
        )  # fmt: skip
        body = text("undo_all_preview", lang, count=swap.count, items=items_word(swap.count, lang))
        return await pendings.ask_to_confirm(deps, turn, pending, body)
    return await _run(deps, turn, group, swap)


async def redo(deps: Deps, turn: Turn, args: str = "") -> Reply:
    """«refaz» / «redo»: the newest undo reverted, when nothing was done after it."""
    turn.facts.apply_rule("undo_in_code")
    receipt = _receipt(turn)
    if receipt is not None:
        return done_reply(turn, receipt)
    group = last_undo(await _recent(deps, turn))
    swap = (
        await inverses.INVERSES["undone"](deps, turn.user_id, group, turn.now_ms) if group else None
    )
    if swap is None:
        return finish(turn, text("redo_nothing", turn.language), kind="deterministic")
    return await _run(deps, turn, group, swap)


async def confirm_restore_all(deps: Deps, turn: Turn, current: pendings.ConfirmUndoAll) -> Reply:
    """The "sim" after an undo of `apaga tudo`: every snapshot of that deletion comes back."""
    group = last_effect(await _recent(deps, turn))
    if not group or group[-1].hash != current.event_hash:
        return finish(turn, text("undo_gone", turn.language), kind="deterministic")
    swap = await _swap(deps, turn, group)
    if swap is None:
        return finish(turn, text("undo_gone", turn.language), kind="deterministic")
    return await _run(deps, turn, group, swap)


async def _run(deps: Deps, turn: Turn, group: list[LedgerDoc], swap: inverses.Swap) -> Reply:
    head = group[-1]
    plan = inverses.Plan(
        hashes=tuple(e.hash for e in reversed(group)),
        of_type=head.type,
        of_seq=head.seq,
        swap=swap,
        label=_label(swap, turn.language),
        when=_when(deps, turn, swap),
    )
    await effects.undo(deps, turn, plan)
    return done_reply(turn, plan)


def _receipt(turn: Turn) -> inverses.Plan | None:
    """This update's undo, when it already ran (a re-drive of the same update)."""
    kept = turn.user.last_undo
    update = turn.incoming.update_id
    if update is None or not kept or kept.get("update_id") != update:
        return None
    return inverses.Plan.model_validate_json(str(kept["plan"]))


def done_reply(turn: Turn, plan: inverses.Plan) -> Reply:
    """What an undo (or redo) that ran says: what it reverted, by name."""
    lang = turn.language
    swap = plan.swap
    if not swap.changes and swap.batch is None:
        return finish(turn, text("undo_gone", lang), kind="deterministic")
    key = "undo_reminder_back_to" if swap.key == "undo_reminder_changed" and plan.when else swap.key
    body = text(
        key,
        lang,
        label=plan.label,
        when=plan.when,
        count=swap.count,
        items=items_word(swap.count, lang),
        kind=_kind_word(swap, lang),
        state=_state_word(swap, lang),
    )
    return finish(turn, f"{OK_MARK} " + body, kind="effect")


def _when(deps: Deps, turn: Turn, swap: inverses.Swap) -> str:
    """A reminder an undo moves back: the time it has again, as its confirmation said it."""
    subject = swap.subject()
    if swap.key != "undo_reminder_changed" or subject is None or subject.after is None:
        return ""
    reminder = ReminderDoc.model_validate_json(subject.after)
    zone = reminding.zone_of(deps, turn.user.timezone)
    now = datetime.fromtimestamp(turn.now_ms / 1000, zone)
    rule = rule_of(reminder)
    if rule is not None:
        return describe(rule, start_of(reminder).astimezone(zone), turn.language)
    due = datetime.fromtimestamp(reminder.due_at_ms / 1000, zone)
    return reminding.confirm_when_text(due, now, turn.language)


def _kind_word(swap: inverses.Swap, lang: Language) -> str:
    subject = swap.subject()
    if swap.key != "undo_retyped" or subject is None or subject.after is None:
        return ""
    return text(f"kind_{ItemDoc.model_validate_json(subject.after).type}", lang)


def _state_word(swap: inverses.Swap, lang: Language) -> str:
    """What an undone mark left the item as ("para ver"), for `undo_unmarked`."""
    subject = swap.subject()
    if swap.key != "undo_unmarked" or subject is None or subject.after is None:
        return ""
    return text(f"state_{ItemDoc.model_validate_json(subject.after).current_state}", lang)


def _label(swap: inverses.Swap, lang: Language) -> str:
    """The name the reply gives what was undone: the item, the reminder's text, the note."""
    subject = swap.subject()
    if subject is None:
        return ""
    doc = subject.after or subject.before or ""
    match subject.kind:
        case "item":
            label = item_label(ItemDoc.model_validate_json(doc))
        case "reminder":
            label = one_line(ReminderDoc.model_validate_json(doc).text, 120) or text(
                "reminder_no_text", lang
            )
        case "memory":
            label = one_line(MemoryDoc.model_validate_json(doc).text, 120)
    more = swap.count - 1
    return label if more <= 0 else text("undo_and_more", lang, label=label, count=more)
