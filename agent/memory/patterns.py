"""What dreaming learns (DESIGN 3.8, issue 12): patterns synthesized in code into flags on the user.

Flags: the types and topics saved, the local hours the user is active, searches that
repeatedly found nothing, repeated corrections, and a frustration level from failed
turns that decays at every consolidation (the emotional reset: with no new failures
it halves, and below a threshold the frame stops carrying it). From them, a baseline
narrative of at most 200 tokens in the user's language, written by code here (the
dreamer model may rewrite it; agent/memory/consolidation.py).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from typing import Any, Literal
from zoneinfo import ZoneInfo

from agent.texts import NOUNS, plural, type_word
from agent.understanding.textnorm import fold, one_line
from storage.documents import ItemDoc, MessageDoc

TOP_TOPICS = 5
TOP_HOURS = 3
REPEATED = 2
FRUSTRATION_SHOWN = 2  # the frame carries frustration at or above this
BASELINE_TOKENS = 200
_WORD = re.compile(r"[a-z0-9]{4,}")
_STOP = frozenset(
    "para como isso esse essa este esta mais muito sobre quando onde porque with from that this "
    "have what your about there their http https www com br".split()
)
_CORRECTION = re.compile(
    r"^(?:nao[, ]|errado|corrige|na verdade|eu quis dizer|desfaz|no[, ]|wrong|i meant|actually|undo)"
)


def topics_of(items: list[ItemDoc]) -> list[str]:
    """The words most items share (at least twice), most frequent first."""
    words: Counter[str] = Counter()
    for item in items:
        text = " ".join(v for v in (item.title, item.content, item.description) if v)
        words.update(set(w for w in _WORD.findall(fold(text)) if w not in _STOP))
    return [w for w, n in words.most_common(TOP_TOPICS) if n >= REPEATED]


def _search_query(message: MessageDoc) -> str | None:
    for call in message.tool_calls:
        try:
            args = json.loads(call.args_json)
        except ValueError:
            continue
        if not isinstance(args, dict):
            continue
        if args.get("tool") == "search_items" and isinstance(args.get("args"), dict):
            query = args["args"].get("query")
            return str(query) if query else None
    return None


def synthesize(
    items: list[ItemDoc],
    messages: list[MessageDoc],
    zone: ZoneInfo,
    *,
    previous: dict[str, Any],
    since_ms: int,
) -> dict[str, Any]:
    """The user's flags from their items and messages; frustration decays from `previous`."""
    types = Counter(i.type for i in items)
    hours: Counter[int] = Counter()
    empty: Counter[str] = Counter()
    corrections = 0
    failures = 0
    query: str | None = None
    for message in messages:
        if message.role == "human":
            hours[datetime.fromtimestamp(message.ts_ms / 1000, tz=zone).hour] += 1
            corrections += bool(_CORRECTION.match(fold(message.content)))
        elif message.role == "ai":
            query = _search_query(message) or query
            if message.meta_json and message.ts_ms > since_ms:  # failures new since the last dream
                failures += '"state": "FAIL"' in message.meta_json
        elif message.role == "tool" and query is not None:
            try:
                result = json.loads(message.content)
            except ValueError:
                result = {}
            if isinstance(result, dict) and result.get("status") == "found":
                if result.get("count") == 0:
                    empty[one_line(fold(query), 60)] += 1
                query = None
    frustration = int(previous.get("frustration", 0)) // 2 + failures  # the emotional reset
    return {
        "types": dict(types.most_common()),
        "topics": topics_of(items),
        "active_hours": sorted(h for h, _ in hours.most_common(TOP_HOURS)),
        "empty_searches": [q for q, n in empty.most_common() if n >= REPEATED][:TOP_TOPICS],
        "corrections": corrections,
        "frustration": frustration,
    }


def baseline_text(flags: dict[str, Any], language: str, since: str) -> str:
    """The code-written baseline narrative: a few sentences, in the user's language."""
    pt = language == "pt"
    lang: Literal["pt", "en"] = "pt" if pt else "en"
    types = ", ".join(
        plural(int(n), t, lang) if t in NOUNS else f"{n} {type_word(t, lang)}"
        for t, n in dict(flags.get("types") or {}).items()
    )
    parts = [
        (
            f"Desde {since}, o usuário guarda {types}."
            if pt
            else f"Since {since}, the user keeps {types}."
        )
        if types
        else (
            f"Desde {since}, o usuário ainda não guardou nada."
            if pt
            else f"Since {since}, the user has saved nothing yet."
        )
    ]
    if flags.get("topics"):
        topics = ", ".join(flags["topics"])
        parts.append(f"Temas frequentes: {topics}." if pt else f"Frequent topics: {topics}.")
    if flags.get("active_hours"):
        hours = ", ".join(f"{h}h" for h in flags["active_hours"])
        parts.append(
            f"Costuma falar por volta de {hours}." if pt else f"Usually talks around {hours}."
        )
    if flags.get("empty_searches"):
        searches = "; ".join(flags["empty_searches"])
        parts.append(
            f"Buscou várias vezes sem achar: {searches}."
            if pt
            else f"Searched repeatedly without results: {searches}."
        )
    if int(flags.get("corrections") or 0) >= REPEATED:
        n = flags["corrections"]
        parts.append(
            f"Corrigiu o assistente {n} vezes." if pt else f"Corrected the assistant {n} times."
        )
    if int(flags.get("frustration") or 0) >= FRUSTRATION_SHOWN:
        parts.append(
            "Teve falhas recentes: seja direto e confirme o que foi feito."
            if pt
            else "Had recent failures: be direct and confirm what was done."
        )
    return " ".join(parts)
