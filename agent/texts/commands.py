"""Slash commands."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "delete_all_with_target": {
        "pt": (
            "Nada foi apagado. /delete_all apaga tudo e não aceita um alvo: para apagar algo "
            "específico, diga «apaga o inception»; para apagar tudo, envie só /delete_all."
        ),
        "en": (
            "Nothing was deleted. /delete_all deletes everything and takes no target: to delete "
            "one thing, say «delete inception»; to delete everything, send just /delete_all."
        ),
    },
    "admin_private_only": {
        "pt": "/{name} é um comando de administração: envie-o em uma conversa privada comigo.",
        "en": "/{name} is an admin command: send it to me in a private chat.",
    },
    "unknown_command": {
        "pt": "Comando desconhecido: /{name}. Envie /help para ver os comandos.",
        "en": "Unknown command: /{name}. Send /help to see the commands.",
    },
    "not_available_yet": {
        "pt": "/{name} ainda não está disponível.",
        "en": "/{name} is not available yet.",
    },
    "why_none": {
        "pt": "Ainda não há uma resposta anterior para explicar.",
        "en": "There is no earlier answer to explain yet.",
    },
    "lang_set": {"pt": "Idioma: português.", "en": "Language: English."},
    "lang_usage": {"pt": "Use /lang pt ou /lang en.", "en": "Use /lang pt or /lang en."},
    "search_usage": {"pt": "Use /search <texto>.", "en": "Use /search <text>."},
    "session_ended": {"pt": "Sessão encerrada.", "en": "Session ended."},
    "export_ready": {
        "pt": "Seus dados: {items}, {messages} (arquivo JSON anexo).",
        "en": "Your data: {items}, {messages} (JSON file attached).",
    },
    "item_updated": {"pt": "Atualizado: {label}", "en": "Updated: {label}"},
}
