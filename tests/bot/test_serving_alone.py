"""A process serving alone skips the read of its chats' waiting records (issue 16).

The holder of a chat's lease reads what else of the chat waits before its turn. A
process that knows it is alone (bot/delivery/peers.py) and takes its lease back untouched
knows nothing else waits, and spends three round trips of its own on an update:
record, lease, done. Anything that could have left an earlier update waiting, another
process, a mark, a failure here, makes it read again.
"""

from __future__ import annotations

import json
import time
from typing import Any

from bot.delivery.peers import Peers
from bot.web.app import CHANNELS
from storage import Database
from storage.chatqueue import queue_key
from tests.support.fake_telegram import message_update
from tests.support.trips import Trips, trips, watched_db

__all__ = ["trips", "watched_db"]

CHAT = 5550401


async def say(h: Any, text: str) -> None:
    await h.post_update(message_update(CHAT, text))
    await h.idle()
    await h.lifecycle.chat_leases.given_back()


async def record_elsewhere(db: Database, text: str, *, mark: bool) -> str:
    """What another process's admit does: record an update of the chat (and mark it)."""
    update = message_update(CHAT, text)
    update_id = f"tg:{update['update_id']}"
    await db.updates.record(
        update_id,
        json.dumps(update),
        now_ms=time.time_ns() // 1_000_000,  # wall clock: the TTL index reads it
        queue=queue_key(f"tg:{CHAT}"),
        seq=1,  # arrived before anything this process numbers
    )
    if mark:
        await db.leases.mark_wanted(f"chat:tg:{CHAT}", until_ms=int(time.time() * 1000) + 5_000)
    return update_id


async def test_alone_a_chat_speaking_again_costs_record_lease_and_done(
    harness: Any, watched_db: Database, trips: Trips
) -> None:
    async with harness(database=watched_db) as h:
        await h.lifecycle.peers.refresh()
        assert h.lifecycle.peers.alone
        await say(h, "um")
        trips.seen.clear()

        await say(h, "dois")

        assert h.tg.texts(CHAT) == ["eco: um", "eco: dois"]
        assert trips.on("processed_updates") == ["insert_one", "update_one"]  # record, done
        assert trips.on("leases") == ["find_one_and_update", "update_many"]  # back in place
        assert await h.db.leases.holder(f"chat:tg:{CHAT}", now_ms=h.deps.clock.ms()) is None


async def test_a_process_that_came_up_marks_the_chat_and_its_update_runs_first(
    harness: Any,
) -> None:
    async with harness() as h:
        await h.lifecycle.peers.refresh()
        await say(h, "um")
        earlier = await record_elsewhere(h.db, "do outro processo", mark=True)

        await say(h, "dois")

        assert h.tg.texts(CHAT) == ["eco: um", "eco: do outro processo", "eco: dois"]
        assert await h.status(earlier) == "done"


async def admitted_out_of_order(h: Any, *texts: str) -> list[Any]:
    """Jobs of the chat admitted in this order but to be processed by the caller."""
    channel = h.client.server.app[CHANNELS].telegram
    jobs = []
    for text in texts:
        update = message_update(CHAT, text)
        incoming = channel.restore(json.dumps(update))
        assert await h.lifecycle.admit(incoming, json.dumps(update)) == "process"
        jobs.append(h.lifecycle.job(incoming, "process"))
    return jobs


async def process(h: Any, job: Any) -> None:
    await h.lifecycle.process(job, h.client.server.app[CHANNELS].telegram)
    await h.lifecycle.chat_leases.given_back()


async def test_a_later_update_reaching_the_chat_first_runs_the_earlier_one_first(
    harness: Any,
) -> None:
    # Two webhooks of one chat at once: the later-numbered one finished admitting first.
    async with harness() as h:
        await h.lifecycle.peers.refresh()
        await say(h, "zero")
        first, second = await admitted_out_of_order(h, "um", "dois")

        await process(h, second)
        await process(h, first)  # found done: not run again

        assert h.tg.texts(CHAT) == ["eco: zero", "eco: um", "eco: dois"]
        await say(h, "três")  # and the chat goes back to skipping the read
        assert h.tg.texts(CHAT)[-1] == "eco: três"


