"""Daily token quotas (DESIGN 3.9): reserve before each model call, settle after it.

Reservations are single conditional updates on the `usage` day documents (the
condition `tokens + n <= limit` is in the filter), so concurrent turns cannot
overspend. The day is the user's local day, so quotas reset at their midnight.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from agent.deps import Deps
from agent.errors import QuotaExceeded
from agent.ledgering import append_event
from agent.turn import Turn
from storage.usage import GLOBAL


class Quotas:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def day(self, turn: Turn) -> str:
        """The user's local calendar day (YYYY-MM-DD)."""
        try:
            zone = ZoneInfo(turn.user.timezone)
        except (ValueError, KeyError):
            zone = ZoneInfo(self.deps.settings.default_timezone)
        return self.deps.clock.now().astimezone(zone).date().isoformat()

    def user_limit(self, turn: Turn) -> int:
        if turn.user.daily_token_quota is not None:
            return turn.user.daily_token_quota
        settings = self.deps.settings
        return (
            settings.admin_daily_token_quota
            if self.deps.is_admin(turn.user_id)
            else settings.user_daily_token_quota
        )

    async def reserve(self, turn: Turn, tokens: int) -> None:
        """Reserve `tokens` for the user and globally, or raise QuotaExceeded (nothing reserved)."""
        usage, day = self.deps.db.usage, self.day(turn)
        scope: str | None = None
        if not await usage.reserve(turn.user_id, day, tokens, self.user_limit(turn)):
            scope = "user"
        elif not await usage.reserve(
            GLOBAL, day, tokens, self.deps.settings.global_daily_token_cap
        ):
            await usage.add_tokens(turn.user_id, day, -tokens)
            scope = "global"
        if scope is None:
            return
        self.deps.metrics.quota_exceeded.labels(scope).inc()
        await append_event(
            self.deps, turn, "quota_exceeded", {"scope": scope, "day": day, "requested": tokens}
        )
        raise QuotaExceeded(scope)  # type: ignore[arg-type]

    async def settle(self, turn: Turn, *, reserved: int, used: int) -> None:
        """Replace the reservation by what the call really used, and count the call."""
        usage, day = self.deps.db.usage, self.day(turn)
        delta = used - reserved
        if delta:
            await usage.add_tokens(turn.user_id, day, delta)
            await usage.add_tokens(GLOBAL, day, delta)
        await usage.increment(turn.user_id, day, {"model_calls": 1})
