"""Degraded mode (DESIGN 10.5): the model is unreachable and the offline planner still serves.

The model server answering 500 and hanging are transcripts (model_500_*, model_timeout_*);
here nothing listens at OPENAI_BASE_URL at all (refused at once, no retry: fast), the
offline planner saves, lists, finds and deletes after its confirmation, and the figures
an operator reads (/metrics, `lembra stats`) count what happened.
"""

from __future__ import annotations

from agent.conversation.commands import stats_text
from agent.types import Incoming
from storage import Database
from storage.embedded import free_port
from tests.support.harness import ALICE, open_lembra

ABSENT = {  # nothing listens there: every request is refused at once
    "openai_base_url": f"http://127.0.0.1:{free_port()}/v1",
    "openai_api_key": "test-not-a-secret",
    "llm_transport_retries": 0,
}


def _sample(exposition: str, name: str, **labels: str) -> float:
    for line in exposition.splitlines():
        series, _, value = line.rpartition(" ")
        if series.split("{", 1)[0] == name and all(
            f'{k}="{v}"' in series for k, v in labels.items()
        ):
            return float(value)
    return 0.0


async def test_an_absent_model_server_still_saves_lists_finds_and_deletes(db: Database) -> None:
    async with open_lembra(db, **ABSENT) as lembra:
        saved = await lembra.say("anota: comprar leite")
        listed = await lembra.say("lista tudo")
        found = await lembra.say("procura leite")
        unserved = await lembra.say("me recomenda uma série boa")
        kept = [i.content for i in await db.items.list_for(ALICE)]
        preview = await lembra.say("apaga a nota comprar leite")
        confirmed = await lembra.say("sim")
        exposition = lembra.deps.metrics.render().decode()
        stats = await stats_text(lembra.deps, "2026-01-05")

    assert saved.text.splitlines() == [
        "✅ Salvo: comprar leite.",
        "(modo simples: o assistente está fora do ar)",
    ]
    assert saved.meta.llm_calls == 1  # refused at once (no retry configured here)
    assert saved.meta.tools_executed == ("save_note",)
    assert "comprar leite" in listed.text
    assert listed.meta.llm_calls == 0
    assert "comprar leite" in found.text
    assert found.meta.llm_calls == 0  # a plain search is answered in code (issue 26)
    assert "modo simples" not in found.text
    assert unserved.meta.state == "FAIL"
    assert "indisponível" in unserved.text
    assert "modo simples" not in unserved.text
    assert kept == ["comprar leite"]
    # a delete still asks first, in simple mode too, and the "sim" needs no model
    assert "sim/não" in preview.text
    assert preview.text.endswith("(modo simples: o assistente está fora do ar)")
    assert preview.meta.tools_executed == ()
    assert confirmed.meta.llm_calls == 0
    assert await db.items.list_for(ALICE) == []
    fallbacks = "lembra_model_fallbacks_total"
    assert _sample(exposition, fallbacks, reason="unavailable", outcome="served") == 2
    assert _sample(exposition, fallbacks, reason="unavailable", outcome="unserved") == 1
    assert "model down today: 2 turns served by the offline planner, 1 not" in stats.splitlines()


async def test_a_request_the_server_refuses_as_malformed_gets_no_fallback(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        assert lembra.model is not None
        lembra.model.begin_turn([], [{"status": 400}])  # our request's fault, not an outage
        reply = await lembra.runtime.handle(
            Incoming(channel="console", chat_id="alice", user_id=ALICE, text="anota: comprar leite")
        )
        lembra.model.end_turn()

    assert reply.meta.state == "FAIL"
    assert "modo simples" not in reply.text
    assert await db.items.list_for(ALICE) == []
