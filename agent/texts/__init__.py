"""Every fixed, localized text Lembra says (Portuguese default, English).

Replies are built from these templates by the runtime; the model's own `message`
is the only free text a user ever sees. No emojis except the fixed status marks
(`OK_MARK`, `WARN_MARK`, `FAIL_MARK`).

The templates live in one catalog module per area (`channels`, `listing`,
`reminders`, ...); this module merges them, refuses a key defined twice, and owns
the helpers every area shares: `text`, `plural` and the item type names.
"""

from __future__ import annotations

from typing import Any

from agent.texts import (
    channels,
    choices,
    commands,
    corrections,
    deleting,
    exports,
    failures,
    guide,
    listing,
    memory,
    reminders,
    risk,
    saving,
    smalltalk,
    undo,
)
from agent.types import Language

OK_MARK = "✅"
WARN_MARK = "⚠️"
FAIL_MARK = "❌"
EDIT_MARK = "✏️"  # an edited message corrected an item (DESIGN 10.5)

CATALOGS = (
    channels,
    guide,
    choices,
    listing,
    deleting,
    saving,
    failures,
    commands,
    undo,
    reminders,
    exports,
    memory,
    smalltalk,
    risk,
    corrections,
)


def _merged() -> dict[str, dict[Language, str]]:
    merged: dict[str, dict[Language, str]] = {}
    for catalog in CATALOGS:
        twice = merged.keys() & catalog.TEXTS.keys()
        if twice:
            raise AssertionError(f"text keys defined twice: {sorted(twice)}")
        merged.update(catalog.TEXTS)
    return merged


_TEXTS = _merged()

TYPE_NAMES: dict[Language, dict[str, tuple[str, str]]] = {
    # (plural heading, word used in «lista ...»)
    "pt": {
        "movie": ("Filmes", "filmes"),
        "tv_show": ("Séries", "séries"),
        "video": ("Vídeos", "vídeos"),
        "link": ("Links", "links"),
        "note": ("Notas", "notas"),
    },
    "en": {
        "movie": ("Movies", "movies"),
        "tv_show": ("TV shows", "shows"),
        "video": ("Videos", "videos"),
        "link": ("Links", "links"),
        "note": ("Notes", "notes"),
    },
}


def text(key: str, language: Language, **values: Any) -> str:
    """The template `key` in `language`, formatted with `values`."""
    template = _TEXTS[key][language]
    return template.format(**values) if values else template


def items_word(count: int, language: Language) -> str:
    """ "item"/"itens" by count (Portuguese), "item"/"items" (English)."""
    if count == 1:
        return "item"
    return "itens" if language == "pt" else "items"


def type_heading(item_type: str, language: Language) -> str:
    return TYPE_NAMES[language][item_type][0]


def type_word(item_type: str, language: Language) -> str:
    return TYPE_NAMES[language][item_type][1]
