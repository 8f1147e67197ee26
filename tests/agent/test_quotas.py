"""Daily token quotas (DESIGN 3.9): usage per model call, limits by role and globally, atomic
reservations under concurrency, the over-quota reply, and the reset at the user's midnight."""

from __future__ import annotations

import asyncio
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agent.conversation.turn import Turn
from agent.errors import QuotaExceeded
from agent.tokens import compact_json
from agent.types import Incoming
from config.settings import Settings
from storage import Database
from storage.usage import GLOBAL
from tests.support.live import ALICE, Live, call, live_runtime, shared_counter

ROOT = "cli:root"
BOB = "cli:bob"
SAVE = call("save_note", content="comprar pão")
DEFAULTS = Settings.model_fields


async def tokens_used(live: Live, subject: str, day: str) -> int:
    doc = await live.db.usage.day(subject, day)
    return int(doc.get("tokens", 0)) if doc else 0


async def day_doc(live: Live, subject: str, day: str) -> dict[str, object]:
    return dict(await live.db.usage.day(subject, day) or {})


def today(live: Live, zone: str = "America/Sao_Paulo") -> str:
    return live.clock.now().astimezone(ZoneInfo(zone)).date().isoformat()


async def quota_events(live: Live, user_id: str = ALICE) -> list[dict[str, object]]:
    return [e.payload for e in await live.db.ledger.events(user_id) if e.type == "quota_exceeded"]


# -- usage ------------------------------------------------------------------------------------------


async def test_usage_is_recorded_per_model_call(db: Database) -> None:
    async with live_runtime(db) as live:
        bad = {**SAVE, "message": "not with a tool"}
        reply, report = await live.say("anota: comprar pão", llm=[bad, SAVE])
        assert report.problems() == []
        day = today(live)
        usage = await day_doc(live, ALICE, day)
        global_tokens = await tokens_used(live, GLOBAL, day)
    assert reply.meta.llm_calls == 2
    assert usage["model_calls"] == 2
    # what the server billed for each call: its prompt plus the scripted answer
    prompts = [r.prompt_tokens for r in report.requests]
    answers = [shared_counter().count_text(compact_json(o)) for o in (bad, SAVE)]
    assert None not in prompts
    billed = sum(p for p in prompts if p is not None) + sum(answers)
    assert usage["tokens"] == billed
    assert global_tokens == billed


# -- limits ----------------------------------------------------------------------------------------


async def test_limits_by_role_with_the_documented_defaults(db: Database) -> None:
    user_default = DEFAULTS["user_daily_token_quota"].default
    admin_default = DEFAULTS["admin_daily_token_quota"].default
    assert (user_default, admin_default) == (200_000, 1_000_000)
    async with live_runtime(
        db,
        user_daily_token_quota=user_default,
        admin_daily_token_quota=admin_default,
        admin_user_ids=ROOT,
    ) as live:
        day = today(live)
        for uid in (ALICE, ROOT):
            await live.say("oi", user=uid)
            await live.db.usage.add_tokens(uid, day, 199_500)  # almost a user's day
        reply, report = await live.say("anota: comprar pão", llm=[SAVE])
        assert report.llm_calls == 0
        assert reply.meta.state == "FAIL"
        reply, report = await live.say("anota: comprar pão", llm=[SAVE], user=ROOT)
        assert report.llm_calls == 1
        assert reply.meta.state == "OK"

        await live.db.usage.add_tokens(ROOT, day, 1_000_000 - 199_500 - 2_000)
        _, report = await live.say(
            "anota: café", llm=[call("save_note", content="café")], user=ROOT
        )
        assert report.llm_calls == 0

        # an admin's per-user quota (/quota) overrides the role's
        await live.say(f"/quota {ALICE} 500000", user=ROOT)
        _, report = await live.say("anota: comprar pão", llm=[SAVE])
        assert report.llm_calls == 1


async def test_the_global_cap_stops_everyone_and_returns_the_users_reservation(
    db: Database,
) -> None:
    async with live_runtime(db, global_daily_token_cap=3_300) as live:
        day = today(live)
        _, report = await live.say("anota: comprar pão", llm=[SAVE])
        assert report.llm_calls == 1
        used = await tokens_used(live, GLOBAL, day)
        reply, report = await live.say("anota: leite", llm=[SAVE], user=BOB)
        assert report.llm_calls == 0
        assert reply.meta.state == "FAIL"
        assert "O assistente atingiu o limite diário" in reply.text
        assert await tokens_used(live, BOB, day) == 0  # nothing kept reserved for bob
        assert await tokens_used(live, GLOBAL, day) == used
        assert await quota_events(live, BOB) == [
            {
                "scope": "global",
                "day": day,
                "requested": (await quota_events(live, BOB))[0]["requested"],
            }
        ]


async def test_twenty_concurrent_turns_cannot_overspend(db: Database) -> None:
    async with live_runtime(db) as live:
        _, probe = await live.say("anota: nota 0", llm=[call("save_note", content="nota 0")])
        size = probe.requests[0].prompt_tokens
        assert size is not None
        day = today(live)
        spent = await tokens_used(live, ALICE, day)
        # room for five more prompts like the probe, but not for five prompts and their answers
        limit = spent + 5 * size + 10
        await live.db.users.set_daily_quota(ALICE, limit)

        outputs = [call("save_note", content=f"nota {n}") for n in range(1, 21)]
        live.model.begin_turn(outputs)
        replies = await asyncio.gather(
            *(
                live.runtime.handle(
                    Incoming(
                        channel="console",
                        chat_id=f"alice-{n}",  # twenty chats of one user at once
                        user_id=ALICE,
                        text=f"anota: nota {n}",
                    )
                )
                for n in range(1, 21)
            )
        )
        served = live.model.end_turn()
        used = await tokens_used(live, ALICE, day)

    answered = [r for r in replies if r.meta.llm_calls]
    refused = [r for r in replies if not r.meta.llm_calls]
    assert served.llm_calls == len(answered)
    assert 1 <= len(answered) <= 5
    assert len(refused) == 20 - len(answered)
    assert all("limite diário" in r.text for r in refused)
    assert used <= limit, f"overspent: {used} > {limit}"
    assert len(await quota_events(live)) == len(refused)


