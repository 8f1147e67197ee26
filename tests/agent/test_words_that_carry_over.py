"""Finding things in the user's own list by words nobody wrote a rule for (issue 41).

- a word finds an item by its stem ("receitas" finds "receita", "cooking" finds "cook"), and
  the words of a link's address count;
- a link keeps what the message said it is about, even when the model gave no description;
- a question naming a saved thing by its words is answered with it, in full;
- a question over the list just shown keeps one type of it, or counts it.

A model is configured where it matters (the counting server, nothing scripted): what is
answered in code never reaches it.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.tools.matching import search_score, stems
from agent.understanding.questions import OverShown, asked_words, read_over_shown
from agent.understanding.urls import said_about_link
from storage import Database
from storage.documents import ItemDoc
from tests.support.harness import open_lembra, seed
from tests.support.live import call


def _link(url: str, description: str | None = None) -> ItemDoc:
    return ItemDoc(
        _id="i1",
        user_id="cli:alice",
        seq=1,
        type="link",
        dedup_key=url,
        created_at_ms=0,
        updated_at_ms=0,
        url=url,
        description=description,
    )


# -- matching -----------------------------------------------------------------------------


def test_a_word_finds_an_item_holding_another_ending_of_it() -> None:
    cooking = _link("https://www.cookhouse.net/weeknight-dinners")
    receipts = _link("https://exemplo.com.br/x", "receitas de pão de queijo")

    assert search_score(cooking, "cooking") >= 80  # "cook" of the site's name
    assert search_score(receipts, "receita") >= 80
    assert search_score(receipts, "pães") < 80  # "pao"/"paes": no ending rule joins them


def test_a_stem_that_cuts_more_than_an_ending_finds_nothing() -> None:
    assert "papel" not in stems("papelaria")
    assert stems("bola") == frozenset()  # "bol" would also be "bolo"
    assert search_score(_link("https://a.example/x", "conserto da bola"), "bolo") < 80


# -- a link keeps what was said of it ------------------------------------------------------


def test_the_words_said_around_one_link_are_what_it_is_about() -> None:
    assert (
        said_about_link("guarda pra mim esse artigo sobre juros compostos https://a.example/j")
        == "juros compostos"
    )
    assert (
        said_about_link("https://a.example/x receita de bolo de fubá") == "receita de bolo de fubá"
    )
    assert said_about_link("and this one too https://a.example/x") is None
    assert said_about_link("salva https://a.example/x e https://b.example/y") is None
    assert said_about_link("olha só https://a.example/x que massa") is None  # both sides


async def test_a_link_the_model_saved_bare_is_found_by_what_the_message_said(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say(
            "guarda esse link com dicas de ciclismo na serra https://pedal.example/rotas-2",
            llm=[call("save_link", url="https://pedal.example/rotas-2")],
        )
        asked = lembra.model_calls
        found = await lembra.say("cadê o link de ciclismo?")

    [item] = await lembra.items()
    assert item.description == "dicas de ciclismo na serra"
    assert "https://pedal.example/rotas-2" in found.text
    assert lembra.model_calls == asked  # found in code


# -- a question naming a saved thing by its words -------------------------------------------


async def test_a_question_naming_a_note_by_its_words_shows_the_note_in_full(
    db: Database,
) -> None:
    await seed(
        db,
        [
            "anota: senha do alarme da loja 4471#",
            "anota: dentista dra. Paula, rua Ipê 12",
            "save the movie Heat",
        ],
    )
    async with open_lembra(db, counting_model=True) as lembra:
        pt = await lembra.say("me fala a senha do alarme")
        en = await lembra.say("what's the dentist's address again")
        who = await lembra.say("onde tá o contato da Paula?")
        offered = await lembra.pending()

    assert "4471#" in pt.text
    assert "rua Ipê 12" in en.text
    assert "rua Ipê 12" in who.text
    assert offered is None  # nothing offered to be saved
    assert lembra.model_calls == 0
    assert len(await lembra.items()) == 3


async def test_a_question_whose_words_name_nothing_saved_is_left_as_it_was(
    db: Database,
) -> None:
    await seed(db, ["anota: senha do alarme da loja 4471#"])
    async with open_lembra(db) as lembra:
        reply = await lembra.say("me passa o telefone do eletricista")

    assert "4471#" not in reply.text


def test_what_asks_for_an_effect_or_is_no_question_is_not_read_as_one() -> None:
    assert asked_words("apaga a senha do alarme?") is None
    assert asked_words("comprei pão e leite") is None
    assert asked_words("qual a senha do alarme?") is not None
    assert asked_words("do i have the garage code") is not None


# -- a question over the list just shown ---------------------------------------------------


async def test_of_the_list_just_shown_one_type_is_kept_or_counted(db: Database) -> None:
    await seed(
        db,
        [
            "salva o filme Amarelo Manga",
            "salva a série Sintonia",
            "salva a série Cidade Invisível",
            "anota: levar o carro na revisão",
        ],
    )
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("o que eu salvei hoje?")
        shows = await lembra.say("e quais desses são séries?")
        removed = await lembra.say("apaga o 2")
        await lembra.say("what did I save today?")
        count = await lembra.say("how many notes are there among those?")

    assert shows.text.splitlines()[1:] == ["1. Cidade Invisível", "2. Sintonia"]
    assert "Sintonia" in removed.text  # the filtered list is the one "o 2" points at
    assert "1 note" in count.text
    assert lembra.model_calls == 0


def test_a_question_over_the_shown_list_needs_a_pointer_and_one_type() -> None:
    assert read_over_shown("quantos filmes eu tenho?") is None  # the whole list
    assert read_over_shown("desses, quais são filmes e séries?") is None
    assert read_over_shown("desses já vi o filme X") is None
    over = read_over_shown("which of these are videos?")
    assert over == OverShown("video", count=False)


# -- the readers read anything -------------------------------------------------------------

_WORDS = st.sampled_from(
    "me passa qual é cadê whats where's do i have the a o desses of those is that how many "
    "quantos filmes séries videos links notas ? , link sobre about https://x.example/a-b "
    "salva guarda apaga numero number dave encanador this one too e and".split()
)
_TEXT = st.one_of(st.text(max_size=120), st.lists(_WORDS, max_size=16).map(" ".join))


@given(_TEXT)
def test_the_new_readers_never_raise_whatever_the_text(text: str) -> None:
    asked_words(text)
    read_over_shown(text)
    said_about_link(text)
    for word in text.split():
        stems(word)
