"""The model transport rules (DESIGN 3.1), through the real ChatOpenAI client over loopback HTTP."""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from agent.errors import PlannerRejected, PlannerTimeout, PlannerUnavailable
from agent.planning.schema import planner_function_schema
from agent.planning.transport import ModelTransport, output_cap, retry_after_s
from agent.tokens import TokenCounter, compact_json
from bot.fakes.scripted_model import ScriptedModelServer

TOOLS = [planner_function_schema()]
NOOP = {
    "action": "NOOP",
    "tool": None,
    "args": None,
    "message": None,
    "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
}
USER_TEXT = "guarda esse link secreto do meu médico"
CONVERSATION: list[BaseMessage] = [SystemMessage("Você é o Lembra."), HumanMessage(USER_TEXT)]
API_KEY = "sk-test-never-logged-0123456789"


class RecordingSleep:
    """The transport's injected sleep: records the waits instead of waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture
async def server(counter: TokenCounter) -> AsyncIterator[ScriptedModelServer]:
    async with ScriptedModelServer(counter=counter) as running:
        yield running


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


def make_transport(
    base_url: str, counter: TokenCounter, sleep: RecordingSleep, *, timeout_s: float = 5
) -> ModelTransport:
    return ModelTransport(
        base_url=base_url,
        api_key=API_KEY,
        model="scripted-test",
        timeout_s=timeout_s,
        max_tokens=200,
        counter=counter,
        sleep=sleep,
    )


@pytest.fixture
async def transport(
    server: ScriptedModelServer, counter: TokenCounter, sleep: RecordingSleep
) -> AsyncIterator[ModelTransport]:
    model = make_transport(server.base_url, counter, sleep)
    yield model
    await model.aclose()


async def test_timeout_is_not_retried(
    server: ScriptedModelServer, counter: TokenCounter, sleep: RecordingSleep
) -> None:
    model = make_transport(server.base_url, counter, sleep, timeout_s=1)
    server.begin_turn([NOOP], errors=[{"delay": 3}])
    try:
        with pytest.raises(PlannerTimeout, match="within 1 s"):
            await model.complete(CONVERSATION, tools=TOOLS)
    finally:
        await model.aclose()
    report = server.end_turn()

    assert report.llm_calls == 1
    assert sleep.waits == []
    assert report.unconsumed_outputs == (NOOP,)


async def test_rate_limit_waits_what_retry_after_asks(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep
) -> None:
    server.begin_turn([NOOP], errors=[{"status": 429, "retry_after": 1}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert answer.message.tool_calls[0]["args"] == NOOP
    assert answer.attempts == 2
    assert report.llm_calls == 2
    assert sleep.waits == [1.0]


async def test_a_retry_after_up_to_ten_seconds_is_waited_in_full(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep
) -> None:
    server.begin_turn([NOOP], errors=[{"status": 503, "retry_after": 10}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    server.end_turn()

    assert answer.attempts == 2
    assert sleep.waits == [10.0]


async def test_a_longer_retry_after_is_not_cut_short_but_gives_up_at_once(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep
) -> None:
    server.begin_turn([], errors=[{"status": 429, "retry_after": 120}])
    with pytest.raises(PlannerUnavailable, match="asked to wait 120 s") as raised:
        await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert raised.value.attempts == 1
    assert report.llm_calls == 1
    assert sleep.waits == []


async def test_server_errors_give_up_after_two_retries(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep
) -> None:
    server.begin_turn([NOOP], errors=[{"status": 500}] * 3)
    with pytest.raises(PlannerUnavailable, match="HTTP 500"):
        await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert report.llm_calls == 3
    assert len(sleep.waits) == 2  # short backoff: no Retry-After was sent
    assert all(0 < wait <= 10 for wait in sleep.waits)
    assert report.unconsumed_outputs == (NOOP,)


async def test_bad_request_is_rejected_without_retry(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep
) -> None:
    server.begin_turn([NOOP], errors=[{"status": 400}])
    with pytest.raises(PlannerRejected, match="HTTP 400"):
        await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert report.llm_calls == 1
    assert sleep.waits == []


async def test_oversized_prompt_is_rejected_without_retry(
    counter: TokenCounter, sleep: RecordingSleep
) -> None:
    async with ScriptedModelServer(context_size=100, counter=counter) as small:
        model = make_transport(small.base_url, counter, sleep)
        small.begin_turn([NOOP])
        try:
            with pytest.raises(PlannerRejected, match="context_length_exceeded"):
                await model.complete(CONVERSATION, tools=TOOLS)
        finally:
            await model.aclose()
        report = small.end_turn()

    assert report.llm_calls == 1
    assert sleep.waits == []


@pytest.mark.parametrize("status", [401, 403])
async def test_refused_credentials_are_unavailable_at_once(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep, status: int
) -> None:
    server.begin_turn([NOOP], errors=[{"status": status}])
    with pytest.raises(PlannerUnavailable, match="refused the credentials"):
        await transport.complete(CONVERSATION, tools=TOOLS)

    assert server.end_turn().llm_calls == 1
    assert sleep.waits == []


async def test_a_model_the_server_does_not_serve_is_a_warning_naming_the_settings(
    counter: TokenCounter, sleep: RecordingSleep, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 45: the 404 of a wrong OPENAI_BASE_URL or LLM_MODEL was logged at INFO only."""
    async with ScriptedModelServer(counter=counter, models=["another-model"]) as server:
        transport = make_transport(server.base_url, counter, sleep)
        with caplog.at_level(logging.WARNING), pytest.raises(PlannerUnavailable, match="404"):
            await transport.complete(CONVERSATION, tools=TOOLS)
        await transport.aclose()

    (warning,) = [r for r in caplog.records if r.getMessage() == "model_not_found"]
    assert warning.levelno == logging.WARNING
    assert "OPENAI_BASE_URL" in str(vars(warning))
    assert "LLM_MODEL" in str(vars(warning))


