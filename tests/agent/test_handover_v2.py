"""Handover v2 (DESIGN 3.8, issue 12): open threads, the session's errors, tags derived in code,
the user's language throughout, several handovers in the frame, model-written ones billed as
background use, and `lembra handovers`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import main
from storage import Database
from tests.support.live import ALICE, Live, call, live_runtime, respond
from tests.support.proc import run_lembra

TWO_INCEPTIONS = {
    "movie": {
        "inception": [
            {"id": 27205, "title": "Inception", "release_date": "2010-07-15"},
            {"id": 1000001, "title": "Inception", "release_date": "2014-01-01"},
        ]
    }
}
INVALID = {"raw": "isto não é uma chamada"}


async def last_handover(live: Live, user: str = ALICE) -> dict[str, Any]:
    conversation = await live.db.summaries.get_conversation(user, user)
    assert conversation is not None
    doc = await live.db.summaries.handover(user, user, int(conversation["handover_seq"]))
    assert doc is not None
    return dict(doc)


def system_prompt(report: Any) -> str:
    """Every system text of the request (the stable rules, then this turn's situation)."""
    messages = report.requests[0].body["messages"]
    return "\n\n".join(str(m["content"]) for m in messages if m["role"] == "system")


async def test_a_handover_holds_open_threads_errors_and_tags_in_the_users_language(
    db: Database,
) -> None:
    async with live_runtime(db, tmdb=TWO_INCEPTIONS) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await live.say("procura pão nos meus itens", llm=[call("search_items", query="pão")])
        failed, _ = await live.say("resume meu mês", llm=[INVALID, INVALID, INVALID])
        await live.say("salva inception", llm=[call("enrich_movie", title="inception")])
        await live.say("/end")
        doc = await last_handover(live)
        _, report = await live.say("e agora?", llm=[respond("Nada.")])

    assert failed.meta.state == "FAIL"
    assert doc["tags"] == ["saved", "searched", "failed", "pending"]
    assert doc["errors"] == {"planner_failed": 1}
    assert doc["threads"]["failed"] == [{"request": "resume meu mês", "cause": "planner_failed"}]
    assert doc["threads"]["pending"]["kind"] == "choose_candidate"
    assert doc["language"] == "pt"
    text = doc["text"]
    assert "Salvei: comprar pão." in text
    assert "Pedido não concluído (o planejador falhou): «resume meu mês»." in text
    assert "Erros da sessão: 1 × o planejador falhou." in text
    assert "Ficou pendente: Há uma pendência: aguardo qual destes títulos salvar" in text
    for english in ("Saved", "Session", "Still open", "planner failed"):
        assert english not in text
    # the next frame shows it with its tags, in Portuguese
    assert "Etiquetas: salvou, buscou, falhou, pendente." in system_prompt(report)


async def test_a_quiet_session_has_no_tags_and_no_errors(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("e agora?", llm=[respond("Nada.")])
        await live.say("/end")
        doc = await last_handover(live)
    assert doc["tags"] == []
    assert doc["errors"] == {}
    assert doc["threads"] == {"pending": None, "failed": []}


async def test_governance_notes_follow_the_users_language(db: Database) -> None:
    async with live_runtime(db, default_language="en") as live:
        await live.say("note: buy bread", llm=[call("save_note", content="buy bread")])
        await live.say("/end")
        doc = await last_handover(live)
        # the claimed item vanishes behind the ledger's back: a discrepancy
        await live.raw("items").delete_many({"user_id": ALICE})
        _, report = await live.say("and now?", llm=[respond("Nothing.")])
    system = system_prompt(report)
    assert doc["language"] == "en"
    assert "Governance note: <data>the handover says item" in system
    assert "Tags: saved." in system
    assert "passagem" not in system


async def test_the_frame_reads_the_last_handovers_that_fit(db: Database) -> None:
    async with live_runtime(db) as live:
        for note in ("comprar pão", "comprar leite", "comprar café"):
            await live.say(f"anota: {note}", llm=[call("save_note", content=note)])
            await live.say("/end")
        _, report = await live.say("e agora?", llm=[respond("Nada.")])
        _, tight = await live.say("e agora?", llm=[respond("Nada.")])
    system = system_prompt(report)
    last, earlier = system.split("Da última sessão", 1)[1], system.split("Sessões anteriores", 1)
    assert "comprar café" in last.split("</data>")[0]
    assert len(earlier) == 2
    assert "comprar pão" in earlier[1]
    assert "comprar leite" in earlier[1]
    assert tight.requests  # the same state again: the frame came from the cache, same content
    assert "Sessões anteriores" in system_prompt(tight)


async def test_a_model_written_handover_counts_in_llm_calls_and_background_use(
    db: Database,
) -> None:
    written = "Sessão curta: o usuário salvou a nota comprar pão e não deixou nada pendente."
    async with live_runtime(db, background_llm=True) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        reply, report = await live.say("/end", llm=[respond(written)])
        doc = await last_handover(live)
        usage = await live.raw("usage").find_one({"_id": {"$regex": f"^{ALICE}"}})
    assert reply.meta.llm_calls == 1
    assert len(report.requests) == 1
    assert doc["writer"] == "model"
    assert doc["model_calls"] == 1
    assert doc["text"] == written
    assert usage is not None
    assert usage["background_calls"] == 1
    assert usage["background_tokens"] > 0


def test_handovers_limit_must_be_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["handovers", "--user", "u1", "--limit", "0"])
    assert done.value.code == 2
    assert "expected a whole number from 1 up, got '0'" in capsys.readouterr().err


def test_lembra_handovers_lists_a_users_handovers_newest_first(tmp_path: Path) -> None:
    env = {"DATA_DIR": str(tmp_path / "data")}
    chat = run_lembra(
        ["chat", "--user", "u1"],
        env=env,
        cwd=tmp_path,
        stdin="anota: comprar pão\n/end\nanota: comprar leite\n/end\n",
    )
    assert chat.returncode == 0, chat.stderr
    listed = run_lembra(["handovers", "--user", "u1", "--limit", "1"], env=env, cwd=tmp_path)
    unknown = run_lembra(["handovers", "--user", "nobody"], env=env, cwd=tmp_path)

    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("#2 ")
    assert "reason=end writer=deterministic" in listed.stdout
    assert "tags: saved" in listed.stdout
    assert "comprar leite" in listed.stdout
    assert "comprar pão" not in listed.stdout
    assert unknown.returncode == 1
    assert "cli:nobody: unknown user" in unknown.stderr
