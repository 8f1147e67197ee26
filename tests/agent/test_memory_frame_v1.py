"""Frame v1 (DESIGN 3.7, issue 12): the request hash, the frame cache and its metric, and
obligations with their stakes reaching the planner while a pending action is open."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agent.memory.frame import request_hash
from agent.planning.schema import planner_function_schema
from agent.types import Reply
from storage import Database
from tests.support.live import ALICE, Live, call, live_runtime, respond

TWO_INCEPTIONS = {
    "movie": {
        "inception": [
            {"id": 27205, "title": "Inception", "release_date": "2010-07-15"},
            {"id": 1000001, "title": "Inception", "release_date": "2014-01-01"},
        ]
    }
}


def frame_rule(reply: Reply) -> str:
    rules = [r for r in reply.meta.rules_applied if r.startswith("frame:")]
    assert len(rules) == 1, reply.meta.rules_applied
    return rules[0]


def cache_sample(live: Live, result: str) -> float:
    value = live.deps.metrics.registry.get_sample_value(
        "lembra_frame_cache_total", {"result": result}
    )
    return 0.0 if value is None else value


def system_prompt(report: Any) -> str:
    """Every system text of the request (the stable rules, then this turn's situation)."""
    messages = report.requests[0].body["messages"]
    return "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")


# -- the request hash ----------------------------------------------------------------------------


def test_the_request_hash_covers_system_text_history_and_tool_schema() -> None:
    tools = [planner_function_schema()]
    call_msg = AIMessage(
        content="", tool_calls=[{"id": "c1", "name": "plan", "args": {"action": "NOOP"}}]
    )
    base = [
        SystemMessage("situação"),
        HumanMessage("oi"),
        call_msg,
        ToolMessage("ok", tool_call_id="c1"),
    ]
    same = [
        SystemMessage("situação"),
        HumanMessage("oi"),
        call_msg,
        ToolMessage("ok", tool_call_id="c1"),
    ]
    assert request_hash(base, tools) == request_hash(same, tools)

    other_history = [*base[:3], ToolMessage("falhou", tool_call_id="c1")]
    other_system = [SystemMessage("situação!"), *base[1:]]
    other_args = [
        *base[:2],
        AIMessage(
            content="", tool_calls=[{"id": "c1", "name": "plan", "args": {"action": "RESPOND"}}]
        ),
        base[3],
    ]
    other_tools = [{**tools[0], "description": "x"}]
    hashes = {
        request_hash(base, tools),
        request_hash(other_history, tools),
        request_hash(other_system, tools),
        request_hash(other_args, tools),
        request_hash(base, other_tools),
    }
    assert len(hashes) == 5


async def test_two_requests_with_the_same_state_but_different_history_have_different_hashes(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        first, _ = await live.say("e agora?", llm=[respond("Nada.")])
        second, _ = await live.say("e agora?", llm=[respond("Nada.")])
    # the frame's state is the same (nothing saved); the history the model is sent is not
    assert frame_rule(first) != frame_rule(second)


# -- the cache ----------------------------------------------------------------------------------------


async def test_slow_sections_are_reused_per_state_version_and_ttl(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (0, 1)

        _, report = await live.say("e agora?", llm=[respond("Uma nota.")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (0, 2)  # a save since
        assert "O usuário guarda 1 item (1 nota)" in system_prompt(report)

        _, report = await live.say("e agora?", llm=[respond("Uma nota.")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (1, 2)
        # what came from the cache is the same; the counts are read every time
        assert "O usuário guarda 1 item (1 nota)" in system_prompt(report)

        # built before the save runs: the same state, from the cache
        await live.say("anota: comprar leite", llm=[call("save_note", content="comprar leite")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (2, 2)
        _, report = await live.say("e agora?", llm=[respond("Duas notas.")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (2, 3)
        assert "O usuário guarda 2 itens (2 notas)" in system_prompt(report)

        live.clock.advance(30)  # FRAME_CACHE_TTL_SECONDS
        await live.say("e agora?", llm=[respond("Duas notas.")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (2, 4)


async def test_a_ttl_of_zero_turns_the_cache_off(db: Database) -> None:
    async with live_runtime(db, frame_cache_ttl_seconds=0) as live:
        for _ in range(3):
            await live.say("e agora?", llm=[respond("Nada.")])
        assert (cache_sample(live, "hit"), cache_sample(live, "miss")) == (0, 3)


# -- obligations and stakes -----------------------------------------------------------------------------


async def test_an_open_choice_reaches_the_planner_with_its_stakes_and_stays_open(
    db: Database,
) -> None:
    async with live_runtime(db, tmdb=TWO_INCEPTIONS) as live:
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        reply, report = await live.say(
            "qual a diferença entre eles?", llm=[respond("Um é de 2010, outro de 2014.")]
        )
        pending = await live.db.pending.peek(ALICE, ALICE)
        chosen, _ = await live.say("1")

    system = system_prompt(report)
    assert "Não há nada pendente" not in system
    assert "eu aguardo do usuário qual destes títulos salvar" in system
    assert "<data>1. Inception (2010)\n2. Inception (2014)</data>" in system
    assert "Expira às 10:02; se expirar, nada é salvo." in system
    assert "descartada" not in reply.text  # answered in words: the question is still open
    assert pending is not None
    assert "Inception (2010)" in chosen.text
    assert chosen.meta.llm_calls == 0


async def test_the_planner_can_answer_an_open_choice_with_an_offered_option(db: Database) -> None:
    async with live_runtime(db, tmdb=TWO_INCEPTIONS) as live:
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        reply, _ = await live.say(
            "quero o mais antigo",
            llm=[call("save_movie", title="Inception", year=2010, tmdb_id=27205)],
        )
        items = await live.db.items.list_for(ALICE)
        pending = await live.db.pending.peek(ALICE, ALICE)

    assert [(i.title, i.year) for i in items] == [("Inception", 2010)]
    assert pending is None
    assert "descartada" not in reply.text
    assert "pending_answered_by_planner" in reply.meta.rules_applied


async def test_a_tool_about_something_else_drops_the_open_confirmation(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("apaga tudo")
        _, report = await live.say(
            "anota: comprar leite", llm=[call("save_note", content="comprar leite")]
        )
        reply, _ = await live.say("sim")
        items = await live.db.items.list_for(ALICE)

    system = system_prompt(report)
    assert "a confirmação (sim/não) para apagar todos os itens" in system
    assert "se expirar, nada é apagado" in system
    assert len(items) == 2  # the confirmation was dropped: "sim" deletes nothing
    assert reply.meta.llm_calls == 0
