"""Code answers what it is sure of (issue 41): each in-code reader returns a request only when
its reading is unambiguous, and declines otherwise, so the message is planned, never answered
with a guess. With no model the planner is the offline rules: a question is never saved, and
a search never looks for the question's own words."""

from __future__ import annotations

import pytest

from agent.planning.offline import offer_for, plan_offline
from agent.understanding.batches import read_batch
from agent.understanding.intent import IntentClassifier
from agent.understanding.kinds import carries_clause, guessed_title, names_person
from agent.understanding.smalltalk import asks_capability, last_saved_question
from storage import Database
from tests.support.harness import open_lembra

NO_TMDB = "https://api.themoviedb.org/3"


@pytest.mark.parametrize(
    "message",
    [
        "guarda Oppenheimer pra assistir com o Lucas e a Bia",
        "save Arrival to watch with Maria and Tom",
        "add Barbie and Oppenheimer to rewatch with my cousins",
        "bota Tenet e a Carla",
        "salva Coringa com minha irmã e Duna",
    ],
)
def test_x_and_y_with_words_about_a_title_is_no_list(message: str) -> None:
    assert read_batch(message, split_and=True) is None


@pytest.mark.parametrize(
    ("message", "titles"),
    [
        ("salva Oppenheimer e Barbie", ("Oppenheimer", "Barbie")),
        ("add Arrival and Sicario", ("Arrival", "Sicario")),
        ("guarda Gone with the Wind, Back to the Future e Tenet", None),
    ],
)
def test_bare_titles_still_split(message: str, titles: tuple[str, ...] | None) -> None:
    batch = read_batch(message, split_and=True)
    assert batch is not None
    if titles is not None:
        assert batch.pieces == titles
    else:
        assert batch.pieces == ("Gone with the Wind", "Back to the Future", "Tenet")


def test_a_clause_or_a_person_is_read_as_such() -> None:
    assert carries_clause("Arrival pra ver com a Bia")
    assert carries_clause("Sicario to show my dad")
    assert carries_clause("a Carla tb curtiu")
    assert not carries_clause("Back to the Future")
    assert not carries_clause("Um Sonho de Liberdade")
    assert names_person("o Lucas")
    assert not names_person("Tenet")
    # a single title with what it is for is no title guess: the words are kept as a note
    assert guessed_title("salva Arrival pra rever com a Bia", "Arrival pra rever com a Bia") is None
    assert guessed_title("save Back to the Future", "Back to the Future") is not None


async def test_an_x_and_y_phrase_without_tmdb_is_one_item_never_two_titles(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("guarda Oppenheimer pra assistir com o Lucas e a Bia")
        items = await lembra.items()
    assert len(items) == 1
    assert "Lucas" in (items[0].content or items[0].title or "")


async def test_a_continuation_naming_a_person_or_saying_more_saves_nothing(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say("salva o filme Arrival")
        person = await lembra.say("e o Lucas tb")
        verb = await lembra.say("e a Carla também curtiu")
        title = await lembra.say("e a série Severance também")
        items = await lembra.items()
    assert sorted(i.title or "" for i in items) == ["Arrival", "Severance"]
    assert "Lucas" not in person.text or "Salvo" not in person.text
    assert not verb.text.startswith("✅")
    assert title.text.startswith("✅")


@pytest.mark.parametrize(
    "message",
    ["vc guarda séries?", "do you keep links?", "você anota notas também?", "can u store videos?"],
)
def test_a_capability_question_is_help_not_a_list(message: str) -> None:
    assert asks_capability(message)
    assert IntentClassifier().classify(message).action == "help"


@pytest.mark.parametrize(
    "message",
    [
        "quantas séries eu tenho?",
        "can you save Arrival?",
        "você salvou meus filmes?",
        "lista filmes",
    ],
)
def test_what_is_no_capability_question_stays_what_it_was(message: str) -> None:
    assert not asks_capability(message)


def test_the_last_one_saved_is_one_item_the_last_ones_a_list() -> None:
    assert last_saved_question("qual a última série que eu guardei?") == "tv_show"
    assert last_saved_question("which was the latest link I added?") == "link"
    assert last_saved_question("qual foi a última coisa que salvei?") == "all"
    assert last_saved_question("quais os últimos filmes que salvei?") is None
    assert last_saved_question("qual o último filme do Nolan que salvei?") is None


async def test_the_last_thing_saved_is_answered_with_that_one(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        none_yet = await lembra.say("qual a última série que eu guardei?")
        await lembra.say("salva a série Dark")
        await lembra.say("salva a série Severance")
        await lembra.say("anota: trocar a lâmpada")
        series = await lembra.say("qual a última série que eu guardei?")
        anything = await lembra.say("what was the latest thing I saved?")
    assert "Severance" not in none_yet.text
    assert series.text.splitlines()[0] == "Severance"
    assert "Dark" not in series.text
    assert anything.text.splitlines()[0] == "trocar a lâmpada"


@pytest.mark.parametrize(
    ("message", "intent", "planned"),
    [
        ("quantos lembretes tenho?", "search", ("list_reminders", {})),
        (
            "how many reminders do I have for tomorrow?",
            "search",
            ("list_reminders", {"period": "tomorrow"}),
        ),
        ("o que eu tenho pra hoje?", "search", ("list_reminders", {"period": "today"})),
        (
            "por acaso eu salvei algo sobre imposto?",
            "search",
            ("search_items", {"query": "imposto"}),
        ),
        (
            "maybe I kept something about the landlord?",
            "search",
            ("search_items", {"query": "landlord"}),
        ),
        ("do I have any links?", "search", ("search_items", {"type": "link"})),
        ("guarda Arrival?", "save", None),
        ("anota ligar pro banco?", "save", None),
        ("pode guardar o filme Arrival?", "save", ("enrich_movie", {"title": "Arrival"})),
    ],
)
def test_the_offline_planner_reads_questions_as_questions(
    message: str, intent: str, planned: tuple[str, dict[str, object]] | None
) -> None:
    assert plan_offline(message, intent) == planned


def test_a_question_asking_to_save_is_asked_back() -> None:
    assert offer_for("guarda Arrival?") == ("save_movie", {"title": "Arrival"})
    assert offer_for("anota ligar pro banco?") == ("save_note", {"content": "ligar pro banco"})
    assert offer_for("quantos lembretes tenho?") is None


async def test_a_save_asked_as_a_question_is_kept_only_after_yes(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url=NO_TMDB) as lembra:
        asked = await lembra.say("guarda Arrival?")
        assert await lembra.items() == []
        await lembra.say("sim")
        items = await lembra.items()
    assert "Arrival" in asked.text
    assert [(i.type, i.title) for i in items] == [("movie", "Arrival")]
