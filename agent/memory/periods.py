"""Synthesized periods (seed 002-39): what the user saved recently, this month and before.

Consolidation keeps one summary per period on the user document (beside the baseline,
so the frame reads them with no extra round trip and no model): item counts by type,
the top topics and the newest titles. Periods do not overlap: `recent` is the last 7
days, `month` the rest of the current local month, `older` everything before both.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from agent.memory.patterns import topics_of
from agent.understanding.textnorm import one_line
from storage.documents import ItemDoc

Period = Literal["recent", "month", "older"]
PERIODS: tuple[Period, ...] = ("recent", "month", "older")
RECENT_DAYS = 7
TITLES_KEPT = 5  # per period, newest first
TITLE_CHARS = 60
TOPICS_KEPT = 3


@dataclass(frozen=True, slots=True)
class Bounds:
    """Where the periods start, in epoch milliseconds."""

    recent_ms: int  # 7 days before now
    month_ms: int  # the 1st of the user's current month, 00:00 local


def bounds(now_ms: int, zone: ZoneInfo) -> Bounds:
    local = datetime.fromtimestamp(now_ms / 1000, tz=zone)
    first = local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    recent = local - timedelta(days=RECENT_DAYS)
    return Bounds(int(recent.timestamp() * 1000), int(first.timestamp() * 1000))


def period_of(created_ms: int, edges: Bounds) -> Period:
    if created_ms >= edges.recent_ms:
        return "recent"
    return "month" if created_ms >= edges.month_ms else "older"


def title_of(item: ItemDoc) -> str:
    """How a period names an item: its title, else the start of its note or its link."""
    label = item.title or item.content or item.url or ""
    label = one_line(label, TITLE_CHARS)
    return f"{label} ({item.year})" if item.year and item.type in ("movie", "tv_show") else label


def synthesize(items: list[ItemDoc], now_ms: int, zone: ZoneInfo) -> dict[str, Any]:
    """The three period summaries of `items` at `now_ms` (stored as `users.periods`)."""
    edges = bounds(now_ms, zone)
    grouped: dict[Period, list[ItemDoc]] = {p: [] for p in PERIODS}
    for item in items:
        grouped[period_of(item.created_at_ms, edges)].append(item)
    summary: dict[str, Any] = {"at_ms": now_ms}
    for period, members in grouped.items():
        newest = sorted(members, key=lambda i: -i.seq)
        summary[period] = {
            "count": len(members),
            "types": dict(Counter(i.type for i in members).most_common()),
            "topics": topics_of(members)[:TOPICS_KEPT],
            "titles": [title_of(i) for i in newest[:TITLES_KEPT]],
        }
    return summary
