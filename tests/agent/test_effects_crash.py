"""A kill -9 between an effect and its ledger event loses nothing (issue 15, failure 2).

The process is stopped right after a chosen database write (the storage fault hook
raises `Killed`, a `BaseException` nothing catches: exactly the database a kill -9
at that instant leaves). The same update is then re-driven as the lifecycle does,
and the user, the ledger and the counters must look as if nothing had happened.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any

import pytest

from agent.trust import effects
from agent.trust.audit import audit_user, repair_user
from agent.types import Incoming, Reply
from storage import Database
from storage.faults import Killed
from tests.support.bulk import stored_notes
from tests.support.live import Live, call, live_runtime

USER = "tg:7001"
NOTE = "comprar pão integral"


def crash_after(*points: str) -> Callable[[str], None]:
    """A hook that kills the process once `points` have been written, in this order."""
    remaining = list(points)

    def hook(point: str) -> None:
        if remaining and point == remaining[0]:
            remaining.pop(0)
            if not remaining:
                raise Killed(point)

    return hook


def update(n: int, text: str) -> Incoming:
    return Incoming(
        channel="telegram", chat_id="7001", user_id=USER, text=text, update_id=f"tg:{n}"
    )


async def send(live: Live, incoming: Incoming, llm: Sequence[Mapping[str, Any]] = ()) -> Reply:
    live.model.begin_turn(list(llm), [])
    try:
        return await live.runtime.handle(incoming)
    finally:
        live.model.end_turn()


async def killed(live: Live, incoming: Incoming, hook: Callable[[str], None], **kw: Any) -> None:
    live.db.faults.hook = hook
    try:
        with pytest.raises(Killed):
            await send(live, incoming, **kw)
    finally:
        live.db.faults.hook = None
    live.clock.advance(61)  # the lifecycle re-drives records older than a minute


async def events(db: Database, type: str) -> list[dict[str, Any]]:
    return [e.payload for e in await db.ledger.events(USER) if e.type == type]


async def assert_consistent(live: Live) -> None:
    audit = await audit_user(live.deps, USER)
    assert audit.ok, audit.to_json()
    assert (await live.db.ledger.verify(USER)).ok


@pytest.fixture
async def live(db: Database) -> AsyncIterator[Live]:
    async with live_runtime(db) as running:
        yield running


SAVE = [call("save_note", content=NOTE)]


@pytest.mark.parametrize(
    "points",
    [
        ("items.insert_one",),  # the item is there, no event, no counter
        ("items.insert_one", "ledger.insert_one"),  # recorded, not counted, intent still open
        # counted and the intent cleared: only the reply and the message log are missing
        ("items.insert_one", "ledger.insert_one", "users.update_one"),
    ],
    ids=["after-insert", "after-event", "after-counter"],
)
async def test_a_save_killed_midway_is_repaired_and_answered_as_a_first_save(
    live: Live, points: tuple[str, ...]
) -> None:
    """Fails on main before this change: the re-drive answered "Já estava salvo" to a
    first save, the item had no `item_saved` event and the note counter stayed at 0."""
    first = update(1, f"salva uma nota: {NOTE}")
    await killed(live, first, crash_after(*points), llm=SAVE)

    reply = await send(live, first, SAVE)

    assert "Salvo:" in reply.text
    assert "Já estava" not in reply.text
    items = await live.db.items.list_for(USER)
    assert len(items) == 1
    saved = await events(live.db, "item_saved")
    assert [e["item_id"] for e in saved] == [items[0].id]  # exactly one, never two
    assert saved[0]["update_id"] == "tg:1"
    user = await live.db.users.get(USER)
    assert user is not None
    assert user.counts["note"] == 1
    assert all(slot is None for slot in user.effects.values())
    await assert_consistent(live)

    again = await send(live, update(2, f"salva uma nota: {NOTE}"), SAVE)
    assert "Já estava salvo" in again.text  # a new message saving it again is a real dedup


async def _saved_then_previewed(live: Live) -> None:
    await send(live, update(1, f"salva uma nota: {NOTE}"), SAVE)
    preview = await send(live, update(2, "apaga a nota do pão"), [call("delete_item", query="pão")])
    assert "sim" in preview.text.lower() or preview.meta.turn_kind == "preview"


@pytest.mark.parametrize(
    "points",
    [("items.delete_one",), ("items.delete_one", "ledger.insert_one")],
    ids=["after-delete", "after-event"],
)
async def test_a_confirmed_delete_killed_midway_is_finished_by_the_redrive(
    live: Live, points: tuple[str, ...]
) -> None:
    """Fails on main before this change: the item was gone with no `item_deleted`
    event, the counter stayed at 1, and the re-drive answered "nada pendente"."""
    await _saved_then_previewed(live)
    confirm = update(3, "sim")
    await killed(live, confirm, crash_after(*points))

    reply = await send(live, confirm)

    assert "Apagado:" in reply.text
    assert await live.db.items.list_for(USER) == []
    assert len(await events(live.db, "item_deleted")) == 1
    user = await live.db.users.get(USER)
    assert user is not None
    assert user.counts["note"] == 0
    await assert_consistent(live)


async def test_delete_all_killed_after_the_delete_is_finished_by_the_redrive(live: Live) -> None:
    """Fails on main before this change: everything was deleted, with no `all_deleted`
    event and counters still showing the items."""
    await send(live, update(1, f"salva uma nota: {NOTE}"), SAVE)
    await send(
        live,
        update(2, "salva uma nota: ligar pro dentista"),
        [call("save_note", content="ligar pro dentista")],
    )
    await send(live, update(3, "apaga tudo"))
    confirm = update(4, "sim")
    await killed(live, confirm, crash_after("items.delete_many"))

    reply = await send(live, confirm)

    assert "Apaguei 2" in reply.text
    assert len(await events(live.db, "all_deleted")) == 1
    user = await live.db.users.get(USER)
    assert user is not None
    assert sum(user.counts.values()) == 0
    await assert_consistent(live)


async def test_the_next_message_finishes_an_effect_whose_update_is_never_redriven(
    live: Live,
) -> None:
    """A console turn has no update to re-drive: the conversation's next turn finishes it."""
    first = Incoming(
        channel="console", chat_id="bob", user_id="cli:bob", text=f"salva uma nota: {NOTE}"
    )
    live.db.faults.hook = crash_after("items.insert_one")
    live.model.begin_turn(list(SAVE), [])
    with pytest.raises(Killed):
        await live.runtime.handle(first)
    live.model.end_turn()
    live.db.faults.hook = None
    assert not (await audit_user(live.deps, "cli:bob")).ok

    live.model.begin_turn([], [])
    await live.runtime.handle(
        Incoming(channel="console", chat_id="bob", user_id="cli:bob", text="ajuda")
    )
    live.model.end_turn()

    assert (await audit_user(live.deps, "cli:bob")).ok


