"""Updates a database failure left `received` here, re-submitted as soon as it answers again.

A turn that fails because the database went away (the embedded child killed, an outage)
leaves its update `received`: nothing acknowledged is lost, but the re-drive only takes
records nobody touched for a minute, so the user waited a minute or more after the
database was back. This process remembers those updates and retries them every second;
while the database is still down the retry fails and waits for the next tick. Another
process's re-drive may take the same record once it looks stale: the claim is a
compare-and-set, so exactly one of them runs it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from config.logging import log_event
from storage.documents import ProcessedUpdateDoc
from storage.errors import StorageError
from storage.updates import UpdatesRepo

log = logging.getLogger("lembra.stranded")


@dataclass(frozen=True, slots=True)
class Retry:
    """Re-submitting one stranded update through the lifecycle's re-drive."""

    updates: UpdatesRepo
    now_ms: Callable[[], int]
    live: set[str]  # queued or running here: already on its way
    redrive: Callable[[ProcessedUpdateDoc], Awaitable[bool]]

    async def __call__(self, update_id: str) -> None:
        """Re-submit the update unless it is finished, here already, or someone took it."""
        record = await self.updates.get(update_id)
        if record is None or record.status != "received" or update_id in self.live:
            return
        if await self.updates.claim_stale(
            update_id, seen_updated_at_ms=record.updated_at_ms, now_ms=self.now_ms()
        ):
            await self.redrive(record)


Resubmit = Callable[[str], Awaitable[None]]


class Stranded:
    """The update ids to retry, in the order they failed."""

    def __init__(self) -> None:
        self._ids: dict[str, None] = {}  # a dict keeps insertion order: the chat's order

    def add(self, update_id: str) -> None:
        self._ids[update_id] = None

    def __len__(self) -> int:
        return len(self._ids)

    async def retry(self, resubmit: Resubmit) -> int:
        """Re-submit each stranded update until the database fails again; return how many."""
        done = 0
        for update_id in list(self._ids):
            try:
                await resubmit(update_id)
            except StorageError:
                return done  # still down: the next tick tries again
            self._ids.pop(update_id, None)
            done += 1
        if done:
            log_event(log, "stranded_resubmitted", count=done)
        return done

    async def run(self, resubmit: Resubmit, stopping: asyncio.Event, every_s: float) -> None:
        """Retry every `every_s` seconds until `stopping` is set."""
        while True:
            try:
                await asyncio.wait_for(stopping.wait(), timeout=every_s)
                return
            except TimeoutError:
                pass
            if self._ids:
                await self.retry(resubmit)
