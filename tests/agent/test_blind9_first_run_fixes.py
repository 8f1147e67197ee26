"""What the wave-15 blind first run showed, in words of our own: a note pointed at by its
type after something else was saved ("delete that note", "add X to that note") is the
newest note, never a literal search for "note" and never a new item; a list named with a
dash before its elements takes additions like one named with a colon."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.facts import list_edit, list_edited
from agent.understanding.references import Target
from agent.understanding.reminders.asks import read_retime
from agent.understanding.watchlist import read_mark
from storage import Database
from tests.support.harness import ALICE, open_lembra


async def test_delete_that_note_after_a_show_was_saved_asks_about_the_newest_note(
    db: Database,
) -> None:
    async with open_lembra(db, language="en") as lembra:
        await lembra.say("note: the electrician comes friday at noon")
        await lembra.say("also save the show Slow Horses")
        asked = await lembra.say("he called it off, delete that note")
        kept = await lembra.items()
        await lembra.say("yes")
        left = await lembra.items()

    assert "electrician" in asked.text
    assert len(kept) == 2  # nothing goes before the "yes"
    assert [i.title for i in left] == ["Slow Horses"]


async def test_a_type_word_alone_never_deletes_when_nothing_of_that_type_exists(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva a série Slow Horses")
        reply = await lembra.say("apaga esse link")
        items = await lembra.items()

    assert [i.title for i in items] == ["Slow Horses"]
    assert "sim/não" not in reply.text


async def test_adding_to_that_note_edits_the_newest_note_and_saves_nothing(
    db: Database,
) -> None:
    async with open_lembra(db, language="en") as lembra:
        await lembra.say("note: camping gear - tent, stove, lantern")
        await lembra.say("save the movie Into the Wild")
        edited = await lembra.say("add bug spray to that note too")
        items = await lembra.items()

    assert "bug spray" in edited.text
    notes = [i.content for i in items if i.type == "note"]
    assert notes == ["camping gear - tent, stove, lantern, bug spray"]
    assert len(items) == 2  # no movie called "bug spray to that note"


def test_a_list_named_before_a_dash_keeps_its_name() -> None:
    edit = list_edit("acrescenta pilhas nessa nota")
    assert edit is not None
    assert edit.pointed
    assert list_edited("mala da praia - toalha, chinelo e protetor", edit) == (
        "mala da praia - toalha, chinelo, protetor e pilhas"
    )
    plain = list_edit("acrescenta pilhas nessa lista")  # "this list" may be the films'
    assert plain is not None
    assert not plain.pointed


@given(st.text(max_size=80), st.text(max_size=80))
def test_list_edits_never_raise(message: str, content: str) -> None:
    edit = list_edit(message)
    if edit is not None:
        list_edited(content, edit)


@pytest.mark.parametrize(
    ("said", "when"),
    [
        ("ah passa p 15h, a reunião atrasou", "15h"),
        ("make it 6pm, the store closes late", "6pm"),
        ("eita, mudaram pra sexta, mesmo horario", "sexta"),
        ("melhor 6h45, a van chega cedo", "6h45"),  # a part of the day only tells why
        ("make it 7am, traffic is bad in the morning", "7am"),
    ],
)
def test_a_new_time_with_a_why_after_a_comma_changes_the_reminder(said: str, when: str) -> None:
    asked = read_retime(said)
    assert asked is not None
    assert asked.when == when


@pytest.mark.parametrize(
    "said",
    [
        "passa p 15h, e cancela o do dentista",
        "15h, comprar pão",
        "make it 6pm, and remind me at 9",
        "melhor 7h, amanhã às 9 a reunião",
    ],
)
def test_another_request_after_the_comma_is_no_change(said: str) -> None:
    assert read_retime(said) is None


async def test_moving_the_reminder_just_set_with_a_why_after_it(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã 11h de ligar pro contador")
        moved = await lembra.say("ah passa p 15h, ele pediu pra adiar")
        reminders = await db.reminders.for_user(ALICE)

    assert "15:00" in moved.text
    assert [r.text for r in reminders] == ["ligar pro contador"]


async def test_the_scope_answer_may_name_the_reminder_and_say_for_good(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("toda terça às 19h me lembra do curso de inglês")
        asked = await lembra.say("cancela o do curso")
        done = await lembra.say("todos os do curso, pode tirar de vez")
        left = [r for r in await db.reminders.for_user(ALICE) if r.state == "scheduled"]

    assert "todos" in asked.text.lower()
    assert "curso de inglês" in done.text
    assert left == []


async def test_keep_the_rest_skips_only_the_next(db: Database) -> None:
    async with open_lembra(db, language="en") as lembra:
        await lembra.say("every tuesday at 7pm remind me about choir")
        first = (await db.reminders.for_user(ALICE))[0].due_at_ms
        await lembra.say("cancel the choir one, I'm travelling")
        await lembra.say("just this week's, keep the rest")
        left = [r for r in await db.reminders.for_user(ALICE) if r.state == "scheduled"]

    assert len(left) == 1
    assert left[0].due_at_ms > first  # the series goes on, from the week after


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("me lembra sexta às 10h de pegar o documento na PF", "pegar o documento na PF"),
        ("me lembra sexta às 10h de pegar o documento, pf", "pegar o documento"),
        ("ah e sexta às 10h me lembra do aniversário do Léo", "aniversário do Léo"),
    ],
)
async def test_a_reminder_keeps_its_task_and_drops_only_what_asks(
    db: Database, said: str, task: str
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say(said)
        (reminder,) = await db.reminders.for_user(ALICE)
    assert reminder.text == task


@pytest.mark.parametrize(
    ("said", "titles"),
    [
        ("salva os filmes Central do Brasil e Cidade de Deus, quero ver com a minha mãe",
         ["Central do Brasil", "Cidade de Deus"]),
        ("add the movies Heat and Ronin, gonna watch them on sunday", ["Heat", "Ronin"]),
        ("salva os filmes up, eu robô e her", ["up", "eu robô", "her"]),  # a title, not a remark
    ],
)  # fmt: skip
async def test_a_first_person_remark_after_the_list_is_no_item(
    db: Database, said: str, titles: list[str]
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say(said)
        items = await lembra.items()
    assert sorted(i.title or "" for i in items) == sorted(titles)


@pytest.mark.parametrize(
    ("said", "target", "rating"),
    [
        ("ahh esse eu vi umas 3 vezes rs, marca como visto, nota 9", Target("pronoun"), 9),
        ("yeah seen that one ages ago lol, mark it", Target("pronoun"), None),
        ("the third one i saw on a plane, mark it as watched", Target("ordinal", 3), None),
        ("vi o 2 no cinema semana passada, 7/10", Target("number", 2), 7),
    ],
)
def test_a_seen_mark_of_the_line_pointed_at_amid_chatter(
    said: str, target: Target, rating: int | None
) -> None:
    mark = read_mark(said)
    assert mark is not None
    assert (mark.state, mark.title, mark.target, mark.rating) == ("seen", "", target, rating)


@pytest.mark.parametrize(
    "said",
    [
        "esse eu vi o trailer só",
        "i watched that one for the first time with the first guy",
        "vi o primeiro episodio desse",
        "esse eu ainda não vi, mas o 2 sim",
    ],
)
def test_no_pointed_mark_beside_a_part_a_negation_or_two_pointers(said: str) -> None:
    mark = read_mark(said)
    assert mark is None or mark.state != "seen" or mark.target is None


@given(st.text(max_size=120))
def test_the_pointed_mark_never_raises(said: str) -> None:
    read_mark(said)


def test_esta_folded_from_esta_with_an_accent_points_at_nothing() -> None:
    mark = read_mark("vi que está na netflix, marca ai")
    assert mark is None or mark.target is None


async def test_that_note_is_never_a_title_holding_that(db: Database) -> None:
    async with open_lembra(db, language="en") as lembra:
        await lembra.say("note: pick up the cake at noon")
        await lembra.say("save the movie That Thing You Do")
        asked = await lembra.say("delete that note")
    assert "cake" in asked.text
    assert "Thing" not in asked.text