async def test_doctor_reports_items_without_events_and_repairs_them(live: Live) -> None:
    """Fails on main before this change: `ledger verify` said ok and nothing else looked."""
    await send(live, update(1, f"salva uma nota: {NOTE}"), SAVE)
    # an item written by an older version that died before its event (no intent left)
    items = await live.db.items.list_for(USER)
    orphan = items[0].model_copy(update={"id": "orphan01", "dedup_key": "note:x", "seq": 99})
    await live.db.items.insert(orphan)

    found = await audit_user(live.deps, USER)
    assert found.unrecorded == ("orphan01",)
    assert found.counts == {"note": (1, 2)}

    repaired = await repair_user(live.deps, found)
    assert repaired.ok
    assert (await live.db.ledger.verify(USER)).ok


# -- a re-driven update answers exactly as its first run did (issue 46) -------------------------

FINISHED = ("finished", "after-counter")


async def redriven_answer(live: Live, incoming: Incoming, how: str, *points: str) -> Reply:
    """Run `incoming` to a crash (`how`: after the whole turn, its answer never delivered; or
    after `points`), then re-drive it as the lifecycle does; return the re-drive's reply."""
    if how == "finished":
        await send(live, incoming)  # handled; the process dies before the reply is out
        live.clock.advance(61)
    else:
        await killed(live, incoming, crash_after(*points))
    return await send(live, incoming)


@pytest.mark.parametrize("how", FINISHED)
async def test_a_confirmed_delete_redriven_after_it_finished_answers_as_its_first_run(
    live: Live, how: str
) -> None:
    """Issue 46 partial: the re-drive ran nothing twice but answered "nada pendente"."""
    await _saved_then_previewed(live)
    confirm = update(3, "sim")

    reply = await redriven_answer(
        live, confirm, how, "items.delete_one", "ledger.insert_one", "users.update_one"
    )

    assert reply.text.startswith("✅ Apagado:")
    assert "pendente" not in reply.text
    assert await live.db.items.list_for(USER) == []
    assert len(await events(live.db, "item_deleted")) == 1
    await assert_consistent(live)


@pytest.mark.parametrize("how", FINISHED)
async def test_delete_all_redriven_after_it_finished_answers_its_count_again(
    live: Live, how: str
) -> None:
    await send(live, update(1, f"salva uma nota: {NOTE}"), SAVE)
    await send(
        live,
        update(2, "salva uma nota: ligar pro dentista"),
        [call("save_note", content="ligar pro dentista")],
    )
    await send(live, update(3, "apaga tudo"))

    reply = await redriven_answer(
        live, update(4, "sim"), how, "items.delete_many", "ledger.insert_one", "users.update_one"
    )

    assert "Apaguei 2" in reply.text
    assert len(await events(live.db, "all_deleted")) == 1
    await assert_consistent(live)


