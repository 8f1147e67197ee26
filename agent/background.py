"""Background work that falls due with time: expiring pending actions (more joins it later).

`run_due` is called by the scheduler in `lembra serve` and, in a replay, before a
turn whose `advance` moved the clock, so that its effects count as that turn's.
"""

from __future__ import annotations

from agent.deps import Deps


async def expire_pending(deps: Deps) -> int:
    """Remove pending actions whose deadline has passed (inclusive); return how many."""
    now = deps.clock.ms()
    expired = await deps.db.pending.expired(now)
    for pending in expired:
        await deps.db.pending.delete(pending.user_id, pending.id)
    return len(expired)


async def run_due(deps: Deps) -> None:
    """Run every background job that is due at the clock's current time."""
    await expire_pending(deps)
