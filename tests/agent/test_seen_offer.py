"""A title said seen that is not on the list, what the user said of an item, and where-to-watch
asked short after a where-to-watch answer (issue 44): through `Runtime.handle`, with the
real TMDB client against the fake."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.conversation.offers import takes_seen, yes_rating
from agent.types import Incoming
from agent.understanding.references import Target
from agent.understanding.watchlist import (
    StateQuestion,
    read,
    read_said,
    read_where,
    read_where_after,
)
from storage import Database
from tests.agent.test_watchlist import CATALOGUE, DAY_MS, item
from tests.support.harness import Lembra, open_lembra

PERFECT_DAYS = {
    "id": 976893,
    "title": "Dias Perfeitos",
    "original_title": "Perfect Days",
    "release_date": "2023-11-10",
    "runtime": 124,
    "genres": ["Drama"],
    "providers": {"BR": {"flatrate": ["MUBI"]}, "US": {"flatrate": ["Hulu"]}},
}
THE_BEAR = {
    "id": 136315,
    "name": "The Bear",
    "first_air_date": "2022-06-23",
    "number_of_seasons": 3,
    "genres": ["Comédia", "Drama"],
    "providers": {"BR": {"flatrate": ["Disney Plus"]}, "US": {"flatrate": ["Hulu"]}},
}
WITH_UNSAVED: dict[str, dict[str, list[dict[str, Any]]]] = {
    "movie": {
        **CATALOGUE["movie"],
        "dias perfeitos": [PERFECT_DAYS],
        "perfect days": [PERFECT_DAYS],
    },
    "tv": {**CATALOGUE["tv"], "the bear": [THE_BEAR]},
}
NO_TMDB = "https://api.themoviedb.org/3"  # its public host with no key: "not configured"


@asynccontextmanager
async def watching(db: Database) -> AsyncIterator[Lembra]:
    """A Lembra with Duna, Superbad and Dark saved, whose TMDB also knows titles not saved."""
    async with open_lembra(db, tmdb_results=WITH_UNSAVED) as lembra:
        for message in ("salva o filme duna", "salva o filme superbad", "salva a série dark"):
            await lembra.say(message)
        yield lembra


# -- the readers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "title", "target"),
    [
        ("e aí, o que eu tinha comentado sobre Tenet mesmo? meu pai perguntou", "Tenet", None),
        ("what did i write about Dark back then?", "Dark", None),
        ("hmm, how did i find superbad?", "superbad", None),
        ("vc lembra o que eu disse da série Dark?", "Dark", None),
        ("quanto eu dei pra ela mesmo, de nota?", "", Target("pronoun")),
        ("what did i think of that one lol", "", Target("pronoun")),
        ("o que eu achei do 3?", "", Target("number", 3)),
    ],
)
def test_what_was_said_is_read_by_its_parts(said: str, title: str, target: Target | None) -> None:
    found = read(said)
    assert isinstance(found, StateQuestion)
    assert (found.title, found.opinion, found.target) == (title, True, target)


@pytest.mark.parametrize(
    "said",
    [
        "what did you think of dune?",  # the assistant's opinion, not the user's
        "o que eu achei de duna? e apaga o superbad",  # a request besides the question
        "o que eu achei",  # said of nothing
        "o que eu falei ontem",  # a day is no title
        "qual nota o imdb deu pra duna?",
        "o que eu achei de duna? e onde passa?",  # two questions
        "o que eu falei pro João?",  # said to someone, not of an item
        "what did i say to my boss yesterday?",
    ],
)
def test_what_is_not_certainly_that_question_is_declined(said: str) -> None:
    assert read_said(said) is None


def test_giving_said_without_a_rating_word_is_a_rating_only_of_an_item_of_the_list() -> None:
    asked = read_said("quanto eu dei pro joão?")  # money unless João is an item of the list
    assert asked is not None
    assert asked.anchored


@pytest.mark.parametrize(
    ("said", "title", "target"),
    [
        ("where is the bear on", "the bear", None),
        ("e onde tá o coringa?", "coringa", None),
        ("onde q tá o Tenet mesmo", "Tenet", None),
        ("where's it playing now", "", Target("pronoun")),
        ("where can I stream Dark", "Dark", None),
    ],
)
def test_a_where_question_asked_short_reads_its_object(
    said: str, title: str, target: Target | None
) -> None:
    found = read_where_after(said)
    assert found is not None
    assert (found.title, found.target) == (title, target)


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("onde passa o coringa? minha mãe quer ver hoje", "coringa"),
        ("where can I watch Tenet? my brother keeps talking about it", "Tenet"),
        ("onde passa duna? e salva ele", None),  # a request after the question
        ("where's dune on? when did it come out?", None),  # a second question
    ],
)
def test_a_remark_after_a_where_question_is_read_past_and_a_request_is_not(
    said: str, title: str | None
) -> None:
    found = read_where(said)
    assert (found.title if found is not None else None) == title


@pytest.mark.parametrize(
    ("said", "takes"),
    [
        ("sim", True),
        ("yep, save it as watched", True),
        ("claro, bota na lista como visto", True),
        ("marca como assistido", True),
        ("sim mas nota 7", False),  # a change: not this yes
        ("salva o barbie", False),  # another title
        ("não", False),
        ("", False),
    ],
)
def test_only_a_yes_or_the_save_said_again_takes_the_seen_offer(said: str, takes: bool) -> None:
    assert takes_seen(said) is takes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(max_size=20),
    st.sampled_from(
        [
            "o que eu tinha achado d",
            "what did i say about ",
            "qual nota eu dei pr",
            "where's ",
            "e onde tá ",
            ", ",
            "? ",
        ]
    ),
    st.text(max_size=40),
)
def test_the_new_readers_never_raise(first: str, shape: str, last: str) -> None:
    said = first + shape + last
    read_said(said)
    read_where_after(said)
    takes_seen(said)
    read(said)


# -- a seen title that is not on the list ----------------------------------------------------


async def test_a_seen_title_off_the_list_is_offered_and_saved_seen_on_the_yes(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        before = len(await lembra.items())
        asked = await lembra.say("vi dias perfeitos anteontem, nota 9")
        assert "Dias Perfeitos (2023)" in asked.text
        assert "nota 9" in asked.text
        assert asked.choice_kind == "confirm"
        assert len(await lembra.items()) == before  # a question: nothing saved yet

        saved = await lembra.say("isso, pode salvar como visto")

        assert "Dias Perfeitos (2023)" in saved.text
        assert "9/10" in saved.text
        days = await item(lembra, "Dias Perfeitos")
        assert (days.type, days.current_state, days.rating, days.tmdb_id) == (
            "movie",
            "seen",
            9,
            976893,
        )
        assert days.state_at_ms == lembra.clock.ms() - 2 * DAY_MS
        rating = await lembra.say("e que nota eu tinha dado pra ele?")
        assert "9/10" in rating.text
        assert "Dias Perfeitos" in rating.text


async def test_a_show_seen_off_the_list_is_saved_as_a_show_with_what_was_said(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        asked = await lembra.say("finished the bear last night, 10/10")
        assert "The Bear (2022) isn't on your list" in asked.text
        await lembra.press(0, token=asked.choice_token)  # the "Save as seen" button
        bear = await item(lembra, "The Bear")
        assert (bear.type, bear.current_state, bear.rating) == ("tv_show", "seen", 10)
        said = await lembra.say("what did i rate the bear?")
        assert "10/10" in said.text


async def test_no_saves_nothing_and_the_undo_takes_the_save_back(db: Database) -> None:
    async with watching(db) as lembra:
        before = await lembra.items()
        await lembra.say("ontem vi dias perfeitos")
        declined = await lembra.say("não")
        assert "não salvei" in declined.text.lower()
        assert await lembra.items() == before

        await lembra.say("ontem vi dias perfeitos")
        await lembra.say("sim")
        assert len(await lembra.items()) == len(before) + 1
        await lembra.say("desfaz")
        assert [i.title for i in await lembra.items()] == [i.title for i in before]


async def test_a_new_message_lets_the_offer_lapse_and_saves_nothing(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("i watched perfect days yesterday")
        listed = await lembra.say("what's left to watch?")
        assert "Duna" in listed.text
        late = await lembra.say("yes")
        assert "Dias Perfeitos" not in late.text
        assert [i for i in await lembra.items() if i.title == "Dias Perfeitos"] == []


async def test_the_yes_driven_twice_saves_once(db: Database) -> None:
    async with watching(db) as lembra:
        user = "tg:7001"

        def update(n: int, said: str) -> Incoming:
            return Incoming(
                channel="telegram", chat_id="7001", user_id=user, text=said, update_id=f"tg:{n}"
            )

        await lembra.handle(update(1, "vi dias perfeitos, nota 8"))
        first = await lembra.handle(update(2, "sim"))
        again = await lembra.handle(update(2, "sim"))  # the channel delivers it again
        assert "Dias Perfeitos" in first.text
        assert "Dias Perfeitos" in again.text
        kept = [i for i in await lembra.items(user) if i.title == "Dias Perfeitos"]
        assert len(kept) == 1


async def test_without_tmdb_only_a_typed_title_is_offered(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        unsure = await lembra.say("vi perfect days ontem, nota 9")
        assert "nada foi marcado" in unsure.text
        asked = await lembra.say("vi o filme perfect days ontem, nota 9")
        assert "perfect days" in asked.text
        await lembra.say("pode sim")
        days = next(i for i in await lembra.items() if i.title == "perfect days")
        assert (days.type, days.current_state, days.rating) == ("movie", "seen", 9)


async def test_without_tmdb_two_titles_joined_are_never_offered_as_one(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        said = await lembra.say("watched the movies heat and ronin last night")
        assert "heat and ronin" not in said.text.lower()
        await lembra.say("yes")
        assert await lembra.items() == []


# -- what the user said, and where-to-watch asked short -------------------------------------


async def test_what_was_said_of_the_item_just_talked_about_and_of_a_title_off_the_list(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        await lembra.say("assisti o tenet ontem, nota 6")
        await lembra.say("já vi dark, nota 10")
        said = await lembra.say("mas qual nota eu dei pra ele mesmo? esqueci")
        assert "10/10" in said.text
        assert "Dark" in said.text
        before = len(lembra.requests)
        missing = await lembra.say("o que eu tinha achado de perfect days?")
        assert "não está na sua lista" in missing.text
        assert len(lembra.requests) == before  # never a TMDB lookup


async def test_where_asked_short_after_a_where_answer_asks_it_of_that_title(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        await lembra.say("where can i stream dune?")
        reply = await lembra.say("and where's the bear?")
        assert "The Bear" in reply.text
        assert "Hulu" in reply.text


async def test_what_was_felt_after_the_rating_is_kept_with_the_offered_save(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("vi o filme Duna ontem, nota 8, chorei muito")
        await lembra.say("pode salvar")
        said = await lembra.say("o que eu achei de Duna?")
        assert "8/10" in said.text
        assert "chorei muito" in said.text


async def test_when_and_with_whom_after_a_title_off_the_list_are_no_part_of_it(
    db: Database,
) -> None:
    # issue 44: "i watched sinners last weekend" looked up «sinners last weekend»
    async with watching(db) as lembra:
        asked = await lembra.say("watched perfect days over the holidays with my mom, 8/10")
        assert "Perfect Days" in asked.text or "Dias Perfeitos" in asked.text
        assert asked.choice_kind == "confirm"
        await lembra.say("sure, go ahead")
        days = await item(lembra, "Dias Perfeitos")
        assert (days.current_state, days.rating) == ("seen", 8)


async def test_a_short_remark_after_the_rating_is_kept_and_answered_later(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("vi superbad ontem, nota 7, trilha sonora impecável")
        said = await lembra.say("o que eu achei do superbad?")
        assert "trilha sonora impecável" in said.text


async def test_that_one_after_a_where_answer_off_the_list_is_offered_as_seen(
    db: Database,
) -> None:
    # issue 44: "ja vi esse, nota 9" after "onde passa o urso?" (not saved) went nowhere
    async with watching(db) as lembra:
        await lembra.say("onde passa dias perfeitos?")
        asked = await lembra.say("hmm mas esse eu já assisti, 9/10")
        assert "Dias Perfeitos (2023)" in asked.text
        assert asked.choice_kind == "confirm"
        await lembra.say("isso, pode salvar")
        days = await item(lembra, "Dias Perfeitos")
        assert (days.current_state, days.rating) == ("seen", 9)


async def test_it_after_a_where_answer_is_saved_where_the_user_says(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("where can i watch the bear?")
        saved = await lembra.say("nice, put it on my shows list")
        assert "The Bear" in saved.text
        bear = await item(lembra, "The Bear")
        assert (bear.type, bear.current_state) == ("tv_show", "to_see")


async def test_a_slip_in_a_title_off_the_list_is_offered_as_tmdb_spells_it(db: Database) -> None:
    # issue 44: "ontem vi openheimer, nota 9" found nothing; the offer names TMDB's title,
    # so the user sees what was understood before saying yes
    slipped = {
        "movie": {**WITH_UNSAVED["movie"], "dias perfeitso": [PERFECT_DAYS]},
        "tv": WITH_UNSAVED["tv"],
    }
    async with open_lembra(db, tmdb_results=slipped) as lembra:
        asked = await lembra.say("anteontem vi dias perfeitso, nota 8")
        assert "Dias Perfeitos (2023)" in asked.text
        await lembra.say("pode sim")
        days = await item(lembra, "Dias Perfeitos")
        assert (days.current_state, days.rating) == ("seen", 8)
        assert days.state_at_ms == lembra.clock.ms() - 2 * DAY_MS


async def test_a_yes_that_gives_the_rating_saves_it_with_that_rating(db: Database) -> None:
    # issue 44 (blind wave-11): "sim pode salvar, nota 10 pra ele" saved a note «10 pra ele»
    async with watching(db) as lembra:
        await lembra.say("ontem vi dias perfeitos, que lindo")
        saved = await lembra.say("pode sim, dei 9 pra ele")
        assert "Dias Perfeitos" in saved.text
        assert "9/10" in saved.text
        rated = [i for i in await lembra.items() if i.title == "Dias Perfeitos"]
        assert [(i.done, i.rating) for i in rated] == [(True, 9)]
        assert not [i for i in await lembra.items() if i.type == "note"]


def test_a_yes_with_two_ratings_or_another_title_is_not_this_yes() -> None:
    assert takes_seen("yes, 7/10")
    assert yes_rating("yes, 7/10") == 7
    assert not takes_seen("sim, nota 8 e nota 9")
    assert not takes_seen("sim, e salva o duna nota 8")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_the_yes_readers_never_raise(text: str) -> None:
    takes_seen(text)
    yes_rating(text)
    yes_rating("sim, nota " + text)
