"""The assistant's own notes about a user and their bookmarks, as `/memory` numbers them and the frame carries them.

Facts come first, then bookmarks, each oldest first: the numbers `/memory` shows are
the numbers `/memory apaga N` takes. A bookmark of an item shows the item's label as
it is now; a bookmarked item that was deleted since shows as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.conversation.replies import item_label
from agent.deps import Deps
from agent.understanding.textnorm import one_line
from storage.documents import MemoryDoc

GONE = "—"  # a bookmarked item deleted since: its label is no longer known


@dataclass(frozen=True, slots=True)
class Entry:
    memory: MemoryDoc
    target: str  # the fact itself, or what a bookmark points at

    @property
    def is_fact(self) -> bool:
        return self.memory.kind == "fact"


async def entries(deps: Deps, user_id: str) -> list[Entry]:
    """The user's facts, then bookmarks, in the order `/memory` numbers them."""
    kept = await deps.db.memories.list_for(user_id)
    found: list[Entry] = []
    for memory in sorted(kept, key=lambda m: m.kind != "fact"):  # stable: keeps age order
        if memory.kind == "fact":
            found.append(Entry(memory, memory.text))
        elif memory.item_id is not None:
            item = await deps.db.items.get(user_id, memory.item_id)
            found.append(Entry(memory, item_label(item) if item else GONE))
        else:
            found.append(Entry(memory, memory.event or GONE))
    return found


def frame_view(found: list[Entry]) -> dict[str, Any]:
    """The frame's `memory.model` part: plain values, stored content in `facts`, `target`, `note`."""
    return {
        "facts": [one_line(e.target, 160) for e in found if e.is_fact],
        "bookmarks": [
            {
                "target": one_line(e.target, 80),
                "note": one_line(e.memory.text, 120),
                "pinned": e.memory.pinned,
            }
            for e in found
            if not e.is_fact
        ],
    }
