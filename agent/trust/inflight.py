"""Effects finishing off the user's turn in this process (issue 47): started, settled, drained.

A delete-all of thousands of items answers at once and finishes here, beside the turns of
other chats. Its intent stays on the user document until it is done, so a process that dies
meanwhile leaves it to the next turn or `lembra doctor` (agent/trust/effects.py). In this
process, the user's next turn first waits for it (`settle`), so it never sees half of it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from config.logging import log_event

log = logging.getLogger(__name__)


class InFlight:
    """The work each user has running off their turn in this process."""

    def __init__(self) -> None:
        self._tasks: dict[str, set[asyncio.Task[Any]]] = {}

    def start(self, user_id: str, work: Coroutine[Any, Any, Any], *, name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.setdefault(user_id, set()).add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            held = self._tasks.get(user_id)
            if held is not None:
                held.discard(finished)
                if not held:
                    del self._tasks[user_id]
            if finished.cancelled():
                return
            failure = finished.exception()
            if isinstance(failure, Exception):  # the intent stays: the next turn finishes it
                log_event(
                    log,
                    "background_effect_failed",
                    level=logging.WARNING,
                    task=name,
                    error_type=type(failure).__name__,
                )

        task.add_done_callback(done)

    def running(self, user_id: str) -> bool:
        return bool(self._tasks.get(user_id))

    async def settle(self, user_id: str) -> bool:
        """Wait for the user's running work; whether there was any. Its failures are logged."""
        tasks = list(self._tasks.get(user_id, ()))
        if not tasks:
            return False
        await asyncio.wait(tasks)
        return True

    async def drain(self, timeout_s: float) -> None:
        """Wait up to `timeout_s` for all of it, then stop the rest where it is (left recoverable)."""
        tasks = [t for held in self._tasks.values() for t in held]
        if not tasks:
            return
        _, pending = await asyncio.wait(tasks, timeout=timeout_s)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)
            log_event(log, "background_effects_left", level=logging.WARNING, count=len(pending))
