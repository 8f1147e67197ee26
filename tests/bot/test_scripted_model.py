"""The scripted OpenAI-compatible server, driven by the real ChatOpenAI client (and raw HTTP for bad bodies)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage

from agent.errors import PlannerRejected, PlannerUnavailable
from agent.planning.schema import planner_function_schema
from agent.planning.transport import ModelTransport
from agent.tokens import TokenCounter
from bot.fakes.scripted_model import OUT_OF_OUTPUTS, ScriptedModelServer

TOOLS = [planner_function_schema()]
RESPOND = {
    "action": "RESPOND",
    "tool": None,
    "args": None,
    "message": "Oi! Em que posso ajudar?",
    "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
}
ENRICH = {
    "action": "CALL_TOOL",
    "tool": "enrich_movie",
    "args": {"title": "inception"},
    "message": None,
    "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
}
CONVERSATION: list[BaseMessage] = [
    SystemMessage("Você é o Lembra."),
    HumanMessage("salva inception"),
]


async def _no_sleep(_seconds: float) -> None:
    return None


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture
async def server(counter: TokenCounter) -> AsyncIterator[ScriptedModelServer]:
    async with ScriptedModelServer(counter=counter) as running:
        yield running


@pytest.fixture
async def transport(
    server: ScriptedModelServer, counter: TokenCounter
) -> AsyncIterator[ModelTransport]:
    model = ModelTransport(
        base_url=server.base_url,
        api_key=None,
        model="scripted-test",
        timeout_s=5,
        max_tokens=300,
        counter=counter,
        sleep=_no_sleep,
    )
    yield model
    await model.aclose()


async def _post(url: str, body: Any) -> tuple[int, dict[str, Any], dict[str, str]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=data, headers={"Content-Type": "application/json"}) as response,
    ):
        return response.status, await response.json(), dict(response.headers)


def _planner_call(call_id: str = "call_a") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"id": call_id, "name": "plan", "args": ENRICH}])


async def test_planner_object_arrives_as_one_plan_call(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([ENRICH])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    [call] = answer.message.tool_calls
    assert call["name"] == "plan"
    assert call["args"] == ENRICH
    assert call["id"] == "call_1"
    assert answer.message.invalid_tool_calls == []
    assert answer.message.response_metadata["finish_reason"] == "tool_calls"
    assert report.llm_calls == 1
    assert report.problems() == []
    assert server.requests[0].body["model"] == "scripted-test"


async def test_call_ids_are_unique_across_turns(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    ids = []
    for _ in range(3):
        server.begin_turn([RESPOND])
        answer = await transport.complete(CONVERSATION, tools=TOOLS)
        server.end_turn()
        ids.append(answer.message.tool_calls[0]["id"])
    assert len(set(ids)) == 3


async def test_raw_output_is_plain_content(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([{"raw": "Claro, salvei Inception."}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)

    assert answer.message.content == "Claro, salvei Inception."
    assert answer.message.tool_calls == []
    assert answer.message.response_metadata["finish_reason"] == "stop"
    assert server.end_turn().problems() == []


async def test_call_names_the_requests_function(server: ScriptedModelServer) -> None:
    server.begin_turn([RESPOND])
    tool = {"type": "function", "function": {"name": "other_fn", "parameters": {"type": "object"}}}
    status, body, _ = await _post(
        server.base_url + "/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "oi"}], "tools": [tool]},
    )

    assert status == 200
    message = body["choices"][0]["message"]
    assert message["tool_calls"][0]["function"]["name"] == "other_fn"
    assert json.loads(message["tool_calls"][0]["function"]["arguments"]) == RESPOND
    assert body["object"] == "chat.completion"
    assert body["model"] == "m"
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert usage["prompt_tokens"] == server.requests[0].prompt_tokens


async def test_usage_is_the_shared_token_count(
    server: ScriptedModelServer, transport: ModelTransport, counter: TokenCounter
) -> None:
    history = [
        *CONVERSATION,
        _planner_call(),
        ToolMessage('{"candidates": 2}', tool_call_id="call_a"),
    ]
    server.begin_turn([RESPOND])
    answer = await transport.complete(history, tools=TOOLS)
    report = server.end_turn()

    assert (
        answer.prompt_tokens
        == report.max_prompt_tokens
        == transport.count_prompt(history, tools=TOOLS)
    )
    body = report.requests[0].body
    assert answer.prompt_tokens == counter.count_request(body["messages"], body["tools"])
    assert answer.completion_tokens > 0


async def test_unpaired_tool_message_is_refused(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([RESPOND])
    with pytest.raises(PlannerRejected):
        await transport.complete(
            [*CONVERSATION, ToolMessage("ok", tool_call_id="call_x")], tools=TOOLS
        )
    report = server.end_turn()

    assert [f.code for f in report.failures] == ["unpaired_tool_message"]
    assert report.requests[0].status == 400
    assert report.unconsumed_outputs == (RESPOND,)


async def test_tool_message_answering_another_id_is_refused(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    history = [*CONVERSATION, _planner_call("call_a"), ToolMessage("ok", tool_call_id="call_b")]
    server.begin_turn([RESPOND])
    with pytest.raises(PlannerRejected):
        await transport.complete(history, tools=TOOLS)

    [failure] = server.end_turn().failures
    assert failure.code == "unpaired_tool_message"
    assert "call_b" in failure.message


@pytest.mark.parametrize(
    "after_call",
    [[], [HumanMessage("e aí?")]],
    ids=["call-is-last", "user-message-before-answer"],
)
async def test_unanswered_tool_calls_are_refused(
    server: ScriptedModelServer, transport: ModelTransport, after_call: list[BaseMessage]
) -> None:
    server.begin_turn([RESPOND])
    with pytest.raises(PlannerRejected):
        await transport.complete([*CONVERSATION, _planner_call("call_a"), *after_call], tools=TOOLS)

    [failure] = server.end_turn().failures
    assert failure.code == "unanswered_tool_calls"
    assert "call_a" in failure.message


async def test_paired_history_is_accepted(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    two_calls = AIMessage(
        content="",
        tool_calls=[
            {"id": "call_a", "name": "plan", "args": ENRICH},
            {"id": "call_b", "name": "plan", "args": RESPOND},
        ],
    )
    history = [
        *CONVERSATION,
        two_calls,
        ToolMessage("a", tool_call_id="call_b"),
        ToolMessage("b", tool_call_id="call_a"),
        HumanMessage("1"),
    ]
    server.begin_turn([RESPOND])
    await transport.complete(history, tools=TOOLS)

    assert server.end_turn().problems() == []


async def test_oversized_request_is_context_length_exceeded(counter: TokenCounter) -> None:
    async with ScriptedModelServer(context_size=200, counter=counter) as small:
        small.begin_turn([RESPOND])
        status, body, _ = await _post(
            small.base_url + "/chat/completions",
            {"model": "m", "messages": [{"role": "user", "content": "oi"}], "tools": TOOLS},
        )
        report = small.end_turn()

    assert status == 400
    assert body["error"]["code"] == "context_length_exceeded"
    assert body["error"]["type"] == "invalid_request_error"
    assert "maximum context length is 200 tokens" in body["error"]["message"]
    assert [f.code for f in report.failures] == ["context_length_exceeded"]
    assert report.max_prompt_tokens is not None
    assert report.max_prompt_tokens > 200


async def test_running_out_of_outputs_is_a_recorded_failure(server: ScriptedModelServer) -> None:
    server.begin_turn([])
    status, body, _ = await _post(
        server.base_url + "/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "oi"}]},
    )
    report = server.end_turn()

    assert status == 500
    assert body["error"]["message"] == OUT_OF_OUTPUTS
    assert [f.code for f in report.failures] == ["out_of_outputs"]
    assert OUT_OF_OUTPUTS in report.problems()[0]


async def test_requests_outside_a_turn_are_failures_too(server: ScriptedModelServer) -> None:
    status, _, _ = await _post(
        server.base_url + "/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "oi"}]},
    )
    assert status == 500
    assert server.end_turn().llm_calls == 1


async def test_leftover_outputs_are_reported(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([ENRICH, RESPOND], errors=[{"status": 500}])
    await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert report.unconsumed_outputs == (RESPOND,)
    assert report.unserved_errors == ()
    assert report.problems() == ["1 scripted output(s) left unconsumed"]


async def test_errors_come_first_and_consume_no_output(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([ENRICH], errors=[{"status": 500}, {"status": 429, "retry_after": 1}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert answer.message.tool_calls[0]["args"] == ENRICH
    assert answer.attempts == 3
    assert [(r.outcome, r.status) for r in report.requests] == [
        ("error", 500),
        ("error", 429),
        ("answered", 200),
    ]
    assert report.problems() == []
    assert all(n is not None and n > 0 for n in report.prompt_tokens)


async def test_unserved_errors_are_reported(server: ScriptedModelServer) -> None:
    server.begin_turn([], errors=[{"status": 500}])
    assert server.end_turn().problems() == ["1 scripted error(s) never served"]


async def test_rate_limit_answer_carries_retry_after(server: ScriptedModelServer) -> None:
    server.begin_turn([], errors=[{"status": 429, "retry_after": 1.5}])
    status, body, headers = await _post(
        server.base_url + "/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": "oi"}]},
    )
    server.end_turn()

    assert status == 429
    assert headers["Retry-After"] == "2"
    assert headers["retry-after-ms"] == "1500"
    assert body["error"]["type"] == "rate_limit_exceeded"


async def test_delay_drops_the_connection_unanswered(server: ScriptedModelServer) -> None:
    server.begin_turn([], errors=[{"delay": 0.05}])
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await _post(
            server.base_url + "/chat/completions",
            {"model": "m", "messages": [{"role": "user", "content": "oi"}]},
        )
    [request] = server.end_turn().requests
    assert (request.outcome, request.status) == ("dropped", None)


@pytest.mark.parametrize(
    ("body", "param"),
    [
        (b"{not json", None),
        ({"model": "m"}, "messages"),
        ({"model": "m", "messages": []}, "messages"),
        ({"messages": [{"role": "user", "content": "oi"}]}, "model"),
        ({"model": "m", "messages": [{"role": "robot", "content": "oi"}]}, "messages[0]"),
        ({"model": "m", "messages": [{"role": "user"}]}, "messages[0]"),
        ({"model": "m", "messages": [{"role": "tool", "content": "x"}]}, "messages[0]"),
        ({"model": "m", "messages": [{"role": "user", "content": "oi"}], "stream": True}, "stream"),
        (
            {"model": "m", "messages": [{"role": "user", "content": "oi"}], "tools": [{"x": 1}]},
            "tools",
        ),
    ],
    ids=[
        "not-json",
        "no-messages",
        "empty-messages",
        "no-model",
        "bad-role",
        "no-content",
        "tool-without-id",
        "stream",
        "bad-tools",
    ],
)
async def test_malformed_bodies_are_refused(
    server: ScriptedModelServer, body: Any, param: str | None
) -> None:
    server.begin_turn([RESPOND])
    status, answer, _ = await _post(server.base_url + "/chat/completions", body)
    report = server.end_turn()

    assert status == 400
    assert answer["error"]["type"] == "invalid_request_error"
    assert answer["error"]["param"] == param
    assert [f.code for f in report.failures] == ["invalid_request"]
    assert report.unconsumed_outputs == (RESPOND,)


@pytest.mark.parametrize(
    ("outputs", "errors", "message"),
    [
        (["text"], [], "scripted output 0 must be a non-empty mapping"),
        ([{}], [], "scripted output 0 must be a non-empty mapping"),
        ([{"raw": "x", "action": "NOOP"}], [], "`raw` must be the only key"),
        ([{"raw": 3}], [], "`raw` must be the only key"),
        ([], [{"status": 200}], "HTTP error status"),
        ([], [{"status": "500"}], "HTTP error status"),
        ([], [{"delay": -1}], "`delay` must be seconds"),
        ([], [{"status": 429, "retry_after": "soon"}], "`retry_after` must be seconds"),
        ([], [{"oops": 1}], "must be {status: N}"),
    ],
)
async def test_bad_scripts_are_refused_clearly(
    server: ScriptedModelServer, outputs: list[Any], errors: list[Any], message: str
) -> None:
    with pytest.raises(ValueError, match="scripted") as caught:
        server.begin_turn(outputs, errors)
    assert message in str(caught.value)
    server.begin_turn([RESPOND])  # nothing half-applied
    assert server.end_turn().unconsumed_outputs == (RESPOND,)


async def test_begin_turn_twice_without_end_turn_is_a_mistake(server: ScriptedModelServer) -> None:
    server.begin_turn([RESPOND])
    with pytest.raises(RuntimeError, match="end_turn"):
        server.begin_turn([RESPOND])


async def test_servers_run_side_by_side(counter: TokenCounter) -> None:
    async with (
        ScriptedModelServer(counter=counter) as first,
        ScriptedModelServer(counter=counter) as second,
    ):
        assert first.base_url != second.base_url
        first.begin_turn([{"raw": "primeiro"}])
        second.begin_turn([{"raw": "segundo"}])
        answers = []
        for running in (second, first):
            _, body, _ = await _post(
                running.base_url + "/chat/completions",
                {"model": "m", "messages": [{"role": "user", "content": "oi"}]},
            )
            answers.append(body["choices"][0]["message"]["content"])
        assert answers == ["segundo", "primeiro"]
        assert first.end_turn().llm_calls == second.end_turn().llm_calls == 1


async def test_out_of_outputs_through_the_client_is_unavailable(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([])
    with pytest.raises(PlannerUnavailable):
        await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()
    assert report.llm_calls == 3  # the transport retried the 500 twice
    assert {f.code for f in report.failures} == {"out_of_outputs"}
