"""`reminders` on every backend: a due reminder is claimed once, a dead claim is retried once."""

from __future__ import annotations

import asyncio

from storage import Database
from storage.documents import ReminderDoc
from storage.reminders import SENDING_STALE_MS

NOW = 1_767_618_000_000


def reminder(rid: str = "r1", *, user: str = "cli:alice", due: int = NOW) -> ReminderDoc:
    return ReminderDoc(
        _id=rid,
        user_id=user,
        channel="console",
        chat_id=user.split(":")[1],
        text="tirar o bolo",
        timezone="America/Sao_Paulo",
        due_at_ms=due,
        wake_at_ms=due,
        created_at_ms=NOW - 1,
        updated_at_ms=NOW - 1,
    )


async def test_only_due_open_reminders_wake(any_db: Database) -> None:
    repo = any_db.reminders
    await repo.add(reminder("due"))
    await repo.add(reminder("later", due=NOW + 60_000))
    await repo.add(reminder("gone"))
    gone = await repo.get("cli:alice", "gone")
    assert gone is not None
    assert await repo.cancel("cli:alice", gone, NOW)
    assert [r.id for r in await repo.waking(NOW)] == ["due"]
    assert [r.id for r in await repo.open_for("cli:alice")] == ["due", "later"]
    assert await repo.get("cli:bob", "due") is None  # another user's reminder is not found


async def test_fifty_concurrent_claims_have_one_winner(any_db: Database) -> None:
    repo = any_db.reminders
    await repo.add(reminder())
    seen = (await repo.waking(NOW))[0]
    claims = await asyncio.gather(*(repo.claim(seen, f"w{n}", NOW) for n in range(50)))
    winners = [c for c in claims if c is not None]
    assert len(winners) == 1
    assert await repo.waking(NOW) == []  # a live claim is not due again
    assert await repo.mark_sent(winners[0], NOW + 1)
    assert not await repo.mark_sent(winners[0], NOW + 2)  # sent once
    stored = await repo.get("cli:alice", "r1")
    assert stored is not None
    assert stored.state == "sent"
    assert stored.sent_at_ms == NOW + 1


async def test_a_dead_claim_wakes_after_two_minutes_and_the_dead_owner_cannot_finish(
    any_db: Database,
) -> None:
    repo = any_db.reminders
    await repo.add(reminder())
    dead = await repo.claim((await repo.waking(NOW))[0], "dead-worker", NOW)
    assert dead is not None
    assert await repo.waking(NOW + SENDING_STALE_MS - 1) == []
    stale = await repo.waking(NOW + SENDING_STALE_MS)
    assert [r.state for r in stale] == ["sending"]
    retry = await repo.claim(stale[0], "live-worker", NOW + SENDING_STALE_MS)
    assert retry is not None
    assert retry.attempts == 2
    assert not await repo.mark_sent(dead, NOW + SENDING_STALE_MS + 1)  # late, superseded
    assert await repo.mark_sent(retry, NOW + SENDING_STALE_MS + 1)


async def test_snooze_reschedules_a_sent_reminder_once(any_db: Database) -> None:
    repo = any_db.reminders
    await repo.add(reminder())
    claimed = await repo.claim(reminder(), "w", NOW)
    assert claimed is not None
    assert await repo.mark_sent(claimed, NOW)
    sent = await repo.get("cli:alice", "r1")
    assert sent is not None
    assert not await repo.reschedule("cli:bob", sent, NOW + 600_000, NOW)
    assert await repo.reschedule("cli:alice", sent, NOW + 600_000, NOW)
    assert not await repo.reschedule("cli:alice", sent, NOW + 900_000, NOW)
    assert [r.id for r in await repo.waking(NOW + 600_000)] == ["r1"]
