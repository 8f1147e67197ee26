"""Repeating reminders and reminders in words through `Runtime.handle` (issue 43, DESIGN 11.4).

The clock starts Monday 2026-01-05 10:00 in São Paulo (tests/support/harness.py).
"""

from __future__ import annotations

import json
from datetime import datetime
from zoneinfo import ZoneInfo

from agent.conversation.background import run_due
from storage import Database
from tests.agent.test_reminders import Pushed
from tests.support.harness import ALICE, open_lembra, restarted

BOB = "cli:bob"


async def test_a_daily_reminder_states_its_rule_and_is_sent_once_per_day(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("todo dia às 8h me lembra de tomar o remédio")
        assert "todo dia às 08:00: tomar o remédio" in reply.text
        assert "Próximo: em 06/01 às 08:00 (amanhã)" in reply.text
        listed = await lembra.say("meus lembretes")
        assert "todo dia às 08:00 · tomar o remédio (próximo: em 06/01 às 08:00)" in listed.text
        assert lembra.model_calls == 0
        push = Pushed()
        async with restarted(lembra, db) as other:  # a second worker on the same database
            lembra.clock.advance(22 * 3600)  # Tuesday 08:00
            for _day in range(3):
                await run_due(lembra.deps, push=push)
                await run_due(other.deps, push=push)
                lembra.clock.advance(24 * 3600)
        assert [t for _, t, _ in push.sent] == ["Lembrete: tomar o remédio"] * 3
        (reminder,) = await db.reminders.for_user(ALICE)
        assert (reminder.state, reminder.sent_count) == ("scheduled", 3)


async def test_a_repeating_reminder_asks_next_or_all_and_undo_puts_it_back(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra toda segunda às 9h de tomar o remédio")
        asked = await lembra.say("cancela o lembrete do remédio")
        assert "Só o próximo" in asked.text
        assert "Todos" in asked.text
        skipped = await lembra.press(0, token=asked.choice_token)
        assert "19/01" in skipped.text  # the 12th is skipped
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.state == "scheduled"
        assert "está de volta" in (await lembra.say("desfaz")).text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.due_at_ms < lembra.clock.ms() + 8 * 86400 * 1000  # the 12th again
        asked = await lembra.say("cancela o lembrete do remédio")
        done = await lembra.say("todos")
        assert "cancelado" in done.text
        assert (await db.reminders.for_user(ALICE))[0].state == "cancelled"


async def test_reminders_in_words_are_answered_and_changed_in_code(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        assert "não tem lembretes" in (await lembra.say("tenho algum lembrete?")).text
        await lembra.say("me lembra amanhã às 9h de ir ao dentista")
        moved = await lembra.say("na verdade às 10")
        assert "10:00" in moved.text
        assert "dentista" in moved.text
        await lembra.say("me lembra hoje às 18h de comprar pão")
        answer = await lembra.say("tenho algum lembrete?")
        assert "dentista" in answer.text
        assert "pão" in answer.text
        tomorrow = await lembra.say("quais lembretes pra amanhã?")
        assert "dentista" in tomorrow.text
        assert "pão" not in tomorrow.text
        changed = await lembra.say("muda o lembrete do pão para 19h")
        assert "19:00" in changed.text
        cancelled = await lembra.say("cancela o do dentista")
        assert "cancelado" in cancelled.text
        assert lembra.model_calls == 0
        types = await lembra.event_types()
        assert types.count("reminder_changed") == 2
        undone = await lembra.say("desfaz")
        assert "dentista" in undone.text


async def test_snoozing_one_occurrence_leaves_the_rule_alone(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra todo dia às 10h30 de alongar")
        lembra.clock.advance(1800)
        push = Pushed()
        await run_due(lembra.deps, push=push)
        (reminder,) = await db.reminders.for_user(ALICE)
        snoozed = await lembra.press(0, token=f"snz:{reminder.id}")
        assert "10:40" in snoozed.text
        lembra.clock.advance(600)
        await run_due(lembra.deps, push=push)
        assert len(push.sent) == 2
        kept = await db.reminders.get(ALICE, reminder.id)
        assert kept is not None
        assert kept.rule == "FREQ=DAILY"
        assert kept.state == "scheduled"


async def test_export_and_import_carry_the_rule(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra toda primeira segunda do mês às 9h de pagar o condomínio")
        export = await lembra.say("/export")
        assert export.attachment is not None
        document = json.loads(export.attachment.data)
        (kept,) = document["reminders"]
        assert kept["rule"] == "FREQ=MONTHLY;BYDAY=1MO"
        preview = await lembra.say("/import " + export.attachment.data.decode(), user=BOB)
        assert "1 lembrete" in preview.text
        done = await lembra.press(0, token=preview.choice_token, user=BOB)
        assert "1 lembrete" in done.text
        (copied,) = await db.reminders.for_user(BOB)
        assert (copied.rule, copied.start_local) == ("FREQ=MONTHLY;BYDAY=1MO", "2026-02-02T09:00")
        assert (
            "toda primeira segunda do mês às 09:00"
            in (await lembra.say("meus lembretes", user=BOB)).text
        )
        assert "condomínio" in (await lembra.say("desfaz", user=BOB)).text
        assert (await db.reminders.for_user(BOB))[0].state == "cancelled"


async def test_a_reminder_asked_with_no_time_asks_when_and_saves_nothing(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        asked = await lembra.say("me lembra de renovar o seguro do carro")
        assert "✅" not in asked.text
        assert await db.items.newest(ALICE, 5) == []
        assert await db.reminders.for_user(ALICE) == []
        done = await lembra.say("amanhã às 14h")
        assert "14:00" in done.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "renovar o seguro do carro"
        assert await db.items.newest(ALICE, 5) == []
        assert lembra.model_calls == 0


async def test_a_reminder_named_by_what_it_is_about_is_moved_not_added(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("remind me tomorrow at 9am to call the locksmith")
        await lembra.say("remind me friday at 6pm to buy a gift")
        moved = await lembra.say("actually make the locksmith one 11am")
        assert "11:00" in moved.text
        await lembra.say("me lembra hoje às 18h de regar as plantas")
        later = await lembra.say("passa o lembrete das plantas pra amanhã")
        assert "18:00" in later.text  # a day alone keeps the reminder's own time
        reminders = await db.reminders.for_user(ALICE)
        due = {r.text: _local(r.due_at_ms) for r in reminders}
        assert due == {
            "call the locksmith": "2026-01-06 11:00",
            "buy a gift": "2026-01-09 18:00",
            "regar as plantas": "2026-01-06 18:00",
        }
        assert lembra.model_calls == 0


async def test_a_reminder_moved_by_an_amount_or_to_a_day_at_the_same_time(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra amanhã às 16h de buscar o exame")
        await lembra.say("remind me friday at 8am to renew the parking permit")
        await lembra.say("me lembra quinta às 19h da aula de inglês")
        later = await lembra.say("o do exame passa pra meia hora mais tarde")
        same = await lembra.say("bump it to saturday, same time")  # the one just moved
        day = await lembra.say("e a da aula de inglês vai pra sexta, mesmo horário")
        reminders = await db.reminders.for_user(ALICE)
        due = {r.text: _local(r.due_at_ms) for r in reminders}
    assert "16:30" in later.text
    assert "16:30" in same.text
    assert "19:00" in day.text
    assert due == {
        "buscar o exame": "2026-01-10 16:30",
        "renew the parking permit": "2026-01-09 08:00",
        "aula de inglês": "2026-01-09 19:00",
    }
    assert lembra.model_calls == 0


async def test_a_reminder_just_set_is_pushed_or_moved_with_afterwords(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("remind me today at 9pm to defrost the fish")
        pushed = await lembra.say("actually push it to 9:45pm")  # "push" reads like a save
        await lembra.say("me lembra sexta às 10h de levar o gato no vet")
        moved = await lembra.say("ops, é na quinta na vdd, mesmo horário")
        reminders = await db.reminders.for_user(ALICE)
        items = await lembra.items()
    assert "21:45" in pushed.text
    assert "10:00" in moved.text
    assert {r.text: _local(r.due_at_ms) for r in reminders} == {
        "defrost the fish": "2026-01-05 21:45",
        "levar o gato no vet": "2026-01-08 10:00",
    }
    assert items == []  # nothing saved


async def test_a_move_by_an_impossible_amount_changes_nothing_and_does_not_fail(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã às 16h de buscar o exame")
        reply = await lembra.say("o do exame passa pra 99999999999 horas mais tarde")
        (kept,) = await db.reminders.for_user(ALICE)
    assert reply.meta.state != "FAIL"
    assert _local(kept.due_at_ms) == "2026-01-06 16:00"


async def test_a_day_asked_about_lists_that_days_reminders_or_says_none(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        none = await lembra.say("tenho algo pra amanhã?")
        assert "não tem lembretes para amanhã" in none.text
        await lembra.say("me lembra amanhã às 15h de buscar o terno")
        await lembra.say("me lembra sexta às 10h de pagar o boleto")
        abbreviated = await lembra.say("tenho algum lembrete amn?")
        assert "terno" in abbreviated.text
        assert "boleto" not in abbreviated.text
        english = await lembra.say("do I have anything tomorrow?")
        assert "terno" in english.text
        assert "Nothing found" not in english.text
        assert lembra.model_calls == 0


async def test_a_cancel_with_a_reason_after_it_cancels_that_reminder(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra quarta às 9h da consulta no ortopedista")
        await lembra.say("me lembra quinta às 20h de ligar pra tia")
        cancelled = await lembra.say("cancela o do ortopedista, remarcaram")
        assert "cancelado" in cancelled.text
        await lembra.say("remind me tomorrow at 7am to go swimming")
        await lembra.say("cancel the swimming one, pool is closed")
        still = [r.text for r in await db.reminders.for_user(ALICE) if r.state == "scheduled"]
        assert still == ["ligar pra tia"]
        assert lembra.model_calls == 0


def _local(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, ZoneInfo("America/Sao_Paulo")).strftime(
        "%Y-%m-%d %H:%M"
    )


async def test_two_weekdays_of_the_month_are_said_in_the_confirmation(db: Database) -> None:
    async with open_lembra(db) as lembra:
        set_ = await lembra.say("remind me every 2nd and 4th thursday at 6pm to put the bins out")
        listed = await lembra.say("my reminders")
    assert "every second and fourth Thursday of the month at 18:00" in set_.text
    assert "every second and fourth Thursday of the month" in listed.text


async def test_another_period_asked_after_a_reminder_question_lists_that_period(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("me lembra hoje às 20h de regar a horta")
        await lembra.say("me lembra amanhã às 7h de levar o carro na revisão")
        today = await lembra.say("tenho lembrete hoje?")
        assert "horta" in today.text
        assert "revisão" not in today.text
        before = lembra.model_calls
        tomorrow = await lembra.say("e amanhã?")
        assert "revisão" in tomorrow.text
        assert "horta" not in tomorrow.text
        assert lembra.model_calls == before
