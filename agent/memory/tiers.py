"""Three memory tiers (DESIGN 3.6, seed 004), counted in messages.

- verbatim: the last messages, cut at a turn boundary so an `ai` tool call is never
  separated from its results;
- structured: the 80 messages before them as one small object per turn ("user asked
  ...", "enrich_movie: candidates 2"), built deterministically as turns leave the window;
- archive: older turns as text capped at 800 tokens, re-summarized when it would
  grow past the cap (deterministically here; by the model in consolidation).

The verbatim window moves in blocks (issue 28): it starts at a stored message number
(`window_from_seq`) and only grows, append-only, until it holds more than `most`
messages (or the runtime finds the prompt over its budget); then it drops back at once
to the last `keep` messages, and what it dropped is folded into the structured tier.
Between two drops the window is a prefix of the next one and the tiers do not change,
so a server's prefix cache keeps everything up to the new turn. With `most == keep` it
is the plain sliding window of the last `keep` messages.

All three live on the conversation's `summaries` document and are maintained
incrementally, so a turn never reads more than the messages that just left the
verbatim window: prompt size stays bounded however long it gets.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from agent.tokens import TokenCounter
from agent.understanding.textnorm import one_line
from config.settings import Settings
from storage import Database
from storage.documents import MessageDoc
from storage.summaries import handover_number

VERBATIM_MESSAGES = 20
STRUCTURED_UNTIL = 100  # messages 21..100 are the structured tier
ARCHIVE_TOKEN_CAP = 800
# read beyond the window's largest size, enough to find whole turns covering it
_FETCH_MARGIN = 28


@dataclass(frozen=True, slots=True)
class MemoryView:
    verbatim: list[MessageDoc]
    structured: list[dict[str, Any]]
    archive: str
    archive_by_model: bool = False
    notes: list[str] = field(default_factory=list)
    handover_number: int = 0  # the conversation's last handover (0: none)


def _turn_key(message: MessageDoc) -> str:
    return message.turn_id or f"seq:{message.seq}"


def turn_groups(messages: Sequence[MessageDoc]) -> list[list[MessageDoc]]:
    """Consecutive messages grouped by turn; a `tool` record always stays with the call before it.

    Records written before turns had ids (or with a lost `turn_id`) each form their own
    group, except that a tool answer joins the `ai` call (and answers) right before it,
    so no cut between groups can separate a call from its results.
    """
    groups: list[list[MessageDoc]] = []
    for message in messages:
        previous = groups[-1][-1] if groups else None
        if previous is not None and (
            _turn_key(previous) == _turn_key(message)
            or (message.role == "tool" and (previous.role == "tool" or bool(previous.tool_calls)))
        ):
            groups[-1].append(message)
        else:
            groups.append([message])
    return groups


def drop_oldest_turn(messages: Sequence[MessageDoc]) -> list[MessageDoc]:
    """`messages` without their oldest group (see `turn_groups`)."""
    groups = turn_groups(messages)
    return [m for group in groups[1:] for m in group]


def whole_turn_suffix(messages: Sequence[MessageDoc], limit: int) -> list[MessageDoc]:
    """The longest suffix made of whole turns with at most `limit` messages.

    When the last turn alone is longer than `limit`, it is kept whole: cutting it
    could separate a tool call from its result.
    """
    if not messages:
        return []
    groups = turn_groups(messages)
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
    """One small object for one turn: what the user asked, what ran, what was answered.

    Every field is bounded whatever the records hold (a stored tool result can be
    megabytes), so an entry stays a line of the structured tier.
    """
    human = next((r.content for r in records if r.role == "human"), "")
    tools: list[str] = []
    for record in records:
        if record.role != "tool":
            continue
        try:
            payload = json.loads(record.content)
        except ValueError:
            payload = {}
        if not isinstance(payload, dict):
            payload = {}
        status = one_line(str(payload.get("status", "")), 24)
        if status == "refused":
            continue
        count = payload.get("count")
        shown = f" {count}" if isinstance(count, int) and not isinstance(count, bool) else ""
        tools.append(f"{one_line(record.name or 'tool', 40)}: {status}{shown}".strip())
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


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def clean_entry(raw: Any) -> dict[str, Any] | None:
    """A stored structured entry in the shape `summarize_turn` writes, or None for garbage."""
    if not isinstance(raw, dict):
        return None
    first, last = _int(raw.get("from")), _int(raw.get("to"))
    if first is None or last is None or first > last:
        return None
    user, reply, tools = raw.get("user"), raw.get("reply"), raw.get("tools")
    return {
        "from": first,
        "to": last,
        "at": _int(raw.get("at")) or 0,
        "user": one_line(user, 100) if isinstance(user, str) else "",
        "tools": [one_line(t, 70) for t in tools if isinstance(t, str)][:4]
        if isinstance(tools, list)
        else [],
        "reply": one_line(reply, 80) if isinstance(reply, str) else "",
    }


@dataclass(frozen=True, slots=True)
class _Stored:
    structured: list[dict[str, Any]]
    archive: str
    through: int  # last message seq folded into the structured tier
    notes: list[str]


def _read(doc: dict[str, Any]) -> _Stored:
    """The tiers of a conversation document; whatever is unreadable is skipped and noted."""
    notes: list[str] = []
    raw = doc.get("structured")
    if raw is None:
        raw = []
    elif not isinstance(raw, list):
        notes.append("structured memory was unreadable and was skipped")
        raw = []
    structured = [entry for entry in map(clean_entry, raw) if entry is not None]
    if len(structured) < len(raw):
        notes.append(f"{len(raw) - len(structured)} unreadable structured entries were skipped")
    archive = doc.get("archive")
    if archive is None:
        archive = ""
    elif not isinstance(archive, str):
        notes.append("archived memory was unreadable and was skipped")
        archive = ""
    through = _int(doc.get("structured_through_seq"))
    if through is None:
        if doc.get("structured_through_seq") is not None:
            notes.append("the structured memory position was unreadable and was recomputed")
        through = max((entry["to"] for entry in structured), default=0)
    return _Stored(structured, archive, through, notes)


_DROPPED_HEAD = re.compile(r"^\((\d+) older turns summarized away\)$")


def cap_archive(lines: list[str], counter: TokenCounter, cap: int = ARCHIVE_TOKEN_CAP) -> str:
    """Deterministic re-summary: a count of what is folded away, then the newest lines that fit."""
    dropped = 0
    if lines and (head_match := _DROPPED_HEAD.match(lines[0])):
        dropped, lines = int(head_match.group(1)), lines[1:]
    limit = cap - 40  # room for the head line
    kept: list[str] = []
    total = 0
    for line in reversed(lines):
        # each line counted once (+1 for the newline that joins it), not the growing text
        cost = counter.count_text(line) + 1
        if total + cost > limit:
            break
        kept.append(line)
        total += cost
    kept.reverse()
    while kept and counter.count_text("\n".join(kept)) > limit:  # confirm the estimate
        kept.pop(0)
    dropped += len(lines) - len(kept)
    head = [f"({dropped} older turns summarized away)"] if dropped else []
    return "\n".join(head + kept)


class Tiers:
    """Reads and maintains the tiers of one conversation.

    `keep` is what the verbatim window drops back to, `most` what it may grow to first.
    """

    def __init__(
        self,
        db: Database,
        counter: TokenCounter,
        *,
        keep: int = VERBATIM_MESSAGES,
        most: int | None = None,
    ) -> None:
        self.db = db
        self.counter = counter
        self.keep = keep
        self.most = max(most or keep, keep)

    @classmethod
    def for_settings(cls, db: Database, counter: TokenCounter, settings: Settings) -> Tiers:
        """The tiers as the planner's history settings size them (`LLM_HISTORY_*`)."""
        return cls(
            db,
            counter,
            keep=settings.llm_history_messages,
            most=settings.llm_history_max_messages or 2 * settings.llm_history_messages,
        )

    async def view(self, user_id: str, conversation_id: str) -> MemoryView:
        """The tiers as the next model request needs them, brought up to date first.

        Folding happens here (and in consolidation), not after every turn: turns
        answered in code never pay for memory upkeep, and the fold a model turn needs
        costs no extra read (the same two reads serve the fold and the view).
        """
        return await self._view(user_id, conversation_id, shrink=False)

    async def shrink(self, user_id: str, conversation_id: str) -> MemoryView:
        """Drop the verbatim window back to its last `keep` messages now (the prompt is over
        its budget), fold what it dropped, and return the tiers as they are then."""
        return await self._view(user_id, conversation_id, shrink=True)

    async def _view(self, user_id: str, conversation_id: str, *, shrink: bool) -> MemoryView:
        recent, window, doc, repaired, _ = await self._fold_and_report(
            user_id, conversation_id, shrink=shrink
        )
        stored = _read(doc)
        return MemoryView(
            window,
            stored.structured,
            stored.archive,
            bool(doc.get("archive_by_model")),
            repaired + stored.notes,  # what the fold skipped stays visible to this request
            handover_number(doc),
        )

    async def compact(self, user_id: str, conversation_id: str) -> bool:
        """Fold the turns that left the verbatim window into the structured tier, and
        structured turns past message 100 into the archive. Returns whether anything moved.

        An unreadable tier is replaced by what can still be read of it, never crashed on.
        """
        *_, moved = await self._fold_and_report(user_id, conversation_id, shrink=False)
        return moved

    def _window(
        self, recent: Sequence[MessageDoc], doc: dict[str, Any], *, shrink: bool
    ) -> list[MessageDoc]:
        """The verbatim window: from the stored start while it holds at most `most`
        messages, else (or when asked to shrink) the last whole turns within `keep`."""
        start = _int(doc.get("window_from_seq"))
        # a new session (a handover was written) starts from `keep`: its first request
        # is read whole anyway, since the memory before the history changed with it
        same_session = _int(doc.get("window_handover")) == handover_number(doc)
        if not shrink and same_session and start is not None and recent and recent[0].seq <= start:
            since = [m for m in recent if m.seq >= start]
            if len(since) <= self.most:
                return since
        return whole_turn_suffix(recent, self.keep)

    async def _fold_and_report(
        self, user_id: str, conversation_id: str, *, shrink: bool
    ) -> tuple[list[MessageDoc], list[MessageDoc], dict[str, Any], list[str], bool]:
        """(the newest messages, the verbatim window, the tier document after folding,
        what the fold skipped, whether anything moved)."""
        db = self.db
        recent = await db.messages.last(user_id, conversation_id, self.most + _FETCH_MARGIN)
        doc = await db.summaries.get_conversation(user_id, conversation_id) or {}
        window = self._window(recent, doc, shrink=shrink)
        if not window:
            return recent, window, doc, [], False
        fields: dict[str, Any] = {}
        if _int(doc.get("window_from_seq")) != window[0].seq:
            fields["window_from_seq"] = window[0].seq
        if _int(doc.get("window_handover")) != handover_number(doc):
            fields["window_handover"] = handover_number(doc)
        boundary = window[0].seq - 1  # last message outside the verbatim window
        stored = _read(doc)
        if boundary > stored.through or stored.notes:
            first = stored.through + 1
            if recent and recent[0].seq <= first:  # what leaves is in the slice already read
                leaving = [m for m in recent if first <= m.seq <= boundary]
            else:
                leaving = await db.messages.range(user_id, conversation_id, first, boundary)
            structured = [*stored.structured, *(summarize_turn(g) for g in turn_groups(leaving))]
            oldest_kept = boundary - (STRUCTURED_UNTIL - VERBATIM_MESSAGES)
            to_archive = [e for e in structured if e["to"] <= oldest_kept]
            structured = [e for e in structured if e["to"] > oldest_kept]
            fields["structured"] = structured
            fields["structured_through_seq"] = max(boundary, stored.through)
            if to_archive or stored.notes:
                lines = [line for line in stored.archive.split("\n") if line]
                lines += [structured_line(e, with_reply=False) for e in to_archive]
                fields["archive"] = cap_archive(lines, self.counter)
                fields["archive_by_model"] = bool(doc.get("archive_by_model")) and not to_archive
                if to_archive:
                    fields["archive_through_seq"] = to_archive[-1]["to"]
        if not fields:
            return recent, window, doc, [], False
        await db.summaries.set_conversation_fields(user_id, conversation_id, fields)
        moved = bool(set(fields) - {"window_from_seq", "window_handover"})
        return recent, window, {**doc, **fields}, stored.notes, moved
