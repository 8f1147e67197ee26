"""Appending the effects of a turn to the user's ledger chain (DESIGN 3.9).

Payloads hold ids, types, counts and SHA-256 digests only, never user content, and
carry the platform update id so a re-driven update can be traced to its first run.
"""

from __future__ import annotations

from typing import Any

from agent.conversation.turn import Turn
from agent.deps import Deps
from storage.documents import LedgerDoc
from storage.ledger import sha256_hex

# Committed effects: each returns a receipt, the hash of its event (shown by /why, --show-meta).
# Bookkeeping (model_usage, belief_updated, quota_exceeded, ...) is on the chain but no effect.
RECEIPTED = frozenset(
    {
        "item_saved",
        "item_deleted",
        "all_deleted",
        "item_updated",
        "item_marked",
        "undone",
        "reminder_set",
        "reminder_cancelled",
        "reminder_changed",
        "bookmark_set",
        "memory_noted",
        "constitution_updated",
        "user_forgotten",
    }
)


def digest(text: str) -> str:
    """SHA-256 hex of `text`: what the ledger may hold instead of content."""
    return sha256_hex(text)


async def append_event(
    deps: Deps, turn: Turn | None, type: str, payload: dict[str, Any], *, stream: str | None = None
) -> LedgerDoc:
    """Append one event to `stream` (default: the turn's user) and note it on the turn."""
    body = dict(payload)
    if turn is not None and turn.incoming.update_id:
        body.setdefault("update_id", turn.incoming.update_id)
    target = stream or (turn.user_id if turn is not None else None)
    if target is None:
        raise ValueError("a ledger event needs a stream")
    event = await deps.db.ledger.append(target, type, body, ts=deps.clock.ms())
    if turn is not None:
        turn.ledger_events.append(type)
        if type in RECEIPTED:
            turn.receipts.append(f"{type}:{event.hash}")
    return event
