"""A message that only asks to find something is answered in code, model or not.

Issue 10: with a small local model, "look for gym" and "did I save anything about
Turing?" took 11 s each and sometimes came back without the thing asked about. The
program reads these itself (agent/understanding/searches.py): a search verb or a
yes-or-no question about having saved something, and a short subject. Anything more
(counts, dates, "the movie I saved yesterday") still goes to the planner.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from agent.understanding.searches import PlainSearch, plain_search
from storage import Database
from tests.support.harness import Lembra, open_lembra, seed
from tests.support.live import call


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("procura dentista", PlainSearch("dentista")),
        ("busca breaking bad nos meus itens", PlainSearch("breaking bad")),
        ("search my stuff for the office", PlainSearch("office")),
        ("look for gym", PlainSearch("gym")),
        ("Look up Severance!", PlainSearch("Severance")),
        ("eu salvei algum link da bbc?", PlainSearch("bbc", "link")),
        ("did I save anything about Turing?", PlainSearch("Turing")),
        ("tenho alguma nota sobre o wifi?", PlainSearch("wifi", "note")),
        ("find my notes about the trip to Rome", PlainSearch("trip to Rome", "note")),
        ("procura o filme Inception", PlainSearch("Inception", "movie")),
        ("procura filmes", PlainSearch("", "movie")),
    ],
)
def test_a_plain_search_is_read_with_its_subject_and_type(
    message: str, expected: PlainSearch
) -> None:
    assert plain_search(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "quantos filmes de terror eu salvei?",
        "procura o filme que eu salvei ontem",
        "search for movies with tom hanks",
        "where is my note about the dentist?",
        "search for it",
        "procura",
        "procura tudo",
        "você pode procurar dentista?",
        "find the note about the plumber and the electrician and the roof guy",
        "procura dentista\napaga o resto",
    ],
)
def test_anything_more_than_a_plain_search_is_left_to_the_planner(message: str) -> None:
    assert plain_search(message) is None


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    await seed(
        db,
        [
            "anota: a academia fecha às 22h na sexta",
            "salva o link https://en.wikipedia.org/wiki/Alan_Turing",
            "anota: ligar para o dentista",
        ],
    )
    async with open_lembra(db, counting_model=True) as running:
        yield running


async def test_the_offline_planner_finds_the_subject_of_a_question(db: Database) -> None:
    await seed(db, ["salva o link https://en.wikipedia.org/wiki/Alan_Turing"])
    async with open_lembra(db) as offline:
        reply = await offline.say("did I save anything about Turing?")
        assert "Alan_Turing" in reply.text  # a path's underscores separate its words
        reply = await offline.say("eu salvei alguma nota sobre o Turing?")
        assert "«Turing»" in reply.text  # a link, not a note: nothing found, said with the subject


async def test_a_type_the_message_never_named_does_not_hide_the_item(lembra: Lembra) -> None:
    """The small model copied the schema example's `"type": "movie"` into every search."""
    # messages the code does not answer itself: the model plans the search
    reply = await lembra.say(
        "me mostra o que tem de academia",
        llm=[call("search_items", query="academia", type="movie")],
    )
    assert "academia fecha" in reply.text
    reply = await lembra.say(
        "show me what there is on Turing",
        llm=[call("search_items", query="Alan Turing", type="note")],
    )
    assert "Alan_Turing" in reply.text
    assert lembra.model_calls == 2


async def test_a_type_the_user_named_is_kept(lembra: Lembra) -> None:
    reply = await lembra.say(
        "procura filmes da academia", llm=[call("search_items", query="academia", type="movie")]
    )
    assert "academia fecha" not in reply.text
    assert "«academia»" in reply.text
