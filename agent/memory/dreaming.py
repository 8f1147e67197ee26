"""The learning half of a consolidation (DESIGN 3.8, issue 12): flags, baseline, emotional reset.

Reads the user's items and recent messages, synthesizes the flags (agent/memory/patterns.py),
writes the baseline narrative (the dreamer model when DREAMER_MODEL is set and background
model use is allowed, code otherwise; at most 200 tokens either way) and stores both on the
user, where every later frame reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.messages import HumanMessage, SystemMessage

from agent.deps import Deps
from agent.memory.patterns import BASELINE_TOKENS, baseline_text, synthesize
from agent.memory.periods import synthesize as synthesize_periods
from agent.planning.schema import PlannerResponse, planner_function_schema
from agent.trust.quotas import Quotas
from agent.understanding.textnorm import clean_text, data_block
from storage.documents import ItemDoc, UserDoc

MESSAGES_READ = 500  # per conversation: patterns come from the recent past


@dataclass(frozen=True, slots=True)
class Learned:
    flags: dict[str, Any]
    baseline: str
    baseline_by: str  # "code" or "model"
    model_calls: int


def _zone(deps: Deps, user: UserDoc) -> ZoneInfo:
    try:
        return ZoneInfo(user.timezone)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)


def _fit(deps: Deps, text: str) -> str:
    """Cut `text` at sentence ends until it is within the baseline's token cap."""
    while deps.counter.count_text(text) > BASELINE_TOKENS and ". " in text:
        text = text.rsplit(". ", 1)[0] + "."
    return text if deps.counter.count_text(text) <= BASELINE_TOKENS else ""


async def _dreamer_text(deps: Deps, user: UserDoc, code_text: str) -> str | None:
    """The dreamer model's baseline (its own transport, temperature and cap); None when it cannot."""
    from agent.assembly import build_model

    settings = deps.settings.model_copy(
        update={
            "llm_model": deps.settings.dreamer_model,
            "llm_max_tokens": deps.settings.dreamer_max_tokens,
        }
    )
    dreamer = build_model(settings, deps.counter, temperature=deps.settings.dreamer_temperature)
    if dreamer is None:
        return None
    language = "Portuguese" if user.language == "pt" else "English"
    messages = [
        SystemMessage(
            content=(
                f"Rewrite this profile of a user of a personal memory assistant as a short baseline "
                f"narrative for the assistant's planner, in {language}, at most {BASELINE_TOKENS} tokens, "
                "using only the facts given. Answer by calling `plan` with action RESPOND and the text as "
                "`message`, belief {key: answer.confidence, guessed: 1.0, delta: 0}."
            )
        ),
        HumanMessage(content=data_block(code_text)),
    ]
    try:
        answer = await Quotas(deps).background_complete(
            user, messages, tools=[planner_function_schema()], model=dreamer
        )
    finally:
        await dreamer.aclose()
    if answer is None:
        return None
    try:
        response = PlannerResponse.model_validate(answer.message.tool_calls[0]["args"])
    except (IndexError, KeyError, ValueError):
        return None
    text = clean_text(response.message or "")
    if response.action != "RESPOND" or not text:
        return None
    return text if deps.counter.count_text(text) <= BASELINE_TOKENS else None


async def learn(deps: Deps, user: UserDoc, items: list[ItemDoc], *, use_model: bool) -> Learned:
    """Synthesize the user's flags and baseline and store them on the user."""
    db = deps.db
    zone = _zone(deps, user)
    messages = []
    for conversation in await db.summaries.conversations(user.id):
        conv_id = str(conversation["_id"]).removeprefix("conv:")
        messages += await db.messages.last(user.id, conv_id, MESSAGES_READ)
    messages.sort(key=lambda m: m.ts_ms)
    previous = dict(user.patterns)
    since = int(previous.get("at_ms") or 0)
    flags = synthesize(items, messages, zone, previous=previous, since_ms=since)
    flags["at_ms"] = deps.clock.ms()
    day = datetime.fromtimestamp(user.created_at_ms / 1000, tz=zone).strftime("%d/%m/%Y")
    text, by, calls = _fit(deps, baseline_text(flags, user.language, day)), "code", 0
    if use_model and deps.settings.dreamer_model and deps.model is not None:
        written = await _dreamer_text(deps, user, text)
        calls = 1
        if written is not None:
            text, by = written, "model"
    periods = synthesize_periods(items, deps.clock.ms(), zone)  # issue 31, same write
    await db.users.update(
        user.id, {"patterns": flags, "baseline": text or None, "periods": periods}
    )
    return Learned(flags, text, by, calls)
