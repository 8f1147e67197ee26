"""Help, greeting and the privacy line."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "help": {
        "pt": (
            "Eu guardo filmes, séries, vídeos, links e notas para você.\n"
            "• «salva o filme Inception», «guarda https://...», «anota: comprar leite»\n"
            "• «lista tudo», «lista meus filmes», «procura inception»\n"
            "• «apaga o inception», «apaga tudo» (peço confirmação)\n"
            "Comandos: /list /search /delete_all /cancel /why /lang /end /export /forget"
        ),
        "en": (
            "I keep movies, TV shows, videos, links and notes for you.\n"
            "• «save the movie Inception», «save https://...», «note: buy milk»\n"
            "• «list everything», «list my movies», «find inception»\n"
            "• «delete inception», «delete everything» (I ask for confirmation)\n"
            "Commands: /list /search /delete_all /cancel /why /lang /end /export /forget"
        ),
    },
    "privacy": {
        "pt": (
            "Privacidade: guardo seus itens, as mensagens desta conversa e um registro de auditoria "
            "sem conteúdo. /export envia todos os seus dados; /forget apaga sua conta e seus dados."
        ),
        "en": (
            "Privacy: I store your items, this conversation's messages and an audit log without "
            "content. /export sends you all your data; /forget deletes your account and data."
        ),
    },
}
