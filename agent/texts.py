"""Every fixed, localized text Lembra says (Portuguese default, English).

Replies are built from these templates by the runtime; the model's own `message`
is the only free text a user ever sees. No emojis except the fixed status marks
(`OK_MARK`, `WARN_MARK`, `FAIL_MARK`).
"""

from __future__ import annotations

from typing import Any

from agent.types import Language

OK_MARK = "✅"
WARN_MARK = "⚠️"
FAIL_MARK = "❌"

_TEXTS: dict[str, dict[Language, str]] = {
    # Channels and protection
    "rate_limited": {
        "pt": "Você está mandando mensagens rápido demais. Vou ignorar as próximas por um minuto.",
        "en": "You are sending messages too fast. I will ignore the next ones for a minute.",
    },
    "unsupported_media": {
        "pt": "Por enquanto eu só entendo mensagens de texto.",
        "en": "For now I only understand text messages.",
    },
    "try_again_later": {
        "pt": "Não consegui processar agora. Tente de novo em instantes.",
        "en": "I could not process that right now. Please try again in a moment.",
    },
    # Bad input
    "empty_message": {
        "pt": "Mensagem vazia. Diga o que devo salvar, procurar ou apagar; «ajuda» mostra os comandos.",
        "en": "Empty message. Tell me what to save, find or delete; «help» shows the commands.",
    },
    "too_long": {
        "pt": "Mensagem longa demais ({length} caracteres; o limite é {limit}). Nada foi salvo: envie um texto menor.",
        "en": "Message too long ({length} characters; the limit is {limit}). Nothing was saved: send a shorter text.",
    },
    # Help and greeting
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
    # Stray confirmations and choices
    "confirm_needs_plain_yes": {
        "pt": "Nada foi feito ainda. Para confirmar, responda «sim» (sem interrogação); «não» cancela.",
        "en": "Nothing was done yet. To confirm, answer «yes» (without a question mark); «no» cancels.",
    },
    "nothing_to_confirm": {
        "pt": "Não há nada pendente para confirmar.",
        "en": "There is nothing pending to confirm.",
    },
    "nothing_to_choose": {
        "pt": "Não há nenhuma escolha pendente.",
        "en": "There is no pending choice.",
    },
    "cancelled": {"pt": "Cancelado.", "en": "Cancelled."},
    "nothing_to_cancel": {"pt": "Não há nada para cancelar.", "en": "There is nothing to cancel."},
    "pending_dropped": {
        "pt": "(A pergunta pendente foi descartada.)",
        "en": "(The pending question was dropped.)",
    },
    "stale_button": {
        "pt": "Esse botão é de uma pergunta que já não vale. Nada foi feito.",
        "en": "That button belongs to a question that is no longer open. Nothing was done.",
    },
    "choice_out_of_range": {
        "pt": "Escolha um número de 1 a {count}, ou «cancela».",
        "en": "Pick a number from 1 to {count}, or «cancel».",
    },
    "year_ambiguous": {
        "pt": "Mais de uma opção é de {year}; escolha pelo número.",
        "en": "More than one option is from {year}; pick by number.",
    },
    "confirm_yes": {"pt": "Sim", "en": "Yes"},
    "confirm_no": {"pt": "Não", "en": "No"},
    # Listing
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
    # Delete all
    "delete_all_nothing": {
        "pt": "Você não tem nada salvo para apagar.",
        "en": "You have nothing saved to delete.",
    },
    "delete_all_preview": {
        "pt": "Isto apagará {count} {items} ({breakdown}), por exemplo: {examples}.\nConfirma? (sim/não, expira em 2 minutos)",
        "en": "This will delete {count} {items} ({breakdown}), for example: {examples}.\nConfirm? (yes/no, expires in 2 minutes)",
    },
    "delete_all_done": {"pt": "Apaguei {count} {items}.", "en": "Deleted {count} {items}."},
    "delete_all_kept_newer": {
        "pt": "Mantive o que foi salvo depois da prévia ({count}).",
        "en": "I kept what was saved after the preview ({count}).",
    },
    "kept_everything": {"pt": "Ok, nada foi apagado.", "en": "OK, nothing was deleted."},
    "confirmation_expired": {
        "pt": "A confirmação expirou; nada foi apagado.",
        "en": "The confirmation expired; nothing was deleted.",
    },
    # Saving
    "saved": {"pt": "Salvo: {label}.", "en": "Saved: {label}."},
    "already_saved": {"pt": "Já estava salvo: {label}.", "en": "Already saved: {label}."},
    "choose_candidate": {
        "pt": "Encontrei {count} opções para «{query}». Qual?",
        "en": "I found {count} matches for «{query}». Which one?",
    },
    "candidates_shown": {"pt": "Encontrei para «{query}»:", "en": "Matches for «{query}»:"},
    "no_candidates": {
        "pt": "Não encontrei «{query}» no TMDB.",
        "en": "I did not find «{query}» on TMDB.",
    },
    "tmdb_lookup_failed": {
        "pt": "Não consegui consultar o TMDB sobre «{query}» agora. Tente de novo em instantes.",
        "en": "I could not reach TMDB about «{query}» right now. Please try again shortly.",
    },
    "page_info": {"pt": "{url}\n{details}", "en": "{url}\n{details}"},
    # Search
    "search_none": {"pt": "Nada encontrado para «{query}».", "en": "Nothing found for «{query}»."},
    "search_none_all": {"pt": "Nada encontrado.", "en": "Nothing found."},
    "search_found": {"pt": "Encontrei {count}:", "en": "Found {count}:"},
    # Delete one
    "delete_preview": {
        "pt": "Apagar {label}? (sim/não, expira em 2 minutos)",
        "en": "Delete {label}? (yes/no, expires in 2 minutes)",
    },
    "delete_choose": {"pt": "Qual devo apagar?", "en": "Which one should I delete?"},
    "deleted": {"pt": "Apagado: {label}.", "en": "Deleted: {label}."},
    "delete_not_found": {
        "pt": "Não encontrei «{query}» entre os seus itens.",
        "en": "I did not find «{query}» among your items.",
    },
    "already_gone": {"pt": "Esse item já não existe.", "en": "That item no longer exists."},
    # Failures
    "unknown_item": {
        "pt": "Não encontrei esse item entre os seus. Nada foi alterado.",
        "en": "That item is not one of yours. Nothing was changed.",
    },
    "pipeline_violation": {
        "pt": "Não posso fazer isso por este caminho. Nada foi alterado.",
        "en": "I cannot do that this way. Nothing was changed.",
    },
    "planner_failed": {
        "pt": "Não consegui entender o pedido com segurança. Nada foi alterado; tente reformular.",
        "en": "I could not understand the request safely. Nothing was changed; try rephrasing.",
    },
    "model_timeout": {
        "pt": "O assistente demorou demais para responder. Nada foi feito; tente de novo.",
        "en": "The assistant took too long to answer. Nothing was done; please try again.",
    },
    "model_unavailable": {
        "pt": "O assistente está indisponível agora. Nada foi feito; tente de novo em instantes.",
        "en": "The assistant is unavailable right now. Nothing was done; please try again shortly.",
    },
    "noop": {
        "pt": "Não há nada a fazer com essa mensagem.",
        "en": "There is nothing to do with that message.",
    },
    "write_blocked": {
        "pt": "Não salvei nada: a confiança nesta resposta ficou baixa demais ({state}).",
        "en": "I saved nothing: confidence in this answer was too low ({state}).",
    },
    "invalid_url": {"pt": "Endereço inválido: {reason}.", "en": "Invalid address: {reason}."},
    "link_refused": {
        "pt": "Não vou abrir esse endereço: {reason}.",
        "en": "I will not open that address: {reason}.",
    },
    "url_reason_credentials": {
        "pt": "links com usuário ou senha não são aceitos",
        "en": "links with a user name or password are not accepted",
    },
    "url_reason_scheme": {
        "pt": "só aceito links http e https",
        "en": "only http and https links are accepted",
    },
    "url_reason_too_long": {"pt": "o link é longo demais", "en": "the link is too long"},
    "url_reason_private": {
        "pt": "ele aponta para um endereço que não é público",
        "en": "it points to an address that is not public",
    },
    "url_reason_redirects": {
        "pt": "ele redireciona vezes demais",
        "en": "it redirects too many times",
    },
    "url_reason_invalid": {
        "pt": "não parece um endereço da web",
        "en": "it does not look like a web address",
    },
    "link_unavailable": {
        "pt": "Não consegui abrir a página agora.",
        "en": "I could not open the page right now.",
    },
    "tool_failed": {"pt": "Não foi possível: {reason}", "en": "That did not work: {reason}"},
    "quota_exceeded": {
        "pt": "Você atingiu o limite diário de uso do assistente. Comandos como «lista» continuam funcionando; o limite renova à meia-noite.",
        "en": "You reached today's assistant usage limit. Commands like «list» still work; the limit resets at midnight.",
    },
    "quota_exceeded_global": {
        "pt": "O assistente atingiu o limite diário de uso. Comandos como «lista» continuam funcionando.",
        "en": "The assistant reached its daily usage limit. Commands like «list» still work.",
    },
    # Caveats (one short line each)
    "caveat_tmdb_unavailable": {
        "pt": "TMDB indisponível agora: salvo sem detalhes.",
        "en": "TMDB unavailable right now: saved without details.",
    },
    "caveat_tmdb_unavailable_read": {
        "pt": "TMDB indisponível agora: não consegui buscar detalhes.",
        "en": "TMDB unavailable right now: could not fetch details.",
    },
    "caveat_tmdb_no_match": {
        "pt": "Não encontrado no TMDB: salvo como escrito.",
        "en": "Not found on TMDB: saved as written.",
    },
    "caveat_link_unavailable": {
        "pt": "Página indisponível: salvo sem título.",
        "en": "Page unavailable: saved without a title.",
    },
    "caveat_planner_retry": {
        "pt": "Precisei de mais de uma tentativa para entender o pedido.",
        "en": "It took more than one attempt to understand the request.",
    },
    "caveat_coerced": {
        "pt": "Ajustei o formato de um dado ({detail}).",
        "en": "I adjusted the format of a value ({detail}).",
    },
    "caveat_implicit_match": {
        "pt": "Escolhi o item mais parecido com «{query}».",
        "en": "I picked the item closest to «{query}».",
    },
    # Commands
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
    "why": {
        "pt": "Última resposta: estado {state}, confiança {score}/100.\nRegras: {rules}\nRessalvas: {caveats}\nFerramentas: {tools}\nChamadas ao modelo: {llm_calls}",
        "en": "Last answer: state {state}, confidence {score}/100.\nRules: {rules}\nCaveats: {caveats}\nTools: {tools}\nModel calls: {llm_calls}",
    },
    "none": {"pt": "nenhuma", "en": "none"},
    "lang_set": {"pt": "Idioma: português.", "en": "Language: English."},
    "lang_usage": {"pt": "Use /lang pt ou /lang en.", "en": "Use /lang pt or /lang en."},
    "search_usage": {"pt": "Use /search <texto>.", "en": "Use /search <text>."},
    "session_ended": {"pt": "Sessão encerrada.", "en": "Session ended."},
    "export_ready": {
        "pt": "Seus dados: {items} itens, {messages} mensagens (arquivo JSON anexo).",
        "en": "Your data: {items} items, {messages} messages (JSON file attached).",
    },
    "item_updated": {"pt": "Atualizado: {label}", "en": "Updated: {label}"},
    # Undo (DESIGN 9.4)
    "undo_nothing": {
        "pt": "Não há nada para desfazer nas últimas 24 horas.",
        "en": "There is nothing to undo from the last 24 hours.",
    },
    "undo_unsaved": {
        "pt": "Desfeito: {label} não está mais salvo.",
        "en": "Undone: {label} is no longer saved.",
    },
    "undo_restored": {"pt": "Desfeito: {label} está de volta.", "en": "Undone: {label} is back."},
    "undo_all_preview": {
        "pt": "Desfazer o «apaga tudo» traz de volta {count} {items}. Confirma? (sim/não)",
        "en": "Undoing “delete everything” brings back {count} {items}. Confirm? (yes/no)",
    },
    "undo_all_done": {
        "pt": "Desfeito: {count} {items} de volta.",
        "en": "Undone: {count} {items} back.",
    },
    "undo_gone": {
        "pt": "Não dá mais para desfazer isso: o item já não existe.",
        "en": "That can no longer be undone: the item is gone.",
    },
    "undo_kept": {"pt": "Ok, nada foi restaurado.", "en": "OK, nothing was restored."},
    # Reminders (DESIGN 9.3)
    "reminder_set": {
        "pt": "Vou te lembrar {when}: {what}",
        "en": "I will remind you {when}: {what}",
    },
    "reminder_when_today": {"pt": "às {time}", "en": "at {time}"},
    "reminder_when_day": {"pt": "em {date} às {time}", "en": "on {date} at {time}"},
    "reminder_held_note": {
        "pt": "No WhatsApp eu só posso escrever até 24 h depois da sua última mensagem: se passar disso, o lembrete aparece junto da sua próxima mensagem.",
        "en": "On WhatsApp I can only write within 24 h of your last message: past that, the reminder shows with your next message.",
    },
    "reminder_past": {
        "pt": "Esse horário ({when}) já passou. Diga um horário futuro, por exemplo: me lembra amanhã às 9h de ligar pro médico.",
        "en": "That time ({when}) has passed. Give a future time, for example: remind me tomorrow at 9am to call the doctor.",
    },
    "reminder_due": {"pt": "Lembrete: {what}", "en": "Reminder: {what}"},
    "reminder_due_late": {
        "pt": "Lembrete (era para {when}): {what}",
        "en": "Reminder (it was due {when}): {what}",
    },
    "reminder_no_text": {"pt": "(sem descrição)", "en": "(no description)"},
    "reminder_snooze_10m": {"pt": "+10 min", "en": "+10 min"},
    "reminder_snooze_1h": {"pt": "+1 h", "en": "+1 h"},
    "reminder_snooze_tomorrow": {"pt": "Amanhã 9h", "en": "Tomorrow 9am"},
    "reminder_snoozed": {
        "pt": "Adiado: vou te lembrar {when}: {what}",
        "en": "Snoozed: I will remind you {when}: {what}",
    },
    "reminder_snooze_stale": {
        "pt": "Esse lembrete já foi adiado ou cancelado.",
        "en": "That reminder was already snoozed or cancelled.",
    },
    "reminders_none": {
        "pt": "Você não tem lembretes marcados.",
        "en": "You have no open reminders.",
    },
    "reminders_header": {"pt": "Lembretes ({count}):", "en": "Reminders ({count}):"},
    "reminder_cancelled": {
        "pt": "Lembrete cancelado: {label}",
        "en": "Reminder cancelled: {label}",
    },
    "reminder_cancel_which": {
        "pt": "Qual lembrete? Diga, por exemplo, «cancela o lembrete 1».",
        "en": "Which reminder? Say, for example, “cancel reminder 1”.",
    },
    "reminder_not_found": {
        "pt": "Não achei esse lembrete.",
        "en": "I could not find that reminder.",
    },
    "tz_set": {
        "pt": "Fuso horário: {zone} (agora são {time}).",
        "en": "Time zone: {zone} (it is {time} now).",
    },
    "tz_usage": {
        "pt": "Use /tz Area/Cidade, por exemplo /tz America/Sao_Paulo. Agora: {zone}.",
        "en": "Use /tz Area/City, for example /tz Europe/Lisbon. Now: {zone}.",
    },
    "forget_preview": {
        "pt": "Isto apagará sua conta e todos os seus dados: {items} itens e {messages} mensagens. O registro de auditoria (sem conteúdo) fica. Confirma? (sim/não)",
        "en": "This deletes your account and all your data: {items} items and {messages} messages. The audit log (no content) stays. Confirm? (yes/no)",
    },
    "forgotten": {
        "pt": "Pronto: sua conta e seus dados foram apagados.",
        "en": "Done: your account and data were deleted.",
    },
    "kept_account": {"pt": "Ok, nada foi apagado.", "en": "OK, nothing was deleted."},
    # WhatsApp interactive messages (bot/whatsapp.py): a body of at most 1,024 characters,
    # a list button label of at most 20.
    "choose_option": {
        "pt": "Escolha uma opção:",
        "en": "Choose an option:",
    },
    "choices_button": {
        "pt": "Opções",
        "en": "Options",
    },
    "why_blocks": {
        "pt": "Bloqueios: {blocks}",
        "en": "Blocks: {blocks}",
    },
    # Export formats and import
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
    "import_nothing_valid": {
        "pt": "Não encontrei nenhum item para importar.",
        "en": "I found nothing to import.",
    },
    "import_nothing_new": {
        "pt": "Você já tem todos esses {known} itens; nada a importar.",
        "en": "You already have all {known} of those items; nothing to import.",
    },
    "import_preview": {
        "pt": "Importar {count} {items}?",
        "en": "Import {count} {items}?",
    },
    "import_known": {
        "pt": "{known} já estão salvos e ficam como estão.",
        "en": "{known} are already saved and stay as they are.",
    },
    "import_invalid": {
        "pt": "{invalid} registros não são itens válidos e ficam de fora.",
        "en": "{invalid} records are not valid items and are left out.",
    },
    "import_done": {"pt": "Importei {count} {items}.", "en": "Imported {count} {items}."},
    "import_cancelled": {"pt": "Ok, nada foi importado.", "en": "OK, nothing was imported."},
    "why_receipts": {
        "pt": "Recibos (hash no registro): {receipts}",
        "en": "Receipts (ledger hash): {receipts}",
    },
    # Model memory (issue 12): /memory, remember, bookmark
    "memory_noted": {"pt": "Anotado sobre você: {label}", "en": "Noted about you: {label}"},
    "memory_noted_again": {"pt": "Já estava anotado: {label}", "en": "Already noted: {label}"},
    "memory_bookmarked": {"pt": "Marcado: {label}", "en": "Bookmarked: {label}"},
    "memory_bookmarked_again": {
        "pt": "Já estava marcado: {label}",
        "en": "Already bookmarked: {label}",
    },
    "memory_dropped_oldest": {
        "pt": "(Limite de 10 marcadores: saiu o mais antigo, {label}.)",
        "en": "(Limit of 10 bookmarks: the oldest one, {label}, was dropped.)",
    },
    "memory_bookmarks_full": {
        "pt": "Seus 10 marcadores estão fixados; apague um com /memory apaga N.",
        "en": "All 10 of your bookmarks are pinned; delete one with /memory delete N.",
    },
    "memory_empty": {
        "pt": "Não guardei nenhuma nota nem marcador sobre você.",
        "en": "I keep no notes or bookmarks about you.",
    },
    "memory_facts": {"pt": "O que anotei sobre você:", "en": "What I noted about you:"},
    "memory_bookmarks": {"pt": "Marcadores:", "en": "Bookmarks:"},
    "memory_bookmark_line": {"pt": "{target} — {note}{pinned}", "en": "{target} — {note}{pinned}"},
    "memory_pinned": {"pt": " (fixo)", "en": " (pinned)"},
    "memory_hint": {
        "pt": "Para apagar: /memory apaga N, ou /memory apaga tudo.",
        "en": "To delete: /memory delete N, or /memory delete all.",
    },
    "memory_usage": {
        "pt": "Use /memory para ver, /memory apaga N para apagar uma, /memory apaga tudo para apagar todas.",
        "en": "Use /memory to list, /memory delete N to delete one, /memory delete all to delete them all.",
    },
    "memory_no_number": {
        "pt": "Não há a nota {number}: há {count}. Veja /memory.",
        "en": "There is no note {number}: there are {count}. See /memory.",
    },
    "memory_deleted": {"pt": "Apagado da memória: {line}", "en": "Deleted from memory: {line}"},
    "memory_clear_preview": {
        "pt": "Isto apaga o que guardei sobre você, notas e marcadores ({count} no total); seus itens ficam. Confirma? (sim/não)",
        "en": "This deletes what I keep about you, notes and bookmarks ({count} in all); your items stay. Confirm? (yes/no)",
    },
    "memory_cleared": {
        "pt": "Memória apagada: notas e marcadores ({count} no total); seus itens ficaram.",
        "en": "Memory deleted: notes and bookmarks ({count} in all); your items stay.",
    },
}

