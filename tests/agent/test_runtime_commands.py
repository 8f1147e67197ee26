"""Slash commands through `Runtime.handle`: /why, /export, /forget, /lang, /search, admin commands.

All of them are answered in code: the model is the counting server, scripted with nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import pytest

from agent.texts import menu, text
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra, seed

BOB = "cli:bob"
ROOT = "cli:root"


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db, counting_model=True, admin_user_ids=ROOT) as running:
        yield running
        assert running.model_calls == 0


async def raw_count(db: Database, collection: str, user: str) -> int:
    return len(await db.client[db.name][collection].find({"user_id": user}).to_list(None))


# -- /why ----------------------------------------------------------------------------------------


async def test_why_explains_the_previous_turn(lembra: Lembra, db: Database) -> None:
    async with open_lembra(db) as offline:
        offline.tmdb.status = 503
        await offline.say("salva o filme inception")

    why = await lembra.say("/why")

    assert why.text.splitlines()[:5] == [
        "Sobre a minha última resposta: feita em parte (confiança 85/100).",
        "Ressalvas: TMDB indisponível agora: salvo sem detalhes.",
        "O que fiz: tentar procurar no TMDB, que não respondeu.",
        "Como decidi: conferi se já estava salvo.",
        "Não consultei o modelo de linguagem.",
    ]
    assert "salvei porque você pediu" not in why.text  # TMDB never answered: nothing chosen
    assert "busquei no TMDB" not in why.text  # only what happened (issue 45)
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", why.text)  # no internal names

    again = await lembra.say("/why")

    assert again.text.startswith("Sobre a minha última resposta: feita (confiança 100/100).")
    assert "O que fiz: nada além de responder." in again.text


async def test_why_says_no_search_when_tmdb_is_not_configured(lembra: Lembra, db: Database) -> None:
    async with open_lembra(db) as offline:
        offline.tmdb.status = 401  # the key refused: TMDB is not configured for us
        await offline.say("salva o filme inception")

    why = await lembra.say("/why")

    assert "TMDB" not in why.text.split("Ressalvas:")[0]
    assert "procurar" not in why.text
    assert "busquei" not in why.text
    assert not re.search(r"\b[0-9a-f]{16,}\b", why.text)  # no record ids


async def test_why_with_nothing_before_says_so(lembra: Lembra) -> None:
    assert (await lembra.say("/why")).text == "Ainda não há uma resposta anterior para explicar."


# -- /export -------------------------------------------------------------------------------------


async def test_export_sends_the_users_own_items_and_messages_only(
    lembra: Lembra, db: Database
) -> None:
    await seed(db, ["anota: comprar leite", "salva o filme the matrix"])
    await seed(db, ["anota: segredo do bob", "guarda https://bob.example.com/x"], user=BOB)

    reply = await lembra.say("/export")

    assert reply.attachment is not None
    assert reply.attachment.filename == "lembra-export-cli-alice.json"
    assert reply.attachment.mime_type == "application/json"
    data = json.loads(reply.attachment.data)
    assert data["format"] == "lembra-export/1"
    assert data["user"]["_id"] == ALICE
    assert [(i["type"], i["title"] or i["content"]) for i in data["items"]] == [
        ("note", "comprar leite"),
        ("movie", "The Matrix"),
    ]
    assert {m["user_id"] for m in data["messages"]} == {ALICE}
    said = [m["content"] for m in data["messages"] if m["role"] == "human"]
    assert said == ["anota: comprar leite", "salva o filme the matrix"]
    raw = reply.attachment.data.decode()
    assert "bob" not in raw
    assert (
        reply.text
        == f"Seus dados: 2 itens, {len(data['messages'])} mensagens (arquivo JSON anexo)."
    )


# -- /forget -------------------------------------------------------------------------------------


async def test_forget_previews_then_erases_the_account_on_sim(lembra: Lembra, db: Database) -> None:
    await seed(db, ["anota: comprar leite", "salva o filme the matrix"])
    await seed(db, ["anota: comprar pão"], user=BOB)
    messages = len(await lembra.messages())

    preview = await lembra.say("/forget")

    assert preview.text.startswith(
        f"Isto apagará sua conta e todos os seus dados: 2 itens e {messages} mensagens."
    )
    assert [c.label for c in preview.choices] == ["Sim", "Não"]
    assert len(await lembra.items()) == 2

    done = await lembra.say("sim")

    assert done.text == "✅ Pronto: sua conta e seus dados foram apagados."
    assert await lembra.user() is None
    for collection in ("items", "messages", "summaries", "pending_actions", "beliefs", "usage"):
        assert await raw_count(db, collection, ALICE) == 0, collection
    events = await lembra.events()
    assert events[-1].type == "user_forgotten"
    assert events[-1].payload["items"] == 2
    assert (await db.ledger.verify(ALICE)).ok
    assert len(await lembra.items(BOB)) == 1
    assert await lembra.user(BOB) is not None


async def test_forget_then_nao_keeps_everything(lembra: Lembra, db: Database) -> None:
    await seed(db, ["anota: comprar leite"])
    await lembra.say("/forget")

    reply = await lembra.say("não")

    assert reply.text == "Ok, nada foi apagado."
    assert await lembra.user() is not None
    assert len(await lembra.items()) == 1
    assert "user_forgotten" not in await lembra.event_types()


# -- /lang, /search, /end, unknown ---------------------------------------------------------------


async def test_lang_switches_the_language_of_every_later_reply(lembra: Lembra) -> None:
    assert (await lembra.say("/lang en")).text == "Language: English."
    assert (await lembra.say("oi")).text == text("greeting", "en")
    assert (await lembra.say("cancel")).text == "There is nothing to cancel."
    assert (await lembra.known_user()).language == "en"
    assert (await lembra.say("/lang pt")).text == "Idioma: português."
    assert (await lembra.say("/lang klingon")).text == "Use /lang pt ou /lang en."


async def test_search_command_finds_items(lembra: Lembra, db: Database) -> None:
    await seed(db, ["anota: comprar leite", "anota: ligar para a Ana"])

    assert (await lembra.say("/search leite")).text.splitlines() == [
        "Encontrei 1:",
        "1. comprar leite",
    ]
    assert (await lembra.say("/search")).text == "Use /search <texto>."


async def test_an_unknown_command_says_so(lembra: Lembra) -> None:
    reply = await lembra.say("/naoexiste")

    assert reply.text == "Comando desconhecido: /naoexiste. Envie /help para ver os comandos."


# -- admin commands --------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["/stats", "/users", "/quota cli:alice 1", "/ledger"])
async def test_admin_commands_from_a_non_admin_look_unknown_and_are_recorded(
    lembra: Lembra, command: str
) -> None:
    name = command.split()[0][1:]

    reply = await lembra.say(command)

    assert reply.text == text("unknown_command", "pt", name=name)
    [event] = await lembra.events()
    assert event.type == "admin_action"
    assert event.payload == {"command": name, "allowed": False}
    assert (await lembra.known_user()).daily_token_quota is None


async def test_stats_and_users_work_for_an_admin(lembra: Lembra, db: Database) -> None:
    await seed(db, ["anota: comprar leite", "salva o filme the matrix"])
    await seed(db, ["anota: comprar pão"], user=BOB)

    stats = await lembra.say("/stats", user=ROOT)
    users = await lembra.say("/users", user=ROOT)

    # in the admin's language (Portuguese here), with plurals by count (issue 27)
    lines = stats.text.splitlines()
    assert "usuários: 3" in lines  # Alice, Bob and the admin
    assert "itens: 3" in lines
    assert "índice de busca: pronto" in lines
    assert any(line.startswith("respondidas sem o modelo:") for line in lines)
    listed = users.text.splitlines()
    assert any(line.startswith(f"{ALICE} · pt · 2 itens · ativo") for line in listed)
    assert any(line.startswith(f"{BOB} · pt · 1 item · ativo") for line in listed)
    assert [e.payload for e in await lembra.events(ROOT)] == [
        {"command": "stats", "allowed": True},
        {"command": "users", "allowed": True},
    ]
    await lembra.say("/lang en", user=ROOT)
    english = (await lembra.say("/stats", user=ROOT)).text.splitlines()
    assert "users: 3" in english
    assert any(line.startswith("answered without the model:") for line in english)
    assert (await db.ledger.verify(ROOT)).ok


# -- the menu (issue 45) ---------------------------------------------------------------------


@pytest.mark.parametrize("command", [c.name for c in menu.COMMANDS])
async def test_every_command_the_menus_show_is_one_lembra_answers(
    lembra: Lembra, command: str
) -> None:
    """The menus and `ajuda` are built from agent/texts/menu.py: each of its commands must
    reach a handler, never the unknown-command reply (admins' from an admin, in private)."""
    reply = await lembra.say(f"/{command}", user=ROOT)
    assert reply.text != text("unknown_command", "pt", name=command)
    assert "Comando desconhecido" not in reply.text
