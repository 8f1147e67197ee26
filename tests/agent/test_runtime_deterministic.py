"""Deterministic intents are answered in code with zero model calls (DESIGN 1, 3.3; issue 3 item 2).

The model is configured (the scripted server as OPENAI_BASE_URL, so the real client
would call it) but scripted with no outputs: any request the runtime made would be
recorded by the server. Every test ends by checking that the server saw none.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from agent.texts import text
from agent.texts.menu import commands_line
from storage import Database
from tests.support.harness import ALICE, CATALOGUE, Lembra, open_lembra, seed

MOVIES = [f"Movie {n:02d}" for n in range(1, 36)]
LIBRARY = {
    "movie": {
        **CATALOGUE["movie"],
        **{
            title.lower(): [{"id": 5000 + n, "title": title, "release_date": f"{1980 + n}-01-01"}]
            for n, title in enumerate(MOVIES, start=1)
        },
    },
    "tv": CATALOGUE["tv"],
}
BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db, counting_model=True, tmdb_results=LIBRARY) as running:
        assert not running.runtime.offline  # the model path is wired
        yield running
        assert running.model_calls == 0, [r.body["messages"][-1] for r in running.requests]


async def seed_some(db: Database, user: str = ALICE) -> None:
    await seed(
        db,
        [
            "anota: comprar leite",
            "salva o filme the matrix",
            "guarda https://example.com/artigo",
            "anota: ligar para a Ana",
        ],
        user=user,
    )


# -- the counting model counts ------------------------------------------------------------------


async def test_the_counting_model_sees_what_the_planner_path_sends(db: Database) -> None:
    """The fixture's zero is meaningful: a message the planner must see does reach the server."""
    async with open_lembra(db, counting_model=True) as running:
        url = running.pages.url("/article")
        plan: dict[str, Any] = {
            "action": "CALL_TOOL",
            "tool": "enrich_link",
            "args": {"url": url},
            "message": None,
            "belief": BELIEF,
        }
        reply = await running.say(f"salva esse link {url}", llm=[plan])

        assert running.model_calls == 1
        assert running.reports[-1].problems() == []
        assert "Lembra & the art of memory" in reply.text
        [item] = await running.items()
        assert (item.type, item.url, item.title) == ("link", url, "Lembra & the art of memory")
        assert running.pages.hits == ["/article"]


async def test_a_choice_planned_by_the_model_is_resolved_with_no_model_call(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as running:
        plan = {
            "action": "CALL_TOOL",
            "tool": "enrich_movie",
            "args": {"title": "inception"},
            "message": None,
            "belief": BELIEF,
        }
        await running.say("salva inception", llm=[plan])
        assert running.model_calls == 1

        reply = await running.say("o segundo")

        assert running.model_calls == 1
        assert "Inception (2014)" in reply.text
        assert [(i.title, i.year, i.tmdb_id) for i in await running.items()] == [
            ("Inception", 2014, 1000001)
        ]


# -- greeting, help, start ----------------------------------------------------------------------


@pytest.mark.parametrize("message", ["ajuda", "/help"])
async def test_help_gives_the_fixed_help_text(lembra: Lembra, message: str) -> None:
    reply = await lembra.say(message)

    # the capabilities, then the commands from the table the chat menus are built from
    assert reply.text == text("help", "pt") + "\n" + commands_line("pt")
    assert reply.meta.state == "OK"
    assert reply.meta.llm_calls == 0


@pytest.mark.parametrize("message", ["oi", "bom dia", "Olá!"])
async def test_a_greeting_gets_a_short_introduction_pointing_at_the_help(
    lembra: Lembra, message: str
) -> None:
    reply = await lembra.say(message)

    assert reply.text == text("greeting", "pt")
    assert "«ajuda»" in reply.text
    assert reply.meta.llm_calls == 0


async def test_start_adds_the_privacy_notice(lembra: Lembra) -> None:
    reply = await lembra.say("/start")

    assert reply.text.startswith(text("help", "pt"))
    assert reply.text.endswith(text("privacy", "pt"))
    assert "/forget" in reply.text
    assert "/export" in reply.text


# -- stray answers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("sim", "Não há nada pendente para confirmar."),
        ("pode", "Não há nada pendente para confirmar."),
        ("não", "Não há nada pendente para confirmar."),
        ("1", "Não há nenhuma escolha pendente."),
        ("10", "Não há nenhuma escolha pendente."),
        ("cancela", "Não há nada para cancelar."),
        ("/cancel", "Não há nada para cancelar."),
    ],
)
async def test_stray_answers_get_a_short_fixed_reply(
    lembra: Lembra, db: Database, message: str, answer: str
) -> None:
    await seed_some(db)

    reply = await lembra.say(message)

    assert reply.text == answer
    assert len(await lembra.items()) == 4


