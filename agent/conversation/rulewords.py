"""A repeating reminder's rule in words ("toda segunda e quarta às 08:00, até 30/06") and the
rule kept on a stored reminder (DESIGN 11.4). Must not import: agent.conversation.runtime.
"""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from agent.texts import joined, text
from agent.types import Language
from agent.understanding.reminders.repeating import CODES
from agent.understanding.reminders.rules import Rule
from storage.documents import ReminderDoc

_FEMININE = frozenset({0, 1, 2, 3, 4})  # segunda..sexta: "toda"; sábado, domingo: "todo"


def rule_of(reminder: ReminderDoc) -> Rule | None:
    """The stored reminder's rule, or None for a single one."""
    if not reminder.rule:
        return None
    until = datetime.fromtimestamp(reminder.until_ms / 1000, UTC) if reminder.until_ms else None
    return Rule(reminder.rule, reminder.count, until)


def start_of(reminder: ReminderDoc) -> datetime:
    """The first occurrence, aware in the reminder's zone."""
    zone = ZoneInfo(reminder.timezone)
    if reminder.start_local:
        return datetime.fromisoformat(reminder.start_local).replace(tzinfo=zone)
    return datetime.fromtimestamp(reminder.due_at_ms / 1000, zone)


def _day_name(index: int, language: Language) -> str:
    return text(f"reminder_weekday_{index}", language)


def _days(codes: list[str], language: Language) -> tuple[str, bool]:
    """ "segunda e quarta", and whether the first is feminine (PT "toda" / "todo")."""
    indexes = [CODES.index(c[-2:]) for c in codes if c[-2:] in CODES]
    names = [_day_name(i, language) for i in indexes]
    return joined(names, language), bool(indexes) and indexes[0] in _FEMININE


def describe(rule: Rule, start: datetime, language: Language) -> str:  # noqa: C901
    """The rule in words, with its time of day, end and count."""
    parts = rule.parts()
    freq = parts.get("FREQ", "")
    n = int(parts.get("INTERVAL", "1"))
    byday = [d for d in parts.get("BYDAY", "").split(",") if d]
    lang = language
    if freq == "HOURLY":
        words = text("rule_hourly", lang) if n == 1 else text("rule_hours", lang, n=n)
    elif freq == "DAILY":
        words = text("rule_daily", lang) if n == 1 else text("rule_days", lang, n=n)
    elif freq == "WEEKLY":
        codes = byday or [CODES[start.weekday()]]
        if n == 1 and sorted(codes) == sorted(("MO", "TU", "WE", "TH", "FR")):
            words = text("rule_weekdays", lang)
        elif n == 1 and sorted(codes) == ["SA", "SU"]:
            words = text("rule_weekends", lang)
        else:
            days, feminine = _days(codes, lang)
            every = text("rule_every_f" if feminine else "rule_every_m", lang)
            words = (
                text("rule_weekly_on", lang, every=every, days=days)
                if n == 1
                else text("rule_weeks_on", lang, n=n, days=days)
            )
    elif freq == "MONTHLY":
        if byday:  # "1MO" or "2WE,4WE": the nth weekday(s) of the month, one weekday
            index = CODES.index(byday[0][-2:])
            feminine = index in _FEMININE
            ordinals = []
            for code in byday:
                forms = text(f"rule_nth_{int(code[:-2] or '1')}", lang).split("|")
                ordinals.append(forms[0] if feminine or len(forms) == 1 else forms[1])
            ordinal = joined(ordinals, lang)
            every = text("rule_every_f" if feminine else "rule_every_m", lang)
            words = text("rule_nth", lang, every=every, nth=ordinal, day=_day_name(index, lang))
        else:
            day = int(parts.get("BYMONTHDAY", str(start.day)))
            if day == -1:
                words = text("rule_last_day", lang)
            elif n == 1:
                words = text("rule_monthday", lang, day=day)
            else:
                words = text("rule_months_day", lang, n=n, day=day)
    else:
        words = text("rule_yearly", lang, date=_date(start, lang))
    if freq != "HOURLY":
        words += " " + text("rule_at", lang, time=start.strftime("%H:%M"))
    if rule.count is not None:
        words += ", " + text("rule_count", lang, n=rule.count)
    if rule.until is not None:
        until = rule.until.astimezone(start.tzinfo)
        words += ", " + text("rule_until", lang, date=_date(until, lang))
    return words


def _date(at: datetime, language: Language) -> str:
    return at.strftime("%d/%m") if language == "pt" else at.strftime("%b %d").replace(" 0", " ")
