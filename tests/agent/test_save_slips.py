"""A save with one slip in its verb and type noun ("sav the seris X", "salva o filem X") is
that save, typed; a continuation naming which year ("e o filme X, o de 2019") saves the
title with that year. A word one edit from a save verb but another word ("have") is not one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.chatter import without_asides
from agent.understanding.continuations import title_and_year
from agent.understanding.vocabulary import plain_save_head
from storage import Database
from tests.support.harness import open_lembra


async def test_a_save_with_slips_in_verb_and_noun_saves_the_typed_title(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("svae the movei Past Lives")
        await lembra.say("salva a seriee Succession")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [("movie", "Past Lives"), ("tv_show", "Succession")]


async def test_a_continuation_naming_the_year_saves_it_with_that_year(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Duna")
        await lembra.say("e o filme Suspiria, o de 2018")
        await lembra.say("and the movie Solaris (1972)")
        dated = sorted((i.title, i.year) for i in await lembra.items() if i.year)
        assert dated == [("Solaris", 1972), ("Suspiria", 2018)]


def test_other_words_near_a_save_verb_stay_as_written() -> None:
    assert plain_save_head("have the series ended?") == "have the series ended?"
    assert plain_save_head("safe the movie Heat") == "safe the movie Heat"  # a word of its own
    assert plain_save_head("salva o filme Duna") == "salva o filme Duna"


def test_a_word_said_twice_after_the_verb_opens_the_title_and_is_kept() -> None:
    assert plain_save_head("salva a série la la lua e dark") == "salva a série la la lua e dark"
    assert plain_save_head("salva tb a série Dark") == "salva a serie Dark"


async def test_a_save_verb_in_the_past_saves_nothing_with_the_words_after_it(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("stored the movie Tenet two days ago")
        await lembra.say("anotei a série Severance semana passada")
        await lembra.say("já coloquei o filme Aftersun hoje cedo")
        await lembra.say("adding the show Severance later")
        titled = [i.title for i in await lembra.items() if i.type in ("movie", "tv_show")]
        assert titled == []


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_the_slip_readers_never_raise(text: str) -> None:
    plain_save_head(text)
    plain_save_head("sav the " + text)
    title_and_year(text)
    title_and_year(text + ", the 2024 one")


async def test_a_save_after_now_is_that_save_and_agora_sim_confirms_nothing(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("ufa, agora guarda o filme Aftersun")
        await lembra.say("and now save the show Slow Horses")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [("movie", "Aftersun"), ("tv_show", "Slow Horses")]
        assert without_asides("agora sim") == "agora sim"


async def test_a_save_said_among_fillers_and_slips_saves_what_it_names(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("porém guarda tb a série Mindhunter pra ver dps")
        await lembra.say("hey could u add thse movies pls: Alien, Aliens and Prometheus")
        await lembra.say("anotaa aí a série Fargo")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [
            ("movie", "Alien"),
            ("movie", "Aliens"),
            ("movie", "Prometheus"),
            ("tv_show", "Fargo"),
            ("tv_show", "Mindhunter"),
        ]


async def test_a_type_word_and_a_title_alone_save_it_without_tmdb(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as lembra:
        await lembra.say("série Mare of Easttown")
        await lembra.say("filme do Nolan")  # a description, no title: nothing saved
        await lembra.say("movie night tomorrow")
        saved = sorted((i.type, i.title) for i in await lembra.items())
        assert saved == [("tv_show", "Mare of Easttown")]
