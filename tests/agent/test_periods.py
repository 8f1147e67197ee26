"""Synthesized periods (issue 31, seed 002-39): kept by consolidation, read by the frame with
no model call, and "o que eu salvei essa semana / esse mês?" answered in code."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.memory.consolidation import consolidate
from agent.memory.narrator import narrate
from agent.memory.periods import synthesize
from agent.understanding.intent import IntentClassifier
from storage import Database
from storage.documents import ItemDoc
from tests.agent.test_memory_frame import frame_now
from tests.support.harness import open_lembra
from tests.support.live import ALICE, call, live_runtime, respond, shared_counter

ZONE = ZoneInfo("America/Sao_Paulo")
DAY_S = 86_400


def item(seq: int, when: datetime, *, kind: str = "note", title: str) -> ItemDoc:
    ms = int(when.timestamp() * 1000)
    fields = {"content": title} if kind == "note" else {"title": title}
    return ItemDoc.model_validate(
        {
            "_id": f"i{seq}",
            "user_id": ALICE,
            "seq": seq,
            "type": kind,
            "dedup_key": f"k{seq}",
            "created_at_ms": ms,
            "updated_at_ms": ms,
            **fields,
        }
    )


def test_each_item_falls_in_one_period_with_counts_topics_and_newest_titles() -> None:
    now = datetime(2026, 1, 20, 10, 0, tzinfo=ZONE)
    items = [
        item(1, datetime(2025, 12, 30, 9, tzinfo=ZONE), title="comprar pão"),
        item(2, datetime(2026, 1, 2, 9, tzinfo=ZONE), kind="movie", title="Matrix"),
        item(3, datetime(2026, 1, 12, 9, tzinfo=ZONE), title="comprar leite"),  # 8 days ago
        item(4, datetime(2026, 1, 15, 9, tzinfo=ZONE), title="comprar café"),
        item(5, datetime(2026, 1, 19, 9, tzinfo=ZONE), title="comprar sal"),
        item(6, datetime(2026, 1, 20, 9, tzinfo=ZONE), kind="movie", title="Dune"),
    ]

    got = synthesize(items, int(now.timestamp() * 1000), ZONE)

    assert got["recent"] == {
        "count": 3,
        "types": {"note": 2, "movie": 1},
        "topics": ["comprar"],
        "titles": ["Dune", "comprar sal", "comprar café"],
    }
    assert (got["month"]["count"], got["month"]["titles"]) == (2, ["comprar leite", "Matrix"])
    assert (got["older"]["count"], got["older"]["types"]) == (1, {"note": 1})


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("o que eu salvei essa semana?", ("this_week", None)),
        ("o que eu guardei esse mês", ("this_month", None)),
        ("quais filmes eu salvei este mês?", ("this_month", "movie")),
        ("what did I save this week?", ("this_week", None)),
        ("what notes did I save this month?", ("this_month", "note")),
        ("oq eu salvei hj?", ("today", None)),  # chat shorthand (issue 41)
        ("vc sabe o que eu guardei nos últimos 7 dias?", ("last_7_days", None)),
        ("me mostra tudo q eu guardei esse mês", ("this_month", None)),
        ("show me everything I saved this week", ("this_week", None)),
        ("salva o filme da semana", None),
        ("qual filme do Nolan eu salvei esse mês?", None),  # names a title: a search
        ("me lembra essa semana de pagar a luz", None),
    ],
)
def test_questions_about_a_period_are_read_in_code(
    message: str, expected: tuple[str, str | None] | None
) -> None:
    intent = CLASSIFIER.classify(message)
    got = (intent.entities.get("period"), intent.entities.get("type"))
    assert (got if intent.action == "list_all" else None) == expected


CLASSIFIER = IntentClassifier()


@given(st.text(max_size=200))
def test_reading_a_period_question_never_raises(message: str) -> None:
    intent = CLASSIFIER.classify(message)
    assert intent.action != "list_all" or intent.entities.get("period") in (
        None,
        "today",
        "yesterday",
        "this_week",
        "last_week",
        "last_7_days",
        "this_month",
    )


async def test_consolidation_keeps_periods_the_frame_reads_without_a_model(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.clock.advance(10 * DAY_S)
        await live.say("anota: comprar leite", llm=[call("save_note", content="comprar leite")])
        await consolidate(live.deps, ALICE, trigger="manual", use_model=False)
        user = await live.db.users.get(ALICE)
        frame = await frame_now(live)
        _, report = await live.say("e agora?", llm=[respond("Nada.")])

    assert user is not None
    assert user.periods["recent"]["titles"] == ["comprar leite"]
    assert user.periods["month"]["titles"] == ["comprar pão"]  # Jan 5, in January still
    assert user.periods["older"]["count"] == 0
    assert report.problems() == []
    system = "\n".join(
        str(m["content"]) for m in report.requests[0].body["messages"] if m["role"] == "system"
    )
    assert "Salvo por período: últimos 7 dias: 1 nota <data>comprar leite</data>" in system
    # over budget, the periods are compressed before the baseline (lower priority)
    counter = shared_counter()
    full = narrate(frame, "pt", budget=10_000, counter=counter)
    assert "Salvo por período" in full.text
    order = [
        narrate(frame, "pt", budget=b, counter=counter).compressed
        for b in range(full.tokens, 0, -10)
    ]
    assert any("periods" in c for c in order)
    both = [c for c in order if "periods" in c and "baseline" in c]
    assert both
    assert all(c.index("periods") < c.index("baseline") for c in both)


async def test_what_was_saved_this_week_and_month_is_answered_with_no_model(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        lembra.clock.advance(8 * DAY_S)
        await lembra.say("salva o filme Matrix", llm=[call("save_movie", title="Matrix")])
        await lembra.say("anota: comprar leite", llm=[call("save_note", content="comprar leite")])
        calls = lembra.model_calls

        week = await lembra.say("o que eu salvei nos últimos 7 dias?")
        month = await lembra.say("o que salvei esse mês?")
        movies = await lembra.say("what movies did I save in the last 7 days?")
        assert lembra.model_calls == calls
        lembra.clock.advance(30 * DAY_S)  # February: nothing this month
        empty = await lembra.say("o que eu salvei esse mês?")

    assert week.text.splitlines() == [
        "Você salvou 2 itens (notas: 1, filmes: 1) nos últimos 7 dias:",
        "1. comprar leite",
        "2. Matrix",
    ]
    assert month.text.startswith("Você salvou 3 itens")
    assert month.text.splitlines()[-1] == "3. comprar pão"
    assert movies.text.splitlines() == ["You saved 1 movie in the last 7 days:", "1. Matrix"]
    assert empty.text == "Você não salvou nada neste mês."
    assert empty.meta.llm_calls == 0
    assert week.meta.state == "OK"
