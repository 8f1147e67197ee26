"""The context frame (DESIGN 3.7, seed 002): built from stored state before the model call.

Sections: identity, position, state, obligations, capabilities, memory, temporal,
constitution. The frame has a hash (SHA-256 of its canonical JSON), so a turn can
be traced to the state it describes; `request_hash` covers exactly what the model is
sent (system text, messages, function schema), so it identifies the request. Schema
version 1 adds `schema_version` and `generated_at` (the frame object only: the prompt
never carries a per-second time), obligations with their stakes, and a short-lived
cache of the slow sections (agent/memory/framecache.py). If a section cannot be
built (the database failed, or a stored document is corrupted) the frame degrades to
a minimal one (identity, item counts, pending action) and the failure is counted;
it never fails the turn.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.messages import BaseMessage

from agent.conversation import pending as pendings
from agent.conversation import shelf as shelves
from agent.conversation.replies import item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.memory import obligations as stakes
from agent.memory.constitution import SYSTEM_STREAM, current_constitution, structure_of
from agent.memory.framecache import FrameCache, SlowSections, Version
from agent.memory.handover import SanityResult, check_handover
from agent.memory.modelmemory import entries as model_memory
from agent.memory.modelmemory import frame_view
from agent.memory.tiers import MemoryView, Tiers
from config.errors import LembraError
from storage.documents import ITEM_TYPES
from storage.ledger import canonical_json, sha256_hex

SCHEMA_VERSION = 1
RECENT_ITEMS = 5
UPCOMING_DAYS = 3  # reminders due this soon are in the frame
UPCOMING_REMINDERS = 3
REMINDER_HANDLE = 8  # characters of a reminder's id the frame shows
EARLIER_HANDOVERS = 2  # besides the last one; older sessions live on in the baseline
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
    schema_version: int = SCHEMA_VERSION
    generated_at: str = field(default="", compare=False)  # not hashed: the state, not the moment
    cached: bool = field(default=False, compare=False)
    # what the user was just shown, numbered (DESIGN 10.1): display number, item id, label
    shelf: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "identity": self.identity,
            "position": self.position,
            "state": self.state,
            "obligations": self.obligations,
            "capabilities": self.capabilities,
            "memory": self.memory,
            "temporal": self.temporal,
            "constitution": self.constitution,
            "degraded": self.degraded,
            "shelf": self.shelf,
        }

    @property
    def hash(self) -> str:
        return sha256_hex(canonical_json(self.as_dict()))


def _message_json(message: BaseMessage) -> dict[str, Any]:
    return {
        "type": message.type,
        "content": message.content,
        "tool_calls": [
            {"id": c.get("id"), "name": c["name"], "args": c["args"]}
            for c in getattr(message, "tool_calls", None) or []
        ],
        "tool_call_id": getattr(message, "tool_call_id", None),
        "name": message.name,
    }


def request_hash(messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]]) -> str:
    """SHA-256 over exactly what one model request sends: every message and the function schema."""
    return sha256_hex(
        canonical_json({"messages": [_message_json(m) for m in messages], "tools": list(tools)})
    )


def _zone(name: str, fallback: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return ZoneInfo(fallback)


async def build_frame(
    deps: Deps,
    turn: Turn,
    *,
    tools: list[str],
    tiers: Tiers,
    cache: FrameCache | None = None,
) -> ContextFrame:
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
    zone = _zone(user.timezone, deps.settings.default_timezone)
    failures: list[str] = []
    obligations: list[dict[str, Any]] = []
    try:
        current = await pendings.load_with_expiry(deps, turn)
        if current is not None:
            obligations.append(stakes.describe(current[0], current[1], zone))
    except SECTION_ERRORS as exc:
        failures.append(f"obligations: {type(exc).__name__}")
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
        if user.baseline:  # what the last consolidation learned (agent/memory/dreaming.py)
            memory["baseline"] = user.baseline
        if user.periods:  # its per-period summaries (agent/memory/periods.py)
            memory["periods"] = user.periods
        if kept := await model_memory(deps, turn.user_id):  # remember / bookmark (issue 12)
            memory["model"] = frame_view(kept)
    except SECTION_ERRORS as exc:
        failures.append(f"memory: {type(exc).__name__}")
    slow: SlowSections | None = None
    hit = False
    version = _version(deps, turn, view)
    if cache is not None and view is not None:
        slow = cache.get(turn.user_id, turn.conversation_id, version, turn.now_ms)
        hit = slow is not None
        deps.metrics.frame_cache.labels("hit" if hit else "miss").inc()
    if slow is None:
        slow, slow_failures = await _slow_sections(deps, turn, view)
        failures += slow_failures
        if cache is not None and view is not None and not slow_failures:
            cache.put(turn.user_id, turn.conversation_id, version, turn.now_ms, slow)
    memory.update(slow.memory)
    state: dict[str, Any] = {"counts": counts, "total": sum(counts.values()), "recent": []}
    try:  # read every time: one indexed query, and an edited title shows at once
        state["recent"] = [
            item_label(i) for i in await deps.db.items.newest(turn.user_id, RECENT_ITEMS)
        ]
    except SECTION_ERRORS as exc:
        failures.append(f"state: {type(exc).__name__}")
    try:  # the next few reminders (issue 43): no read when the hint says none is that close
        reminders = await upcoming_reminders(deps, turn, zone)
        if reminders:
            state["reminders"] = reminders
    except SECTION_ERRORS as exc:
        failures.append(f"reminders: {type(exc).__name__}")
    degraded = bool(failures)
    if degraded:
        deps.metrics.frame_degraded.inc()
    shelf = shelf_view(shelves.shown(turn))  # on the user document: no read
    frame = ContextFrame(
        identity=identity,
        position=position,
        state=state,
        obligations=obligations,
        capabilities=capabilities,
        memory=memory if not degraded else {},
        temporal=temporal,
        constitution=slow.constitution,
        degraded=degraded,
        failures=tuple(failures),
        verbatim=view.verbatim if view is not None and not degraded else [],
        generated_at=deps.clock.now().astimezone(zone).isoformat(timespec="seconds"),
        cached=hit,
        shelf=shelf,
    )
    deps.metrics.frame_build_seconds.observe(time.perf_counter() - started)
    return frame


async def _earlier_handovers(deps: Deps, turn: Turn, last: int) -> list[dict[str, Any]]:
    """The handovers before the last one, oldest first, each after the same sanity check as
    the last one (DESIGN 3.8): a false "salvei Matrix" written by a model comes back with
    its governance note, never as a plain fact (the narrator fits them)."""
    entries: list[dict[str, Any]] = []
    for n in range(last - 1, max(0, last - 1 - EARLIER_HANDOVERS), -1):
        doc = await deps.db.summaries.handover(turn.user_id, turn.conversation_id, n)
        if doc is not None and doc.get("text"):
            sanity = await check_handover(deps, turn.user_id, doc, language=turn.language)
            entries.append(
                {
                    "text": str(doc["text"]),
                    "verified": sanity.verified,
                    "governance_notes": sanity.notes,
                }
            )
    return entries[::-1]


def _version(deps: Deps, turn: Turn, view: MemoryView | None) -> Version:
    """What the slow sections depend on: any change of it is a cache miss."""
    user = turn.user
    ledger = deps.db.ledger
    return (
        turn.language,
        user.item_seq,
        tuple(sorted(user.counts.items())),
        view.handover_number if view is not None else -1,
        # not the user's own stream: it grows with every model call (model_usage)
        ledger.known_head(SYSTEM_STREAM),
    )


async def _slow_sections(
    deps: Deps, turn: Turn, view: MemoryView | None
) -> tuple[SlowSections, list[str]]:
    """The sections that change only with the user's state: the handovers and the constitution."""
    failures: list[str] = []
    memory: dict[str, Any] = {}
    if view is not None:
        try:
            handover = await deps.db.summaries.handover(
                turn.user_id, turn.conversation_id, view.handover_number
            )
            if handover is not None and handover.get("text"):
                sanity: SanityResult = await check_handover(
                    deps, turn.user_id, handover, language=turn.language
                )
                memory["handover"] = {
                    "text": str(handover["text"]),
                    "verified": sanity.verified,
                    "governance_notes": sanity.notes,
                    "tags": [str(t) for t in handover.get("tags") or []],
                }
                memory["earlier_handovers"] = await _earlier_handovers(
                    deps, turn, view.handover_number
                )
        except SECTION_ERRORS as exc:
            failures.append(f"memory: {type(exc).__name__}")
    constitution: dict[str, Any] = {}
    try:
        doc_c = await current_constitution(deps)
        constitution = {"version": doc_c.version, "text": doc_c.text, **structure_of(doc_c)}
    except SECTION_ERRORS as exc:
        failures.append(f"constitution: {type(exc).__name__}")
    return SlowSections(memory, constitution), failures


