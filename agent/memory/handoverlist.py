"""Listing a user's handovers, newest first (`lembra handovers --user ID [--limit N]`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from agent.deps import Deps
from agent.memory.sessionlog import errors_line, tag_words
from storage.summaries import handover_number


async def last_handovers(deps: Deps, user_id: str, limit: int) -> list[dict[str, Any]]:
    """The user's last `limit` handovers over all their conversations, newest first (by `_id`)."""
    found: list[dict[str, Any]] = []
    for conversation in await deps.db.summaries.conversations(user_id):
        conv_id = str(conversation["_id"]).removeprefix("conv:")
        last = handover_number(conversation)
        for n in range(last, max(0, last - limit), -1):
            doc = await deps.db.summaries.handover(user_id, conv_id, n)
            if doc is not None:
                found.append(dict(doc))
    found.sort(key=lambda d: int(d.get("created_at_ms") or 0), reverse=True)
    return found[:limit]


def describe(doc: dict[str, Any], zone: ZoneInfo) -> str:
    """One handover as an operator reads it: when, why, writer, kind, tags, errors, then its text."""
    language = str(doc.get("language") or "en")
    when = datetime.fromtimestamp(int(doc.get("created_at_ms") or 0) / 1000, tz=zone)
    tags = tag_words([str(t) for t in doc.get("tags") or []], "en") or "-"
    errors = errors_line(dict(doc.get("errors") or {}), "en") or "-"
    head = (
        f"#{doc.get('n')} {when.isoformat(timespec='minutes')} conversation={doc.get('conversation_id')} "
        f"reason={doc.get('reason')} writer={doc.get('writer')} kind={doc.get('session_kind', 'chat')} "
        f"model_calls={doc.get('model_calls', 0)} language={language}"
    )
    return f"{head}\n  tags: {tags}\n  errors: {errors}\n  {doc.get('text', '')}"
