"""What the wave-13 blind first run showed the in-code readers missing, in words of our own:
a delete-all whose "everything" says where it is kept, a change of mind before a deletion,
and a typed save whose title holds a holiday's name."""

from __future__ import annotations

import pytest

from agent.understanding.intent import IntentClassifier
from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import call


@pytest.fixture(scope="module")
def classifier() -> IntentClassifier:
    return IntentClassifier()


@pytest.mark.parametrize(
    "said",
    [
        "limpa tudo que eu tenho guardado aqui",
        "apaga tudo q tenho salvo na lista",
        "erase everything i have stored",
        "wipe everything ive got saved here",
    ],
)
def test_everything_followed_by_where_it_is_kept_is_a_delete_all(
    classifier: IntentClassifier, said: str
) -> None:
    assert classifier.classify(said).action == "delete_all"


@pytest.mark.parametrize(
    ("said", "not_action"),
    [
        ("apaga tudo da lista do mercado", "delete_all"),  # one note's contents, not the list
        ("nao apaga tudo que eu tenho salvo", "delete_all"),
        ("apaga tudo que eu tenho salvo?", "delete_all"),  # a question about how: help
    ],
)
def test_a_narrower_or_negated_or_asked_everything_is_no_delete_all(
    classifier: IntentClassifier, said: str, not_action: str
) -> None:
    assert classifier.classify(said).action != not_action


async def test_a_change_of_mind_before_a_deletion_asks_to_delete(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva a série Os Normais")
        asked = await lembra.say("pensando bem, tira os normais da lista")
        kept = await lembra.items()
        await lembra.say("sim")
        left = await lembra.items()

    assert "Os Normais" in asked.text
    assert "sim/não" in asked.text
    assert [i.title for i in kept] == ["Os Normais"]  # nothing goes before the "sim"
    assert left == []


async def test_a_typed_save_with_a_holiday_in_its_title_is_a_save_not_a_reminder(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        saved = await lembra.say("adiciona o filme Os Inconfidentes de Tiradentes, de 1972")
        task = await lembra.say("bota o lixo pra fora amanhã 8h")
        items = await lembra.items()

    assert [(i.type, i.year) for i in items] == [("movie", 1972)]
    assert "Inconfidentes" in saved.text
    assert "lembrar" not in saved.text
    assert "08:00" in task.text  # a verb that puts things somewhere, with no typed item: a task


def test_a_title_before_eu_vi_defers_when_what_was_seen_follows_the_verb() -> None:
    """A title before "eu vi" ("superbad eu vi ontem") must not swallow an aside when what was
    seen comes after the verb ("kkk na real eu já vi as duas"): another reader reads that."""
    from agent.understanding.watchlist import read_mark_clauses

    assert read_mark_clauses("kkk na real eu ja vi as duas, so esqueci de marcar") is None
    assert read_mark_clauses("lol eu vi os dois") is None
    titled = read_mark_clauses("superbad eu assisti ontem, nota 8")
    assert titled is not None
    assert (titled.title, titled.rating, titled.days_ago) == ("superbad", 8, 1)


async def test_both_seen_after_an_aside_marks_both(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("salva as séries Fleabag e The Crown")
        await lembra.say("kkk na real eu ja vi as duas, so esqueci de marcar")
        items = await lembra.items()

    assert sorted((i.title, i.state) for i in items) == [("Fleabag", "seen"), ("The Crown", "seen")]


def test_an_hour_form_after_whole_days_is_that_days_clock_not_more_hours() -> None:
    """ "daqui uma semana, 14h" set a reminder 14 hours from now (a week early): the days
    and "14h" were added as one amount."""
    from agent.understanding.reminders.lexicon import tokenize
    from agent.understanding.reminders.relative import Relative, read_relative

    def amount(said: str) -> Relative | None:
        read = read_relative(tokenize(said), 0)
        return read[0] if read else None

    assert amount("daqui uma semana, 15h, renovar o seguro") == Relative(days=7)
    assert amount("daqui 3 dias 8h") == Relative(days=3)
    assert amount("daqui 2 dias e 3h") == Relative(seconds=3 * 3600, days=2)  # "e": a sum
    assert amount("em 2 horas, 15 minutos") == Relative(seconds=2 * 3600 + 15 * 60)


async def test_a_week_from_now_at_an_hour_is_set_that_day(db: Database) -> None:
    async with open_lembra(db) as lembra:
        reply = await lembra.say("me lembra daqui uma semana, 15h, de renovar o seguro")

    assert "15:00" in reply.text
    assert "12/01" in reply.text


@pytest.mark.parametrize(
    "said", ["rs na real eu já vi as duas", "a gente assistiu e eu li as 3 partes ontem"]
)
def test_something_seen_or_done_is_no_reminder_of_its_clock_like_words(said: str) -> None:
    """ "as duas" is also "at two": after "vi"/"li" the message says what was done."""
    from agent.understanding.reminders import route

    assert route(said) is None


async def test_a_mark_by_id_of_a_series_when_the_message_names_a_film_is_asked_again(
    db: Database,
) -> None:
    """On "e o filme do oppenhaimer eu já vi, nota 9" the 1.5B model marked the series just
    shown (by its handle), not the misspelt film the message names: refused, then re-asked."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva o filme Oppenheimer")
        await lembra.say("salva a série The Last of Us")
        series = next(i for i in await lembra.items() if i.type == "tv_show")
        reply = await lembra.say(
            "aquele filme do oppenhaimer, vi no cinema com a Ana",
            llm=[
                call("mark_item", state="seen", item_id=series.id[:8]),
                call("mark_item", state="seen", query="oppenhaimer"),
            ],
        )
        states = {i.title: i.state for i in await lembra.items()}

    assert states == {"Oppenheimer": "seen", "The Last of Us": None}
    assert "Oppenheimer" in reply.text


async def test_a_repeating_reminder_at_lunch_is_set_at_noon_not_a_crash(db: Database) -> None:
    """Hypothesis found "me lembra todo dia LUNCH" raising KeyError: lunch, one moment of the
    day, had no hours to ask between; "todo dia no almoço" crashed the turn the same way."""
    async with open_lembra(db) as lembra:
        pt = await lembra.say("me lembra todo dia no almoço de tomar o remédio")
        en = await lembra.say("remind me every day at lunch to take my pills")

    assert "12:00" in pt.text
    assert "12:00" in en.text
