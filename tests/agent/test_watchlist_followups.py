"""Watchlist follow-ups read in code (issue 44), in phrasings of our own: a title whose last
word is also "here", "what about X?" after where-to-watch, an unmark said with "back on the
list", a save of the title just shown "anyway", a reason after a deletion, a remark before a
request, and the ratings asked with a seen list."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.chatter import without_asides, without_remark
from agent.understanding.continuations import read_continuation
from agent.understanding.references import Target, read_reference
from agent.understanding.watchlist import (
    ListRequest,
    MarkRequest,
    SuggestRequest,
    read,
    read_where,
)
from storage import Database
from tests.support.harness import open_lembra

CATALOGUE = {
    "movie": {
        "estou aqui": [
            {"id": 4101, "title": "Estou Aqui", "release_date": "2019-05-02", "runtime": 95}
        ],
        "the matrix": [{"id": 603, "title": "The Matrix", "release_date": "1999-03-31"}],
    },
    "tv": {"dark": [{"id": 70523, "name": "Dark", "first_air_date": "2017-12-01"}]},
}


def test_a_where_title_keeps_the_words_cut_as_here_for_a_second_look() -> None:
    asked = read_where("onde dá pra assistir estou aqui?")
    assert asked is not None
    assert (asked.title, asked.whole) == ("estou", "estou aqui")


async def test_where_to_watch_a_title_ending_in_here_finds_the_whole_title(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        reply = await lembra.say("onde dá pra assistir estou aqui?")

    assert "Estou Aqui" in reply.text


@pytest.mark.parametrize(
    ("said", "title", "kind"),
    [
        ("and how about the series dark?", "dark", "tv_show"),
        ("what about severance", "severance", None),
        ("e quanto ao filme duna?", "duna", "movie"),
    ],
)
def test_what_about_x_continues_with_x(said: str, title: str, kind: str | None) -> None:
    cont = read_continuation(said)
    assert cont is not None
    assert (cont.title, cont.type) == (title, kind)


async def test_what_about_x_after_saving_the_title_shown_asks_where_again(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("where can I watch the matrix?")
        await lembra.say("cool, save it")
        reply = await lembra.say("what about the series dark?")

    assert "Dark" in reply.text
    assert "JustWatch" in reply.text


@pytest.mark.parametrize(
    "said",
    [
        "ainda não assisti duna, bota ela de volta na lista",
        "i still haven't watched dune, put it back on my list",
        "duna eu não vi não, volta pra lista",
    ],
)
def test_an_unmark_said_as_back_on_the_list(said: str) -> None:
    asked = read(said)
    assert isinstance(asked, MarkRequest)
    assert asked.state == "unseen"
    assert "dun" in asked.title.casefold()


@pytest.mark.parametrize(
    "said",
    ["e eu já assisti o iluminado faz anos, marca aí", "and i already watched heat, mark it"],
)
def test_a_mark_after_and_i_takes_no_subject_into_the_title(said: str) -> None:
    asked = read(said)
    assert isinstance(asked, MarkRequest)
    assert asked.title.split()[0].casefold() not in ("i", "eu")


@pytest.mark.parametrize(
    "said",
    [
        "quais filmes eu já vi e quanto eu dei pra cada um?",
        "what shows have i watched and what did i give them",
    ],
)
def test_a_seen_list_asked_with_what_was_given(said: str) -> None:
    asked = read(said)
    assert isinstance(asked, ListRequest)
    assert asked.state == "done"


async def test_the_ratings_given_are_listed_with_the_seen(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme The Matrix")
        await lembra.say("vi the matrix, nota 7")
        reply = await lembra.say("quais filmes eu já vi e quanto eu dei pra cada um?")

    assert "The Matrix" in reply.text
    assert "7" in reply.text


@pytest.mark.parametrize(
    "said",
    ["guarda mesmo assim", "ok salva assim mesmo que um dia eu assisto", "add it anyway pls"],
)
def test_a_save_anyway_points_at_the_title_shown(said: str) -> None:
    ref = read_reference(said)
    assert ref is not None
    assert (ref.action, ref.target) == ("save", Target("pronoun"))


async def test_a_remark_then_save_anyway_saves_the_title_just_shown(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("onde assistir the matrix?")
        reply = await lembra.say("putz, só comprando. guarda mesmo assim que um dia eu assisto")
        items = await lembra.items()

    assert [i.title for i in items] == ["The Matrix"]
    assert "The Matrix" in reply.text


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("pode apagar ele, não quero mais", "pode apagar ele"),
        ("remove it from my list, i don't need it anymore", "remove it from my list"),
        ("apaga o 3, pq já assisti", "apaga o 3"),
    ],
)
def test_a_reason_after_a_request_is_read_past(said: str, left: str) -> None:
    assert without_asides(said) == left


async def test_a_deletion_with_a_reason_after_it_asks_first(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme The Matrix")
        asked = await lembra.say("então pode apagar ele, não quero mais")
        await lembra.say("sim")
        items = await lembra.items()

    assert "The Matrix" in asked.text
    assert items == []


def test_a_remark_is_parted_from_what_follows_it() -> None:
    assert without_remark("nossa, que caro. guarda mesmo assim") == (
        "nossa, que caro",
        "guarda mesmo assim",
    )
    assert without_remark("guarda mesmo assim") is None


@pytest.mark.parametrize(
    "said",
    [
        "terminei dark, nota 8. e o filme também já assisti",
        "watched dark, 8/10, and the movie too",
    ],
)
def test_the_type_named_too_beside_a_rated_title_is_the_one_in_view(said: str) -> None:
    asked = read(said)
    assert isinstance(asked, MarkRequest)
    assert asked.refs == ("dark", Target("pronoun", 0, "movie"))
    assert asked.each == (("dark", 8),)  # the film gets no rating: none was given for it


async def test_a_rated_title_and_the_film_just_saved_too_are_both_marked(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva a série Dark")
        await lembra.say("salva também o filme The Matrix")
        await lembra.say("terminei dark, nota 8. e o filme também já assisti")
        items = {i.title: (i.state, i.rating) for i in await lembra.items()}

    assert items == {"Dark": ("seen", 8), "The Matrix": ("seen", None)}


@pytest.mark.parametrize(
    "said",
    [
        "tô morta de sono, queria uma série curtinha pra ver no ônibus, qual você indica?",
        "long day at work, want a short movie before bed, which do you recommend?",
    ],
)
def test_a_pick_asked_in_so_many_words_reads_past_a_few_words(said: str) -> None:
    asked = read(said)
    assert isinstance(asked, SuggestRequest)
    assert asked.short


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=160))
def test_the_new_readers_never_raise(said: str) -> None:
    without_remark(said)
    without_asides(said)
    read_where(said)
    read_continuation(said)
    read_reference(said)
    read(said)
