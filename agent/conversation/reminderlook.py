"""Whether a turn needs to read the user's reminders, from a hint on the user document (issue 16).

`users.reminder_hint_ms` says no open reminder is due before it (`NO_REMINDERS`: none
is open). Setting or snoozing a reminder lowers it; a turn that reads the reminders
raises it again to the soonest still open. A turn whose hint lies ahead reads nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.conversation.turn import Turn
from agent.deps import Deps
from storage.documents import NO_REMINDERS, ReminderDoc


def none_open(turn: Turn) -> bool:
    """The user has no open reminder (known without a read)."""
    return turn.user.reminder_hint_ms == NO_REMINDERS


def none_due(turn: Turn) -> bool:
    """No open reminder of the user is due yet (known without a read)."""
    hint = turn.user.reminder_hint_ms
    return hint is not None and hint > turn.now_ms


async def settle(deps: Deps, turn: Turn, still_open: Sequence[ReminderDoc]) -> None:
    """After a read: raise the hint to the soonest reminder still open (when it changes)."""
    hint = min((r.due_at_ms for r in still_open), default=NO_REMINDERS)
    seen = turn.user.reminder_hint_ms
    if hint != seen and await deps.db.users.settle_reminder_hint(turn.user_id, seen, hint):
        turn.user = turn.user.model_copy(update={"reminder_hint_ms": hint})


async def lower(deps: Deps, turn: Turn, due_ms: int) -> None:
    """A reminder of the user is open and due at `due_ms`."""
    await deps.db.users.lower_reminder_hint(turn.user_id, due_ms)
