"""A type guessed for a bare title, and its correction ("é uma série")."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "saved_guessed_movie": {
        "pt": "Salvei como filme: {label}. É outra coisa? Diga «é uma série» ou «é uma nota».",
        "en": "Saved as a movie: {label}. Something else? Say «it's a show» or «it's a note».",
    },
    "kind_movie": {"pt": "filme", "en": "movie"},
    "kind_tv_show": {"pt": "série", "en": "TV show"},
    "kind_note": {"pt": "nota", "en": "note"},
    "retyped": {
        "pt": "Agora é {kind}: {label}. («desfaz» volta atrás)",
        "en": "Now it is a {kind}: {label}. («undo» reverts it)",
    },
    "kinds_movie": {"pt": "filmes", "en": "movies"},
    "kinds_tv_show": {"pt": "séries", "en": "TV shows"},
    "kinds_note": {"pt": "notas", "en": "notes"},
    "retyped_several": {
        "pt": "Agora são {kinds}: {labels}. («desfaz» volta atrás)",
        "en": "Now they are {kinds}: {labels}. («undo» reverts it)",
    },
    "retype_same": {
        "pt": "{label} já está salvo como {kind}.",
        "en": "{label} is already saved as a {kind}.",
    },
    "retype_nothing": {
        "pt": "Não encontrei algo salvo agora há pouco para mudar de tipo. Diga «é uma série» "
        "(ou «é um filme», «é uma nota») logo depois de salvar.",
        "en": "I found nothing saved just now to change. Say «it's a show» (or «it's a movie», "
        "«it's a note») right after saving.",
    },
    "retype_not_possible": {
        "pt": "{label} é um link ou vídeo: fica como está.",
        "en": "{label} is a link or a video: it stays as it is.",
    },
    "retype_too_long": {
        "pt": "Essa nota é longa demais para virar um título; ficou como nota.",
        "en": "That note is too long to become a title; it stays a note.",
    },
    "retype_duplicate": {
        "pt": "Você já tem {label} salvo como {kind}; deixei como estava.",
        "en": "You already have {label} saved as a {kind}; I left it as it was.",
    },
    "undo_retyped": {
        "pt": "Desfeito: {label} voltou a ser {kind}.",
        "en": "Undone: {label} is a {kind} again.",
    },
}
