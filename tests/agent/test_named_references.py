"""One resolution of references to what was just named (issue 41): "salva ele", "save the
first one", "e a segunda tb" point at the titles the last reply or the user's own last message
named off the list; a pronoun, an ordinal or "both" picks among them, and anything the
reference does not pick for sure is left to the planner (nothing saved, no guess)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.references import Reference, Target, named_titles, read_reference
from agent.understanding.reminders.asks import CancelAsk, read_ask
from agent.understanding.watchlist import said_rating
from storage import Database
from tests.support.harness import open_lembra

NO_TMDB = "https://api.themoviedb.org/3"

_WORDS = st.sampled_from(
    "salva guarda add save put it ele ela esse essa os dois both the first one segunda o 2 "
    "tb too , é filme it's a movie série pra eu ver later . ? two films filmes Dark e and "
    "Ruptura The Bear: o filme a série that one was an 8 foi um 7 manda de novo again como "
    "as a filmes shows nota pra depois dps for later mais tarde".split()
)
_TEXT = st.one_of(st.text(max_size=100), st.lists(_WORDS, max_size=16).map(" ".join))


@given(_TEXT)
def test_the_reference_readers_never_raise_whatever_the_text(text: str) -> None:
    read_reference(text)
    named_titles(text)
    said_rating(text)
    read_ask(text)


def test_a_save_reads_what_it_points_at_and_the_type_said_after_it() -> None:
    assert read_reference("beleza, guarda ela pra mim") == Reference("save", Target("pronoun"))
    assert read_reference("put that one on my list, it's a show") == Reference(
        "save", Target("pronoun", 0, "tv_show")
    )
    assert read_reference("pode salvar a terceira") == Reference("save", Target("ordinal", 3))
    assert read_reference("guarda os dois") == Reference("save", Target("both", 2))
    # a question saves nothing; a number is a title as likely as a line; a title is no reference
    assert read_reference("salvo ela?") is None
    assert read_reference("salva o 1917") is None
    assert read_reference("salva Gravidade") is None


def test_a_save_reads_a_purpose_and_a_type_said_after_what_it_points_at() -> None:
    # "pra depois" is what the save is for, "como série" the type: neither is a title
    assert read_reference("bota ela pra mais tarde") == Reference("save", Target("pronoun"))
    assert read_reference("adiciona as duas como séries") == Reference(
        "save", Target("both", 2, "tv_show")
    )
    assert read_reference("put it on the list as a movie") == Reference(
        "save", Target("pronoun", 0, "movie")
    )
    assert read_reference("salva como filme o Ronin") is None


def test_titles_are_named_only_where_they_are_written_as_titles() -> None:
    assert named_titles("um amigo indicou três filmes: Heat, Ronin e Collateral") == (
        ("movie", "Heat"),
        ("movie", "Ronin"),
        ("movie", "Collateral"),
    )
    assert named_titles("quem fez a série Black Mirror?") == (("tv_show", "Black Mirror"),)
    # a sentence running on after the noun names nothing for sure
    assert named_titles("the movie Heat was long and boring") == ()
    assert named_titles("vi um filme muito bom ontem") == ()


def test_a_demonstrative_points_at_a_reminder_as_the_article_does() -> None:
    assert read_ask("cancela aquela da academia") == CancelAsk(query="academia")


async def test_a_save_picks_among_the_titles_the_same_message_named(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        second = await lembra.say(
            "minha irmã falou de duas séries, Dark e Ruptura. salva a segunda"
        )
        first = await lembra.say("e a primeira também")
        items = await lembra.items()
    assert "Ruptura" in second.text
    assert "Dark" in first.text
    assert sorted((i.type, i.title) for i in items) == [("tv_show", "Dark"), ("tv_show", "Ruptura")]


async def test_an_ordinal_past_the_titles_named_saves_nothing(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("a friend told me about two movies, Heat and Ronin. save the third one")
        assert await lembra.items() == []


async def test_a_save_after_a_question_takes_the_title_the_question_named(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("quem fez o filme Aquarius?")
        saved = await lembra.say("então guarda ele pra eu ver depois")
        items = await lembra.items()
    assert "Aquarius" in saved.text
    assert [(i.type, i.title) for i in items] == [("movie", "Aquarius")]


async def test_a_search_that_found_nothing_names_its_title_for_the_next_save(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("anota: comprar pão")
        await lembra.say("procura Moonlight")
        untyped = await lembra.say("salva ele")  # no type said or known: not guessed
        assert [i.title for i in await lembra.items() if i.type != "note"] == []
        typed = await lembra.say("add it, it's a show")
        items = [(i.type, i.title) for i in await lembra.items() if i.type != "note"]
    assert not untyped.text.startswith("✅")
    assert "Moonlight" in typed.text
    assert items == [("tv_show", "Moonlight")]


async def test_a_mark_carried_to_the_next_line_keeps_the_rating_said_of_it(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva os filmes Heat e Ronin")
        await lembra.say("lista meus filmes")
        await lembra.say("vi o primeiro, nota 9")
        await lembra.say("e o próximo tb, esse foi um 6")
        rated = {i.title: (i.done, i.rating) for i in await lembra.items()}
    assert rated == {"Heat": (True, 9), "Ronin": (True, 6)}


async def test_send_it_again_shows_the_note_just_saved(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("anota: código do portão 4471")
        again = await lembra.say("me manda essa nota de novo")
    assert "4471" in again.text


async def test_the_other_one_is_the_title_named_that_is_not_saved_yet(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say(
            "my cousin mentioned two shows: Severance and Slow Horses. add the first one"
        )
        other = await lembra.say("and the other one too")
        items = sorted((i.type, i.title) for i in await lembra.items())
    assert "Slow Horses" in other.text
    assert items == [("tv_show", "Severance"), ("tv_show", "Slow Horses")]


async def test_a_question_naming_a_title_keeps_the_save_a_continuation_carries(
    db: Database,
) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Heat")
        await lembra.say("quem dirigiu o filme Ronin?")
        carried = await lembra.say("e o filme Collateral tb")
        titles = sorted(i.title or "" for i in await lembra.items())
    assert "Collateral" in carried.text
    assert titles == ["Collateral", "Heat"]


async def test_titles_named_count_only_for_the_next_message(db: Database) -> None:
    # a reply about something else in between: "guarda isso" no longer means the series
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("quem criou a série Dark?")
        await lembra.say("meus lembretes")
        await lembra.say("guarda isso")
        titles = [i.title for i in await lembra.items()]
    assert "Dark" not in titles


async def test_titles_named_just_before_are_saved_as_the_type_said(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("um colega falou bem de duas séries: Dark e Severance")
        await lembra.say("adiciona as duas como séries pra depois")
        items = await lembra.items()
    assert sorted((i.type, i.title) for i in items) == [
        ("tv_show", "Dark"),
        ("tv_show", "Severance"),
    ]


async def test_a_link_search_that_found_nothing_names_nothing_to_save(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("tenho algum link sobre receita de bolo?")
        await lembra.say("guarda isso")
        assert await lembra.items() == []


async def test_save_that_after_an_offer_to_keep_the_message_keeps_the_message(
    db: Database,
) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("quem fez a série Dark?")
        await lembra.say("a senha do wifi da casa da vó é girafa123")  # offered as a note
        await lembra.say("guarda isso então")
        items = [(i.type, i.content) for i in await lembra.items()]
    assert items == [("note", "a senha do wifi da casa da vó é girafa123")]
