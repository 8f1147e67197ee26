"""An update whose turn the database failed is answered as soon as the database is back.

Issue 15: an update in flight when the embedded child was killed (or the database cut)
stayed `received` until the re-drive found it stale, a minute or more later. This test
fails on the previous main, where the answer comes only after that minute.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from agent.types import Incoming, Reply
from storage import Database
from tests.bot.conftest import FAST
from tests.support.fake_telegram import message_update
from tests.support.tcp_proxy import TcpProxy

CHAT = 5551515


async def test_a_turn_the_database_failed_is_answered_once_it_is_back(
    harness: Any, outage_db: tuple[Database, TcpProxy]
) -> None:
    db, proxy = outage_db
    failed = asyncio.Event()
    turns: list[str] = []

    async def handler(incoming: Incoming) -> Reply:
        turns.append(incoming.text or "")
        if len(turns) == 1:  # the database goes away in the middle of the first turn
            proxy.cut()
            try:
                await db.items.get(incoming.user_id, "any")
            finally:
                failed.set()
        return Reply(text="salvo")

    tuning = replace(FAST.tuning, stranded_retry_s=0.1, chat_lease_ttl_s=1.0)
    options = replace(FAST, tuning=tuning, jobs=True)
    async with harness(database=db, handler=handler, options=options) as h:
        update = message_update(CHAT, "salva inception")
        response = await h.post_update(update)
        assert response.status == 200  # recorded and acknowledged before the turn
        await asyncio.wait_for(failed.wait(), timeout=10)
        proxy.restore()
        # well under the re-drive's minute: the update is retried once the database answers
        await h.tg.wait_for(lambda: h.tg.texts(CHAT) == ["salvo"], timeout_s=10)
        assert turns == ["salva inception", "salva inception"]
        await h.until_status(f"tg:{update['update_id']}", "done")
