"""A chat's lease is handed from one queued update to the next (issue 16).

Taking and giving back `chat:<conversation>` is two round trips per update; updates of
one chat already queued in this process share it, a lease nobody picks up goes back on
its own, and leases going back at about the same time go back in one round trip.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.delivery.chatlease import ChatLeases
from storage import Database
from tests.support.fake_telegram import message_update
from tests.support.scripted_runtime import ScriptedRuntime
from tests.support.trips import Trips, trips, watched_db

__all__ = ["trips", "watched_db"]  # the round-trip watching fixtures, shared

CHAT = 5550301
KEY = f"chat:tg:{CHAT}"


async def holder(db: Database, key: str = KEY) -> str | None:
    return await db.leases.holder(key, now_ms=int(time.time() * 1000))


async def test_updates_queued_behind_each_other_take_the_chat_lease_once(
    harness: Any, watched_db: Database, trips: Trips
) -> None:
    runtime = ScriptedRuntime(release=asyncio.Event())
    async with harness(runtime=runtime, database=watched_db) as h:
        await h.lifecycle.peers.refresh()  # serving alone: nobody to mark chats for
        await h.post_update(message_update(CHAT, "devagar"))
        await asyncio.wait_for(runtime.entered.wait(), timeout=10)
        for n in range(3):  # queued here behind the running turn
            await h.post_update(message_update(CHAT, f"m{n}"))
        runtime.release.set()  # type: ignore[union-attr]
        await h.idle()
        await h.lifecycle.chat_leases.given_back()

        assert h.tg.texts(CHAT) == ["pronto", "eco: m0", "eco: m1", "eco: m2"]
        assert trips.on("leases").count("insert_one") == 1
        assert trips.on("leases").count("update_many") == 1  # given back in place, once
        assert await holder(watched_db) is None  # given back after the last one


async def test_a_kept_lease_nobody_picks_up_goes_back_by_itself(harness: Any) -> None:
    async with harness() as h:
        leases = ChatLeases(h.deps, ttl_s=5, wait_s=1, queued=lambda _: 2, keep_s=0.05)
        async with leases.hold("tg:1"):
            pass
        assert leases.kept == 1
        assert await holder(h.db, "chat:tg:1") == h.deps.owner  # kept for the next update

        await asyncio.sleep(0.2)  # four keep windows: a loop timer, no clock to inject
        assert leases.kept == 0
        await leases.release_kept()  # waits for the expiry's release, gives back nothing else
        assert await holder(h.db, "chat:tg:1") is None


async def test_shutdown_gives_back_every_kept_lease(harness: Any) -> None:
    async with harness() as h:
        leases = ChatLeases(h.deps, ttl_s=5, wait_s=1, queued=lambda _: 2, keep_s=60)
        async with leases.hold("tg:1"):
            pass
        async with leases.hold("tg:2"):
            pass
        assert leases.kept == 2

        await leases.release_kept()

        assert leases.kept == 0
        assert await holder(h.db, "chat:tg:1") is None
        assert await holder(h.db, "chat:tg:2") is None
        async with leases.hold("tg:1"):  # after shutdown began, nothing is kept any more
            pass
        assert leases.kept == 0


async def test_leases_going_back_together_take_one_round_trip(
    harness: Any, watched_db: Database, trips: Trips
) -> None:
    async with harness(database=watched_db) as h:
        leases = ChatLeases(h.deps, ttl_s=5, wait_s=1, queued=lambda _: 1, batch_s=0.05)
        for chat in ("tg:1", "tg:2", "tg:3"):
            async with leases.hold(chat):
                pass
        assert await holder(h.db, "chat:tg:2") == h.deps.owner  # still going back
        trips.seen.clear()
        await leases.given_back()

        assert trips.on("leases") == ["delete_many"]
        for chat in ("tg:1", "tg:2", "tg:3"):
            assert await holder(h.db, f"chat:{chat}") is None


async def test_a_chat_speaking_again_takes_its_lease_back_from_the_batch(
    harness: Any, watched_db: Database, trips: Trips
) -> None:
    async with harness(database=watched_db) as h:
        leases = ChatLeases(h.deps, ttl_s=5, wait_s=1, queued=lambda _: 1, batch_s=0.05)
        async with leases.hold("tg:1"):
            pass
        async with leases.hold("tg:1"):  # before the batch left: the same lease, no trip
            assert await holder(h.db, "chat:tg:1") == h.deps.owner
        await leases.given_back()
        assert trips.on("leases").count("insert_one") == 1
        assert await holder(h.db, "chat:tg:1") is None
        await leases.release_kept()
