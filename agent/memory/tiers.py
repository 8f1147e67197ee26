"""Three memory tiers (DESIGN 3.6, seed 004), counted in messages.

- verbatim: the last 20 messages, cut at a turn boundary so an `ai` tool call is
  never separated from its results;
- structured: messages 21-100 as one small object per turn ("user asked ...",
  "enrich_movie: candidates 2"), built deterministically as turns leave the window;
- archive: older turns as text capped at 800 tokens, re-summarized when it would
  grow past the cap (deterministically here; by the model in consolidation).

All three live on the conversation's `summaries` document and are maintained
incrementally after each turn, so a turn never reads more than the messages that
just left the verbatim window: prompt size stays bounded however long it gets.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.textnorm import one_line
from agent.tokens import TokenCounter
from storage import Database
from storage.documents import MessageDoc

VERBATIM_MESSAGES = 20
STRUCTURED_UNTIL = 100  # messages 21..100 are the structured tier
ARCHIVE_TOKEN_CAP = 800
_FETCH_FOR_WINDOW = 48  # enough to find whole turns covering the last 20 messages


@dataclass(frozen=True, slots=True)
class MemoryView:
    verbatim: list[MessageDoc]
    structured: list[dict[str, Any]]
    archive: str
    archive_by_model: bool = False
    notes: list[str] = field(default_factory=list)


def _turn_key(message: MessageDoc) -> str:
    return message.turn_id or f"seq:{message.seq}"


def whole_turn_suffix(messages: Sequence[MessageDoc], limit: int) -> list[MessageDoc]:
    """The longest suffix made of whole turns with at most `limit` messages.

    When the last turn alone is longer than `limit`, it is kept whole: cutting it
    could separate a tool call from its result.
    """
    if not messages:
        return []
    groups: list[list[MessageDoc]] = []
    for message in messages:
        if groups and _turn_key(groups[-1][-1]) == _turn_key(message):
            groups[-1].append(message)
        else:
            groups.append([message])
    chosen: list[list[MessageDoc]] = []
    size = 0
    for group in reversed(groups):
        if chosen and size + len(group) > limit:
            break
        chosen.append(group)
        size += len(group)
    # the first group may be the tail of a turn that began before the fetched slice
    if len(chosen) < len(groups) or messages[0].seq <= 1:
        return [m for group in reversed(chosen) for m in group]
    return [m for group in reversed(chosen[:-1] or chosen) for m in group]


def summarize_turn(records: Sequence[MessageDoc]) -> dict[str, Any]:
    """One small object for one turn: what the user asked, what ran, what was answered."""
    human = next((r.content for r in records if r.role == "human"), "")
    tools: list[str] = []
    for record in records:
        if record.role != "tool":
            continue
        try:
            payload = json.loads(record.content)
        except ValueError:
            payload = {}
        status = str(payload.get("status", "")) if isinstance(payload, dict) else ""
        if status == "refused":
            continue
        count = payload.get("count") if isinstance(payload, dict) else None
        tools.append(f"{record.name}: {status}{f' {count}' if count is not None else ''}".strip())
    final = next((r.content for r in reversed(records) if r.role == "ai" and not r.tool_calls), "")
    return {
        "from": records[0].seq,
        "to": records[-1].seq,
        "at": records[0].ts_ms,
        "user": one_line(human, 100),
        "tools": tools[:4],
        "reply": one_line(final, 80),
    }


def structured_line(entry: dict[str, Any], *, with_reply: bool = True) -> str:
    parts = [f"user: {entry.get('user', '')}"]
    if entry.get("tools"):
        parts.append("ran " + ", ".join(entry["tools"]))
    if with_reply and entry.get("reply"):
        parts.append(f"answered: {entry['reply']}")
    return " · ".join(parts)


def _group(records: Sequence[MessageDoc]) -> list[list[MessageDoc]]:
    groups: list[list[MessageDoc]] = []
    for record in records:
        if groups and _turn_key(groups[-1][-1]) == _turn_key(record):
            groups[-1].append(record)
        else:
            groups.append([record])
    return groups


def cap_archive(lines: list[str], counter: TokenCounter, cap: int = ARCHIVE_TOKEN_CAP) -> str:
    """Deterministic re-summary: a count of what is folded away, then the newest lines that fit."""
    kept: list[str] = []
    for line in reversed(lines):
        candidate = [line, *kept]
        if counter.count_text("\n".join(candidate)) > cap - 40:
            break
        kept = candidate
    dropped = len(lines) - len(kept)
    head = [f"({dropped} older turns summarized away)"] if dropped else []
    return "\n".join(head + kept)


class Tiers:
    """Reads and maintains the tiers of one conversation."""

    def __init__(self, db: Database, counter: TokenCounter) -> None:
        self.db = db
        self.counter = counter

    async def view(self, user_id: str, conversation_id: str) -> MemoryView:
        recent = await self.db.messages.last(user_id, conversation_id, _FETCH_FOR_WINDOW)
        verbatim = whole_turn_suffix(recent, VERBATIM_MESSAGES)
        doc = await self.db.summaries.get_conversation(user_id, conversation_id) or {}
        notes: list[str] = []
        structured = doc.get("structured") or []
        archive = doc.get("archive") or ""
        if not isinstance(structured, list) or not all(isinstance(e, dict) for e in structured):
            structured, notes = [], ["structured memory was unreadable and was skipped"]
        if not isinstance(archive, str):
            archive, notes = "", [*notes, "archived memory was unreadable and was skipped"]
        return MemoryView(verbatim, structured, archive, bool(doc.get("archive_by_model")), notes)

    async def compact(self, user_id: str, conversation_id: str) -> bool:
        """Fold the turns that left the verbatim window into the structured tier, and
        structured turns past message 100 into the archive. Returns whether anything moved."""
        db = self.db
        recent = await db.messages.last(user_id, conversation_id, _FETCH_FOR_WINDOW)
        window = whole_turn_suffix(recent, VERBATIM_MESSAGES)
        if not window:
            return False
        boundary = window[0].seq - 1  # last message outside the verbatim window
        doc = await db.summaries.get_conversation(user_id, conversation_id) or {}
        stored = doc.get("structured")
        structured: list[dict[str, Any]] = (
            [e for e in stored if isinstance(e, dict)] if isinstance(stored, list) else []
        )
        through = int(doc.get("structured_through_seq", 0) or 0)
        if boundary <= through:
            return False
        leaving = await db.messages.range(user_id, conversation_id, through + 1, boundary)
        structured = [*structured, *(summarize_turn(g) for g in _group(leaving))]
        oldest_kept = boundary - (STRUCTURED_UNTIL - VERBATIM_MESSAGES)
        to_archive = [e for e in structured if int(e.get("to", 0)) <= oldest_kept]
        structured = [e for e in structured if int(e.get("to", 0)) > oldest_kept]
        fields: dict[str, Any] = {"structured": structured, "structured_through_seq": boundary}
        if to_archive:
            lines = [line for line in str(doc.get("archive") or "").split("\n") if line]
            lines += [structured_line(e, with_reply=False) for e in to_archive]
            fields["archive"] = cap_archive(lines, self.counter)
            fields["archive_through_seq"] = int(to_archive[-1].get("to", 0))
            fields["archive_by_model"] = False
        await db.summaries.set_conversation_fields(user_id, conversation_id, fields)
        return True
