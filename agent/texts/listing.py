"""Lists and search results."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "list_empty": {"pt": "Você ainda não salvou nada.", "en": "You have not saved anything yet."},
    "list_empty_type": {"pt": "Nenhum item do tipo {type}.", "en": "No {type} saved."},
    "list_header": {"pt": "Seus itens ({count}):", "en": "Your items ({count}):"},
    "list_more_of_type": {
        "pt": "… e mais {more}. Envie «lista {type_word}» para ver todos.",
        "en": "… and {more} more. Send «list {type_word}» to see them all.",
    },
    "list_page": {
        "pt": "Página {page} de {pages}. Envie «/list {type_word} {next}» para a próxima.",
        "en": "Page {page} of {pages}. Send «/list {type_word} {next}» for the next one.",
    },
    "search_none": {"pt": "Nada encontrado para «{query}».", "en": "Nothing found for «{query}»."},
    "search_none_all": {"pt": "Nada encontrado.", "en": "Nothing found."},
    "search_found": {"pt": "Encontrei {count}:", "en": "Found {count}:"},
}
