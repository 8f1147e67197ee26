"""Marks read loosely but anchored on the list, and what the user said of an item (issue 44):
title-first marks with adverbs and a rating, clefts, "tira o visto dele", plural marks after
two saves, "what did I rate X?" answered from storage, and the guard that keeps a rating
out of a title. Through `Runtime.handle`, with the real TMDB client against the fake."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.planning.structured import first_step_tools
from agent.tools import registry
from agent.understanding.watchlist import (
    MarkRequest,
    StateQuestion,
    SuggestRequest,
    marks_a_title,
    read,
    speaks_of_seeing,
)
from storage import Database
from tests.agent.test_importfile import SentFile
from tests.agent.test_watchlist import BELIEF, item, watching
from tests.support.harness import ALICE

# -- the readers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "title", "rating"),
    [
        ("Superbad eu ja vi na vdd, nota 7", "Superbad", 7),
        ("tenet eu já vi faz tempo, 8/10", "tenet", 8),
        ("Duna já assisti há muito tempo", "Duna", None),
        ("tenet eu vi na real, dei nota 9", "tenet", 9),
        ("Tenet i watched ages ago, 6/10", "Tenet", 6),
        ("Duna eu ja assisti faz um tempao, nota 8", "Duna", 8),
        ("dark, watched it last night, 9/10", "dark", 9),
        ("superbad - ja vi, nota 6", "superbad", 6),
    ],
)
def test_a_title_first_mark_reads_past_how_long_ago_and_keeps_the_rating(
    said: str, title: str, rating: int | None
) -> None:
    found = read(said)
    assert isinstance(found, MarkRequest)
    assert (found.state, found.title, found.rating) == ("seen", title, rating)


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("o q eu terminei foi dark", "dark"),
        ("o filme que a gente viu foi Tenet", "Tenet"),
        ("foi superbad que eu assisti", "superbad"),
        ("it was tenet I watched", "tenet"),
        ("what i actually saw was Superbad", "Superbad"),
        ("the one we finished was dark", "dark"),
        ("oq eu vi ontem foi duna", "duna"),
    ],
)
def test_a_cleft_names_the_title_seen_and_is_sure_only_of_a_title_on_the_list(
    said: str, title: str
) -> None:
    found = read(said)
    assert isinstance(found, MarkRequest)
    assert (found.state, found.title, found.anchored) == ("seen", title, True)


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("tira o visto dele", ""),
        ("tira o visto de tenet", "tenet"),
        ("remove the check from dark", "dark"),
    ],
)
def test_taking_the_seen_mark_off_unmarks(said: str, title: str) -> None:
    found = read(said)
    assert isinstance(found, MarkRequest)
    assert (found.state, found.title) == ("unseen", title)
    assert (found.target is not None) == (not title)


@pytest.mark.parametrize(
    ("said", "title"),
    [
        ("what rating did i give tenet", "tenet"),
        ("what did I think of Dark again?", "Dark"),
        ("how did i like superbad", "superbad"),
        ("e oq eu tinha achado de duna?", "duna"),
        ("que nota eu dei pra Tenet mesmo", "Tenet"),
        ("o que eu falei do superbad", "superbad"),
        ("wat rating did i give to tenet", "tenet"),
        ("did i like dark?", "dark"),
    ],
)
def test_asking_what_was_said_of_a_title_is_read_with_or_without_its_question_mark(
    said: str, title: str
) -> None:
    assert read(said) == StateQuestion(title, opinion=True)


@pytest.mark.parametrize(
    "said",
    [
        "unmark tenet, i never finished it",
        "desmarca tenet, nunca terminei",
        "na real tenet eu nao vi, confundi",
        "actually unmark tenet, i fell asleep halfway thru lol",
    ],
)
def test_an_unmark_with_why_it_was_not_seen_unmarks(said: str) -> None:
    found = read(said)
    assert isinstance(found, MarkRequest)
    assert (found.state, found.title) == ("unseen", "tenet")


def test_why_it_was_not_seen_explains_only_an_unmark() -> None:
    assert read("vi tenet, nunca terminei") is None
    assert read("desmarca tenet, salva duna") is None


def test_what_is_no_question_of_opinion_is_left_alone() -> None:
    assert read("o que eu anotei sobre o dentista?") is None  # a search: the planner's
    assert read("já vi duna") != StateQuestion("duna", opinion=True)
    assert not isinstance(read("ja vi duna"), StateQuestion)  # a mark without "?"


def test_a_rating_clause_is_cut_from_a_continuation_only_when_it_is_all_the_clause_says() -> None:
    for said, title, rating in (
        ("Tenet tb, nota 9", "Tenet", 9),
        ("and dark too, 8/10.", "dark", 8),
        ("Tenet tb, nota fiscal", "Tenet", None),
    ):
        found = read(said)
        assert isinstance(found, MarkRequest), said
        assert (found.carried, found.refs, found.rating) == (True, (title,), rating), said
    assert not isinstance(read("nota 9"), MarkRequest)


def test_a_message_that_speaks_of_seeing_keeps_the_mark_tool_on_the_first_step() -> None:
    tools = list(registry().values())
    said = "whiplash eu ja vi faz tempo, nota 8"
    for hint in ("search", "delete", "save"):
        assert first_step_tools(hint, said, tools) is None  # every tool, mark_item among them
    assert "mark_item" not in (first_step_tools("search", "procura leite", tools) or set())


def test_seeing_words_are_told_apart_from_saves_and_searches() -> None:
    assert speaks_of_seeing("superbad eu ja vi faz tempo, nota 8")
    assert speaks_of_seeing("o q eu terminei foi dark")
    assert speaks_of_seeing("desmarca o 2")
    assert not speaks_of_seeing("salva o filme duna")
    assert not speaks_of_seeing("apaga a nota do dentista")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(max_size=30),
    st.sampled_from(
        [
            " eu ja vi na vdd, nota 7",
            " ja vi, achei ",
            " tb, nota ",
            "o que eu vi foi ",
            "it was ",
            "tira o visto de ",
            "what did i think of ",
            "e oq eu tinha achado de ",
        ]
    ),
    st.text(max_size=30),
)
def test_the_new_readers_never_raise(first: str, shape: str, last: str) -> None:
    read(first + shape + last)
    speaks_of_seeing(first + shape + last)


@pytest.mark.parametrize(
    ("title", "marked"),
    [
        ("Whiplash (2014) - Nota 8", True),
        ("Duna 8/10", True),
        ("O Menino e a Garça (2023) - Nota 9.00", True),
        ("Dark (visto)", True),
        ("Tenet - watched", True),
        ("Duna ✅", True),
        ("Nunca Visto", False),
        ("Nota de Rodapé", False),
        ("Blade Runner 2049", False),
        ("Se7en", False),
    ],
)
def test_a_rating_or_a_seen_mark_at_the_end_of_a_title_is_told_apart(
    title: str, marked: bool
) -> None:
    assert marks_a_title(title) is marked


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_the_title_guard_never_raises(title: str) -> None:
    marks_a_title(title)


# -- in a conversation --------------------------------------------------------------------------


async def test_a_title_first_mark_with_how_long_ago_and_a_rating_marks_and_rates(
    db: Database,
) -> None:
    async with watching(db) as lembra:
        reply = await lembra.say("superbad eu ja vi faz tempo, nota 8")
        superbad = await item(lembra, "Superbad")
        assert (superbad.current_state, superbad.rating, superbad.title) == ("seen", 8, "Superbad")
        assert "Superbad" in reply.text


async def test_a_loose_mark_of_a_title_not_on_the_list_marks_nothing_in_code(db: Database) -> None:
    async with watching(db) as lembra:
        reply = await lembra.say("oppenheimer ja vi, achei sensacional")
        assert "watchlist_in_code" not in reply.meta.rules_applied or "mark_item" not in (
            reply.meta.tools_executed
        )
        assert all(not i.done for i in await lembra.items())
        for said in ("comprar pão, vi que acabou", "o que eu vi foi incrível"):
            other = await lembra.say(said)
            assert "nada foi marcado" not in other.text, said  # no title of the list: not a mark


async def test_a_cleft_after_an_undo_marks_the_title_meant(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("vi superbad ontem")
        await lembra.say("desfaz")
        assert not (await item(lembra, "Superbad")).done
        reply = await lembra.say("na verdade o que eu vi foi Duna")
        assert "Duna" in reply.text
        assert (await item(lembra, "Duna")).done
        assert not (await item(lembra, "Superbad")).done


async def test_a_continuation_with_a_rating_marks_and_rates_that_title(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("já vi duna, nota 7")
        reply = await lembra.say("superbad tb, nota 9")
        assert "Superbad" in reply.text
        assert ((await item(lembra, "Superbad")).rating, (await item(lembra, "Duna")).rating) == (
            9,
            7,
        )


async def test_taking_the_seen_mark_off_the_item_just_marked_unmarks_it(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("terminei a série dark")
        assert (await item(lembra, "Dark")).done
        await lembra.say("ih, confundi. tira o visto dele")
        assert not (await item(lembra, "Dark")).done


async def test_both_after_two_saves_in_a_row_marks_those_two(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("salva o filme tenet")
        await lembra.say("e o filme oppenheimer tb")
        reply = await lembra.say("ja vi os dois")
        done = {i.title for i in await lembra.items() if i.done}
        assert done == {"Tenet", "oppenheimer"}, reply.text


async def test_what_was_said_of_a_title_is_answered_from_what_was_kept(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("watched superbad last night, 8/10, loved it")
        rated = await lembra.say("what did i think of superbad again?")
        assert "8/10" in rated.text
        assert "loved it" in rated.text
        assert "(seen on " in rated.text
        await lembra.say("dark eu ja vi, achei sensacional")
        said = await lembra.say("e oq eu tinha achado de dark?")
        assert "achei sensacional" in said.text
        nothing = await lembra.say("que nota eu dei pra duna")
        assert "Duna" in nothing.text
        assert "nenhuma nota" in nothing.text
        assert [i for i in await lembra.items() if i.title == "Duna" and i.done] == []


async def test_how_much_was_given_asks_the_rating_only_of_an_item_of_the_list(
    db: Database,
) -> None:
    # issue 44 (blind wave-11): "quanto eu dei pra X?", then "e pra Y?", and "o que eu achei
    # de X? e que nota dei?" went to the planner
    async with watching(db) as lembra:
        await lembra.say("assisti duna, nota 6")
        await lembra.say("ja vi superbad, nota 9, achei bobo")
        six = await lembra.say("quanto eu dei pro duna mesmo?")
        assert "6/10" in six.text
        nine = await lembra.say("e pro superbad?")
        assert "9/10" in nine.text
        both = await lembra.say("o que eu achei do superbad? e que nota eu dei?")
        assert "bobo" in both.text
        assert "9/10" in both.text
        money = await lembra.say("quanto eu dei pro Joaquim no aniversário?")
        assert "/10" not in money.text


def test_giving_without_a_word_of_rating_asks_only_of_an_item_of_the_list() -> None:
    assert read("quanto eu dei pro tenet?") == StateQuestion("tenet", opinion=True, anchored=True)
    assert read("que nota eu dei pro tenet?") == StateQuestion("tenet", opinion=True)
    assert read("o que eu dei pra ela?") is None


async def test_the_planner_reaches_what_was_said_through_a_read_only_tool(db: Database) -> None:
    async with watching(db, counting_model=True) as lembra:
        await lembra.say("assisti duna, nota 9")
        step = {
            "action": "CALL_TOOL",
            "tool": "what_i_said",
            "args": {"query": "duna"},
            "message": None,
            "belief": BELIEF,
        }
        reply = await lembra.say("me conta da nota do filme duna", llm=[step])
        assert "Você deu nota 9/10 a Duna (2021)" in reply.text
        bad = {**step, "args": {"query": "duna", "user_id": "cli:bob"}}
        refused = await lembra.say("recap my take on duna", llm=[bad, step])
        assert "You gave Duna (2021) 9/10" in refused.text
        told = json.dumps([m.content for m in await lembra.messages() if m.role == "tool"])
        assert "what_i_said: user_id" in told  # strict arguments: no other user's items


async def test_a_rating_written_into_a_title_is_refused_and_the_mark_is_made_instead(
    db: Database,
) -> None:
    async with watching(db, counting_model=True) as lembra:
        duna_id = (await item(lembra, "Duna")).id
        into_title = {
            "action": "CALL_TOOL",
            "tool": "update_item",
            "args": {"item_id": duna_id, "title": "Duna (2021) - Nota 8"},
            "message": None,
            "belief": BELIEF,
        }
        marked = {
            "action": "CALL_TOOL",
            "tool": "mark_item",
            "args": {"item_id": duna_id, "state": "seen", "rating": 8},
            "message": None,
            "belief": BELIEF,
        }
        await lembra.say("pra duna 2021 eu dou nota 8, atualiza ela", llm=[into_title, marked])
        duna = await item(lembra, "Duna")
        assert (duna.title, duna.current_state, duna.rating) == ("Duna", "seen", 8)
        told = json.dumps([m.content for m in await lembra.messages() if m.role == "tool"])
        assert "call mark_item" in told
        assert "no part of a title" in told


async def test_export_and_import_carry_what_was_said(db: Database) -> None:
    async with watching(db) as lembra:
        await lembra.say("vi duna ontem, nota 9, achei incrível")
        exported = await lembra.say("/export")
        assert exported.attachment is not None
        sent = SentFile(exported.attachment.data, exported.attachment.filename)
        await lembra.handle(sent.incoming("cli:bob"))
        await lembra.say("sim", user="cli:bob")
        duna = next(i for i in await lembra.items("cli:bob") if i.title == "Duna")
        assert (duna.rating, duna.comment) == (9, "achei incrível")
        said = await lembra.say("o que eu achei de duna?", user="cli:bob")
        assert "«achei incrível»" in said.text


async def test_the_item_just_named_seen_somewhere_is_marked(db: Database) -> None:
    # issue 44 (blind wave-11): "esse eu já vi no cinema na vdd. nota 10" after where-to-watch
    async with watching(db) as lembra:
        await lembra.say("onde assistir superbad?")
        marked = await lembra.say("opa, esse eu vi com a minha irmã. nota 7")
        assert "Superbad" in marked.text
        await lembra.say("onde passa duna?")
        await lembra.say("i saw it at the drive-in, 8/10")
        rated = {i.title: (i.done, i.rating) for i in await lembra.items()}
        assert rated["Superbad"] == (True, 7)
        assert rated["Duna"] == (True, 8)


def test_where_it_was_not_seen_is_no_mark_of_it() -> None:
    found = read("dark eu nao vi na tv")
    assert not (isinstance(found, MarkRequest) and found.state == "unseen")


async def test_what_was_given_to_someone_off_the_list_is_no_rating_answer(db: Database) -> None:
    async with watching(db) as lembra:
        reply = await lembra.say("what did I give mom for christmas?")
        assert "/10" not in reply.text
        assert "isn't on your list" not in reply.text


async def test_whether_a_title_is_still_left_is_answered_from_its_state(db: Database) -> None:
    # issue 44 (blind wave-11): "e round 6 ainda tá faltando né?" went to the planner
    async with watching(db) as lembra:
        await lembra.say("já vi duna")
        left = await lembra.say("e superbad continua pendente né?")
        assert "Superbad" in left.text
        assert "para ver" in left.text
        seen = await lembra.say("is duna still left?")
        assert "Duna" in seen.text
        assert [i.title for i in await lembra.items() if i.done] == ["Duna"]


async def test_the_type_said_before_a_list_question_narrows_it(db: Database) -> None:
    # issue 44 (blind wave-11): "e dos filmes, qual eu não vi ainda?" searched «nao vi»
    async with watching(db) as lembra:
        await lembra.say("já vi duna")
        left = await lembra.say("e das séries, quais faltam ainda?")
        assert "Dark" in left.text
        assert "Superbad" not in left.text
        seen = await lembra.say("and out of the movies, which ones have i watched?")
        assert "Duna" in seen.text
        assert "Superbad" not in seen.text


def test_a_type_said_before_a_question_of_another_type_is_not_read() -> None:
    assert read("dos filmes, quais séries eu vi?") is None
    assert read("dos filmes, salva o duna") is None


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_the_scoped_question_reader_never_raises(text: str) -> None:
    read("e dos filmes, " + text)
    read("and of the shows: " + text)


async def test_a_pick_for_tonight_after_how_one_feels_is_a_pick_never_a_reminder(
    db: Database,
) -> None:
    # issue 44 (blind wave-11): "to morto de cansado, me indica algo curtinho pra ver hj a
    # noite" asked when to remind
    async with watching(db) as lembra:
        picked = await lembra.say("tô exausta hoje, me sugere algo rapidinho pra ver mais tarde")
        assert picked.choice_kind != "time"
        assert "Superbad" in picked.text or "Duna" in picked.text or "Dark" in picked.text
        assert await db.reminders.for_user(ALICE) == []
        await lembra.say("me lembra de ver um filme hoje às 21h")
        assert len(await db.reminders.for_user(ALICE)) == 1


def test_a_pick_among_the_ones_left_is_a_pick() -> None:
    # issue 44 (blind wave-11): "qual dos q sobraram é o mais curto?" went to the planner
    for said in ("e das que faltam, qual a mais curta?", "which of the ones left is shortest?"):
        found = read(said)
        assert isinstance(found, SuggestRequest)
        assert found.short
