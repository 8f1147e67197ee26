"""`desfaz` / `undo` (DESIGN 9.4): the last effect of 24 hours reverted in code, exactly."""

from __future__ import annotations

from storage import Database
from tests.support.harness import ALICE, open_lembra


async def test_undo_reverts_a_save_then_a_delete_with_every_field(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: comprar leite")
        await lembra.say("anota: ligar pro banco")
        assert "não está mais salvo" in (await lembra.say("desfaz")).text
        (kept,) = await lembra.items()
        assert kept.content == "comprar leite"
        assert (await lembra.known_user()).counts["note"] == 1
        lembra.clock.advance(60)
        preview = await lembra.say("/delete_all")
        await lembra.press(0, token=preview.choice_token)
        assert await lembra.items() == []
        undo = await lembra.say("undo")
        assert undo.choice_token is not None  # delete_all comes back only after "sim"
        assert await lembra.items() == []
        done = await lembra.say("sim")
        assert "1 item" in done.text
        (restored,) = await lembra.items()
        assert restored.model_dump() == kept.model_dump()  # id, seq, timestamps and all
        assert (await lembra.known_user()).counts["note"] == 1
        assert (undo.meta.llm_calls, done.meta.llm_calls) == (0, 0)
        undone = [e for e in await lembra.events() if e.type == "undone"]
        hashes = {e.hash: e.type for e in await lembra.events()}
        assert [hashes[str(e.payload["event_hash"])] for e in undone] == [
            "item_saved",
            "all_deleted",
        ]


async def test_a_deleted_item_comes_back_and_nothing_is_undone_twice(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: consulta com a Ana")
        (before,) = await lembra.items()
        await lembra.say("/forget")  # a pending question of another kind does not matter
        await lembra.say("não")
        await lembra.say("apaga a nota consulta com a Ana")
        await lembra.say("sim")
        assert await lembra.items() == []
        assert "está de volta" in (await lembra.say("/undo")).text
        (after,) = await lembra.items()
        assert after.model_dump() == before.model_dump()
        assert "não está mais salvo" in (await lembra.say("desfaz")).text  # then the save
        assert "nada para desfazer" in (await lembra.say("desfaz")).text


async def test_undo_reaches_back_only_24_hours_and_forget_erases_snapshots(db: Database) -> None:
    async with open_lembra(db) as lembra:
        await lembra.say("anota: velha")
        lembra.clock.advance(24 * 3600 + 1)
        assert "nada para desfazer" in (await lembra.say("desfaz")).text
        await lembra.say("apaga a nota velha")
        await lembra.say("sim")
        deleted = (await lembra.events())[-1]
        assert deleted.type == "item_deleted"
        batch = str(deleted.payload["snapshot"])
        assert len(await db.snapshots.batch(ALICE, batch, now_ms=lembra.clock.ms())) == 1
        preview = await lembra.say("/forget")
        await lembra.press(0, token=preview.choice_token)
        assert await db.snapshots.batch(ALICE, batch, now_ms=lembra.clock.ms()) == []
