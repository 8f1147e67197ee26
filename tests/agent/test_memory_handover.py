"""Session handovers and their sanity check (DESIGN 3.8, seed 002)."""

from __future__ import annotations

from typing import Any

from agent.conversation.background import run_due
from storage import Database
from tests.support.live import ALICE, Live, call, live_runtime, respond

INCEPTION = {"movie": {"inception": [{"id": 27205, "title": "Inception", "release_date": "2010"}]}}


def sample(live: Live, name: str, **labels: str) -> float:
    value = live.deps.metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


async def ledger_types(live: Live, user_id: str = ALICE) -> list[str]:
    return [e.type for e in await live.db.ledger.events(user_id)]


async def handovers(live: Live) -> list[dict[str, Any]]:
    found = await live.raw("summaries").find({"kind": "handover"}).sort("n", 1).to_list(None)
    return list(found)


def system_prompt(report: Any) -> str:
    """Every system text of the request (the stable rules, then this turn's situation)."""
    messages = report.requests[0].body["messages"]
    return "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")


def assert_handover_text(text: str) -> None:
    assert text == "" or len(text) >= 50, f"a handover is empty or >= 50 chars: {text!r}"


# -- writing ---------------------------------------------------------------------------------------


async def test_end_writes_one_handover_and_the_next_frame_includes_it(db: Database) -> None:
    async with live_runtime(db, tmdb=INCEPTION) as live:
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        live.clock.advance(120)
        reply, _ = await live.say("/end")
        written = await handovers(live)
        assert len(written) == 1
        handover = written[0]
        assert handover["reason"] == "end"
        assert handover["writer"] == "deterministic"
        assert_handover_text(handover["text"])
        assert "Salvei: Inception (2010)" in handover["text"]
        items = await db.items.list_for(ALICE)
        assert handover["claims"] == {"saved": [items[0].id], "deleted": []}
        events = await db.ledger.events(ALICE)
        assert [e.type for e in events].count("handover_written") == 1
        payload = next(e.payload for e in events if e.type == "handover_written")
        assert payload["writer"] == "deterministic"
        assert payload["reason"] == "end"
        assert payload["chars"] == len(handover["text"])
        assert "text" not in payload  # content-free ledger
        assert sample(live, "lembra_handovers_written_total", writer="deterministic") == 1

        # /end again with no session open: nothing new
        await live.say("/end")
        assert len(await handovers(live)) == 1

        _, report = await live.say("o que eu fiz antes?", llm=[respond("Salvou Inception.")])
        system = system_prompt(report)
        assert "Da última sessão: <data>Sessão de 05/01 10:00" in system
        assert "Salvei: Inception (2010)" in system
        assert "não verificado" not in system
        assert "Nota de governança" not in system


