"""Outside JSON checked before parsing: nesting depth capped, so a hostile document is refused.

Python's `json` recurses once per level: 200,000 nested brackets raise RecursionError,
which is not a ValueError and would become a 500 (a webhook) or "try again" (an import,
issue 46). Real Telegram updates and WhatsApp payloads nest fewer than 15 levels, a
Lembra export fewer than 5, so anything past the caller's limit is refused unparsed.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64

# A JSON string (skipped whole, so brackets inside text never count) or one bracket.
# Possessive and with an optional closing quote, so an unterminated string is consumed
# once: no backtracking, linear in the body whatever it holds.
_TOKEN = re.compile(rb'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]', re.DOTALL)


class TooDeep(ValueError):
    """A document nested deeper than its reader accepts."""


def too_deep(body: bytes, *, limit: int = MAX_DEPTH) -> bool:
    """Say whether `body` nests brackets deeper than `limit` (strings are skipped)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False  # too few brackets to be that deep: the usual update, no scan
    depth = 0
    for match in _TOKEN.finditer(body):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


def check_depth(body: bytes, *, limit: int = MAX_DEPTH) -> None:
    """Raise TooDeep when `body` nests deeper than `limit`."""
    if too_deep(body, limit=limit):
        raise TooDeep(f"JSON nested deeper than {limit} levels")


def loads(text: str, *, max_depth: int) -> Any:
    """`json.loads(text)` once its depth is known to be within `max_depth`.

    Raises:
        TooDeep: nested deeper than `max_depth` (nothing was parsed).
        ValueError: not JSON.
    """
    check_depth(text.encode("utf-8", "surrogatepass"), limit=max_depth)
    return json.loads(text)
