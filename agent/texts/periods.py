"""What was saved in a period: "o que eu salvei essa semana / esse mês?" (issue 31)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    # "Nos últimos 7 dias você salvou 3 itens (filmes: 2, notas: 1):"
    "saved_in_week": {
        "pt": "Nos últimos 7 dias você salvou {items}{breakdown}:",
        "en": "In the last 7 days you saved {items}{breakdown}:",
    },
    "saved_in_month": {
        "pt": "Este mês você salvou {items}{breakdown}:",
        "en": "This month you saved {items}{breakdown}:",
    },
    "saved_nothing_week": {
        "pt": "Você não salvou nada nos últimos 7 dias.",
        "en": "You saved nothing in the last 7 days.",
    },
    "saved_nothing_month": {
        "pt": "Você não salvou nada este mês.",
        "en": "You saved nothing this month.",
    },
    "saved_no_type_week": {
        "pt": "Você não salvou {type_word} nos últimos 7 dias.",
        "en": "You saved no {type_word} in the last 7 days.",
    },
    "saved_no_type_month": {
        "pt": "Você não salvou {type_word} este mês.",
        "en": "You saved no {type_word} this month.",
    },
    "saved_in_more": {"pt": "… e mais {count}.", "en": "… and {count} more."},
}
