"""What a session's own messages say about it, for its handover (DESIGN 3.8, issue 12).

The ledger holds effects; the messages hold what went wrong and what was looked up:
each turn's final `ai` message carries the reply's meta (state, rules applied, tools
that ran). From those, in code: the requests that failed or were refused (open
threads), the session's errors by cause, and whether anything was searched.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from agent.understanding.textnorm import one_line
from storage.documents import MessageDoc

Cause = Literal["planner_failed", "timeout", "unavailable", "quota", "refused", "tool_failed"]
Tag = Literal["saved", "deleted", "searched", "failed", "pending"]
TAG_ORDER: tuple[Tag, ...] = ("saved", "deleted", "searched", "failed", "pending")
SESSION_MESSAGES = 400  # a session longer than this is read from its last messages
MAX_THREADS = 5
_RULE_CAUSES: dict[str, Cause] = {
    "planner_failed": "planner_failed",
    "planner_timeout": "timeout",
    "planner_unavailable": "unavailable",
    "planner_quota": "quota",
    "planner_violation": "refused",
    "planner_blocked": "refused",
}
_CAUSE_PT = {
    "planner_failed": "o planejador falhou",
    "timeout": "tempo esgotado",
    "unavailable": "modelo indisponível",
    "quota": "cota esgotada",
    "refused": "recusado",
    "tool_failed": "a ferramenta falhou",
}
_CAUSE_EN = {
    "planner_failed": "the planner failed",
    "timeout": "timed out",
    "unavailable": "model unavailable",
    "quota": "quota spent",
    "refused": "refused",
    "tool_failed": "the tool failed",
}
_TAG_PT = {
    "saved": "salvou",
    "deleted": "apagou",
    "searched": "buscou",
    "failed": "falhou",
    "pending": "pendente",
}


@dataclass(frozen=True, slots=True)
class FailedRequest:
    request: str  # the user's words, one line (stored content: shown only in data blocks)
    cause: Cause


@dataclass(frozen=True, slots=True)
class SessionLog:
    failed: list[FailedRequest] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    searched: int = 0


def _cause(meta: dict[str, object]) -> Cause | None:
    rules = [str(r) for r in meta.get("rules_applied") or []]  # type: ignore[attr-defined]
    for rule in rules:
        if rule in _RULE_CAUSES:
            return _RULE_CAUSES[rule]
    if meta.get("state") == "FAIL" and meta.get("turn_kind") == "unavailable":
        return "tool_failed"
    return None


def read_session(messages: list[MessageDoc], since_ms: int) -> SessionLog:
    """Failed requests, errors by cause and searches among the session's messages."""
    requests: dict[str, str] = {}
    failed: list[FailedRequest] = []
    errors: Counter[str] = Counter()
    searched = 0
    for message in messages:
        if message.ts_ms < since_ms:
            continue
        if message.role == "human" and message.turn_id:
            requests[message.turn_id] = message.content
        if message.role != "ai" or not message.meta_json:
            continue
        try:
            meta = json.loads(message.meta_json)
        except ValueError:
            continue
        if not isinstance(meta, dict):
            continue
        if "search_items" in (meta.get("tools_executed") or []):
            searched += 1
        cause = _cause(meta)
        if cause is None:
            continue
        errors[cause] += 1
        request = requests.get(message.turn_id or "", "")
        if request:
            thread = FailedRequest(one_line(request, 80), cause)
            if thread in failed:  # asked again and failed again: one open thread, the latest
                failed.remove(thread)
            failed.append(thread)
    return SessionLog(failed[-MAX_THREADS:], dict(sorted(errors.items())), searched)


def tags(*, saved: bool, deleted: bool, log: SessionLog, pending: bool) -> list[Tag]:
    """The handover's tags, derived in code."""
    present = {
        "saved": saved,
        "deleted": deleted,
        "searched": log.searched > 0,
        "failed": bool(log.errors),
        "pending": pending,
    }
    return [t for t in TAG_ORDER if present[t]]


def tag_words(found: list[str], language: str) -> str:
    return ", ".join(_TAG_PT.get(t, t) if language == "pt" else t for t in found)


def cause_words(cause: str, language: str) -> str:
    return (_CAUSE_PT if language == "pt" else _CAUSE_EN).get(cause, cause)


def errors_line(errors: dict[str, int], language: str) -> str:
    """`2 × tempo esgotado, 1 × cota esgotada`."""
    return ", ".join(f"{n} × {cause_words(c, language)}" for c, n in errors.items())
