"""Dreaming that learns (DESIGN 3.8, issue 12): flags on the user, a baseline narrative every
later frame carries, the emotional reset, the dreamer model's settings, counts in the ledger."""

from __future__ import annotations

from typing import Any

from agent.memory.consolidation import consolidate
from storage import Database
from tests.support.live import ALICE, Live, call, live_runtime, respond

INVALID = {"raw": "isto não é uma chamada"}


def system_prompt(report: Any) -> str:
    messages = report.requests[0].body["messages"]
    return "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")


async def busy_day(live: Live) -> None:
    """Three notes on one topic, one search that twice finds nothing, a correction, two failures."""
    for note in ("comprar pão", "comprar leite", "comprar café"):
        await live.say(f"anota: {note}", llm=[call("save_note", content=note)])
    for _ in range(2):
        await live.say("procura xilofone", llm=[call("search_items", query="xilofone")])
    await live.say("não, eu quis dizer outra coisa", llm=[respond("Certo.")])
    for _ in range(2):
        await live.say("resume meu mês", llm=[INVALID, INVALID, INVALID])


async def last_consolidation(live: Live) -> dict[str, Any]:
    events = [e for e in await live.db.ledger.events(ALICE) if e.type == "consolidation_done"]
    return dict(events[-1].payload)


async def test_dreaming_learns_flags_and_a_baseline_every_later_frame_uses(db: Database) -> None:
    async with live_runtime(db) as live:
        await busy_day(live)
        report = await consolidate(live.deps, ALICE, trigger="manual", use_model=False)
        user = await live.db.users.get(ALICE)
        payload = await last_consolidation(live)
        _, turn = await live.say("e agora?", llm=[respond("Nada.")])

    assert report is not None
    assert user is not None
    flags = user.patterns
    assert flags["types"] == {"note": 3}
    assert flags["topics"] == ["comprar"]
    assert flags["active_hours"] == [10]
    assert flags["empty_searches"] == ["xilofone"]
    assert flags["corrections"] == 1
    assert flags["frustration"] == 2
    baseline = user.baseline or ""
    assert baseline.startswith("Desde 05/01/2026, o usuário guarda 3 notas.")
    assert "Temas frequentes: comprar." in baseline
    assert "Costuma falar por volta de 10h." in baseline
    assert "Buscou várias vezes sem achar: xilofone." in baseline
    assert "Teve falhas recentes" in baseline
    assert live.deps.counter.count_text(baseline) <= 200
    assert f"O que aprendi sobre o usuário: <data>{baseline}</data>" in system_prompt(turn)
    # counts only: no topic, query or baseline text in the ledger
    assert payload["items"] == 3
    assert payload["topics"] == 1
    assert payload["empty_searches"] == 1
    assert payload["frustration"] == 2
    assert payload["baseline_by"] == "code"
    assert 0 < payload["baseline_tokens"] <= 200
    assert "xilofone" not in str(payload)
    assert "comprar" not in str(payload)


async def test_frustration_decays_and_the_frame_stops_carrying_it(db: Database) -> None:
    async with live_runtime(db) as live:
        await busy_day(live)
        await consolidate(live.deps, ALICE, trigger="manual", use_model=False)
        await consolidate(live.deps, ALICE, trigger="manual", use_model=False)  # no new failures
        user = await live.db.users.get(ALICE)
        _, turn = await live.say("e agora?", llm=[respond("Nada.")])
    assert user is not None
    assert user.patterns["frustration"] == 1
    assert "falhas recentes" not in (user.baseline or "")
    assert "falhas recentes" not in system_prompt(turn)
    assert "Temas frequentes: comprar." in system_prompt(turn)  # the rest is still known


async def test_the_dreamer_model_writes_the_baseline_with_its_own_settings(db: Database) -> None:
    written = "Usuário que anota compras do mercado; busca coisas que não guardou."
    async with live_runtime(db, dreamer_model="dreamer-x", background_llm=True) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.model.begin_turn([respond(written)], [])
        await consolidate(live.deps, ALICE, trigger="manual", use_model=True)
        report = live.model.end_turn()
        user = await live.db.users.get(ALICE)
        payload = await last_consolidation(live)
        usage = await live.raw("usage").find_one({"_id": {"$regex": f"^{ALICE}"}})

    body = report.requests[0].body
    assert body["model"] == "dreamer-x"
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 4_000 or body.get("max_completion_tokens") == 4_000
    assert "o usuário guarda 1 nota." in str(body["messages"][1]["content"])
    assert user is not None
    assert user.baseline == written
    assert payload["baseline_by"] == "model"
    assert usage is not None
    assert usage["background_calls"] == 1
