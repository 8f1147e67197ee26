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
    # "Simulação (apagar um item): afetaria 1 item:\n1. Matrix (1999)\nDá para desfazer ..."
    "simulated_head": {
        "pt": "Simulação ({action}): {effect}",
        "en": "Simulation ({action}): {effect}",
    },
    "simulated_affects": {"pt": "afetaria {items}", "en": "it would affect {items}"},
    "simulated_creates": {"pt": "criaria {items}", "en": "it would create {items}"},
    "simulated_risk": {"pt": "Decisão: {decision}.", "en": "Decision: {decision}."},
    "simulated_save_note": {"pt": "salvar uma nota", "en": "save a note"},
    "simulated_save_movie": {"pt": "salvar um filme", "en": "save a movie"},
    "simulated_save_tv_show": {"pt": "salvar uma série", "en": "save a TV show"},
    "simulated_save_video": {"pt": "salvar um vídeo", "en": "save a video"},
    "simulated_save_link": {"pt": "salvar um link", "en": "save a link"},
    "simulated_update_item": {"pt": "editar um item", "en": "edit an item"},
    "simulated_delete_item": {"pt": "apagar um item", "en": "delete an item"},
    "simulated_delete_all_memories": {"pt": "apagar tudo", "en": "delete everything"},
    "risk_decision_run": {"pt": "eu faria sem perguntar", "en": "I would do it without asking"},
    "risk_decision_confirm": {
        "pt": "eu pediria confirmação",
        "en": "I would ask for a confirmation",
    },
    "risk_decision_block": {"pt": "eu recusaria", "en": "I would refuse"},
    # the estimate of issue 31, in plain words (issue 45): said only when it tells the user
    # something the preview does not (similar items, a doubtful target, nothing alike)
    "estimate_similar": {
        "pt": "Também na sua lista: {similar}.",
        "en": "Also on your list: {similar}.",
    },
    "estimate_uncertain": {
        "pt": "Não tenho certeza de que é esse: ele se parece {confidence}% com o que você escreveu.",
        "en": "I am not sure it is the one you meant: it matches what you wrote at {confidence}%.",
    },
    "estimate_new": {"pt": "Nada parecido está salvo.", "en": "Nothing similar is saved."},
}
