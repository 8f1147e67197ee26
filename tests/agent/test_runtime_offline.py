"""The runtime with the offline planner (issue 3): saving, enriching, choosing, finding, deleting.

Every test drives `Runtime.handle` against the embedded database, the fake TMDB and the
page server on loopback, and checks what the user reads and what the database holds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Database
from storage.database import make_client
from storage.documents import ItemDoc
from tests.support.harness import ALICE, Lembra, open_lembra, restarted
from tests.support.servers import RunningServer


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


def movies(items: list[ItemDoc]) -> list[tuple[str | None, int | None, int | None]]:
    return [(i.title, i.year, i.tmdb_id) for i in items if i.type == "movie"]


# -- the acceptance flow of issue 3 item 5 -----------------------------------------------------


async def test_salva_o_filme_inception_offers_both_and_1_saves_the_2010_one(lembra: Lembra) -> None:
    assert lembra.runtime.offline

    choice = await lembra.say("salva o filme inception")

    assert "Inception (2010)" in choice.text
    assert "Inception (2014)" in choice.text
    assert [c.label for c in choice.choices] == ["Inception (2010)", "Inception (2014)"]
    assert choice.choice_kind == "pick"
    assert choice.meta.state == "AMBIGUOUS"
    assert await lembra.items() == []
    assert await lembra.pending() is not None
    # TMDB was asked in the user's language
    assert lembra.tmdb.requests[-1].params["language"] == "pt-BR"

    saved = await lembra.say("1")

    assert "Inception (2010)" in saved.text
    assert saved.meta.state == "OK"
    assert saved.meta.llm_calls == 0
    assert movies(await lembra.items()) == [("Inception", 2010, 27205)]
    assert await lembra.pending() is None
    assert await lembra.event_types() == ["item_saved"]


@pytest.mark.parametrize(
    ("answer", "wanted"),
    [
        ("o segundo", ("Inception", 2014, 1000001)),
        ("the second one", ("Inception", 2014, 1000001)),
        ("o primeiro", ("Inception", 2010, 27205)),
        ("2014", ("Inception", 2014, 1000001)),
        ("o último", ("Inception", 2014, 1000001)),
        ("Inception (2010)", ("Inception", 2010, 27205)),
    ],
)
async def test_a_choice_resolves_by_ordinal_year_or_label(
    lembra: Lembra, answer: str, wanted: tuple[str, int, int]
) -> None:
    await lembra.say("salva o filme inception")

    reply = await lembra.say(answer)

    assert f"{wanted[0]} ({wanted[1]})" in reply.text
    assert movies(await lembra.items()) == [wanted]
    assert await lembra.pending() is None


async def test_a_button_resolves_the_choice(lembra: Lembra) -> None:
    choice = await lembra.say("salva o filme inception")

    reply = await lembra.press(1, token=choice.choice_token)

    assert "Inception (2014)" in reply.text
    assert movies(await lembra.items()) == [("Inception", 2014, 1000001)]


async def test_a_button_of_an_older_question_does_nothing(lembra: Lembra) -> None:
    first = await lembra.say("salva o filme inception")
    await lembra.say("cancela")
    await lembra.say("salva o filme pinocchio")

    reply = await lembra.press(0, token=first.choice_token)

    assert "Nada foi feito" in reply.text
    assert await lembra.items() == []


async def test_a_year_two_candidates_share_asks_again_then_a_unique_year_decides(
    lembra: Lembra,
) -> None:
    choice = await lembra.say("salva o filme pinocchio")
    assert [c.label for c in choice.choices] == [
        "Pinocchio (2022)",
        "Pinocchio (2022)",
        "Pinocchio (2019)",
    ]

    again = await lembra.say("2022")

    assert "Mais de uma opção é de 2022" in again.text
    assert await lembra.items() == []
    assert await lembra.pending() is not None

    reply = await lembra.say("2019")

    assert "Pinocchio (2019)" in reply.text
    assert movies(await lembra.items()) == [("Pinocchio", 2019, 539681)]


async def test_a_number_out_of_range_asks_again_and_keeps_the_choice(lembra: Lembra) -> None:
    await lembra.say("salva o filme inception")

    reply = await lembra.say("5")

    assert "de 1 a 2" in reply.text
    assert await lembra.items() == []
    assert await lembra.pending() is not None


async def test_an_unrelated_message_drops_the_choice_and_says_so(lembra: Lembra) -> None:
    await lembra.say("salva o filme inception")

    reply = await lembra.say("anota: comprar leite")

    assert reply.text.startswith("(A pergunta pendente foi descartada.)")
    assert "comprar leite" in reply.text
    assert await lembra.pending() is None
    assert [(i.type, i.content) for i in await lembra.items()] == [("note", "comprar leite")]


async def test_a_clear_single_candidate_is_saved_at_once(lembra: Lembra) -> None:
    reply = await lembra.say("salva o filme the matrix")

    assert reply.text == "✅ Salvo: The Matrix (1999)."
    assert reply.meta.state == "OK"
    assert reply.choices == ()
    assert movies(await lembra.items()) == [("The Matrix", 1999, 603)]
    assert await lembra.pending() is None


async def test_a_year_in_the_message_makes_one_candidate_clear(lembra: Lembra) -> None:
    reply = await lembra.say("salva o filme inception 2014")

    assert "Inception (2014)" in reply.text
    assert movies(await lembra.items()) == [("Inception", 2014, 1000001)]


async def test_a_tv_show_is_enriched_as_a_tv_show(lembra: Lembra) -> None:
    reply = await lembra.say("salva a série dark")

    assert "Dark (2017)" in reply.text
    items = await lembra.items()
    assert [(i.type, i.title, i.year, i.tmdb_id) for i in items] == [
        ("tv_show", "Dark", 2017, 70523)
    ]


async def test_without_a_save_verb_the_candidates_are_only_shown(lembra: Lembra) -> None:
    reply = await lembra.say("filme inception")

    assert "Inception (2010)" in reply.text
    assert "Inception (2014)" in reply.text
    assert reply.choices == ()
    assert await lembra.items() == []
    assert await lembra.pending() is None


async def test_tmdb_down_saves_the_movie_unenriched_with_a_caveat(lembra: Lembra) -> None:
    lembra.tmdb.status = 503

    reply = await lembra.say("salva o filme inception")

    assert reply.meta.state == "PARTIAL"
    lines = reply.text.splitlines()
    assert lines[0] == "✅ Salvo: inception."
    assert lines[-1] == "⚠️ TMDB indisponível agora: salvo sem detalhes."
    assert len(lines) == 2  # one caveat line, nothing more
    [item] = await lembra.items()
    assert (item.type, item.title, item.tmdb_id, item.enriched) == (
        "movie",
        "inception",
        None,
        False,
    )
    assert len(lembra.tmdb.requests) == 3  # the first try and two bounded retries


async def test_a_movie_tmdb_does_not_know_is_saved_as_written(lembra: Lembra) -> None:
    reply = await lembra.say("salva o filme Um Filme Que Não Existe")

    assert reply.meta.state == "PARTIAL"
    assert "salvo como escrito" in reply.text
    assert movies(await lembra.items()) == [("Um Filme Que Não Existe", None, None)]


# -- links, videos, notes ------------------------------------------------------------------------


async def test_a_link_is_saved_as_a_link(lembra: Lembra) -> None:
    url = lembra.pages.url("/article")

    reply = await lembra.say(f"guarda {url}")

    assert url in reply.text
    [item] = await lembra.items()
    assert (item.type, item.url) == ("link", url)
    assert lembra.pages.hits == []  # the offline path saves links without fetching them


@pytest.mark.parametrize(
    "url",
    [
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "https://youtu.be/dQw4w9WgXcQ",
        "https://vimeo.com/76979871",
    ],
)
async def test_youtube_and_vimeo_links_are_saved_as_videos(lembra: Lembra, url: str) -> None:
    await lembra.say(f"salva {url}")

    [item] = await lembra.items()
    assert (item.type, item.url) == ("video", url)


async def test_a_scheme_less_address_is_saved_as_an_https_link(lembra: Lembra) -> None:
    await lembra.say("salva example.com/artigo")

    [item] = await lembra.items()
    assert (item.type, item.url) == ("link", "https://example.com/artigo")


async def test_anota_saves_a_note(lembra: Lembra) -> None:
    reply = await lembra.say("anota: comprar leite e café")

    assert reply.text == "✅ Salvo: comprar leite e café."
    [item] = await lembra.items()
    assert (item.type, item.content) == ("note", "comprar leite e café")


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("salva a nota comprar pão", "comprar pão"),
        ("guarda uma nota: ligar para a Ana", "ligar para a Ana"),
        ("save a note call the dentist", "call the dentist"),
        ("salva a notação da música", "a notação da música"),  # a word, not the kind
    ],
)
async def test_the_words_naming_a_note_are_not_its_content(
    lembra: Lembra, message: str, content: str
) -> None:
    reply = await lembra.say(message)

    # answered in the message's language (DESIGN 9.2)
    saved = "Saved" if message.startswith("save ") else "Salvo"
    assert reply.text == f"✅ {saved}: {content}."
    [item] = await lembra.items()
    assert (item.type, item.content) == ("note", content)


# -- finding -------------------------------------------------------------------------------------


async def test_procura_lists_what_matches(lembra: Lembra) -> None:
    for message in ("anota: comprar leite", "anota: ligar para a Ana", "salva o filme the matrix"):
        await lembra.say(message)

    found = await lembra.say("procura leite")
    nothing = await lembra.say("procura bicicleta")

    assert found.text.splitlines() == ["Encontrei 1:", "1. comprar leite"]
    assert nothing.text == "Não encontrei nada sobre «bicicleta» entre os seus itens."
    assert len(await lembra.items()) == 3


# -- deleting one item ---------------------------------------------------------------------------


async def test_apaga_previews_and_deletes_only_after_sim(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite")
    await lembra.say("salva o filme the matrix")

    preview = await lembra.say("apaga o matrix")

    assert "The Matrix (1999)" in preview.text
    assert "sim/não" in preview.text
    assert [c.label for c in preview.choices] == ["Sim", "Não"]
    assert len(await lembra.items()) == 2

    done = await lembra.say("sim")

    assert done.text == "✅ Apagado: The Matrix (1999)."
    assert [i.content for i in await lembra.items()] == ["comprar leite"]
    assert (await lembra.event_types())[-1] == "item_deleted"
    user = await lembra.known_user()
    assert user.counts["movie"] == 0
    assert user.counts["note"] == 1


async def test_apaga_then_nao_keeps_the_item(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite")
    await lembra.say("apaga comprar leite")

    reply = await lembra.say("não")

    assert reply.text == "Ok, nada foi apagado."
    assert len(await lembra.items()) == 1
    assert await lembra.pending() is None


async def test_an_ambiguous_delete_becomes_a_choice(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite")
    await lembra.say("anota: leite de aveia")

    choice = await lembra.say("apaga leite")

    labels = [c.label for c in choice.choices]
    assert sorted(labels) == ["comprar leite", "leite de aveia"]
    assert choice.meta.state == "AMBIGUOUS"
    assert len(await lembra.items()) == 2

    preview = await lembra.say(str(labels.index("leite de aveia") + 1))

    # the choice names the item; deleting it still takes an explicit "sim" (DESIGN 3.2)
    first_line, risk_line = preview.text.split("\n")
    assert first_line == "Apagar leite de aveia? (sim/não, expira em 2 minutos)"
    assert "primeira vez" in risk_line  # a first delete is always confirmed (risk policy)
    assert len(await lembra.items()) == 2
    reply = await lembra.say("sim")

    assert reply.text == "✅ Apagado: leite de aveia."
    assert [i.content for i in await lembra.items()] == ["comprar leite"]


async def test_deleting_something_that_is_not_there_says_so(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite")

    reply = await lembra.say("apaga bicicleta")

    assert reply.text == "Não encontrei «bicicleta» entre os seus itens."
    assert len(await lembra.items()) == 1


async def test_one_user_cannot_delete_another_users_items(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite", user="cli:bob")

    reply = await lembra.say("apaga comprar leite")

    assert "Não encontrei" in reply.text
    assert len(await lembra.items("cli:bob")) == 1


# -- dedup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "label"),
    [
        ("salva o filme the matrix", "salva o filme the matrix", "The Matrix (1999)"),
        ("anota: Comprar leite", "anota: comprar  LEITE!", "Comprar leite"),
        (
            "guarda https://example.com/artigo?utm_source=tw",
            "salva example.com/artigo/",
            "https://example.com/artigo?utm_source=tw",
        ),
    ],
)
async def test_saving_the_same_thing_twice_is_reported_and_stored_once(
    lembra: Lembra, first: str, second: str, label: str
) -> None:
    await lembra.say(first)

    reply = await lembra.say(second)

    assert reply.text == f"Já estava salvo: {label}."
    assert len(await lembra.items()) == 1
    assert await lembra.event_types() == ["item_saved"]


async def test_choosing_a_movie_already_saved_is_reported(lembra: Lembra) -> None:
    await lembra.say("salva o filme inception")
    await lembra.say("1")
    await lembra.say("salva o filme inception")

    reply = await lembra.say("1")

    assert reply.text == "Já estava salvo: Inception (2010)."
    assert len(await lembra.items()) == 1


# -- restarts ------------------------------------------------------------------------------------


async def test_a_pending_choice_survives_a_restart(
    lembra: Lembra, db: Database, nx_server: RunningServer
) -> None:
    await lembra.say("salva o filme inception")
    # A second process: its own client, Deps and Runtime on the same database.
    other = Database(make_client(nx_server.uri), db.name)
    try:
        async with restarted(lembra, other) as second:
            reply = await second.say("1")
            assert "Inception (2010)" in reply.text
            assert movies(await second.items()) == [("Inception", 2010, 27205)]
    finally:
        await other.close()
    assert (await db.ledger.verify(ALICE)).ok


async def test_one_pending_action_per_conversation(lembra: Lembra) -> None:
    alice, group = "tg:1001", "-100777"
    await lembra.say("salva o filme the matrix", user=alice)
    choice = await lembra.say("salva o filme inception", user=alice)
    assert choice.choice_kind == "pick"
    # the same user in a group has a conversation, and a pending action, of its own
    preview = await lembra.say("apaga tudo", user=alice, chat=group)
    assert preview.choice_kind == "confirm"

    chosen = await lembra.say("1", user=alice)
    kept = await lembra.say("não", user=alice, chat=group)

    assert chosen.text == "✅ Salvo: Inception (2010)."
    assert kept.text == "Ok, nada foi apagado."
    assert movies(await lembra.items(alice)) == [
        ("The Matrix", 1999, 603),
        ("Inception", 2010, 27205),
    ]
    # in one conversation, a new question replaces the open one (and the reply says so)
    await lembra.say("salva o filme inception", user=alice)
    await lembra.say("salva o filme pinocchio", user=alice)
    replaced = await lembra.say("apaga tudo", user=alice)
    assert replaced.text.startswith("(A pergunta pendente foi descartada.)\nIsto apagará 2 itens")
    assert (await lembra.say("1", user=alice)).text.startswith(
        "(A pergunta pendente foi descartada.)"
    )
    assert len(await lembra.items(alice)) == 2


@pytest.mark.parametrize("near_yes", ["tal", "tab", "yet", "pod", "poder", "certa"])
async def test_a_word_that_only_looks_like_yes_deletes_nothing(
    lembra: Lembra, near_yes: str
) -> None:
    for note in ("anota: comprar leite", "anota: ligar pro dentista"):
        await lembra.say(note)
    await lembra.say("apaga tudo")

    reply = await lembra.say(near_yes)  # goes to the (offline) planner, as any message

    assert "Apaguei" not in reply.text
    kept = {item.content for item in await lembra.items()}
    assert {"comprar leite", "ligar pro dentista"} <= kept  # the offline planner saved the word
    assert "all_deleted" not in await lembra.event_types()


@pytest.mark.parametrize(
    "said", ["ah, salva ele pra eu rever", "salva isso", "save that one pls", "guarda esse aí"]
)
async def test_a_save_of_only_a_pronoun_saves_neither_a_title_nor_a_note(
    lembra: Lembra, said: str
) -> None:
    # the question names no title written as one: nothing to point at (a title it names,
    # "o filme Cidade de Deus", is what "salva ele" saves: test_named_references.py)
    await lembra.say("quem dirigiu aquele filme do fernando meirelles?")
    reply = await lembra.say(said)

    assert await lembra.items() == []
    assert "✅" not in reply.text


@pytest.mark.parametrize("said", ["4:30", "14:00", "às 16:45"])
async def test_a_clock_alone_is_never_saved_as_a_headed_note(lembra: Lembra, said: str) -> None:
    reply = await lembra.say(said)

    assert await lembra.items() == []
    assert "✅" not in reply.text