async def test_an_update_run_early_is_not_run_again_after_other_reads(harness: Any) -> None:
    async with harness() as h:
        await h.lifecycle.peers.refresh()
        await say(h, "zero")
        first, second, third = await admitted_out_of_order(h, "um", "dois", "três")

        await process(h, second)  # reads, runs "um" first
        await process(h, third)  # reads again (nothing left waiting)
        await process(h, first)  # its own job: must find it done

        assert h.tg.texts(CHAT) == ["eco: zero", "eco: um", "eco: dois", "eco: três"]


async def test_a_lease_taken_while_others_served_is_not_given_back_trusted(
    harness: Any,
) -> None:
    async with harness() as h:
        peers = h.lifecycle.peers
        await h.db.leases.announce("other-host:1:ab", ttl_ms=30_000, now_ms=h.deps.clock.ms())
        await peers.refresh()
        held = h.lifecycle.chat_leases.hold(f"tg:{CHAT}")
        await held.__aenter__()  # a turn while the other process serves
        earlier = await record_elsewhere(h.db, "do outro", mark=False)
        await h.db.leases.release("peer:other-host:1:ab", "other-host:1:ab")
        await peers.refresh()  # alone from here on, with the turn still running
        await held.__aexit__(None, None, None)
        await h.lifecycle.chat_leases.given_back()

        await say(h, "dois")

        assert h.tg.texts(CHAT) == ["eco: do outro", "eco: dois"]
        assert await h.status(earlier) == "done"


async def test_a_peer_that_came_and_went_leaves_no_trusted_lease_behind(harness: Any) -> None:
    async with harness() as h:
        peers = h.lifecycle.peers
        await peers.refresh()
        await say(h, "um")  # given back in place while alone
        await h.db.leases.announce("other-host:1:ab", ttl_ms=30_000, now_ms=h.deps.clock.ms())
        await peers.refresh()
        earlier = await record_elsewhere(h.db, "do outro", mark=False)  # past its marks
        await h.db.leases.release("peer:other-host:1:ab", "other-host:1:ab")  # gone
        await peers.refresh()
        assert peers.alone

        await say(h, "dois")

        assert h.tg.texts(CHAT) == ["eco: um", "eco: do outro", "eco: dois"]
        assert await h.status(earlier) == "done"


async def test_with_another_process_alive_every_turn_reads_what_waits(harness: Any) -> None:
    async with harness() as h:
        await h.db.leases.announce("other-host:1:ab", ttl_ms=30_000, now_ms=h.deps.clock.ms())
        await h.lifecycle.peers.refresh()
        assert not h.lifecycle.peers.alone
        await say(h, "um")
        await record_elsewhere(h.db, "sem marca", mark=False)  # it knows we are here

        await say(h, "dois")

        assert h.tg.texts(CHAT) == ["eco: um", "eco: sem marca", "eco: dois"]


async def test_a_reply_left_to_send_goes_out_before_the_chats_next_one(harness: Any) -> None:
    async with harness() as h:
        await h.lifecycle.peers.refresh()
        h.tg.fail("sendMessage", status=500, times=4)  # every retry of the first reply
        await say(h, "um")
        assert h.tg.texts(CHAT) == []

        await say(h, "dois")  # alone and untouched, but this chat is behind here

        assert h.tg.texts(CHAT) == ["eco: um", "eco: dois"]


async def test_a_process_announced_alone_and_its_marks(db: Database, harness: Any) -> None:
    async with harness() as h:
        now = [0.0]
        peers = Peers(h.deps, every_s=10, monotonic=lambda: now[0])
        assert not peers.alone
        assert peers.marking  # never announced: anyone may not know of us

        await db.leases.announce("other-host:1:ab", ttl_ms=30_000, now_ms=h.deps.clock.ms())
        await peers.refresh()
        assert (peers.alone, peers.marking) == (False, True)  # just came up among others
        now[0] = 20.0
        assert (peers.alone, peers.marking) == (False, False)  # they all know of us by now
        now[0] = 31.0
        assert peers.marking  # not announced for longer than our document lives

        await db.leases.release("peer:other-host:1:ab", "other-host:1:ab")
        await peers.refresh()
        assert (peers.alone, peers.marking) == (True, False)
        now[0] = 46.5
        assert not peers.alone  # no read for one and a half periods: no longer known
