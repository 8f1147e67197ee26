"""Questions about saved things answered from storage, in code (issue 26).

A model is configured (the counting server, with no scripted output), so a question
that reached it would be recorded: none may. Replies are in the message's language,
and never come from a lookup (TMDB, a fetched page).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from agent.clock import FakeClock
from agent.planning.structured import step_tools
from storage import Database
from tests.support.harness import START, Lembra, open_lembra, seed

SAVED = [
    "salva o link https://www.bbc.com/portuguese",
    "salva o link https://docs.python.org/3/tutorial/",
    "salva esse vídeo https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "salva o filme the matrix",
    "anota: comprar leite",
]


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    await seed(db, SAVED)
    async with open_lembra(db, counting_model=True) as running:
        yield running


async def test_which_link_about_x_is_found_in_storage_not_fetched(lembra: Lembra) -> None:
    pt = await lembra.say("qual era aquele link da bbc?")
    en = await lembra.say("which link did I save about python?")

    assert pt.text.splitlines() == ["Encontrei 1:", "1. https://www.bbc.com/portuguese"]
    assert en.text.splitlines() == ["Found 1:", "1. https://docs.python.org/3/tutorial/"]
    assert pt.meta.tools_executed == en.meta.tools_executed == ("search_items",)  # no fetch
    assert lembra.model_calls == 0


async def test_did_i_save_x_is_answered_yes_or_no(lembra: Lembra) -> None:
    looked_up = len(lembra.tmdb.requests)
    yes = await lembra.say("eu salvei o matrix?")
    no = await lembra.say("eu salvei inception?")
    no_en = await lembra.say("did I save Dune?")

    assert yes.text.splitlines() == ["Sim, está salvo:", "1. The Matrix (1999)"]
    assert no.text == "Não, não encontrei «inception» entre os seus itens."
    assert no_en.text == "No, I did not find «Dune» among your items."
    assert len(lembra.tmdb.requests) == looked_up  # what is saved is the answer, not TMDB
    assert lembra.model_calls == 0


async def test_how_many_is_a_count_in_the_messages_language(lembra: Lembra) -> None:
    videos = await lembra.say("quantos vídeos eu tenho?")
    everything = await lembra.say("quantos itens eu tenho?")
    movies = await lembra.say("how many movies did I save?")

    assert videos.text == "Você tem 1 vídeo."
    assert everything.text == "Você tem 5 itens: 1 nota, 1 filme, 1 vídeo, 2 links."
    assert movies.text == "You have 1 movie."
    assert lembra.model_calls == 0


async def test_what_did_i_save_today_and_yesterday(lembra: Lembra, db: Database) -> None:
    today = await lembra.say("o que eu salvei hoje?")
    lembra.clock.advance(24 * 3600)
    await seed(db, ["anota: ligar pro banco"], clock=FakeClock(START + timedelta(days=1)))
    yesterday = await lembra.say("what did I save yesterday?")
    links = await lembra.say("quais links eu salvei ontem?")
    today_now = await lembra.say("o que eu salvei hoje?")

    assert today.text.startswith(
        "Você salvou 5 itens (links: 2, notas: 1, filmes: 1, vídeos: 1) hoje:"
    )
    assert len(yesterday.text.splitlines()) == 6
    assert yesterday.text.startswith("You saved 5 items (")
    assert yesterday.text.splitlines()[0].endswith(") yesterday:")
    assert links.text.splitlines()[0] == "Você salvou 2 links ontem:"
    assert today_now.text.splitlines() == ["Você salvou 1 item hoje:", "1. ligar pro banco"]


async def test_what_was_it_after_a_search_names_the_item(lembra: Lembra) -> None:
    await lembra.say("I saved something about the bbc, what was it?")
    again = await lembra.say("what was it?")
    assert again.text.startswith("1. https://www.bbc.com/portuguese")
    assert "(link)" in again.text
    assert lembra.model_calls == 0


async def test_nothing_found_is_said_with_the_subject(lembra: Lembra) -> None:
    reply = await lembra.say("o que eu salvei sobre jardinagem?")
    assert reply.text == "Não encontrei nada sobre «jardinagem» entre os seus itens."
    assert reply.meta.state == "OK"


async def test_a_question_the_code_cannot_read_gets_only_search_tools(db: Database) -> None:
    await seed(db, SAVED)
    async with open_lembra(db, counting_model=True, llm_output_mode="json_schema") as lembra:
        await lembra.say(
            "tem algum link daquele site de notícias inglês?",
            llm=[
                {
                    "action": "CALL_TOOL",
                    "tool": "search_items",
                    "args": {"query": "bbc", "type": "link", "limit": None},
                    "message": None,
                    "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
                }
            ],
        )
        body = lembra.requests[0].body
    offered = step_tools(body["response_format"]["json_schema"]["schema"])
    situation = "\n".join(str(m["content"]) for m in body["messages"] if m["role"] == "system")
    # what reads the user's own things and a question back; never a lookup or a save
    assert offered == {
        "search_items",
        "list_items",
        "list_reminders",
        "request_clarification",
        "where_to_watch",
        "suggest_from_list",
        "what_i_said",
        None,
    }
    assert (
        "use só estas ferramentas: list_items, list_reminders, log_reasoning,"
        " request_clarification, search_items, suggest_from_list, what_i_said,"
        " where_to_watch." in situation
    )


async def test_english_names_the_subject_before_the_type_and_now_is_no_subject(
    lembra: Lembra,
) -> None:
    # issue 41: "where's that X link?" searched nothing; "now" was counted as a subject
    found = await lembra.say("where's that python link?")
    counted = await lembra.say("how many movies do i have now?")
    assert found.text.splitlines() == ["Found 1:", "1. https://docs.python.org/3/tutorial/"]
    assert counted.text == "You have 1 movie."
    assert lembra.model_calls == 0


def test_a_question_that_is_more_than_a_subject_is_left_to_the_planner() -> None:
    from agent.understanding.questions import read_question

    # two titles, an exclusion, a state: a search of those words would answer wrongly
    assert read_question("tenho Heat ou Ronin na lista?") is None
    assert read_question("quantos links eu tenho fora os de receita?") is None
    assert read_question("how many Kubrick films have I watched?") is None
    asked = read_question("tenho o Arrival salvo ou nao?")  # "or not" asks the same thing
    assert asked is not None
    assert asked.subject == "Arrival"


async def test_a_question_naming_two_types_answers_each_of_them(lembra: Lembra) -> None:
    counted = await lembra.say("qtos links e quantas notas vc tem aí?")
    listed = await lembra.say("quais vídeos e notas eu tenho?")
    none = await lembra.say("how many notes and shows do I have?")

    assert counted.text == "Você tem 3 itens: 2 links, 1 nota."
    assert listed.text.splitlines() == [
        "Seus itens (2):",
        "",
        "Notas (1):",
        "1. comprar leite",
        "",
        "Vídeos (1):",
        "2. esse vídeo — https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    ]
    assert none.text == "You have 1 item: 1 note, 0 shows."
    assert lembra.model_calls == 0


async def test_a_count_asked_after_who_has_it_and_an_also_are_still_the_list(
    lembra: Lembra,
) -> None:
    counted = await lembra.say("vc sabe qtas coisas eu salvei?")
    also = await lembra.say("tb tenho vídeo?")

    assert counted.text == "Você tem 5 itens: 1 nota, 1 filme, 1 vídeo, 2 links."
    assert also.text.splitlines()[0] == "Vídeos (1):"
    assert lembra.model_calls == 0


async def test_whose_thing_is_asked_for_finds_the_note_that_says_whose(db: Database) -> None:
    await seed(db, ["note: Marco's wifi password is tangerine77", "note: gym wifi is open"])
    async with open_lembra(db, counting_model=True) as lembra:
        found = await lembra.say("what's marco's wifi password?")
        assert found.text.splitlines() == ["Found 1:", "1. Marco's wifi password is tangerine77"]
        assert lembra.model_calls == 0


def test_a_whose_question_with_no_thing_named_is_left_to_the_planner() -> None:
    from agent.understanding.questions import read_question

    assert read_question("what's it's name?") is None
    assert read_question("what's Tom's?") is None


async def test_a_period_asked_without_its_verb_or_with_new_lists_that_period(
    lembra: Lembra,
) -> None:
    saved = await lembra.say("saved anything this week?")
    novo = await lembra.say("algo novo hoje?")
    links = await lembra.say("added any links today?")

    assert saved.text.startswith("You saved 5 items (")
    assert saved.text.splitlines()[0].endswith(") this week:")
    assert novo.text.startswith("Você salvou 5 itens (")
    assert links.text.splitlines()[0] == "You saved 2 links today:"
    assert lembra.model_calls == 0  # in code, not a search for "week"
