"""Conversation history written straight through the repositories (fast, and as the runtime writes it)."""

from __future__ import annotations

import json

from agent.memory.tiers import Tiers
from storage.documents import ToolCallRecord
from storage.messages import NewMessage
from tests.support.live import ALICE, Live, call

CONV = ALICE


def stored_turn(n: int, *, result: str | None = None) -> list[NewMessage]:
    """The four records of an ordinary planner turn, as the runtime writes them."""
    turn_id = f"turn{n:05d}"
    call_id = f"call_{n}"
    args = json.dumps(call("save_note", content=f"nota {n}"))
    payload = result or json.dumps({"status": "saved", "item_id": f"item{n}", "type": "note"})
    return [
        NewMessage(role="human", content=f"salva a nota {n}", turn_id=turn_id),
        NewMessage(
            role="ai",
            tool_calls=(ToolCallRecord(id=call_id, name="plan", args_json=args),),
            turn_id=turn_id,
        ),
        NewMessage(
            role="tool", content=payload, tool_call_id=call_id, name="save_note", turn_id=turn_id
        ),
        NewMessage(role="ai", content=f"✅ Salvo: nota {n}.", turn_id=turn_id),
    ]


async def write_turns(live: Live, first: int, count: int, *, compact: bool = True) -> None:
    """Store `count` turns; with `compact`, maintain the tiers after each as the runtime does."""
    tiers = Tiers(live.db, live.deps.counter)
    for n in range(first, first + count):
        await live.db.messages.append(ALICE, CONV, stored_turn(n), now_ms=live.clock.ms())
        if compact:
            await tiers.compact(ALICE, CONV)


async def bulk_write_turns(live: Live, count: int, *, chunk: int = 500) -> None:
    """Store `count` turns in large batches (no compaction): a long history imported at once."""
    for first in range(0, count, chunk):
        batch = [m for n in range(first, min(count, first + chunk)) for m in stored_turn(n)]
        await live.db.messages.append(ALICE, CONV, batch, now_ms=live.clock.ms())
