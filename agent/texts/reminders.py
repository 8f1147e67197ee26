"""Reminders (DESIGN 9.3)."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "reminder_set": {
        "pt": "Vou te lembrar {when}: {what}",
        "en": "I will remind you {when}: {what}",
    },
    "reminder_when_today": {"pt": "às {time}", "en": "at {time}"},
    # the confirmation names the day it chose (issue 36): "hoje às 15:30", "em 09/01 às 18:00 (sexta)"
    "reminder_confirm_today": {"pt": "hoje às {time}", "en": "today at {time}"},
    "reminder_confirm_day": {"pt": "{when} ({day})", "en": "{when} ({day})"},
    "reminder_tomorrow": {"pt": "amanhã", "en": "tomorrow"},
    "reminder_weekday_0": {"pt": "segunda", "en": "Monday"},
    "reminder_weekday_1": {"pt": "terça", "en": "Tuesday"},
    "reminder_weekday_2": {"pt": "quarta", "en": "Wednesday"},
    "reminder_weekday_3": {"pt": "quinta", "en": "Thursday"},
    "reminder_weekday_4": {"pt": "sexta", "en": "Friday"},
    "reminder_weekday_5": {"pt": "sábado", "en": "Saturday"},
    "reminder_weekday_6": {"pt": "domingo", "en": "Sunday"},
    "reminder_default_time": {
        "pt": "Você não disse a hora: marquei às 09:00.",
        "en": "You gave no time, so I set it for 09:00.",
    },
    "reminder_zone_converted": {
        "pt": "Horário dado em {zone}, convertido para o seu fuso ({tz}).",
        "en": "Time given in {zone}, converted to your time zone ({tz}).",
    },
    "reminder_ask_period": {"pt": "Em que dia?", "en": "Which day?"},
    "reminder_ask_vague": {"pt": "Para quando, exatamente?", "en": "When exactly?"},
    "reminder_ask_holiday": {
        "pt": "A data desse feriado muda conforme o país. Qual destas?",
        "en": "That holiday's date depends on the country. Which of these?",
    },
    "reminder_ask_invalid_date": {
        "pt": "Essa data não existe. Qual destas?",
        "en": "That date does not exist. Which of these?",
    },
    "reminder_ask_passed_today": {
        "pt": "Esse horário de hoje já passou. Para quando, então?",
        "en": "That time today has passed. When, then?",
    },
    "reminder_ask_weekday_mismatch": {
        "pt": "A data e o dia da semana não batem. Qual dos dois?",
        "en": "The date and the weekday do not match. Which one?",
    },
    "reminder_ask_no_time": {"pt": "Para quando?", "en": "For when?"},
    "reminder_ask_or_note": {
        "pt": "Quer um lembrete disso ou só guardar como nota?",
        "en": "Do you want a reminder for this, or just keep it as a note?",
    },
    "reminder_ask_what": {"pt": "Lembrete: {what}", "en": "Reminder: {what}"},
    "reminder_ask_other": {
        "pt": "Ou escreva outro dia e horário.",
        "en": "Or write another day and time.",
    },
    "reminder_when_day": {"pt": "em {date} às {time}", "en": "on {date} at {time}"},
    "reminder_held_note": {
        "pt": "No WhatsApp eu só posso escrever até 24 h depois da sua última mensagem: se passar disso, o lembrete aparece junto da sua próxima mensagem.",
        "en": "On WhatsApp I can only write within 24 h of your last message: past that, the reminder shows with your next message.",
    },
    "reminder_past": {
        "pt": "Esse horário ({when}) já passou. Diga um horário futuro, por exemplo: me lembra amanhã às 9h de ligar pro médico.",
        "en": "That time ({when}) has passed. Give a future time, for example: remind me tomorrow at 9am to call the doctor.",
    },
    "reminder_shift_way": {
        "pt": "Mais tarde ou mais cedo? «{what}» está {when}.\nDiga «{amount} mais tarde» ({later}) ou «{amount} mais cedo» ({earlier}).",
        "en": "Later or earlier? “{what}” is {when}.\nSay «{amount} later» ({later}) or «{amount} earlier» ({earlier}).",
    },
    "reminder_shift_later": {"pt": "Mais tarde: {when}", "en": "Later: {when}"},
    "reminder_shift_earlier": {"pt": "Mais cedo: {when}", "en": "Earlier: {when}"},
    "reminder_shift_rule_kept": {
        "pt": "Não mudei nada: «{what}» se repete ({rule}) e a nova hora ({when}) cai em outro dia. Qual o novo dia e horário?",
        "en": "I changed nothing: “{what}” repeats ({rule}) and the new time ({when}) falls on another day. What new day and time?",
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
        "pt": "Isto apagará sua conta e todos os seus dados: {items} e {messages}. O registro de auditoria (sem conteúdo) fica. Confirma? (sim/não)",
        "en": "This deletes your account and all your data: {items} and {messages}. The audit log (no content) stays. Confirm? (yes/no)",
    },
    "forgotten": {
        "pt": "Pronto: sua conta e seus dados foram apagados.",
        "en": "Done: your account and data were deleted.",
    },
    "kept_account": {"pt": "Ok, nada foi apagado.", "en": "OK, nothing was deleted."},
}
