"""Prompt budgets by session kind (issue 12): chat requests fit PROMPT_TOKEN_BUDGET, background
ones (handovers, archive summaries, the dreamer) PROMPT_BUDGET_BACKGROUND or are not sent."""

from __future__ import annotations

from agent.trust.budgets import prompt_budget
from storage import Database
from tests.support.live import call, live_runtime, respond

HANDOVER = "Sessão curta: o usuário salvou a nota comprar pão e não deixou nada pendente."


async def test_a_background_request_over_its_budget_is_not_sent_and_the_handover_is_still_written(
    db: Database,
) -> None:
    async with live_runtime(db, background_llm=True, prompt_budget_background=300) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        ended, report = await live.say("/end")
        conversation = await live.db.summaries.get_conversation("cli:alice", "cli:alice")
        assert conversation is not None
        doc = await live.db.summaries.handover(
            "cli:alice", "cli:alice", int(conversation["handover_seq"])
        )

    assert report.llm_calls == 0
    assert doc is not None
    assert "comprar pão" in str(doc["text"])  # the deterministic writer's handover


async def test_within_the_background_budget_the_model_writes_the_handover(db: Database) -> None:
    async with live_runtime(db, background_llm=True) as live:
        await live.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        _, report = await live.say("/end", llm=[respond(HANDOVER)])

    assert report.llm_calls == 1
    assert report.max_prompt_tokens is not None
    assert report.max_prompt_tokens <= prompt_budget(live.deps.settings, "background")


async def test_a_chat_turn_is_cut_to_the_chat_budget_not_another_kinds(db: Database) -> None:
    sizes: list[int] = []
    for user, chat_budget in (("cli:ana", 20_000), ("cli:bia", 2_600)):
        async with live_runtime(
            db, prompt_token_budget=chat_budget, prompt_budget_admin=20_000
        ) as live:
            for n in range(12):
                note = f"nota número {n} " + "sobre um assunto bem comprido " * 12
                await live.say(f"anota: {note}", llm=[call("save_note", content=note)], user=user)
            _, report = await live.say(
                "me recomenda um restaurante pra hoje", llm=[respond("Nenhum.")], user=user
            )
        assert report.max_prompt_tokens is not None
        sizes.append(report.max_prompt_tokens)

    uncut, cut = sizes
    assert uncut > 2_600  # the history alone would overflow the chat budget
    assert cut <= 2_600  # and the chat turn was cut to it, not to the admin one
