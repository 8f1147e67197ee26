"""Deleting one item or everything."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "delete_all_nothing": {
        "pt": "Você não tem nada salvo para apagar.",
        "en": "You have nothing saved to delete.",
    },
    "delete_all_preview": {
        "pt": "Isto apagará {count} {items} ({breakdown}), por exemplo: {examples}.\nConfirma? (sim/não, expira em {expires})",
        "en": "This will delete {count} {items} ({breakdown}), for example: {examples}.\nConfirm? (yes/no, expires in {expires})",
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
    "delete_preview": {
        "pt": "Apagar {label}? (sim/não, expira em {expires})",
        "en": "Delete {label}? (yes/no, expires in {expires})",
    },
    "delete_choose": {"pt": "Qual devo apagar?", "en": "Which one should I delete?"},
    "deleted": {"pt": "Apagado: {label}.", "en": "Deleted: {label}."},
    "delete_not_found": {
        "pt": "Não encontrei «{query}» entre os seus itens.",
        "en": "I did not find «{query}» among your items.",
    },
    "already_gone": {"pt": "Esse item já não existe.", "en": "That item no longer exists."},
}
