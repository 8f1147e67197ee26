"""Code-written replies (issue 27): one plural rule, no internal names, well-formed simulation
lines, and counts said right in /export, /forget and the narrative."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import agent.tools  # noqa: F401  # the tools first: riskgate alone meets their import cycle
from agent.conversation.riskgate import simulated_reply
from agent.conversation.turn import Turn
from agent.texts import NOUNS, plural
from agent.tools.base import Simulated
from agent.tools.simulating import SIMULABLE
from agent.trust.risk import Assessment
from agent.types import Incoming, Language
from storage import Database
from storage.documents import ItemDoc, UserDoc
from tests.support.harness import Lembra, open_lembra

ROOT = "cli:root"


def test_one_plural_rule_for_every_noun() -> None:
    assert plural(1, "item", "pt") == "1 item"
    assert plural(0, "item", "pt") == "0 itens"
    assert plural(2, "message", "pt") == "2 mensagens"
    assert plural(1, "message", "en") == "1 message"
    assert plural(3, "item", "en", with_count=False) == "items"
    for noun, forms in NOUNS.items():
        assert set(forms) == {"pt", "en"}, noun


def turn_in(language: Language) -> Turn:
    user = UserDoc.model_validate(
        {
            "_id": "cli:alice",
            "channel": "console",
            "language": language,
            "timezone": "UTC",
            "created_at_ms": 0,
            "last_seen_at_ms": 0,
        }
    )
    incoming = Incoming(channel="console", chat_id="alice", user_id="cli:alice", text="x")
    return Turn(incoming=incoming, user=user, language=language, now_ms=0)


def matrix(n: int) -> ItemDoc:
    return ItemDoc.model_validate(
        {
            "_id": f"i{n}",
            "user_id": "cli:alice",
            "type": "movie",
            "title": f"Matrix {n}",
            "year": 1999,
            "dedup_key": f"k{n}",
            "created_at_ms": 0,
            "updated_at_ms": 0,
            "seq": n,
        }
    )


@pytest.mark.parametrize("language", ["pt", "en"])
@pytest.mark.parametrize("tool", SIMULABLE)
@pytest.mark.parametrize("count", [1, 3])
def test_a_simulation_told_in_code_is_well_formed(
    language: Language, tool: str, count: int
) -> None:
    examples = () if tool.startswith("save_") else tuple(matrix(n) for n in range(min(count, 3)))
    assessment = Assessment(tool, 0.4, "confirm", count, True, False)
    reply = simulated_reply(turn_in(language), Simulated(assessment, examples))
    lines = reply.text.splitlines()
    assert tool not in reply.text
    assert "_" not in reply.text
    assert all(line.strip() and not line.lstrip().startswith((";", ":", ",")) for line in lines)
    assert "1 itens" not in reply.text
    assert "1 items" not in reply.text
    assert lines[-1].endswith(".")
    if examples:
        assert lines[1] == "1. Matrix 0 (1999)"


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db, admin_user_ids=ROOT) as running:
        yield running


async def test_export_and_forget_say_one_item(lembra: Lembra) -> None:
    await lembra.say("anota: comprar pão")
    exported = await lembra.say("/export")
    forget = await lembra.say("/forget")
    assert "1 item," in exported.text
    assert "1 item e" in forget.text
    for reply in (exported, forget):
        assert "1 itens" not in reply.text


async def test_dream_and_users_answer_a_portuguese_admin_in_portuguese(lembra: Lembra) -> None:
    await lembra.say("anota: comprar pão", user=ROOT)
    dream = await lembra.say("/dream", user=ROOT)
    users = await lembra.say("/users", user=ROOT)
    assert dream.text.startswith(f"{ROOT}: consolidado (manual): 1 conversa")
    assert f"{ROOT} · pt · 1 item · ativo" in users.text
    unknown = await lembra.say("/dream cli:ninguem", user=ROOT)
    assert unknown.text == "cli:ninguem: usuário desconhecido (esse id não existe), não consolidado"
