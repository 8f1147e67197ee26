"""The reminder and undo tools through the planner (issue 43, DESIGN 11.1), scripted model.

The clock starts Monday 2026-01-05 10:00 in São Paulo (tests/support/harness.py).
"""

from __future__ import annotations

import json

from storage import Database
from tests.support.harness import ALICE, open_lembra
from tests.support.live import call

BOB = "cli:bob"


async def test_set_reminder_places_the_phrase_with_the_grammar_and_refuses_an_unsaid_time(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say(
            "preciso não esquecer de ligar pro João quinta às 9",
            llm=[
                call("set_reminder", text="ligar pro João", when="2026-01-08T07:00"),
                call("set_reminder", text="ligar pro João", phrase="quinta às 9"),
            ],
        )
        assert "08/01 às 09:00" in reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "ligar pro João"
        refusal = lembra.requests[-1].body["messages"][-1]["content"]
        assert "`when` is not the time the user's message states" in refusal


async def test_a_rule_the_message_never_asked_for_is_refused_and_the_reminder_set_once(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say(
            "quero que você me cutuque pra começar o filme hoje às 21h",
            llm=[
                call(
                    "set_reminder", text="começar o filme", phrase="hoje às 21h", rule="FREQ=DAILY"
                ),
                call("set_reminder", text="começar o filme", phrase="hoje às 21h"),
            ],
        )
        (reminder,) = await db.reminders.for_user(ALICE)
        refusal = lembra.requests[-1].body["messages"][-1]["content"]
    assert reminder.rule is None
    assert "21:00" in reply.text
    assert "todo dia" not in reply.text
    assert "asks for no repetition" in refusal


async def test_a_repeating_reminder_by_rule_then_listed_changed_and_cancelled(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say(
            "quero um aviso pra regar as plantas às 7h, segunda e quinta, sempre",
            llm=[
                call(
                    "set_reminder",
                    text="regar as plantas",
                    phrase="às 7h",
                    rule="RRULE:FREQ=WEEKLY;BYDAY=MO,TH",
                )
            ],
        )
        (reminder,) = await db.reminders.for_user(ALICE)
        assert (reminder.rule, reminder.start_local) == (
            "FREQ=WEEKLY;BYDAY=MO,TH",
            "2026-01-08T07:00",
        )
        listed = await lembra.say("o que tenho marcado?", llm=[call("list_reminders")])
        assert "toda segunda e quinta às 07:00" in listed.text
        moved = await lembra.say(
            "passa as plantas pras 8",
            llm=[call("change_reminder", query="plantas", phrase="às 8")],
        )
        assert "08:00" in moved.text
        skipped = await lembra.say(
            "pula a próxima das plantas",
            llm=[call("cancel_reminder", reminder_id=reminder.id, scope="next")],
        )
        assert "12/01" in skipped.text
        assert "plantas" in (await lembra.say("esquece o que fiz", llm=[call("undo_last")])).text
        types = await lembra.event_types()
        assert types.count("reminder_changed") == 1
        assert types.count("undone") == 1


async def test_a_reminder_of_another_user_is_never_touched(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra amanhã às 9h de pagar a conta", user=BOB)
        (theirs,) = await db.reminders.for_user(BOB)
        reply = await lembra.say(
            "cancela aquele aviso",
            llm=[call("cancel_reminder", reminder_id=theirs.id)],
        )
        assert "não achei esse lembrete" in reply.text
        assert reply.meta.state == "FAIL"
        assert (await db.reminders.for_user(BOB))[0].state == "scheduled"


async def test_the_next_reminders_are_in_the_frame_with_a_handle_the_tools_take(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("oi, tudo bem? anota isso depois", llm=[call("undo_last")])
        assert "Lembretes:" not in json.dumps(lembra.requests[-1].body, ensure_ascii=False)
        await lembra.say("me lembra amanhã às 9h de levar o bolo")
        await lembra.say("me lembra daqui a 10 dias de renovar o seguro")  # too far off
        (soon, _later) = await db.reminders.for_user(ALICE)
        handle = soon.id[:8]
        await lembra.say(
            "o aviso do bolo pode sumir", llm=[call("cancel_reminder", reminder_id=handle)]
        )
        sent = json.dumps(lembra.requests[-1].body, ensure_ascii=False)
        told = sent[sent.index("Lembretes:") :].split("\\n", 1)[0]
        assert told.startswith(f"Lembretes: {handle} 01-06 09:00")
        assert "levar o bolo" in told
        assert "renovar o seguro" not in told
        assert (await db.reminders.get(ALICE, soon.id)).state == "cancelled"  # type: ignore[union-attr]


async def test_cancelling_a_repeating_reminder_with_no_scope_asks_next_or_all(
    db: Database,
) -> None:
    """The model used to cancel every occurrence (the tool defaulted to "all"): now the user
    is asked, as «cancela o lembrete do X» in code asks (DESIGN 11.4)."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra todo dia às 20h de passear com o cachorro")
        (reminder,) = await db.reminders.for_user(ALICE)
        asked = await lembra.say(
            "tira esse lembrete do cachorro aí",
            llm=[call("cancel_reminder", query="cachorro")],
        )
        assert asked.choice_kind is not None, asked.text
        assert (await db.reminders.get(ALICE, reminder.id)).state == "scheduled"  # type: ignore[union-attr]


async def test_cancel_the_x_reminder_is_read_in_code_and_asks_for_a_repeating_one(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("remind me every day at 8pm to walk the dog")
        asked = await lembra.say("cancel the dog reminder")
        assert asked.meta.llm_calls == 0
        assert asked.choice_kind is not None, asked.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.state == "scheduled"
