"""The situation tells what changed since the one before it (issue 28, agent/memory/situation.py).

A json_schema request shows each earlier planned message with its situation, so the
model reads them as a sequence: the first in the history tells everything, each later
one what changed. What it does not repeat costs the server nothing to evaluate.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agent.memory.frame import ContextFrame
from agent.memory.history import gist
from agent.memory.narrator import narrate
from agent.memory.situation import Part, from_record, tell
from storage import Database
from tests.support.live import call, live_runtime, respond, shared_counter

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


parts = st.lists(
    st.builds(
        Part,
        name=st.sampled_from(["time", "state", "shelf", "focus", "tools"]),
        full=st.text("abc ", max_size=12),
        key=st.text("ab", max_size=4),
        again=st.text("abd ", max_size=12),
        steady=st.text("abe ", max_size=12),
        always=st.booleans(),
    ),
    max_size=6,
)


@given(parts, st.none() | parts)
def test_a_situation_tells_every_change_and_what_every_message_tells(
    now: list[Part], before: list[Part] | None
) -> None:
    told = tell(now, before).splitlines()
    earlier = {p.name: p for p in before or [] if not p.always}
    for part in now:
        if part.always or before is None:
            expected = part.full
        elif part.name not in earlier or earlier[part.name].judged != part.judged:
            expected = part.again or part.full
        else:
            expected = part.steady
        if expected:
            assert expected in told
    # and it reads back from its record as it was
    assert from_record([p.as_record() for p in now]) == tuple(now)


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


def frame(shelf: list[str], *, facts: tuple[str, ...] = ()) -> ContextFrame:
    """A frame with `shelf` (item ids) as the last list shown, built as stored state reads."""
    return ContextFrame(
        identity={"role": "user", "user_id": "console:alice", "days_active": 3},
        position={"channel": "console"},
        state={"total": 2, "counts": {"note": 2}},
        obligations=[],
        capabilities={"tools": ["save_note"]},
        memory={"model": {"facts": list(facts)}} if facts else {},
        temporal={"now": "2026-01-05T10:00:00-03:00", "timezone": "America/Sao_Paulo"},
        constitution={},
        shelf={
            "entries": [
                {"n": n, "item_id": f"{i}{'0' * 24}", "label": f"nota {'x' * 40} {n}"}
                for n, i in enumerate(shelf, 1)
            ]
        },
    )


def test_a_list_the_budget_left_out_is_still_said_to_have_changed() -> None:
    counter = shared_counter()
    first = narrate(
        frame(["aaaaaaaa", "bbbbbbbb"]), "pt", budget=2_000, counter=counter, changes_told=True
    )
    assert "Última lista vista" in tell(first.parts, None)
    other = frame(["cccccccc"] * 8)
    squeezed = next(
        n
        for b in range(400, 0, -5)
        if not (n := narrate(other, "pt", budget=b, counter=counter, changes_told=True)).minimal
        and "shelf" in n.compressed
        and "Última lista vista" not in n.turn
    )
    told = tell(squeezed.parts, first.parts)
    assert "Uma nova lista foi mostrada (não repetida aqui)." in told
    # the same list, only squeezed out by the budget now, is no news
    same = frame(["cccccccc"] * 8)
    shown = narrate(same, "pt", budget=2_000, counter=counter, changes_told=True)
    squeezed_same = next(
        n
        for b in range(400, 0, -5)
        if not (n := narrate(same, "pt", budget=b, counter=counter, changes_told=True)).minimal
        and "shelf" in n.compressed
        and "Última lista vista" not in n.turn
    )
    assert "lista" not in tell(squeezed_same.parts, shown.parts).lower()
    # and a list that is gone is said to be gone
    assert "Nenhuma lista recente." in tell(
        narrate(frame([]), "pt", budget=2_000, counter=counter).parts, first.parts
    )


def test_what_the_user_told_is_told_when_it_changes_and_when_it_is_forgotten() -> None:
    counter = shared_counter()
    knows = narrate(
        frame([], facts=("prefere legendas",)),
        "pt",
        budget=2_000,
        counter=counter,
        changes_told=True,
    )
    assert "prefere legendas" not in knows.memory  # not before the history: in the situation
    assert "prefere legendas" in tell(knows.parts, None)
    assert "prefere legendas" not in tell(knows.parts, knows.parts)
    forgot = narrate(frame([]), "pt", budget=2_000, counter=counter, changes_told=True)
    assert "Não guardo mais nada que o usuário me contou de si." in tell(forgot.parts, knows.parts)
    # function calling tells the whole situation, so the facts stay in the memory part
    assert (
        "prefere legendas"
        in narrate(
            frame([], facts=("prefere legendas",)), "pt", budget=2_000, counter=counter
        ).memory
    )


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
    assert "Nenhum item em foco." in told  # the list took the focus away: said, not left out
    assert "O usuário guarda 2 itens (2 notas)." in told
    assert "Não há nada pendente" not in told  # unchanged since the first
    later = situation_of(after)
    assert "Última lista vista" not in later  # the same list is not told again
    assert "O usuário guarda 3 itens (3 notas)." in later
    assert later.startswith("Agora: ")
    assert len(later.splitlines()[0]) == len("Agora: 10:00.")
    # the history shows each earlier situation as it was sent
    history = [m["content"] for m in after.requests[0].body["messages"]]
    assert told in history


async def test_each_request_is_the_start_of_the_next_one_between_drops(db: Database) -> None:
    """What a request sent, the next one shows again byte for byte: the server's cache keeps
    it, whatever the situations told (a list, a pending delete, a restriction of tools)."""
    async with live_runtime(db, **SMALL) as live:
        sent = []
        turns: list[tuple[str, list[dict[str, Any]]]] = [
            ("anota: comprar pão", [call("save_note", content="comprar pão")]),
            ("anota: pagar a luz", [call("save_note", content="pagar a luz")]),
            ("lista minhas notas", []),
            ("apaga a nota da luz", [call("delete_item", query="luz")]),
            ("sim", []),
            (
                "o que eu preciso comprar?",
                [call("search_items", query="comprar"), respond("Pão.")],
            ),
            ("anota: regar as plantas", [call("save_note", content="regar as plantas")]),
        ]
        for text, outputs in turns:
            _, report = await live.say(text, llm=outputs)
            assert report.problems() == [], text
            sent += [r.body["messages"] for r in report.requests]
    assert len(sent) == 6  # the question is two: its search, then its answer phrased
    # the question's answer was phrased from its search's result, which the history leaves
    # out once the turn is over (agent/planning/wire.py): its first request is the prefix
    for before, after in [*zip(sent[:4], sent[1:5], strict=True), (sent[3], sent[5])]:
        assert after[: len(before)] == before
    # the question's restriction of tools was its own: the next message is not told it
    restricted = [m["content"] for m in sent[3] if m["role"] == "system"][-1]
    assert "use só estas ferramentas" in restricted
    assert "use só estas ferramentas" not in str(sent[5][-2]["content"])


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
