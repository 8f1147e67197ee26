"""Who may use the bot, at the runtime's entry: one refusal a day per sender, in any process."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from agent.clock import FakeClock
from agent.conversation.access import warn_if_open
from agent.texts import text
from agent.types import Incoming
from config.settings import load_settings
from storage import Database
from tests.support.harness import Lembra, open_lembra, restarted
from tests.support.trips import Trips

STRANGER = "tg:9001"
ALLOWED = "tg:9002,wa:5511999990000"
_updates = iter(range(1, 10_000))


async def _from_stranger(lembra: Lembra, message: str) -> str | None:
    """One message as a channel delivers it (its dedup record first); the text sent, or None."""
    update_id = f"tg:{next(_updates)}"
    await lembra.db.updates.record(
        update_id, "{}", now_ms=lembra.clock.ms(), user_id=STRANGER, queue=None
    )
    reply = await lembra.runtime.handle(
        Incoming(
            channel="telegram",
            chat_id="9001",
            user_id=STRANGER,
            text=message,
            update_id=update_id,
            language_hint="en",
        )
    )
    return None if reply.silent else reply.text


async def test_one_refusal_a_day_whichever_process_gets_the_message(db: Database) -> None:
    # dedup records keep 8 days by a TTL on the real clock: the test's clock starts now
    clock = FakeClock(datetime.now(UTC))
    async with open_lembra(db, allowed_user_ids=ALLOWED, clock=clock) as lembra:
        first = await _from_stranger(lembra, "save inception")
        again = await _from_stranger(lembra, "hello?")
        async with restarted(lembra, db) as other_process:
            from_the_other = await _from_stranger(other_process, "list everything")
        lembra.clock.advance(24 * 3600)
        next_day = await _from_stranger(lembra, "hello")

    assert first == text("not_allowed", "en", user_id=STRANGER)
    assert again is None
    assert from_the_other is None
    assert next_day == first
    assert await db.users.get(STRANGER) is None
    assert await db.ledger.events(STRANGER) == []


async def test_listed_ids_admins_and_the_console_are_served(db: Database) -> None:
    async with open_lembra(db, allowed_user_ids=ALLOWED, admin_user_ids="tg:9003") as lembra:
        listed = await lembra.say("anota: comprar leite", user="tg:9002")
        admin = await lembra.say("anota: comprar pão", user="tg:9003")
        console = await lembra.say("anota: comprar café", user="cli:alice")

    for reply in (listed, admin, console):
        assert reply.text.startswith("✅")


async def test_the_check_costs_a_listed_user_no_round_trip(
    watched_db: Database, trips: Trips
) -> None:
    async def second_turn(lembra: Lembra, user: str) -> list[tuple[str, str]]:
        await lembra.say("lista tudo", user=user)
        trips.seen.clear()
        await lembra.say("lista tudo", user=user)
        return list(trips.seen)

    async with open_lembra(watched_db) as lembra:
        open_to_all = await second_turn(lembra, "tg:9004")
    async with open_lembra(watched_db, allowed_user_ids=ALLOWED) as lembra:
        listed = await second_turn(lembra, "tg:9002")

    assert listed == open_to_all


@pytest.mark.parametrize(
    ("values", "warned"),
    [
        ({"openai_base_url": "http://127.0.0.1:1/v1"}, True),
        ({"openai_base_url": "http://127.0.0.1:1/v1", "allowed_user_ids": ALLOWED}, False),
        ({}, False),  # the offline planner spends no tokens
    ],
)
def test_an_open_bot_with_a_model_is_warned_about(
    caplog: pytest.LogCaptureFixture, values: dict[str, str], warned: bool
) -> None:
    settings = load_settings(_env_file=None, openai_api_key=None, **values)
    with caplog.at_level(logging.WARNING):
        warn_if_open(settings)
    assert [r.getMessage() for r in caplog.records] == (["bot_open_to_everyone"] if warned else [])
