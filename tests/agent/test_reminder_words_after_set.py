"""Reminders changed in words right after they are set (issue 43): a put verb before the new
time moves it ("na verdade coloca 18h"), "and saturday to X" after one is another one (no
reminder-or-note question), "só N vezes" is the count (not the text), "cancela só o do X"
names it, and a "sim, pode cancelar" to "only the next or all?" cancels it all."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.reminders.asks import read_ask
from storage import Database
from tests.support.harness import ALICE, open_lembra


async def test_a_put_verb_after_a_correction_moves_the_reminder_just_set(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra quinta 10h de levar o notebook no conserto")
        reply = await lembra.say("na verdade coloca 18h")
        assert "18:00" in reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "levar o notebook no conserto"


async def test_in_english_put_it_at_moves_it(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("remind me thursday at 10am to return the library books")
        await lembra.say("actually put it at 4pm")
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "return the library books"
        assert "16:00" in (await lembra.say("what reminders do i have")).text


async def test_a_day_and_a_task_after_a_reminder_is_another_reminder(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("remind me tomorrow at 9am to email the landlord")
        reply = await lembra.say("and saturday to water the garden")
        assert "water the garden" in reply.text
        assert "note" not in reply.text.lower()
        assert await lembra.pending() is None
        texts = sorted(r.text for r in await db.reminders.for_user(ALICE))
        assert texts == ["email the landlord", "water the garden"]


async def test_only_n_times_is_the_count_and_only_the_one_names_it(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra toda terça 20h de pôr o lixo pra fora")
        await lembra.say("e todo dia as 7h de tomar a vitamina, só 5 vezes")
        texts = sorted(r.text for r in await db.reminders.for_user(ALICE))
        assert texts == ["pôr o lixo pra fora", "tomar a vitamina"]
        asked = await lembra.say("cancela só o da vitamina")
        assert "tomar a vitamina" in asked.text
        done = await lembra.say("sim, pode cancelar")
        assert "tomar a vitamina" in done.text
        states = {r.text: r.state for r in await db.reminders.for_user(ALICE)}
        assert states == {"pôr o lixo pra fora": "scheduled", "tomar a vitamina": "cancelled"}


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["na verdade ", "actually ", "cancela só o ", "cancel just the "]),
    st.text(max_size=40),
)
def test_the_change_readers_never_raise(lead: str, rest: str) -> None:
    read_ask(lead + rest)


async def test_a_yes_word_before_the_side_named_takes_that_side_and_a_no_cancels_nothing(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra de tomar remédio todo dia às 8h")
        for answer, state in (
            ("ok, só o próximo", "scheduled"),  # skipped once, still repeating
            ("yes, just the next one", "scheduled"),
            ("ok, deixa pra lá", "scheduled"),
            ("claro que não", "scheduled"),
            ("não, só o próximo", "scheduled"),
        ):
            await lembra.say("cancela o lembrete do remédio")
            await lembra.say(answer)
            (reminder,) = await db.reminders.for_user(ALICE)
            assert reminder.state == state, answer
            assert await lembra.pending() is None, answer


async def test_a_bare_clock_answers_a_part_of_a_day_on_that_day(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("amanhã de manhã me lembra de levar o carro na revisão")
        set_ = await lembra.say("7h30")
        assert "07:30" in set_.text
        await lembra.say("me lembra amanhã à tarde de ligar pro banco")
        await lembra.say("as 3")
        await lembra.say("me lembra amanhã de manhã de ligar pra mãe")
        await lembra.say("quinta 10h")  # its own day: read alone
        due = {r.text: r.due_at_ms for r in await db.reminders.for_user(ALICE)}
    hours = {t: (ms - lembra.clock.ms()) / 3_600_000 for t, ms in due.items()}
    # the clock starts Monday 10:00 in America/Sao_Paulo
    assert hours["levar o carro na revisão"] == 21.5  # tomorrow 07:30
    assert hours["ligar pro banco"] == 29  # tomorrow 15:00
    assert hours["ligar pra mãe"] == 72  # Thursday 10:00


async def test_a_weekday_that_is_also_an_ordinal_picks_that_weekday(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra semana que vem de pagar o iptu")
        reply = await lembra.say("quarta")
        assert "14/01" in reply.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.state == "scheduled"


async def test_a_change_of_mind_then_a_put_verb_moves_the_reminder_and_makes_no_new_one(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra amanhã às 9h de ligar pro banco")
        moved = await lembra.say("pensando bem, bota pras 7h")
        assert "07:00" in moved.text
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.text == "ligar pro banco"
