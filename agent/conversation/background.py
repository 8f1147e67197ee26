"""Background work that falls due with time (DESIGN 1, 3.8).

- expire pending actions whose deadline passed (inclusive: 120 s expires a 2-minute one);
- write the handover of sessions idle for HANDOVER_IDLE_MINUTES: the code's text under
  the conversation's lease, then (background models on) the model's text outside it, so a
  turn that arrives meanwhile never waits for a model call; handovers a turn wrote when it
  found its session idle get their model text here too (issue 28);
- consolidate users whose consolidation is due (02:00 local, every 50 sessions, critical events).

`run_due` is called by the scheduler of `lembra serve` under a leader lease, and by
a replay before a turn whose `advance` moved the clock (its ledger events count as
that turn's).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from agent.conversation.delivery import Pusher, deliver_due
from agent.deps import Deps
from agent.memory.consolidation import LEASE_TTL_MS, consolidate, due_reason
from agent.memory.handover import rewrite_pending, session_idle, write_handover


@dataclass(frozen=True, slots=True)
class BackgroundReport:
    pending_expired: int
    handovers: int
    consolidations: int
    reminders_sent: int = 0


def background_llm(deps: Deps) -> bool:
    """Whether background writers (handovers, archive summaries) may call the model."""
    return deps.model is not None and deps.settings.background_llm


async def expire_pending(deps: Deps) -> int:
    """Remove pending actions whose deadline has passed (inclusive); return how many."""
    expired = await deps.db.pending.sweep(deps.clock.ms())
    await deps.db.snapshots.purge(deps.clock.ms())  # deleted items are kept 24 hours (DESIGN 9.4)
    return len(expired)


async def idle_handovers(deps: Deps) -> int:
    """Close sessions idle for the configured time with a handover."""
    now = deps.clock.ms()
    idle_ms = deps.settings.handover_idle_minutes * 60_000
    written = 0
    for candidate in await deps.db.users.with_open_sessions(now - idle_ms):
        # the conversation's lease: a turn that just arrived closes the session itself
        lease, owner = f"chat:{candidate.id}", f"handover:{deps.owner}:{uuid.uuid4().hex[:8]}"
        if not await deps.db.leases.acquire(lease, owner, ttl_ms=LEASE_TTL_MS, now_ms=now):
            continue
        try:
            user = await deps.db.users.get(candidate.id)  # as it is now that the lease is held
            if user is None or not await session_idle(deps, user, user.id, now):
                continue
            if await write_handover(
                deps,
                user,
                user.id,
                now_ms=now,
                reason="idle",
                use_model=False,
                model_later=background_llm(deps),
            ):
                written += 1
        finally:
            await deps.db.leases.release(lease, owner)
    if background_llm(deps):
        await rewrite_pending(deps)  # the model's text, with no conversation's lease held
    return written


async def due_consolidations(deps: Deps) -> int:
    done = 0
    for user in await deps.db.users.recent(limit=100_000):
        reason = due_reason(deps, user)
        if reason and await consolidate(
            deps, user.id, trigger=reason, use_model=background_llm(deps)
        ):
            done += 1
    return done


async def run_due(deps: Deps, *, push: Pusher | None = None) -> BackgroundReport:
    """Run every background job that is due at the clock's current time.

    Args:
        push: how reminders reach their chats; without one, reminders wait.
    """
    expired = await expire_pending(deps)
    handovers = await idle_handovers(deps)
    consolidations = await due_consolidations(deps)
    sent = await deliver_due(deps, push) if push is not None else 0
    if deps.tally.due(deps.clock.ms()):
        await deps.tally.flush(deps.db.usage)
    return BackgroundReport(expired, handovers, consolidations, sent)
