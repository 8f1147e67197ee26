"""Who may use the bot, at the runtime's entry: one refusal a day per sender, in any process."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.clock import FakeClock
from agent.conversation.access import code_digest, is_id_command, new_code, warn_if_open
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


def _code(refusal: str | None) -> str:
    found = re.search(r"\b([A-Z0-9]{4}-[A-Z0-9]{4})\b", refusal or "")
    assert found is not None, refusal
    return found.group(1)


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

    assert first == text("not_allowed_code", "en", user_id=STRANGER, code=_code(first))
    assert again is None
    assert from_the_other is None
    assert next_day == text("not_allowed_code", "en", user_id=STRANGER, code=_code(next_day))
    assert _code(next_day) != _code(first)  # a new day, a new code
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


# -- pairing (DESIGN 11.6) ------------------------------------------------------------------

ADMIN = "tg:9003"


async def test_an_admin_approves_a_refused_sender_by_the_code_and_it_holds_at_once(
    db: Database,
) -> None:
    clock = FakeClock(datetime.now(UTC))
    async with open_lembra(
        db, allowed_user_ids=ALLOWED, admin_user_ids=ADMIN, clock=clock
    ) as lembra:
        refusal = await _from_stranger(lembra, "save inception")
        async with restarted(lembra, db) as other_process:
            approved = await lembra.say(f"/allow {_code(refusal).lower()}", user=ADMIN)
            # another process, with no restart and no cache to wait for
            served = await _from_stranger(other_process, "note: buy milk")
            again = await lembra.say(f"/allow {STRANGER}", user=ADMIN)
            revoked = await lembra.say(f"/deny {STRANGER}", user=ADMIN)
            refused = await _from_stranger(other_process, "note: buy bread")

    assert approved.text == text("access_added", "pt", user_id=STRANGER)
    assert served is not None
    assert served.startswith("✅")
    assert again.text == text("access_already", "pt", user_id=STRANGER)
    assert revoked.text == text("access_removed", "pt", user_id=STRANGER)
    assert refused is None  # refused again, silently: today's refusal was given
    assert await db.allowed.all() == []


async def test_a_code_is_good_once_and_for_a_day_and_only_from_an_admin(db: Database) -> None:
    clock = FakeClock(datetime.now(UTC))
    async with open_lembra(
        db, allowed_user_ids=ALLOWED, admin_user_ids=ADMIN, clock=clock
    ) as lembra:
        code = _code(await _from_stranger(lembra, "oi"))
        by_a_user = await lembra.say(f"/allow {code}", user="tg:9002")
        lembra.clock.advance(24 * 3600 + 1)
        late = await lembra.say(f"/allow {code}", user=ADMIN)
        fresh = _code(await _from_stranger(lembra, "oi de novo"))
        first = await lembra.say(f"/allow {fresh}", user=ADMIN)
        reused = await lembra.say(f"/allow {fresh}", user=ADMIN)
        guessed = await lembra.say("/allow ABCD-EFGH", user=ADMIN)
        garbage = await lembra.say("/allow 12", user=ADMIN)

    assert by_a_user.text == text("unknown_command", "pt", name="allow")
    assert late.text == text("access_unknown_code", "pt")
    assert first.text == text("access_added", "pt", user_id=STRANGER)
    assert reused.text == text("access_unknown_code", "pt")
    assert guessed.text == text("access_unknown_code", "pt")
    assert garbage.text == text("allow_usage", "pt")
    assert [d.id for d in await db.allowed.all()] == [STRANGER]


async def test_the_environment_s_ids_and_admins_are_not_the_chat_s_to_revoke(db: Database) -> None:
    async with open_lembra(db, allowed_user_ids=ALLOWED, admin_user_ids=ADMIN) as lembra:
        listed = await lembra.say("/deny tg:9002", user=ADMIN)
        admin = await lembra.say(f"/deny {ADMIN}", user=ADMIN)
        absent = await lembra.say("/deny tg:777", user=ADMIN)
        usage = await lembra.say("/deny someone", user=ADMIN)

    assert listed.text == text("access_listed", "pt", user_id="tg:9002")
    assert admin.text == text("access_admin", "pt", user_id=ADMIN)
    assert absent.text == text("access_absent", "pt", user_id="tg:777")
    assert usage.text == text("deny_usage", "pt")


async def test_id_tells_anyone_their_id_and_stores_nothing_of_a_refused_sender(
    db: Database,
) -> None:
    async with open_lembra(db, allowed_user_ids=ALLOWED) as lembra:
        refusal = await _from_stranger(lembra, "oi")
        asked = [await _from_stranger(lembra, "/id") for _ in range(2)]
        own = await lembra.say("/id", user="tg:9002")

    assert refusal is not None
    assert asked == [text("your_id", "en", user_id=STRANGER)] * 2
    assert own.text == text("your_id", "pt", user_id="tg:9002")
    assert await db.users.get(STRANGER) is None
    assert await db.ledger.events(STRANGER) == []


@settings(max_examples=300, deadline=None)
@given(typed=st.text(max_size=40))
def test_whatever_an_admin_types_as_a_code_is_read_without_raising(typed: str) -> None:
    digest = code_digest(typed)
    assert digest is None or re.fullmatch(r"[0-9a-f]{64}", digest)
    assert isinstance(is_id_command(typed), bool)


def test_a_code_is_read_however_it_is_typed() -> None:
    code = new_code()
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    assert code_digest(code) == code_digest(code.lower().replace("-", " ")) is not None
    assert len({new_code() for _ in range(200)}) == 200
