"""Computed confidence (DESIGN 3.4, seed 003): a score 0-100 and a state per turn.

The score is the sum of four components; the state is the worse of the score's
band and what the facts force (a caveat: at most PARTIAL; an unresolved ambiguity:
at most AMBIGUOUS; an absolute block: FAIL), then the state table by kind of turn.
The model never estimates any of this.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agent.types import State

Pipeline = Literal["complete", "caveat", "failed"]
Ambiguity = Literal["none", "implicit", "unresolved"]
Rules = Literal["all", "partial", "ignored"]
Mapping_ = Literal["exact", "coerced", "violation"]
Block = Literal["pipeline_violation", "unknown_item", "undefined_argument", "cross_user"]
TurnKind = Literal[
    "deterministic",  # list, help, greeting, cancel, stray confirm
    "preview",  # a preview awaiting confirmation
    "effect",  # saved / deleted / found
    "dedup",  # already saved
    "saved_with_caveat",  # e.g. TMDB down
    "candidates",  # several candidates, nothing chosen
    "unavailable",  # over quota, model timeout, model unavailable after its retries
    "blocked",  # pipeline violation, cross-user or unknown item
    "answer",  # the model phrased a message (RESPOND / NOOP)
]

PIPELINE_POINTS: dict[Pipeline, int] = {"complete": 40, "caveat": 25, "failed": 0}
AMBIGUITY_POINTS: dict[Ambiguity, int] = {"none": 30, "implicit": 15, "unresolved": 0}
RULES_POINTS: dict[Rules, int] = {"all": 20, "partial": 10, "ignored": 0}
MAPPING_POINTS: dict[Mapping_, int] = {"exact": 10, "coerced": 5, "violation": 0}
_RULES_RANK: dict[Rules, int] = {"ignored": 0, "partial": 1, "all": 2}
# rule notes saying the runtime had to correct the model's step: that rule was only partly kept
PARTLY_APPLIED = ("ungrounded:",)

# Worst first: FAIL < AMBIGUOUS < PARTIAL < OK with a warning < OK.
_RANK = {"FAIL": 0, "AMBIGUOUS": 1, "PARTIAL": 2, "OK_WARN": 3, "OK": 4}
Level = Literal["FAIL", "AMBIGUOUS", "PARTIAL", "OK_WARN", "OK"]


def band(score: int) -> Level:
    """The band of a score: 90-100 OK, 70-89 OK with a warning, 50-69 PARTIAL, 30-49 AMBIGUOUS, <30 FAIL."""
    if not 0 <= score <= 100:
        raise ValueError(f"score out of range: {score}")
    if score >= 90:
        return "OK"
    if score >= 70:
        return "OK_WARN"
    if score >= 50:
        return "PARTIAL"
    if score >= 30:
        return "AMBIGUOUS"
    return "FAIL"


def _worse(a: Level, b: Level) -> Level:
    return a if _RANK[a] <= _RANK[b] else b


@dataclass(frozen=True, slots=True)
class Confidence:
    score: int
    state: State
    warning: bool  # OK with a warning
    caveats: tuple[str, ...]
    rules_applied: tuple[str, ...]
    blocks: tuple[str, ...] = ()

    @property
    def writes_allowed(self) -> bool:
        """Writes happen only in OK and PARTIAL."""
        return self.state in ("OK", "PARTIAL")

    @property
    def shows_caveat(self) -> bool:
        """OK-with-warning and PARTIAL replies carry one short caveat line."""
        return self.warning or self.state == "PARTIAL"


@dataclass(slots=True)
class TurnFacts:
    """What happened in a turn, as far as confidence is concerned."""

    pipeline: Pipeline = "complete"
    ambiguity: Ambiguity = "none"
    rules: Rules = "all"
    mapping: Mapping_ = "exact"
    caveats: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # explain a lower score; never cap the state
    blocks: list[Block] = field(default_factory=list)
    rules_applied: list[str] = field(default_factory=list)

    @property
    def score(self) -> int:
        return (
            PIPELINE_POINTS[self.pipeline]
            + AMBIGUITY_POINTS[self.ambiguity]
            + RULES_POINTS[self.rules]
            + MAPPING_POINTS[self.mapping]
        )

    def degrade_pipeline(self) -> None:
        """A stage completed with a caveat or a planner retry (never undoes a failure)."""
        if self.pipeline == "complete":
            self.pipeline = "caveat"

    def add_caveat(self, caveat: str) -> None:
        if caveat not in self.caveats:
            self.caveats.append(caveat)
        self.degrade_pipeline()

    def add_warning(self, warning: str) -> None:
        """A planner retry: fewer pipeline points and a line saying why, without the caveat cap."""
        if warning not in self.warnings:
            self.warnings.append(warning)
        self.degrade_pipeline()

    def apply_rule(self, rule: str) -> None:
        if rule not in self.rules_applied:
            self.rules_applied.append(rule)
        if rule.startswith(PARTLY_APPLIED):
            self.lower_rules("partial")

    def ignore_rule(self, rule: str) -> None:
        """A business rule the turn did not keep at all: no rules points, named in the meta."""
        self.apply_rule(f"ignored:{rule}")
        self.lower_rules("ignored")

    def lower_rules(self, to: Rules) -> None:
        """Rules points only go down within a turn (partly applied, then ignored)."""
        if _RULES_RANK[to] < _RULES_RANK[self.rules]:
            self.rules = to

    def block(self, reason: Block) -> None:
        if reason not in self.blocks:
            self.blocks.append(reason)
        # Every absolute block is a critical stage failing: the score says so too.
        self.pipeline = "failed"
        if reason in ("undefined_argument", "unknown_item", "cross_user"):
            self.mapping = "violation"


# the highest score a FAIL may carry (DESIGN 10.2): the top of its band
FAIL_CEILING = 29


def evaluate(facts: TurnFacts, kind: TurnKind) -> Confidence:
    """Score the turn and decide its state from the facts and the kind of turn.

    A blocked or unavailable stage is a critical stage that failed: it scores no pipeline
    points (seed 003), and a FAIL never scores above its band, whatever the other parts.
    """
    score = facts.score
    if kind in ("unavailable", "blocked") and facts.pipeline != "failed":
        score -= PIPELINE_POINTS[facts.pipeline]
    level: Level = band(score)
    if facts.caveats:
        level = _worse(level, "PARTIAL")
    if facts.ambiguity == "unresolved":
        level = _worse(level, "AMBIGUOUS")
    if facts.blocks:
        level = "FAIL"
    level = _by_kind(level, kind)
    if level == "FAIL":
        score = min(score, FAIL_CEILING)
    state: State = "OK" if level in ("OK", "OK_WARN") else level  # type: ignore[assignment]
    return Confidence(
        score=score,
        state=state,
        warning=level == "OK_WARN",
        caveats=(*facts.caveats, *facts.warnings),
        rules_applied=tuple(facts.rules_applied),
        blocks=tuple(facts.blocks),
    )


def _by_kind(level: Level, kind: TurnKind) -> Level:
    """The state table of DESIGN 3.4."""
    if kind in ("deterministic", "preview", "dedup"):
        # OK by the table; a lower score still shows its caveat as OK-with-a-warning.
        return level if level in ("OK", "FAIL") else "OK_WARN"
    if kind == "saved_with_caveat":
        return _worse(level, "PARTIAL")
    if kind == "candidates":
        return _worse(level, "AMBIGUOUS")
    if kind in ("unavailable", "blocked"):
        return "FAIL"
    return level  # effect, answer: by the score and the facts
