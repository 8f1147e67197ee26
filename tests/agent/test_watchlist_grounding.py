"""The model's watchlist arguments grounded (issue 44): a title never carries a rating or the
request's own words, in phrasings of our own (not the blind sets')."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.planning.grounding import _an_episode_only, _holds_request_verb, _plural_missed, fold
from agent.tools.marking import MarkItemArgs
from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import call, respond


async def test_a_mark_whose_name_carries_the_rating_is_refused(db: Database) -> None:
    """The model named the film with the rating written into it: refused, and its next call,
    the film by its title with the rating apart, is what runs."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva o filme The Matrix")
        reply = await lembra.say(
            "aquele do neo já tá visto, nota 8",
            llm=[
                call("mark_item", query="The Matrix - Nota 8.00", state="seen"),
                call("mark_item", query="The Matrix", state="seen", rating=8),
            ],
        )
        items = await lembra.items()

    assert [(i.title, i.state, i.rating) for i in items] == [("The Matrix", "seen", 8)]
    assert "8.00" not in reply.text


async def test_an_edit_that_writes_a_decimal_rating_into_the_title_is_refused(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva o filme The Matrix")
        film = (await lembra.items())[0]
        await lembra.say(
            "aquele do neo já tá visto, nota 8",
            llm=[
                call("update_item", item_id=film.id[:8], title="The Matrix (1999) - Nota 8.00"),
                call("mark_item", item_id=film.id[:8], state="seen", rating=8),
            ],
        )
        items = await lembra.items()

    assert [(i.title, i.state, i.rating) for i in items] == [("The Matrix", "seen", 8)]


async def test_the_request_saved_as_a_title_is_refused(db: Database) -> None:
    """A chatty message whose only verb is the save: the model's "title" made of the request
    is refused; its next call names the film the where-to-watch answer just named."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("onde assistir the matrix?")
        reply = await lembra.say(
            "hmm caro pra alugar... guarda assim mesmo q qualquer dia eu assisto",
            llm=[
                call("save_movie", title="Guarda assim mesmo q qualquer dia eu assisto"),
                call("save_movie", title="The Matrix"),
            ],
        )
        items = await lembra.items()

    assert [i.title for i in items] == ["The Matrix"]
    assert "qualquer dia" not in reply.text


@pytest.mark.parametrize(
    ("title", "message", "held"),
    [
        ("bota ai que eu vejo depois", "ok bota ai que eu vejo depois", True),
        ("Remember the Titans", "salva o filme remember the titans", False),  # verb outside
        ("Keep it for later", "hm, keep it for later", True),
        ("Parasita", "parasita, adiciona pfv", False),  # no verb in the title
        ("add later pls", "i want it", True),  # the model's words, with a verb
    ],
)
def test_a_title_holds_the_request_verb_only_when_the_message_has_none_outside_it(
    title: str, message: str, held: bool
) -> None:
    assert _holds_request_verb(fold(title), fold(message)) is held


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80), st.text(max_size=120))
def test_the_request_verb_check_never_raises(title: str, message: str) -> None:
    assert isinstance(_holds_request_verb(fold(title), fold(message)), bool)


async def test_a_mark_of_one_item_when_the_message_names_two_is_asked_again(
    db: Database,
) -> None:
    """ "as duas" names two items: the model's mark of one of them is refused, and its next
    call, both, is what runs."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva o filme The Matrix")
        await lembra.say("salva a série Dark")
        ids = [i.id for i in await lembra.items()]
        await lembra.say(
            "aquelas duas coisas que salvei agora: pois é, já era, vi as duas",
            llm=[
                call("mark_item", item_id=ids[0], state="seen"),
                call("mark_item", item_id=ids, state="seen"),
            ],
        )
        states = {i.title: i.state for i in await lembra.items()}

    assert states == {"The Matrix": "seen", "Dark": "seen"}


@pytest.mark.parametrize(
    ("said", "ids", "refused"),
    [
        ("rs eu já vi os dois", ["a"], True),
        ("finished all three last week", ["a", "b"], True),
        ("watched both", ["a", "b"], False),
        ("vi os dois primeiros episódios de dark", ["a"], False),  # one item's parts
    ],
)
def test_a_plural_reference_wants_as_many_items(said: str, ids: list[str], refused: bool) -> None:
    args = MarkItemArgs(item_id=ids if len(ids) > 1 else ids[0], state="seen")
    assert (_plural_missed(args, said) is not None) is refused


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=120))
def test_the_plural_check_never_raises(said: str) -> None:
    _plural_missed(MarkItemArgs(query="x", state="seen"), said)


async def test_an_episode_watched_never_marks_the_series_seen(db: Database) -> None:
    """The model marked the series after "I watched the first episode": refused, and its
    next step, an answer, changes nothing."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva a série Slow Horses")
        reply = await lembra.say(
            "assisti o ep 1 ontem, curti demais",
            llm=[
                call("mark_item", query="Slow Horses", state="seen"),
                respond("Que bom que curtiu! Quando terminar, me avisa."),
            ],
        )
        finished = await lembra.say(
            "terminei slow horses, vi o último episódio hoje",
            llm=[call("mark_item", query="Slow Horses", state="seen")],
        )
        items = await lembra.items()

    assert "curtiu" in reply.text
    assert "Slow Horses" in finished.text
    assert [(i.title, i.state) for i in items] == [("Slow Horses", "seen")]


@given(st.text(max_size=80))
def test_the_episode_check_never_raises(message: str) -> None:
    _an_episode_only(MarkItemArgs(query="x", state="seen"), message)
