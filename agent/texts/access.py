"""Who may use the bot: the refusal a sender outside ALLOWED_USER_IDS gets (once a day)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "not_allowed": {
        "pt": (
            "Olá! Este é um assistente pessoal e só atende as pessoas que quem o administra "
            "autorizou. Se você deveria ter acesso, peça para incluírem seu id: {user_id}"
        ),
        "en": (
            "Hi! This is a personal assistant and it only answers the people whoever runs it "
            "has allowed. If you should have access, ask them to add your id: {user_id}"
        ),
    },
}
