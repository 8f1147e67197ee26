"""`/why` in plain words (issue 34): the last reply's meta told without internal names.

The meta keeps the program's own names (states, rules, tools, ledger events) for
`--show-meta`, the ledger and the tests; a user reads each through the catalog of
agent/texts/explaining.py. A name the catalog does not know is left out, never shown raw,
and so are ids, hashes and belief figures (`--show-meta` has those). What the model wrote
is told apart: what was checked against the user's items, and what could not be (issue 42).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agent.texts import joined, text
from agent.texts.explaining import TEXTS as WORDS
from agent.types import Language

HIDDEN_RULES = frozenset({"frame"})  # which request the model got: for operators, not users


def tool_words(name: str, language: Language) -> str:
    """What a tool does, as a user would say it ("procurar nos seus itens")."""
    key = f"tool_{name}"
    return text(key, language) if key in WORDS else text("tool_simulate", language)


def rule_words(rule: str, language: Language) -> str | None:
    """A rule the turn kept, in words; None for one a user has no use for."""
    name, _, value = rule.partition(":")
    if name in HIDDEN_RULES or f"rule_{name}" not in WORDS:
        return None
    if name == "ungrounded":
        field = f"field_{value}" if f"field_{value}" in WORDS else "field_other"
        value = text(field, language)
    return text(f"rule_{name}", language, value=value)


def why_text(meta: Mapping[str, Any], language: Language) -> str:
    """The explanation of a stored reply's meta (`ReplyMeta` as JSON)."""
    state = str(meta.get("state", "OK"))
    state_key = (
        "why_state_OK_warn" if state == "OK" and meta.get("warning") else f"why_state_{state}"
    )
    outcome = text(state_key if state_key in WORDS else "why_state_OK", language)
    lines = [text("why_head", language, outcome=outcome, score=meta.get("score", "?"))]
    caveats: Sequence[str] = meta.get("caveats") or []
    if caveats:
        lines.append(text("why_caveats", language, caveats="; ".join(caveats)))
    tools: Sequence[str] = meta.get("tools_executed") or []
    applied: Sequence[str] = meta.get("rules_applied") or []
    parts = [p for p in (_did(t, applied, language) for t in dict.fromkeys(tools)) if p]
    belief = meta.get("belief") or {}
    if float(belief.get("delta") or 0):  # seed 000: a taste noted, told without its figures
        parts.append(text("why_belief_noted", language))
    done = joined(parts, language)
    lines.append(
        text("why_done", language, done=done) if done else text("why_nothing_done", language)
    )
    rules = [w for w in (rule_words(r, language) for r in applied) if w]
    if rules:
        lines.append(text("why_how", language, how="; ".join(dict.fromkeys(rules))))
    calls = int(meta.get("llm_calls") or 0)
    lines.append(
        text("why_model", language, count=calls) if calls else text("why_no_model", language)
    )
    for rule in ("model_text_checked", "model_text_unchecked"):
        if rule in applied:
            lines.append(text(f"why_{rule.removeprefix('model_text_')}", language))
    if meta.get("reasoning"):  # the planner's own note of this turn (log_reasoning)
        lines.append(text("why_reasoning", language, note=str(meta["reasoning"])))
    blocks: Sequence[str] = meta.get("blocks") or []
    if blocks:
        stopped = [text(f"block_{b}", language) for b in blocks if f"block_{b}" in WORDS]
        lines.append(text("why_stopped", language, blocks="; ".join(stopped)))
    receipts: Sequence[str] = meta.get("receipts") or []
    if receipts:
        said = dict.fromkeys(_receipt(r, language) for r in receipts)
        lines.append(text("why_receipt", language, receipts=", ".join(said)))
    return "\n".join(lines)


def _did(tool: str, applied: Sequence[str], language: Language) -> str | None:
    """What a tool did, as it happened: a TMDB lookup that never reached TMDB (not
    configured) is not told as a search, one TMDB did not answer is told as tried."""
    if tool in ("enrich_movie", "enrich_tv_show") and not any(
        r.startswith("tmdb_language") for r in applied
    ):
        return text("tool_tmdb_unanswered", language) if "tmdb_unanswered" in applied else None
    return tool_words(tool, language)


def _receipt(receipt: str, language: Language) -> str:
    """ "item_saved:<hash>" -> "item salvo" (the hash is for `--show-meta` and `lembra ledger`)."""
    event = receipt.partition(":")[0]
    return text(f"event_{event}" if f"event_{event}" in WORDS else "event_other", language)
