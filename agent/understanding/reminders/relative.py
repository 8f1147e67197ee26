"""Amounts of time from now (PT/EN): "daqui a 10 minutos", "em dois meses", "in 1/2 hour",
"uma hora e meia", "in 2 hours and 15 minutes", "1h30", "2 minutes from now", "in 7 days".

Seconds, minutes and hours are added to now. Days, weeks, months and years move the
calendar and keep the clock of now, unless the message names one ("in 7 days at 5pm").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from agent.understanding.reminders.lexicon import Phrases, Tok, glued, text_at
from agent.understanding.reminders.numbers import AND, cardinal, decimal

Unit = Literal["second", "minute", "hour", "day", "week", "month", "year"]
MAX_YEARS = 100  # the furthest a reminder can be set from now
SECONDS: dict[Unit, int] = {"second": 1, "minute": 60, "hour": 3600, "day": 86400, "week": 604800}


@dataclass(frozen=True, slots=True)
class Relative:
    seconds: int = 0
    days: int = 0
    months: int = 0
    years: int = 0

    @property
    def within_reach(self) -> bool:
        """At most a century either way ("daqui a 99999 anos" overflows any calendar)."""
        days = self.seconds / 86400 + self.days + self.months * 31 + self.years * 366
        return abs(days) <= MAX_YEARS * 366

    @property
    def moves_calendar(self) -> bool:
        """Days or more and nothing smaller: a clock in the message sets the time of that day."""
        return not self.seconds and bool(self.days or self.months or self.years)


LEADS = Phrases(
    {
        "daqui a": True, "daqui": True, "em": True, "dentro de": True, "in": True,
        "within": True, "after": True, "apos": True, "depois de": True, "em cerca de": True,
        "daqui a uns": True, "daqui a umas": True, "em uns": True, "em umas": True,
        "in about": True, "in around": True, "in another": True, "daqui a mais": True,
        "in just": True, "dentro de uns": True, "dentro de umas": True,
        "daqui uns": True, "daqui umas": True, "in like": True, "in maybe": True,
        "em mais ou menos": True, "daqui a mais ou menos": True, "daqui mais ou menos": True,
        "in roughly": True, "in approximately": True, "em aproximadamente": True,
    }
)  # fmt: skip
# after an amount: from when it counts, in days from today ("a week from tomorrow": 8 days)
FROM_NOW = Phrases(
    {"from now": 0, "a partir de agora": 0, "from today": 0, "later": 0, "depois": 0,
     "from right now": 0,
     "mais tarde": 0, "de agora": 0, "hence": 0, "a partir de hoje": 0, "from tomorrow": 1,
     "a partir de amanha": 1, "depois de amanha": 1}
)  # fmt: skip
AGO = Phrases({"ago": True, "atras": True, "antes": True})  # "2 days ago": in the past
PAST_LEADS = Phrases({"ha": True, "faz": True})  # "há 2 dias"
NOW_WORDS = Phrases({"agora": True, "agora mesmo": True, "now": True, "right now": True,
                     "immediately": True, "imediatamente": True, "ja": True,
                     "neste instante": True, "nesse instante": True})  # fmt: skip
_UNIT_TABLE: dict[str, tuple[Unit, int]] = {
    "segundo": ("second", 1), "segundos": ("second", 1), "seg": ("second", 1),
    "segs": ("second", 1), "second": ("second", 1), "seconds": ("second", 1),
    "sec": ("second", 1), "secs": ("second", 1), "s": ("second", 1),
    "minuto": ("minute", 1), "minutos": ("minute", 1), "min": ("minute", 1),
    "mins": ("minute", 1), "minute": ("minute", 1), "minutes": ("minute", 1),
    "m": ("minute", 1), "hora": ("hour", 1), "horas": ("hour", 1), "h": ("hour", 1),
    "hs": ("hour", 1), "hr": ("hour", 1), "hrs": ("hour", 1), "hour": ("hour", 1),
    "hours": ("hour", 1), "dia": ("day", 1), "dias": ("day", 1), "day": ("day", 1),
    "days": ("day", 1), "d": ("day", 1), "semana": ("week", 1), "semanas": ("week", 1),
    "week": ("week", 1), "weeks": ("week", 1), "wk": ("week", 1), "wks": ("week", 1),
    "quinzena": ("day", 15), "quinzenas": ("day", 15), "fortnight": ("week", 2),
    "fortnights": ("week", 2), "mes": ("month", 1), "meses": ("month", 1),
    "month": ("month", 1), "months": ("month", 1), "ano": ("year", 1), "anos": ("year", 1),
    "year": ("year", 1), "years": ("year", 1), "yr": ("year", 1), "yrs": ("year", 1),
}  # fmt: skip
UNITS = Phrases(_UNIT_TABLE)
# "5m", "3d"; "5 m" is not a unit. "h" is one apart too ("in 1/4 h", "em 2 h"): after an
# amount it can only be hours, and unread it left "1/4" to be a date a year away
_GLUED_ONLY = frozenset({"s", "m", "d"})
ONE = Phrases({"a": 1, "an": 1, "um": 1, "uma": 1, "one": 1, "a couple of": 2, "couple of": 2,
               "a couple": 2, "um par de": 2, "uns": 1, "umas": 1, "a pair of": 2})  # fmt: skip
FRACTION_BEFORE = Phrases(
    {"meia": Fraction(1, 2), "half a": Fraction(1, 2), "half an": Fraction(1, 2),
     "a half": Fraction(1, 2), "half": Fraction(1, 2), "a quarter of an": Fraction(1, 4),
     "quarter of an": Fraction(1, 4), "a quarter": Fraction(1, 4), "quarter": Fraction(1, 4),
     "um quarto de": Fraction(1, 4), "three quarters of an": Fraction(3, 4),
     "tres quartos de": Fraction(3, 4)}
)  # fmt: skip
HALF_AFTER = Phrases({"e meia": True, "and a half": True, "and half": True, "and an half": True})
MORE = frozenset({"more", "mais", "other"})
SAME_TIME_TOMORROW = Phrases(
    {
        "amanha nesse horario": 1, "amanha neste horario": 1, "amanha nessa hora": 1,
        "amanha nesta hora": 1, "amanha a essa hora": 1, "amanha a esta hora": 1,
        "amanha no mesmo horario": 1, "amanha mesmo horario": 1, "amanha mesma hora": 1,
        "amanha na mesma hora": 1, "this time tomorrow": 1, "same time tomorrow": 1,
        "tomorrow same time": 1, "tomorrow at this time": 1, "tomorrow at the same time": 1,
        "tomorrow this time": 1,
    }
)  # fmt: skip


def read_relative(toks: tuple[Tok, ...], i: int) -> tuple[Relative, int] | None:
    """An amount of time from now starting at token `i` (with its "em"/"daqui a"/"in"), or None."""
    if same := SAME_TIME_TOMORROW.match(toks, i):
        return Relative(days=same[0]), same[1]
    if now := NOW_WORDS.match(toks, i):
        return Relative(), now[1]
    past = PAST_LEADS.match(toks, i)
    lead = past or LEADS.match(toks, i)
    start = lead[1] if lead else i
    found = read_amount(toks, start)
    if found is None:
        return None
    total, end = found
    ago = None if past else AGO.match(toks, end)
    if past or ago:
        return _negated(total), (ago[1] if ago else end)
    if after := FROM_NOW.match(toks, end):
        total, end = _add(total, Relative(days=after[0])), after[1]
    elif lead is None:
        return None  # "10 minutos" alone is not a time from now
    return total, end


def read_amount(toks: tuple[Tok, ...], i: int) -> tuple[Relative, int] | None:
    """ "2 horas e 15 minutos", "1h30", "1 hour 30 minutes": one amount or several added."""
    first = _amount(toks, i)
    if first is None:
        return None
    total, end = first
    while True:
        joined = text_at(toks, end) in AND
        j = end + (joined or text_at(toks, end) == ",")
        more = _amount(toks, j)
        if more is not None and not joined and _clock_after_days(total, toks, j):
            return total, end  # "daqui uma semana, 14h": that day at 14:00, not 14 hours more
        if more is None:
            # "1h30", "uma hora e 15": the minutes of an hour amount written without a unit
            word = text_at(toks, end)
            if word.isdigit() and glued(toks, end) and text_at(toks, end - 1) == "h":
                total = _add(total, Relative(seconds=int(word) * 60))
                end += 1 + (text_at(toks, end + 1) in ("min", "m", "mins"))
            elif j > end and total.seconds % 3600 == 0 and total.seconds:
                minutes = cardinal(toks, j)
                if minutes is not None and 0 < minutes[0] < 60:
                    total = _add(total, Relative(seconds=minutes[0] * 60))
                    end = minutes[1]
            return total, end
        total, end = _add(total, more[0]), more[1]


def _clock_after_days(total: Relative, toks: tuple[Tok, ...], i: int) -> bool:
    """Whether the amount at `i` is PT's hour form ("14h", "9h30") right after an amount of
    whole days or more: a clock on that day, never hours added to them."""
    whole_days = total.seconds == 0 and bool(total.days or total.months or total.years)
    return (
        whole_days
        and text_at(toks, i).isdigit()
        and text_at(toks, i + 1) == "h"
        and glued(toks, i + 1)
    )


def _amount(toks: tuple[Tok, ...], i: int) -> tuple[Relative, int] | None:
    count: Fraction
    if part := FRACTION_BEFORE.match(toks, i):  # "meia hora", "half an hour", "a quarter hour"
        unit = _unit(toks, part[1])
        if unit is not None:
            return _relative(part[0], unit[0], unit[1]), unit[2]
    number = decimal(toks, i)
    if number is not None:
        count, j = number
    elif words := cardinal(toks, i):
        count, j = Fraction(words[0]), words[1]
    elif one := ONE.match(toks, i):
        count, j = Fraction(one[0]), one[1]
    else:
        return None
    if half_before_unit := HALF_AFTER.match(toks, j):  # "one and a half hours"
        if _unit(toks, half_before_unit[1]) is not None:
            count, j = count + Fraction(1, 2), half_before_unit[1]
    if text_at(toks, j) in MORE and _unit(toks, j + 1) is not None:  # "in 2 more minutes"
        j += 1
    if text_at(toks, j) == "de" and count.denominator != 1 and _unit(toks, j + 1) is not None:
        j += 1  # "3/4 de hora"
    unit = _unit(toks, j)
    if unit is None:
        return None
    name, size, end = unit
    if half_after := HALF_AFTER.match(toks, end):  # "uma hora e meia", "an hour and a half"
        count, end = count + Fraction(1, 2), half_after[1]
    return _relative(count, name, size), end


def _unit(toks: tuple[Tok, ...], i: int) -> tuple[Unit, int, int] | None:
    found = UNITS.match(toks, i)
    if found is None:
        return None
    (name, size), end = found
    if text_at(toks, i) in _GLUED_ONLY and not glued(toks, i):
        return None
    return name, size, end


def _relative(count: Fraction, unit: Unit, size: int) -> Relative:
    count *= size
    if unit in ("month", "year"):
        whole = int(count)
        extra_days = int((count - whole) * (30 if unit == "month" else 365))
        if unit == "month":
            return Relative(months=whole, days=extra_days)
        return Relative(years=whole, days=extra_days)
    if unit in ("day", "week") and count.denominator == 1:
        return Relative(days=int(count) * (7 if unit == "week" else 1))
    return Relative(seconds=int(count * SECONDS[unit]))


def _negated(amount: Relative) -> Relative:
    return Relative(-amount.seconds, -amount.days, -amount.months, -amount.years)


def _add(a: Relative, b: Relative) -> Relative:
    return Relative(a.seconds + b.seconds, a.days + b.days, a.months + b.months, a.years + b.years)
