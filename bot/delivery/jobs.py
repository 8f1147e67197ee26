"""The background jobs every serving mode runs: `lembra serve` and `lembra telegram --polling`.

Each runs in whichever process holds its leader lease `job:<name>` (bot/delivery/leader.py),
next to the lifecycle's own (re-drive, lease sweep):

    background   expired pending actions, idle-session handovers, due consolidations
                 (`agent.conversation.background.run_due`)
    reminders    due reminders pushed to the chat they were set in (`deliver_due`)

Scheduled in one place so a mode cannot forget one (issue 30: polling confirmed
reminders and never sent them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from agent.conversation.background import run_due
from agent.conversation.delivery import Pusher, deliver_due
from agent.deps import Deps
from bot.delivery.lifecycle import UpdateLifecycle


@dataclass(frozen=True)
class JobTimes:
    """How often each job runs; tests shorten them."""

    background_every_s: float = 30.0
    reminders_every_s: float | None = None  # None: REMINDERS_EVERY_S


def schedule_jobs(
    lifecycle: UpdateLifecycle, deps: Deps, pusher: Pusher, times: JobTimes | None = None
) -> None:
    """Put the background jobs on `lifecycle`'s schedule (they start with `lifecycle.start()`)."""
    times = times or JobTimes()
    lifecycle.schedule("background", times.background_every_s, partial(run_due, deps))
    every_s = times.reminders_every_s or deps.settings.reminders_every_s
    lifecycle.schedule("reminders", every_s, partial(deliver_due, deps, pusher))
