"""A correction of what was just saved, in words (issue 41): the title said alone after a
correcting lead ("na verdade é X, me confundi"), a line of the list and the title it should
have ("the second one should be X, not Y"), and a note's value changed through a demonstrative
with a reason after it ("muda essa senha pra X, trocaram"). The item keeps its type; an
opinion, a time or a type is no title."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.facts import changed_value
from agent.understanding.references import read_reference
from storage import Database
from tests.support.harness import open_lembra


async def test_a_title_said_instead_replaces_the_one_just_saved_keeping_its_type(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva a série Dark")
        reply = await lembra.say("opa, na real é Barbarians, troquei os nomes")
        assert "Barbarians" in reply.text
        (item,) = await lembra.items()
        assert (item.type, item.title) == ("tv_show", "Barbarians")


async def test_in_english_i_meant_renames_the_movie_just_saved(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("save the movie Contact")
        await lembra.say("sorry, I meant Arrival")
        (item,) = await lembra.items()
        assert (item.type, item.title) == ("movie", "Arrival")


async def test_an_opinion_or_a_time_after_a_save_renames_nothing(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Aftersun")
        await lembra.say("na verdade é ótimo")
        await lembra.say("me lembra amanhã às 9h de ligar pra Ana")
        await lembra.say("na verdade é 10h")
        (item,) = await lembra.items()
        assert item.title == "Aftersun"


async def test_a_line_of_the_list_gets_the_title_it_should_have(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva os filmes Tár, Her e Carol")
        reply = await lembra.say("o terceiro devia ser Todd, não Carol")
        assert "Todd" in reply.text
        titles = sorted(i.title or "" for i in await lembra.items())
        assert titles == ["Her", "Todd", "Tár"]


async def test_a_notes_value_changed_through_a_demonstrative_with_a_reason(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("note: locker code at the gym is 5521")
        await lembra.say("note: buy oat milk")
        await lembra.say("change this code to 7710, they reset the lockers")
        contents = sorted(i.content or "" for i in await lembra.items())
        assert contents == ["buy oat milk", "locker code at the gym is 7710"]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(
        ["na verdade é ", "actually it's ", "o segundo devia ser ", "muda essa senha pra "]
    ),
    st.text(max_size=60),
)
def test_the_correction_readers_never_raise(lead: str, rest: str) -> None:
    read_reference(lead + rest)
    changed_value(lead + rest)


def test_a_sentence_after_a_lead_is_no_title() -> None:
    for said in (
        "No Netflix tem",
        "opa Pedro chegou",
        "ih Marina ligou agora",
        "na verdade é ótimo",
    ):
        assert read_reference(said) is None, said
    assert read_reference("ops, Heat") is not None


async def test_a_sentence_or_a_denial_after_a_save_renames_nothing(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("save the movie Gravity")
        await lembra.say("actually it's on Prime now, not Hulu")
        await lembra.say("oops, Gravity was amazing")
        await lembra.say("salva o filme Coringa")
        await lembra.say("na real não é Coringa, é Batman")
        titles = sorted(i.title or "" for i in await lembra.items())
        assert titles == ["Coringa", "Gravity"]


async def test_a_line_said_to_replace_a_title_it_does_not_have_stays(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva os filmes Tár e Carol")
        await lembra.say("lista meus filmes")
        await lembra.say("o primeiro devia ser Todd, não Her")
        await lembra.say("actually it's Arrival, not Contact")
        titles = sorted(i.title or "" for i in await lembra.items())
        assert titles == ["Carol", "Tár"]


async def test_the_title_it_replaces_named_after_the_new_one_renames(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("save the movie Contact")
        await lembra.say("actually it's Arrival, not Contact")
        (item,) = await lembra.items()
        assert item.title == "Arrival"


async def test_a_typing_slip_owned_then_the_title_renames_the_item_just_saved(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota a série Sucession")
        await lembra.say("haha digitei errado, é Succession")
        await lembra.say("save the movie Whiplsh")
        await lembra.say("typo lol, it's Whiplash")
        titles = sorted((i.type, i.title) for i in await lembra.items())
        assert titles == [("movie", "Whiplash"), ("tv_show", "Succession")]
