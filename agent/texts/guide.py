"""Help, greeting and the privacy line."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "help": {  # the commands line follows, from agent/texts/menu.py
        "pt": (
            "Eu guardo filmes, séries, vídeos, links e notas. Um exemplo de cada coisa:\n"
            "• salvar: «salva inception», «guarda https://...», «anota: comprar leite»\n"
            "• corrigir o tipo do que acabei de salvar: «é uma série»\n"
            "• ver e procurar: «lista meus filmes», «procura leite»\n"
            "• apagar: «apaga o inception», «apaga tudo» (peço confirmação)\n"
            "• desfazer: «desfaz»\n"
            "• lembretes: «me lembra amanhã às 9h de pagar a conta», «meus lembretes»\n"
            "• o que já viu: «já vi Duna, nota 8», «o que falta ver?», «onde assistir Duna?», "
            "«o que eu vejo hoje?»"
        ),
        "en": (
            "I keep movies, TV shows, videos, links and notes. One example of each:\n"
            "• save: «save inception», «save https://...», «note: buy milk»\n"
            "• correct the type of what I just saved: «it's a show»\n"
            "• see and find: «list my movies», «find milk»\n"
            "• delete: «delete inception», «delete everything» (I ask first)\n"
            "• undo: «undo»\n"
            "• reminders: «remind me tomorrow at 9am to pay the bill», «my reminders»\n"
            "• what you watched: «I watched Dune, 8/10», «what's left on my list?», "
            "«where can I stream Dune?», «what should I watch tonight?»"
        ),
    },
    "greeting": {
        "pt": "Oi! Eu guardo filmes, séries, vídeos, links e notas para você. Diga «ajuda» "
        "para ver tudo o que eu faço, com um exemplo de cada.",
        "en": "Hi! I keep movies, TV shows, videos, links and notes for you. Say «help» to "
        "see everything I do, with an example of each.",
    },
    "help_voice": {
        "pt": "• voz: mande uma mensagem de voz e eu trato como se fosse escrita",
        "en": "• voice: send a voice note and I treat it as if you had typed it",
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
