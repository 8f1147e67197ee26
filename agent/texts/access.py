"""Who may use the bot: the refusal a sender outside ALLOWED_USER_IDS gets (once a day, with a
pairing code), `/id`, and the admins' `/allow` and `/deny`."""

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
    "not_allowed_code": {
        "pt": (
            "Olá! Este é um assistente pessoal e só atende as pessoas que quem o administra "
            "autorizou. Se você deveria ter acesso, mande a essa pessoa o código {code} "
            "(vale 24 horas). Seu id: {user_id}"
        ),
        "en": (
            "Hi! This is a personal assistant and it only answers the people whoever runs it "
            "has allowed. If you should have access, send them the code {code} (valid for 24 "
            "hours). Your id: {user_id}"
        ),
    },
    "your_id": {"pt": "Seu id: {user_id}", "en": "Your id: {user_id}"},
    "allow_usage": {
        "pt": "Use /allow CÓDIGO (o código que a pessoa recebeu) ou /allow tg:123.",
        "en": "Use /allow CODE (the code the person got) or /allow tg:123.",
    },
    "deny_usage": {
        "pt": "Use /deny tg:123 (ou wa:5511...).",
        "en": "Use /deny tg:123 (or wa:5511...).",
    },
    "access_added": {
        "pt": "{user_id} pode usar o bot a partir de agora.",
        "en": "{user_id} may use the bot from now on.",
    },
    "access_already": {
        "pt": "{user_id} já estava aprovado.",
        "en": "{user_id} was already approved.",
    },
    "access_listed": {
        "pt": "{user_id} está em ALLOWED_USER_IDS: mude por lá (e reinicie).",
        "en": "{user_id} is in ALLOWED_USER_IDS: change it there (and restart).",
    },
    "access_admin": {
        "pt": "{user_id} é administrador (ADMIN_USER_IDS): sempre pode usar o bot.",
        "en": "{user_id} is an admin (ADMIN_USER_IDS): always allowed.",
    },
    "access_removed": {
        "pt": "{user_id} não pode mais usar o bot.",
        "en": "{user_id} may no longer use the bot.",
    },
    "access_absent": {"pt": "{user_id} não estava aprovado.", "en": "{user_id} was not approved."},
    "access_unknown_code": {
        "pt": "Código desconhecido ou vencido: peça para a pessoa escrever de novo amanhã, ou use /allow tg:<id>.",
        "en": "Unknown or expired code: ask the person to write again tomorrow, or use /allow tg:<id>.",
    },
}
