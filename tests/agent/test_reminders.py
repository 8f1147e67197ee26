"""Reminders through `Runtime.handle` and the scheduler (DESIGN 9.3): in code, in the user's zone."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from agent.conversation.background import run_due
from agent.conversation.delivery import PushOutcome
from agent.types import Reply
from storage import Database
from storage.documents import ReminderDoc
from tests.support.harness import ALICE, open_lembra

WA = "wa:5511999990000"


@dataclass
class Pushed:
    """A channel for pushed messages that records what it was asked to send."""

    outcome: PushOutcome = "sent"
    sent: list[tuple[str, str, str | None]] = field(default_factory=list)

    async def __call__(
        self, reminder: ReminderDoc, reply: Reply, *, template: str | None
    ) -> PushOutcome:
        self.sent.append((reminder.user_id, reply.text, template))
        return self.outcome


async def test_set_list_push_and_snooze_without_the_model(db: Database) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("me lembra daqui a 10 minutos de tirar o bolo do forno")
        assert "10:10" in reply.text
        assert "tirar o bolo do forno" in reply.text
        listed = await lembra.say("meus lembretes")
        assert "1. às 10:10 · tirar o bolo do forno" in listed.text
        push = Pushed()
        lembra.clock.advance(599)
        await run_due(lembra.deps, push=push)
        assert push.sent == []  # not due yet
        lembra.clock.advance(1)
        await run_due(lembra.deps, push=push)
        await run_due(lembra.deps, push=push)
        assert push.sent == [(ALICE, "Lembrete: tirar o bolo do forno", None)]
        snoozed = await lembra.press(1, token=f"snz:{(await db.reminders.for_user(ALICE))[0].id}")
        assert "11:10" in snoozed.text
        assert lembra.model_calls == 0  # set, list, push and snooze are all code
        lembra.clock.advance(3600)
        await run_due(lembra.deps, push=push)
        assert len(push.sent) == 2
        types = await lembra.event_types()
        assert types.count("reminder_set") == 2
        assert types.count("reminder_sent") == 2


async def test_times_are_read_in_the_users_zone(db: Database) -> None:
    async with open_lembra(db) as lembra:
        assert "Europe/Lisbon" in (await lembra.say("/tz Europe/Lisbon")).text
        assert "/tz" in (await lembra.say("/tz Marte/Olympus")).text  # refused, with usage
        # 10:00 in São Paulo is 13:00 in Lisbon: 9h is tomorrow there
        reply = await lembra.say("remind me at 9am to call the bank")
        assert "Jan 6 at 09:00" in reply.text  # answered in the message's language (DESIGN 9.2)
        (stored,) = await db.reminders.for_user(ALICE)
        due = datetime.fromtimestamp(stored.due_at_ms / 1000, ZoneInfo("Europe/Lisbon"))
        assert (due.day, due.hour, due.minute) == (6, 9, 0)


async def test_a_time_and_an_activity_typed_in_chat_set_a_reminder(db: Database) -> None:
    """No request verb: "amanhã 15h dentista" is a reminder, its text without the time."""
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("amanhã 15h dentista")
        assert "06/01 às 15:00" in reply.text
        assert "dentista" in reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "dentista"
        assert lembra.model_calls == 0
        await lembra.say("anota: reunião segunda 10h")  # a note stays a note
        assert [i.content for i in await lembra.items()] == ["reunião segunda 10h"]
        assert len(await db.reminders.for_user(ALICE)) == 1


async def test_a_day_and_a_task_typed_in_chat_ask_reminder_or_note(db: Database) -> None:
    """ "comprar leite amanhã": a reminder that day or a note, one question; nothing before."""
    async with open_lembra(db, counting_model=True) as lembra:
        asked = await lembra.say("comprar leite amanhã")
        assert [c.label for c in asked.choices] == [
            "em 06/01 às 09:00 (amanhã)",
            "Guardar como nota",
        ]
        assert await db.reminders.for_user(ALICE) == []
        assert await lembra.items() == []
        kept = await lembra.press(1, token=asked.choice_token)
        assert "comprar leite amanhã" in kept.text
        assert [(i.type, i.content) for i in await lembra.items()] == [
            ("note", "comprar leite amanhã")
        ]
        assert await db.reminders.for_user(ALICE) == []
        again = await lembra.say("pagar a fatura na sexta")
        reminded = await lembra.press(0, token=again.choice_token)
        assert "09/01 às 09:00" in reminded.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "pagar a fatura"
        assert lembra.model_calls == 0


async def test_a_day_then_a_task_typed_in_chat_set_a_reminder(db: Database) -> None:
    """ "sexta pagar a fatura": the day first, then what to do on it: no question asked."""
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("sexta pagar a fatura")
        assert "09/01 às 09:00" in reply.text, reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "pagar a fatura"
        assert await lembra.items() == []
        assert lembra.model_calls == 0


async def test_a_date_and_a_task_typed_in_chat_set_a_reminder(db: Database) -> None:
    """ "dia 20 pagar a fatura": a date is said for a reminder; set at 09:00, said in the reply."""
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("dia 20 pagar a fatura")
        assert "20/01 às 09:00" in reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "pagar a fatura"
        assert await lembra.items() == []
        assert lembra.model_calls == 0


async def test_cancel_by_number_and_by_words(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã às 9h de ligar pro médico")
        await lembra.say("me lembra sexta às 18h de comprar vinho")
        assert "comprar vinho" in (await lembra.say("cancela o lembrete 2")).text
        assert (
            "ligar pro médico" in (await lembra.say("cancela o lembrete de ligar pro médico")).text
        )
        assert "não tem lembretes" in (await lembra.say("meus lembretes")).text
        assert (await lembra.event_types()).count("reminder_cancelled") == 2
        lembra.clock.advance(7 * 86400)
        push = Pushed()
        await run_due(lembra.deps, push=push)
        assert push.sent == []


async def test_a_message_that_does_not_ask_sets_nothing(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: reunião segunda 10h")
        await lembra.say("me lembra de pagar a conta de luz")
        assert await db.reminders.for_user(ALICE) == []
        assert "Esse horário" in (await lembra.say("me lembra hoje às 8 da manhã de correr")).text
        assert await db.reminders.for_user(ALICE) == []


async def test_a_dead_workers_claim_is_retried_once(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra daqui a 10 minutos de sair")
        lembra.clock.advance(600)
        (due,) = await db.reminders.waking(lembra.clock.ms())
        assert await db.reminders.claim(due, "killed-worker", lembra.clock.ms()) is not None
        push = Pushed()
        await run_due(lembra.deps, push=push)
        assert push.sent == []  # the claim is still live
        lembra.clock.advance(120)
        await run_due(lembra.deps, push=push)
        await run_due(lembra.deps, push=push)
        assert len(push.sent) == 1
        retry = Pushed(outcome="retry")  # a channel that asks to retry keeps it scheduled
        await lembra.say("me lembra daqui a 1 minuto de voltar")
        lembra.clock.advance(60)
        await run_due(lembra.deps, push=retry)
        lembra.clock.advance(60)
        await run_due(lembra.deps, push=push)
        assert len(retry.sent) == 1
        assert [t for _, t, _ in push.sent][-1] == "Lembrete: voltar"


async def test_whatsapp_outside_the_window_waits_for_the_next_message(db: Database) -> None:
    async with open_lembra(db) as lembra:
        reply = await lembra.say("me lembra daqui a 2 dias de renovar o seguro", user=WA)
        assert "24 h" in reply.text  # told when setting it
        lembra.clock.advance(2 * 86400)
        push = Pushed()
        await run_due(lembra.deps, push=push)
        assert push.sent == []
        lembra.clock.advance(3 * 3600)
        later = await lembra.say("oi", user=WA)
        assert later.text.startswith("Lembrete (era para")
        assert "renovar o seguro" in later.text
        assert "renovar o seguro" not in (await lembra.say("oi", user=WA)).text  # shown once
        assert (await lembra.event_types(WA)).count("reminder_sent") == 1


async def test_whatsapp_outside_the_window_sends_the_template(db: Database) -> None:
    async with open_lembra(db, whatsapp_reminder_template="lembrete_v1") as lembra:
        reply = await lembra.say("me lembra daqui a 2 dias de renovar o seguro", user=WA)
        assert "24 h" not in reply.text
        lembra.clock.advance(2 * 86400)
        push = Pushed()
        await run_due(lembra.deps, push=push)
        assert [template for _, _, template in push.sent] == ["lembrete_v1"]


async def test_reminders_are_exported_listed_and_forgotten(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã às 9h de ligar pro médico")
        assert "ligar pro médico" in (await lembra.say("lista tudo")).text
        export = await lembra.say("/export")
        assert export.attachment is not None
        document = json.loads(export.attachment.data)
        assert [r["text"] for r in document["reminders"]] == ["ligar pro médico"]
        preview = await lembra.say("/forget")
        await lembra.press(0, token=preview.choice_token)
        assert await db.reminders.for_user(ALICE) == []


async def test_the_console_shows_reminders_due_since_the_last_message(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra daqui a 10 minutos de olhar o forno")
        lembra.clock.advance(601)
        reply = await lembra.say("lista tudo")
        assert reply.text.startswith("Lembrete: olhar o forno")
        assert "olhar o forno" not in (await lembra.say("oi")).text


async def test_a_reminder_about_the_item_in_view_names_it(db: Database) -> None:
    """ "me lembra de assistir ele amanhã às 21h" right after saving a film: the film's title
    is the reminder's text, not "ele"; a person pointed at ("ligar pra ele") stays as said."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva o filme Central do Brasil")
        saved_with = lembra.model_calls  # the save may ask the model; the reminders never do
        watch = await lembra.say("me lembra de assistir ele amanhã às 21h")
        assert "assistir Central do Brasil" in watch.text, watch.text
        call = await lembra.say("me lembra de ligar pra ele amanhã às 10h")
        assert "ligar pra ele" in call.text, call.text
        reminded_with = lembra.model_calls
        await lembra.say("anota: trocar o filtro da água")
        noted_with = lembra.model_calls
        about = await lembra.say("remind me about it on friday at 6pm")
        assert "trocar o filtro da água" in about.text, about.text
        texts = sorted(r.text for r in await db.reminders.for_user(ALICE))
    assert texts == ["assistir Central do Brasil", "ligar pra ele", "trocar o filtro da água"]
    assert (reminded_with, lembra.model_calls) == (saved_with, noted_with)


async def test_a_word_for_one_of_several_items_stays_as_said(db: Database) -> None:
    """Two films just saved: "ver ele" names neither for sure, so the words are kept."""
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("salva os filmes Bacurau e Aquarius")
        reply = await lembra.say("fechou, me lembra de ver ele sábado às 20h")
        (reminder,) = await db.reminders.for_user(ALICE)
    assert reminder.text == "ver ele", reply.text


async def test_an_item_undone_or_of_another_type_is_not_the_one_named(db: Database) -> None:
    """The item in view was undone, or the words name another type ("aquele vídeo" while a
    link is in view): the reminder keeps the user's words."""
    async with open_lembra(db) as lembra:
        await lembra.say("salva o filme Aquarius")
        await lembra.say("desfaz")
        await lembra.say("me lembra de ver ele amanhã às 20h")
        await lembra.say("https://example.com/receita-de-bolo")
        await lembra.say("me lembra de ver aquele vídeo sexta às 21h")
        await lembra.say("remind me to read it on saturday at 10am")
        texts = sorted(r.text for r in await db.reminders.for_user(ALICE))
    assert texts == [
        "read https://example.com/receita-de-bolo",
        "ver aquele vídeo",
        "ver ele",
    ]
