"""Chat leases across processes, kept between a chat's consecutive updates (DESIGN 5, issue 16).

A turn runs under `chat:<conversation>` in `leases`, renewed while it runs, so two
workers never run one chat's turns at once. Taking and giving it back are two round
trips per update. When the next update of the same chat is already queued in this
process (the per-chat serializer knows), the lease is handed to it instead of being
released and taken again: a busy chat pays those two trips once per burst.

A kept lease nobody picks up within `KEEP_S` (the next job was dropped, or never
reached `hold`) is released then; `release_kept` gives back every kept lease at
shutdown. While kept, the lease is renewed as during a turn, so another worker's
wait is the same as if the turn were still running.

Giving leases back is batched: a lease no queued job needs waits `BATCH_S` with the
others going back, and they all go in one round trip (a `delete_many`, or an
`update_many` when serving alone, below). A lone update then pays one
trip for its lease instead of two, off its reply's path; an update of that chat
arriving meanwhile takes the lease back from the batch.

A process that serves alone (bot/delivery/peers.py) gives its chat leases back in place,
expired but still naming it and its stretch of being alone, and takes one back with
`take_back`: one round trip that also says whether anyone else held or asked for it
since. `hold` yields True when
nobody did; the lifecycle then skips reading the chat's waiting records.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from agent.deps import Deps
from config.logging import log_event
from storage.errors import StorageError

log = logging.getLogger("lembra.lifecycle")

KEEP_S = 1.0  # a kept lease waits this long for the chat's next update, then goes back
BATCH_S = 0.05  # leases going back are gathered this long, then given back in one trip
SWEEP_AFTER_MS = 600_000  # leases given back in place are deleted ten minutes after


class ChatBusy(Exception):
    """Another process held this chat's lease for longer than we wait."""


@dataclass
class _Held:
    key: str
    done: asyncio.Event = field(default_factory=asyncio.Event)
    renewer: asyncio.Task[None] | None = None
    expiry: asyncio.TimerHandle | None = None
    untouched: bool = False  # taken back as we gave it back: nobody held it meanwhile
    epoch: str | None = None  # the stretch of serving alone it was taken in (bot/delivery/peers.py)


