"""The one retry policy of every outgoing call: Telegram and WhatsApp sends, TMDB lookups.

    an attempt raises `Retry(reason, wait_s=...)`   tried again after `wait_s` (a Retry-After)
                                                     or the policy's next backoff
    an attempt raises anything else                 raised at once: never retried
    attempts used up, a Retry-After asking more     `GaveUp` (with the last reason)
      than `max_wait_s`, or the waits would pass
      `max_total_s`

Each client keeps only what its API means (which statuses are worth another try, what
a Retry-After says); counting, waiting and giving up happen here, once, with tenacity.
Before issue 34 PTB's rate limiter retried inside each of our own Telegram retries: up
to 12 attempts for one message. PTB's limiter now only paces sends (`max_retries=0`).
A turn is never retried: only the one call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from tenacity import AsyncRetrying, RetryCallState, RetryError, retry_if_exception_type

T = TypeVar("T")


class Retry(Exception):
    """Raised by an attempt that may succeed if tried again (429, 5xx, timeout, connection)."""

    def __init__(self, reason: str, *, wait_s: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.wait_s = wait_s


class GaveUp(Exception):
    """Every attempt the policy allows failed; `reason` is the last one's."""

    def __init__(self, reason: str, attempts: int) -> None:
        super().__init__(f"gave up after {attempts} attempts: {reason}")
        self.reason = reason
        self.attempts = attempts


@dataclass(frozen=True)
class RetryPolicy:
    """How one outgoing call is retried.

    Args:
        delays: the waits between attempts, in order; there are at most len(delays) + 1.
        max_wait_s: a Retry-After asking for longer is not waited for (give up now: an
            earlier try would only be refused again, and a turn cannot wait that long).
        max_total_s: the waits of one call never add up to more than this.
        sleep: how waiting is done (tests record the waits instead).
    """

    delays: tuple[float, ...] = (0.5, 1.0, 2.0)
    max_wait_s: float = 10.0
    max_total_s: float = 15.0
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep, compare=False)

    @property
    def max_attempts(self) -> int:
        return len(self.delays) + 1

    def _wait(self, state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome is not None else None
        asked = error.wait_s if isinstance(error, Retry) else None
        backoff = self.delays[min(state.attempt_number, len(self.delays)) - 1] if self.delays else 0
        return max(asked, 0.0) if asked is not None else backoff

    def _stop(self, state: RetryCallState) -> bool:
        if state.attempt_number >= self.max_attempts:
            return True
        error = state.outcome.exception() if state.outcome is not None else None
        if isinstance(error, Retry) and error.wait_s is not None and error.wait_s > self.max_wait_s:
            return True
        return state.idle_for + self._wait(state) > self.max_total_s

    async def call(
        self,
        attempt: Callable[[], Awaitable[T]],
        *,
        on_retry: Callable[[int, Retry, float], None] | None = None,
    ) -> T:
        """Run `attempt` until it succeeds, raises something else, or the policy gives up.

        Args:
            on_retry: told (attempt number, its Retry, the wait) before each wait: metrics, logs.
        """

        def before_sleep(state: RetryCallState) -> None:
            error = state.outcome.exception() if state.outcome is not None else None
            if on_retry is not None and isinstance(error, Retry):
                on_retry(state.attempt_number, error, self._wait(state))

        retrying = AsyncRetrying(
            stop=self._stop,
            wait=self._wait,
            retry=retry_if_exception_type(Retry),
            sleep=self.sleep,
            before_sleep=before_sleep,
        )
        try:
            return await retrying(attempt)
        except RetryError as exc:
            last = exc.last_attempt.exception()
            reason = last.reason if isinstance(last, Retry) else type(last).__name__
            raise GaveUp(reason, exc.last_attempt.attempt_number) from None
