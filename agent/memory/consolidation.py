"""Consolidation, the "dreaming cycle" (DESIGN 3.8, seed 002).

Runs daily at 02:00 in the user's time zone, every 50 sessions, and after critical
events (`all_deleted`, three planner failures in a row), or now with `lembra dream`.
It compacts the memory tiers (the model re-summarizes the archive when one is
configured for background work), expires stale pending actions, re-counts the
item counters from the items themselves, and refreshes a baseline narrative.
It takes the conversation's lease, so it never runs while that user's turn does.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from langchain_core.messages import HumanMessage, SystemMessage

from agent.deps import Deps
from agent.memory.dreaming import learn
from agent.memory.tiers import ARCHIVE_TOKEN_CAP, Tiers
from agent.planning.schema import PlannerResponse, planner_function_schema
from agent.texts import plural, text
from agent.trust.ledgering import append_event
from agent.trust.quotas import Quotas
from agent.types import Language
from agent.understanding.textnorm import clean_text, data_block
from storage.documents import ITEM_TYPES, UserDoc

LEASE_TTL_MS = 120_000
DAILY_HOUR = 2
SESSIONS_PER_DREAM = 50


@dataclass(frozen=True, slots=True)
class ConsolidationReport:
    user_id: str
    trigger: str
    conversations: int
    pending_expired: int
    counts_repaired: bool
    archive_by_model: bool


def _local_now(deps: Deps, user: UserDoc) -> datetime:
    try:
        zone = ZoneInfo(user.timezone)
    except (ValueError, KeyError):
        zone = ZoneInfo(deps.settings.default_timezone)
    return deps.clock.now().astimezone(zone)


def local_day(deps: Deps, user: UserDoc) -> tuple[str, int]:
    """The user's local date and hour now."""
    local = _local_now(deps, user)
    return local.date().isoformat(), local.hour


def due_reason(deps: Deps, user: UserDoc) -> str | None:
    """Why a consolidation is due for `user` now, or None.

    Daily: once per local day from 02:00 (a day the job could not run at 02:00 is
    caught up later that day); a user's first night is the first 02:00 after they
    arrived.
    """
    if user.dream_due:
        return user.dream_due
    if user.sessions_since_dream >= SESSIONS_PER_DREAM:
        return "sessions"
    local = _local_now(deps, user)
    if local.hour < DAILY_HOUR or user.dream_last_day == local.date().isoformat():
        return None
    two_am = local.replace(hour=DAILY_HOUR, minute=0, second=0, microsecond=0)
    if user.dream_last_day is None and user.created_at_ms > two_am.timestamp() * 1000:
        return None  # arrived after today's 02:00: their first night is still to come
    return "daily"


async def _model_archive(deps: Deps, user: UserDoc, archive: str) -> str | None:
    language = user.language
    messages = [
        SystemMessage(
            content=(
                f"Summarize this archive of an assistant's earlier turns in at most {ARCHIVE_TOKEN_CAP} tokens, "
                f"in {'Portuguese' if language == 'pt' else 'English'}, keeping what the user saved, deleted and asked for. "
                "Answer by calling `plan` with action RESPOND and the summary as `message`, "
                "belief {key: answer.confidence, guessed: 1.0, delta: 0}."
            )
        ),
        HumanMessage(content=data_block(archive)),
    ]
    answer = await Quotas(deps).background_complete(
        user, messages, tools=[planner_function_schema()]
    )
    if answer is None:  # no model, the day is spent, or it is down: the next run tries again
        return None
    try:
        response = PlannerResponse.model_validate(answer.message.tool_calls[0]["args"])
    except (IndexError, KeyError, ValueError):
        return None
    text = clean_text(response.message or "")
    if (
        response.action != "RESPOND"
        or not text
        or deps.counter.count_text(text) > ARCHIVE_TOKEN_CAP
    ):
        return None
    return text


