"""Whether this process serves alone, from the `peer:<owner>` documents in `leases` (issue 16).

The holder of a chat's lease reads the chat's waiting records before its turn
(bot/delivery/lifecycle.py): another process may have recorded an earlier update of the chat,
or run this one. A process that is alone can skip that read when it takes back the
lease it gave back last and nobody touched since (`LeasesRepo.take_back`): nobody
else held the chat, so nobody else recorded or ran anything of it.

Every process announces itself every `every_s` (its document lives three periods) and
reads who else is alive. "Alone" holds for one and a half periods after a read that
found nobody else, and never before the first read: a process that cannot tell reads.
Each unbroken stretch of being alone has its own `epoch`; a lease given back in place
in an earlier stretch is not trusted, since a peer may have come and gone meanwhile
and left an update of the chat waiting.

A process that just came up may be unknown to one that believes it is alone, until
that one's next read. Until it has announced itself for two periods, a process that
is not alone therefore marks the lease of every chat it records an update for, before
recording it (`mark_wanted`, for `MARK_S`): taking it back then says "marked", and
the holder reads. A process that never announces (one whose lifecycle was not
started) always marks.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable

from agent.deps import Deps
from bot.delivery.chatlease import wait_set
from config.logging import log_event
from storage.errors import StorageError

log = logging.getLogger("lembra.peers")

EVERY_S = 10.0
# A mark asks the holder to read for this long: longer than any "alone" belief formed
# before the marking process was visible lasts (1.5 periods), with room to spare.
MARK_S = 3 * EVERY_S


class Peers:
    def __init__(
        self,
        deps: Deps,
        *,
        every_s: float = EVERY_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.deps = deps
        self.every_s = every_s
        self.ttl_s = 3 * every_s  # how long our document says we are alive
        self._now = monotonic
        self._alone_until = 0.0  # monotonic; 0: not known to be alone
        self._announced_since: float | None = None  # start of the unbroken announcements
        self._announced_at = 0.0
        self._others = -1  # -1: never read
        self._epoch = ""  # this stretch of being alone (a new one after every break)

    @property
    def alone(self) -> bool:
        """No other process can be running a turn or recording an update now."""
        return self._now() < self._alone_until

    @property
    def epoch(self) -> str | None:
        """The current unbroken stretch of serving alone; None when not alone.

        Leases given back in place carry it: one given back in an earlier stretch may
        predate a peer that came and went, so taking it back reads (`take_back`).
        """
        return self._epoch if self.alone else None

    @property
    def marking(self) -> bool:
        """Recorded updates mark their chat's lease: a peer may not know of us yet.

        True until this process has announced itself for two periods without a break
        (before its first announcement too, and when its document may have expired),
        unless it is alone.
        """
        if self.alone:
            return False
        now = self._now()
        if self._announced_since is None or now - self._announced_at > self.ttl_s:
            return True
        return now < self._announced_since + 2 * self.every_s

    async def mark(self, conversation_id: str, update_id: str) -> None:
        """Ask whoever takes this chat's lease back for the next `MARK_S` to read."""
        until_ms = self.deps.clock.ms() + int(MARK_S * 1000)
        try:
            await self.deps.db.leases.mark_wanted(f"chat:{conversation_id}", until_ms=until_ms)
        except StorageError:  # the record may land all the same: at worst it runs late
            log_event(log, "chat_mark_failed", level=logging.WARNING, update_id=update_id)

    async def refresh(self) -> None:
        """Announce this process and read which others are alive (two round trips)."""
        deps = self.deps
        ttl_ms = int(self.ttl_s * 1000)
        try:
            await deps.db.leases.announce(deps.owner, ttl_ms=ttl_ms, now_ms=deps.clock.ms())
            announced = self._now()
            if self._announced_since is None or announced - self._announced_at > self.ttl_s:
                self._announced_since = announced  # our document may have expired meanwhile
            self._announced_at = announced
            owners = await deps.db.leases.peers(now_ms=deps.clock.ms())
        except StorageError:
            self._alone_until = 0.0
            log_event(log, "peers_refresh_failed", level=logging.WARNING)
            return
        others = sum(1 for owner in owners if owner != deps.owner)
        if others != self._others:
            log_event(log, "peers_changed", others=others)
        self._others = others
        if others:
            self._alone_until = 0.0
            return
        if not self.alone:
            self._epoch = uuid.uuid4().hex[:12]
        self._alone_until = announced + 1.5 * self.every_s

    async def run(self, stopping: asyncio.Event) -> None:
        """Refresh now and every period until `stopping`, then say this process is gone.

        `stopping` is set once this process's turns are done (`UpdateLifecycle.leave`),
        so nothing of ours waits for a lease when peers may go alone.
        """
        try:
            while True:
                await self.refresh()
                if await wait_set(stopping, self.every_s):
                    break
        finally:
            self._alone_until = 0.0  # never alone while stopping, even when cancelled
        try:
            await self.deps.db.leases.release(f"peer:{self.deps.owner}", self.deps.owner)
        except StorageError:  # it expires by itself
            log_event(log, "peers_leave_failed", level=logging.WARNING)
