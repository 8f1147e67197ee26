"""Repeating reminders (DESIGN 11.4): the rule in words, cancelling one or all, changes."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "rule_daily": {"pt": "todo dia", "en": "every day"},
    "rule_days": {"pt": "a cada {n} dias", "en": "every {n} days"},
    "rule_hourly": {"pt": "de hora em hora", "en": "every hour"},
    "rule_hours": {"pt": "a cada {n} horas", "en": "every {n} hours"},
    "rule_weekdays": {"pt": "todo dia útil", "en": "every weekday"},
    "rule_weekends": {"pt": "todo fim de semana", "en": "every weekend"},
    "rule_weekly_on": {"pt": "{every} {days}", "en": "{every} {days}"},
    "rule_weeks_on": {"pt": "a cada {n} semanas, {days}", "en": "every {n} weeks on {days}"},
    "rule_every_f": {"pt": "toda", "en": "every"},
    "rule_every_m": {"pt": "todo", "en": "every"},
    "rule_and": {"pt": "e", "en": "and"},
    "rule_monthday": {"pt": "todo dia {day}", "en": "every month on day {day}"},
    "rule_months_day": {"pt": "a cada {n} meses, dia {day}", "en": "every {n} months on day {day}"},
    "rule_last_day": {"pt": "todo último dia do mês", "en": "on the last day of every month"},
    "rule_nth": {"pt": "{every} {nth} {day} do mês", "en": "{every} {nth} {day} of the month"},
    "rule_yearly": {"pt": "todo ano em {date}", "en": "every year on {date}"},
    "rule_at": {"pt": "às {time}", "en": "at {time}"},
    "rule_count": {"pt": "{n} vezes", "en": "{n} times"},
    "rule_until": {"pt": "até {date}", "en": "until {date}"},
    "rule_nth_1": {"pt": "primeira|primeiro", "en": "first"},
    "rule_nth_2": {"pt": "segunda|segundo", "en": "second"},
    "rule_nth_3": {"pt": "terceira|terceiro", "en": "third"},
    "rule_nth_4": {"pt": "quarta|quarto", "en": "fourth"},
    "rule_nth_5": {"pt": "quinta|quinto", "en": "fifth"},
    "rule_nth_-1": {"pt": "última|último", "en": "last"},
    "rule_nth_-2": {"pt": "penúltima|penúltimo", "en": "second to last"},
    "reminder_set_repeating": {
        "pt": "Vou te lembrar {rule}: {what}\nPróximo: {next}",
        "en": "I will remind you {rule}: {what}\nNext: {next}",
    },
    "reminder_label_repeating": {
        "pt": "{rule} · {what} (próximo: {next})",
        "en": "{rule} · {what} (next: {next})",
    },
    "reminder_cancel_scope": {
        "pt": "«{what}» se repete ({rule}). Cancelar só o próximo ({next}) ou todos?",
        "en": "“{what}” repeats ({rule}). Cancel only the next one ({next}) or all of them?",
    },
    "reminder_scope_next": {"pt": "Só o próximo", "en": "Only the next"},
    "reminder_scope_all": {"pt": "Todos", "en": "All of them"},
    "reminder_skipped": {
        "pt": "Pulei o próximo de «{what}». O seguinte: {next}.",
        "en": "Skipped the next “{what}”. The one after: {next}.",
    },
    "reminder_changed": {
        "pt": "Lembrete mudado: {label}",
        "en": "Reminder changed: {label}",
    },
    "reminder_ask_partial": {
        "pt": "Não li o horário inteiro. Qual destes?",
        "en": "I could not read the whole time. Which of these?",
    },
    "reminder_ask_repeat_start": {"pt": "Começando em que dia?", "en": "Starting which day?"},
    "reminders_header_period": {
        "pt": "Lembretes {period} ({count}):",
        "en": "Reminders {period} ({count}):",
    },
    "reminders_none_period": {
        "pt": "Você não tem lembretes {period}.",
        "en": "You have no reminders {period}.",
    },
    "reminder_period_today": {"pt": "para hoje", "en": "for today"},
    "reminder_period_tomorrow": {"pt": "para amanhã", "en": "for tomorrow"},
    "reminder_period_this_week": {"pt": "para esta semana", "en": "for this week"},
    "reminder_period_next_week": {"pt": "para a semana que vem", "en": "for next week"},
    "reminder_period_next_days": {"pt": "para os próximos dias", "en": "for the next days"},
    "reminder_period_monday": {"pt": "para segunda", "en": "for Monday"},
    "reminder_period_tuesday": {"pt": "para terça", "en": "for Tuesday"},
    "reminder_period_wednesday": {"pt": "para quarta", "en": "for Wednesday"},
    "reminder_period_thursday": {"pt": "para quinta", "en": "for Thursday"},
    "reminder_period_friday": {"pt": "para sexta", "en": "for Friday"},
    "reminder_period_saturday": {"pt": "para sábado", "en": "for Saturday"},
    "reminder_period_sunday": {"pt": "para domingo", "en": "for Sunday"},
}
