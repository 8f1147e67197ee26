"""Real models (DESIGN 9.1): calls written in content, output modes, caps, prefix-cache order."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent.planning.reading import ContentCall, NotACall, read_content_call, repeated_line
from agent.planning.structured import output_schema, step_tools
from agent.planning.transport import ModelTransport
from agent.tools import registry
from bot.fakes.scripted_model import ScriptedModelServer
from bot.fakes.structured import mismatch, strict_problem
from config.settings import Settings
from storage import Database
from tests.support.live import ALICE, call, live_runtime, respond, shared_counter

STEP = {
    "action": "CALL_TOOL",
    "tool": "save_note",
    "args": {"content": "comprar pão"},
    "message": None,
    "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
}
WRAPPED = {"name": "plan", "arguments": STEP}


def sample(live: Any, name: str, **labels: str) -> float:
    value = live.deps.metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


# -- reading content ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "form"),
    [
        (json.dumps(STEP), "bare"),
        (json.dumps(WRAPPED), "bare"),
        ("```json\n" + json.dumps(WRAPPED) + "\n```", "fenced"),
        ("```\n" + json.dumps(STEP) + "\n```\n", "fenced"),
        ("<tool_call>\n" + json.dumps(WRAPPED) + "\n</tool_call>", "tagged"),
        (
            "<tool_call>"
            + json.dumps({"name": "plan", "arguments": json.dumps(STEP)})
            + "</tool_call>",
            "tagged",
        ),
    ],
)
def test_one_object_in_content_is_the_call(content: str, form: str) -> None:
    assert read_content_call(content) == ContentCall(form, STEP)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("Claro! Vou salvar.", None),
        ("Aqui está: " + json.dumps(STEP), None),
        (json.dumps(STEP) + " " + json.dumps(STEP), "more than one JSON object"),
        ("```json\n" + json.dumps(STEP) + "\n```\n```json\n{}\n```", None),
        (json.dumps({"name": "plan", "arguments": {"action": "CALL_TOOL"}}), "not a valid step"),
        (json.dumps({"name": "save_note", "arguments": STEP}), "the only function is `plan`"),
        (json.dumps({"name": "plan", "arguments": "[1]"}), "must be a JSON object"),
        ('```json\n{"action": \n```', "not valid"),
    ],
)
def test_prose_two_objects_and_bad_objects_are_not_calls(content: str, reason: str | None) -> None:
    read = read_content_call(content)
    assert isinstance(read, NotACall)
    if reason is None:
        assert read.reason is None
    else:
        assert read.reason is not None
        assert reason in read.reason


def test_a_line_repeated_eight_times_in_a_row_is_a_loop() -> None:
    assert repeated_line("Vou salvar.\n" + "```\n" * 8) == "```"
    assert repeated_line("Vou salvar.\n" + "```\n\n" * 8) == "```"  # blank lines in between
    assert repeated_line("Vou salvar.\n" + "```\n" * 7) is None
    assert repeated_line("a\nb\n" * 8) is None  # alternating lines are not "in a row"


# -- the runtime with content calls ---------------------------------------------------------------


async def test_a_fenced_call_runs_once_is_stored_native_and_counted_by_form(db: Database) -> None:
    fenced = "```json\n" + json.dumps(WRAPPED) + "\n```"
    async with live_runtime(db) as live:
        reply, report = await live.say("anota: comprar pão", llm=[{"raw": fenced}])
        assert sample(live, "lembra_planner_content_calls_total", form="fenced") == 1
        assert sample(live, "lembra_planner_outputs_total", verdict="invalid") == 0
    assert report.problems() == []
    assert reply.meta.llm_calls == 1
    assert reply.meta.tools_executed == ("save_note",)
    stored = await db.messages.last(ALICE, ALICE, 20)
    ai = next(m for m in stored if m.role == "ai" and m.tool_calls)
    tool = next(m for m in stored if m.role == "tool")
    assert ai.content == ""  # the call, not the fence, is what the history holds
    assert ai.tool_calls[0].name == "plan"
    assert tool.tool_call_id == ai.tool_calls[0].id


async def test_two_objects_are_re_asked_with_the_reason(db: Database) -> None:
    two = json.dumps(STEP) + "\n" + json.dumps(STEP)
    async with live_runtime(db) as live:
        reply, report = await live.say("anota: comprar pão", llm=[{"raw": two}, STEP])
    assert report.problems() == []
    assert reply.meta.llm_calls == 2
    correction = report.requests[1].body["messages"][-1]
    assert correction["role"] == "user"
    assert "more than one JSON object" in correction["content"]
    assert len(await db.items.newest(ALICE, 10)) == 1


# -- caps -----------------------------------------------------------------------------------------


async def test_a_plan_step_is_capped_at_300_tokens_and_phrasing_keeps_the_larger_cap(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[STEP])
        _, report = await live.say(
            "o que eu preciso comprar?",
            llm=[call("search_items", query="comprar"), respond("Pão.")],
        )
    assert report.problems() == []
    plan, phrase = (r.body for r in report.requests)
    assert plan["max_tokens"] == 300
    assert phrase["max_tokens"] == 600


async def test_penalties_are_sent_when_set(db: Database) -> None:
    async with live_runtime(db, llm_frequency_penalty=0.3) as live:
        _, report = await live.say("anota: comprar pão", llm=[STEP])
    assert report.requests[0].body["frequency_penalty"] == 0.3
    assert "presence_penalty" not in report.requests[0].body


# -- prefix caching -------------------------------------------------------------------------------


async def test_stable_text_leads_every_request_and_the_server_cache_is_reported(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[STEP])
        second, report = await live.say(
            "anota: pagar a luz", llm=[call("save_note", content="pagar a luz")]
        )
        cached_metric = sample(live, "lembra_tokens_total", kind="cached")
        day = await db.usage.of_subject(ALICE)
    first_request, second_request = live.model.requests[0].body, report.requests[0].body
    assert first_request["messages"][0] == second_request["messages"][0]  # byte-identical rules
    # what is remembered follows the rules, unchanged between the two messages
    assert first_request["messages"][1] == second_request["messages"][1]
    assert "Beliefs (current values)" in first_request["messages"][1]["content"]
    assert "Beliefs" not in first_request["messages"][0]["content"]
    # this message's situation comes last, right before the message
    assert first_request["messages"][-2]["role"] == "system"
    assert "Agora:" in first_request["messages"][-2]["content"]
    assert "Agora:" not in first_request["messages"][1]["content"]
    # the previous turn's history follows the memory unchanged, so the cache covers all three
    assert "anota: comprar pão" in second_request["messages"][2]["content"]
    assert second.meta.cached_tokens > 0.6 * second.meta.prompt_tokens
    assert cached_metric == second.meta.cached_tokens
    assert sum(d.get("cached_tokens", 0) for d in day) == second.meta.cached_tokens


# -- json_schema mode ------------------------------------------------------------------------------


def test_the_output_schema_is_strict_and_built_from_the_tool_registry() -> None:
    schema = output_schema(registry().values())
    assert strict_problem(schema) is None
    offered = {name for name in registry() if name != "delete_all_memories"}
    assert step_tools(schema) == offered | {None}
    # one object per tool: only that tool's arguments, optional ones left out, no null fields
    belief = {"key": "answer.confidence", "guessed": 1}
    terse = {"action": "CALL_TOOL", "tool": "save_movie", "args": {"title": "Inception"}}
    terse["belief"] = belief
    assert mismatch(terse, schema) is None
    assert mismatch({**terse, "args": {"title": "Inception", "year": 2010}}, schema) is None
    assert mismatch({**terse, "message": None}, schema) is not None
    assert mismatch({**terse, "args": {"title": "Inception", "year": None}}, schema) is not None
    assert mismatch({**terse, "tool": "save_note"}, schema) is not None  # another tool's args
    assert mismatch({**terse, "args": {"content": "x", "extra": 1}}, schema) is not None
    assert mismatch({**terse, "tool": "delete_all_memories", "args": {}}, schema) is not None
    assert mismatch({**terse, "belief": {"key": "answer.confidence"}}, schema) is not None
    assert mismatch({"action": "RESPOND", "message": "Oi.", "belief": belief}, schema) is None
    assert mismatch({"action": "NOOP", "belief": belief}, schema) is None
    assert mismatch({"action": "NOOP"}, schema) is not None  # belief stays required (seed 000)


def test_openai_gets_the_flat_step_its_strict_mode_takes_at_the_root() -> None:
    flat = output_schema(registry().values(), flat=True)
    assert strict_problem(flat) is None
    assert flat["type"] == "object"
    assert "anyOf" not in flat  # OpenAI: the root is an object, never a union
    movie = {"title": "Inception", "year": 2010}
    assert mismatch({**STEP, "tool": "save_movie", "args": movie}, flat) is None
    assert mismatch({**STEP, "tool": "delete_all_memories", "args": {}}, flat) is not None
    assert step_tools(flat) == step_tools(output_schema(registry().values()))


def test_a_terse_step_costs_at_most_two_thirds_of_the_nullable_one() -> None:
    counter = shared_counter()
    nullable = {**STEP, "tool": "save_movie"}
    nullable["args"] = {"title": "Inception", "year": None, "tmdb_id": None}
    terse = {"action": "CALL_TOOL", "tool": "save_movie", "args": {"title": "Inception"}}
    terse["belief"] = {"key": "answer.confidence", "guessed": 1}
    assert mismatch(terse, output_schema(registry().values())) is None
    short = counter.count_text(json.dumps(terse, separators=(",", ":")))
    assert short <= 2 / 3 * counter.count_text(json.dumps(nullable))


async def test_json_schema_mode_sends_a_strict_response_format_and_no_function(
    db: Database,
) -> None:
    async with live_runtime(db, llm_output_mode="json_schema") as live:
        reply, report = await live.say("anota: comprar pão", llm=[STEP])
        assert sample(live, "lembra_planner_content_calls_total", form="bare") == 1
    assert report.problems() == []
    body = report.requests[0].body
    assert "tools" not in body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["strict"] is True
    assert "one compact JSON object" in body["messages"][0]["content"]
    assert reply.meta.tools_executed == ("save_note",)


def _tool_enum(body: dict[str, Any]) -> set[str | None]:
    return step_tools(body["response_format"]["json_schema"]["schema"])


async def test_json_schema_first_step_names_only_the_tools_its_message_can_need(
    db: Database,
) -> None:
    async with live_runtime(db, llm_output_mode="json_schema") as live:
        await live.say("anota: comprar pão", llm=[STEP])
        saving = live.model.requests[-1].body
        # a search the code does not answer itself (issue 26 answers "procura pão" in code)
        await live.say("me mostra o que tem de pão", llm=[call("search_items", query="pão")])
        searching = live.model.requests[-1].body
        _, report = await live.say(
            # ("me diz o que eu preciso comprar" alone names the note: shown in code, issue 41)
            "me diz o que eu preciso comprar pro jantar de sábado",
            llm=[call("search_items", query="comprar"), respond("Pão.")],
        )
        await live.say("keep this as a bookmark: the trip", llm=[STEP])
        bookmarking = live.model.requests[-1].body
    everything = _tool_enum(report.requests[0].body)  # a message the code reads as "other"
    # "keep <url>" could not be a bookmark, a search not a delete; the prompt is the same
    assert "save_note" in _tool_enum(saving)
    assert "bookmark" not in _tool_enum(saving)
    assert "search_items" not in _tool_enum(saving)
    assert "search_items" in _tool_enum(searching)
    assert "delete_item" not in _tool_enum(searching)
    assert "enrich_tv_show" not in _tool_enum(searching)  # a plain search needs no lookup
    assert None in _tool_enum(searching)
    # after a tool's result, and for a message naming a tool the cut would close: every tool
    later = _tool_enum(report.requests[1].body)
    assert later == _tool_enum(bookmarking)
    # a first step with no address in its message (nor "esse", "this") names no link tool:
    # the 1.5B model invented a YouTube address for "anota: ver o jogo domingo" (issue 41)
    # and no bookmark unless the message names one ("ops, na verdade é 17h" was bookmarked)
    assert everything == later - {"save_link", "save_video", "enrich_link", "bookmark"}
    assert "save_link" not in _tool_enum(saving)
    assert {"delete_item", "save_note"} <= everything
    assert "bookmark" in _tool_enum(bookmarking)
    assert searching["messages"][0] == saving["messages"][0]


@pytest.mark.parametrize(
    ("script", "mode"),
    [
        ({"outputs": [{"raw": '{"ok": true}'}]}, "json_schema"),
        ({"errors": [{"status": 400}]}, "tools"),
    ],
)
async def test_auto_picks_json_schema_when_the_server_accepts_it(
    script: dict[str, Any], mode: str
) -> None:
    async with ScriptedModelServer(counter=shared_counter()) as server:
        transport = ModelTransport(
            base_url=server.base_url,
            api_key="x",
            model="m",
            timeout_s=5,
            max_tokens=600,
            counter=shared_counter(),
            output_schema=output_schema(registry().values()),
            retries=0,
        )
        server.begin_turn(script.get("outputs", []), script.get("errors", []))
        try:
            assert await transport.choose_output_mode() == mode
        finally:
            await transport.aclose()
        assert server.end_turn().llm_calls == 1


# -- the small-model profile -----------------------------------------------------------------------


def test_the_small_profile_fills_what_is_not_set_and_explicit_settings_win() -> None:
    small = Settings(_env_file=None, llm_profile="small")  # type: ignore[call-arg]
    assert small.prompt_token_budget == 4_500
    assert small.llm_planner_max_tokens == 200
    assert small.llm_history_messages == 6
    assert small.llm_history_max_messages == 48
    assert small.llm_output_mode == "auto"
    chosen = Settings(_env_file=None, llm_profile="small", prompt_token_budget=5000)  # type: ignore[call-arg]
    assert chosen.prompt_token_budget == 5_000
    assert Settings(_env_file=None).prompt_token_budget == 6_000  # type: ignore[call-arg]


async def test_each_model_request_leaves_a_content_free_model_usage_event(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[STEP])
        _, report = await live.say(
            "anota: pagar a luz", llm=[call("save_note", content="pagar a luz")]
        )
    events = [e for e in await db.ledger.events(ALICE) if e.type == "model_usage"]
    assert len(events) == 2
    second = events[1].payload
    assert second["model"] == "test-scripted"
    assert second["prompt_tokens"] == report.requests[0].prompt_tokens
    assert second["cached_tokens"] > 0
    assert second["latency"] in {"<1s", "1-5s"}
    assert "pagar" not in json.dumps(second)


def _args_fields(body: dict[str, Any], tool: str) -> set[str]:
    """Every argument a step calling `tool` may carry under the request's schema."""
    schema = body["response_format"]["json_schema"]["schema"]
    step = next(s for s in schema["anyOf"] if s["properties"].get("tool", {}).get("const") == tool)
    args = step["properties"]["args"]
    return {name for variant in args.get("anyOf", [args]) for name in variant["properties"]}


