"""Continuations carry the last action and type (issue 41): "e a série X tb", "e o outro também",
"and this week?", "and the next". What code is sure of runs the same tools a planner would;
the rest is planned with the last action as its hint, and a question never becomes a save."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.continuations import read_continuation
from storage import Database
from tests.support.harness import ALICE, open_lembra
from tests.support.live import call

NO_TMDB = "https://api.themoviedb.org/3"


def test_a_continuation_is_short_with_no_verb_of_its_own() -> None:
    got = read_continuation("e a série Severance tb")
    assert got is not None
    assert (got.type, got.title) == ("tv_show", "Severance")
    other = read_continuation("the other one too")
    assert other is not None
    assert other.other
    later = read_continuation("and this week?")
    assert later is not None
    assert later.period == "this_week"
    assert read_continuation("e salva o filme X") is None  # a request of its own
    assert read_continuation("salva a série Dark") is None  # nothing continued
    assert read_continuation("também") is None  # nothing new in it


@given(st.text(max_size=300))
def test_reading_a_continuation_never_raises(message: str) -> None:
    read_continuation(message)


async def test_and_the_series_too_after_a_save_saves_it_as_a_series(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva a série Dark", llm=[call("enrich_tv_show", title="Dark")])
        series = await lembra.say("e a série Severance tb")
        movie = await lembra.say("salva o filme Duna", llm=[call("enrich_movie", title="Duna")])
        again = await lembra.say("e Tenet também")
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [
        ("tv_show", "Dark"),
        ("tv_show", "Severance"),
        ("movie", "Duna"),
        ("movie", "Tenet"),  # no type named: the type saved last
    ]
    assert series.meta.llm_calls == again.meta.llm_calls == 0
    assert "TMDB" in series.text
    assert series.meta.state == "PARTIAL"
    assert movie.meta.llm_calls == 1


async def test_a_typed_title_too_after_fixing_the_last_save_saves_it(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Tropa de Elite (2008)")
        await lembra.say("ops, o ano tá errado, é 2007")
        series = await lembra.say("e a série Sintonia também")
        items = await lembra.items()
    assert [(i.type, i.title, i.year) for i in items] == [
        ("movie", "Tropa de Elite", 2007),
        ("tv_show", "Sintonia", None),
    ]
    assert series.text.startswith("✅ Salvo: Sintonia")


async def test_the_other_one_too_after_a_delete_previews_the_other_one(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: pagar a luz")
        await lembra.say("anota: pagar a água")
        await lembra.say("lista minhas notas")
        await lembra.say("apaga o 1")
        await lembra.say("sim")
        preview = await lembra.say("e o outro também")
        assert len(await lembra.items()) == 1  # a preview: nothing deleted yet
        await lembra.say("sim")
        assert await lembra.items() == []
    assert preview.text.startswith("Apagar pagar a água?")


async def test_another_delete_while_one_waits_for_its_yes_asks_for_both(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: pagar a luz")
        await lembra.say("anota: pagar a água")
        await lembra.say("anota: pagar o gás")
        await lembra.say("lista minhas notas")
        first = await lembra.say("apaga o 1")
        both = await lembra.say("e o 2 também")  # no "sim" to the first yet
        assert len(await lembra.items()) == 3  # still a question: nothing deleted
        done = await lembra.say("sim")
        left = [i.content for i in await lembra.items()]
    assert first.text.startswith("Apagar pagar a luz?")
    assert both.text.startswith("Apagar pagar a luz e pagar a água?")
    assert done.text == "✅ Apagado: pagar a luz e pagar a água."
    assert left == ["pagar o gás"]


async def test_and_the_one_about_x_too_after_a_delete_previews_it(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: comprar pão", llm=[call("save_note", content="comprar pão")])
        await lembra.say("anota: comprar leite", llm=[call("save_note", content="comprar leite")])
        await lembra.say("apaga a nota do pão", llm=[call("delete_item", query="pão")])
        await lembra.say("sim")
        preview = await lembra.say("e a do leite tb")
    assert preview.text.startswith("Apagar comprar leite?")


async def test_and_this_week_asks_the_last_question_again_for_that_period(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say(
            "note: buy stamps", language_hint="en", llm=[call("save_note", content="buy stamps")]
        )
        yesterday = await lembra.say("what did I save yesterday?")
        week = await lembra.say("and this week?")
        assert lembra.model_calls == 1  # the note only
    assert yesterday.text == "You saved nothing yesterday."
    assert week.text.splitlines() == ["You saved 1 item this week:", "1. buy stamps"]


async def test_and_the_next_after_showing_one_shows_the_next(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("note: renew the passport", language_hint="en")
        await lembra.say("note: book the vet", language_hint="en")
        await lembra.say("list my notes")
        first = await lembra.say("show me the first one")
        following = await lembra.say("and the next")
    assert first.text.startswith("1. renew the passport")
    assert following.text.startswith("2. book the vet")


async def test_a_question_after_a_save_is_planned_as_a_question_never_a_save(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Duna", llm=[call("enrich_movie", title="Duna")])
        await lembra.say("e Matrix e Tenet também?", llm=[call("search_items", query="Matrix")])
        offered = lembra.requests[-1].body["messages"][-2]["content"]
        assert [i.title for i in await lembra.items()] == ["Duna"]
    assert "save_items" not in offered.split("ferramentas:", 1)[-1]


async def test_and_another_time_after_a_reminder_sets_another_reminder(db: Database) -> None:
    # the last action carried: "e <day/time> de X" after a reminder is a reminder, in code
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra quarta de renovar a cnh")
        second = await lembra.say("e sexta as 19h de comprar o presente da ana")
        english = await lembra.say("and on saturday at 8am to water the plants", language_hint="en")
        reminders = await db.reminders.for_user(ALICE)
        assert lembra.model_calls == 0
        assert await lembra.items() == []  # never a note
    assert "19:00" in second.text
    assert "08:00" in english.text
    assert sorted(r.text for r in reminders) == [
        "comprar o presente da ana",
        "renovar a cnh",
        "water the plants",
    ]


async def test_a_request_of_its_own_after_a_reminder_is_no_reminder(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra amanhã às 9h de ligar pro banco")
        asked = await lembra.say("e quais lembretes eu tenho?")
        reminders = await db.reminders.for_user(ALICE)
    assert len(reminders) == 1
    assert "ligar pro banco" in asked.text


async def test_and_the_next_one_too_after_a_mark_marks_the_next_line(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva os filmes Parasita, Oldboy e Memento")
        await lembra.say("lista meus filmes")
        await lembra.say("já vi o 1")
        marked = await lembra.say("e o próximo tb")
        items = {i.title: i.current_state for i in await lembra.items()}
        assert lembra.model_calls == 0
    assert "Oldboy" in marked.text
    assert items == {"Parasita": "seen", "Oldboy": "seen", "Memento": "to_see"}


async def test_and_the_shows_a_and_b_too_after_a_save_saves_each_show(db: Database) -> None:
    # issue 44: "e as series dark e the office tb" was saved as one note by the planner
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva os filmes Heat e Ronin")
        shows = await lembra.say("e as séries Fargo e Lost também")
        items = await lembra.items()
    assert sorted((i.type, i.title) for i in items) == [
        ("movie", "Heat"),
        ("movie", "Ronin"),
        ("tv_show", "Fargo"),
        ("tv_show", "Lost"),
    ]
    assert shows.meta.llm_calls == 0


async def test_the_other_one_among_several_is_asked_never_deleted(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("guarda as séries: Dark, Ozark, Lost")
        await lembra.say("apaga a Lost")
        await lembra.say("sim")
        asked = await lembra.say("e a outra tb")
        await lembra.say("sim")
        left = sorted(i.title or "" for i in await lembra.items())
    assert asked.text.splitlines()[1:] == ["1. Dark (2017)", "2. Ozark"]
    assert left == ["Dark", "Ozark"]


async def test_several_lines_named_in_a_continuation_are_one_question(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: pagar a luz")
        await lembra.say("anota: pagar a água")
        await lembra.say("anota: pagar o gás")
        await lembra.say("anota: pagar o iptu")
        await lembra.say("lista minhas notas")
        await lembra.say("apaga a terceira")
        await lembra.say("sim")
        both = await lembra.say("o primeiro e o outro também")  # the other: not one left
        assert len(await lembra.items()) == 3
        three = await lembra.say("a primeira, a segunda e a quarta tb")
        assert len(await lembra.items()) == 3  # a question: nothing deleted yet
        await lembra.say("sim")
        assert await lembra.items() == []
    assert not both.text.startswith("Apagar")
    assert three.text.startswith("Apagar ")


async def test_a_save_continued_with_its_type_after_or_why_after_saves_typed(db: Database) -> None:
    # issue 44 (blind wave-11): "and breaking bad, the series", "and the films X and Y too",
    # "e o filme X tb, pra ver c as crianças" were saved as notes or not at all
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Heat")
        await lembra.say("and fargo, the show")
        await lembra.say("and the films Ronin and Thief too")
        await lembra.say("e o filme Tron tb, pra ver com meu sobrinho")
        items = await lembra.items()
    assert sorted((i.type, i.title) for i in items) == [
        ("movie", "Heat"),
        ("movie", "Ronin"),
        ("movie", "Thief"),
        ("movie", "Tron"),
        ("tv_show", "fargo"),
    ]


def test_why_or_the_type_after_a_continuation_is_no_part_of_its_title() -> None:
    typed = read_continuation("e lost (a série)")
    assert typed is not None
    assert (typed.type, typed.title) == ("tv_show", "lost")
    why = read_continuation("and heat too, for the weekend")
    assert why is not None
    assert why.title == "heat"
    assert read_continuation("e o joão foi ver o filme tb, pra ver") is None