async def test_a_reservation_covers_the_answer_too(db: Database) -> None:
    """A call is made only if its prompt and the longest answer it may get fit in the quota."""
    async with live_runtime(db, user_daily_token_quota=2_000, llm_max_tokens=600) as live:
        user = await live.db.users.ensure(
            ALICE, language="pt", timezone="America/Sao_Paulo", now_ms=live.clock.ms()
        )
        incoming = Incoming(channel="console", chat_id="alice", user_id=ALICE, text="x")
        turn = Turn(incoming=incoming, user=user, language="pt", now_ms=live.clock.ms())
        quotas = live.runtime.quotas
        day = today(live)

        await quotas.reserve(turn, 1_000)  # 1,000 + 600 fit in 2,000
        await quotas.settle(turn, reserved=1_000, used=1_550)
        assert await tokens_used(live, ALICE, day) == 1_550
        with pytest.raises(QuotaExceeded):
            await quotas.reserve(turn, 300)  # the prompt fits, a full answer would not
        assert await tokens_used(live, ALICE, day) == 1_550
        assert await tokens_used(live, GLOBAL, day) == 1_550


# -- over quota ------------------------------------------------------------------------------------------


async def test_over_quota_a_plain_message_no_model_call_and_commands_still_work(
    db: Database,
) -> None:
    async with live_runtime(db, user_daily_token_quota=100) as live:
        reply, report = await live.say("anota: comprar pão", llm=[SAVE])
        assert report.llm_calls == 0
        assert reply.meta.state == "FAIL"
        assert reply.text == (
            "Você atingiu o limite diário de uso do assistente. Comandos como «lista» "
            "continuam funcionando; o limite renova à meia-noite."
        )
        assert await live.db.items.list_for(ALICE) == []
        (event,) = await quota_events(live)
        assert event["scope"] == "user"
        assert (
            live.deps.metrics.registry.get_sample_value(
                "lembra_quota_exceeded_total", {"scope": "user"}
            )
            == 1
        )
        reply, report = await live.say("lista tudo")
        assert report.llm_calls == 0
        assert reply.meta.state == "OK"
        reply, _ = await live.say("/help")
        assert reply.meta.state == "OK"

        await live.say("/lang en")
        reply, report = await live.say("note: buy bread", llm=[SAVE])
        assert report.llm_calls == 0
        assert reply.text.startswith("You reached today's assistant usage limit.")


async def test_the_quota_resets_at_midnight_in_the_users_time_zone(db: Database) -> None:
    zone = ZoneInfo("America/Sao_Paulo")  # UTC-3: the UTC day changes at 21:00 here
    start = datetime(2026, 1, 5, 20, 0, tzinfo=zone)
    # one call's reservation fits, two do not; the new day's prompt also carries the idle
    # sessions' handovers (with their failed requests), so it is larger than the first
    async with live_runtime(db, start=start, user_daily_token_quota=3_800) as live:
        _, report = await live.say("anota: um", llm=[call("save_note", content="um")])
        assert report.llm_calls == 1
        _, report = await live.say("anota: dois", llm=[call("save_note", content="dois")])
        assert report.llm_calls == 0  # the day's quota is spent

        live.clock.advance(90 * 60)  # 21:30 local, 00:30 UTC on the 6th
        _, report = await live.say("anota: dois", llm=[call("save_note", content="dois")])
        assert report.llm_calls == 0
        live.clock.advance(2 * 3600 + 29 * 60 + 59)  # 23:59:59 local
        _, report = await live.say("anota: dois", llm=[call("save_note", content="dois")])
        assert report.llm_calls == 0

        live.clock.advance(1)  # midnight in São Paulo
        _, report = await live.say("anota: dois", llm=[call("save_note", content="dois")])
        assert report.llm_calls == 1
        days = sorted(str(d["day"]) for d in await live.db.usage.all() if d["user_id"] == ALICE)
    assert days == ["2026-01-05", "2026-01-06"]


async def test_a_call_that_got_no_answer_returns_its_reservation(db: Database) -> None:
    """A model that is down costs the user nothing; a timed-out call keeps only its prompt."""
    async with live_runtime(db, user_daily_token_quota=50_000, llm_timeout_seconds=0.5) as live:
        day = today(live)
        # what the offline planner cannot serve either (DESIGN 10.5): the turn fails
        reply, report = await live.say("me recomenda um restaurante", errors=[{"status": 500}] * 3)
        assert report.llm_calls == 3
        assert reply.meta.state == "FAIL"
        assert await tokens_used(live, ALICE, day) == 0
        assert await tokens_used(live, GLOBAL, day) == 0

        reply, report = await live.say("me recomenda um restaurante", errors=[{"delay": 2}])
        assert reply.meta.state == "FAIL"
        prompt = report.requests[0].prompt_tokens
        assert prompt is not None
        assert await tokens_used(live, ALICE, day) == prompt
        assert await tokens_used(live, GLOBAL, day) == prompt
