"""Issue 41: what a message states or adds around its request is read for what it is.

- a fact about the item just saved ("e o ano é 1982", "é de 2015 na real", "o diretor é o
  X") edits its year or title, or is planned with no save offered: never a new item;
- chatter at a message's edges ("pfv", "valeu", "thx", "again", "oi,") is no part of
  the request (the message is stored as sent);
- with no TMDB to join them back, "salva X e Y" is two titles (well-known ones kept whole);
- a question's search keeps only its subject ("cadê aquele vídeo do youtube q eu mandei?").
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from agent.understanding.chatter import without_chatter
from agent.understanding.facts import given_back, read_fact, restated, said_title
from agent.understanding.searches import search_subject
from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import call, respond

NO_TMDB = "https://api.themoviedb.org/3"


# -- reading -------------------------------------------------------------------------------


def test_a_fact_names_the_field_it_sets_or_none() -> None:
    year = read_fact("e o ano é 1982")
    assert year is not None
    assert (year.field, year.value) == ("year", "1982")
    of_year = read_fact("it's from 1994 actually")
    assert of_year is not None
    assert (of_year.field, of_year.value) == ("year", "1994")
    wrong = read_fact("o ano tá errado, é 2003")
    assert wrong is not None
    assert (wrong.field, wrong.value) == ("year", "2003")
    title = read_fact("o nome é Interestelar")
    assert title is not None
    assert (title.field, title.value) == ("title", "Interestelar")
    cast = read_fact("a atriz é a Fernanda Torres")
    assert cast is not None
    assert (cast.field, cast.value) == (None, "Fernanda Torres")


def test_a_question_a_title_or_a_request_states_no_fact() -> None:
    for message in (
        "o ano é 1982?",  # asked, not stated
        "A Vida é Bela",  # a title holding "é"
        "e a série Severance tb",
        "é uma série",  # a type correction, read elsewhere
        "salva o filme de 2015",
        "o ano é mil",  # a year must be one
        "1982",
        "o título é péssimo",  # an opinion of the title, not a new one
        "the name is perfect",
    ):
        assert read_fact(message) is None, message


@given(st.text(max_size=300))
def test_reading_a_fact_never_raises(message: str) -> None:
    read_fact(message)


def test_a_title_corrected_in_words_loses_the_words_about_it() -> None:
    assert said_title("é Interestelar, com e") == "Interestelar"
    assert said_title("it's Arrival, with two r's") == "Arrival"
    assert said_title("reunião às 15h, com a Ana") == "reunião às 15h, com a Ana"


def test_chatter_is_cut_at_the_edges_only() -> None:
    assert without_chatter("salva Coringa e Her pfv") == "salva Coringa e Her"
    assert without_chatter("oi, anota: pagar a luz valeu!") == "anota: pagar a luz"
    assert without_chatter("what did I save yesterday again?") == "what did I save yesterday?"
    assert without_chatter("add Heat and Ronin thx 🙏") == "add Heat and Ronin"
    assert without_chatter("valeu") == "valeu"  # small talk alone stays whole
    assert without_chatter("anota: obrigado à Ana pelo bolo") == "anota: obrigado à Ana pelo bolo"
    assert without_chatter("anota: 🎬") == "anota: 🎬"  # after a colon, the content itself
    assert without_chatter("hey, add Parasite please :)") == "add Parasite"  # ":)" is no colon
    # after a type's word the tail is the title: "Cheers", "LOL", "Again" are titles there
    assert without_chatter("save the show Cheers") == "save the show Cheers"
    assert without_chatter("bota o filme LOL") == "bota o filme LOL"
    assert without_chatter("show my movies again") == "show my movies"  # a plural lists
    lines = "anota:\n- pilha\n- valeu"
    assert without_chatter(lines) == lines  # one item a line: the last line is an item


@given(st.text(max_size=300))
@example("\r_")  # "_" is a word character but no letter: nothing is left
def test_cutting_chatter_never_raises_nor_empties(message: str) -> None:
    cut = without_chatter(message)
    assert cut == message or any(c.isalnum() for c in cut)


def test_a_search_keeps_the_subject_of_the_question() -> None:
    assert search_subject("vídeo do youtube q eu mandei") == "youtube"
    assert search_subject("where's that link I sent about pasta") == "pasta"
    assert search_subject("filme do Nolan") == "Nolan"
    assert search_subject("the thing") == "the thing"  # nothing else left: the title itself


# -- in a conversation -----------------------------------------------------------------------


async def test_a_year_stated_after_a_save_edits_that_item(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Blade Runner")
        edited = await lembra.say("e o ano é 1982")
        await lembra.say("add the film The Thing")
        english = await lembra.say("it's from 1982 actually")
        items = await lembra.items()
    assert [(i.title, i.year) for i in items] == [("Blade Runner", 1982), ("The Thing", 1982)]
    assert "1982" in edited.text
    assert "1982" in english.text


async def test_a_wrong_year_corrected_in_passing_is_changed(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme A Origem de 2011")
        reply = await lembra.say("o ano tá errado, é 2010")
        items = await lembra.items()
    assert [(i.title, i.year) for i in items] == [("A Origem", 2010)]
    assert "2010" in reply.text


async def test_a_fact_lembra_does_not_keep_saves_nothing(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Memento")
        await lembra.say("e o diretor é o Nolan")
        await lembra.say("the lead is Guy Pearce btw")
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [("movie", "Memento")]


async def test_a_fact_is_planned_with_no_save_to_call(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Memento", llm=[call("save_movie", title="Memento")])
        # a model that saves the fact anyway is refused: a fact is never a new item
        await lembra.say(
            "o diretor é o Nolan",
            llm=[call("save_note", content="o diretor é o Nolan")] * 3,
        )
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [("movie", "Memento")]


async def test_a_title_corrected_in_passing_keeps_only_the_title(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Interstelar")
        await lembra.say("corrige: é Interestelar, com e")
        items = await lembra.items()
    assert [i.title for i in items] == ["Interestelar"]


async def test_chatter_around_several_titles_is_no_part_of_them(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        reply = await lembra.say("salva Coringa, Amélie e Drive valeu")
        await lembra.say("add Heat and Ronin thx")
        items = await lembra.items()
        stored = await lembra.messages()
    assert sorted(i.title or "" for i in items) == ["Amélie", "Coringa", "Drive", "Heat", "Ronin"]
    assert "valeu" not in reply.text
    assert any(m.content == "add Heat and Ronin thx" for m in stored)  # stored as sent


async def test_x_and_y_without_tmdb_are_two_titles_known_ones_whole(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva Oppenheimer e Barbie")
        await lembra.say("salva Marley e Eu")
        await lembra.say("salva o filme Mauricio e Mônica")  # a singular noun: one title
        items = await lembra.items()
    assert sorted(i.title or "" for i in items) == [
        "Barbie",
        "Marley e Eu",
        "Mauricio e Mônica",
        "Oppenheimer",
    ]


async def test_a_question_with_filler_searches_its_subject_and_saves_nothing(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("guarda https://www.youtube.com/watch?v=abc123XYZ00")
        found = await lembra.say("cadê aquele vídeo do youtube q eu mandei?")
        again = await lembra.say("what did I save today again?")
        items = await lembra.items()
    assert "abc123XYZ00" in found.text
    assert "abc123XYZ00" in again.text
    assert len(items) == 1


def test_a_value_restated_for_a_note_replaces_the_one_of_its_shape() -> None:
    assert restated("a senha é 1234 na vdd", "senha do wifi 1233") == "senha do wifi 1234"
    assert restated("sorry, the combo is 2486", "locker combo 2468") == "locker combo 2486"
    assert restated("the code is 4417", "call mom") is None  # the words are not in the note
    assert restated("a senha é 1234", "senha 1233 e pin 4455") is None  # which one: unsure
    assert restated("a senha é 1234?", "senha 1233") is None  # asked, not stated
    # a word of the same length is a comment: "the call was great" on "call with Dr. Smith"
    assert restated("a consulta foi ótima", "consulta com dr. Paulo dia 12") is None
    assert restated("the call was great", "call with Dr. Smith on Friday") is None


def test_a_value_given_back_among_clauses_or_for_another_is_read_only_when_sure() -> None:
    # the one clause that states a value, among clauses that ask nothing else
    assert restated("mudaram, a nova senha é 5521. corrige ai", "senha do alarme 1290") == (
        "senha do alarme 5521"
    )
    assert restated("ok, the pin is 1111, the code is 2222", "pin 0000 code 9999") is None
    assert restated("a senha é 5521, salva o filme Heat", "senha 1290") is None
    # a value said with the one it replaces: which is which, the note says
    assert (
        given_back("errei, é 40-12 e não 40-21", "portão bloco B 40-21") == "portão bloco B 40-12"
    )
    assert given_back("the room is 314 not 341", "hotel room 341, floor 3") == (
        "hotel room 314, floor 3"
    )
    assert given_back("troquei: 0922 no lugar de 0299", "pin 0299") == "pin 0922"
    assert given_back("é 2301 e não 2310", "tel 2301 ou 2310") is None  # holds both
    assert given_back("é 2301 e não 2310", "tel 2013") is None  # holds neither
    assert given_back("é 2301 e 2310", "tel 2310") is None  # nothing is taken back
    assert given_back("é 23 e não 2310", "tel 2310") is None  # not one shape
    assert given_back("não é 2310, é 2301? anota", "tel 2310") is None


@given(st.text(max_size=300), st.text(max_size=120))
@example("é 1 e não 2", "x 2")
def test_giving_a_value_back_never_raises(message: str, content: str) -> None:
    given_back(message, content)
    restated(message, content)


async def test_a_typed_title_fixed_in_passing_edits_that_item_of_two(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva a série Sucesion e o filme Tár")
        fixed = await lembra.say("digitei errado, a série é Succession")
        opinion = await lembra.say("o filme é bem longo")  # said of it, no fix
        items = await lembra.items()
    assert fixed.text.startswith("✅ Atualizado: Succession")
    assert sorted((i.type, i.title) for i in items) == [("movie", "Tár"), ("tv_show", "Succession")]
    assert "Atualizado" not in opinion.text


async def test_a_value_restated_right_after_a_note_edits_it(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: código do portão 7731")
        reply = await lembra.say("o código é 7713 na vdd")
        asked = await lembra.say("qual o código do portão?")
        items = await lembra.items()
    assert [i.content for i in items] == ["código do portão 7713"]
    assert "7713" in reply.text
    assert "7713" in asked.text


async def test_a_number_given_back_for_the_one_in_the_note_just_saved_edits_it(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: vaga do carro no prédio G2-118")
        reply = await lembra.say("ih escrevi errado, é G2-181 e não G2-118")
        items = await lembra.items()
    assert [i.content for i in items] == ["vaga do carro no prédio G2-181"]
    assert "G2-181" in reply.text


async def test_what_is_x_is_answered_in_code_only_when_something_saved_answers_it(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: senha da academia 5590")
        found = await lembra.say("qual a senha da academia mesmo?")
        planned = await lembra.say(
            "qual a capital da Austrália?",
            llm=[respond("Canberra.")],
        )
    assert "5590" in found.text
    assert found.meta.llm_calls == 0
    assert planned.meta.llm_calls == 1  # nothing saved answers it: the planner's, no search


async def test_the_year_an_item_is_saved_with_is_shown(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Drive de 2011")
        reply = await lembra.say("em que ano tá salvo o Drive?")
    assert "Drive (2011)" in reply.text


async def test_several_things_with_their_types_in_words(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("could you save the show Fargo and the movie Heat")
        await lembra.say("oh and add Mindhunter, it's a series")
        await lembra.say("salva o filme Bacurau")
        await lembra.say("e Romeu e Julieta tb")  # a known title: whole, the type saved last
        await lembra.say("bota tmb a série Irmandade")
        await lembra.say("anota essas duas coisas:\n- levar o adaptador\n- reservar o hotel")
        items = await lembra.items()
    assert sorted((i.type, i.title or i.content or "") for i in items) == [
        ("movie", "Bacurau"),
        ("movie", "Heat"),
        ("movie", "Romeu e Julieta"),
        ("note", "levar o adaptador"),
        ("note", "reservar o hotel"),
        ("tv_show", "Fargo"),
        ("tv_show", "Irmandade"),
        ("tv_show", "Mindhunter"),
    ]


async def test_an_interjection_before_undo_is_no_part_of_it(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("save the movie The Fly from 1958")
        await lembra.say("actually change the year to 1986")
        await lembra.say("hmm undo that")
        items = await lembra.items()
    assert [(i.title, i.year) for i in items] == [("The Fly", 1958)]


async def test_edits_written_in_passing_or_in_shorthand(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("anota: ligar pro Zé")
        await lembra.say("lista minhas notas")
        await lembra.say("altera o 1 p/ ligar pro Zé amanhã cedo")
        await lembra.say("salva o filme Bacurao de 2018")
        await lembra.say("conserta: o nome é Bacurau")
        await lembra.say("tá errado o ano, é 2019")
        items = await lembra.items()
    assert [(i.title or i.content, i.year) for i in items] == [
        ("ligar pro Zé amanhã cedo", None),
        ("Bacurau", 2019),
    ]


async def test_where_is_what_i_sent_today_and_did_i_save_anything_list_the_period(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: trocar o filtro")
        await lembra.say("guarda https://youtu.be/xyz12345678")
        video = await lembra.say("cadê o vídeo q te mandei hj?")
        week = await lembra.say("did i save anything this week?")
        items = await lembra.items()
    assert "xyz12345678" in video.text
    assert "filtro" not in video.text  # the video asked about, not everything of today
    assert "trocar o filtro" in week.text
    assert len(items) == 2