async def test_a_first_step_cannot_write_facts_its_message_does_not_state(db: Database) -> None:
    movies = {"movie": {"interestelar": [], "parasita": []}}
    async with live_runtime(db, llm_output_mode="json_schema", tmdb=movies) as live:
        await live.say(
            "salva o filme Interestelar", llm=[call("enrich_movie", title="Interestelar")]
        )
        unstated = live.model.requests[-1].body
        await live.say(
            "salva o filme Parasita de 2019",
            llm=[call("enrich_movie", title="Parasita", year=2019)],
        )
        stated = live.model.requests[-1].body
        _, report = await live.say(
            "o que eu preciso comprar?",
            llm=[call("search_items", query="comprar"), respond("Nada.")],
        )
        await live.say("procura filmes de 2010", llm=[call("search_items", query="2010")])
        typed = live.model.requests[-1].body
    # a year from the model's own knowledge would only be dropped by grounding (DESIGN 9.6)
    assert _args_fields(unstated, "enrich_movie") == {"title"}
    assert _args_fields(unstated, "save_movie") == {"title"}  # no year, no tmdb_id
    assert _args_fields(stated, "enrich_movie") == {"title", "year"}
    assert _args_fields(report.requests[0].body, "search_items") == {"query"}
    # "filmes" names a type, "2010" a number
    assert _args_fields(typed, "search_items") == {"query", "type", "limit"}
    # after a tool's result every optional fact is open again; the prompt never changes
    assert _args_fields(report.requests[1].body, "search_items") == {"query", "type", "limit"}
    assert _args_fields(report.requests[1].body, "save_movie") == {"title", "year", "tmdb_id"}
    assert unstated["messages"][0] == report.requests[1].body["messages"][0]
