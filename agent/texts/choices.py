"""Stray confirmations, choices and their buttons."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "confirm_needs_plain_yes": {
        "pt": "Nada foi feito ainda. Para confirmar, responda «sim» (sem interrogação); «não» cancela.",
        "en": "Nothing was done yet. To confirm, answer «yes» (without a question mark); «no» cancels.",
    },
    "nothing_to_confirm": {
        "pt": "Não há nada pendente para confirmar.",
        "en": "There is nothing pending to confirm.",
    },
    "nothing_to_choose": {
        "pt": "Não há nenhuma escolha pendente.",
        "en": "There is no pending choice.",
    },
    "cancelled": {"pt": "Cancelado.", "en": "Cancelled."},
    "nothing_to_cancel": {"pt": "Não há nada para cancelar.", "en": "There is nothing to cancel."},
    "pending_dropped": {
        "pt": "(A pergunta pendente foi descartada.)",
        "en": "(The pending question was dropped.)",
    },
    "stale_button": {
        "pt": "Esse botão é de uma pergunta que já não vale. Nada foi feito.",
        "en": "That button belongs to a question that is no longer open. Nothing was done.",
    },
    "choice_out_of_range": {
        "pt": "Escolha um número de 1 a {count}, ou «cancela».",
        "en": "Pick a number from 1 to {count}, or «cancel».",
    },
    "year_ambiguous": {
        "pt": "Mais de uma opção é de {year}; escolha pelo número.",
        "en": "More than one option is from {year}; pick by number.",
    },
    "confirm_yes": {"pt": "Sim", "en": "Yes"},
    "confirm_no": {"pt": "Não", "en": "No"},
    # an offer the model wrote as prose, asked with options (agent/conversation/clarifying.py)
    "offer_choice_yes": {"pt": "Sim, pode", "en": "Yes, go ahead"},
    "offer_choice_no": {"pt": "Não, obrigado", "en": "No, thanks"},
}