# -- list_all -------------------------------------------------------------------------------------


async def test_lista_tudo_groups_by_type(lembra: Lembra, db: Database) -> None:
    await seed_some(db)

    reply = await lembra.say("lista tudo")

    assert reply.text.splitlines() == [
        "Seus itens (4):",
        "",
        "Notas (2):",  # newest first, numbered straight through the types (issue 26)
        "1. ligar para a Ana",
        "2. comprar leite",
        "",
        "Filmes (1):",
        "3. The Matrix (1999)",
        "",
        "Links (1):",
        "4. https://example.com/artigo",
    ]
    assert reply.meta.llm_calls == 0


async def test_an_empty_list_says_so(lembra: Lembra) -> None:
    assert (await lembra.say("lista tudo")).text == "Você ainda não salvou nada."
    assert (await lembra.say("lista meus filmes")).text == "Nenhum item do tipo filmes."


async def test_a_long_list_is_shortened_per_type_and_paginated_by_type(
    lembra: Lembra, db: Database
) -> None:
    await seed(
        db, [f"salva o filme {t}" for t in MOVIES] + ["anota: comprar leite"], tmdb_results=LIBRARY
    )
    assert len(await lembra.items()) == 36

    everything = await lembra.say("lista tudo")

    lines = everything.text.splitlines()
    assert lines[0] == "Seus itens (36):"
    assert "Filmes (35):" in lines
    assert sum(re.match(r"\d+\. Movie", line) is not None for line in lines) == 10
    assert "… e mais 25. Envie «lista filmes» para ver todos." in lines

    first = await lembra.say("/list filmes")

    lines = first.text.splitlines()
    assert lines[0] == "Filmes (35):"
    assert lines[1] == "1. Movie 01 (1981)"
    assert lines[30] == "30. Movie 30 (2010)"
    assert lines[-1] == "Página 1 de 2. Envie «/list filmes 2» para a próxima."
    assert len(lines) == 32
    # the channels' ‹ › buttons send these messages
    assert first.paging is not None
    assert (first.paging.previous, first.paging.next) == (None, "/list filmes 2")

    second = await lembra.say("/list filmes 2")
    assert second.paging is not None
    assert (second.paging.previous, second.paging.next) == ("/list filmes 1", None)

    assert second.text.splitlines() == [
        "Filmes (35):",
        "31. Movie 31 (2011)",
        "32. Movie 32 (2012)",
        "33. Movie 33 (2013)",
        "34. Movie 34 (2014)",
        "35. Movie 35 (2015)",
    ]


async def test_lista_meus_filmes_lists_only_movies(lembra: Lembra, db: Database) -> None:
    await seed_some(db)

    reply = await lembra.say("lista meus filmes")

    assert reply.text.splitlines() == ["Filmes (1):", "1. The Matrix (1999)"]


# -- delete_all ------------------------------------------------------------------------------------


async def test_apaga_tudo_previews_counts_by_type_and_a_few_titles(
    lembra: Lembra, db: Database
) -> None:
    await seed_some(db)

    preview = await lembra.say("apaga tudo")

    assert preview.text.startswith("Isto apagará 4 itens (notas: 2, filmes: 1, links: 1)")
    assert "comprar leite, The Matrix (1999), https://example.com/artigo" in preview.text
    assert "expira em 2 minutos" in preview.text
    assert [c.label for c in preview.choices] == ["Sim", "Não"]
    assert preview.choice_kind == "confirm"
    assert len(await lembra.items()) == 4  # a dry run: nothing deleted yet
    assert await lembra.pending() is not None


