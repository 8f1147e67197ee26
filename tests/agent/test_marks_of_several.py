"""A mark whose object is a set of references, or that continues the last mark (issue 44).
A spent blind set had "o primeiro e o ultimo eu ja vi", "desses ja vi A, B e C", "e o X
tb, mas esse so nota 6", "and X too, no score" and "mark it as not seen" after a reason
answered "nothing was saved". The phrasings here are new ones, through the real runtime.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.references import Target
from agent.understanding.watchlist import MarkRequest, read, read_mark_clauses
from storage import Database
from tests.support.harness import Lembra, open_lembra


async def _states(lembra: Lembra) -> dict[str, tuple[str, int | None]]:
    return {i.title or "": (i.current_state, i.rating) for i in await lembra.items()}


async def test_lines_named_by_position_are_each_marked_in_one_reply(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun, Tár e Nope")
        await lembra.say("lista meus filmes")
        reply = await lembra.say("o segundo e o último eu já assisti")
        assert "Tár" in reply.text
        assert "Nope" in reply.text
        states = await _states(lembra)
        assert states["Tár"][0] == states["Nope"][0] == "seen"
        assert states["Aftersun"][0] == "to_see"
        await lembra.say("desfaz")  # one undo puts both back
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


async def test_several_titles_of_the_list_after_those_are_marked(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat, Ronin and Collateral")
        reply = await lembra.say("of those, i've watched heat, ronin and collateral already")
        assert all(t in reply.text for t in ("Heat", "Ronin", "Collateral"))
        assert {s for s, _ in (await _states(lembra)).values()} == {"seen"}


async def test_a_title_off_the_list_among_several_marks_none(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun e Nope")
        await lembra.say("desses já vi aftersun, nope e casablanca")
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


async def test_a_continuation_carries_the_mark_with_its_own_rating(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun e Nope")
        await lembra.say("vi aftersun ontem, nota 9")
        reply = await lembra.say("e o nope tb, mas esse eu daria uns 7")
        assert "Nope" in reply.text
        states = await _states(lembra)
        assert states == {"Aftersun": ("seen", 9), "Nope": ("seen", 7)}


async def test_a_continuation_without_a_score_keeps_none(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat and Ronin")
        await lembra.say("watched heat, 8/10")
        await lembra.say("ronin as well, no rating, fell asleep halfway lol")
        states = await _states(lembra)
        assert states["Heat"] == ("seen", 8)
        assert states["Ronin"] == ("seen", None)


async def test_a_continuation_after_a_save_is_no_mark(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva o filme Aftersun")
        await lembra.say("e o filme Nope tb")
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


async def test_unmark_with_a_pronoun_after_a_reason_unmarks_the_one_just_marked(
    db: Database,
) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat and Ronin")
        await lembra.say("i've seen heat")
        reply = await lembra.say("hmm sorry, i mixed it up with a de niro one. set it to unwatched")
        assert "Heat" in reply.text
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


async def test_a_hedged_rating_is_the_users_number(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat and Ronin")
        await lembra.say("i saw ronin years ago, 6/10 i guess, the car chase is wild")
        assert (await _states(lembra))["Ronin"] == ("seen", 6)


async def test_this_one_after_a_suggestion_is_its_top_pick(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun e Nope")
        suggested = await lembra.say("o que eu vejo hoje?")
        top = suggested.text.splitlines()[1].split(". ", 1)[1].split(" —")[0]
        await lembra.say("esse eu já vi na real, pode marcar, nota 8")
        assert (await _states(lembra))[top.split(" (")[0]] == ("seen", 8)


def test_the_reader_names_positions_titles_and_continuations() -> None:
    first_last = read("a primeira e a última eu já vi")
    assert isinstance(first_last, MarkRequest)
    assert first_last.refs == (Target("ordinal", 1), Target("ordinal", -1))
    listed = read_mark_clauses("desses vi heat, ronin e collateral")
    assert listed is not None
    assert listed.refs == ("heat", "ronin", "collateral")
    carried = read_mark_clauses("collateral too, i'd say 9")
    assert carried is not None
    assert (carried.carried, carried.rating) == (True, 9)
    assert read_mark_clauses("vi heat, salva o ronin") is None  # a second request
    assert read_mark_clauses("vi heat? ronin e collateral") is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_the_clause_reader_never_raises(text: str) -> None:
    read_mark_clauses(text)
    read(text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            "e , o a primeiro último 2 vi já tb too nota 8 /10 no score esse it mark as not "
            "seen desmarca and heat kkk . i think".split()
        ),
        max_size=14,
    )
)
def test_the_clause_reader_never_raises_on_its_own_words(words: list[str]) -> None:
    read_mark_clauses(" ".join(words))


# -- the planner's mark_item with a list ------------------------------------------------------

BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}


def _marking(args: dict[str, object]) -> dict[str, object]:
    return {
        "action": "CALL_TOOL",
        "tool": "mark_item",
        "args": args,
        "message": None,
        "belief": BELIEF,
    }


async def test_the_planner_marks_several_names_in_one_call_and_one_undo(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}, counting_model=True) as lembra:
        await lembra.say("save the movies Heat, Ronin and Collateral")
        step = _marking({"query": ["heat", "collateral"], "state": "seen", "rating": 8})
        reply = await lembra.say("honestly heat and collateral are both done, rating 8", llm=[step])
        assert "Heat" in reply.text
        assert "Collateral" in reply.text
        states = await _states(lembra)
        assert states["Heat"] == states["Collateral"] == ("seen", 8)
        assert states["Ronin"] == ("to_see", None)
        await lembra.say("desfaz")
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


async def test_a_name_off_the_list_in_the_planners_list_marks_nothing(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}, counting_model=True) as lembra:
        await lembra.say("save the movies Heat and Ronin")
        step = _marking({"query": ["heat", "casablanca"], "state": "seen"})
        await lembra.say("heat and casablanca are watched by now", llm=[step])
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


def test_the_tool_takes_a_few_names_at_most() -> None:
    from pydantic import ValidationError

    from agent.tools.marking import MAX_MARKED, MarkItemArgs

    many = MarkItemArgs.model_validate({"query": ["a", "b"], "state": "seen"})
    assert many.named() == [(None, "a"), (None, "b")]
    for bad in (
        {"query": [f"t{i}" for i in range(MAX_MARKED + 1)], "state": "seen"},
        {"query": [], "state": "seen"},
        {"query": ["a"], "item_id": ["b"], "state": "seen"},
        {"query": [""], "state": "seen"},
    ):
        try:
            MarkItemArgs.model_validate(bad)
        except ValidationError:
            continue
        raise AssertionError(bad)


async def test_a_list_said_before_its_verb_is_marked_whole(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun, Tár e Nope")
        await lembra.say("aftersun, tár e nope eu já vi, nota 8 pra todos")
        assert set((await _states(lembra)).values()) == {("seen", 8)}


def test_a_second_request_beside_a_mark_is_no_aside() -> None:
    for said in (
        "vi heat, me manda o trailer",
        "watched heat, send me the ronin link",
        "e o ronin tb, me lembra amanhã",
    ):
        assert read(said) is None, said
    assert read("hmm, me enganei, ronin eu ainda não vi. desmarca") is not None


def test_each_name_of_a_list_must_be_the_users() -> None:
    from agent.planning.grounding import FieldRule, Sources, grounded

    sources = Sources()
    sources.add("i watched heat and ronin")
    rule = FieldRule("query", "some_word", False)
    assert grounded(rule, ["heat", "ronin"], sources)
    assert not grounded(rule, ["heat", "casablanca"], sources)


async def test_lines_marked_leave_the_list_shown_for_the_next_line(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat, Ronin, Collateral and Thief")
        await lembra.say("show my movies")
        await lembra.say("i've seen the first and the last")
        more = await lembra.say("watched 2 and 3 too")
        assert "Ronin" in more.text
        assert "Collateral" in more.text
        assert {s for s, _ in (await _states(lembra)).values()} == {"seen"}


async def test_this_one_after_a_pick_in_english(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat and Ronin")
        picked = await lembra.say("what should i watch tonight?")
        top = picked.text.splitlines()[1].split(". ", 1)[1].split(" —")[0]
        await lembra.say("this one i've seen already, 9/10")
        assert (await _states(lembra))[top] == ("seen", 9)


async def test_a_continuation_with_but_no_score_then_an_unmark(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva as séries Dark e Ozark")
        await lembra.say("terminei ozark ontem, nota 9")
        await lembra.say("e dark tb mas sem nota")
        assert (await _states(lembra))["Dark"] == ("seen", None)
        await lembra.say("opa, errei, dark eu ainda não vi não. desmarca")
        assert await _states(lembra) == {"Dark": ("to_see", None), "Ozark": ("seen", 9)}


def test_seen_only_in_part_is_no_mark_by_clauses() -> None:
    for said in ("e dark tb mas dormi no meio", "and heat too, but i gave up halfway"):
        assert read(said) is None, said


async def test_a_see_verb_never_marks_a_note_among_several(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun e Nope")
        await lembra.say("anota: ver a série Severance com a Bia")
        await lembra.say("desses já vi aftersun, nope e severance")
        items = await lembra.items()
        assert not any(i.done for i in items)


async def test_a_rating_said_of_each_title_is_kept_for_that_title(db: Database) -> None:
    # issue 44: "ja vi barbie (7) e anora (8), conclave ainda nao" went to the planner and
    # "X gets a 9, Y no score" kept no rating
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva os filmes Aftersun, Tár e Nope")
        reply = await lembra.say("assisti aftersun (10) e nope (6), tár ainda não")
        assert "Aftersun" in reply.text
        assert "Nope" in reply.text
        states = await _states(lembra)
        assert states == {"Aftersun": ("seen", 10), "Nope": ("seen", 6), "Tár": ("to_see", None)}


async def test_a_rating_per_title_in_a_clause_of_its_own(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat, Ronin and Collateral")
        await lembra.say("finished heat and collateral. collateral got an 8, heat no rating")
        states = await _states(lembra)
        assert states == {
            "Heat": ("seen", None),
            "Collateral": ("seen", 8),
            "Ronin": ("to_see", None),
        }


async def test_two_ratings_not_each_of_a_title_marked_mark_nothing_in_code(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat and Ronin")
        await lembra.say("watched heat, heat 8/10 and casablanca 9/10")
        assert {s for s, _ in (await _states(lembra)).values()} == {"to_see"}


async def test_a_list_of_titles_each_with_its_number_after_the_mark(db: Database) -> None:
    # issue 44 (blind wave-11): "seen both now! X 9, Y 8" and "já vi os dois! 8 pro X e 9 pro
    # Y" marked nothing; "terminei A e B. A nota 10, B 7" gave both the 10
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("salva as séries Fargo e Girls")
        await lembra.say("lista minhas séries")
        await lembra.say("vi as duas já! 6 pra fargo e 9 pra girls")
        assert await _states(lembra) == {"Fargo": ("seen", 6), "Girls": ("seen", 9)}
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Heat, Ronin and Collateral")
        await lembra.say("watched heat and ronin last night. heat: 9, ronin 5/10")
        states = await _states(lembra)
        assert states["Heat"] == ("seen", 9)
        assert states["Ronin"] == ("seen", 5)
        assert states["Collateral"] == ("to_see", None)


async def test_a_number_that_is_part_of_a_title_is_no_rating(db: Database) -> None:
    async with open_lembra(db, tmdb_results={}) as lembra:
        await lembra.say("save the movies Toy Story 3 and Alien 3")
        await lembra.say("list my movies")
        await lembra.say("watched both, toy story 3, alien 3")
        assert {r for _, r in (await _states(lembra)).values()} == {None}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_the_rated_list_reader_never_raises(text: str) -> None:
    read(text)
    read("seen both! " + text + " 9, x 8")
    read("ja vi os dois, 8 pro " + text)
