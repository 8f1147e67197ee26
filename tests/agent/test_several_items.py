"""Several items in one message (issue 26): each stored, one reply saying what was saved
and what was not, at most ten; a title holding "e" / "and" stays one item."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.conversation.batching import save_batch
from agent.conversation.turn import Turn
from agent.planning.offline import plan_offline
from agent.types import Incoming
from agent.understanding.batches import Batch, cut_tail, read_batch
from agent.understanding.textnorm import fold
from agent.understanding.vocabulary import plain_save_head, save_verb_typo
from storage import Database
from tests.support.harness import ALICE, open_lembra
from tests.support.live import call

NO_TMDB_41 = "https://api.themoviedb.org/3"

CATALOGUE: dict[str, dict[str, list[dict[str, Any]]]] = {
    "movie": {
        "velozes e furiosos": [
            {"id": 9799, "title": "Velozes e Furiosos", "release_date": "2001-06-18"},
            {"id": 13804, "title": "Velozes e Furiosos 4", "release_date": "2009-04-02"},
        ],
        "matrix": [{"id": 603, "title": "Matrix", "release_date": "1999-03-31"}],
        "interestelar": [{"id": 157336, "title": "Interestelar", "release_date": "2014-11-05"}],
        "pride and prejudice": [
            {"id": 4348, "title": "Pride & Prejudice", "release_date": "2005-09-16"}
        ],
        "inception": [
            {"id": 27205, "title": "Inception", "release_date": "2010-07-15"},
            {"id": 1000001, "title": "Inception", "release_date": "2014-01-01"},
        ],
        "tom e jerry": [{"id": 587807, "title": "Tom & Jerry", "release_date": "2021-02-11"}],
    }
}


def titles(items: list[Any]) -> list[str]:
    return [i.title or i.content or i.url for i in items]


async def test_two_movies_in_one_message_are_both_saved(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE, counting_model=True) as lembra:
        reply = await lembra.say("salva os filmes matrix e interestelar")
        assert reply.text.splitlines() == [
            "✅ Salvei 2 itens:",
            "1. Matrix (1999)",
            "2. Interestelar (2014)",
        ]
        assert titles(await lembra.items()) == ["Matrix", "Interestelar"]
        assert reply.meta.tools_executed == ("save_movie", "save_movie")
        assert await lembra.event_types() == ["item_saved", "item_saved"]
        # the summary is the shelf: "apaga o 2" is Interestelar
        assert (await lembra.say("apaga o 2")).text.startswith("Apagar Interestelar (2014)?")
        assert lembra.model_calls == 0


async def test_a_title_with_e_stays_one_item_when_tmdb_knows_it(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        reply = await lembra.say("salva os filmes velozes e furiosos e matrix")
        assert titles(await lembra.items()) == ["Velozes e Furiosos", "Matrix"]
        assert "2. Matrix (1999)" in reply.text


async def test_what_is_not_saved_is_listed_with_the_reason(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        reply = await lembra.say("add the movies Pride and Prejudice and Inception to my list")
        assert titles(await lembra.items()) == ["Pride & Prejudice"]
        assert reply.text.splitlines() == [
            "✅ Saved 1 item:",
            "1. Pride & Prejudice (2005)",
            "Not saved (1):",
            "• «Inception»: I found 2 matches; send that title alone to pick one.",
            "⚠️ Items not saved: 1.",
        ]
        assert reply.meta.state == "PARTIAL"


async def test_without_tmdb_each_title_is_saved_as_written_with_the_caveat(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as lembra:
        reply = await lembra.say("bota aí as séries Dark, Severance e The Office")
        items = await lembra.items()
        assert titles(items) == ["Dark", "Severance", "The Office"]
        assert {i.type for i in items} == {"tv_show"}
        assert reply.meta.state == "PARTIAL"
        assert "TMDB" in reply.text  # the caveat names the cause


async def test_a_list_said_casually_keeps_only_its_titles(db: Database) -> None:
    # a vocative before the verb, a plural said by its article, why after a comma
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as lembra:
        await lembra.say("cara, bota aí as serie Ozark e Narcos, pq todo mundo comenta")
        await lembra.say("vei salva os filme Heat, Que Horas Ela Volta")
        items = await lembra.items()
        assert sorted((i.type, i.title) for i in items) == [
            ("movie", "Heat"),
            ("movie", "Que Horas Ela Volta"),
            ("tv_show", "Narcos"),
            ("tv_show", "Ozark"),
        ]


def test_why_after_the_last_title_is_cut_only_when_it_reads_as_why() -> None:
    assert cut_tail("Heat e Ronin, q a Ana indicou")[0] == "Heat e Ronin"
    assert cut_tail("Heat and Ronin, because Mann is great")[0] == "Heat and Ronin"
    assert cut_tail("Heat, Que Horas Ela Volta")[0] == "Heat, Que Horas Ela Volta"


async def test_notes_split_on_semicolons_and_lines_only(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar leite, pão e ovos; ligar pro João")
        await lembra.say("anota:\n- levar o carro\n- pagar o IPVA")
        assert titles(await lembra.items()) == [
            "comprar leite, pão e ovos",
            "ligar pro João",
            "levar o carro",
            "pagar o IPVA",
        ]


async def test_several_links_and_one_already_saved(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("https://example.com/a")
        reply = await lembra.say(
            "salva https://example.com/a, https://youtu.be/dQw4w9WgXcQ e https://example.com/b"
        )
        items = await lembra.items()
        assert [(i.type, i.url) for i in items] == [
            ("link", "https://example.com/a"),
            ("video", "https://youtu.be/dQw4w9WgXcQ"),
            ("link", "https://example.com/b"),
        ]
        assert "1. https://example.com/a (já estava salvo)" in reply.text
        assert reply.text.startswith("✅ Salvei 2 itens:")


async def test_at_most_ten_and_the_reply_says_how_many_were_left(db: Database) -> None:
    async with open_lembra(db) as lembra:
        reply = await lembra.say("anota: " + "; ".join(f"tarefa {n}" for n in range(1, 13)))
        assert len(await lembra.items()) == 10
        assert "2 ficaram de fora" in reply.text


async def test_a_planners_combined_title_is_split_by_the_lookup(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE, counting_model=True) as lembra:
        both = await lembra.say(
            "salva matrix e interestelar",
            llm=[call("enrich_movie", title="matrix e interestelar")],
        )
        one = await lembra.say("salva tom e jerry", llm=[call("enrich_movie", title="tom e jerry")])
        assert titles(await lembra.items()) == ["Matrix", "Interestelar", "Tom & Jerry"]
        assert "2. Interestelar (2014)" in both.text
        assert one.text == "✅ Salvo: Tom & Jerry (2021)."


async def test_a_piece_past_the_tools_limits_is_refused_not_raised(db: Database) -> None:
    """A piece no reader produces today (a 4,001-character note): refused with its reason."""
    async with open_lembra(db) as lembra:
        user = await lembra.db.users.ensure(
            ALICE, language="pt", timezone="America/Sao_Paulo", now_ms=lembra.clock.ms()
        )
        incoming = Incoming(channel="console", chat_id="alice", user_id=ALICE, text="anota")
        turn = Turn(incoming=incoming, user=user, language="pt", now_ms=lembra.clock.ms())
        batch = Batch("notes", ("leite", "x" * 4_001))
        reply = await save_batch(lembra.deps, turn, batch)
        assert titles(await lembra.items()) == ["leite"]
        assert "Não salvei (1):" in reply.text
        assert reply.meta.state == "PARTIAL"


async def test_a_type_and_then_a_plural_type_save_each_title_as_its_type(db: Database) -> None:
    """ "salva a série X e os filmes Y e Z": one series, two movies (a plural type noun
    names several titles), never one series called "X e os filmes Y e Z"."""
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as lembra:
        reply = await lembra.say("salva a série round 6 e os filmes barbie e velozes e furiosos")
        saved = [(i.type, i.title) for i in await lembra.items()]
        await lembra.say("save the show ted lasso and the movies joker and interstellar")
        english = [(i.type, i.title) for i in await lembra.items()][3:]

    assert saved == [
        ("tv_show", "round 6"),
        ("movie", "barbie"),
        ("movie", "velozes e furiosos"),
    ], reply.text
    assert english == [("tv_show", "ted lasso"), ("movie", "joker"), ("movie", "interstellar")]


# -- the line a list follows is the request; a piece that names its type is that (issue 41) --


async def test_the_line_a_bulleted_list_follows_is_the_request_not_an_item(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB_41) as lembra:
        await lembra.say("add these for me pls\n- Heat\n- The Thing")
        await lembra.say("coloca esses filmes aqui:\nBacurau\nAquarius")
        items = await lembra.items()
        assert lembra.model_calls == 0
    assert sorted(i.title for i in items) == ["Aquarius", "Bacurau", "Heat", "The Thing"]


async def test_a_piece_of_a_typed_list_that_names_another_type_is_that_type(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB_41) as lembra:
        await lembra.say("salva os filmes Parasita e Oldboy e a série Dark")
        items = await lembra.items()
    assert sorted((i.type, i.title) for i in items) == [
        ("movie", "Oldboy"),
        ("movie", "Parasita"),
        ("tv_show", "Dark"),
    ]


def test_a_note_and_a_link_asked_with_too_are_two_pieces() -> None:
    from agent.understanding.batches import read_batch

    batch = read_batch("anota levar o RG na consulta e guarda esse link tbm https://example.org/rg")
    assert batch is not None
    assert batch.types == ("note", "link")
    assert batch.pieces == ("levar o RG na consulta", "https://example.org/rg")
    # what the link is about, said after its kind, is its description; more is the planner's
    about = read_batch("anota X e salva esse link sobre receitas https://example.org/r")
    assert about is not None
    assert about.pieces == ("X", "https://example.org/r")
    assert about.about == ("", "receitas")
    assert read_batch("anota X e salva esse link, vou ler amanhã https://example.org/r") is None


def test_one_typed_piece_a_line_is_one_item_each() -> None:
    from agent.understanding.batches import read_batch

    lines = read_batch("guarda aí:\n- filme Aquarius\n- série Sintonia\n- nota: ligar pro síndico")
    assert lines is not None
    assert lines.pieces == ("Aquarius", "Sintonia", "ligar pro síndico")
    assert lines.types == ("movie", "tv_show", "note")
    wished = read_batch("queria salvar o filme Her e a série Fleabag")
    assert wished is not None
    assert wished.types == ("movie", "tv_show")
    notes = read_batch("anota:\n- pilha\n- valeu")  # untyped lines after a note verb: notes
    assert notes is not None
    assert (notes.kind, notes.pieces) == ("notes", ("pilha", "valeu"))
    # lines that do not each say what they are keep their own reading
    untyped = read_batch("salva:\nDuna\nTenet")
    assert untyped is not None
    assert untyped.kind == "titles"


@given(
    st.sampled_from(
        ["salva:\n", "bota na lista:\n- ", "quero guardar ", "anota X e salva esse link tb "]
    ),
    st.lists(st.text(max_size=30), max_size=5),
    st.sampled_from(["\n", "\n- ", " e o filme ", " https://example.org/a "]),
)
def test_reading_typed_lines_never_raises(head: str, parts: list[str], sep: str) -> None:
    from agent.understanding.batches import read_batch

    read_batch(head + sep.join(parts))
    read_batch(head + sep.join(parts), split_and=True)


# -- what frames a list is no part of its titles; a type said of the list types it (issue 41) --


@pytest.mark.parametrize(
    ("message", "pieces"),
    [
        ("guarda Duna, Tenet e Amnesia pra gente ver no fds", ("Duna", "Tenet", "Amnesia")),
        ("bota Heat, Ronin e Collateral na minha lista pfv", ("Heat", "Ronin", "Collateral")),
        (
            "put Heat, Ronin and Collateral on my watchlist for later",
            ("Heat", "Ronin", "Collateral"),
        ),
        ("add Heat, Ronin, and Sicario to watch this weekend", ("Heat", "Ronin", "Sicario")),
        ("add these films plz: Heat, Ronin", ("Heat", "Ronin")),
        ("salva esses filmes pfv: Duna, Tenet", ("Duna", "Tenet")),
        ("quero guardar umas series: Dark, Barry e Fargo", ("Dark", "Barry", "Fargo")),
        ("quero assistir esses filmes: Heat, Ronin e Tenet. guarda ai", ("Heat", "Ronin", "Tenet")),
        (
            "want to watch these movies: Heat, Ronin and Tenet. save them pls",
            ("Heat", "Ronin", "Tenet"),
        ),
        ("queria ver essas series: Dark, Barry e Fargo", ("Dark", "Barry", "Fargo")),
        ("poe na lista pra mim Duna, Tenet e Amnesia pf", ("Duna", "Tenet", "Amnesia")),
        ("slava Duna, Tenet e Amnesia", ("Duna", "Tenet", "Amnesia")),  # the verb's slip
        ("can you put Fargo and Barry on my shows list?", ("Fargo", "Barry")),  # asked
        ("vc pode salvar Duna e Tenet?", ("Duna", "Tenet")),
        # no verb: where the list goes asks it
        ("Heat, Ronin e Tenet na minha lista", ("Heat", "Ronin", "Tenet")),
        ("Dune and Arrival to watch later", ("Dune", "Arrival")),
    ],
)
def test_where_a_list_goes_and_what_it_is_for_are_no_part_of_its_titles(
    message: str, pieces: tuple[str, ...]
) -> None:
    batch = read_batch(plain_save_head(message), split_and=True)  # as the runtime reads it
    assert batch is not None
    assert batch.pieces == pieces


@pytest.mark.parametrize(
    ("message", "item_type"),
    [
        ("add Fargo, Barry and Atlanta to my shows", "tv_show"),
        ("coloca Dark, Sintonia e Irmandade nas minhas series", "tv_show"),
        ("salva Heat e Ronin na lista de filmes", "movie"),
        ("queria ver essas séries: Dark e Barry", "tv_show"),
    ],
)
def test_a_list_that_says_its_type_types_every_title(message: str, item_type: str) -> None:
    batch = read_batch(message, split_and=True)
    assert batch is not None
    assert (batch.kind, batch.item_type) == ("titles", item_type)


@pytest.mark.parametrize(
    "message",
    [
        "save Fargo and Barry, theyre shows",
        "salva Dark e Barry, são séries",
        "guarda Dark, Barry e Fargo, os tres sao series",
    ],
)
def test_a_type_said_at_the_end_of_a_list_types_its_titles(message: str) -> None:
    batch = read_batch(message, split_and=True)
    assert batch is not None
    assert set(batch.types) == {"tv_show"}
    assert len(batch.pieces) == len(batch.types) >= 2
    assert not any("show" in p or "serie" in p for p in batch.pieces)


@pytest.mark.parametrize(
    "message",
    [
        "quero ver esses filmes: quais eu tenho?",  # a question
        "comprei pão, leite e ovos. salva",  # no type said: the planner's
        "quero ver o filme Duna",
        "heat, ronin, tenet",  # nothing asks to keep them
        "heat e ronin, quero ver",
        # a destination with no verb asks nothing when the list is a sentence
        "apaga Heat e Ronin na minha lista",
        "Heat e Ronin ja estao na lista",
        "I watched heat and ronin on my list",
        "procura heat e ronin na lista",
        "tem Heat e Ronin na minha lista",
    ],
)
def test_a_list_nobody_asked_to_keep_is_not_a_batch(message: str) -> None:
    assert read_batch(message, split_and=True) is None


def test_a_note_and_a_link_in_two_sentences_are_two_items() -> None:
    for message, note in (
        (
            "jot down: call the plumber. also save this link https://example.org/p",
            "call the plumber",
        ),
        (
            "anota: ligar pro encanador. salva tb esse link https://example.org/p",
            "ligar pro encanador",
        ),
    ):
        batch = read_batch(message)
        assert batch is not None
        assert (batch.pieces, batch.types) == ((note, "https://example.org/p"), ("note", "link"))
    # a second sentence naming no kind and no address stays in the note
    one = read_batch("anota: o filme é bom. salva depois")
    assert one is None


def test_a_piece_after_plus_says_its_own_type() -> None:
    batch = read_batch("save the movies Heat and Ronin, plus the show Fargo")
    assert batch is not None
    assert tuple(zip(batch.types, batch.pieces, strict=True)) == (
        ("movie", "Heat"),
        ("movie", "Ronin"),
        ("tv_show", "Fargo"),
    )


async def test_titles_split_on_and_are_saved_when_tmdb_knows_each(db: Database) -> None:
    """With TMDB: "X and Y" is two titles only when TMDB clearly knows each; a known whole
    ("tom e jerry") or a part it does not know goes to the planner (the model here)."""
    async with open_lembra(db, tmdb_results=CATALOGUE, counting_model=True) as lembra:
        both = await lembra.say("add matrix and interestelar to my list pls")
        assert lembra.model_calls == 0
        await lembra.say("salva matrix e blorfo")  # "blorfo": TMDB knows nothing of it
        assert lembra.model_calls > 0
        items = await lembra.items()
    assert "2. Interestelar (2014)" in both.text
    assert titles(items)[:2] == ["Matrix", "Interestelar"]  # then whatever the planner did


async def test_without_tmdb_a_list_to_my_shows_is_saved_as_shows(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB_41) as lembra:
        await lembra.say("add Fargo and Barry to my shows")
        await lembra.say("salva Tenet, Duna e Amnesia pra eu ver")
        items = await lembra.items()
        assert lembra.model_calls == 0
    assert [(i.type, i.title) for i in items] == [
        ("tv_show", "Fargo"),
        ("tv_show", "Barry"),
        ("movie", "Tenet"),
        ("movie", "Duna"),
        ("movie", "Amnesia"),
    ]


async def test_one_title_sent_to_a_list_keeps_only_its_title(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB_41) as lembra:
        await lembra.say("put the green knight on my watchlist")
        await lembra.say("add severance to my shows")
        await lembra.say("ah e salva tb o filme Heat")  # an opening "ah e" asks nothing
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [
        ("movie", "the green knight"),
        ("tv_show", "severance"),
        ("movie", "Heat"),
    ]


@given(
    st.sampled_from(
        [
            *("quero ver esses filmes: ", "add these movies pls: ", "salva ", "put "),
            *("jot down: ", "slava ", "can you put ", "", "make a note: "),
        ]
    ),
    st.lists(st.text(max_size=20), max_size=5),
    st.sampled_from([", ", " e ", " and ", ". also save this link "]),
    st.sampled_from(
        ["", " to my shows", " pra eu ver", ". salva ai", ", theyre shows", " na lista", "?"]
    ),
)
def test_reading_framed_lists_never_raises(
    head: str, parts: list[str], sep: str, tail: str
) -> None:
    message = head + sep.join(parts) + tail
    read_batch(message)
    read_batch(message, split_and=True)
    cut_tail(message)
    plan_offline(message, "save")
    for word in fold(message).split()[:3]:
        save_verb_typo(word)


@pytest.mark.parametrize(
    ("message", "pieces"),
    [
        ("salva tb ainda estou aqui e bacurau", ("ainda estou aqui", "bacurau")),
        (
            "e salva ainda estou aqui, bacurau e aquarius",
            ("ainda estou aqui", "bacurau", "aquarius"),
        ),
        ("add now you see me and tenet to my list", ("now you see me", "tenet")),
    ],
)
def test_a_title_opening_with_an_adverb_keeps_it(message: str, pieces: tuple[str, ...]) -> None:
    from agent.understanding.chatter import without_chatter

    batch = read_batch(without_chatter(message), split_and=True)
    assert batch is not None
    assert batch.pieces == pieces
    # "too" right after the verb may open a title: never cut, and "too late" is not split
    assert read_batch("add too late and heat", split_and=True) is None


async def test_words_after_a_comma_tmdb_knows_nothing_of_are_said_about_the_title(
    db: Database,
) -> None:
    catalogue = {
        "movie": {
            **CATALOGUE["movie"],
            "crazy, stupid, love": [
                {"id": 50646, "title": "Crazy, Stupid, Love.", "release_date": "2011-07-29"}
            ],
        }
    }
    async with open_lembra(db, tmdb_results=catalogue) as lembra:
        await lembra.say("salva o filme matrix, me indicaram mt")
        await lembra.say("save the movie crazy, stupid, love")
        await lembra.say("salva o filme blorfo, dizem que é bom")  # TMDB knows neither part
        items = await lembra.items()
    assert titles(items) == ["Matrix", "Crazy, Stupid, Love.", "blorfo, dizem que é bom"]


async def test_an_untyped_title_tmdb_knows_only_as_a_show_is_saved_as_that_show(
    db: Database,
) -> None:
    catalogue = {
        "movie": CATALOGUE["movie"],
        "tv": {"fargo": [{"id": 60622, "name": "Fargo", "first_air_date": "2014-04-15"}]},
    }
    async with open_lembra(db, tmdb_results=catalogue) as lembra:
        reply = await lembra.say("salva matrix e fargo")
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [("movie", "Matrix"), ("tv_show", "Fargo")]
    assert "2. Fargo (2014)" in reply.text


async def test_the_words_asking_for_a_note_are_no_part_of_it(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB_41) as lembra:
        await lembra.say("make a note: bike lock code is 4412")
        await lembra.say("jot down call the vet about the cat")  # no colon either
        items = await lembra.items()
    assert [(i.type, i.content) for i in items] == [
        ("note", "bike lock code is 4412"),
        ("note", "call the vet about the cat"),
    ]


@pytest.mark.parametrize(
    ("said", "pieces", "types"),
    [
        (
            "salva os filmes oppenheimer e interestelar e as series the office e o urso",
            ("oppenheimer", "interestelar", "the office", "o urso"),
            ("movie", "movie", "tv_show", "tv_show"),  # "o urso" is one more of the series
        ),
        (
            "salva os filmes duna e matrix e a serie dark e o filme heat",
            ("duna", "matrix", "dark", "heat"),
            ("movie", "movie", "tv_show", "movie"),
        ),
        (
            "add only murders in the building, ted lasso and abbott elementary, tv shows",
            ("only murders in the building", "ted lasso", "abbott elementary"),
            ("tv_show", "tv_show", "tv_show"),  # the type said last is no title
        ),
        (
            "save heat, ronin and collateral, all movies",
            ("heat", "ronin", "collateral"),
            ("movie", "movie", "movie"),
        ),
    ],
)
def test_a_plural_type_types_the_titles_after_it_and_a_type_said_last_types_them_all(
    said: str, pieces: tuple[str, ...], types: tuple[str, ...]
) -> None:
    batch = read_batch(said)
    assert batch is not None
    assert batch.pieces == pieces
    assert batch.types == types