class ChatLeases:
    def __init__(
        self,
        deps: Deps,
        *,
        ttl_s: float,
        wait_s: float,
        queued: Callable[[str], int],
        epoch: Callable[[], str | None] = lambda: None,
        keep_s: float = KEEP_S,
        batch_s: float = BATCH_S,
    ) -> None:
        self.deps = deps
        self.ttl_ms = int(ttl_s * 1000)
        self.wait_s = wait_s
        self.keep_s = keep_s
        self.batch_s = batch_s
        self._outgoing: dict[str, _Held] = {}  # going back in the next batch, by conversation
        self._flush: asyncio.Task[None] | None = None
        self._queued = queued  # jobs of a chat queued or running in this process
        self._epoch = (
            epoch  # this stretch of serving alone; None: not alone (bot/delivery/peers.py)
        )
        self._kept: dict[str, _Held] = {}
        # conversations whose lease is on its way back: a new turn waits until it is gone
        self._returning: dict[str, asyncio.Event] = {}
        self.stopping = False

    @asynccontextmanager
    async def hold(self, conversation_id: str) -> AsyncIterator[bool]:
        """Hold `chat:<conversation>` while the block runs (raises ChatBusy after `wait_s`).

        Yields True when the lease was taken back untouched (`LeasesRepo.take_back`):
        no other process held it, or asked for it, since this one last gave it back.
        """
        if (returning := self._returning.get(conversation_id)) is not None:
            await returning.wait()  # our own give-back would delete the lease taken again
        held = self._kept.pop(conversation_id, None) or self._outgoing.pop(conversation_id, None)
        if held is not None and held.expiry is not None:
            held.expiry.cancel()
        if held is None:
            held = await self._acquire(f"chat:{conversation_id}")
        else:
            held.untouched = False  # kept while someone may have asked for it
        try:
            yield held.untouched
        finally:
            if self.stopping:
                await self._release(held)
            elif self._queued(conversation_id) > 1:
                held.expiry = asyncio.get_running_loop().call_later(
                    self.keep_s, self._expire, conversation_id, held
                )
                self._kept[conversation_id] = held  # the chat's next job is right behind
            else:
                self._give_back(conversation_id, held)

    async def release_kept(self) -> None:
        """Give back every kept lease, and wait for those already going back (shutdown)."""
        self.stopping = True
        kept, self._kept = self._kept, {}
        for held in kept.values():
            if held.expiry is not None:
                held.expiry.cancel()
            await self._release(held)
        await self.given_back()
        await self._give_back_now()  # anything handed in while the last batch was on the wire

    async def given_back(self) -> None:
        """Wait until the leases handed back so far are gone (tests, shutdown)."""
        while self._flush is not None and not self._flush.done():
            await asyncio.shield(self._flush)

    async def sweep(self) -> int:
        """Delete the leases that expired ten minutes ago or more (a leader job); say how many."""
        now = self.deps.clock.ms()
        return await self.deps.db.leases.sweep(expired_before_ms=now - SWEEP_AFTER_MS, now_ms=now)

    @property
    def kept(self) -> int:
        return len(self._kept)

    async def _acquire(self, key: str) -> _Held:
        leases, owner, clock = self.deps.db.leases, self.deps.owner, self.deps.clock
        epoch = self._epoch()  # a lease taken while others serve never goes back in place
        if epoch is not None:
            taken = await leases.take_back(
                key, owner, epoch=epoch, ttl_ms=self.ttl_ms, now_ms=clock.ms()
            )
            if taken is not None:
                return self._renewed(_Held(key, untouched=taken == "untouched", epoch=epoch))
        deadline = time.monotonic() + self.wait_s
        pause = 0.02
        while not await leases.acquire(key, owner, ttl_ms=self.ttl_ms, now_ms=clock.ms()):
            if time.monotonic() >= deadline:
                raise ChatBusy(key)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.5)
        return self._renewed(_Held(key, epoch=epoch))

    def _renewed(self, held: _Held) -> _Held:
        held.renewer = asyncio.create_task(renew(self.deps, held.key, self.ttl_ms, held.done))
        return held

    def _expire(self, conversation_id: str, held: _Held) -> None:
        if self._kept.get(conversation_id) is held:
            del self._kept[conversation_id]
            self._give_back(conversation_id, held)

    def _give_back(self, conversation_id: str, held: _Held) -> None:
        """Put `held` in the next batch going back (renewed until then)."""
        self._outgoing[conversation_id] = held
        if self._flush is None or self._flush.done():
            self._flush = asyncio.ensure_future(self._batch())

    async def _batch(self) -> None:
        while self._outgoing:  # those handed in while a batch was on the wire go next
            await asyncio.sleep(self.batch_s)
            await self._give_back_now()

    async def _give_back_now(self) -> None:
        going, self._outgoing = self._outgoing, {}
        if not going:
            return
        back = asyncio.Event()
        for conversation_id in going:
            self._returning[conversation_id] = back
        try:
            for held in going.values():
                held.done.set()  # not cancel(): a renewal already on the wire is let finish
            await asyncio.gather(*(h.renewer for h in going.values() if h.renewer is not None))
            # In place only those taken in this stretch of serving alone: one taken while
            # others served may have had an update recorded elsewhere meanwhile.
            epoch, leases = self._epoch(), self.deps.db.leases
            in_place: list[str] = []
            deleted: list[str] = []
            for held in going.values():
                (in_place if epoch is not None and held.epoch == epoch else deleted).append(
                    held.key
                )
            if in_place:
                now = self.deps.clock.ms()
                await leases.give_back_many(
                    in_place, self.deps.owner, epoch=epoch or "", now_ms=now
                )
            if deleted:
                await leases.release_many(deleted, self.deps.owner)
        except StorageError:  # they expire by themselves
            log_event(log, "lease_release_failed", level=logging.WARNING, leases=len(going))
        finally:
            for conversation_id in going:
                if self._returning.get(conversation_id) is back:
                    del self._returning[conversation_id]
            back.set()

    async def _release(self, held: _Held) -> None:
        held.done.set()  # not cancel(): a renewal already on the wire is let finish
        if held.renewer is not None:
            await held.renewer
        try:
            await self.deps.db.leases.release(held.key, self.deps.owner)
        except StorageError:  # it expires by itself
            log_event(log, "lease_release_failed", level=logging.WARNING, key=held.key)


async def renew(deps: Deps, key: str, ttl_ms: int, done: asyncio.Event) -> None:
    """Renew `key` every third of its TTL until `done` is set."""
    leases, owner, clock = deps.db.leases, deps.owner, deps.clock
    while not await wait_set(done, ttl_ms / 3000):
        try:
            if not await leases.renew(key, owner, ttl_ms=ttl_ms, now_ms=clock.ms()):
                log_event(log, "lease_lost", level=logging.WARNING, key=key)
        except StorageError:
            log_event(log, "lease_renew_failed", level=logging.WARNING, key=key)


async def wait_set(event: asyncio.Event, seconds: float) -> bool:
    """Sleep `seconds` unless `event` is set first; True when it was set."""
    try:
        await asyncio.wait_for(event.wait(), timeout=seconds)
    except TimeoutError:
        return False
    return True
