"""Rendering helpers both channels share: message splitting and button encoding.

A button carries `c:<choice token>:<index>@<owner>`: the token ties the press to one
pending action (the runtime rejects a stale one), the index is the 0-based choice, and
the owner is the platform id of the user it was sent to (issue 46: in a group, another
member's press is ignored before anything is edited or answered). Buttons sent before
owners were written (`c:<token>:<index>`) are bound to nobody: the channels accept them
only where the chat's one user is the only one who can press them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

CHOICE_PREFIX = "c:"
OWNER_MARK = "@"
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


@dataclass(frozen=True, slots=True)
class ChoicePress:
    """What a pressed choice button's data says: the pending action, the option, its owner."""

    token: str | None
    index: int
    owner: str | None  # None: a button from before owners were written


def owner_of(user_id: str) -> str:
    """The owner a button names: the platform's own id of `user_id` (`tg:123` -> `123`)."""
    return user_id.split(":", 1)[-1]


def encode_choice(token: str | None, index: int, *, owner: str | None, max_bytes: int) -> str:
    """`c:<token>:<index>@<owner>`; raise ChoiceDataTooLong when it exceeds `max_bytes`."""
    if index < 0:
        raise ValueError("choice index must be >= 0")
    data = f"{CHOICE_PREFIX}{token or ''}:{index}" + (f"{OWNER_MARK}{owner}" if owner else "")
    if len(data.encode()) > max_bytes:
        raise ChoiceDataTooLong(f"button data is {len(data.encode())} bytes (limit {max_bytes})")
    return data


def decode_choice(data: str) -> ChoicePress | None:
    """What `c:<token>:<index>[@<owner>]` says, or None when `data` is not ours."""
    if not data.startswith(CHOICE_PREFIX):
        return None
    data, owner = split_owner(data)
    token, sep, index = data[len(CHOICE_PREFIX) :].rpartition(":")
    if not sep or not index.isdigit() or len(index) > 4:
        return None
    return ChoicePress(token or None, int(index), owner)


def split_owner(data: str) -> tuple[str, str | None]:
    """(the data before `@<owner>`, the owner) of a button's data; no mark: (data, None)."""
    head, mark, owner = data.rpartition(OWNER_MARK)
    if not mark or not (owner.isascii() and owner.isdigit()):  # Telegram ids, WhatsApp numbers
        return data, None
    return head, owner


def shorten(label: str, limit: int) -> str:
    """`label` cut to `limit` characters, marked with an ellipsis when cut."""
    label = " ".join(label.split())
    return label if len(label) <= limit else label[: limit - 1].rstrip() + ELLIPSIS
