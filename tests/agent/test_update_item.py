"""`update_item` (DESIGN 9.4): the planner corrects an item of the user's own, recorded as `item_updated`."""

from __future__ import annotations

from typing import Any

from storage import Database
from tests.support.harness import open_lembra, seed

BOB = "cli:bob"


def plan(item_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "action": "CALL_TOOL",
        "tool": "update_item",
        "args": {"item_id": item_id, **fields},
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": 0.9, "delta": 0},
    }


async def test_a_note_is_corrected_and_another_users_item_is_not(db: Database) -> None:
    await seed(db, ["anota: comprar leite"])
    await seed(db, ["anota: segredo do bob"], user=BOB)
    async with open_lembra(db, counting_model=True) as lembra:
        (note,) = await lembra.items()
        reply = await lembra.say(
            "corrige a nota para comprar leite integral",
            llm=[plan(note.id, content="comprar leite integral")],
        )
        assert "Atualizado: comprar leite integral" in reply.text
        (after,) = await lembra.items()
        assert after.content == "comprar leite integral"
        assert after.id == note.id
        assert after.dedup_key == note.dedup_key
        assert after.updated_at_ms == lembra.clock.ms()
        event = (await lembra.events())[-1]
        assert event.type == "item_updated"
        assert event.payload["fields"] == ["content"]
        assert "leite" not in str(event.payload)

        (bobs,) = await lembra.items(BOB)
        await lembra.say(
            "corrige a nota para segredo do bob aberto",
            llm=[plan(bobs.id, content="segredo do bob aberto")] * 3,
        )
        assert (await lembra.items(BOB))[0].content == "segredo do bob"
        assert "item_updated" not in await lembra.event_types(BOB)
