"""The risk policy and `simulate` (issue 13)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "risk_outcome_delete": {
        "pt": "Resultado: {label} sai da sua lista; {reversal}. {advice}",
        "en": "Outcome: {label} leaves your list; {reversal}. {advice}",
    },
    "risk_reversible": {
        "pt": "dá para desfazer por 24 horas com «desfaz»",
        "en": "«undo» can reverse it for 24 hours",
    },
    "risk_irreversible": {"pt": "não dá para desfazer", "en": "it cannot be undone"},
    "risk_advice_first": {
        "pt": "É a primeira vez que você apaga algo, por isso peço confirmação.",
        "en": "This is your first deletion, so I ask you to confirm.",
    },
    "risk_advice_confirm": {
        "pt": "Recomendo confirmar só se for isso mesmo.",
        "en": "Confirm only if this is what you want.",
    },
    "risk_blocked": {
        "pt": "Não vou apagar {label}: apagar isso passa do limite de risco definido por quem administra o Lembra. Nada foi apagado; essa pessoa pode mudar o limite.",
        "en": "I will not delete {label}: deleting it is over the risk limit set by whoever runs Lembra. Nothing was deleted; they can change the limit.",
    },
    "simulated": {
        "pt": "Simulação ({tool}): {count} {items}{examples}; {reversal}. Decisão: {decision}.",
        "en": "Simulation ({tool}): {count} {items}{examples}; {reversal}. Decision: {decision}.",
    },
    "risk_decision_run": {"pt": "eu faria sem perguntar", "en": "I would do it without asking"},
    "risk_decision_confirm": {
        "pt": "eu pediria confirmação",
        "en": "I would ask for a confirmation",
    },
    "risk_decision_block": {"pt": "eu recusaria", "en": "I would refuse"},
}
