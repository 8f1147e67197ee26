"""The assistant's notes and bookmarks: /memory, remember, bookmark (issue 12)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "memory_noted": {"pt": "Anotado sobre você: {label}", "en": "Noted about you: {label}"},
    "memory_noted_again": {"pt": "Já estava anotado: {label}", "en": "Already noted: {label}"},
    "memory_bookmarked": {"pt": "Marcado: {label}", "en": "Bookmarked: {label}"},
    "memory_bookmarked_again": {
        "pt": "Já estava marcado: {label}",
        "en": "Already bookmarked: {label}",
    },
    "memory_dropped_oldest": {
        "pt": "(Limite de 10 marcadores: saiu o mais antigo, {label}.)",
        "en": "(Limit of 10 bookmarks: the oldest one, {label}, was dropped.)",
    },
    "memory_bookmarks_full": {
        "pt": "Seus 10 marcadores estão fixados; apague um com /memory apaga N.",
        "en": "All 10 of your bookmarks are pinned; delete one with /memory delete N.",
    },
    "memory_empty": {
        "pt": "Não guardei nenhuma nota nem marcador sobre você.",
        "en": "I keep no notes or bookmarks about you.",
    },
    "memory_facts": {"pt": "O que anotei sobre você:", "en": "What I noted about you:"},
    "memory_bookmarks": {"pt": "Marcadores:", "en": "Bookmarks:"},
    "memory_bookmark_line": {"pt": "{target} — {note}{pinned}", "en": "{target} — {note}{pinned}"},
    "memory_pinned": {"pt": " (fixo)", "en": " (pinned)"},
    "memory_hint": {
        "pt": "Para apagar: /memory apaga N, ou /memory apaga tudo.",
        "en": "To delete: /memory delete N, or /memory delete all.",
    },
    "memory_usage": {
        "pt": "Use /memory para ver, /memory apaga N para apagar uma, /memory apaga tudo para apagar todas.",
        "en": "Use /memory to list, /memory delete N to delete one, /memory delete all to delete them all.",
    },
    "memory_no_number": {
        "pt": "Não há a nota {number}: há {count}. Veja /memory.",
        "en": "There is no note {number}: there are {count}. See /memory.",
    },
    "memory_deleted": {"pt": "Apagado da memória: {line}", "en": "Deleted from memory: {line}"},
    "memory_clear_preview": {
        "pt": "Isto apaga o que guardei sobre você, notas e marcadores ({count} no total); seus itens ficam. Confirma? (sim/não)",
        "en": "This deletes what I keep about you, notes and bookmarks ({count} in all); your items stay. Confirm? (yes/no)",
    },
    "memory_cleared": {
        "pt": "Memória apagada: notas e marcadores ({count} no total); seus itens ficaram.",
        "en": "Memory deleted: notes and bookmarks ({count} in all); your items stay.",
    },
}
