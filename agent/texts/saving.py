"""Saving and its outcomes."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "saved": {"pt": "Salvo: {label}.", "en": "Saved: {label}."},
    "already_saved": {"pt": "Já estava salvo: {label}.", "en": "Already saved: {label}."},
    "choose_candidate": {
        "pt": "Encontrei {count} para «{query}». Qual?",
        "en": "I found {count} for «{query}». Which one?",
    },
    "candidates_shown": {"pt": "Encontrei para «{query}»:", "en": "Matches for «{query}»:"},
    "no_candidates": {
        "pt": "Não encontrei «{query}» no TMDB.",
        "en": "I did not find «{query}» on TMDB.",
    },
    "tmdb_lookup_failed": {
        "pt": "Não consegui consultar o TMDB sobre «{query}» agora. Tente de novo em instantes.",
        "en": "I could not reach TMDB about «{query}» right now. Please try again shortly.",
    },
    "page_info": {"pt": "{url}\n{details}", "en": "{url}\n{details}"},
}
