"""What the channels and bad input get: rate limits, unsupported media, WhatsApp list labels."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "console_banner": {
        "pt": "Lembra ({mode}). Ctrl+D para sair.",
        "en": "Lembra ({mode}). Ctrl+D to leave.",
    },
    "console_offline": {"pt": "planejador offline, por regras", "en": "offline rule-based planner"},
    "console_model": {"pt": "modelo {model}", "en": "model {model}"},
    "rate_limited": {
        "pt": "Você está mandando mensagens rápido demais. Vou ignorar as próximas por {window}.",
        "en": "You are sending messages too fast. I will ignore the next ones for {window}.",
    },
    "unsupported_media": {
        "pt": "Por enquanto eu só entendo mensagens de texto.",
        "en": "For now I only understand text messages.",
    },
    "try_again_later": {
        "pt": "Não consegui processar agora. Tente de novo em instantes.",
        "en": "I could not process that right now. Please try again in a moment.",
    },
    "empty_message": {
        "pt": "Mensagem vazia. Diga o que devo salvar, procurar ou apagar; «ajuda» mostra os comandos.",
        "en": "Empty message. Tell me what to save, find or delete; «help» shows the commands.",
    },
    "too_long": {
        "pt": "Mensagem longa demais ({length} caracteres; o limite é {limit}). Nada foi salvo: envie um texto menor.",
        "en": "Message too long ({length} characters; the limit is {limit}). Nothing was saved: send a shorter text.",
    },
    "choose_option": {
        "pt": "Escolha uma opção:",
        "en": "Choose an option:",
    },
    "choices_button": {
        "pt": "Opções",
        "en": "Options",
    },
}
