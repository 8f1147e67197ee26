"""`request_clarification` (issue 13): the planner's question with options, answered back as its result."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from agent.conversation.clarifying import matching_option
from agent.planning.grounding import rules_for
from agent.tools.asking import RequestClarificationArgs
from agent.types import Incoming
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra

BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}
OPTIONS = ["Guardar como nota", "Guardar como link", "Não guardar"]


def ask(question: str = "Como guardo?", options: list[str] = OPTIONS) -> dict[str, Any]:
    args = {"question": question, "options": options}
    return {
        "action": "CALL_TOOL",
        "tool": "request_clarification",
        "args": args,
        "message": None,
        "belief": BELIEF,
    }


def respond(message: str) -> dict[str, Any]:
    return {"action": "RESPOND", "tool": None, "args": None, "message": message, "belief": BELIEF}


async def asked_call_id(lembra: Lembra) -> str:
    """The id of the planner call the open clarification holds."""
    pending = await lembra.db.pending.peek(ALICE, ALICE)
    assert pending is not None
    assert pending.kind == "choose_clarification"
    return str(json.loads(pending.payload_json)["call_id"])


def answered(lembra: Lembra, call_id: str) -> dict[str, Any]:
    """The tool result answering `call_id` in the last request, right after the call itself."""
    last = lembra.requests[-1].body["messages"]
    (at,) = [i for i, m in enumerate(last) if m.get("tool_call_id") == call_id]
    assert [c["id"] for c in last[at - 1]["tool_calls"]] == [call_id]
    assert json.loads(last[at - 1]["tool_calls"][0]["function"]["arguments"])["tool"] == (
        "request_clarification"
    )
    return dict(json.loads(last[at]["content"]))


# -- the arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        (["Sim"], "at least 2"),
        (["a", "b", "c", "d", "e", "f"], "at most 5"),
        (["Sim", " sim "], "same"),
        (["Sim", "   "], "option 2 is empty"),
        (["Sim", "x" * 61], "longer than 60"),
    ],
)
def test_options_must_be_two_to_five_short_distinct_ones(options: list[str], problem: str) -> None:
    with pytest.raises(ValidationError, match=problem):
        RequestClarificationArgs.model_validate({"question": "Qual?", "options": options})


def test_valid_options_are_kept_cleaned_and_never_grounded() -> None:
    args = RequestClarificationArgs.model_validate(
        {"question": " Qual? ", "options": [" Inception ", "Paprika"]}
    )
    assert (args.question, args.options) == ("Qual?", ["Inception", "Paprika"])
    assert rules_for(RequestClarificationArgs) == ()  # the model's words, not facts


@pytest.mark.parametrize(
    ("said", "index"),
    [
        ("guardar como link", 1),
        ("como nota", 0),
        ("quero guardar como nota!", 0),
        ("guardar como lnik", 1),
        ("guardar", None),  # two options say it: not a guess
        ("não, na verdade quero ver outra coisa antes", None),  # the user's own words
        ("", None),
    ],
)
def test_an_answer_in_words_picks_the_one_option_it_names(said: str, index: int | None) -> None:
    assert matching_option(said, OPTIONS) == index


# -- the turn ----------------------------------------------------------------------------------


async def test_a_button_answer_is_the_asking_calls_result(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("https://example.com/receita de bolo", llm=[ask()])
        assert reply.meta.state == "AMBIGUOUS"
        assert [c.label for c in reply.choices] == OPTIONS
        assert "2. Guardar como link" in reply.text
        event = (await lembra.events())[-1]
        assert event.type == "clarification_asked"
        assert event.payload["options"] == 3
        assert "Guardar" not in json.dumps(event.payload)  # digests only
        call_id = await asked_call_id(lembra)

        await lembra.handle(
            Incoming(
                channel="console",
                chat_id="alice",
                user_id=ALICE,
                kind="choice",
                choice=1,
                choice_token=reply.choice_token,
            ),
            llm=[respond("Ok, guardo como link.")],
        )
        result = answered(lembra, call_id)
        assert result["status"] == "answered"
        assert result["option"] == 2
        assert "Guardar como link" in result["label"]
        assert await lembra.pending() is None


async def test_words_that_name_no_option_go_back_as_free_text(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("receita de bolo de cenoura", llm=[ask()])
        call_id = await asked_call_id(lembra)
        reply = await lembra.say(
            "depois eu decido isso com calma, obrigado", llm=[respond("Tudo bem.")]
        )
        assert "Tudo bem." in reply.text
        result = answered(lembra, call_id)
        assert result["option"] is None
        assert "depois eu decido isso com calma" in result["free_text"]
        # the stored history pairs the call with its answer: the next request is valid
        await lembra.say("e agora?", llm=[respond("Nada pendente.")])
        assert lembra.requests[-1].status == 200
