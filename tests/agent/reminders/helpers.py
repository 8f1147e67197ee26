"""Token helpers shared by the grammar tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agent.understanding.reminders.lexicon import Tok, fold_same_length, tokenize


def toks(text: str) -> tuple[Tok, ...]:
    return tokenize(fold_same_length(text))


def whole(read: Callable[[tuple[Tok, ...], int], tuple[Any, int] | None], text: str) -> Any:
    """The value `read` finds at the start of `text` when it reads all of it, else None."""
    tokens = toks(text)
    found = read(tokens, 0)
    if found is None or found[1] != len(tokens):
        return None
    return found[0]
