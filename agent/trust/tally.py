"""Per-turn usage counters summed in process and written in one batch now and then (issue 16).

`messages`, `messages_no_model`, `llm_calls` and `states.*` feed `lembra stats`, not
quotas (token reservations stay atomic in `quotas.py`), so a turn adds to memory and
the sums reach `usage` at most every `FLUSH_EVERY_MS`, before `stats`, and at shutdown:
one write per user and day instead of one per turn. A crash loses at most the last
few seconds of these statistics, never a token reservation.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

FLUSH_EVERY_MS = 10_000


class _Usage(Protocol):
    async def increment(self, subject: str, day: str, counters: dict[str, int | float]) -> None:
        """Add to named counters of the day."""


class UsageTally:
    """Counters waiting to be written, by (user, day)."""

    def __init__(self) -> None:
        self._pending: defaultdict[tuple[str, str], defaultdict[str, int | float]] = defaultdict(
            lambda: defaultdict(int)
        )
        self._oldest_ms: int | None = None

    def add(self, subject: str, day: str, counters: dict[str, int | float], *, now_ms: int) -> None:
        """Count a turn in memory."""
        sums = self._pending[(subject, day)]
        for name, n in counters.items():
            sums[name] += n
        if self._oldest_ms is None:
            self._oldest_ms = now_ms

    def due(self, now_ms: int) -> bool:
        """Whether the oldest unwritten count has waited `FLUSH_EVERY_MS`."""
        return self._oldest_ms is not None and now_ms - self._oldest_ms >= FLUSH_EVERY_MS

    async def flush(self, usage: _Usage) -> int:
        """Write every sum (one `$inc` per user and day); return how many documents."""
        batch, self._pending = self._pending, defaultdict(lambda: defaultdict(int))
        self._oldest_ms = None
        for (subject, day), sums in batch.items():
            await usage.increment(subject, day, dict(sums))
        return len(batch)
