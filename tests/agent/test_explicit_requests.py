"""Explicit requests the planner must not talk its way around (issue 26).

"note: call the bank" is a note to keep, not a request to call anyone: when the model
asks back or only answers, the note is saved as written. A question the planner asked
is dropped, not answered, by a request of its own ("lista tudo", "anota: X", "apaga o 2").
"""

from __future__ import annotations

from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import BELIEF, call, respond

ASK = {
    "action": "CALL_TOOL",
    "tool": "request_clarification",
    "args": {"question": "Do you want me to call the bank?", "options": ["Yes", "No"]},
    "message": None,
    "belief": BELIEF,
}


async def test_an_explicit_note_the_model_asks_back_about_is_saved(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        asked = await lembra.say("note: call the bank", llm=[ASK])
        answered = await lembra.say("anota: ligar pro João", llm=[respond("Vou ligar.")])
        notes = [i.content for i in await lembra.items()]
        pending = await lembra.pending()
    assert asked.text == "✅ Saved: call the bank."
    assert answered.text == "✅ Salvo: ligar pro João."
    assert notes == ["call the bank", "ligar pro João"]
    assert pending is None
    assert asked.meta.tools_executed == ("save_note",)
    assert lembra.model_calls == 2


async def test_a_model_save_stands_and_other_messages_keep_the_models_answer(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: pão", llm=[call("save_note", content="pão")])
        question = await lembra.say("salva aquele documentário", llm=[ASK])
        assert question.text.startswith("Do you want me to call the bank?")
        assert [i.content for i in await lembra.items()] == ["pão"]


async def test_a_request_of_its_own_drops_an_open_question(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: pão", llm=[call("save_note", content="pão")])
        await lembra.say("salva aquele documentário", llm=[ASK])
        listed = await lembra.say("lista tudo")
        assert listed.text.splitlines()[0] == "(A pergunta pendente foi descartada.)"
        assert "1. pão" in listed.text
        assert await lembra.pending() is None
        await lembra.say("salva aquele documentário", llm=[ASK])
        noted = await lembra.say("anota: leite", llm=[call("save_note", content="leite")])
        assert "Salvo: leite" in noted.text
        assert [i.content for i in await lembra.items()] == ["pão", "leite"]
