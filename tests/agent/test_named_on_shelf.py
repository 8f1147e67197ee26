"""A one-item step with no reference takes the shelf line the user's message names (issue 44).

The 1.5B model answered "and coco too, no score, just cried the whole time lol" with
`mark_item {"state": "seen"}`: no item_id, no query. The step was refused, re-asked, and
the model gave up. The user had just been shown Coco on a numbered list.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.conversation import shelf as shelves
from agent.conversation.turn import Turn
from agent.types import Incoming
from storage.database import Database
from storage.documents import ItemDoc, UserDoc
from tests.agent.test_watchlist import BELIEF, item, watching


def _mark(**args: object) -> dict[str, object]:
    return {
        "action": "CALL_TOOL",
        "tool": "mark_item",
        "args": {"state": "seen", **args},
        "message": None,
        "belief": BELIEF,
    }


NOOP = {"action": "NOOP", "message": None, "belief": BELIEF}


async def test_a_mark_with_no_item_takes_the_one_line_of_the_last_list_the_message_names(
    db: Database,
) -> None:
    async with watching(db, counting_model=True) as lembra:
        await lembra.say("lista meus filmes")
        reply = await lembra.say("superbad também já foi visto, entra nessa leva", llm=[_mark()])

        assert reply.meta.llm_calls == 1  # the model's step, not an in-code reading
        assert "Superbad (2007)" in reply.text
        assert (await item(lembra, "Superbad")).current_state == "seen"
        assert (await item(lembra, "Duna")).current_state != "seen"


async def test_two_lines_named_or_none_leave_the_step_refused_and_nothing_marked(
    db: Database,
) -> None:
    async with watching(db, counting_model=True) as lembra:
        await lembra.say("lista meus filmes")
        both = await lembra.say(
            "duna e superbad também já foram vistos, entram nessa leva", llm=[_mark(), NOOP]
        )
        none = await lembra.say(
            "aquele outro também já foi visto, entra nessa leva", llm=[_mark(), NOOP]
        )

        assert both.meta.llm_calls >= 1
        assert none.meta.llm_calls >= 1
        assert "mark_item" not in both.meta.tools_executed
        assert "mark_item" not in none.meta.tools_executed
        for title in ("Duna", "Superbad"):
            assert (await item(lembra, title)).current_state != "seen"


def _turn(text: str) -> Turn:
    user = UserDoc.model_validate(
        {
            "_id": "cli:alice",
            "channel": "console",
            "language": "en",
            "timezone": "UTC",
            "created_at_ms": 0,
            "last_seen_at_ms": 0,
        }
    )
    incoming = Incoming(channel="console", chat_id="alice", user_id="cli:alice", text=text)
    return Turn(incoming=incoming, user=user, language="en", now_ms=0)


def _movie(item_id: str, title: str) -> ItemDoc:
    return ItemDoc(
        _id=item_id,
        user_id="cli:alice",
        seq=1,
        type="movie",
        title=title,
        year=2017,
        dedup_key=f"movie:{item_id}",
        created_at_ms=0,
        updated_at_ms=0,
    )


def test_short_titles_are_never_read_from_running_text() -> None:
    turn = _turn("mark it as seen")
    shelves.show_items(turn, [_movie("a" * 32, "It"), _movie("b" * 32, "Coco")])
    assert shelves.named_on_shelf(turn, "mark it as seen") is None
    assert shelves.named_on_shelf(turn, "and coco too") == "b" * 32


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=300))
def test_reading_a_name_never_raises_whatever_the_text(text: str) -> None:
    turn = _turn(text)
    shelves.show_items(turn, [_movie("a" * 32, "Blade Runner 2049"), _movie("b" * 32, "Coco")])
    found = shelves.named_on_shelf(turn, text)
    assert found in (None, "a" * 32, "b" * 32)


def test_a_word_for_the_item_just_talked_about_takes_the_focus() -> None:
    turn = _turn("oops, mark it as not seen")
    shelves.show_items(turn, [_movie("b" * 32, "Coco")])
    assert shelves.named_on_shelf(turn, "oops, mark it as not seen") == "b" * 32
    assert shelves.named_on_shelf(turn, "oops, mark as not seen") is None
    two = _turn("x")
    shelves.show_items(two, [_movie("a" * 32, "Blade Runner 2049"), _movie("b" * 32, "Coco")])
    assert shelves.named_on_shelf(two, "mark it as not seen") is None  # no one item in focus


async def test_esse_after_a_pick_of_several_is_the_first_pick(db: Database) -> None:
    async with watching(db) as lembra:
        tonight = await lembra.say("o que eu vejo hoje?")
        lines = tonight.text.splitlines()
        assert lines[2].startswith("2. ")  # several picks
        first = lines[1].removeprefix("1. ").split(" (")[0]
        marked = await lembra.say("esse eu já vi na real, pode marcar, nota 7")

        assert first in marked.text
        picked = await item(lembra, first)
        assert (picked.current_state, picked.rating) == ("seen", 7)


def test_a_no_beside_a_name_reads_nothing_but_not_seen_is_the_state() -> None:
    turn = _turn("x")
    shelves.show_items(turn, [_movie("a" * 32, "Blade Runner 2049"), _movie("b" * 32, "Coco")])
    assert shelves.named_on_shelf(turn, "coco não, o outro eu já vi") is None
    assert shelves.named_on_shelf(turn, "not coco, the other one") is None
    assert shelves.named_on_shelf(turn, "mark coco as not seen") == "b" * 32
    one = _turn("x")
    shelves.show_items(one, [_movie("b" * 32, "Coco")])
    assert shelves.named_on_shelf(one, "qual filme está em cartaz hoje") is None  # "está"
    assert shelves.named_on_shelf(one, "ainda não vi esse") == "b" * 32


async def test_a_question_that_asks_for_no_act_marks_nothing_whatever_the_model_plans(
    db: Database,
) -> None:
    # blind wave 11: the 1.5B model marked a title seen on "e round 6 ainda tá faltando né?"
    async with watching(db, counting_model=True) as lembra:
        await lembra.say("lista meus filmes")
        asked = await lembra.say(
            "e o superbad, será que ainda falta eu ver mesmo?",
            llm=[_mark(query="superbad"), NOOP],
        )
        still = (await item(lembra, "Superbad")).current_state
        marked = await lembra.say("superbad eu já vi, pode marcar?", llm=[_mark(query="superbad")])

        assert asked.meta.llm_calls == 2  # the write refused, asked again
        assert still != "seen"
        assert "Superbad (2007)" in marked.text
        assert (await item(lembra, "Superbad")).current_state == "seen"


def test_only_a_question_with_no_word_of_an_act_only_asks() -> None:
    from agent.understanding.questions import only_asks

    assert only_asks("e o superbad, será que ainda falta eu ver mesmo?")
    assert only_asks("did i rate ted lasso?")
    assert not only_asks("salva Duna?")  # a save said as a question asks for it
    assert not only_asks("can you mark it as seen?")
    assert not only_asks("vi duna ontem, nota 8")  # no question


@given(st.text(max_size=80))
@settings(max_examples=200)
def test_reading_whether_a_message_only_asks_never_raises(text: str) -> None:
    from agent.understanding.questions import only_asks

    assert isinstance(only_asks(text), bool)
