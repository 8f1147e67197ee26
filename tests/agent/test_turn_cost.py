"""What a model turn costs the server (issue 28): a prefix that survives, short plans, the figures.

The scripted model server reports cached tokens as a prefix-caching server does (the
leading messages equal to the previous request's), so what a request made it evaluate
is its prompt less its cached tokens.
"""

from __future__ import annotations

import statistics
from typing import Any

from agent.conversation.commands import stats_text
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
    # between breaks a request costs the last turn, the situation and the new message,
    # however long the history has grown
    kept = [prompt - cached for i, (prompt, cached, _) in enumerate(later) if i not in breaks]
    assert statistics.median(kept) < 300, later
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
