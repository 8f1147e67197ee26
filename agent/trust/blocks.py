"""Absolute blocks read from a refused planner call (DESIGN 3.4): undefined argument, cross-user id."""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent.trust.confidence import Block

# pydantic's message for a field the tool does not define (`extra="forbid"`)
_UNDEFINED = "Extra inputs are not permitted"
_USER_ID = re.compile(r"^(tg|wa|cli):\S+$")


def blocks_for(problem: str, args: object, user_id: str) -> tuple[Block, ...]:
    """The blocks a call refused for `problem` raises once the retry budget is spent."""
    found: list[Block] = []
    if _UNDEFINED in problem:
        found.append("undefined_argument")
    if any(_USER_ID.match(value) and value != user_id for value in _strings(args)):
        found.append("cross_user")
    return tuple(found)


def _strings(value: object, depth: int = 0) -> Iterator[str]:
    """Every string in the call's arguments (nested a little: the model's JSON is untrusted)."""
    if depth > 3:
        return
    if isinstance(value, str):
        yield value.strip()
    elif isinstance(value, dict):
        for inner in value.values():
            yield from _strings(inner, depth + 1)
    elif isinstance(value, list):
        for inner in value[:20]:
            yield from _strings(inner, depth + 1)
