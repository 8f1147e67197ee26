"""What a json_schema planning request sends (agent/planning/wire.py, issue 28)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agent.planning.wire import SETTLED, STEP_TEXT, as_sent

WRITTEN = '{"action":"CALL_TOOL","tool":"save_note","args":{"content":"pão"},"belief":{"key":"answer.confidence","guessed":1}}'


def step(call_id: str, written: object = WRITTEN) -> AIMessage:
    return AIMessage(
        content="",
        tool_calls=[
            {"name": "plan", "args": {"action": "NOOP"}, "id": call_id, "type": "tool_call"}
        ],
        additional_kwargs={STEP_TEXT: written},
    )


def test_a_step_goes_as_written_its_result_as_the_runtimes_message_then_not_again() -> None:
    sent = as_sent(
        [
            SystemMessage(content="rules"),
            HumanMessage(content="anota: pão"),
            step("a"),
            ToolMessage(
                content='{"status":"saved"}', tool_call_id="a", additional_kwargs={SETTLED: True}
            ),
            AIMessage(content="✅ Salvo: pão."),
            HumanMessage(content="anota: leite"),
            step("b"),
            ToolMessage(content='{"status":"saved"}', tool_call_id="b"),
        ]
    )
    assert [type(m).__name__ for m in sent] == [
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "AIMessage",
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
    ]
    assert sent[2].content == WRITTEN
    assert not sent[2].tool_calls
    assert sent[6].content == 'Result: {"status":"saved"}'


def test_calls_the_model_did_not_write_keep_their_native_pairing() -> None:
    native = AIMessage(
        content="",
        tool_calls=[{"name": "plan", "args": {}, "id": "c", "type": "tool_call"}],
    )
    result = ToolMessage(content="{}", tool_call_id="c", additional_kwargs={SETTLED: True})
    assert as_sent([native, result]) == [native, result]
    # a step text that is not text is not a step text
    odd = step("d", written={"not": "text"})
    assert as_sent([odd])[0] is odd


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["human", "step", "tool", "ai"]),
            st.sampled_from(["a", "b", "c"]),
            st.one_of(st.none(), st.text(max_size=20), st.integers(), st.booleans()),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_it_never_raises_and_never_sends_a_result_without_its_call(rows: list) -> None:
    messages = []
    for kind, call_id, written, settled in rows:
        if kind == "human":
            messages.append(HumanMessage(content=str(written)))
        elif kind == "step":
            messages.append(step(call_id, written))
        elif kind == "tool":
            extra = {SETTLED: True} if settled else {}
            messages.append(
                ToolMessage(content="{}", tool_call_id=call_id, additional_kwargs=extra)
            )
        else:
            messages.append(AIMessage(content=str(written)))
    sent = as_sent(messages)
    kept, seen = [], set()  # the results whose call, before them, was not sent as written
    for m in messages:
        written = m.additional_kwargs.get(STEP_TEXT) if isinstance(m, AIMessage) else None
        if isinstance(m, AIMessage) and m.tool_calls and isinstance(written, str) and written:
            seen.add(m.tool_calls[0]["id"])
        elif isinstance(m, ToolMessage) and m.tool_call_id not in seen:
            kept.append(m)
    assert [m for m in sent if isinstance(m, ToolMessage)] == kept
    assert not any(isinstance(m, AIMessage) and m.tool_calls and m.content for m in sent)
