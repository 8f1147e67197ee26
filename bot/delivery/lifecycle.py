"""The update lifecycle every channel shares (DESIGN section 5).

    webhook ─> admit: record `received` (before acknowledging), then rate limit
                 │        (a refused update is kept as `throttled`; redeliveries count once)
                 │        database down: DatabaseUnavailable -> the web handler answers 503
                 ▼
    channel.submit(job) ─> per-chat slot (in process) ─> process(job):
        chat lease (across processes) ─> the chat's earlier waiting updates first, in
        arrival order, whichever worker received them ─> handle ─> deliver ─> mark `done`
        (a process serving alone that takes its lease back untouched skips that read:
        bot/delivery/peers.py)

    re-drive (leader lease `job:redrive`, at start-up and every 30 s):
        `received` records older than a minute ─> claim ─> channel.restore ─> submit again
    heartbeat (every process, every 15 s): records of updates queued or running here are
        renewed, so only updates whose process is gone ever look stale
    peers (every process, every 10 s): announce this process, learn whether it is alone

Never lose, never double-send: a record is written before the platform is told "ok";
a redelivered update whose record exists is not handled again; a re-driven update
that someone finished meanwhile is skipped (checked under the chat lease); a reply
that could not be sent is kept on the record so the re-drive re-sends it instead of
handling the update a second time. Effects themselves are idempotent in the runtime.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Literal, Protocol

from agent.conversation.access import allows
from agent.deps import Deps
from agent.replycodec import reply_from_json, reply_to_json
from agent.texts import text
from agent.texts.durations import duration
from agent.types import Channel, Incoming, Language, Reply
from bot.delivery.backpressure import Backlog
from bot.delivery.chatlease import ChatBusy, ChatLeases, wait_set
from bot.delivery.chatorder import LocalOrder
from bot.delivery.concurrency import ChatSerializer
from bot.delivery.leader import leader_loop
from bot.delivery.peers import Peers
from bot.delivery.ratelimit import SlidingWindowLimiter
from bot.delivery.stranded import Retry, Stranded
from config.logging import log_event
from storage.chatqueue import Arrivals, queue_key
from storage.documents import ProcessedUpdateDoc
from storage.errors import DatabaseUnavailable, StorageError

log = logging.getLogger("lembra.lifecycle")

Handler = Callable[[Incoming], Awaitable[Reply]]
Admission = Literal["process", "notify", "drop", "duplicate", "in_progress"]
Delivery = Literal["sent", "blocked", "retry_later", "failed", "window_closed", "nothing"]
SWEEP_EVERY_S = 300.0  # the leader deletes long-expired leases this often


@dataclass(frozen=True)
class Tuning:
    """Timings of the lifecycle; production uses the defaults, tests shorten some."""

    chat_lease_ttl_s: float = 15.0
    chat_lease_wait_s: float = 30.0
    stale_after_s: float = 60.0
    redrive_interval_s: float = 30.0
    redrive_batch: int = 100
    max_attempts: int = 10
    typing_after_s: float = 0.7
    typing_every_s: float = 4.0
    max_concurrent_turns: int = 64
    stranded_retry_s: float = 1.0  # updates a database failure left here: retried this often


@dataclass(frozen=True, slots=True)
class Job:
    """One admitted update to process."""

    incoming: Incoming
    admission: Literal["process", "notify"] = "process"
    redriven: bool = False
    stored_reply: Reply | None = None
    admitted_ms: int = 0
    seq: int = 0  # arrival number in its chat (storage/chatqueue.py); 0 when unknown

    def __repr__(self) -> str:  # libraries log queued items: never the message text
        return f"Job({self.incoming.update_id}, {self.admission}, redriven={self.redriven})"


class ChannelPort(Protocol):
    """What the lifecycle needs from a channel."""

    name: Channel
    prefix: str

    async def deliver(self, incoming: Incoming, reply: Reply) -> Delivery:
        """Send `reply`, retrying transient failures; say how it went."""
        ...

    async def typing(self, incoming: Incoming) -> None:
        """Show that a reply is being prepared (best effort)."""
        ...

    def restore(self, payload_json: str) -> Incoming | None:
        """Rebuild the Incoming of a stored payload (None: nothing to handle)."""
        ...

    async def submit(self, job: Job) -> None:
        """Queue `job` to be processed in this chat's order."""
        ...


