"""Undo (DESIGN 9.4)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
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
    "undo_unedited": {
        "pt": "Desfeito: {label} voltou a ser como era.",
        "en": "Undone: {label} is back as it was.",
    },
    "undo_kept": {"pt": "Ok, nada foi restaurado.", "en": "OK, nothing was restored."},
    "undo_and_more": {"pt": "{label} e mais {count}", "en": "{label} and {count} more"},
    "undo_reminder_set": {
        "pt": "Desfeito: o lembrete «{label}» foi cancelado.",
        "en": "Undone: the reminder “{label}” is cancelled.",
    },
    "undo_reminder_cancelled": {
        "pt": "Desfeito: o lembrete «{label}» está de volta.",
        "en": "Undone: the reminder “{label}” is back.",
    },
    "undo_reminder_changed": {
        "pt": "Desfeito: o lembrete «{label}» voltou a ser como era.",
        "en": "Undone: the reminder “{label}” is back as it was.",
    },
    "undo_memory": {
        "pt": "Desfeito: esqueci «{label}».",
        "en": "Undone: I forgot “{label}”.",
    },
    "redo_done": {"pt": "Refeito: {label}.", "en": "Redone: {label}."},
    "redo_nothing": {
        "pt": "Não há nada para refazer: nenhum «desfaz» recente.",
        "en": "There is nothing to redo: no recent undo.",
    },
    "undo_cancelled_question": {
        "pt": "Ok, cancelei a pergunta. Nada mais foi desfeito.",
        "en": "OK, I cancelled the question. Nothing else was undone.",
    },
    "undo_question_dropped": {
        "pt": "Ok, cancelei a pergunta.",
        "en": "OK, I cancelled the question.",
    },
    "undo_kept_item_short": {
        "pt": "Ok, não apago {label}.",
        "en": "OK, I won't delete {label}.",
    },
    "undo_named_nothing": {
        "pt": "Não achei isso entre o que você fez nas últimas 24 horas: nada foi desfeito.",
        "en": "I found nothing like that among what you did in the last 24 hours: nothing was undone.",
    },
    "undo_reminder_back_to": {
        "pt": "Desfeito: o lembrete «{label}» voltou a ser como era: {when}.",
        "en": "Undone: the reminder “{label}” is back as it was: {when}.",
    },
    "undo_kept_item": {
        "pt": "Ok, não apago {label}: fica na sua lista. Nada mais foi desfeito.",
        "en": "OK, I won't delete {label}: it stays on your list. Nothing else was undone.",
    },
}
