"""The fixed texts (issue 3 item 6): Portuguese and English for every one, no emojis but the marks."""

from __future__ import annotations

import string
import unicodedata

import pytest

from agent.texts import _TEXTS, DONE_MARK, EDIT_MARK, FAIL_MARK, OK_MARK, TYPE_NAMES, WARN_MARK
from storage.documents import ITEM_TYPES

MARKS = {OK_MARK, WARN_MARK, FAIL_MARK, EDIT_MARK, DONE_MARK}
KEYS = sorted(_TEXTS)


def pictographs(value: str) -> list[str]:
    """Characters that render as emoji or pictures (symbol-other, and the emoji selector)."""
    return [c for c in value if unicodedata.category(c) == "So" or c in "\ufe0f\u200d"]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_status_marks_are_the_only_pictographs_lembra_uses() -> None:
    assert all(pictographs(mark) for mark in MARKS)


@pytest.mark.parametrize("key", KEYS)
def test_every_text_is_in_both_languages_with_the_same_placeholders(key: str) -> None:
    versions = _TEXTS[key]

    assert set(versions) == {"pt", "en"}
    assert all(v.strip() for v in versions.values())
    assert placeholders(versions["pt"]) == placeholders(versions["en"])


@pytest.mark.parametrize("key", KEYS)
def test_no_text_carries_an_emoji(key: str) -> None:
    for language, template in _TEXTS[key].items():
        assert pictographs(template) == [], (key, language)


def test_item_type_names_exist_in_both_languages() -> None:
    for language in ("pt", "en"):
        assert set(TYPE_NAMES[language]) == set(ITEM_TYPES)
