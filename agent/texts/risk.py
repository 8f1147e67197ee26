"""The risk policy and `simulate` (issue 13)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "risk_outcome_delete": {
        "pt": "Resultado: {label} sai da sua lista; {reversal}. Risco {score}: {advice}",
        "en": "Outcome: {label} leaves your list; {reversal}. Risk {score}: {advice}",
    },
    "risk_reversible": {
        "pt": "dá para desfazer por 24 horas com «desfaz»",
        "en": "«undo» can reverse it for 24 hours",
    },
    "risk_irreversible": {"pt": "não dá para desfazer", "en": "it cannot be undone"},
    "risk_advice_first": {
        "pt": "é a primeira vez que você apaga algo, por isso peço confirmação.",
        "en": "this is your first deletion, so I ask you to confirm.",
    },
    "risk_advice_confirm": {
        "pt": "recomendo confirmar só se for isso mesmo.",
        "en": "confirm only if this is what you want.",
    },
    "risk_blocked": {
        "pt": "Não vou apagar {label}: o risco ({score}) passa do limite ({limit}). Nada foi apagado; quem administra o Lembra pode mudar o limite.",
        "en": "I will not delete {label}: its risk ({score}) is over the limit ({limit}). Nothing was deleted; whoever runs Lembra can change the limit.",
    },
    "simulated": {
        "pt": "Simulação de {tool}: {count} {items}{examples}; {reversal}. Risco {score}: {decision}.",
        "en": "Simulation of {tool}: {count} {items}{examples}; {reversal}. Risk {score}: {decision}.",
    },
    "risk_decision_run": {"pt": "eu faria sem perguntar", "en": "I would do it without asking"},
    "risk_decision_confirm": {
        "pt": "eu pediria confirmação",
        "en": "I would ask for a confirmation",
    },
    "risk_decision_block": {"pt": "eu recusaria", "en": "I would refuse"},
}
