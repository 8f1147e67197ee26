"""The situation tells what changed since the one before it (issue 28, agent/memory/situation.py).

A json_schema request shows each earlier planned message with its situation, so the
model reads them as a sequence: the first in the history tells everything, each later
one what changed. What it does not repeat costs the server nothing to evaluate.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agent.memory.history import gist
from agent.memory.situation import Part, from_record, tell
from storage import Database
from tests.support.live import call, live_runtime

SMALL = {
    "llm_output_mode": "json_schema",
    "llm_history_messages": 6,
    "llm_history_max_messages": 48,
    "prompt_token_budget": 4_500,
    "narrative_token_budget": 400,
}
NOW = (
    Part("time", "Agora: 05/01/2026 10:00 (segunda).", key="2026-01-05", steady="Agora: 10:00."),
    Part("state", "O usuário guarda 2 itens (2 notas).", again="O usuário guarda 2 itens."),
    Part("shelf", "Última lista vista: <data>1. [abcd1234] pão</data>."),
    Part("tools", "Nesta mensagem, use só estas ferramentas: search_items.", always=True),
)


def test_the_first_situation_tells_everything_and_a_later_one_what_changed() -> None:
    full = tell(NOW, None)
    assert full.splitlines() == [p.full for p in NOW]
    # nothing changed: the clock, and what this message alone is told
    assert tell(NOW, NOW).splitlines() == [
        "Agora: 10:00.",
        "Nesta mensagem, use só estas ferramentas: search_items.",
    ]
    later = (
        Part("time", "Agora: 06/01/2026 09:00 (terça).", key="2026-01-06", steady="Agora: 09:00."),
        Part("state", "O usuário guarda 3 itens (3 notas).", again="O usuário guarda 3 itens."),
        NOW[2],
        Part("tools", "", always=True),
    )
    # a new day is told whole; a count that changed in short; the list as it was is not
    assert tell(later, NOW).splitlines() == [
        "Agora: 06/01/2026 09:00 (terça).",
        "O usuário guarda 3 itens.",
    ]
    # a part the situation before did not have is told
    assert "Última lista vista" in tell(NOW, NOW[:2])


def test_parts_survive_the_record_and_a_broken_record_reads_as_none() -> None:
    rows = [p.as_record() for p in NOW]
    assert from_record(rows) == NOW
    assert from_record(None) is None
    assert from_record([{"full": "no name"}]) is None


stored = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@given(stored, stored)
def test_reading_and_telling_stored_parts_never_raises(now: Any, before: Any) -> None:
    parts, earlier = from_record(now), from_record(before)
    if parts is not None:
        assert isinstance(tell(parts, earlier), str)


def test_a_reply_shows_the_model_its_first_line() -> None:
    preview = "Apagar pão? (sim/não, expira em 2 minutos)\nResultado: pão sai da sua lista."
    assert gist(preview) == "Apagar pão? (sim/não, expira em 2 minutos) […]"
    assert gist("✅ Salvo: pão.") == "✅ Salvo: pão."
    assert len(gist("x" * 500)) == 200


def situation_of(report: Any) -> str:
    """This request's situation: the system message right before the new message."""
    return str(report.requests[0].body["messages"][-2]["content"])


async def test_a_conversation_tells_the_list_once_and_the_counts_when_they_change(
    db: Database,
) -> None:
    async with live_runtime(db, **SMALL) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("anota: pagar a luz", llm=[call("save_note", content="pagar a luz")])
        await live.say("lista minhas notas")  # answered in code: the list is the shelf
        _, shown = await live.say(
            "anota: regar as plantas", llm=[call("save_note", content="regar as plantas")]
        )
        _, after = await live.say(
            "anota: ligar pro banco", llm=[call("save_note", content="ligar pro banco")]
        )
    told = situation_of(shown)
    assert "Última lista vista: <data>1. [" in told
    assert "O usuário guarda 2 itens." in told  # short: the types were told before
    assert "Não há nada pendente" not in told  # unchanged since the first
    later = situation_of(after)
    assert "Última lista vista" not in later  # the same list is not told again
    assert "O usuário guarda 3 itens." in later
    assert later.startswith("Agora: ")
    assert len(later.splitlines()[0]) == len("Agora: 10:00.")
    # the history shows each earlier situation as it was sent
    history = [m["content"] for m in after.requests[0].body["messages"]]
    assert told in history


async def test_the_first_situation_after_a_drop_tells_everything_again(db: Database) -> None:
    small = {**SMALL, "llm_history_max_messages": 12}
    async with live_runtime(db, **small) as live:
        reports = []
        for n in range(1, 7):
            _, report = await live.say(
                f"anota: tarefa {n}", llm=[call("save_note", content=f"tarefa {n}")]
            )
            reports.append(report)
    messages = reports[-1].requests[0].body["messages"]
    # the history starts with a situation told whole: what it changed from was dropped
    shown = [str(m["content"]) for m in messages[2:-2] if m["role"] == "system"]
    assert len(shown) < 5  # a block was dropped
    assert "O usuário guarda" in shown[0]
    assert "notas)" in shown[0]
    assert "Não há nada pendente" in shown[0]
    assert all("Não há nada pendente" not in s for s in shown[1:])


async def test_what_the_user_told_about_themselves_does_not_move_the_cached_memory(
    db: Database,
) -> None:
    async with live_runtime(db, **SMALL) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        _, remembered = await live.say(
            "lembra que eu prefiro filmes legendados",
            llm=[call("remember", fact="prefere filmes legendados")],
        )
        _, next_one = await live.say(
            "anota: pagar a luz", llm=[call("save_note", content="pagar a luz")]
        )
        _, after = await live.say(
            "anota: regar as plantas", llm=[call("save_note", content="regar as plantas")]
        )
    memory = [r.requests[0].body["messages"][1] for r in (remembered, next_one, after)]
    assert memory[0] == memory[1] == memory[2]  # the server keeps it, and the history after it
    assert "prefere filmes legendados" in situation_of(next_one)
    assert "prefere filmes legendados" not in situation_of(after)
    assert next_one.requests[0].cached_tokens > 0.8 * (next_one.requests[0].prompt_tokens or 0)


async def test_function_calling_tells_the_whole_situation_every_time(db: Database) -> None:
    async with live_runtime(db, **{**SMALL, "llm_output_mode": "tools"}) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        _, second = await live.say(
            "anota: pagar a luz", llm=[call("save_note", content="pagar a luz")]
        )
    told = situation_of(second)
    assert "Não há nada pendente" in told
    assert "O usuário guarda 1 item (1 nota)." in told
