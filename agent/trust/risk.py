"""The risk policy (issue 13): one score for every effect, and what the runtime does with it.

The score (0..1) adds up what is at stake: the tool's risk level, how many items the
effect touches, whether `desfaz` can reverse it, and whether this is the user's first
use of that destructive tool. `simulate` reports the same score the runtime acts on.
Thresholds come from `RISK_CONFIRM_THRESHOLD` and `RISK_BLOCK_THRESHOLD`, raised by the
constitution's `risk_tolerance`; with the defaults a `delete_item` (0.4) keeps the
confirmation DESIGN 3.2 asks for, and a first use or a critical tool is always confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, assert_never

from agent.toolkinds import Risk

Decision = Literal["run", "confirm", "block"]

LEVEL_BASE: dict[Risk, float] = {"read": 0.0, "low": 0.1, "high": 0.4, "critical": 0.6}
PER_EXTRA_ITEM = 0.05
MAX_COUNT_PART = 0.2
IRREVERSIBLE = 0.2
FIRST_USE = 0.1
DESTRUCTIVE: frozenset[Risk] = frozenset({"high", "critical"})
# effects `desfaz` reverts within 24 hours (agent/conversation/undoing.py)
REVERSIBLE_TOOLS = frozenset(
    {"save_note", "save_movie", "save_tv_show", "save_video", "save_link"}
    | {"delete_item", "delete_all_memories"}
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    confirm: float
    block: float


@dataclass(frozen=True, slots=True)
class Assessment:
    tool: str
    score: float
    decision: Decision
    count: int
    reversible: bool
    first_use: bool


def thresholds(confirm: float, block: float, *, tolerance: float = 0.0) -> Thresholds:
    """The thresholds in force: each moves `tolerance / 2` of the way to 1 (a bolder user)."""
    tolerance = min(max(tolerance, 0.0), 1.0)
    block_now = block + (1.0 - block) * tolerance / 2
    confirm_now = confirm + (1.0 - confirm) * tolerance / 2
    return Thresholds(round(min(confirm_now, block_now), 4), round(block_now, 4))


def score(level: Risk, *, count: int, reversible: bool, first_use: bool) -> float:
    """What is at stake in one effect, from 0 (nothing) to 1."""
    if level == "read":
        return 0.0
    total = LEVEL_BASE[level]
    total += min(MAX_COUNT_PART, PER_EXTRA_ITEM * max(count - 1, 0))
    total += 0.0 if reversible else IRREVERSIBLE
    total += FIRST_USE if first_use and level in DESTRUCTIVE else 0.0
    return round(min(total, 1.0), 4)


def decide(level: Risk, value: float, limits: Thresholds, *, first_use: bool) -> Decision:
    """Run, ask for a confirmation, or refuse."""
    match level:
        case "critical":
            return "confirm"  # delete_all_memories: code-only, always confirmed
        case "read":
            return "run"
        case "low" | "high":
            if value >= limits.block:
                return "block"
            if value >= limits.confirm or (first_use and level in DESTRUCTIVE):
                return "confirm"
            return "run"
        case _:
            assert_never(level)


def assess(
    tool: str, level: Risk, limits: Thresholds, *, count: int, used_before: bool
) -> Assessment:
    """The score and the decision for `tool` touching `count` items."""
    first_use = level in DESTRUCTIVE and not used_before
    reversible = tool in REVERSIBLE_TOOLS or level == "read"
    value = score(level, count=count, reversible=reversible, first_use=first_use)
    return Assessment(
        tool, value, decide(level, value, limits, first_use=first_use), count, reversible, first_use
    )


def used_before(flags: dict[str, bool], tool: str) -> bool:
    """Whether the user has already run this destructive tool (flag kept on the user)."""
    return bool(flags.get(tool))
