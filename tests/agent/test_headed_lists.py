"""Lists headed by what their titles are (issue 41): "séries pra ver no feriado: A, B, C" or
"movies my dad loves:" and one title a line are several typed items, not one note; a heading
that tells of titles seen keeps nothing as a list. And a reason before "apaga essa" names the
line it is about among several."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.batches import read_batch
from storage import Database
from tests.support.harness import open_lembra


async def test_a_heading_of_shows_and_a_comma_list_saves_each_show(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("séries pra ver no feriado: Mare of Easttown, Dark, Fleabag")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [
            ("tv_show", "Dark"),
            ("tv_show", "Fleabag"),
            ("tv_show", "Mare of Easttown"),
        ]
        assert "3" in (await lembra.say("quantas séries eu tenho?")).text


async def test_a_heading_of_movies_and_one_title_a_line_saves_each_movie(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("movies for later:\nThe Sting\nChinatown\nNetwork")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [("movie", "Chinatown"), ("movie", "Network"), ("movie", "The Sting")]


def test_a_heading_of_titles_seen_is_no_list_to_keep() -> None:
    assert read_batch("filmes que assisti em janeiro: Duna, Tenet, Heat") is None
    assert read_batch("shows i never finished: Lost, Dexter") is None


async def test_a_heading_telling_of_the_titles_saves_none_to_watch(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("filmes que meu pai adorou: Tubarão, Rocky")
        await lembra.say("shows we abandoned halfway: Westworld, Ozark")
        await lembra.say("movies my kids didn't enjoy: Elemental, Wish")
        titled = [i for i in await lembra.items() if i.type in ("movie", "tv_show")]
        assert titled == []


async def test_a_reason_names_the_line_a_bare_delete_is_about(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota:\npagar a luz\ncomprar ração\nbuscar a encomenda nos correios")
        preview = await lembra.say("já busquei a encomenda, pode apagar essa")
        assert "buscar a encomenda nos correios" in preview.text
        await lembra.say("sim")
        contents = sorted(i.content or "" for i in await lembra.items())
        assert contents == ["comprar ração", "pagar a luz"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["shows to watch: ", "filmes ", "movies my mom likes:\n", ""]),
    st.text(max_size=80),
)
def test_the_list_reader_never_raises(lead: str, rest: str) -> None:
    read_batch(lead + rest)


async def test_words_between_the_save_verb_and_the_colon_are_never_part_of_a_title(
    db: Database,
) -> None:
    # issue 44: "anota esses filmes pra eu ver dps: barbie, ..." saved "pra eu ver dps: barbie"
    async with open_lembra(db) as lembra:
        await lembra.say("guarda essas séries pra maratonar depois: Lost, Fargo, Dexter")
        await lembra.say("put on my watchlist pls: Heat, Ronin")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [
            ("movie", "Heat"),
            ("movie", "Ronin"),
            ("tv_show", "Dexter"),
            ("tv_show", "Fargo"),
            ("tv_show", "Lost"),
        ]


def test_each_part_of_a_list_may_say_its_own_type() -> None:
    batch = read_batch("bota na lista: serie fargo, filme heat, filme ronin")
    assert batch is not None
    assert (batch.pieces, batch.types) == (
        ("fargo", "heat", "ronin"),
        ("tv_show", "movie", "movie"),
    )
    batch = read_batch("save to my list: lost (show), heat (movie)")
    assert batch is not None
    assert (batch.pieces, batch.types) == (("lost", "heat"), ("tv_show", "movie"))


def test_where_the_titles_go_is_cut_from_them_wherever_the_type_is_said() -> None:
    batch = read_batch("put fargo on my list, it's a series")
    assert batch is not None
    assert (batch.pieces, batch.types) == (("fargo",), ("tv_show",))
    batch = read_batch("put heat and ronin on my movie list", split_and=True)
    assert batch is not None
    assert (batch.pieces, batch.item_type) == (("heat", "ronin"), "movie")


def test_a_note_keeps_the_heading_of_its_own() -> None:
    assert read_batch("anota o que a Ana falou: comprar pão, ligar pro Zé") is None


async def test_notes_named_in_the_plural_split_on_commas_and_one_note_stays_whole(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("guarda essas notas: ligar pro síndico, trocar a lâmpada e regar a horta")
        await lembra.say("anota: arroz, feijão e farinha")
        notes = sorted(i.content or "" for i in await lembra.items())
        assert notes == [
            "arroz, feijão e farinha",
            "ligar pro síndico",
            "regar a horta",
            "trocar a lâmpada",
        ]


async def test_a_note_and_a_link_said_with_what_it_is_about_are_two_items(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say(
            "anota que tenho que pagar o condomínio e guarda o link do boleto https://banco.example.com/b/77"
        )
        saved = sorted((i.type, i.description or i.label) for i in await lembra.items())
        assert saved == [
            ("link", "boleto"),
            ("note", "tenho que pagar o condomínio"),
        ]


@pytest.mark.parametrize(
    ("message", "titles"),
    [
        # "La" opening a title is no "lá" after the verb ("salva lá na lista: ...")
        ("bota La Casa de Papel e Dark", ("La Casa de Papel", "Dark")),
        ("save La Haine and Amélie", ("La Haine", "Amélie")),
        ("salva lá na lista: Coringa, Her e Drive", ("Coringa", "Her", "Drive")),
    ],
)
def test_a_title_opening_with_la_keeps_it(message: str, titles: tuple[str, ...]) -> None:
    batch = read_batch(message, split_and=True)
    assert batch is not None
    assert batch.pieces == titles


@pytest.mark.parametrize(
    ("message", "types"),
    [
        ("coisas pra assistir:\n- filme Aftersun\n- série Fleabag", ("movie", "tv_show")),
        ("stuff to watch later:\n• the show Severance\n• the movie Heat", ("tv_show", "movie")),
    ],
)
def test_things_wanted_over_a_list_of_typed_titles_are_that_many_items(
    message: str, types: tuple[str, ...]
) -> None:
    batch = read_batch(message)
    assert batch is not None
    assert batch.types == types


def test_things_a_heading_tells_of_are_no_list_to_keep() -> None:
    assert read_batch("coisas que eu odiei:\n- filme Aftersun\n- série Fleabag") is None


@pytest.mark.parametrize(
    ("message", "item_type"),
    [
        ("agora as séries: Dark, Lost e Fargo", "tv_show"),
        ("and now the movies: Heat, Ronin", "movie"),
    ],
)
def test_the_next_list_said_after_now_is_saved_as_the_last(message: str, item_type: str) -> None:
    batch = read_batch(message)
    assert batch is not None
    assert batch.item_type == item_type
    assert len(batch.pieces) >= 2
