""" "o que eu salvei essa semana / esse mês?" answered in code from the items (issue 31).

The question is read by agent/understanding/savedwhen.py (a `list_all` with a `period`);
the answer counts the items created since the period began, in the user's time zone
(the last 7 days; the 1st of this month), by type, and lists the newest. No model.
"""

from __future__ import annotations

from collections import Counter
from zoneinfo import ZoneInfo

from agent.conversation.replies import finish, item_label, numbered
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.memory.periods import bounds
from agent.texts import plural, text, type_word
from agent.types import Reply
from agent.understanding.intent import Intent
from storage.documents import ITEM_TYPES

SHOWN = 10
READ_CAP = 1_000  # a period with more is counted to this many


def _zone(deps: Deps, turn: Turn) -> ZoneInfo:
    try:
        return ZoneInfo(turn.user.timezone)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)


async def saved_in_period(deps: Deps, turn: Turn, intent: Intent) -> Reply:
    """What the user saved this week (last 7 days) or this month, newest first."""
    lang = turn.language
    period = "month" if intent.entities.get("period") == "month" else "week"
    wanted = intent.entities.get("type")
    item_type = next((t for t in ITEM_TYPES if t == wanted), None)
    edges = bounds(turn.now_ms, _zone(deps, turn))
    since = edges.month_ms if period == "month" else edges.recent_ms
    items = await deps.db.items.created_since(turn.user_id, since, READ_CAP)
    if item_type is not None:
        items = [i for i in items if i.type == item_type]
    turn.facts.apply_rule("user_scope")
    if not items:
        if item_type is None:
            return finish(turn, text(f"saved_nothing_{period}", lang), kind="deterministic")
        body = text(f"saved_no_type_{period}", lang, type_word=type_word(item_type, lang))
        return finish(turn, body, kind="deterministic")
    by_type = Counter(i.type for i in items)
    breakdown = ""
    if item_type is None and len(by_type) > 1:
        parts = [f"{type_word(t, lang)}: {n}" for t, n in by_type.most_common()]
        breakdown = f" ({', '.join(parts)})"
    head = text(
        f"saved_in_{period}",
        lang,
        items=plural(len(items), item_type or "item", lang),
        breakdown=breakdown,
    )
    lines = [head, numbered([item_label(i) for i in items[:SHOWN]])]
    if len(items) > SHOWN:
        lines.append(text("saved_in_more", lang, count=len(items) - SHOWN))
    return finish(turn, "\n".join(lines), kind="deterministic")