async def test_an_empty_session_still_gets_a_handover_of_at_least_50_chars(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("oi")  # a greeting: no model, no effect, but a session
        await live.say("/end")
        (handover,) = await handovers(live)
    assert_handover_text(handover["text"])
    assert "Nenhuma alteração nos itens" in handover["text"]


async def test_thirty_idle_minutes_write_a_handover_in_the_background(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.clock.advance(50)
        await live.say("lista tudo")  # a second message within the same minute
        live.clock.advance(29 * 60 + 20)  # 29:20 idle since the last message
        report = await run_due(live.deps)
        assert report.handovers == 0
        assert await handovers(live) == []
        live.clock.advance(40)  # 30:00 idle
        report = await run_due(live.deps)
        assert report.handovers == 1
        (handover,) = await handovers(live)
        assert handover["reason"] == "idle"
        assert_handover_text(handover["text"])
        assert "comprar pão" in handover["text"]
        assert "handover_written" in await ledger_types(live)
        # it happens once: the session is closed
        live.clock.advance(3_600)
        assert (await run_due(live.deps)).handovers == 0


async def test_a_message_after_thirty_idle_minutes_closes_the_old_session_first(
    db: Database,
) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.clock.advance(30 * 60 + 1)
        _, report = await live.say("e a lista de compras?", llm=[respond("Nada novo.")])
        (handover,) = await handovers(live)
    assert handover["reason"] == "idle"
    assert "Da última sessão" in system_prompt(report)


async def test_a_message_before_thirty_idle_minutes_keeps_the_session(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("oi")
        live.clock.advance(50)
        await live.say("lista tudo")
        live.clock.advance(29 * 60 + 20)  # 29:20 since the last message, 30:10 since the first
        await live.say("lista tudo")
        assert await handovers(live) == []


async def test_a_model_written_handover_with_background_llm(db: Database) -> None:
    text = "Nesta sessão salvei a nota comprar pão. Nada ficou pendente; sem outras observações."
    async with live_runtime(db, background_llm=True) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        _, report = await live.say("/end", llm=[respond(text)])
        assert report.problems() == []
        (handover,) = await handovers(live)
        assert handover["writer"] == "model"
        assert handover["text"] == text
        # the facts reach the model inside a data block, never as instructions
        assert "comprar pão" in report.requests[0].body["messages"][1]["content"]
        assert report.requests[0].body["messages"][1]["content"].startswith("<data>")

        # a model answer too short, or no answer at all, falls back to the deterministic writer
        await live.say("anota: café", llm=[call("save_note", content="café")])
        await live.say("/end", llm=[respond("ok")])
        await live.say("anota: chá", llm=[call("save_note", content="chá")])
        reply, report = await live.say("/end", errors=[{"status": 500}] * 3)
        assert report.llm_calls == 3
        assert reply.meta.state == "OK"
        for fallback in (await handovers(live))[1:]:
            assert fallback["writer"] == "deterministic"
            assert_handover_text(fallback["text"])


# -- the sanity check -----------------------------------------------------------------------------


async def plant_handover(live: Live, **doc: Any) -> None:
    await live.db.summaries.add_handover(ALICE, ALICE, doc, now_ms=live.clock.ms())


async def test_claims_that_never_happened_become_governance_notes(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        (kept,) = await db.items.list_for(ALICE)
        await plant_handover(
            live,
            text="Sessão de 05/01 09:00–09:30. Salvei: Matrix (1999). Apaguei 1 item(ns).",
            writer="deterministic",
            claims={"saved": ["item-that-never-existed"], "deleted": [kept.id]},
        )
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
        discrepancies = sample(live, "lembra_sanity_check_discrepancies_total")
        # the same handover is checked again on the next model turn: still 2, not 4
        _, again = await live.say("e antes disso?", llm=[respond("Veja acima.")])
        after_second_turn = sample(live, "lembra_sanity_check_discrepancies_total")

    system = system_prompt(report)
    assert discrepancies == 2
    assert after_second_turn == 2
    assert "Nota de governança" in system_prompt(again)  # the notes themselves stay
    assert "Da última sessão: <data>" in system  # checked, so not marked unverified
    assert (
        "Nota de governança: <data>a passagem diz que o item item-that-never-existed foi salvo, "
        "mas ele não está entre os itens agora</data>"
    ) in system
    assert f"a passagem diz que o item {kept.id} foi apagado, mas ele ainda está lá" in system


async def test_a_model_written_claim_is_checked_against_the_items(db: Database) -> None:
    async with live_runtime(db, tmdb=INCEPTION) as live:
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        await plant_handover(
            live,
            text="Nesta sessão salvei Matrix e apaguei Inception; a lista ficou em ordem.",
            writer="model",
            claims={"saved": [], "deleted": []},
        )
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
    system = system_prompt(report)
    assert "a passagem diz que «Matrix» foi salvo, mas não está entre os itens" in system
    assert "a passagem diz que «Inception» foi apagado, mas ainda está lá" in system


async def test_a_true_handover_gets_no_note(db: Database) -> None:
    async with live_runtime(db, tmdb=INCEPTION) as live:
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        await plant_handover(
            live,
            text="Nesta sessão salvei Inception (2010); nada ficou pendente nem foi apagado.",
            writer="model",
            claims={"saved": [(await db.items.list_for(ALICE))[0].id], "deleted": []},
        )
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
        assert sample(live, "lembra_sanity_check_discrepancies_total") == 0
    assert "Nota de governança" not in system_prompt(report)


async def test_a_check_that_cannot_run_shows_the_handover_unverified(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("oi")
        # claims in a shape the check cannot read (a corrupted document)
        await plant_handover(
            live,
            text="Sessão de 05/01 09:00–09:30. Salvei: comprar pão. Sem observações.",
            writer="deterministic",
            claims={"saved": 42},
        )
        reply, report = await live.say("o que eu fiz antes?", llm=[respond("Não sei.")])
    assert reply.text == "Não sei."
    system = system_prompt(report)
    assert "Da última sessão (não verificado): <data>Sessão de 05/01 09:00" in system
    assert "não pôde ser conferida com os fatos guardados" in system


async def test_a_save_deleted_later_is_not_a_discrepancy(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("anota: ligar pro joão", llm=[call("save_note", content="ligar pro joão")])
        await live.say("/end")
        # the next session deletes one of them, as the user asked: the old handover still
        # says it was saved, and that is history, not a discrepancy
        await live.say("apaga comprar pão", llm=[call("delete_item", query="comprar pão")])
        await live.say("sim")
        assert len(await db.items.list_for(ALICE)) == 1
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
        assert sample(live, "lembra_sanity_check_discrepancies_total") == 0
    system = system_prompt(report)
    assert "Da última sessão: <data>" in system
    assert "Nota de governança" not in system


async def test_a_save_and_delete_in_one_session_is_not_a_discrepancy(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("apaga comprar pão", llm=[call("delete_item", query="comprar pão")])
        await live.say("sim")
        await live.say("/end")
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
        assert sample(live, "lembra_sanity_check_discrepancies_total") == 0
    assert "Nota de governança" not in system_prompt(report)


async def test_a_handover_claiming_hundreds_of_things_keeps_the_request_bounded(
    db: Database,
) -> None:
    invented = [f"invented-{n:03d}" for n in range(300)]
    async with live_runtime(db, context_size=8_000) as live:
        budget = live.deps.settings.prompt_token_budget
        await live.say("oi")
        await plant_handover(
            live,
            text="Nesta sessão salvei " + ", ".join(f"o filme número {n}" for n in range(2_000)),
            writer="model",
            claims={"saved": invented, "deleted": []},
        )
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
        assert report.problems() == []  # no 400 from the model server
        tokens = report.requests[0].prompt_tokens
        assert tokens is not None
        assert tokens <= budget
    system = system_prompt(report)
    assert system.count("Nota de governança") <= 6
    assert "discrepâncias" in system


def test_a_session_of_hundreds_of_saves_writes_a_short_handover() -> None:
    from zoneinfo import ZoneInfo

    from agent.memory.handover import SessionFacts, deterministic_text

    saved = [(f"id{n}", f"Filme {n} (2001)") for n in range(500)]
    facts = SessionFacts(0, 60_000, saved, [i for i, _ in saved], [], 0, 0, None)
    text = deterministic_text(facts, "pt", ZoneInfo("America/Sao_Paulo"))
    assert "Filme 0 (2001); Filme 1 (2001)" in text
    assert "e mais 470 itens." in text
    assert "Filme 499" not in text
    assert len(text) < 1_000


async def test_a_model_written_handover_is_billed_to_the_user_and_stops_at_the_quota(
    db: Database,
) -> None:
    from zoneinfo import ZoneInfo

    text = "Nesta sessão salvei a nota comprar pão. Nada ficou pendente; sem outras observações."
    async with live_runtime(db, background_llm=True, user_daily_token_quota=20_000) as live:
        day = live.clock.now().astimezone(ZoneInfo("America/Sao_Paulo")).date().isoformat()
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        before = await live.db.usage.day(ALICE, day)
        assert before is not None
        _, report = await live.say("/end", llm=[respond(text)])
        after = await live.db.usage.day(ALICE, day)
        assert after is not None
        assert after["model_calls"] == before["model_calls"] + 1
        assert after["tokens"] > before["tokens"] + (report.max_prompt_tokens or 0)

        # the day is spent: the next handover is written by code, with no model call
        await live.db.usage.add_tokens(ALICE, day, 20_000)
        await live.say("lista tudo")  # a deterministic turn opens a session
        _, report = await live.say("/end")
        assert report.llm_calls == 0
        assert report.problems() == []
        assert [h["writer"] for h in await handovers(live)] == ["model", "deterministic"]


async def test_an_idle_handover_waits_while_the_users_turn_holds_the_lease(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.clock.advance(30 * 60)
        lease, now = f"chat:{ALICE}", live.clock.ms()
        assert await db.leases.acquire(lease, "worker-handling-a-turn", ttl_ms=15_000, now_ms=now)
        assert (await run_due(live.deps)).handovers == 0
        assert await handovers(live) == []
        await db.leases.release(lease, "worker-handling-a-turn")
        assert (await run_due(live.deps)).handovers == 1
        assert await db.leases.holder(lease, now_ms=now) is None


async def test_earlier_handovers_pass_the_sanity_check_too(db: Database) -> None:
    # issue 27: a false "coloquei Duna" written by a model two sessions ago must not come
    # back as a plain fact once a newer handover takes the last place
    async with live_runtime(db) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await plant_handover(
            live,
            text="Coloquei Duna na sua lista de filmes e anotei comprar pão.",
            writer="model",
            claims={"saved": [], "deleted": []},
        )
        await plant_handover(
            live,
            text="Sessão de 05/01 10:00–10:30. Nenhuma alteração nos itens.",
            writer="deterministic",
            claims={"saved": [], "deleted": []},
        )
        _, report = await live.say("o que eu fiz antes?", llm=[respond("Veja acima.")])
    system = system_prompt(report)
    earlier = system.split("Sessões anteriores", 1)[1]
    assert "Coloquei Duna" in earlier.split("</data>")[0]
    assert "Nota de governança: <data>a passagem diz que «duna» foi salvo" in earlier
    assert "Da última sessão: <data>Sessão de 05/01" in system


# -- the model's text in the background (issue 28) -------------------------------------------------


async def test_a_turn_after_the_idle_limit_never_waits_for_a_handover_model_call(
    db: Database,
) -> None:
    text = (
        "Sessão anterior: salvei a nota comprar pão. Nada ficou pendente; sem outras observações."
    )
    async with live_runtime(db, background_llm=True) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.clock.advance(30 * 60 + 1)
        # the turn's only model request is its own plan, and its frame has the handover
        reply, report = await live.say("e a lista de compras?", llm=[respond("Nada novo.")])
        assert report.problems() == []
        assert reply.meta.llm_calls == 1
        assert "Da última sessão" in system_prompt(report)
        (written,) = await handovers(live)
        assert written["writer"] == "deterministic"
        assert written["model_due"] is True
        # the background jobs give it the model's text, outside any turn
        live.model.begin_turn([respond(text)])
        await run_due(live.deps)
        background = live.model.end_turn()
        assert background.problems() == []
        assert background.llm_calls == 1
        (rewritten,) = await handovers(live)
        assert rewritten["writer"] == "model"
        assert rewritten["text"] == text
        assert not rewritten["model_due"]
        assert rewritten["model_facts"] is None  # what the model was told is not kept
        events = [e for e in await live.db.ledger.events(ALICE) if e.type == "handover_written"]
        assert [e.payload["writer"] for e in events] == ["deterministic", "model"]
        assert sample(live, "lembra_handovers_written_total", writer="model") == 1
        # done once: the next run asks the model nothing
        live.model.begin_turn([])
        await run_due(live.deps)
        assert live.model.end_turn().llm_calls == 0
        live.clock.advance(60)  # past the frame cache's reuse of the old text
        _, report = await live.say("e agora?", llm=[respond("Nada.")])
        assert "salvei a nota comprar pão" in system_prompt(report)


async def test_an_idle_session_found_by_the_job_is_written_then_rewritten(db: Database) -> None:
    text = "Nesta sessão salvei a nota comprar pão. Nada ficou pendente; sem outras observações."
    async with live_runtime(db, background_llm=True) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        live.clock.advance(30 * 60)
        live.model.begin_turn([respond(text)])
        report = await run_due(live.deps)
        assert live.model.end_turn().llm_calls == 1
        assert report.handovers == 1
        (handover,) = await handovers(live)
        assert (handover["writer"], handover["text"]) == ("model", text)
        user = await live.db.users.get(ALICE)
        assert user is not None
        assert not user.session_open
        # the conversation's lease the code's text was written under is free again
        assert await live.db.leases.acquire(
            f"chat:{ALICE}", "a-turn", ttl_ms=60_000, now_ms=live.clock.ms()
        )
        live.model.begin_turn([])
        await run_due(live.deps)  # a model that failed or answered: never asked twice
        assert live.model.end_turn().llm_calls == 0
