"""Backpressure: a webhook answers 503 before recording anything while the backlog is too big.

The backlog is this process's admitted updates not yet finished. When more than
`MAX_BACKLOG` wait, or the oldest has waited more than `MAX_BACKLOG_AGE_S`, new
updates are refused with 503 and `Retry-After`: the platform holds them and
redelivers later, instead of a queue (and reply delays) growing without bound.
Nothing is recorded for a refused update, so its redelivery is simply new.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from aiohttp import web

from agent.metrics import Metrics
from config.logging import log_event

log = logging.getLogger("lembra.web")

Reason = Literal["size", "age"]
RETRY_AFTER_S = 5
WARN_EVERY_S = 5.0


@dataclass
class Backlog:
    """Admitted, unfinished updates of this process, oldest first."""

    max_size: int
    max_age_s: float
    clock: Callable[[], float] = time.monotonic
    _since: dict[str, float] = field(default_factory=dict)
    _warned_at: float = float("-inf")

    def add(self, update_id: str) -> None:
        self._since.setdefault(update_id, self.clock())

    def done(self, update_id: str) -> None:
        self._since.pop(update_id, None)

    def __len__(self) -> int:
        return len(self._since)

    def oldest_age_s(self) -> float:
        oldest = next(iter(self._since.values()), None)
        return 0.0 if oldest is None else self.clock() - oldest

    def full(self) -> Reason | None:
        """Why a new update must wait now, or None when it may come in."""
        if len(self._since) >= self.max_size:
            return "size"
        if self.oldest_age_s() > self.max_age_s:
            return "age"
        return None

    def refusal(self, metrics: Metrics, channel: str, reason: Reason) -> web.Response:
        """Count and (at most every few seconds) log a refusal; the 503 to answer."""
        metrics.updates.labels(channel, f"refused_{reason}").inc()
        now = self.clock()
        if now - self._warned_at >= WARN_EVERY_S:
            self._warned_at = now
            log_event(
                log,
                "backpressure",
                level=logging.WARNING,
                channel=channel,
                reason=reason,
                backlog=len(self._since),
                oldest_s=round(self.oldest_age_s(), 1),
                max_backlog=self.max_size,
                max_backlog_age_s=self.max_age_s,
            )
        return web.Response(
            status=503, text="busy, retry later", headers={"Retry-After": str(RETRY_AFTER_S)}
        )
