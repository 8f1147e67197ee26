"""A mark whose title is followed by a word or two, or names its number as a digit
(issue 44). A spent blind set had "just watched past lives omg 10/10", "already saw
booksmart tho" and "saw dune 2 in imax" answered "not on your list". The phrasings here
are new ones.
"""

from __future__ import annotations

from storage import Database
from tests.support.harness import Lembra, open_lembra


async def _states(lembra: Lembra) -> dict[str, str]:
    return {i.title or "": i.current_state for i in await lembra.items()}


async def test_words_said_after_the_title_are_no_part_of_it(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva o filme Nomadland")
        await lembra.say("salva o filme Minari")
        reply = await lembra.say("acabei de ver nomadland nossa, nota 9")
        assert "Nomadland" in reply.text
        states = await _states(lembra)
        assert states == {"Nomadland": "seen", "Minari": "to_see"}


async def test_a_number_said_as_a_digit_names_the_spelled_title(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movie Creed II")
        await lembra.say("save the movie Heat")
        reply = await lembra.say("watched creed 2 at the theater")
        assert "Creed II" in reply.text
        assert (await _states(lembra))["Creed II"] == "seen"


async def test_a_shorter_name_two_items_share_marks_neither(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva o filme Alien Romulus")
        await lembra.say("salva o filme Alien Covenant")
        await lembra.say("vi alien uau")
        assert set((await _states(lembra)).values()) == {"to_see"}


async def test_a_mark_asked_again_in_the_same_message_is_read_past(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva o filme Aquarius")
        reply = await lembra.say("esse eu já assisti na real kkk, pode marcar aí, nota 7")
        assert "Aquarius" in reply.text
        (item,) = await lembra.items()
        assert (item.current_state, item.rating) == ("seen", 7)


async def test_both_seen_with_i_forgot_to_mark_marks_both(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Zodiac and Heat")
        await lembra.say("i've seen both actually, just forgot to mark them")
        assert {i.current_state for i in await lembra.items()} == {"seen"}


def test_a_mark_asked_against_what_was_said_is_no_mark() -> None:
    from agent.understanding.watchlist import read_mark

    assert read_mark("esse eu não vi ainda, marca como visto") is None
