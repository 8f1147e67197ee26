"""The one line a turn gets when the offline planner served it because the model failed."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "degraded_unavailable": {
        "pt": "(modo simples: o assistente está fora do ar)",
        "en": "(simple mode: the assistant is down)",
    },
    "degraded_timeout": {
        "pt": "(modo simples: o assistente demorou demais para responder)",
        "en": "(simple mode: the assistant took too long to answer)",
    },
    "degraded_key_rejected": {
        "pt": "(modo simples: a chave do modelo foi recusada; avise quem administra o Lembra)",
        "en": "(simple mode: the model key was refused; tell whoever runs Lembra)",
    },
}
