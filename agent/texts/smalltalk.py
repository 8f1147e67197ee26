"""Small talk and the offline planner's offer (DESIGN 9.2)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "smalltalk_thanks": {
        "pt": "De nada! Quando quiser guardar algo, é só mandar.",
        "en": "You're welcome! Whenever you want to keep something, just send it.",
    },
    "smalltalk_greeting": {
        "pt": "Tudo bem por aqui! Quer guardar ou procurar algo? «ajuda» mostra o que eu faço.",
        "en": "All good here! Want to save or find something? «help» shows what I do.",
    },
    "smalltalk_compliment": {
        "pt": "Obrigado! Fico feliz em ajudar.",
        "en": "Thank you! Glad to help.",
    },
    "smalltalk_laughter": {
        "pt": "Haha! Se quiser guardar algo, é só mandar.",
        "en": "Haha! If you want to keep something, just send it.",
    },
    "smalltalk_ack": {
        "pt": "Combinado.",
        "en": "Got it.",
    },
    "smalltalk_feeling": {
        "pt": "Entendo. Se quiser anotar algo, diga «anota: ...».",
        "en": "I hear you. If you want to write something down, say «note: ...».",
    },
    "smalltalk_question": {
        "pt": "Sou a Lembra: guardo filmes, séries, vídeos, links e notas. «ajuda» mostra como.",
        "en": "I'm Lembra: I keep movies, TV shows, videos, links and notes. «help» shows how.",
    },
    "smalltalk_emoji": {
        "pt": "Se quiser guardar algo, é só mandar; «ajuda» mostra como.",
        "en": "If you want to keep something, just send it; «help» shows how.",
    },
    "offline_capabilities": {
        "pt": "Não salvei nada. Eu guardo o que você pedir: «salva o filme X», «anota: ...», um link; e procuro com «procura X».",
        "en": "Nothing was saved. I keep what you ask me to: «save the movie X», «note: ...», a link; and I find with «find X».",
    },
    "offer_note": {
        "pt": "Quer guardar esta mensagem como nota? (sim/não)",
        "en": "Do you want to keep this message as a note? (yes/no)",
    },
    "offer_link": {
        "pt": "Quer guardar este link? (sim/não)",
        "en": "Do you want to keep this link? (yes/no)",
    },
    "offer_unasked_save": {
        "pt": "Não salvei nada. Quer que eu guarde «{label}»? (sim/não)",
        "en": "Nothing was saved. Do you want me to keep «{label}»? (yes/no)",
    },
    "offer_save_button": {"pt": "Guardar", "en": "Keep it"},
    "offer_note_button": {"pt": "Guardar como nota", "en": "Keep as a note"},
    "offer_link_button": {"pt": "Guardar o link", "en": "Keep the link"},
    "offer_declined": {
        "pt": "Ok, não guardei nada. Para guardar, diga «anota: ...».",
        "en": "OK, I did not keep anything. To keep something, say «note: ...».",
    },
}
