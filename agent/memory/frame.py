"""The context frame (DESIGN 3.7, seed 002): built from stored state before the model call.

Sections: identity, position, state, obligations, capabilities, memory, temporal,
constitution. The frame has a hash (SHA-256 of its canonical JSON), so a turn can
be traced to exactly what the model was told. If a section cannot be built (the
database failed, or a stored document is corrupted) the frame degrades to a
minimal one (identity, item counts, pending action) and the failure is counted;
it never fails the turn.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from agent.conversation import pending as pendings
from agent.conversation.replies import item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.memory.constitution import current_constitution
from agent.memory.handover import SanityResult, check_handover
from agent.memory.tiers import MemoryView, Tiers
from config.errors import LembraError
from storage.documents import ITEM_TYPES
from storage.ledger import canonical_json, sha256_hex

RECENT_ITEMS = 5
# What building a section can raise: storage failures, and stored documents of the wrong
# shape (a pydantic ValidationError is a ValueError; float("high") too).
SECTION_ERRORS = (LembraError, ValueError, TypeError, KeyError)


@dataclass(frozen=True)
class ContextFrame:
    identity: dict[str, Any]
    position: dict[str, Any]
    state: dict[str, Any]
    obligations: list[dict[str, Any]]
    capabilities: dict[str, Any]
    memory: dict[str, Any]
    temporal: dict[str, Any]
    constitution: dict[str, Any]
    degraded: bool = False
    failures: tuple[str, ...] = ()
    verbatim: list[Any] = field(default_factory=list, compare=False, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "identity": self.identity,
            "position": self.position,
            "state": self.state,
            "obligations": self.obligations,
            "capabilities": self.capabilities,
            "memory": self.memory,
            "temporal": self.temporal,
            "constitution": self.constitution,
            "degraded": self.degraded,
        }

    @property
    def hash(self) -> str:
        return sha256_hex(canonical_json(self.as_dict()))


def _zone(name: str, fallback: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return ZoneInfo(fallback)


async def build_frame(deps: Deps, turn: Turn, *, tools: list[str], tiers: Tiers) -> ContextFrame:
    """Everything the narrator needs, from stored state only; degrades instead of failing."""
    started = time.perf_counter()
    user = turn.user
    counts = {t: int(user.counts.get(t, 0)) for t in ITEM_TYPES}
    identity = {
        "user_id": user.id,
        "language": turn.language,
        "role": "admin" if deps.is_admin(user.id) else "user",
        "days_active": max(0, (turn.now_ms - user.created_at_ms) // 86_400_000),
    }
    position = {"channel": turn.incoming.channel, "conversation": turn.conversation_id}
    failures: list[str] = []
    obligations: list[dict[str, Any]] = []
    try:
        current = await pendings.load_with_expiry(deps, turn)
        if current is not None:
            pending, expires_at_ms = current
            obligations.append(
                {
                    "kind": pending.kind,
                    "seconds_left": max(0, (expires_at_ms - turn.now_ms) // 1000),
                    "options": pendings.option_count(pending) if pendings.is_choice(pending) else 0,  # type: ignore[arg-type]
                }
            )
    except SECTION_ERRORS as exc:
        failures.append(f"obligations: {type(exc).__name__}")
    state: dict[str, Any] = {"counts": counts, "total": sum(counts.values()), "recent": []}
    try:
        state["recent"] = [
            item_label(i) for i in await deps.db.items.newest(turn.user_id, RECENT_ITEMS)
        ]
    except SECTION_ERRORS as exc:
        failures.append(f"state: {type(exc).__name__}")
    zone = _zone(user.timezone, deps.settings.default_timezone)
    local = deps.clock.now().astimezone(zone)
    temporal = {
        "now": local.isoformat(timespec="minutes"),
        "timezone": zone.key,
        "weekday": local.strftime("%A"),
    }
    capabilities = {"tools": tools, "path": "planner"}
    memory: dict[str, Any] = {}
    view: MemoryView | None = None
    try:
        view = await tiers.view(turn.user_id, turn.conversation_id)
        memory["structured"] = view.structured
        memory["archive"] = view.archive
        memory["notes"] = view.notes
        memory["beliefs"] = await deps.db.beliefs.all(turn.user_id)
        handover = await deps.db.summaries.handover(
            turn.user_id, turn.conversation_id, view.handover_number
        )
        if handover is not None and handover.get("text"):
            sanity: SanityResult = await check_handover(deps, turn.user_id, handover)
            memory["handover"] = {
                "text": str(handover["text"]),
                "verified": sanity.verified,
                "governance_notes": sanity.notes,
            }
    except SECTION_ERRORS as exc:
        failures.append(f"memory: {type(exc).__name__}")
    constitution: dict[str, Any] = {}
    try:
        doc_c = await current_constitution(deps)
        constitution = {"version": doc_c.version, "text": doc_c.text}
    except SECTION_ERRORS as exc:
        failures.append(f"constitution: {type(exc).__name__}")
    degraded = bool(failures)
    if degraded:
        deps.metrics.frame_degraded.inc()
    frame = ContextFrame(
        identity=identity,
        position=position,
        state=state,
        obligations=obligations,
        capabilities=capabilities,
        memory=memory if not degraded else {},
        temporal=temporal,
        constitution=constitution,
        degraded=degraded,
        failures=tuple(failures),
        verbatim=view.verbatim if view is not None and not degraded else [],
    )
    deps.metrics.frame_build_seconds.observe(time.perf_counter() - started)
    return frame


def local_time(frame: ContextFrame) -> datetime:
    return datetime.fromisoformat(frame.temporal["now"])