class UpdateLifecycle:
    def __init__(self, deps: Deps, handler: Handler, *, tuning: Tuning | None = None) -> None:
        self.deps = deps
        self.handler = handler
        self.tuning = tuning or Tuning()
        self.serializer = ChatSerializer(self.tuning.max_concurrent_turns)
        self.peers = Peers(deps)
        self.chat_leases = ChatLeases(
            deps,
            ttl_s=self.tuning.chat_lease_ttl_s,
            wait_s=self.tuning.chat_lease_wait_s,
            queued=self.serializer.queued,
            epoch=lambda: self.peers.epoch,
        )
        self.limiter = SlidingWindowLimiter(
            deps.settings.rate_limit_messages, deps.settings.rate_limit_window_seconds
        )
        self._channels: dict[str, ChannelPort] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = asyncio.Event()
        self._leaving = asyncio.Event()  # peers stop announcing us (`leave`)
        self._peers: asyncio.Task[None] | None = None
        self._scheduled: list[tuple[str, float, Callable[[], Awaitable[object]]]] = []
        # Updates queued or running in this process: kept fresh in the database by the
        # heartbeat so the re-drive (ours or another process's) leaves them alone.
        self._live: set[str] = set()
        # the same updates with their admission time: backpressure (bot/delivery/backpressure.py)
        self.backlog = Backlog(deps.settings.max_backlog, deps.settings.max_backlog_age_s)
        self.stranded = (
            Stranded()
        )  # left `received` by a database failure (bot/delivery/stranded.py)
        self.arrivals = Arrivals()
        self._seqs: dict[str, int] = {}  # admitted update -> its arrival number, until job()
        self.order = LocalOrder()  # when a turn here may skip the read (bot/delivery/chatorder.py)
        # shutting down (`drain`): updates not begun by then stay `received` for the re-drive
        self._deadline_ms: int | None = None
        self.left_for_redrive = 0

    def register(self, channel: ChannelPort) -> None:
        self._channels[channel.prefix] = channel

    # -- admission (in the web handler, before acknowledging) -----------------------------

    async def admit(self, incoming: Incoming, payload_json: str) -> Admission:
        """Record the update, then rate-limit it; raises DatabaseUnavailable (answer 503)."""
        assert incoming.update_id is not None
        seq = self.arrivals.next()
        fresh = self.order.arrived(incoming.conversation_id, incoming.update_id, seq)
        admission: Admission = "in_progress"
        try:
            admission = await self._admit(incoming, payload_json, seq)
        finally:
            if fresh and admission not in ("process", "notify"):
                self.order.left(incoming.conversation_id, incoming.update_id)
        return admission

    async def _admit(self, incoming: Incoming, payload_json: str, seq: int) -> Admission:
        assert incoming.update_id is not None
        metrics = self.deps.metrics
        if self.peers.marking:  # before the record: a holder that reads after it sees it
            await self.peers.mark(incoming.conversation_id, incoming.update_id)
        try:
            status = await self.deps.db.updates.record(
                incoming.update_id,
                payload_json,
                now_ms=self.deps.clock.ms(),
                user_id=incoming.user_id,
                queue=queue_key(incoming.conversation_id),
                seq=seq,
            )
        except StorageError as exc:
            if isinstance(exc, DatabaseUnavailable):
                raise
            raise DatabaseUnavailable(str(exc)) from exc
        if status != "new":
            metrics.updates.labels(incoming.channel, "duplicated").inc()
            log_event(log, "update_duplicated", update_id=incoming.update_id, earlier_status=status)
            return "duplicate" if status == "done" else "in_progress"
        # Counted only once recorded: redeliveries (after a 503 while the database was
        # down, or after a 200) never count again, and nothing refused goes unrecorded.
        verdict = self.limiter.hit(incoming.user_id, time.monotonic())
        if verdict == "drop":
            metrics.rate_limited.inc()
            metrics.updates.labels(incoming.channel, "rate_limited").inc()
            await self.deps.db.updates.mark_throttled(
                incoming.update_id, now_ms=self.deps.clock.ms()
            )
            return "drop"
        metrics.updates.labels(incoming.channel, "received").inc()
        if verdict == "notify":  # noted before it is live here: if this fails, the re-drive
            metrics.rate_limited.inc()  # takes the record once it looks stale
            metrics.updates.labels(incoming.channel, "rate_limited").inc()
            await self.deps.db.updates.mark_notice(incoming.update_id)
        self._live.add(incoming.update_id)
        self._seqs[incoming.update_id] = seq
        self.backlog.add(incoming.update_id)
        return "notify" if verdict == "notify" else "process"

    def job(self, incoming: Incoming, admission: Literal["process", "notify"]) -> Job:
        seq = self._seqs.pop(incoming.update_id or "", 0)
        return Job(incoming, admission, admitted_ms=self.deps.clock.ms(), seq=seq)

    # -- shutting down ----------------------------------------------------------------------

    def drain(self, grace_s: float) -> None:
        """Work the queue for `grace_s` more seconds (SHUTDOWN_GRACE_SECONDS), by the clock.

        An update whose turn has not begun by then is not handled here: its record stays
        `received`, the heartbeat stops renewing it, and the re-drive (another process, or
        this one's next start) takes it once it looks stale. Nothing is lost; nothing waits
        for a queue of thousands (issue 46: 30 minutes after a 2,000-message payload).
        """
        if self._deadline_ms is None:
            self._deadline_ms = self.deps.clock.ms() + int(grace_s * 1000)
            log_event(log, "draining", grace_s=grace_s, queued=len(self._live))

    @property
    def draining(self) -> bool:
        """Whether a shutdown began (`drain`)."""
        return self._deadline_ms is not None

    @property
    def past_deadline(self) -> bool:
        """Whether a shutdown's grace is over: no new turn begins here."""
        return self._deadline_ms is not None and self.deps.clock.ms() >= self._deadline_ms

    def _leave(self, update_id: str) -> None:
        self.left_for_redrive += 1
        log_event(log, "update_left_at_shutdown", level=logging.DEBUG, update_id=update_id)

    # -- processing (inside the channel's per-chat slot) ---------------------------------

    async def process(self, job: Job, channel: ChannelPort) -> None:
        """Handle, deliver and finish one admitted update; never raises."""
        incoming = job.incoming
        update_id = incoming.update_id
        assert update_id is not None
        if self.past_deadline:
            self._leave(update_id)
            self._live.discard(update_id)
            self.backlog.done(update_id)
            self.order.left(incoming.conversation_id, update_id)
            return
        try:
            async with self.chat_leases.hold(incoming.conversation_id) as untouched:
                if untouched and self._nothing_else_waits(job):
                    await self._run(job, channel, update_id)
                else:
                    await self._process_leased(job, channel, update_id)
        except ChatBusy:
            self.order.fell_behind(incoming.conversation_id)
            log_event(
                log,
                "chat_busy",
                level=logging.WARNING,
                update_id=update_id,
                note="left for the re-drive",
            )
        except StorageError:
            self.stranded.add(update_id)
            self.order.fell_behind(incoming.conversation_id)
            log_event(
                log,
                "update_left_for_redrive",
                level=logging.WARNING,
                exc_info=True,
                update_id=update_id,
            )
        finally:
            self._live.discard(update_id)
            self.backlog.done(update_id)
            self.order.left(incoming.conversation_id, update_id)

    def _nothing_else_waits(self, job: Job) -> bool:
        """Whether, with the lease taken back untouched, this update can run without a read.

        Nobody else held the chat since this process last did, and no process that might
        not know of us recorded anything of it (bot/delivery/peers.py); nothing of the chat
        admitted here earlier is unfinished or left behind (bot/delivery/chatorder.py). A
        re-drive always reads.
        """
        incoming = job.incoming
        return (
            self.peers.alone
            and job.seq != 0
            and not job.redriven
            and self.order.first_in_line(incoming.conversation_id, incoming.update_id or "")
        )

    async def _process_leased(self, job: Job, channel: ChannelPort, update_id: str) -> None:
        deps = self.deps
        self.order.read(job.incoming.conversation_id)
        # Read under the lease, in one query: the chat's records still waiting up to this
        # one. A re-drive, or another worker holding this chat's lease, may have run this
        # update while it waited (then it is not among them); the ones before it arrived
        # earlier and are handled first, whichever worker received them.
        chat_queue = deps.db.chat_queue
        queue = queue_key(job.incoming.conversation_id)
        waiting = await chat_queue.waiting(queue, up_to=job.seq) if job.seq else []
        mine = next((n for n, r in enumerate(waiting) if r.id == update_id), None)
        if mine is None:  # finished meanwhile, or its arrival number is not known here
            record = await deps.db.updates.get(update_id)
            if record is None or record.status != "received":
                deps.metrics.updates.labels(job.incoming.channel, "duplicated").inc()
                return
            waiting = (
                await chat_queue.waiting(record.queue, up_to=record.seq) if record.queue else []
            )
            mine = next((n for n, r in enumerate(waiting) if r.id == update_id), len(waiting))
        for record in waiting[:mine]:  # their own jobs, if queued here, read and find them done
            self.order.ran_early(job.incoming.conversation_id, record.id)
        await self._earlier_first(waiting[:mine])
        await self._run(job, channel, update_id)

    async def _earlier_first(self, earlier: list[ProcessedUpdateDoc]) -> None:
        """Handle the chat's updates that arrived before this one and still wait, in order.

        They may sit in another worker's queue, waiting for this lease: the lease holder
        runs them now, and that worker later finds them done. One that fails again stays
        `received` for the re-drive, and the chat goes on.
        """
        for record in earlier:
            channel = self._channels.get(record.id.split(":", 1)[0])
            if channel is None:
                continue  # a channel this process does not serve: left for one that does
            job = self._restored_job(record, channel)
            if job is None:
                await self._finish(record.id, None)  # nothing to handle in it
            else:
                await self._run(job, channel, record.id)

    async def _run(self, job: Job, channel: ChannelPort, update_id: str) -> None:
        """Handle and deliver one update; left `received` when the database or the send failed."""
        deps = self.deps
        incoming = job.incoming
        if self.past_deadline:  # an earlier update of the chat run first: the grace is over
            self._leave(update_id)
            return
        reply = job.stored_reply
        if reply is None:
            if job.admission == "notify" and not await allows(deps, incoming.user_id):
                reply = Reply(text="", silent=True)  # a refused sender: the day's refusal only
            elif job.admission == "notify":
                language = self.language(incoming)
                window = duration(self.deps.settings.rate_limit_window_seconds, language)
                reply = Reply(text=text("rate_limited", language, window=window))
            else:
                reply = await self._handle(incoming, channel)
                if reply is None:
                    self.stranded.add(update_id)
                    self.order.fell_behind(incoming.conversation_id)
                    return  # the database failed: the record stays `received`
        delivery = "nothing" if reply.silent else await channel.deliver(incoming, reply)
        if reply.follow_up is not None and delivery == "sent":
            # "preparando seu arquivo..." is out: now the file, still in the chat's turn
            reply = await self._follow_up(incoming, reply)
            delivery = await channel.deliver(incoming, reply)
        if delivery == "blocked":
            await deps.db.users.set_active(incoming.user_id, False)
            log_event(log, "user_inactive", user_id=incoming.user_id, reason="blocked_bot")
        if delivery == "retry_later":
            if reply.follow_up is None:  # one announcing a file is handled again instead
                await deps.db.updates.keep_reply(
                    update_id, reply_to_json(reply, with_data=True), now_ms=deps.clock.ms()
                )
            log_event(log, "reply_kept_for_redrive", level=logging.WARNING, update_id=update_id)
            self.order.fell_behind(incoming.conversation_id)
            return
        if delivery == "window_closed":
            log_event(log, "reply_outside_window", update_id=update_id, user_id=incoming.user_id)
        await self._finish(update_id, reply)
        if reply.attachment is not None and reply.attachment.path is not None:
            reply.attachment.path.unlink(missing_ok=True)  # sent: the export's file is done
        deps.metrics.updates.labels(incoming.channel, "processed").inc()

    async def _handle(self, incoming: Incoming, channel: ChannelPort) -> Reply | None:
        """Run the handler with the typing indicator; None when the database failed.

        A sender the bot refuses is shown no typing: nothing is being prepared for them.
        """
        typing = (
            asyncio.create_task(self._keep_typing(incoming, channel))
            if await allows(self.deps, incoming.user_id)
            else None
        )
        try:
            reply = await self.handler(incoming)
        except DatabaseUnavailable:
            log_event(
                log,
                "turn_database_unavailable",
                level=logging.WARNING,
                update_id=incoming.update_id,
            )
            return None
        except Exception:  # one handler per channel: log it, answer plainly
            log_event(
                log,
                "turn_failed",
                level=logging.ERROR,
                exc_info=True,
                update_id=incoming.update_id,
                user_id=incoming.user_id,
            )
            return Reply(text=text("try_again_later", self.language(incoming)))
        finally:
            if typing is not None:
                typing.cancel()
                await asyncio.gather(typing, return_exceptions=True)  # typing is best effort
        return reply

    async def _follow_up(self, incoming: Incoming, first: Reply) -> Reply:
        """The second reply `first` announced; a plain failure text when building it failed."""
        assert first.follow_up is not None
        try:
            return await first.follow_up(None)
        except Exception:  # one handler per channel: log it, answer plainly
            log_event(
                log,
                "follow_up_failed",
                level=logging.ERROR,
                exc_info=True,
                update_id=incoming.update_id,
                user_id=incoming.user_id,
            )
            return Reply(text=text("try_again_later", self.language(incoming)))

    async def _keep_typing(self, incoming: Incoming, channel: ChannelPort) -> None:
        await asyncio.sleep(self.tuning.typing_after_s)
        while True:
            await channel.typing(incoming)
            await asyncio.sleep(self.tuning.typing_every_s)

    async def _finish(self, update_id: str, reply: Reply | None) -> None:
        """Mark the update done; retried briefly, since the reply is already out."""
        reply_json = reply_to_json(reply, with_data=False) if reply is not None else None
        for delay in (0.2, 1.0, 2.0, None):
            try:
                await self.deps.db.updates.mark_done(
                    update_id, reply_json, now_ms=self.deps.clock.ms()
                )
                return
            except DatabaseUnavailable:
                if delay is None:
                    raise
                await asyncio.sleep(delay)

    def language(self, incoming: Incoming) -> Language:
        return incoming.language_hint or self.deps.settings.default_language

    # -- re-drive --------------------------------------------------------------------------

    async def redrive_pass(self) -> int:
        """Re-submit stale `received` updates (run by the leader only); return how many."""
        deps, tuning = self.deps, self.tuning
        now, stale_ms = deps.clock.ms(), int(tuning.stale_after_s * 1000)
        stale = await deps.db.updates.stale(
            now - stale_ms, newer_than_ms=now + stale_ms, limit=tuning.redrive_batch
        )
        submitted = 0
        for record in stale:
            if record.id in self._live:
                continue  # queued here: the heartbeat had not caught up yet
            if not await deps.db.updates.claim_stale(
                record.id, seen_updated_at_ms=record.updated_at_ms, now_ms=deps.clock.ms()
            ):
                continue  # someone else claimed or finished it
            if await self._redrive(record):
                submitted += 1
        if stale:
            log_event(log, "redrive_done", stale=len(stale), submitted=submitted)
        return submitted

    async def _redrive(self, record: ProcessedUpdateDoc) -> bool:
        prefix = record.id.split(":", 1)[0]
        channel = self._channels.get(prefix)
        if record.attempts + 1 > self.tuning.max_attempts:
            log_event(
                log,
                "redrive_gave_up",
                level=logging.ERROR,
                update_id=record.id,
                attempts=record.attempts,
            )
            await self._finish(record.id, None)
            return False
        if channel is None:
            log_event(log, "redrive_no_channel", level=logging.WARNING, update_id=record.id)
            return False
        job = self._restored_job(record, channel)
        if job is None:
            await self._finish(record.id, None)
            return False
        self.deps.metrics.updates.labels(channel.name, "redriven").inc()
        self._live.add(record.id)
        await channel.submit(job)
        return True

    def _restored_job(self, record: ProcessedUpdateDoc, channel: ChannelPort) -> Job | None:
        """The job of a stored `received` update (None: nothing in it to handle)."""
        try:
            incoming = channel.restore(record.payload_json)
        except ValueError:
            log_event(log, "redrive_bad_payload", level=logging.ERROR, update_id=record.id)
            return None
        if incoming is None:
            return None
        return Job(
            incoming,
            "notify" if record.notice else "process",
            redriven=True,
            stored_reply=reply_from_json(record.reply_json) if record.reply_json else None,
            admitted_ms=self.deps.clock.ms(),
            seq=record.seq if record.queue is not None else 0,
        )

    def schedule(self, name: str, every_s: float, job: Callable[[], Awaitable[object]]) -> None:
        """Run `job` every `every_s` seconds in whichever process holds `job:<name>`."""
        self._scheduled.append((name, every_s, job))

    async def heartbeat_once(self) -> None:
        """Renew the records of every update queued or running in this process."""
        live = list(self._live)
        now = self.deps.clock.ms()
        for start in range(0, len(live), 500):
            await self.deps.db.updates.touch(live[start : start + 500], now_ms=now)

    async def _heartbeat_loop(self) -> None:
        while not await wait_set(self._stopping, self.tuning.stale_after_s / 4):
            try:
                await self.heartbeat_once()
            except StorageError:
                log_event(log, "heartbeat_failed", level=logging.WARNING)

    def _builtin_jobs(self) -> list[tuple[str, float, Callable[[], Awaitable[object]]]]:
        return [
            ("redrive", self.tuning.redrive_interval_s, self.redrive_pass),
            ("lease-sweep", SWEEP_EVERY_S, self.chat_leases.sweep),
        ]

    def start(self) -> None:
        """Start the heartbeat and the leader-run jobs (their first pass runs at once)."""
        if self._tasks:
            return
        jobs = [*self._builtin_jobs(), *self._scheduled]
        retry = Retry(self.deps.db.updates, self.deps.clock.ms, self._live, self._redrive)
        stranded = self.stranded.run(retry, self._stopping, self.tuning.stranded_retry_s)
        self._tasks = [
            asyncio.create_task(self._heartbeat_loop(), name="heartbeat"),
            asyncio.create_task(stranded, name="stranded"),
        ] + [
            asyncio.create_task(
                leader_loop(self.deps, *spec, self._stopping), name=f"job:{spec[0]}"
            )
            for spec in jobs
        ]
        self._peers = asyncio.create_task(self.peers.run(self._leaving), name="peers")

    async def leave(self) -> None:
        """Stop announcing this process, once its queued turns are done (after `stop`).

        Until then peers keep reading under the chat leases: a job of ours still waiting
        for a lease has recorded its update but not yet changed the lease's owner.
        """
        if self.left_for_redrive:
            log_event(log, "left_for_redrive", count=self.left_for_redrive)
        self._leaving.set()
        if self._peers is not None:
            await self._peers
            self._peers = None

    async def stop(self, *, grace_s: float = 10.0) -> None:
        """Let the running passes finish (cancel them after `grace_s`), give up the leases."""
        tasks, self._tasks = self._tasks, []
        self._stopping.set()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=grace_s)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        await self.chat_leases.release_kept()
        for name, _, _ in [*self._builtin_jobs(), *self._scheduled]:
            with suppress(StorageError):
                await self.deps.db.leases.release(f"job:{name}", self.deps.owner)
