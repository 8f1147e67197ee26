"""Why agent/planning/transport.py calls ChatOpenAI's private `_get_request_payload`.

`count_prompt` must count the tokens of exactly the messages the model server receives
(DESIGN 3.9: the prompt budget is checked before the call). langchain-openai's own
conversion is the one that builds them; the public `convert_to_openai_messages` writes
an assistant tool call's content as "" where the wire carries null (a different count).
These tests pin that: if langchain renames the method or changes what it returns, the
first fails; if the public function comes to agree, the second fails, and the private
call can go.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
    convert_to_openai_messages,
)

from agent.planning.schema import planner_function_schema
from agent.planning.transport import ModelTransport
from agent.tokens import TokenCounter
from bot.fakes.scripted_model import ScriptedModelServer

TOOLS = [planner_function_schema()]
RESPOND = {
    "action": "RESPOND",
    "tool": None,
    "args": None,
    "message": "Pronto.",
    "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
}
HISTORY: list[BaseMessage] = [
    SystemMessage("Você é o Lembra."),
    HumanMessage("salva inception"),
    AIMessage(content="", tool_calls=[{"id": "call_a", "name": "plan", "args": {"a": 1}}]),
    ToolMessage('{"candidates": 2}', tool_call_id="call_a"),
    HumanMessage("o primeiro"),
]


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture
async def transport(
    counter: TokenCounter,
) -> AsyncIterator[tuple[ModelTransport, ScriptedModelServer]]:
    async with ScriptedModelServer(counter=counter) as server:
        model = ModelTransport(
            base_url=server.base_url,
            api_key="sk-test",
            model="scripted-test",
            timeout_s=5,
            max_tokens=200,
            counter=counter,
        )
        try:
            yield model, server
        finally:
            await model.aclose()


async def test_the_private_payload_is_what_the_server_receives(
    transport: tuple[ModelTransport, ScriptedModelServer],
) -> None:
    model, server = transport
    server.begin_turn([RESPOND])
    await model.complete(HISTORY, tools=TOOLS)
    (request,) = server.end_turn().requests

    wire = model._chat._get_request_payload(list(HISTORY))["messages"]

    assert wire == request.body["messages"]
    assert model.count_prompt(HISTORY, tools=TOOLS) == request.prompt_tokens


def test_the_public_conversion_still_differs_so_the_private_one_is_needed() -> None:
    from langchain_openai import ChatOpenAI

    private = ChatOpenAI(model="m", api_key="k")._get_request_payload(list(HISTORY))["messages"]
    public = convert_to_openai_messages(HISTORY)

    assert public != private, "langchain's public conversion now matches: drop the private call"
    (call,) = [m for m in private if m.get("tool_calls")]
    assert call["content"] is None