async def test_apaga_tudo_then_sim_deletes_everything(lembra: Lembra, db: Database) -> None:
    await seed_some(db)
    await seed_some(db, user="cli:bob")
    await lembra.say("apaga tudo")

    reply = await lembra.say("sim")

    assert reply.text == "✅ Apaguei 4 itens."
    assert reply.meta.tools_executed == ("delete_all_memories",)
    assert await lembra.items() == []
    assert len(await lembra.items("cli:bob")) == 4
    user = await lembra.known_user()
    assert sum(user.counts.values()) == 0
    [event] = [e for e in await lembra.events() if e.type == "all_deleted"]
    assert event.payload["count"] == 4
    assert event.payload["by_type"] == {"note": 2, "movie": 1, "tv_show": 0, "video": 0, "link": 1}
    assert (await lembra.say("lista tudo")).text == "Você ainda não salvou nada."


async def test_sim_deletes_what_the_preview_showed_and_keeps_what_came_later(
    lembra: Lembra, db: Database
) -> None:
    alice, group = "tg:1001", "-100777"
    await seed_some(db, user=alice)
    preview = await lembra.say("apaga tudo", user=alice, chat=group)
    assert preview.text.startswith("Isto apagará 4 itens")
    # meanwhile, in her private chat, Alice saves one more thing
    await seed(db, ["anota: levar o guarda-chuva"], user=alice)

    reply = await lembra.say("sim", user=alice, chat=group)

    assert reply.text == "✅ Apaguei 4 itens. Mantive o que foi salvo depois da prévia (1)."
    assert [i.content for i in await lembra.items(alice)] == ["levar o guarda-chuva"]
    user = await lembra.known_user(alice)
    assert user.counts == {"note": 1, "movie": 0, "tv_show": 0, "video": 0, "link": 0}
    [event] = [e for e in await lembra.events(alice) if e.type == "all_deleted"]
    assert event.payload["count"] == 4
    assert event.payload["by_type"] == {"note": 2, "movie": 1, "tv_show": 0, "video": 0, "link": 1}
    listed = await lembra.say("lista tudo", user=alice)
    assert "levar o guarda-chuva" in listed.text


async def test_the_confirm_button_deletes_everything(lembra: Lembra, db: Database) -> None:
    await seed_some(db)
    preview = await lembra.say("/delete_all")

    reply = await lembra.press(0, token=preview.choice_token)

    assert reply.text == "✅ Apaguei 4 itens."
    assert await lembra.items() == []


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("não", "Ok, nada foi apagado."),
        ("no", "Ok, nada foi apagado."),
        ("cancela", "Cancelado."),
        ("/cancel", "Cancelado."),
    ],
)
async def test_deny_or_cancel_keeps_everything(
    lembra: Lembra, db: Database, answer: str, expected: str
) -> None:
    await seed_some(db)
    await lembra.say("apaga tudo")

    reply = await lembra.say(answer)

    assert reply.text == expected
    assert len(await lembra.items()) == 4
    assert await lembra.pending() is None
    assert (await lembra.say("sim")).text == "Não há nada pendente para confirmar."
    assert len(await lembra.items()) == 4
    assert "all_deleted" not in await lembra.event_types()


@pytest.mark.parametrize("question", ["sim?", "certo?", "confirma?", "pode apagar?"])
async def test_a_yes_asked_as_a_question_deletes_nothing_and_asks_again(
    lembra: Lembra, db: Database, question: str
) -> None:
    await seed_some(db)
    preview = await lembra.say("apaga tudo")

    reply = await lembra.say(question)

    assert reply.text == text("confirm_needs_plain_yes", "pt")
    assert [c.label for c in reply.choices] == ["Sim", "Não"]
    assert reply.choice_token == preview.choice_token
    assert len(await lembra.items()) == 4
    assert "all_deleted" not in await lembra.event_types()

    assert (await lembra.say("sim")).text == "✅ Apaguei 4 itens."
    assert await lembra.items() == []


