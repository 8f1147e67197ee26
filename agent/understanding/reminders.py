"""Reminder and undo requests read in code (DESIGN 9.3, 9.4): PT and EN, 0 model calls.

A message asks for a reminder only when it starts with a reminder verb ("me lembra",
"remind me", "lembrete", ...) AND names a time; without a time it stays what it was
before (a note to save). Times are relative ("daqui a 10 minutos", "in 20 minutes")
or absolute ("amanhã às 9h", "sexta às 18h", "tomorrow at 9am", "15/03 10:30"), read
in the user's time zone. Matching runs on an accent- and case-folded copy of the
text of the same length, so what is left (the thing to remember) keeps its accents.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

RouteName = Literal["remind", "reminders", "unremind", "undo"]

DEFAULT_HOUR = 9  # "amanhã", "sexta": a day without a time means the morning
PART_OF_DAY = {
    "manha": 9,
    "morning": 9,
    "tarde": 15,
    "afternoon": 15,
    "noite": 20,
    "evening": 20,
    "night": 20,
    "tonight": 20,
    "madrugada": 3,
}
NUMBER_WORDS = {
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5, "seis": 6,
    "sete": 7, "oito": 8, "nove": 9, "dez": 10, "onze": 11, "doze": 12, "quinze": 15,
    "vinte": 20, "trinta": 30, "quarenta": 40, "cinquenta": 50, "a": 1, "an": 1, "one": 1,
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50,
}  # fmt: skip
UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
WEEKDAYS = {
    "segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4, "sabado": 5, "domingo": 6,
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}  # fmt: skip

_NUM = r"(\d{1,4}|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
_UNIT = (
    r"(segundos?|segs?|seconds?|secs?|minutos?|minutes?|mins?|m|horas?|hours?|hrs?|h"
    r"|dias?|days?|d|semanas?|weeks?)"
)
_RELATIVE = re.compile(
    r"\b(?:daqui\s+a|daqui|dentro\s+de|em|in|within|after)\s+"
    r"(?:(meia\s+hora|half\s+an\s+hour|uma\s+hora\s+e\s+meia|an\s+hour\s+and\s+a\s+half)"
    rf"|{_NUM}\s*{_UNIT}(?:\s*(?:e|and)?\s*(\d{{1,2}})\s*(?:minutos?|minutes?|mins?|m)?)?)\b"
)
_WEEKDAY = re.compile(
    r"\b(?:(?:n[ao]|nest[ae]|ness[ae]|(?:n[ao]\s+)?proxim[ao]|on|next|this)\s+)?"
    r"(segunda|terca|quarta|quinta|sexta|sabado|domingo|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday)(?:[\s-]feira)?\b"
)
_DAY_WORD = re.compile(
    r"\b(depois\s+de\s+amanha|(?:the\s+)?day\s+after\s+tomorrow|amanha|tomorrow|hoje|hj|today"
    r"|tonight)\b"
)
_DATE = re.compile(r"\b(?:(?:no\s+)?dia\s+|on\s+)?(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?\b")
_DAY_OF_MONTH = re.compile(
    r"\b(?:(?:no\s+)?dia\s+(\d{1,2})|on\s+the\s+(\d{1,2})(?:st|nd|rd|th)?)\b(?!\s*/)"
)
_PERIOD = r"(?:\s+(?:da|de|of\s+the|in\s+the)\s+(manha|tarde|noite|madrugada|morning|afternoon|evening|night))?"
_CLOCK = re.compile(
    r"\b(?:(?:as|a|ate\s+as|pelas|por\s+volta\s+das|at|by|around)\s+)?"
    r"(\d{1,2})(?:(?::|h|\.)(\d{2})|\s*(h|hs|horas?|o'?clock))?"
    r"(?:\s*(am|pm|a\.m\.|p\.m\.))?"
    + _PERIOD
    + r"(?!\s*(?:/|\d|minutos?|minutes?|mins?\b|dias?\b|days?\b|segundos?|seconds?|semanas?|weeks?))"
)
_NOON = re.compile(r"\b(?:(?:a|ao|as|at)\s+)?(meio[\s-]dia|noon|midday|meia[\s-]noite|midnight)\b")
_PART = re.compile(
    r"\b(?:(?:de|a|pela|in\s+the|this|esta|hoje\s+a)\s+)?(manha|tarde|noite|morning|afternoon|evening)\b"
)

_FILLER = r"(?:(?:por\s+favor|please|pf|pfv|oi|ola|hey|ei|lembra)[\s,!]+)*"
_TRIGGER = re.compile(
    r"^\s*" + _FILLER + r"(?:/remind\b|/lembrete\b|me\s+lembr[ae]\b|lembr[ae][\s-]*me\b"
    r"|me\s+avis[ae]\b|avis[ae][\s-]*me\b|remind\s+me\b|set\s+(?:a\s+)?reminder\b"
    r"|(?:cri[ae]r?|coloca|poe|bota)\s+(?:um\s+)?lembrete\b|lembrete\b|reminder\b"
    r"|lembr[ae]r?\b|don'?t\s+let\s+me\s+forget\b|nao\s+me\s+deixa\s+esquecer\b)[\s:,-]*"
)
_TRIGGER_INSIDE = re.compile(
    r"\b(?:me\s+lembr[ae]|lembr[ae][\s-]*me|remind\s+me|me\s+avis[ae])\b[\s:,-]*"
)
_LIST = re.compile(
    r"^\s*" + _FILLER + r"(?:/reminders|/lembretes|(?:quais\s+(?:sao\s+)?(?:os\s+)?)?"
    r"(?:(?:lista|listar|mostra|mostrar|ver|veja)\s+)?(?:os\s+|meus\s+|os\s+meus\s+)?lembretes"
    r"(?:\s+(?:abertos|pendentes|agendados|ativos))?|(?:list|show|see)?\s*(?:me\s+)?"
    r"(?:my|the|all)?\s*(?:open\s+|pending\s+|upcoming\s+)?reminders"
    r"|what\s+(?:are\s+)?my\s+reminders|que\s+lembretes\s+(?:eu\s+)?tenho)\s*[?.!]*\s*$"
)
_CANCEL = re.compile(
    r"^\s*" + _FILLER + r"(?:cancel[ae]r?|apag[ae]r?|remov[ae]r?|exclui[r]?|tira|deleta"
    r"|cancel|delete|remove)\s+(?:o\s+|a\s+|the\s+|my\s+|meu\s+)?(?:lembrete|reminder)\s*"
    r"(?:n(?:umero|o|º|°)?\.?\s*|#|number\s+)?(.*?)\s*[.!]*\s*$"
)
_UNDO = re.compile(
    r"^\s*(?:/undo|/desfazer|desfaz(?:er)?|desfaca|undo|volta\s+atras|undo\s+(?:that|it|last)"
    r"|desfaz(?:er)?\s+(?:isso|isto|o\s+ultimo|a\s+ultima|essa|esse))\s*[.!]*\s*$"
)
_LEADING_GLUE = re.compile(
    r"^(?:[\s,:;.-]|(?:(?:pra|para|pro)\s+mim|for\s+me)\b"
    r"|(?:de|do|da|que|pra|para|pro|to|about|that|of|for|sobre|e|and)\b)+",
    re.I,
)
# "a consulta é dia 12": the verb before the time is glue too once the time is cut out
_TRAILING_GLUE = re.compile(
    r"(?:[\s,:;.-]|\b(?:de|do|da|pra|para|to|about|e|and|on|at|is|are|was|will\s+be"
    r"|eh|sera|será|sao|são|vai\s+ser)\b|\s(?:é)(?=$|[\s,:;.-]))+$",
    re.I,
)


@dataclass(frozen=True, slots=True)
class TimeSpec:
    """When, as read from the message, before it is placed on a calendar."""

    delta_s: int | None = None  # relative: now + delta
    day_offset: int | None = None  # hoje 0, amanhã 1, ...
    weekday: int | None = None
    next_week: bool = False
    date: tuple[int, int, int | None] | None = None  # day, month, year
    day_of_month: int | None = None
    hour: int | None = None
    minute: int = 0
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class SetReminder:
    what: str
    due: datetime  # aware, in the user's time zone


@dataclass(frozen=True, slots=True)
class PastTime:
    due: datetime


ReminderParse = SetReminder | PastTime


def fold_same_length(text: str) -> str:
    """Lowercase without accents, one character for one, so spans map back to `text`."""
    out = []
    for ch in text:
        low = ch.lower()
        low = low if len(low) == 1 else ch
        base = unicodedata.normalize("NFKD", low)
        out.append(base[0] if base else ch)
    return "".join(out)


def route(text: str) -> tuple[RouteName, str] | None:
    """The reminder or undo command a message is, with its arguments, or None."""
    folded = fold_same_length(text)
    if _UNDO.match(folded):
        return ("undo", "")
    if _LIST.match(folded):
        return ("reminders", "")
    if cancel := _CANCEL.match(folded):
        return ("unremind", text[cancel.start(1) : cancel.end(1)].strip())
    span = find_trigger(folded)
    if span is not None and read_time(folded, span=span) is not None:
        return ("remind", text)
    return None


def find_trigger(folded: str) -> tuple[int, int] | None:
    """Where a folded message asks to be reminded: at its start, or after a leading time."""
    if m := _TRIGGER.match(folded):
        return m.span()
    if m := _TRIGGER_INSIDE.search(folded):
        return m.span()
    return None


def parse(text: str, now: datetime) -> ReminderParse | None:
    """Read a reminder from `text` (trigger optional) at `now` (aware, user's zone)."""
    folded = fold_same_length(text)
    span = find_trigger(folded)
    spec = read_time(folded, span=span)
    if spec is None:
        return None
    due = place(spec, now)
    what = _what(text, ((span,) if span else ()) + spec.spans)
    if due <= now:
        return PastTime(due)
    return SetReminder(what, due)


def read_time(folded: str, *, span: tuple[int, int] | None = None) -> TimeSpec | None:
    """The time a folded message names outside the trigger `span`, or None."""
    body = _mask(folded, [span] if span else [])
    if m := _RELATIVE.search(body):
        return TimeSpec(delta_s=_relative_seconds(m), spans=(m.span(),))
    spans: list[tuple[int, int]] = []
    fields: dict[str, object] = {}
    if m := _DAY_WORD.search(body):
        word = m.group(1)
        spans.append(m.span())
        if word.startswith(("depois", "the day", "day")):
            fields["day_offset"] = 2
        elif word in ("amanha", "tomorrow"):
            fields["day_offset"] = 1
        else:
            fields["day_offset"] = 0
            if word == "tonight":
                fields["hour"] = PART_OF_DAY["tonight"]
    elif m := _WEEKDAY.search(body):
        spans.append(m.span())
        fields["weekday"] = WEEKDAYS[m.group(1)]
        fields["next_week"] = bool(re.search(r"proxim|next", m.group(0)))
    elif m := _DATE.search(body):
        spans.append(m.span())
        year = int(m.group(3)) if m.group(3) else None
        if year is not None and year < 100:
            year += 2000
        fields["date"] = (int(m.group(1)), int(m.group(2)), year)
    elif m := _DAY_OF_MONTH.search(body):
        spans.append(m.span())
        fields["day_of_month"] = int(m.group(1) or m.group(2))
    masked = _mask(body, spans)
    clock = _read_clock(masked)
    if clock is not None:
        hour, minute, span = clock
        fields["hour"], fields["minute"] = hour, minute
        spans.append(span)
    elif m := _PART.search(masked):
        fields["hour"] = PART_OF_DAY[m.group(1)]
        spans.append(m.span())
    if not fields or (len(fields) == 1 and "next_week" in fields):
        return None
    if "hour" not in fields and not any(
        k in fields for k in ("day_offset", "weekday", "date", "day_of_month")
    ):
        return None
    return TimeSpec(spans=tuple(spans), **fields)  # type: ignore[arg-type]


def place(spec: TimeSpec, now: datetime) -> datetime:
    """Put `spec` on the calendar at `now`: the next moment it can mean."""
    if spec.delta_s is not None:
        return now + timedelta(seconds=spec.delta_s)
    hour = spec.hour if spec.hour is not None else DEFAULT_HOUR
    base = now.replace(hour=hour, minute=spec.minute, second=0, microsecond=0)
    if spec.day_offset is not None:
        return base + timedelta(days=spec.day_offset)
    if spec.weekday is not None:
        ahead = (spec.weekday - now.weekday()) % 7
        due = base + timedelta(days=ahead)
        if due <= now or (spec.next_week and ahead == 0):
            due += timedelta(days=7)
        return due
    if spec.date is not None:
        day, month, year = spec.date
        try:
            due = base.replace(year=year or now.year, month=month, day=day)
        except ValueError:
            return now  # 31/02: no such day, reported as a time that cannot be used
        if due <= now and year is None:
            due = due.replace(year=now.year + 1)
        return due
    if spec.day_of_month is not None:
        return _next_day_of_month(base, spec.day_of_month, now)
    due = base
    return due if due > now else due + timedelta(days=1)


def _next_day_of_month(base: datetime, day: int, now: datetime) -> datetime:
    year, month = now.year, now.month
    for _ in range(13):
        try:
            due = base.replace(year=year, month=month, day=day)
        except ValueError:
            due = None
        if due is not None and due > now:
            return due
        month, year = (1, year + 1) if month == 12 else (month + 1, year)
    return now


def _relative_seconds(m: re.Match[str]) -> int:
    phrase = m.group(1)
    if phrase:
        return 5400 if "meia" in phrase.split()[-1] or "half" in phrase.split()[-1] else 1800
    amount = m.group(2)
    count = int(amount) if amount.isdigit() else NUMBER_WORDS[amount]
    unit = m.group(3)
    key = "m" if unit.startswith("mi") or unit == "m" else unit[0]
    if unit.startswith(("sem", "w")):
        key = "w"
    extra = int(m.group(4)) * 60 if m.group(4) and key == "h" else 0
    return count * UNIT_SECONDS[key] + extra


def _read_clock(masked: str) -> tuple[int, int, tuple[int, int]] | None:
    if m := _NOON.search(masked):
        noon = m.group(1).startswith("meio") or m.group(1) in ("noon", "midday")
        return (12 if noon else 0, 0, m.span())
    for m in _CLOCK.finditer(masked):
        hour, minute = int(m.group(1)), int(m.group(2) or 0)
        marked = m.group(2) or m.group(3) or m.group(4) or m.group(5)
        prefixed = m.group(0).split()[0] in ("as", "at", "by", "around", "pelas", "ate")
        if not (marked or prefixed) or hour > 23 or minute > 59:
            continue
        meridiem, period = (m.group(4) or "").replace(".", ""), m.group(5) or ""
        if (meridiem == "pm" or period in ("tarde", "noite", "afternoon", "evening", "night")) and (
            hour < 12
        ):
            hour += 12
        elif (meridiem == "am" or period == "madrugada") and hour == 12:
            hour = 0
        return hour, minute, m.span()
    return None


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _what(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """The thing to remember: the message without its trigger, time and glue words."""
    rest = _mask(text, list(spans))
    rest = re.sub(r"\s{2,}", " ", rest).strip()
    previous = None
    while previous != rest:
        previous = rest
        rest = _LEADING_GLUE.sub("", rest)
        rest = _TRAILING_GLUE.sub("", rest).strip()
    return rest[:300]
