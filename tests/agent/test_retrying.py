"""The one retry policy (agent/services/retrying.py): attempts counted, waits bounded."""

from __future__ import annotations

import pytest

from agent.services.retrying import GaveUp, Retry, RetryPolicy


class Waits:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def failing(times: int, error: Exception) -> tuple[list[int], object]:
    calls: list[int] = []

    async def attempt() -> str:
        calls.append(1)
        if len(calls) <= times:
            raise error
        return "ok"

    return calls, attempt


async def test_a_call_that_keeps_failing_is_tried_len_delays_plus_one_times() -> None:
    waits = Waits()
    calls, attempt = failing(99, Retry("HTTP 503"))
    policy = RetryPolicy(delays=(0.5, 1.0, 2.0), sleep=waits)

    with pytest.raises(GaveUp) as gave_up:
        await policy.call(attempt)  # type: ignore[arg-type]

    assert len(calls) == 4 == policy.max_attempts
    assert waits.waits == [0.5, 1.0, 2.0]
    assert (gave_up.value.reason, gave_up.value.attempts) == ("HTTP 503", 4)


async def test_a_retry_after_is_waited_for_and_one_too_long_gives_up_at_once() -> None:
    waits = Waits()
    calls, attempt = failing(1, Retry("HTTP 429", wait_s=3.0))
    assert await RetryPolicy(sleep=waits).call(attempt) == "ok"  # type: ignore[arg-type]
    assert (len(calls), waits.waits) == (2, [3.0])

    calls, attempt = failing(99, Retry("HTTP 429", wait_s=60.0))
    with pytest.raises(GaveUp):
        await RetryPolicy(max_wait_s=10.0, sleep=waits).call(attempt)  # type: ignore[arg-type]
    assert len(calls) == 1


async def test_the_waits_of_one_call_never_pass_the_total() -> None:
    waits = Waits()
    calls, attempt = failing(99, Retry("HTTP 429", wait_s=4.0))
    policy = RetryPolicy(delays=(1.0,) * 10, max_wait_s=5.0, max_total_s=10.0, sleep=waits)

    with pytest.raises(GaveUp):
        await policy.call(attempt)  # type: ignore[arg-type]

    assert waits.waits == [4.0, 4.0]
    assert len(calls) == 3


async def test_anything_but_retry_is_raised_at_once() -> None:
    calls, attempt = failing(99, PermissionError("refused"))
    with pytest.raises(PermissionError):
        await RetryPolicy(sleep=Waits()).call(attempt)  # type: ignore[arg-type]
    assert len(calls) == 1