@pytest.mark.parametrize("how", ["finished", "after-first-batch", "mid-batch"])
async def test_an_import_sim_redriven_answers_as_its_first_run_and_saves_once(
    live: Live, how: str
) -> None:
    """Issue 46 partial: an import's «sim» re-driven after kill -9 answered "nada pendente"."""
    lines = "\n".join(f"leite {n:03d}" for n in range(150))
    preview = await send(live, update(1, f"/import {lines}"))
    assert preview.text.startswith("Importar 150 itens?")
    points = {
        "finished": (),
        # the first batch of 100 numbered, inserted, recorded, counted: the second not begun
        "after-first-batch": (
            "items.insert_many",
            *["ledger.insert_one"] * 100,
            "users.update_one",
        ),
        "mid-batch": ("items.insert_many", "ledger.insert_one"),  # one event of a hundred
    }[how]

    reply = await redriven_answer(live, update(2, "sim"), how, *points)

    assert reply.text == "✅ Importei 150 itens."
    assert len(await live.db.items.list_for(USER)) == 150
    assert len(await events(live.db, "item_saved")) == 150
    await assert_consistent(live)


async def test_a_no_redriven_after_it_finished_answers_as_its_first_run(live: Live) -> None:
    await _saved_then_previewed(live)
    first = await send(live, update(3, "não"))
    live.clock.advance(61)

    again = await send(live, update(3, "não"))

    assert again.text == first.text
    assert len(await live.db.items.list_for(USER)) == 1


@pytest.mark.parametrize("how", ["finished", "after-update"])
async def test_an_edit_correction_redriven_is_answered_again_and_applied_once(
    live: Live, how: str
) -> None:
    """Issue 46 partial: the correction was applied but its reply never sent."""
    said = Incoming(
        channel="telegram",
        chat_id="7001",
        user_id=USER,
        text="anota: comprar leite",
        update_id="tg:1",
        message_id="tg:7001:50",
    )
    await send(live, said)
    edit = Incoming(
        channel="telegram",
        chat_id="7001",
        user_id=USER,
        text="anota: comprar pão",
        kind="edit",
        update_id="tg:2",
        edit_of="tg:7001:50",
        edited_at_s=1.0,
    )

    reply = await redriven_answer(live, edit, how, "items.update_one", "ledger.insert_one")

    assert reply.text == "✏️ Corrigi: comprar pão"
    assert [i.content for i in await live.db.items.list_for(USER)] == ["comprar pão"]
    assert len(await events(live.db, "item_updated")) == 1


async def _many_then_previewed(live: Live) -> None:
    """Five items (one saved by a turn, its words indexed), and "apaga tudo" shown."""
    await send(live, update(1, f"salva uma nota: {NOTE}"), SAVE)
    await stored_notes(live.db, USER, 4)
    await send(live, update(2, "apaga tudo"))


async def assert_deleted_once(live: Live, reply: Reply) -> None:
    """Everything gone once: one event with the count, counters at zero, the whole copy kept."""
    assert "Apaguei 5 itens" in reply.text
    assert await live.db.items.list_for(USER) == []
    [event] = await events(live.db, "all_deleted")
    assert event["count"] == 5
    kept = await live.db.snapshots.size(USER, event["snapshot"], now_ms=live.clock.ms())
    assert kept == 5  # a copy a crash cut short was started again, never doubled
    assert await live.db.derived()["word_index"].find({"u": USER}) == []
    user = await live.db.users.get(USER)
    assert user is not None
    assert sum(user.counts.values()) == 0
    await assert_consistent(live)


COPY = "undo_snapshots.insert_one"


@pytest.mark.parametrize(
    "points",
    [
        (COPY,),  # half the kept copy written
        (COPY, COPY, COPY, "users.update_one"),  # the copy complete and marked so
        ("items.delete_many",),  # the items gone, their words not yet
        ("word_index.delete_many",),  # the words gone too, no event
        ("word_index.delete_many", "ledger.insert_one"),  # recorded, not counted
    ],
    ids=["mid-copy", "copied", "after-items", "after-words", "after-event"],
)
async def test_a_delete_all_killed_anywhere_is_finished_once_by_the_redrive(
    live: Live, points: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 47: the kept copy in packs (two items each here) and the constant-trip deletion."""
    monkeypatch.setattr(effects, "PACK", 2)
    await _many_then_previewed(live)
    confirm = update(3, "sim")
    await killed(live, confirm, crash_after(*points))

    await assert_deleted_once(live, await send(live, confirm))


@pytest.mark.parametrize("finisher", ["next turn", "doctor"])
async def test_a_delete_all_finishing_off_its_turn_and_killed_is_finished_later(
    live: Live, monkeypatch: pytest.MonkeyPatch, finisher: str
) -> None:
    """The reply went out; the process died while the deletion ran off the turn."""
    monkeypatch.setattr(effects, "BACKGROUND_FROM", 3)
    await _many_then_previewed(live)
    live.db.faults.hook = crash_after("items.delete_many")
    try:
        reply = await send(live, update(3, "sim"))  # the turn itself is untouched
        await live.deps.inflight.settle(USER)  # the work died at the kill point
    finally:
        live.db.faults.hook = None
    assert "Apaguei 5 itens" in reply.text
    assert await events(live.db, "all_deleted") == []

    if finisher == "doctor":  # `lembra doctor --repair`
        assert (await audit_user(live.deps, USER)).unfinished == 1
        await repair_user(live.deps, await audit_user(live.deps, USER))
    else:
        listed = await send(live, update(4, "lista tudo"))
        assert NOTE not in listed.text
    await assert_deleted_once(live, reply)
