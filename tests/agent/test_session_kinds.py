"""Session kinds (issue 12): chat, admin and background use counted apart, shown in handovers
and in `lembra stats`."""

from __future__ import annotations

import re

from agent.conversation.commands import stats_text
from storage import Database
from tests.support.live import Live, call, live_runtime, respond

ROOT = "cli:root"
BOB = "cli:bob"
HANDOVER = "Sessão curta: o usuário salvou a nota comprar pão e não deixou nada pendente."


async def handover_kind(live: Live, user: str) -> str:
    conversation = await live.db.summaries.get_conversation(user, user)
    assert conversation is not None
    doc = await live.db.summaries.handover(user, user, int(conversation["handover_seq"]))
    assert doc is not None
    return str(doc["session_kind"])


async def test_chat_admin_and_background_use_are_counted_apart(db: Database) -> None:
    async with live_runtime(db, admin_user_ids=ROOT, background_llm=True) as live:
        await live.say(
            "anota: comprar pão", llm=[call("save_note", content="comprar pão")], user=BOB
        )
        _, chat_report = await live.say("e agora?", llm=[respond("Nada.")], user=BOB)
        await live.say("/end", llm=[respond(HANDOVER)], user=BOB)
        await live.say("/stats", user=ROOT)
        await live.say("/end", llm=[respond(HANDOVER)], user=ROOT)
        stats = await stats_text(live.deps, "2026-01-05")
        bob_kind, root_kind = await handover_kind(live, BOB), await handover_kind(live, ROOT)

    assert (bob_kind, root_kind) == ("chat", "admin")
    line = next(x for x in stats.splitlines() if x.startswith("sessions today:"))
    found = re.fullmatch(
        r"sessions today: chat (\d+) messages? \((\d+) prompt tokens\), admin (\d+) messages?, "
        r"background (\d+) model calls? \((\d+) tokens\)",
        line,
    )
    assert found is not None, line
    chat, chat_tokens, admin, background, background_tokens = map(int, found.groups())
    assert chat == 4  # bob's three turns and root's /end
    assert admin == 1
    assert chat_tokens >= chat_report.requests[0].prompt_tokens
    assert background == 2  # the two model-written handovers
    assert background_tokens > 0
