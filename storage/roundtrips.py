"""Counting one task's database round trips, for the operator's per-turn log line.

`Collection._op` ticks the counter of the current context; the runtime opens one
counter per turn with `counted()`. The counter lives in a context variable so two
turns running at once on one event loop never mix their counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(slots=True)
class RoundTrips:
    """How many round trips the database saw in one context."""

    count: int = 0


_current: ContextVar[RoundTrips | None] = ContextVar("lembra_round_trips", default=None)


def tick() -> None:
    """Count one round trip for the context that is counting (none: nothing to do)."""
    counter = _current.get()
    if counter is not None:
        counter.count += 1


@contextmanager
def counted() -> Iterator[RoundTrips]:
    """Count the round trips made inside the block (tasks it starts share the counter)."""
    counter = RoundTrips()
    token = _current.set(counter)
    try:
        yield counter
    finally:
        _current.reset(token)
