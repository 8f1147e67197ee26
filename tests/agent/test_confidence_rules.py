"""Business rules and absolute blocks in the confidence score, shown by /why (DESIGN 3.4, issue 13)."""

from __future__ import annotations

from agent.planning.step import MAX_RETRIES
from agent.trust.confidence import TurnFacts, evaluate
from bot.cli.console import meta_line
from storage import Database
from tests.support.live import call, live_runtime


def test_a_rule_partly_kept_then_ignored_lowers_its_part() -> None:
    facts = TurnFacts()
    assert facts.score == 100
    facts.apply_rule("dedup")  # a rule simply applied costs nothing
    assert facts.score == 100
    facts.apply_rule("ungrounded:year")  # the runtime had to correct the model
    assert facts.score == 90
    facts.ignore_rule("save_when_asked")
    assert facts.score == 80
    facts.apply_rule("ungrounded:title")  # never back up within the turn
    assert facts.score == 80
    assert evaluate(facts, "effect").rules_applied[-2:] == (
        "ignored:save_when_asked",
        "ungrounded:title",
    )


async def test_an_ungrounded_fact_costs_the_rules_part(db: Database) -> None:
    async with live_runtime(db) as live:
        reply, _ = await live.say(
            "salva o filme interestelar", llm=[call("save_movie", title="interestelar", year=1984)]
        )
    assert reply.meta.state == "OK"
    assert reply.meta.score == 90  # 20 rules points become 10
    assert "ungrounded:year" in reply.meta.rules_applied


async def test_an_undefined_cross_user_argument_to_the_end_raises_both_blocks(
    db: Database,
) -> None:
    bad = call("save_note", content="comprar leite", user_id="cli:bob")
    async with live_runtime(db) as live:
        reply, _ = await live.say("anota: comprar leite", llm=[bad] * (MAX_RETRIES + 1))
        why, _ = await live.say("/why")
        assert await live.db.items.list_for("cli:alice") == []
    assert reply.meta.state == "FAIL"
    # and, as every spent budget, a pipeline violation (no valid planner output)
    assert reply.meta.blocks == ("undefined_argument", "cross_user", "pipeline_violation")
    assert "blocks: undefined_argument, cross_user" in meta_line(reply, "pt")
    assert "Impedi: um dado que o pedido não tem; dados de outra pessoa" in why.text


async def test_an_undefined_argument_the_model_corrects_raises_no_block(db: Database) -> None:
    async with live_runtime(db) as live:
        reply, _ = await live.say(
            "anota: comprar leite",
            llm=[
                call("save_note", content="comprar leite", tag="x"),
                call("save_note", content="comprar leite"),
            ],
        )
    assert reply.meta.blocks == ()
    assert reply.meta.tools_executed == ("save_note",)
