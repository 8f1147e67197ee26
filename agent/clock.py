"""The injectable clock: everything that reads time reads it from here."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    def ms(self) -> int:
        """The current time in integer epoch milliseconds."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def ms(self) -> int:
        return time.time_ns() // 1_000_000


class FakeClock:
    """A clock that only moves when told to (replays and tests)."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("FakeClock needs a timezone-aware start")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def ms(self) -> int:
        return int(self._now.timestamp() * 1000)

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)

    def set(self, when: datetime) -> None:
        """Move to `when` (timezone-aware), forwards or back: a bench's next session starts anew."""
        if when.tzinfo is None:
            raise ValueError("FakeClock needs a timezone-aware time")
        self._now = when.astimezone(UTC)