async def upcoming_reminders(deps: Deps, turn: Turn, zone: ZoneInfo) -> list[dict[str, Any]]:
    """The user's next reminders due within `UPCOMING_DAYS`, at most `UPCOMING_REMINDERS`: the
    obligations the user set (issue 43): id, local time, text and whether it repeats."""
    hint = turn.user.reminder_hint_ms
    horizon = turn.now_ms + UPCOMING_DAYS * 86_400_000
    if hint is not None and hint > horizon:
        return []  # none open, or none due that soon: nothing is read
    found = await deps.db.reminders.open_for(turn.user_id)
    soon = [r for r in found if r.state == "scheduled" and r.due_at_ms <= horizon]
    return [
        {
            "reminder_id": r.id[:REMINDER_HANDLE],  # change/cancel_reminder take the handle
            "due": datetime.fromtimestamp(r.due_at_ms / 1000, zone).strftime("%Y-%m-%d %H:%M"),
            "text": r.text,
            "repeats": bool(r.rule),
        }
        for r in soon[:UPCOMING_REMINDERS]
    ]


def shelf_view(shown: shelves.Shown | None) -> dict[str, Any]:
    """The shelf as the frame carries it: numbered entries and the item last named alone."""
    if shown is None:
        return {}
    view: dict[str, Any] = {
        "entries": [
            {"n": e.number, "item_id": e.item_id, "label": e.label, "type": e.type}
            for e in sorted(shown.entries, key=lambda e: e.number)
        ]
    }
    if shown.focus is not None:
        view["focus"] = {"item_id": shown.focus.item_id, "label": shown.focus.label}
    return view


def local_time(frame: ContextFrame) -> datetime:
    return datetime.fromisoformat(frame.temporal["now"])
