"""Every fixed, localized text Lembra says (Portuguese default, English).

Replies are built from these templates by the runtime; the model's own `message`
is the only free text a user ever sees. No emojis except the fixed status marks
(`OK_MARK`, `WARN_MARK`, `FAIL_MARK`).

The templates live in one catalog module per area (`channels`, `listing`,
`reminders`, ...); this module merges them, refuses a key defined twice, and owns
the helpers every area shares: `text`, `plural` and the item type names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agent.texts import (
    access,
    admin,
    channels,
    choices,
    commands,
    corrections,
    degraded,
    deleting,
    durations,
    explaining,
    exports,
    failures,
    guide,
    listing,
    memory,
    periods,
    reminders,
    repeating,
    retyping,
    risk,
    saving,
    shelf,
    smalltalk,
    undo,
    voice,
    watchlist,
)
from agent.types import Language

OK_MARK = "✅"
WARN_MARK = "⚠️"
FAIL_MARK = "❌"
EDIT_MARK = "✏️"  # an edited message corrected an item (DESIGN 10.5)
DONE_MARK = "✓"  # an item seen, read or done, on a list line and its button (DESIGN 11.5)

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
    access,
    degraded,
    retyping,
    durations,
    explaining,
    admin,
    corrections,
    voice,
    shelf,
    periods,
    repeating,
    watchlist,
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


# Countable nouns of fixed texts: (one, other). Portuguese and English both use the singular
# for exactly 1 and the plural otherwise (0 itens, 0 items).
NOUNS: dict[str, dict[Language, tuple[str, str]]] = {
    "item": {"pt": ("item", "itens"), "en": ("item", "items")},
    "similar": {
        "pt": ("item parecido", "itens parecidos"),
        "en": ("similar item", "similar items"),
    },
    "message": {"pt": ("mensagem", "mensagens"), "en": ("message", "messages")},
    "record": {"pt": ("registro", "registros"), "en": ("record", "records")},
    "line": {"pt": ("linha", "linhas"), "en": ("line", "lines")},
    "option": {"pt": ("opção", "opções"), "en": ("match", "matches")},
    "conversation": {"pt": ("conversa", "conversas"), "en": ("conversation", "conversations")},
    "pending": {
        "pt": ("pendência expirada", "pendências expiradas"),
        "en": ("pending action expired", "pending actions expired"),
    },
    "user": {"pt": ("usuário", "usuários"), "en": ("user", "users")},
    "memory": {
        "pt": ("anotação do assistente", "anotações do assistente"),
        "en": ("note of the assistant's", "notes of the assistant's"),
    },
    "event": {"pt": ("evento", "eventos"), "en": ("event", "events")},
    "model_call": {
        "pt": ("chamada", "chamadas"),
        "en": ("model call", "model calls"),
    },
    "discrepancy": {
        "pt": ("discrepância", "discrepâncias"),
        "en": ("discrepancy", "discrepancies"),
    },
    # the item types, as counted ("1 nota", "2 filmes")
    "movie": {"pt": ("filme", "filmes"), "en": ("movie", "movies")},
    "tv_show": {"pt": ("série", "séries"), "en": ("show", "shows")},
    "video": {"pt": ("vídeo", "vídeos"), "en": ("video", "videos")},
    "link": {"pt": ("link", "links"), "en": ("link", "links")},
    "note": {"pt": ("nota", "notas"), "en": ("note", "notes")},
}


def plural(count: int, noun: str, language: Language, *, with_count: bool = True) -> str:
    """ "1 item", "3 itens", "0 items": the one plural rule every fixed text uses."""
    one, other = NOUNS[noun][language]
    word = one if count == 1 else other
    return f"{count} {word}" if with_count else word


def has_text(key: str) -> bool:
    """Whether `key` is a text of the catalog (a failure's reason may name one)."""
    return key in _TEXTS


def joined(parts: Sequence[str], language: Language) -> str:
    """ "A, B e C" / "A, B and C"; one part alone as it is."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " " + text("rule_and", language) + " " + parts[-1]


def items_word(count: int, language: Language) -> str:
    """ "item"/"itens" by count (Portuguese), "item"/"items" (English): `plural` without the count."""
    return plural(count, "item", language, with_count=False)


def type_heading(item_type: str, language: Language) -> str:
    return TYPE_NAMES[language][item_type][0]


def type_word(item_type: str, language: Language) -> str:
    return TYPE_NAMES[language][item_type][1]