TYPE_NAMES: dict[Language, dict[str, tuple[str, str]]] = {
    # (plural heading, word used in «lista ...»)
    "pt": {
        "movie": ("Filmes", "filmes"),
        "tv_show": ("Séries", "séries"),
        "video": ("Vídeos", "vídeos"),
        "link": ("Links", "links"),
        "note": ("Notas", "notas"),
    },
    "en": {
        "movie": ("Movies", "movies"),
        "tv_show": ("TV shows", "shows"),
        "video": ("Videos", "videos"),
        "link": ("Links", "links"),
        "note": ("Notes", "notes"),
    },
}


def text(key: str, language: Language, **values: Any) -> str:
    """The template `key` in `language`, formatted with `values`."""
    template = _TEXTS[key][language]
    return template.format(**values) if values else template


def items_word(count: int, language: Language) -> str:
    """ "item"/"itens" by count (Portuguese), "item"/"items" (English)."""
    if count == 1:
        return "item"
    return "itens" if language == "pt" else "items"


def type_heading(item_type: str, language: Language) -> str:
    return TYPE_NAMES[language][item_type][0]


def type_word(item_type: str, language: Language) -> str:
    return TYPE_NAMES[language][item_type][1]


# Truthful replies (DESIGN 9.2): small talk, the offline planner's offer, named causes.
_TEXTS.update(
    {
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
        "offer_note_button": {"pt": "Guardar como nota", "en": "Keep as a note"},
        "offer_link_button": {"pt": "Guardar o link", "en": "Keep the link"},
        "offer_declined": {
            "pt": "Ok, não guardei nada. Para guardar, diga «anota: ...».",
            "en": "OK, I did not keep anything. To keep something, say «note: ...».",
        },
    }
)
# Caveats that name the cause (DESIGN 9.2): an operator error never says "try again".
_TEXTS.update(
    {
        "caveat_tmdb_not_configured": {
            "pt": "TMDB não configurado — defina TMDB_API_KEY: salvo sem detalhes.",
            "en": "TMDB not configured — set TMDB_API_KEY: saved without details.",
        },
        "caveat_tmdb_not_configured_read": {
            "pt": "TMDB não configurado — defina TMDB_API_KEY: sem detalhes.",
            "en": "TMDB not configured — set TMDB_API_KEY: no details.",
        },
        "tmdb_not_configured_lookup": {
            "pt": "Não consigo consultar o TMDB sobre «{query}»: ele não está configurado (falta TMDB_API_KEY).",
            "en": "I cannot look «{query}» up on TMDB: it is not configured (TMDB_API_KEY is missing).",
        },
        "model_key_rejected": {
            "pt": "O assistente não está configurado corretamente: a chave do modelo foi recusada. Nada foi feito; avise quem administra o Lembra.",
            "en": "The assistant is not configured correctly: the model key was refused. Nothing was done; tell whoever runs Lembra.",
        },
    }
)

