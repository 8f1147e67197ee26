"""What a model turn costs the server (issue 28): a prefix that survives, short plans, the figures.

The scripted model server reports cached tokens as a prefix-caching server does (the
leading messages equal to the previous request's), so what a request made it evaluate
is its prompt less its cached tokens.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

from agent.conversation.commands import stats_text
from agent.tokens import compact_json
from storage import Database
from tests.support.live import Live, call, live_runtime, respond

SMALL = {
    "llm_output_mode": "json_schema",
    "llm_history_messages": 6,
    "llm_history_max_messages": 24,
    "prompt_token_budget": 3_500,
    "narrative_token_budget": 400,
}
CONVERSATION: list[tuple[str, list[dict[str, Any]]]] = [
    (f"anota: tarefa número {n}", [call("save_note", content=f"tarefa número {n}")])
    for n in range(1, 9)
] + [
    ("procura tarefa", []),  # a plain search is answered in code (issue 26)
    ("anota: comprar pão", [call("save_note", content="comprar pão")]),
    (
        "o que eu preciso comprar?",
        [call("search_items", query="comprar", type=None, limit=None), respond("Pão.")],
    ),
    ("anota: pagar a luz", [call("save_note", content="pagar a luz")]),
    ("anota: ligar pro banco", [call("save_note", content="ligar pro banco")]),
    ("anota: regar as plantas", [call("save_note", content="regar as plantas")]),
]


async def converse(live: Live) -> list[tuple[int, int, int]]:
    """(prompt tokens, cached tokens, tokens of the rules and the memory) of every model request."""
    costs: list[tuple[int, int, int]] = []
    for text, outputs in CONVERSATION:
        reply, report = await live.say(text, llm=outputs)
        assert report.problems() == [], text
        assert reply.meta.state != "FAIL", text
        for request in report.requests:
            messages, tools = request.body["messages"], request.body.get("tools")
            ahead = live.deps.counter.count_request(messages[:2], tools)
            costs.append((request.prompt_tokens or 0, request.cached_tokens, ahead))
    return costs


async def test_the_history_is_append_only_and_drops_a_block_at_once(db: Database) -> None:
    async with live_runtime(db, **SMALL) as live:
        costs = await converse(live)
    later = costs[1:]
    # a break: the server kept no more than the rules and the memory, and reads the whole
    # history again. It happens only when the history drops a block (or the memory before
    # it changed): at most once every four requests, never on two requests in a row.
    breaks = [i for i, (_, cached, ahead) in enumerate(later) if cached <= ahead]
    assert len(breaks) <= len(later) // 4, later
    assert all(b - a > 1 for a, b in zip(breaks, breaks[1:], strict=False)), breaks
    # between breaks a request costs the last reply, the situation and the new message
    # (the last message and its step are served from the cache as they were sent and
    # written), however long the history has grown: about 75 tokens here with a situation
    # that tells what changed; 120 when it told everything, 290 before messages showed
    # again as sent
    kept = [prompt - cached for i, (prompt, cached, _) in enumerate(later) if i not in breaks]
    assert statistics.median(kept) < 100, later
    assert sum(prompt - cached for prompt, cached, _ in later) < 0.2 * sum(p for p, _, _ in later)


async def test_each_models_evaluated_and_generated_tokens_per_request_are_reported(
    db: Database,
) -> None:
    async with live_runtime(db, **SMALL) as live:
        costs = await converse(live)
        metrics = live.deps.metrics.registry
        stats = await stats_text(live.deps, "2026-01-05")

    def sample(name: str, kind: str) -> float:
        value = metrics.get_sample_value(name, {"model": "test-scripted", "kind": kind})
        return 0.0 if value is None else value

    evaluated = sum(prompt - cached for prompt, cached, _ in costs)
    assert sample("lembra_model_request_tokens_count", "evaluated") == len(costs)
    assert sample("lembra_model_request_tokens_sum", "evaluated") == evaluated
    assert sample("lembra_model_request_tokens_count", "generated") == len(costs)
    generated = sample("lembra_model_request_tokens_sum", "generated")
    assert 0 < generated / len(costs) < 45  # short plans: no null fields to write out
    line = next(x for x in stats.splitlines() if x.startswith("model test-scripted today:"))
    assert (
        f"{len(costs)} requests; per request {evaluated / len(costs):.0f} prompt tokens evaluated"
        in line
    )
    assert f"{generated / len(costs):.0f} generated" in line
    assert "users: 1" in stats  # the model's counters are not a user


async def test_a_planned_turn_shows_again_as_it_was_sent_and_written(db: Database) -> None:
    """The next request repeats the last one and its answer byte for byte (json_schema)."""
    async with live_runtime(db, **SMALL) as live:
        _, first = await live.say(
            "anota: comprar pão", llm=[call("save_note", content="comprar pão")]
        )
        _, second = await live.say(
            "anota: pagar a luz", llm=[call("save_note", content="pagar a luz")]
        )
        _, third = await live.say(
            "o que eu preciso comprar?",
            llm=[call("search_items", query="comprar", type=None, limit=None), respond("Pão.")],
        )
    sent = first.requests[0].body["messages"]
    again = second.requests[0].body["messages"]
    assert again[: len(sent)] == sent  # its situation and the message, as they were
    step = again[len(sent)]
    assert "tool_calls" not in step
    assert step["role"] == "assistant"
    assert json.loads(step["content"])["args"] == {"content": "comprar pão"}
    assert step["content"] == compact_json(json.loads(step["content"]))  # as written
    # the runtime's answer to that step is not sent again: the reply that follows says it
    assert [m["role"] for m in again[len(sent) + 1 :]] == ["assistant", "system", "user"]
    assert "Salvo" in again[len(sent) + 1]["content"]
    assert (
        second.requests[0].cached_tokens
        >= live.deps.counter.count_request(again[: len(sent) + 1], None) - 5
    )
    # within its own turn a result still reaches the model, as a message of the runtime
    search, phrasing = third.requests[0].body["messages"], third.requests[1].body["messages"]
    assert phrasing[: len(search)] == search
    assert phrasing[len(search)]["role"] == "assistant"
    assert phrasing[len(search) + 1]["role"] == "user"
    assert phrasing[len(search) + 1]["content"].startswith("Result: ")
    assert not any(m["role"] == "tool" for m in phrasing)


async def test_function_calling_keeps_native_calls_and_results(db: Database) -> None:
    async with live_runtime(db, **{**SMALL, "llm_output_mode": "tools"}) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        _, report = await live.say(
            "anota: pagar a luz", llm=[call("save_note", content="pagar a luz")]
        )
    roles = [m["role"] for m in report.requests[0].body["messages"]]
    assert roles[2:5] == ["user", "assistant", "tool"]
    assert report.requests[0].body["messages"][3]["tool_calls"]