async def test_dropped_connection_is_retried(
    server: ScriptedModelServer, transport: ModelTransport, sleep: RecordingSleep
) -> None:
    server.begin_turn([NOOP], errors=[{"delay": 0.05}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)

    assert answer.attempts == 2
    assert server.end_turn().problems() == []
    assert len(sleep.waits) == 1


async def test_unreachable_server_is_unavailable_after_retries(
    counter: TokenCounter, sleep: RecordingSleep
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        model = make_transport(f"http://127.0.0.1:{port}/v1", counter, sleep)
        try:
            with pytest.raises(PlannerUnavailable, match="after 3 attempts"):
                await model.complete(CONVERSATION, tools=TOOLS)
        finally:
            await model.aclose()
    assert len(sleep.waits) == 2


async def test_usage_tokens_are_propagated(
    server: ScriptedModelServer, transport: ModelTransport, counter: TokenCounter
) -> None:
    server.begin_turn([NOOP])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    report = server.end_turn()

    assert answer.prompt_tokens == report.requests[0].prompt_tokens
    assert answer.prompt_tokens == transport.count_prompt(CONVERSATION, tools=TOOLS)
    assert answer.completion_tokens == counter.count_text(compact_json(NOOP))
    assert answer.attempts == 1
    assert answer.latency_s >= 0


async def test_request_is_plain_function_calling(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([NOOP])
    await transport.complete(CONVERSATION, tools=TOOLS)
    body = server.end_turn().requests[0].body

    assert body["tools"] == TOOLS  # no strict mode added
    assert body["tool_choice"] == "required"
    assert body["temperature"] == 0
    assert body["max_tokens"] == 200  # the field a local server (Ollama, llama.cpp) reads
    assert "max_completion_tokens" not in body
    assert body["stream"] is False
    assert body["model"] == "scripted-test"


async def test_arguments_that_are_not_json_stay_visible(
    server: ScriptedModelServer, transport: ModelTransport
) -> None:
    server.begin_turn([{"raw_arguments": '{"action": "NOOP", '}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    server.end_turn()

    assert answer.message.tool_calls == []
    [bad] = answer.message.invalid_tool_calls
    assert bad["name"] == "plan"
    assert bad["id"] == "call_1"
    assert bad["args"] == '{"action": "NOOP", '
    assert "not valid JSON" in (bad["error"] or "")


@pytest.mark.parametrize(
    ("arguments", "kind"),
    [("[1, 2]", "an array"), ('"NOOP"', "a string"), ("7", "a number"), ("null", "null")],
)
async def test_arguments_that_are_not_an_object_stay_visible(
    server: ScriptedModelServer, transport: ModelTransport, arguments: str, kind: str
) -> None:
    server.begin_turn([{"raw_arguments": arguments}])
    answer = await transport.complete(CONVERSATION, tools=TOOLS)
    server.end_turn()

    assert answer.message.tool_calls == []
    [bad] = answer.message.invalid_tool_calls
    assert bad["args"] == arguments
    assert bad["error"] == f"the function arguments must be a JSON object, got {kind}"


async def test_answer_that_is_not_a_chat_completion_is_unavailable(
    counter: TokenCounter, sleep: RecordingSleep
) -> None:
    async def handler(_request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    site = web.SockSite(runner, sock)
    await site.start()
    model = make_transport(f"http://127.0.0.1:{sock.getsockname()[1]}/v1", counter, sleep)
    try:
        with pytest.raises(PlannerUnavailable, match="not a chat completion"):
            await model.complete(CONVERSATION, tools=TOOLS)
    finally:
        await model.aclose()
        await runner.cleanup()


async def test_logs_hold_neither_key_nor_message_text(
    server: ScriptedModelServer,
    transport: ModelTransport,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    server.begin_turn([NOOP], errors=[{"status": 500}])
    await transport.complete(CONVERSATION, tools=TOOLS)
    server.end_turn()

    logged = "\n".join(f"{record.getMessage()} {vars(record)}" for record in caplog.records)
    assert "model_request_failed" in logged
    assert "model_request_done" in logged
    assert API_KEY not in logged
    assert USER_TEXT not in logged


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5),
        ({"retry-after": "3"}, 3.0),
        (
            {
                "retry-after": "Wed, 21 Oct 2026 07:28:05 GMT",
                "date": "Wed, 21 Oct 2026 07:28:00 GMT",
            },
            5.0,
        ),
        ({"retry-after": "Wed, 21 Oct 2026 07:28:05 GMT"}, None),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "-4"}, 0.0),
        ({}, None),
    ],
)
def test_retry_after_forms(headers: dict[str, str], expected: float | None) -> None:
    assert retry_after_s(headers) == expected


async def test_empty_tools_is_a_programming_error(transport: ModelTransport) -> None:
    with pytest.raises(ValueError, match="tools"):
        await transport.complete(CONVERSATION, tools=[])


@pytest.mark.parametrize(
    ("base_url", "expected"),
    [
        (None, {"max_completion_tokens": 300}),
        ("https://api.openai.com/v1", {"max_completion_tokens": 300}),
        ("http://127.0.0.1:11434/v1", {"extra_body": {"max_tokens": 300}}),
        ("http://localhost:8080/v1", {"extra_body": {"max_tokens": 300}}),
        ("https://vllm.internal.example/v1", {"extra_body": {"max_tokens": 300}}),
    ],
)
def test_the_output_cap_uses_the_field_the_server_reads(
    base_url: str | None, expected: dict[str, object]
) -> None:
    """OpenAI refuses `max_tokens` on its newer models; Ollama ignores `max_completion_tokens`."""
    assert output_cap(base_url, 300) == expected
