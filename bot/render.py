"""Rendering helpers both channels share: message splitting and button encoding.

A button carries `c:<choice token>:<index>`: the token ties the press to one pending
action (the runtime rejects a stale one), the index is the 0-based choice.
"""

from __future__ import annotations

from collections.abc import Callable

CHOICE_PREFIX = "c:"
TELEGRAM_CALLBACK_MAX_BYTES = 64
ELLIPSIS = "…"


class ChoiceDataTooLong(ValueError):
    """The encoded button data does not fit the platform's limit."""


def utf16_units(text: str) -> int:
    """Length as Telegram counts it: UTF-16 code units (an emoji outside the BMP is 2)."""
    return len(text.encode("utf-16-le")) // 2


def split_text(text: str, limit: int, *, measure: Callable[[str], int] = len) -> list[str]:
    """Split `text` into parts of at most `limit` units of `measure`, on line boundaries.

    Lines are kept whole when they fit; a single line longer than `limit` is cut
    into pieces that fit, never inside a character. An empty text gives no parts.
    """
    if limit < 2:
        raise ValueError("limit must be at least 2")
    if measure(text) <= limit:
        return [text] if text else []
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while measure(line) > limit:
            if current:
                parts.append(current)
                current = ""
            head = _longest_prefix(line, limit, measure)
            parts.append(head)
            line = line[len(head) :]
        candidate = f"{current}\n{line}" if current else line
        if measure(candidate) <= limit:
            current = candidate
        else:
            parts.append(current)
            current = line
    if current:
        parts.append(current)
    return [part for part in parts if part.strip()] or [_longest_prefix(text, limit, measure)]


def _longest_prefix(line: str, limit: int, measure: Callable[[str], int]) -> str:
    """The longest prefix of `line` within `limit` (at least one character)."""
    low, high = 1, min(len(line), limit)  # measure is at least len: the answer is <= limit
    while low < high:
        middle = (low + high + 1) // 2
        if measure(line[:middle]) <= limit:
            low = middle
        else:
            high = middle - 1
    return line[:low]


def encode_choice(token: str | None, index: int, *, max_bytes: int) -> str:
    """`c:<token>:<index>`; raise ChoiceDataTooLong when it exceeds `max_bytes`."""
    if index < 0:
        raise ValueError("choice index must be >= 0")
    data = f"{CHOICE_PREFIX}{token or ''}:{index}"
    if len(data.encode()) > max_bytes:
        raise ChoiceDataTooLong(f"button data is {len(data.encode())} bytes (limit {max_bytes})")
    return data


def decode_choice(data: str) -> tuple[str | None, int] | None:
    """(token, index) from `c:<token>:<index>`, or None when `data` is not ours."""
    if not data.startswith(CHOICE_PREFIX):
        return None
    token, sep, index = data[len(CHOICE_PREFIX) :].rpartition(":")
    if not sep or not index.isdigit() or len(index) > 4:
        return None
    return (token or None), int(index)


def shorten(label: str, limit: int) -> str:
    """`label` cut to `limit` characters, marked with an ellipsis when cut."""
    label = " ".join(label.split())
    return label if len(label) <= limit else label[: limit - 1].rstrip() + ELLIPSIS
