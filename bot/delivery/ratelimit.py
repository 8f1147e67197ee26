"""Per-user rate limiting of incoming messages (sliding window, in process).

A user who sends more than `limit` messages within `window_s` seconds is limited:
the first message over the limit gets one polite notice, the rest are dropped, and
every message (dropped ones too) counts, so a steady flood stays limited until the
user pauses long enough for the window to drain. Other users are unaffected.

The state lives in this process: with several workers behind a load balancer each
one counts only the messages it receives, so the effective limit is up to `limit`
times the number of workers. That is acceptable for flood protection; a shared
limit would cost a database write per message.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Literal

Verdict = Literal["allow", "notify", "drop"]


@dataclass(slots=True)
class _Window:
    hits: deque[float]
    notified: bool = False


@dataclass
class SlidingWindowLimiter:
    limit: int
    window_s: float
    _users: dict[str, _Window] = field(default_factory=dict, init=False, repr=False)
    _last_sweep: float = field(default=0.0, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.limit < 1 or self.window_s <= 0:
            raise ValueError("limit must be >= 1 and window_s > 0")

    def hit(self, key: str, now_s: float) -> Verdict:
        """Count one message of `key` at `now_s` (monotonic seconds) and judge it."""
        self._sweep(now_s)
        window = self._users.get(key)
        if window is None:
            window = self._users[key] = _Window(deque(maxlen=self.limit))
        # The deque holds the last `limit` hits: full and its oldest inside the window
        # means `limit` messages already arrived within the window.
        limited = len(window.hits) == self.limit and now_s - window.hits[0] < self.window_s
        window.hits.append(now_s)
        if not limited:
            window.notified = False
            return "allow"
        if window.notified:
            return "drop"
        window.notified = True
        return "notify"

    def _sweep(self, now_s: float) -> None:
        """Forget users idle for a whole window (bounded memory)."""
        if now_s - self._last_sweep < self.window_s:
            return
        self._last_sweep = now_s
        idle = [k for k, w in self._users.items() if now_s - w.hits[-1] >= self.window_s]
        for key in idle:
            del self._users[key]