async def test_the_deny_button_keeps_everything(lembra: Lembra, db: Database) -> None:
    await seed_some(db)
    preview = await lembra.say("apaga tudo")

    reply = await lembra.press(1, token=preview.choice_token)

    assert reply.text == "Ok, nada foi apagado."
    assert len(await lembra.items()) == 4


async def test_the_confirmation_expires_after_two_minutes(lembra: Lembra, db: Database) -> None:
    await seed_some(db)
    await lembra.say("apaga tudo")
    lembra.clock.advance(119)
    assert await lembra.pending() is not None

    lembra.clock.advance(1)
    reply = await lembra.say("sim")

    assert "A confirmação expirou; nada foi apagado." in reply.text
    assert len(await lembra.items()) == 4
    assert await lembra.pending() is None
    assert "all_deleted" not in await lembra.event_types()


async def test_any_other_message_drops_the_confirmation_and_says_so(
    lembra: Lembra, db: Database
) -> None:
    await seed_some(db)
    await lembra.say("apaga tudo")

    reply = await lembra.say("lista meus filmes")

    assert reply.text.splitlines() == [
        "(A pergunta pendente foi descartada.)",
        "Filmes (1):",
        "1. The Matrix (1999)",
    ]
    assert (await lembra.say("sim")).text == "Não há nada pendente para confirmar."
    assert len(await lembra.items()) == 4


async def test_only_the_user_who_asked_can_confirm_in_a_group(lembra: Lembra, db: Database) -> None:
    alice, bob, group = "tg:1001", "tg:2002", "-100777"
    await seed_some(db, user=alice)
    await seed_some(db, user=bob)
    preview = await lembra.say("apaga tudo", user=alice, chat=group)
    assert preview.text.startswith("Isto apagará 4 itens")

    stranger = await lembra.say("sim", user=bob, chat=group)
    button = await lembra.press(0, token=preview.choice_token, user=bob, chat=group)

    assert stranger.text == "Não há nada pendente para confirmar."
    assert "Nada foi feito" in button.text
    assert len(await lembra.items(alice)) == 4
    assert len(await lembra.items(bob)) == 4
    assert await lembra.pending(alice, "tg:" + group) is not None  # still Alice's to answer

    reply = await lembra.say("sim", user=alice, chat=group)

    assert reply.text == "✅ Apaguei 4 itens."
    assert await lembra.items(alice) == []
    assert len(await lembra.items(bob)) == 4


@pytest.mark.parametrize("message", ["/delete_all filmes", "/delete_all o inception"])
async def test_delete_all_naming_a_target_deletes_nothing_and_says_how(
    lembra: Lembra, db: Database, message: str
) -> None:
    await seed_some(db)

    reply = await lembra.say(message)

    assert reply.text == text("delete_all_with_target", "pt")
    assert reply.text.startswith("Nada foi apagado.")
    assert reply.choices == ()
    assert await lembra.pending() is None
    assert (await lembra.say("sim")).text == "Não há nada pendente para confirmar."
    assert len(await lembra.items()) == 4
    assert "all_deleted" not in await lembra.event_types()


async def test_nothing_to_delete_needs_no_confirmation(lembra: Lembra) -> None:
    reply = await lembra.say("apaga tudo")

    assert reply.text == "Você não tem nada salvo para apagar."
    assert reply.choices == ()
    assert await lembra.pending() is None


# -- cancel with something pending --------------------------------------------------------------


async def test_cancel_clears_a_pending_choice_and_says_so(db: Database) -> None:
    async with open_lembra(db) as offline:
        await offline.say("salva o filme inception")
    async with open_lembra(db, counting_model=True) as running:
        assert await running.pending() is not None

        reply = await running.say("cancela")

        assert reply.text == "Cancelado."
        assert await running.pending() is None
        assert (await running.say("1")).text == "Não há nenhuma escolha pendente."
        assert await running.items() == []
        assert running.model_calls == 0