# the risk policy and `simulate` (issue 13)
_TEXTS.update(
    {
        "risk_outcome_delete": {
            "pt": "Resultado: {label} sai da sua lista; {reversal}. Risco {score}: {advice}",
            "en": "Outcome: {label} leaves your list; {reversal}. Risk {score}: {advice}",
        },
        "risk_reversible": {
            "pt": "dá para desfazer por 24 horas com «desfaz»",
            "en": "«undo» can reverse it for 24 hours",
        },
        "risk_irreversible": {"pt": "não dá para desfazer", "en": "it cannot be undone"},
        "risk_advice_first": {
            "pt": "é a primeira vez que você apaga algo, por isso peço confirmação.",
            "en": "this is your first deletion, so I ask you to confirm.",
        },
        "risk_advice_confirm": {
            "pt": "recomendo confirmar só se for isso mesmo.",
            "en": "confirm only if this is what you want.",
        },
        "risk_blocked": {
            "pt": "Não vou apagar {label}: o risco ({score}) passa do limite ({limit}). Nada foi apagado; quem administra o Lembra pode mudar o limite.",
            "en": "I will not delete {label}: its risk ({score}) is over the limit ({limit}). Nothing was deleted; whoever runs Lembra can change the limit.",
        },
        "simulated": {
            "pt": "Simulação de {tool}: {count} {items}{examples}; {reversal}. Risco {score}: {decision}.",
            "en": "Simulation of {tool}: {count} {items}{examples}; {reversal}. Risk {score}: {decision}.",
        },
        "risk_decision_run": {"pt": "eu faria sem perguntar", "en": "I would do it without asking"},
        "risk_decision_confirm": {
            "pt": "eu pediria confirmação",
            "en": "I would ask for a confirmation",
        },
        "risk_decision_block": {"pt": "eu recusaria", "en": "I would refuse"},
    }
)
