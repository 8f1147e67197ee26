"""Rendering helpers both channels share: message splitting and button encoding.

A button carries `c:<choice token>:<index>`: the token ties the press to one pending
action (the runtime rejects a stale one), the index is the 0-based choice.
"""

from __future__ import annotations

CHOICE_PREFIX = "c:"
TELEGRAM_CALLBACK_MAX_BYTES = 64
ELLIPSIS = "…"


class ChoiceDataTooLong(ValueError):
    """The encoded button data does not fit the platform's limit."""


def split_text(text: str, limit: int) -> list[str]:
    """Split `text` into parts of at most `limit` characters, on line boundaries.

    Lines are kept whole when they fit; a single line longer than `limit` is cut
    into `limit`-sized pieces. An empty text gives no parts.
    """
    if limit < 1:
        raise ValueError("limit must be positive")
    if len(text) <= limit:
        return [text] if text else []
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit:
            current = candidate
        else:
            parts.append(current)
            current = line
    if current:
        parts.append(current)
    return [part for part in parts if part.strip()] or [text[:limit]]


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
