"""Refused requests logged without letting callers control the log's volume.

Anyone who reaches the webhook can send wrong secrets as fast as they like. The first
refusal of each kind (path and status) in a window is logged as it comes; the rest are
counted, and the count is logged once when the next refusal of that kind arrives after
the window (`requests_refused_suppressed`). Kinds are few and fixed (our routes and a
handful of statuses), so the state stays small whoever calls.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from config.logging import log_event

log = logging.getLogger("lembra.web")


@dataclass(slots=True)
class _Kind:
    since: float
    suppressed: int = 0


@dataclass
class RefusalLog:
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _kinds: dict[tuple[str, int], _Kind] = field(default_factory=dict, init=False, repr=False)

    def note(self, path: str, status: int, remote: str | None) -> None:
        """Log this refusal, or count it when its kind was logged within the window."""
        now = self.clock()
        key = (path, status)
        kind = self._kinds.get(key)
        if kind is not None and now - kind.since < self.window_s:
            kind.suppressed += 1
            return
        if kind is not None and kind.suppressed:
            log_event(
                log,
                "requests_refused_suppressed",
                level=logging.WARNING,
                path=path,
                status=status,
                count=kind.suppressed,
                window_s=self.window_s,
            )
        self._kinds[key] = _Kind(now)
        log_event(
            log, "request_refused", level=logging.WARNING, path=path, status=status, remote=remote
        )
