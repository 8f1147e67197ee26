"""Native tool messages (DESIGN 3.6, seed 004): what a turn stores, how it loads, and that no
window or cut ever produces a sequence the real API rejects."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_openai.chat_models.base import _convert_message_to_dict

from agent.memory.history import to_messages
from agent.memory.tiers import whole_turn_suffix
from bot.fakes.scripted_model import _check_tool_pairing
from storage import Database
from storage.documents import MessageDoc, ToolCallRecord
from storage.messages import NewMessage
from tests.support.live import ALICE, call, live_runtime, respond

CONV = ALICE
INCEPTION = {"movie": {"inception": [{"id": 27205, "title": "Inception", "release_date": "2010"}]}}


def wire(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """The messages as langchain-openai puts them on the wire."""
    return [_convert_message_to_dict(m) for m in messages]


def pairing_problem(messages: Sequence[BaseMessage]) -> str | None:
    """The scripted server's own 400 check (the real API's pairing rules)."""
    rejection = _check_tool_pairing(wire(messages))
    return None if rejection is None else f"{rejection.code}: {rejection.message}"


def record(seq: int, role: str, content: str = "", **fields: Any) -> MessageDoc:
    return MessageDoc(
        _id=f"{CONV}:{seq:010d}",
        conversation_id=CONV,
        user_id=ALICE,
        seq=seq,
        role=role,  # type: ignore[arg-type]
        content=content,
        ts_ms=seq,
        **fields,
    )


def calls(*ids: str) -> list[ToolCallRecord]:
    return [ToolCallRecord(id=i, name="plan", args_json='{"action": "NOOP"}') for i in ids]


# -- a real turn, stored and loaded --------------------------------------------------------------


async def test_a_turn_is_stored_with_native_roles_and_loads_as_langchain_messages(
    db: Database,
) -> None:
    async with live_runtime(db, tmdb=INCEPTION) as live:
        # one refused output (CALL_TOOL with a message), then a valid one
        bad = {**call("save_note", content="comprar pão"), "message": "not allowed here"}
        reply, report = await live.say(
            "salva uma nota: comprar pão", llm=[bad, call("save_note", content="comprar pão")]
        )
        assert "comprar pão" in reply.text
        assert report.problems() == []
        stored = await db.messages.last(ALICE, CONV, 50)

    assert [m.role for m in stored] == ["human", "ai", "tool", "ai", "tool", "ai"]
    human, refused_ai, refusal, ok_ai, result, final = stored
    assert human.content == "salva uma nota: comprar pão"
    assert len({m.turn_id for m in stored}) == 1
    for ai, tool in ((refused_ai, refusal), (ok_ai, result)):
        assert len(ai.tool_calls) == 1
        assert ai.tool_calls[0].id
        assert ai.tool_calls[0].name == "plan"
        assert json.loads(ai.tool_calls[0].args_json)["tool"] == "save_note"
        assert tool.tool_call_id == ai.tool_calls[0].id
    assert refusal.name == "plan"
    assert json.loads(refusal.content)["status"] == "refused"
    assert result.name == "save_note"
    assert json.loads(result.content)["status"] == "saved"
    assert final.tool_calls == []
    assert final.content == reply.text

    loaded = to_messages(stored)
    assert [type(m) for m in loaded] == [
        HumanMessage,
        AIMessage,
        ToolMessage,
        AIMessage,
        ToolMessage,
        AIMessage,
    ]
    first_call = loaded[1]
    assert isinstance(first_call, AIMessage)
    assert first_call.tool_calls[0]["id"] == refused_ai.tool_calls[0].id
    assert first_call.tool_calls[0]["args"]["tool"] == "save_note"
    tool_message = loaded[4]
    assert isinstance(tool_message, ToolMessage)
    assert tool_message.tool_call_id == ok_ai.tool_calls[0].id
    assert tool_message.name == "save_note"
    assert pairing_problem(loaded) is None


async def test_the_next_request_carries_the_history_as_real_tool_calls(db: Database) -> None:
    async with live_runtime(db, tmdb=INCEPTION) as live:
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        _, report = await live.say(
            "procura inception nos meus itens e me diz o ano",
            llm=[call("search_items", query="inception")],
        )
    assert report.problems() == []
    sent = report.requests[0].body["messages"]
    roles = [m["role"] for m in sent]
    assert roles[:2] == ["system", "system"]  # the stable rules, then what is remembered
    assert roles[-2:] == ["system", "user"]  # this turn's situation, then the new message
    assert roles[2:-2] == ["user", "assistant", "tool", "assistant"]
    assistant, tool = sent[3], sent[4]
    assert assistant["tool_calls"][0]["function"]["name"] == "plan"
    assert tool["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert json.loads(tool["content"])["status"] == "saved"


# -- fallbacks ------------------------------------------------------------------------------------


def test_records_without_ids_fall_back_to_plain_text() -> None:
    records = [
        record(1, "human", "salva inception"),
        record(2, "ai", "", tool_calls=calls("")),  # a call stored without its id
        record(3, "tool", '{"status": "saved"}', name="enrich_movie"),  # no tool_call_id
        record(4, "ai", "Salvo."),
    ]
    loaded = to_messages(records)
    assert not any(isinstance(m, ToolMessage) for m in loaded)
    assert not any(isinstance(m, AIMessage) and m.tool_calls for m in loaded)
    assert "enrich_movie" in str(loaded[2].content)
    assert "saved" in str(loaded[2].content)
    assert pairing_problem(loaded) is None


def test_a_call_whose_result_is_missing_falls_back_with_its_group() -> None:
    records = [
        record(1, "human", "oi"),
        record(2, "ai", "", tool_calls=calls("c1", "c2")),
        record(3, "tool", '{"status": "found"}', tool_call_id="c1", name="search_items"),
        record(4, "ai", "Encontrei."),
    ]
    loaded = to_messages(records)
    assert len(loaded) == len(records)
    assert not any(isinstance(m, ToolMessage) for m in loaded)
    assert pairing_problem(loaded) is None


def test_an_orphan_or_repeated_answer_is_kept_as_text_not_dropped() -> None:
    records = [
        record(1, "tool", '{"status": "saved"}', tool_call_id="gone", name="save_note"),
        record(2, "human", "salva"),
        record(3, "ai", "", tool_calls=calls("c1")),
        record(4, "tool", '{"status": "saved"}', tool_call_id="c1", name="save_note"),
        record(5, "tool", '{"status": "again"}', tool_call_id="c1", name="save_note"),
        record(6, "tool", '{"status": "stray"}', tool_call_id="zz", name="save_note"),
        record(7, "ai", "Salvo."),
    ]
    loaded = to_messages(records)
    assert pairing_problem(loaded) is None
    assert len(loaded) == len(records), "every stored record is somewhere in the request"
    text = " ".join(str(m.content) for m in loaded)
    assert "again" in text
    assert "stray" in text
    assert isinstance(loaded[3], ToolMessage)
    assert loaded[3].tool_call_id == "c1"


# -- the invariant, property-tested ---------------------------------------------------------------

ids = st.sampled_from(["c1", "c2", "c3", "c4", "x9", ""])


@st.composite
def conversations(draw: st.DrawFn) -> list[MessageDoc]:
    """Random interleavings of what a history can hold, good and broken."""
    out: list[MessageDoc] = []

    def add(role: str, content: str = "", **fields: Any) -> None:
        out.append(record(len(out) + 1, role, content, **fields))

    for turn in range(draw(st.integers(0, 8))):
        turn_id = draw(st.sampled_from([f"t{turn}", None]))  # None: a legacy record
        add("human", f"msg {turn}", turn_id=turn_id)
        for step in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["calls", "calls", "plain", "orphan", "correction"]))
            if kind == "plain":
                add("ai", f"text {turn}.{step}", turn_id=turn_id)
            elif kind == "orphan":
                add("tool", "{}", tool_call_id=draw(ids), name="plan", turn_id=turn_id)
            elif kind == "correction":
                add("system", "error: x", name="runtime_correction", turn_id=turn_id)
            else:
                prefix = f"{turn}.{step}."
                call_ids = [
                    prefix + i if draw(st.booleans()) or not i else i
                    for i in draw(st.lists(ids, min_size=1, max_size=3))
                ]
                add("ai", "", tool_calls=calls(*call_ids), turn_id=turn_id)
                for call_id in call_ids:
                    fate = draw(
                        st.sampled_from(["result", "result", "refusal", "missing", "twice"])
                    )
                    if fate == "missing":
                        continue
                    status = "refused" if fate == "refusal" else "saved"
                    for _ in range(2 if fate == "twice" else 1):
                        add(
                            "tool",
                            json.dumps({"status": status}),
                            tool_call_id=call_id or None,
                            name="plan",
                            turn_id=turn_id,
                        )
        if draw(st.booleans()):
            add("ai", f"reply {turn}", turn_id=turn_id)
    return out


def pairs(window: Sequence[MessageDoc]) -> list[tuple[int, int]]:
    """(ai seq, tool seq) for every tool record answering a call of the ai record it follows."""
    found: list[tuple[int, int]] = []
    open_ai: MessageDoc | None = None
    for message in window:
        if message.role == "tool":
            if open_ai is not None and message.tool_call_id in {c.id for c in open_ai.tool_calls}:
                found.append((open_ai.seq, message.seq))
            continue
        open_ai = message if message.role == "ai" and message.tool_calls else None
    return found


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversation=conversations(), cut=st.integers(0, 80), limit=st.integers(1, 30))
def test_no_window_or_cut_separates_a_call_from_its_results(
    conversation: list[MessageDoc], cut: int, limit: int
) -> None:
    window = conversation[min(cut, len(conversation)) :]

    loaded = to_messages(window)
    assert pairing_problem(loaded) is None
    assert len(loaded) == len(window), "no stored record is silently dropped"

    suffix = whole_turn_suffix(window, limit)
    assert suffix == window[len(window) - len(suffix) :], "a suffix of the window"
    kept = {m.seq for m in suffix}
    for ai_seq, tool_seq in pairs(window):
        assert (ai_seq in kept) == (tool_seq in kept), (
            f"call {ai_seq} and its result {tool_seq} were separated"
        )
    assert pairing_problem(to_messages(suffix)) is None
    if window:
        assert suffix, "the last turn is always kept"


# -- the same through the real server --------------------------------------------------------------


async def test_broken_histories_reach_the_model_without_a_400(db: Database) -> None:
    """Legacy and broken records stored in the database; the real turn's request is accepted."""
    async with live_runtime(db) as live:
        broken = [
            NewMessage(role="tool", content='{"status": "saved"}', tool_call_id="lost"),
            NewMessage(role="human", content="salva inception"),
            NewMessage(role="ai", tool_calls=tuple(calls("a1", "a2"))),
            NewMessage(role="tool", content="{}", tool_call_id="a1", name="plan"),
            NewMessage(role="ai", content="Pronto."),
            NewMessage(role="ai", tool_calls=tuple(calls(""))),
            NewMessage(role="tool", content="{}", name="plan"),
            NewMessage(role="human", content="e agora?"),
            NewMessage(role="ai", tool_calls=tuple(calls("b1"))),
        ]
        await db.messages.append(ALICE, CONV, broken, now_ms=live.clock.ms())
        reply, report = await live.say("me conta uma curiosidade", llm=[respond("Nada guardado.")])
    assert report.problems() == []
    assert reply.text == "Nada guardado."
    sent = report.requests[0].body["messages"]
    assert not any(m["role"] == "tool" for m in sent)
