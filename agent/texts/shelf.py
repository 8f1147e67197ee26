"""The shelf (what the user was just shown), several items at once, and questions answered in code."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    # positions and references to the shelf (DESIGN 10.1)
    "shelf_none": {
        "pt": "Não tenho uma lista recente para saber qual é esse. Envie «lista tudo» ou diga o nome do item.",
        "en": "I have no recent list to tell which one that is. Send «list» or say the item's name.",
    },
    "shelf_out_of_range": {
        "pt": "A lista tinha {items}: não há esse número.",
        "en": "The list had {items}: there is no such number.",
    },
    "shelf_numbers": {
        "pt": "Ela ia do {first} ao {last}.",
        "en": "It went from {first} to {last}.",
    },
    "shelf_which": {"pt": "Qual deles? Diga o número:", "en": "Which one? Say its number:"},
    "shelf_which_none": {
        "pt": "A qual item você se refere? Diga o nome ou peça «lista tudo» e diga o número.",
        "en": "Which item do you mean? Say its name, or send «list» and say its number.",
    },
    "recall_list": {"pt": "Era esta a lista:", "en": "This was the list:"},
    # a question over the list just shown (issue 41): "desses, qual é série?"
    "shown_count": {"pt": "Desses, {what}.", "en": "Of those, {what}."},
    "shown_of_type": {"pt": "Desses, {what}:", "en": "Of those, {what}:"},
    # edits
    "edit_no_year": {
        "pt": "Só filmes e séries têm ano; esse item não tem.",
        "en": "Only movies and shows have a year; that item has none.",
    },
    "edit_year_invalid": {
        "pt": "O ano precisa ter quatro dígitos, como 2021.",
        "en": "The year needs four digits, like 2021.",
    },
    "edit_invalid": {
        "pt": "Não entendi o que mudar: diga o novo texto, título ou ano.",
        "en": "I did not get what to change: say the new text, title or year.",
    },
    "edit_request_words": {
        "pt": "Não entendi o que mudar: diga o novo texto, título ou ano.",
        "en": "I did not get what to change: say the new text, title or year.",
    },
    "edit_other_type": {
        "pt": "Não encontrei esse item entre os seus: diga o nome dele como está na lista.",
        "en": "I did not find that item among yours: say its name as it is on your list.",
    },
    "failure_reason_empty_note": {"pt": "a nota está vazia.", "en": "the note is empty."},
    "failure_reason_not_found": {
        "pt": "não encontrei esse item entre os seus.",
        "en": "I did not find that item among yours.",
    },
    "failure_reason_other": {
        "pt": "algo deu errado deste lado. Tente de novo com outras palavras.",
        "en": "something went wrong on my side. Try again in other words.",
    },
    # several items in one message
    "batch_saved": {"pt": "Salvei {items}:", "en": "Saved {items}:"},
    "batch_nothing_new": {"pt": "Nada novo para salvar:", "en": "Nothing new to save:"},
    "batch_already": {"pt": "(já estava salvo)", "en": "(already saved)"},
    "batch_not_saved": {"pt": "Não salvei ({count}):", "en": "Not saved ({count}):"},
    "caveat_batch_missed": {
        "pt": "Itens não salvos: {count}.",
        "en": "Items not saved: {count}.",
    },
    "batch_cut": {
        "pt": "Só leio {limit} itens por mensagem: {left} ficaram de fora; envie-os em outra mensagem.",
        "en": "I take {limit} items per message: {left} were left out; send them in another message.",
    },
    "caveat_batch_cut": {
        "pt": "{left} itens ficaram de fora (limite por mensagem).",
        "en": "{left} items were left out (per-message limit).",
    },
    "batch_reason_several": {
        "pt": "encontrei {count} opções; envie só esse título para escolher.",
        "en": "I found {count} matches; send that title alone to pick one.",
    },
    "batch_reason_lookup_failed": {
        "pt": "não consegui consultar o catálogo agora.",
        "en": "I could not look it up just now.",
    },
    "batch_reason_blocked": {
        "pt": "a confiança ficou baixa demais para salvar.",
        "en": "confidence was too low to save it.",
    },
    "batch_reason_empty": {"pt": "está vazio.", "en": "it is empty."},
    "batch_reason_failed": {"pt": "não foi possível salvar.", "en": "it could not be saved."},
    # questions about saved things
    "find_none": {
        "pt": "Não encontrei nada sobre «{query}» entre os seus itens.",
        "en": "I found nothing about «{query}» among your items.",
    },
    "exists_no": {
        "pt": "Não, não encontrei «{query}» entre os seus itens.",
        "en": "No, I did not find «{query}» among your items.",
    },
    "exists_yes": {"pt": "Sim, está salvo:", "en": "Yes, you saved it:"},
    "count_have": {"pt": "Você tem {what}.", "en": "You have {what}."},
    "count_about": {
        "pt": "Você tem {what} sobre «{query}».",
        "en": "You have {what} about «{query}».",
    },
    # list_items by period and state (agent/conversation/listing.py)
    "window_today": {"pt": "hoje", "en": "today"},
    "window_yesterday": {"pt": "ontem", "en": "yesterday"},
    "window_this_week": {"pt": "nesta semana", "en": "this week"},
    "window_last_week": {"pt": "na semana passada", "en": "last week"},
    "window_last_7_days": {"pt": "nos últimos 7 dias", "en": "in the last 7 days"},
    "window_this_month": {"pt": "neste mês", "en": "this month"},
    "when_found": {"pt": "Você salvou {what} {when}:", "en": "You saved {what} {when}:"},
    "when_counted": {"pt": "Você salvou {what} {when}.", "en": "You saved {what} {when}."},
    "when_none": {"pt": "Você não salvou nada {when}.", "en": "You saved nothing {when}."},
    "when_none_type": {
        "pt": "Você não salvou {type_word} {when}.",
        "en": "You saved no {type_word} {when}.",
    },
    "states_to_see": {"pt": "para ver", "en": "to see"},
    "states_seen": {"pt": "já vistos", "en": "already seen"},
    "states_to_read": {"pt": "para ler", "en": "to read"},
    "states_read": {"pt": "já lidos", "en": "already read"},
    "states_open": {"pt": "em aberto", "en": "open"},
    "states_done": {"pt": "concluídos", "en": "done"},
    "state_found": {"pt": "Você tem {what} {state}:", "en": "You have {what} {state}:"},
    "state_counted": {"pt": "Você tem {what} {state}.", "en": "You have {what} {state}."},
    "state_none": {"pt": "Você não tem nada {state}.", "en": "You have nothing {state}."},
    "state_none_type": {
        "pt": "Você não tem {type_word} {state}.",
        "en": "You have no {type_word} {state}.",
    },
}