async def consolidate(
    deps: Deps, user_id: str, *, trigger: str, use_model: bool, lease_held: bool = False
) -> ConsolidationReport | None:
    """Consolidate one user's memory now; None when the user is busy (their turn holds the lease) or unknown.

    Args:
        lease_held: the caller is that user's own turn in their private chat, which already
            holds `chat:<user>` (or, in the console, runs alone): taking it again would
            find it busy (issue 30: an admin's own /dream always answered "busy").
    """
    db = deps.db
    lease = f"chat:{user_id}"
    # unique per run: two runs in one process (the scheduler and /dream) must exclude each other
    owner = f"dream:{deps.owner}:{uuid.uuid4().hex[:8]}"
    if not lease_held and not await db.leases.acquire(
        lease, owner, ttl_ms=LEASE_TTL_MS, now_ms=deps.clock.ms()
    ):
        return None
    try:
        user = await db.users.get(user_id)
        if user is None:
            return None
        tiers = Tiers(db, deps.counter)
        conversations = await db.summaries.conversations(user_id)
        by_model = False
        for conversation in conversations:
            conv_id = str(conversation["_id"]).removeprefix("conv:")
            await tiers.compact(user_id, conv_id)
            fresh = await db.summaries.get_conversation(user_id, conv_id) or {}
            archive = str(fresh.get("archive") or "")
            if use_model and archive and not fresh.get("archive_by_model"):
                rewritten = await _model_archive(deps, user, archive)
                if rewritten is not None:
                    await db.summaries.set_conversation_fields(
                        user_id, conv_id, {"archive": rewritten, "archive_by_model": True}
                    )
                    by_model = True
        now = deps.clock.ms()
        expired = await db.pending.sweep(now, user_id=user_id)
        items = await db.items.list_for(user_id)
        counts: dict[str, int] = {t: sum(1 for i in items if i.type == t) for t in ITEM_TYPES}
        repaired = counts != {t: int(user.counts.get(t, 0)) for t in ITEM_TYPES}
        if repaired:
            await db.users.set_counts(user_id, counts)
        learned = await learn(deps, user, items, use_model=use_model)
        day, _ = local_day(deps, user)
        await db.users.update(
            user_id,
            {
                "dream_last_day": day,
                "sessions_since_dream": 0,
                "dream_due": None,
                "planner_failures_in_row": 0,
            },
        )
        report = ConsolidationReport(
            user_id, trigger, len(conversations), len(expired), repaired, by_model
        )
        await append_event(
            deps,
            None,
            "consolidation_done",
            {
                "trigger": trigger,
                "conversations": report.conversations,
                "pending_expired": report.pending_expired,
                "counts_repaired": repaired,
                "archive_by_model": by_model,
                # what dreaming learned, as counts only (the ledger holds no content)
                "items": len(items),
                "types": len(learned.flags["types"]),
                "topics": len(learned.flags["topics"]),
                "active_hours": len(learned.flags["active_hours"]),
                "empty_searches": len(learned.flags["empty_searches"]),
                "corrections": learned.flags["corrections"],
                "frustration": learned.flags["frustration"],
                "baseline_tokens": deps.counter.count_text(learned.baseline),
                "baseline_by": learned.baseline_by,
            },
            stream=user_id,
        )
        deps.metrics.consolidations.labels(trigger).inc()
        return report
    finally:
        if not lease_held:
            await db.leases.release(lease, owner)


def describe(report: ConsolidationReport, language: Language = "en") -> str:
    return text(
        "admin_dream_done",
        language,
        user=report.user_id,
        trigger=report.trigger,
        conversations=plural(report.conversations, "conversation", language),
        pending=plural(report.pending_expired, "pending", language),
        counters=text("admin_dream_repaired", language) if report.counts_repaired else "ok",
    )


async def consolidate_now(
    deps: Deps,
    user_id: str,
    *,
    use_model: bool,
    language: Language = "en",
    lease_held: bool = False,
) -> tuple[bool, str]:
    """Consolidate on request (`lembra dream`, `/dream`): whether it ran, and the line to show
    (in the admin's language over chat, English on the command line).

    An unknown user and a busy one (a turn or another consolidation holds the lease)
    are told apart, since an operator does different things about each.
    """
    if await deps.db.users.get(user_id) is not None:
        report = await consolidate(
            deps, user_id, trigger="manual", use_model=use_model, lease_held=lease_held
        )
        if report is not None:
            return True, describe(report, language)
        if await deps.db.users.get(user_id) is not None:  # not forgotten meanwhile
            return False, text("admin_dream_busy", language, user=user_id)
    return False, text("admin_dream_unknown", language, user=user_id)
