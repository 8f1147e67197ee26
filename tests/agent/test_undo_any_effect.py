"""«desfaz» undoes exactly the user's last effect, of any kind, once (issue 43, DESIGN 11.3).

The first five tests are the five defects the issue lists; each failed on main before
this change. The kill -9 ones stop the process right after a chosen database write (the
storage fault hook) and re-drive the same update, as the lifecycle does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from agent.trust.audit import audit_user
from storage import Database
from tests.agent.test_effects_crash import SAVE, USER, crash_after, events, killed, send, update
from tests.support.harness import ALICE, open_lembra
from tests.support.live import Live, call, live_runtime


@pytest.fixture
async def live(db: Database) -> AsyncIterator[Live]:
    async with live_runtime(db) as running:
        yield running


async def test_undo_right_after_a_reminder_cancels_the_reminder_not_the_save_before(
    db: Database,
) -> None:
    """Main: "✅ Desfeito: duna não está mais salvo." and the reminder stayed."""
    async with open_lembra(db) as lembra:
        await lembra.say("anota: duna")
        await lembra.say("me lembra amanhã às 9h de ligar pro dentista")
        reply = await lembra.say("desfaz")
        assert "ligar pro dentista" in reply.text
        assert "duna" not in reply.text
        assert [i.content for i in await lembra.items()] == ["duna"]
        (reminder,) = await db.reminders.for_user(ALICE)
        assert reminder.state == "cancelled"
        undone = [e for e in await lembra.events() if e.type == "undone"]
        assert [(e.payload["of_type"], e.payload["count"]) for e in undone] == [("reminder_set", 1)]
        assert "duna" in (await lembra.say("desfaz")).text  # then, one further back


async def test_undo_during_a_pending_delete_cancels_the_question_only(db: Database) -> None:
    """Main: the question was dropped and the save before it undone."""
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar leite")
        await lembra.say("anota: ligar pro banco")
        preview = await lembra.say("apaga a nota comprar leite")
        assert preview.choice_token is not None
        reply = await lembra.say("desfaz")
        assert reply.text.startswith("Ok, não apago comprar leite")  # what stays, named
        assert await lembra.pending() is None
        assert sorted(i.content or "" for i in await lembra.items()) == [
            "comprar leite",
            "ligar pro banco",
        ]
        assert "undone" not in await lembra.event_types()


async def test_an_undo_among_asides_during_a_pending_delete_cancels_the_question(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: trocar o filtro")
        await lembra.say("anota: pagar o IPTU")
        await lembra.say("apaga a nota pagar o IPTU")
        reply = await lembra.say("eita, desfaz, apaguei errado")
        assert "pagar o IPTU" in reply.text
        assert len(await lembra.items()) == 2  # the save before it stays too
        assert "undone" not in await lembra.event_types()


@pytest.mark.parametrize(
    "points",
    [("ledger.insert_one",), ("ledger.insert_one", "users.update_one")],
    ids=["after-undone-event", "after-counters"],
)
async def test_an_undo_killed_before_its_reply_is_answered_once_and_undoes_nothing_older(
    live: Live, points: tuple[str, ...]
) -> None:
    """Main: the re-drive undid a second, older effect and said so."""
    await send(live, update(1, "salva uma nota: comprar pão"), SAVE)
    await send(
        live,
        update(2, "salva uma nota: ligar pro dentista"),
        [call("save_note", content="ligar pro dentista")],
    )
    first = update(3, "desfaz")
    await killed(live, first, crash_after(*points))

    reply = await send(live, first)

    assert "ligar pro dentista" in reply.text
    assert [i.content for i in await live.db.items.list_for(USER)] == ["comprar pão integral"]
    assert len(await events(live.db, "undone")) == 1
    assert (await audit_user(live.deps, USER)).ok


async def test_an_undone_correction_and_an_undone_retype_stay_findable(db: Database) -> None:
    """Main: the put-back item had no index words, so no search found it again."""
    async with open_lembra(db) as lembra:
        await lembra.say("salva matrix")
        await lembra.say("muda esse para duna")
        (item,) = await lembra.items()
        assert item.title == "duna"
        await lembra.say("desfaz")
        assert item.id in await db.items.index.holding(ALICE, ["matrix"])
        assert "matrix" in (await lembra.say("procura matrix")).text.lower()
        await lembra.say("é uma série")
        assert "filme" in (await lembra.say("desfaz")).text
        (item,) = await lembra.items()
        assert (item.type, item.title) == ("movie", "matrix")
        assert item.id in await db.items.index.holding(ALICE, ["matrix"])
        assert "matrix" in (await lembra.say("procura matrix")).text.lower()


async def test_an_undo_killed_after_the_delete_counts_once_and_names_the_item(
    live: Live,
) -> None:
    """Main: the counter stayed one too high and the re-drive said "já não existe"."""
    await send(live, update(1, "salva uma nota: comprar pão"), SAVE)
    first = update(2, "desfaz")
    await killed(live, first, crash_after("items.delete_many"))

    reply = await send(live, first)

    assert "não está mais salvo" in reply.text
    assert "já não existe" not in reply.text
    assert await live.db.items.list_for(USER) == []
    user = await live.db.users.get(USER)
    assert user is not None
    assert user.counts["note"] == 0
    assert (await audit_user(live.deps, USER)).ok


async def test_undo_goes_back_ten_effects_of_every_kind_and_redo_puts_them_back(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: um")
        await lembra.say("anota: dois")
        await lembra.say("apaga a nota um")
        await lembra.say("sim")
        await lembra.say("me lembra amanhã às 10h de regar as plantas")
        await lembra.say("cancela o lembrete de regar as plantas")
        for n in range(3, 9):
            await lembra.say(f"anota: nota {n}")
        replies = [(await lembra.say("desfaz")).text for _ in range(11)]
        assert all("Desfeito" in r for r in replies), replies
        assert "regar as plantas" in replies[6]
        assert "de volta" in replies[6]
        assert "regar as plantas" in replies[7]
        assert "cancelado" in replies[7]
        assert "um" in replies[8]
        assert "de volta" in replies[8]
        assert await lembra.items() == []
        assert "nada para desfazer" in (await lembra.say("desfaz")).text
        redone = await lembra.say("refaz")
        assert "Refeito" in redone.text
        assert [i.content for i in await lembra.items()] == ["um"]
        assert (await lembra.known_user()).counts["note"] == 1
        await lembra.say("anota: nova")
        assert "nada para refazer" in (await lembra.say("refaz")).text


async def test_undo_of_a_message_that_saved_several_notes_reverts_them_all(live: Live) -> None:
    await send(live, update(1, "anota: pão"), [])
    await send(live, update(2, "anota: leite; ovos; café"), [])
    assert len(await live.db.items.list_for(USER)) == 4
    reply = await send(live, update(3, "desfaz"))
    assert "e mais 2" in reply.text
    assert [i.content for i in await live.db.items.list_for(USER)] == ["pão"]
    (undone,) = await events(live.db, "undone")
    assert undone["count"] == 3
    assert len(undone["also_hashes"]) == 2
    assert "Refeito" in (await send(live, update(4, "refaz"))).text
    assert len(await live.db.items.list_for(USER)) == 4


@pytest.mark.parametrize(
    ("said", "cancelled"),
    [("ops, desfaz, apaguei errado", "comprar pão"), ("wait no, undo that", "comprar pão")],
)
async def test_an_undo_among_interjection_clauses_is_that_undo(
    db: Database, said: str, cancelled: str
) -> None:
    """Clauses that only say "oops" or "I got it wrong" around «desfaz» leave the undo: the
    whole message was offered as a note before, and nothing was undone."""
    async with open_lembra(db) as lembra:
        await lembra.say("anota: ligar pro banco")
        await lembra.say("anota: comprar pão")
        reply = await lembra.say(said)
        assert cancelled in reply.text
        assert [i.content for i in await lembra.items()] == ["ligar pro banco"]


async def test_a_correction_clause_keeps_its_words_for_the_reader_that_needs_them(
    db: Database,
) -> None:
    """ "opa errei, é às 17h30" right after a reminder moves it: the lead-in is not cut away."""
    async with open_lembra(db) as lembra:
        await lembra.say("me lembra hoje às 16h de buscar a encomenda")
        reply = await lembra.say("opa errei, é às 17h30")
        assert "17:30" in reply.text
        (reminder,) = [r for r in await db.reminders.for_user(ALICE) if r.state == "scheduled"]
        assert "encomenda" in reminder.text


async def test_a_planned_undo_while_a_question_is_open_takes_the_question_back(
    db: Database,
) -> None:
    async with open_lembra(db, counting_model=True) as lembra:
        await lembra.say("anota: trocar a resistência do chuveiro")
        await lembra.say("guarda https://example.org/bolo-de-fuba")
        await lembra.say("apaga tudo")
        assert await lembra.pending() is not None
        reply = await lembra.say("hmm pensei melhor, volta isso", llm=[call("undo_last")])
        assert await lembra.pending() is None
        assert len(await lembra.items()) == 2  # nothing deleted, the save before it kept
        assert "undone" not in await lembra.event_types()
    assert "pergunta" in reply.text
