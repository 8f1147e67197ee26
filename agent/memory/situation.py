"""The situation a planning request shows before a message, told as what changed (issue 28).

A json_schema request shows each earlier planned message with the situation it was
sent with (agent/memory/history.py), so the model reads the situation as a sequence:
the first one in the history tells everything; each later one tells only what changed
since the one before it, and the latest value of each thing is the current one. A
prefix-caching server evaluates the new situation on every request, so what it does
not repeat (the item counts, the last list, the item in focus, when unchanged) costs
nothing; the shelf alone was 60-90 prompt tokens on every request while a list was
the last thing shown.

A situation is a sequence of `Part`s, stored on the message's record
(`MessageDoc.situation_parts`), so the history can tell the first one of a window in
full again after a drop, and every later one as the delta it was sent as.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Part:
    """One thing the situation tells (the time, what is pending, the counts, the shelf...)."""

    name: str
    full: str  # as a situation that follows no other tells it ("" tells nothing)
    key: str = ""  # what a change is judged by (the full text when empty)
    again: str = ""  # as a later situation tells it when it changed (the full text when empty)
    steady: str = ""  # as a later situation tells it when it did not change ("" tells nothing)
    always: bool = False  # this message's alone (the tools it may use): told whenever present
    what: str = ""  # what it is about (the list's ids...), however much of it the budget let in

    @property
    def judged(self) -> str:
        return self.key or self.full

    def as_record(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v}


def from_record(rows: object) -> tuple[Part, ...] | None:
    """The parts a record stored, or None when it stored none (or none readable)."""
    if not isinstance(rows, list):
        return None
    parts = []
    for row in rows:
        if not isinstance(row, Mapping) or not isinstance(row.get("name"), str):
            return None
        text = {k: row.get(k) for k in ("full", "key", "again", "steady", "what")}
        fields = {k: v if isinstance(v, str) else "" for k, v in text.items()}
        parts.append(Part(row["name"], always=row.get("always") is True, **fields))
    return tuple(parts)


def tell(now: Sequence[Part], before: Sequence[Part] | None) -> str:
    """The situation as the request shows it: everything when nothing came `before` it in
    the history, else what changed since `before` (and what every message tells)."""
    if before is None:
        lines = [p.full for p in now]
    else:
        previous = {p.name: p for p in before if not p.always}
        lines = []
        for part in now:
            if part.always:
                lines.append(part.full)
                continue
            earlier = previous.get(part.name)
            if earlier is None or earlier.judged != part.judged:
                if (
                    not part.full
                    and part.what
                    and earlier is not None
                    and earlier.what == part.what
                ):
                    lines.append(part.steady)  # the same thing, only left out by the budget now
                else:
                    lines.append(part.again or part.full)
            else:
                lines.append(part.steady)
    return "\n".join(line for line in lines if line)
