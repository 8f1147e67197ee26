"""`log_reasoning` (issue 31, seed 002-44): a note of why the planner chose its step, shown by
`/why`, kept as data (never in a later request), its ledger event content-free."""

from __future__ import annotations

import json

from storage import Database
from tests.support.live import ALICE, call, live_runtime, respond

NOTE = "the user said anota, so this is a note, not a movie"


async def test_the_note_is_shown_by_why_and_never_sent_back(db: Database) -> None:
    async with live_runtime(db) as live:
        reply, first = await live.say(
            "anota: comprar leite",
            llm=[call("log_reasoning", note=NOTE), call("save_note", content="comprar leite")],
        )
        _, later = await live.say("e agora?", llm=[respond("Nada.")])
        stored = await live.db.messages.range(ALICE, ALICE, 1, 10**6)
        await live.say("anota: pagar luz", llm=[call("save_note", content="pagar luz")])
        why_last, _ = await live.say("/why")  # the last reply's own turn: no note
        items = await live.db.items.list_for(ALICE)
        events = await live.db.ledger.events(ALICE)

    assert first.problems() == []
    assert [i.content for i in items] == ["comprar leite", "pagar luz"]  # the note saved nothing
    assert reply.meta.reasoning == NOTE
    assert reply.meta.tools_executed == ("log_reasoning", "save_note")
    assert "Minha nota" not in why_last.text
    # kept as data: the next turn's request does not carry it, nor does the stored history
    # (only a /why the user asks for shows it, as that reply's own text)
    assert NOTE not in json.dumps(later.requests[0].body, ensure_ascii=False)
    assert all(NOTE not in m.content for m in stored)
    assert all(NOTE not in c.args_json for m in stored for c in m.tool_calls)
    [logged] = [e for e in events if e.type == "reasoning_logged"]
    assert set(logged.payload) >= {"chars", "sha256"}
    assert logged.payload["chars"] == len(NOTE)
    assert "anota" not in json.dumps(logged.payload)


async def test_a_note_over_200_characters_is_refused_and_nothing_is_kept(db: Database) -> None:
    async with live_runtime(db) as live:
        long = call("log_reasoning", note="x" * 201)
        reply, report = await live.say("anota: comprar pão", llm=[long] * 3)
        events = await live.db.ledger.events(ALICE)

    assert reply.meta.reasoning == ""
    assert reply.meta.state == "FAIL"
    assert "reasoning_logged" not in [e.type for e in events]
    refused = [m for m in report.requests[1].body["messages"] if m["role"] == "tool"][-1]
    assert "200" in refused["content"]


async def test_why_shows_the_note_of_the_turn_it_explains(db: Database) -> None:
    async with live_runtime(db, default_language="en") as live:
        await live.say(
            "note: buy milk",
            llm=[call("log_reasoning", note=NOTE), call("save_note", content="buy milk")],
        )
        why, _ = await live.say("/why")

    assert f"My note: «{NOTE}»" in why.text
    assert "note why I chose the step" in why.text  # the tool in words, never its name
    assert "log_reasoning" not in why.text
