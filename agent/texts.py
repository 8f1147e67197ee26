"""Every fixed, localized text Lembra says (Portuguese default, English).

Replies are built from these templates by the runtime; the model's own `message`
is the only free text a user ever sees. No emojis except the fixed status marks.
"""

from __future__ import annotations

from typing import Any

from agent.types import Language

_TEXTS: dict[str, dict[Language, str]] = {
    "rate_limited": {
        "pt": "Você está mandando mensagens rápido demais. Vou ignorar as próximas por um minuto.",
        "en": "You are sending messages too fast. I will ignore the next ones for a minute.",
    },
    "unsupported_media": {
        "pt": "Por enquanto eu só entendo mensagens de texto.",
        "en": "For now I only understand text messages.",
    },
    "try_again_later": {
        "pt": "Não consegui processar agora. Tente de novo em instantes.",
        "en": "I could not process that right now. Please try again in a moment.",
    },
    # WhatsApp interactive messages: a body of at most 1,024 characters, a list button
    # label of at most 20.
    "choose_option": {
        "pt": "Escolha uma opção:",
        "en": "Choose an option:",
    },
    "choices_button": {
        "pt": "Opções",
        "en": "Options",
    },
}


def text(key: str, language: Language, **values: Any) -> str:
    """The template `key` in `language`, formatted with `values`."""
    template = _TEXTS[key][language]
    return template.format(**values) if values else template
