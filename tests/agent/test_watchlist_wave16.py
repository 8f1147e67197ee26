"""Watchlist turns the wave-15 blind run missed (issue 44), in phrasings of our own: two
ratings and nothing else in one message, "both" after an approval word, a title seen "for
the first time" that is not on the list, the item pointed at by when it was saved, a rating
added to what was seen (its seen day kept), and where to watch asked after a remark.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.watchlist import MarkRequest, WhereRequest, newest_saved, read
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra


def _movie(id_: int, title: str, year: str, providers: dict[str, Any] | None = None) -> dict:
    found: dict[str, Any] = {"id": id_, "title": title, "release_date": f"{year}-05-01"}
    if providers is not None:
        found["providers"] = providers
    return found


CATALOGUE: dict[str, dict[str, list[dict[str, Any]]]] = {
    "movie": {
        "tar": [_movie(817758, "Tár", "2022")],
        "nope": [_movie(762504, "Nope", "2022")],
        "midsommar": [_movie(530385, "Midsommar", "2019")],
        "whiplash": [_movie(244786, "Whiplash", "2014")],
        "the thing": [_movie(1091, "The Thing", "1982")],
    },
    "tv": {
        "the wire": [
            {
                "id": 1438,
                "name": "The Wire",
                "first_air_date": "2002-06-02",
                "providers": {"BR": {"flatrate": ["Max"]}, "US": {"flatrate": ["Max"]}},
            }
        ],
    },
}


async def _marks(lembra: Lembra) -> dict[str, tuple[str, int | None]]:
    return {i.title or "": (i.current_state, i.rating) for i in await lembra.items()}


# -- readers ----------------------------------------------------------------------------------


def test_two_titles_each_with_a_rating_and_nothing_else_mark_both() -> None:
    asked = read("tár 8/10 e o midsommar nota 6")
    assert isinstance(asked, MarkRequest)
    assert (asked.state, asked.refs, asked.each) == (
        "seen",
        ("tár", "midsommar"),
        (("tar", 8), ("midsommar", 6)),
    )


def test_ratings_said_with_words_of_the_users_own_are_not_titles() -> None:
    assert read("eu achei o nope nota 5 e do tar nota 9") is None


def test_a_pointer_by_when_it_was_saved_is_no_title() -> None:
    assert newest_saved("o último filme que eu coloquei") == "movie"
    assert newest_saved("the one i just saved") == "any"
    assert newest_saved("the last of us") is None
    assert newest_saved("o último") is None  # a line of the list, read as one


def test_a_first_time_is_no_part_of_the_title() -> None:
    asked = read("finally watched nope for the very first time, 7/10")
    assert isinstance(asked, MarkRequest)
    assert (asked.title, asked.rating) == ("nope", 7)


def test_where_to_watch_asked_of_a_title_then_a_short_question() -> None:
    asked = read("e the wire, tem onde?")
    assert isinstance(asked, WhereRequest)
    assert asked.title == "the wire"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_the_new_readers_never_raise(said: str) -> None:
    newest_saved(said)
    read(said + " nota 7 e " + said + " nota 8")


# -- whole turns --------------------------------------------------------------------------------


async def test_two_ratings_alone_mark_both_and_keep_the_day_they_were_seen(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("salva os filmes tar e nope")
        await lembra.say("beleza, assisti os dois ontem")
        seen_days = {i.title: i.state_at_ms for i in await lembra.items()}
        await lembra.say("nope 7/10, tar nota 9")
        assert await _marks(lembra) == {"Tár": ("seen", 9), "Nope": ("seen", 7)}
        assert {i.title: i.state_at_ms for i in await lembra.items()} == seen_days
        reply = await lembra.say("que nota eu dei pro tar?")
        assert "9/10" in reply.text


async def test_ratings_of_a_title_not_on_the_list_change_nothing_in_code(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("save the movie nope")
        await lembra.say("nope 6/10 and whiplash 9/10")
        assert await _marks(lembra) == {"Nope": ("to_see", None)}


async def test_both_after_an_approval_word_marks_the_two_just_saved(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("add the movies midsommar and whiplash")
        await lembra.say("alright, saw both over the holidays")
        assert {s for s, _ in (await _marks(lembra)).values()} == {"seen"}


async def test_a_first_watch_off_the_list_is_offered_then_saved_seen(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        offer = await lembra.say("watched whiplash for the first time last night, 10/10")
        assert "Whiplash" in offer.text
        assert await lembra.items() == []  # a question first, nothing saved
        await lembra.say("yes please")
        assert await _marks(lembra) == {"Whiplash": ("seen", 10)}


async def test_the_newest_saved_is_the_one_marked(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("salva o filme midsommar")
        await lembra.say("salva o filme the thing")
        await lembra.say("anota: comprar pipoca")
        reply = await lembra.say("o último filme que eu salvei eu já assisti, nota 8")
        assert "The Thing" in reply.text
        assert (await _marks(lembra))["The Thing"] == ("seen", 8)
        assert (await _marks(lembra))["Midsommar"] == ("to_see", None)


async def test_where_to_watch_after_a_remark_that_asks_nothing(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        reply = await lembra.say("tô sem nada pra fazer hoje. e the wire, tem onde?")
        assert "Max" in reply.text
        assert await lembra.items() == []


async def test_an_article_left_of_an_unknown_title_names_no_item(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva a série o urso")
        reply = await lembra.say("ontem vi o poderoso chefão, que filmaço")
        assert "Urso" not in reply.text
        assert {s for s, _ in (await _marks(lembra)).values()} == {"to_see"}


async def test_a_reminder_to_watch_it_names_the_pick_in_focus(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva o filme Aftersun")
        reply = await lembra.say("show, me lembra de assistir ele amanhã às 21h")
        assert "Aftersun" in reply.text
        (reminder,) = await lembra.db.reminders.open_for(ALICE)
        assert "Aftersun" in reminder.text


async def test_one_film_named_after_a_save_keeps_the_e_of_its_title(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva a série Dark")
        await lembra.say("e o filme o menino e a garça")
        titles = {(i.type, i.title) for i in await lembra.items()}
        assert ("movie", "o menino e a garça") in titles
        assert len(titles) == 2


async def test_a_second_type_word_still_names_two_items(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva o filme Heat")
        await lembra.say("e o filme Ronin e a série Dark")
        assert not any(" e a série" in (i.title or "") for i in await lembra.items())


async def test_a_deletion_with_a_remark_after_the_name_previews_the_name(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movie Parasite")
        await lembra.say("save the movie Heat")
        preview = await lembra.say("delete parasite, we watched it at my cousin's place")
        assert "Parasite" in preview.text
        assert len(await lembra.items()) == 2  # nothing goes before the yes
        await lembra.say("yes")
        assert [i.title for i in await lembra.items()] == ["Heat"]


async def test_what_a_film_is_saved_for_before_its_colon_is_no_title(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("anota aí filme pra ver depois: Aftersun")
        assert [(i.type, i.title) for i in await lembra.items()] == [("movie", "Aftersun")]


def test_ratings_said_before_their_titles_mark_each() -> None:
    asked = read("dei 6 pro nope e 10 pro whiplash")
    assert isinstance(asked, MarkRequest)
    assert asked.each == (("nope", 6), ("whiplash", 10))
    assert read("toy story 3 e shrek 2") is None  # a number after a title may be its own


async def test_ratings_before_titles_rate_what_was_saved(db: Database) -> None:
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("add the movies nope and whiplash")
        await lembra.say("a 6 for nope and a 10 for whiplash")
        assert await _marks(lembra) == {"Nope": ("seen", 6), "Whiplash": ("seen", 10)}


async def test_ratings_said_by_place_go_to_each_title_in_order(db: Database) -> None:
    # one rating said for all would give both the first number
    async with open_lembra(db, tmdb_results=CATALOGUE) as lembra:
        await lembra.say("salva os filmes tar, nope e midsommar")
        await lembra.say("tar e midsommar eu já assisti, o primeiro nota 9 e o segundo 5")
        assert (await _marks(lembra))["Tár"] == ("seen", 9)
        assert (await _marks(lembra))["Midsommar"] == ("seen", 5)
        assert (await _marks(lembra))["Nope"] == ("to_see", None)


@given(st.text(max_size=120))
@settings(max_examples=150, deadline=None)
def test_the_ratings_by_place_reader_never_raises(said: str) -> None:
    from types import SimpleNamespace

    from agent.conversation.watching import _ratings_by_place

    items = [SimpleNamespace(id="a"), SimpleNamespace(id="b")]
    ratings = _ratings_by_place(said, items)  # type: ignore[arg-type]
    assert ratings == {} or set(ratings) == {"a", "b"}


def test_a_title_chosen_before_a_where_question_is_its_title() -> None:
    for said, title in (
        ("blz, vou de Tár mesmo, onde passa?", "Tár"),
        ("ok i'll go with nope then, where can i stream it?", "nope"),
    ):
        asked = read(said)
        assert isinstance(asked, WhereRequest)
        assert asked.title == title
    assert read("comprei pipoca, onde passa?") is None  # a remark names no title
