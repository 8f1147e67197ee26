"""What the model is sent (DESIGN 3.1, 3.5): one function, and a system prompt built by code."""

from __future__ import annotations

import json
from typing import Any

from agent.planning.schema import PlannerResponse, planner_function_schema
from agent.tools import registry
from storage import Database
from tests.support.live import ALICE, call, live_runtime


def _system_prompt(body: dict[str, Any]) -> str:
    """The stable system message and this turn's situation (the request's system messages)."""
    assert body["messages"][0]["role"] == "system"
    return "\n\n".join(str(m["content"]) for m in body["messages"] if m["role"] == "system")


async def test_the_model_speaks_only_through_one_function_with_the_planner_schema(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        _, report = await live.say("anota: comprar leite", llm=[call("save_note", content="x")])

    body = report.requests[0].body
    assert body["tools"] == [planner_function_schema()]
    assert body["tool_choice"] == "required"
    assert body["temperature"] == 0
    parameters = body["tools"][0]["function"]["parameters"]
    assert set(parameters["properties"]) == set(PlannerResponse.model_fields)
    assert "strict" not in body["tools"][0]["function"]


async def test_the_system_prompt_holds_tools_constitution_examples_and_current_beliefs(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        await db.users.ensure(
            ALICE, language="pt", timezone="America/Sao_Paulo", now_ms=live.clock.ms()
        )
        await db.beliefs.set(ALICE, "pref.genre.horror", 0.8, now_ms=live.clock.ms())
        _, report = await live.say(
            "anota: comprar leite", llm=[call("save_note", content="comprar leite")]
        )

    prompt = _system_prompt(report.requests[0].body)
    # Every tool the planner may call, as a compact signature; never delete_all_memories.
    for name in registry():
        if name != "delete_all_memories":
            assert f"- {name}(" in prompt, name
    assert "- save_movie(title: str, year?: int, tmdb_id?: int): " in prompt  # "?": optional
    assert "item_id?: str" in prompt
    assert "- save_note(content: str): " in prompt
    assert "type?: note|movie|tv_show|video|link," in prompt  # the enum itself, no "null"
    # an array of objects shows the object's own fields (issue 41)
    assert "- save_items(items: [{type: note|movie|tv_show|video|link, title?: str" in prompt
    assert "options: [str]" in prompt
    assert "null" not in prompt.split("Tools:", 1)[1].split("\n\n", 1)[0]
    assert "- delete_all_memories(" not in prompt
    # The constitution: no conversation, no offers, no emojis.
    assert "never make small talk" in prompt
    assert "to offer to act, call request_clarification with options" in prompt
    assert "No emojis" in prompt
    # One example per action, one compact line each, each a valid step with its belief.
    lines = [line for line in prompt.splitlines() if line.startswith("user: ")]
    examples = [json.loads(line.split(" => plan: ", 1)[1]) for line in lines]
    assert {e["action"] for e in examples} == {"CALL_TOOL", "RESPOND", "NOOP"}
    for line, example in zip(lines, examples, strict=True):
        assert PlannerResponse.model_validate(example).belief.key == "answer.confidence"
        assert '": ' not in line.split(" => plan: ", 1)[1]  # compact JSON
        assert None not in example.values()  # terse: what a step does not use is left out
    # The beliefs with their current values.
    assert "- answer.confidence = 1.00 (read-only)" in prompt
    assert "- pref.genre.horror = 0.80" in prompt


async def test_the_part_no_turn_changes_is_long_enough_for_openais_automatic_cache(
    db: Database,
) -> None:
    """OpenAI caches a request's prefix from 1,024 tokens on (its prompt caching guide):
    the rules and the function, the same for every user and turn, must reach that alone."""
    async with live_runtime(db) as live:
        await live.say("anota: comprar leite", llm=[call("save_note", content="comprar leite")])
        _, report = await live.say("anota: pagar a luz", llm=[call("save_note", content="x")])
        other = await live.say(
            "anota: ligar", llm=[call("save_note", content="ligar")], user="cli:bob"
        )
    first, second = live.model.requests[0].body, report.requests[0].body
    bob = other[1].requests[0].body
    assert first["messages"][0] == second["messages"][0] == bob["messages"][0]
    assert first["tools"] == bob["tools"]
    counter = live.deps.counter
    assert counter.count_request(first["messages"][:1], []) >= 1_024
    assert counter.count_request(first["messages"][:1], first["tools"]) >= 1_024
