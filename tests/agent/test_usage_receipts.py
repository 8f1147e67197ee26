"""`model_usage` events add up to the usage counters; committed effects carry receipts (issue 13)."""

from __future__ import annotations

import json

from bot.cli.console import meta_line
from storage import Database
from tests.support.live import ALICE, call, live_runtime

SAVE = call("save_note", content="comprar pão")


async def test_model_usage_events_sum_to_the_counters_and_hold_no_content(db: Database) -> None:
    async with live_runtime(db) as live:
        bad = {**SAVE, "message": "not with a tool"}
        reply, report = await live.say("anota: comprar pão", llm=[bad, SAVE])
        assert report.problems() == []
        events = await live.db.ledger.events(ALICE)
        usage = dict(await live.db.usage.day(ALICE, live.clock.now().date().isoformat()) or {})
    used = [e.payload for e in events if e.type == "model_usage"]
    assert len(used) == reply.meta.llm_calls == usage["model_calls"] == 2
    assert sum(u["prompt_tokens"] + u["completion_tokens"] for u in used) == usage["tokens"]
    assert sum(u["cached_tokens"] for u in used) == usage.get("cached_tokens", 0)
    assert {u["model"] for u in used} == {"test-scripted"}
    assert {u["latency"] for u in used} <= {"<1s", "1-5s"}
    assert "pão" not in json.dumps(used, ensure_ascii=False)
    # usage is bookkeeping, not an effect: only the save has a receipt
    (saved,) = [e for e in events if e.type == "item_saved"]
    assert reply.meta.receipts == (f"item_saved:{saved.hash}",)


async def test_a_receipt_is_shown_by_why_and_show_meta(db: Database) -> None:
    async with live_runtime(db) as live:
        reply, _ = await live.say("salva o filme Duna", llm=[call("save_movie", title="Duna")])
        why, _ = await live.say("/why")
        (saved,) = [e for e in await live.db.ledger.events(ALICE) if e.type == "item_saved"]
    assert f"receipts: item_saved:{saved.hash}" in meta_line(reply, "pt")
    assert "Ficou no registro verificável: item salvo." in why.text
    assert saved.hash not in why.text  # ids and hashes are for --show-meta and the ledger
    assert why.meta.receipts == ()  # /why itself commits nothing
