"""Delivering due reminders (DESIGN 9.3): one worker, at least once, never twice.

The scheduler's leader lease keeps the pass in one worker; each reminder is claimed
by a conditional update (scheduled -> sending) before it is pushed and marked sent
by the claim's owner after, so a second worker never sends it again. A worker killed
between the two leaves a `sending` claim that wakes after REMINDER_RECLAIM_S (two
minutes by default) and is retried: at least once. A repeating reminder's next occurrence
is scheduled by the same conditional update that marks this one sent (DESIGN 11.4), so
each occurrence is sent once across workers. WhatsApp outside the 24-hour
window sends the approved template (`WHATSAPP_REMINDER_TEMPLATE`) or holds the
reminder for the user's next message. A user no longer allowed (ALLOWED_USER_IDS) is
sent nothing: the reminder is held, and logged.
"""

from __future__ import annotations

import logging
from typing import Literal, Protocol

from agent.conversation.access import allows
from agent.conversation.reminding import WHATSAPP_WINDOW_MS, due_reply, mark_sent
from agent.deps import Deps
from agent.trust.ledgering import append_event
from agent.types import Reply
from config.logging import log_event
from storage.documents import ReminderDoc

log = logging.getLogger("lembra.reminders")

PushOutcome = Literal["sent", "retry", "window_closed", "gone"]
RETRY_AFTER_MS = 60_000
MAX_ATTEMPTS = 5


class Pusher(Protocol):
    async def __call__(
        self, reminder: ReminderDoc, reply: Reply, *, template: str | None
    ) -> PushOutcome:
        """Send `reply` (or, with `template`, that template) to the reminder's chat."""
        ...


async def deliver_due(deps: Deps, push: Pusher) -> int:
    """Push every reminder due at the clock's time; return how many were sent."""
    now = deps.clock.ms()
    sent = 0
    stale_ms = int(deps.settings.reminder_reclaim_s * 1000)
    for reminder in await deps.db.reminders.waking(now):
        claimed = await deps.db.reminders.claim(reminder, deps.owner, now, stale_ms=stale_ms)
        if claimed is not None and await _deliver(deps, push, claimed, now):
            sent += 1
    return sent


async def _deliver(deps: Deps, push: Pusher, reminder: ReminderDoc, now: int) -> bool:
    repo = deps.db.reminders
    # removed from the list since setting it (issue 46)
    if not await allows(deps, reminder.user_id):
        await repo.hold(reminder, now)  # kept, never sent: it shows if they are let in again
        log_event(log, "reminder_withheld", reminder_id=reminder.id, user_id=reminder.user_id)
        return False
    template = None
    if reminder.channel == "whatsapp" and not await _window_open(deps, reminder, now):
        template = deps.settings.whatsapp_reminder_template
        if not template:
            await repo.hold(reminder, now)
            return False
    outcome = await push(reminder, due_reply(reminder, now_ms=now), template=template)
    if outcome == "sent":
        if await mark_sent(deps, reminder, deps.clock.ms()):
            payload = {"reminder_id": reminder.id, "attempt": reminder.attempts}
            await append_event(deps, None, "reminder_sent", payload, stream=reminder.user_id)
        return True
    if outcome == "retry" and reminder.attempts < MAX_ATTEMPTS:
        await repo.release(reminder, now + RETRY_AFTER_MS, now)
    else:  # the window closed meanwhile, the user is gone, or retries ran out
        await repo.hold(reminder, now)
    return False


async def _window_open(deps: Deps, reminder: ReminderDoc, now: int) -> bool:
    user = await deps.db.users.get(reminder.user_id)
    return user is not None and now - user.last_seen_at_ms < WHATSAPP_WINDOW_MS
