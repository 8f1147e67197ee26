"""The risk policy in a turn: whether a resolved deletion runs, asks "sim" or is refused.

The score and the decision are agent/trust/risk.py's, the same `simulate` reports; this
module only reads what they need (the user's first-use flags, the limits in force) and
phrases the preview line and the refusal.
"""

from __future__ import annotations

from typing import assert_never

from agent.conversation.replies import finish, item_label, numbered
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.memory.constitution import current_limits
from agent.texts import plural, text
from agent.tools.base import Simulated
from agent.trust import risk
from agent.trust.estimates import Estimate, Verdict
from agent.types import Language, Reply


async def assess_delete(deps: Deps, turn: Turn) -> tuple[risk.Assessment, risk.Thresholds]:
    """The assessment of deleting one of the turn user's items, and the limits it was held to."""
    limits = await current_limits(deps)
    used = risk.used_before(turn.user.destructive_used, "delete_item")
    assessment = risk.assess("delete_item", "high", limits, count=1, used_before=used)
    turn.facts.apply_rule("risk_policy")
    return assessment, limits


def _reversal(turn: Turn, assessment: risk.Assessment) -> str:
    key = "risk_reversible" if assessment.reversible else "risk_irreversible"
    return text(key, turn.language)


def preview_line(turn: Turn, assessment: risk.Assessment, label: str) -> str:
    """The outcome and the recommendation shown under a delete preview."""
    advice = "risk_advice_first" if assessment.first_use else "risk_advice_confirm"
    return text(
        "risk_outcome_delete",
        turn.language,
        label=label,
        reversal=_reversal(turn, assessment),
        score=f"{assessment.score:.2f}",
        advice=text(advice, turn.language),
    )


def refused(turn: Turn, assessment: risk.Assessment, limits: risk.Thresholds, label: str) -> Reply:
    """A deletion at or over the block threshold: refused, nothing deleted."""
    body = text(
        "risk_blocked",
        turn.language,
        label=label,
        score=f"{assessment.score:.2f}",
        limit=f"{limits.block:.2f}",
    )
    return finish(turn, body, kind="blocked")


def estimate_lines(estimate: Estimate, language: Language) -> list[str]:
    """The estimate (issue 31) in plain words, one line, or none when it adds nothing to the
    preview: no figures a user cannot act on, and undo is the outcome line's to say."""
    verdict: Verdict = estimate.verdict
    match verdict:
        case "unambiguous" | "everything":
            return []
        case "new":
            return [text("estimate_new", language)]
        case "similar":
            similar = plural(estimate.similar_kept, "similar", language)
            return [text("estimate_similar", language, similar=similar)]
        case "uncertain":
            confidence = min(estimate.confidences)
            return [text("estimate_uncertain", language, confidence=confidence)]
        case _:
            assert_never(verdict)


def _decision_text(turn: Turn, decision: risk.Decision) -> str:
    match decision:
        case "run":
            return text("risk_decision_run", turn.language)
        case "confirm":
            return text("risk_decision_confirm", turn.language)
        case "block":
            return text("risk_decision_block", turn.language)
        case _:
            assert_never(decision)


def simulated_reply(turn: Turn, outcome: Simulated) -> Reply:
    """A simulation told in code, when the model did not phrase it: what it would do (in
    words, never the tool's name), the items it would touch, undo, risk and decision."""
    a = outcome.assessment
    lang = turn.language
    labels = [item_label(i) for i in outcome.examples]
    effect = "simulated_creates" if a.tool.startswith("save_") else "simulated_affects"
    head = text(
        "simulated_head",
        lang,
        action=text(f"simulated_{a.tool}", lang),
        effect=text(effect, lang, items=plural(a.count, "item", lang)),
    )
    reversal = _reversal(turn, a)
    lines = [head + (":" if labels else "."), *([numbered(labels)] if labels else [])]
    lines.append(
        reversal[:1].upper()
        + reversal[1:]
        + ". "
        + text(
            "simulated_risk",
            lang,
            score=f"{a.score:.2f}",
            decision=_decision_text(turn, a.decision),
        )
    )
    if outcome.estimate is not None:
        lines.extend(estimate_lines(outcome.estimate, lang))
    return finish(turn, "\n".join(lines), kind="effect")
