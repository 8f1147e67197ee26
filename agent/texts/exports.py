"""Export formats and import."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "export_progress": {
        "pt": "exportando: {done} de {of} itens ({share})",
        "en": "exporting: {done} of {of} items ({share})",
    },
    "export_preparing": {
        "pt": "Preparando seu arquivo... ({items}). Ele chega em seguida.",
        "en": "Preparing your file... ({items}). It follows shortly.",
    },
    "export_ready_items": {
        "pt": "Seus itens: {items} ({format} anexo).",
        "en": "Your items: {items} ({format} file attached).",
    },
    "export_usage": {
        "pt": "Use /export, /export md ou /export csv.",
        "en": "Use /export, /export md or /export csv.",
    },
    "import_usage": {
        "pt": "Envie /import seguido de uma lista (um link ou título por linha) "
        "ou do JSON de /export.",
        "en": "Send /import followed by a list (one link or title a line) "
        "or by the JSON from /export.",
    },
    "import_bad_json": {
        "pt": "Não consegui ler esse JSON; nada foi importado.",
        "en": "I could not read that JSON; nothing was imported.",
    },
    "import_not_export": {
        "pt": "Esse JSON não é uma exportação do Lembra; nada foi importado.",
        "en": "That JSON is not a Lembra export; nothing was imported.",
    },
    "import_too_many": {
        "pt": "São mais de {limit} itens; importe em partes. Nada foi importado.",
        "en": "That is more than {limit} items; import it in parts. Nothing was imported.",
    },
    "import_too_deep": {
        "pt": "Esse JSON tem mais de {limit} níveis de aninhamento, e uma exportação do Lembra "
        "tem poucos; nada foi importado.",
        "en": "That JSON nests more than {limit} levels deep, and a Lembra export has few; "
        "nothing was imported.",
    },
    "import_all_too_long": {
        "pt": "Todas as linhas passam de {limit} caracteres, o máximo de um item; "
        "nada foi importado.",
        "en": "Every line is longer than {limit} characters, the most an item holds; "
        "nothing was imported.",
    },
    "import_cell_too_long": {
        "pt": "Esse arquivo tem um campo com mais de {limit} caracteres, o máximo de um item; "
        "nada foi importado.",
        "en": "That file has a field longer than {limit} characters, the most an item holds; "
        "nothing was imported.",
    },
    "import_lines_too_long": {
        "pt": "Ficam de fora por passar de {limit} caracteres: {lines}.",
        "en": "Left out for being longer than {limit} characters: {lines}.",
    },
    "import_memories_over": {
        "pt": "Guardo até {facts} fatos e {bookmarks} marcadores sobre você; ficam de fora: {over}.",
        "en": "I keep up to {facts} facts and {bookmarks} bookmarks about you; left out: {over}.",
    },
    "import_nothing_valid": {
        "pt": "Não encontrei nenhum item para importar.",
        "en": "I found nothing to import.",
    },
    "import_nothing_new": {
        "pt": "Nada a importar: tudo já estava na sua lista ({known}).",
        "en": "Nothing to import: everything was already in your list ({known}).",
    },
    "import_preview": {
        "pt": "Importar {count} {items}?",
        "en": "Import {count} {items}?",
    },
    "import_preview_memories": {
        "pt": "Importar {memories} sobre você (fatos e marcadores)?",
        "en": "Import {memories} about you (facts and bookmarks)?",
    },
    "import_memories": {
        "pt": "E {memories} sobre você (fatos e marcadores).",
        "en": "And {memories} about you (facts and bookmarks).",
    },
    "import_memories_done": {
        "pt": "E {memories}.",
        "en": "And {memories}.",
    },
    "import_known": {
        "pt": "Já na sua lista (ficam como estão): {known}.",
        "en": "Already in your list (left as they are): {known}.",
    },
    "import_invalid": {
        "pt": "Ficam de fora por não serem itens válidos: {invalid}.",
        "en": "Left out as not valid items: {invalid}.",
    },
    "import_done": {"pt": "Importei {count} {items}.", "en": "Imported {count} {items}."},
    "import_cancelled": {"pt": "Ok, nada foi importado.", "en": "OK, nothing was imported."},
    # a file sent to /import (a Telegram document)
    "import_file_type": {
        "pt": "Esse tipo de arquivo eu não importo. Mande a exportação .json do Lembra "
        "ou uma lista .txt ou .csv (um título ou link por linha).",
        "en": "I can't import that kind of file. Send Lembra's .json export "
        "or a .txt or .csv list (one title or link a line).",
    },
    "import_file_too_large": {
        "pt": "Esse arquivo é grande demais para importar (até {limit} MB). "
        "Divida em partes e mande de novo; nada foi importado.",
        "en": "That file is too large to import (up to {limit} MB). "
        "Split it into parts and send them again; nothing was imported.",
    },
    "import_file_unreadable": {
        "pt": "Não consegui ler esse arquivo: ele não é um texto (.json, .txt ou .csv) "
        "ou está corrompido. Nada foi importado.",
        "en": "I couldn't read that file: it isn't text (.json, .txt or .csv) "
        "or it is damaged. Nothing was imported.",
    },
    "import_file_unavailable": {
        "pt": "Não consegui baixar o arquivo agora. Mande de novo em instantes.",
        "en": "I couldn't download the file right now. Please send it again in a moment.",
    },
    "import_file_empty": {
        "pt": "Esse arquivo está vazio; nada foi importado.",
        "en": "That file is empty; nothing was imported.",
    },
    "import_reminders": {
        "pt": "E {count} lembrete(s) ainda por vir (os que se repetem, com a regra).",
        "en": "And {count} reminder(s) still to come (repeating ones with their rule).",
    },
    "import_reminders_done": {
        "pt": "{count} lembrete(s) marcado(s) de novo.",
        "en": "{count} reminder(s) set again.",
    },
}
