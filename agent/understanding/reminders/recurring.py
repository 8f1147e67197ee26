"""A repeating reminder read from a message (DESIGN 11.4): its rule and first time, or a question.

What repeats comes from `repeating`; the time of day, a start day ("a partir de segunda")
and an end day ("até 30/06") from the rest of the grammar, on the words it left. A day
without a time is 09:00, as for a single reminder; a weekly, monthly or yearly rule that
names no day ("toda semana", "every month") gets a question with 2-3 starts. The first
occurrence is the rule's first after now, in the user's zone.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta

from agent.understanding.reminders.dates import MONTHS, Date
from agent.understanding.reminders.holidays import Country
from agent.understanding.reminders.lexicon import Tok, tokenize
from agent.understanding.reminders.parts import ASKED, DEFAULT_HOUR, Part
from agent.understanding.reminders.periods import Period
from agent.understanding.reminders.placing import (
    DEFAULT_HOUR_OF_DAY,
    AskReason,
    Due,
    later_today_options,
    period_days,
    place,
    time_of_day,
)
from agent.understanding.reminders.reading import When, read_when
from agent.understanding.reminders.repeating import read_repeat, repeat_cue
from agent.understanding.reminders.rules import Rule, first_from

_DURATION_DAYS = {"DAILY": 1, "WEEKLY": 7}
_GLUE_AFTER_BOUND = 6  # characters between "até"/"a partir de" and the day they name


@dataclass(frozen=True, slots=True)
class Repeating:
    rule: Rule
    first: datetime  # aware, the user's zone
    default_time: bool
    spans: tuple[tuple[int, int], ...]  # every character span read as time


@dataclass(frozen=True, slots=True)
class AskStart:
    """A rule with no day to start on: which of `options` (each the rule's first occurrence)."""

    rule: Rule | None
    options: tuple[datetime, ...]
    spans: tuple[tuple[int, int], ...]
    reason: AskReason = "repeat_start"  # "vague": no clock for a part of the day; "partial"


def read_recurring(
    text: str,
    folded: str,
    trigger: tuple[int, int] | None,
    now: datetime,
    *,
    month_first: bool = False,
    country: Country | None = None,
) -> Repeating | AskStart | None:
    """The repeating reminder `text` asks for, or None when nothing in it repeats."""
    repeat = read_repeat(_masked(folded, [trigger] if trigger else []))
    if repeat is None:
        return None
    spans = list(repeat.spans)
    until_day = _bound_day(folded, repeat.until, spans, now, month_first, country, end=True)
    start_day = _bound_day(folded, repeat.start, spans, now, month_first, country, end=False)
    rest = _masked(folded, spans + ([trigger] if trigger else []))
    toks = tokenize(rest)
    when = read_when(toks, month_first=month_first) or When()
    spans += list(when.spans)
    zone = now.tzinfo
    assert zone is not None
    parts = dict(repeat.parts)
    if repeat.part is not None and when.clock is not None and when.part is None:
        when = replace(when, part=Part(repeat.part))  # "every night at 10": 22:00
    clock = time_of_day(when)
    if _hours_form(when) and when.clock is not None and repeat.part is None:
        clock = (when.clock.hour, when.clock.minute)  # "todo dia às 6h": 06:00, as written
    second = _second_clock(toks, when, repeat.part)
    if second is not None and clock is not None:
        spans += [second[1]]
        if second[0][1] != clock[1] or parts["FREQ"] not in ("DAILY", "WEEKLY"):
            return AskStart(None, later_today_options(now), tuple(spans), "partial")
        hours = sorted({clock[0], second[0][0]})
        parts["BYHOUR"] = ",".join(str(h) for h in hours)  # "às 8h e às 20h": one rule
        clock = (hours[0], clock[1])
    elif repeat.twice:  # "2 vezes por dia" with one time or none: which times?
        return AskStart(None, later_today_options(now), tuple(spans), "partial")
    if repeat_cue(_masked(folded, spans + ([trigger] if trigger else []))):
        # rule words the reading left ("todo dia às 8h e toda sexta"): ask, never a partial rule
        return AskStart(None, later_today_options(now), tuple(spans), "partial")
    # "toda tarde", "todo dia bem cedinho": a part of the day and no clock, at what time?
    vague = repeat.part or (when.part.name if when.part and when.clock is None else None)
    if vague is not None and vague not in ASKED and (clock is None or when.clock is None):
        clock = (DEFAULT_HOUR[vague], 0)  # "todo dia no almoço": lunch is one moment, 12:00
    elif vague is not None and (clock is None or when.clock is None):
        rule = Rule(";".join(f"{k}={v}" for k, v in parts.items()), count=repeat.count)
        options = tuple(_next_at(now, hour) for hour in ASKED[vague])
        return AskStart(rule, tuple(sorted(options)), tuple(spans), "vague")
    default_time = clock is None and parts["FREQ"] != "HOURLY"
    hour, minute = clock or (DEFAULT_HOUR_OF_DAY, 0)
    day = start_day or _day_of(when, now, country)
    if parts["FREQ"] == "YEARLY" and "BYMONTH" not in parts and isinstance(when.day, Date):
        if when.day.month is not None:
            parts |= {"BYMONTH": str(when.day.month), "BYMONTHDAY": str(when.day.day)}
    if parts["FREQ"] == "MONTHLY" and "BYMONTHDAY" not in parts and "BYDAY" not in parts:
        if isinstance(when.day, Date) and when.day.month is None:
            parts["BYMONTHDAY"] = str(when.day.day)  # "todo mês, dia 10"
    rule = Rule(";".join(f"{k}={v}" for k, v in parts.items()), count=repeat.count)
    if parts["FREQ"] == "HOURLY":
        provisional = _hourly_start(now, clock, day, int(parts.get("INTERVAL", "1")))
    else:
        provisional = datetime.combine(day or now.date(), time(hour, minute), zone)
        if day is None and provisional <= now and "BYHOUR" not in parts:
            # "every other day at 8" at 10: from tomorrow
            provisional += timedelta(days=1)
        if day is None and "INTERVAL" in parts and "BYDAY" in parts:
            # "every other monday": the phase starts at the next such day, not at tomorrow
            every = Rule(";".join(f"{k}={v}" for k, v in parts.items() if k != "INTERVAL"))
            provisional = first_from(every, provisional, now) or provisional
    open_day = (
        repeat.needs_day
        and day is None
        and not any(k in parts for k in ("BYDAY", "BYMONTHDAY", "BYMONTH"))
    )
    if open_day:
        return AskStart(rule, _starts(rule, now, hour, minute), tuple(spans))
    first = first_from(rule, provisional, now)
    if first is not None and repeat.upcoming and first.date() == now.date():
        # "nas próximas 4 segundas" said on a Monday: from next Monday, as "próxima segunda"
        tomorrow = datetime.combine(now.date() + timedelta(days=1), time(hour, minute), zone)
        first = first_from(rule, tomorrow, now)
    if first is None:
        return None
    if repeat.duration is not None:
        amount, unit = repeat.duration
        rule = replace(rule, until=_after(first, amount, unit) - timedelta(seconds=1))
    elif until_day is not None:
        rule = replace(rule, until=datetime.combine(until_day, time(23, 59, 59), zone))
    return Repeating(rule, first, default_time, tuple(spans))


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _bound_day(
    folded: str,
    bound: tuple[int, int] | None,
    spans: list[tuple[int, int]],
    now: datetime,
    month_first: bool,
    country: Country | None,
    *,
    end: bool,
) -> date | None:
    """The day named right after "até" / "a partir de" (its words join `spans`), or None; a
    period ("até dezembro", "a partir da semana que vem") ends on its last day (`end`) or
    starts on its first."""
    if bound is None:
        return None
    if (ends := _END_OF.match(folded, bound[1])) is not None:  # "até o fim do ano"
        spans += [bound, ends.span()]
        return _end_of(ends.group("unit"), now.date())
    if (named := _MONTH_AFTER.match(folded, bound[1])) is not None:  # "até dezembro"
        word = named.group("month")  # "mar", "set", "out", "ago" are PT words first
        month = MONTHS.get(word) if word not in ("mar", "set", "out", "ago") else None
        days = period_days(Period("month_name", month=month), now.date()) if month else None
        if days is not None:
            spans += [bound, named.span()]
            return days[1] if end else days[0]
    after = " " * bound[1] + folded[bound[1] :]
    when = _first_day(tokenize(_masked(after, spans)), month_first)
    if when is None or not when.spans or when.spans[0][0] - bound[1] > _GLUE_AFTER_BOUND:
        return None
    if when.day is None and when.period is None:
        return None  # "até as 9h": a time of day, not an end
    if when.period is not None:
        days = period_days(when.period, now.date())
        if days is None:
            return None
        spans += [(bound[0], when.spans[0][0]), *when.spans]  # "até a semana que vem"
        return days[1] if end else days[0]
    placed = place(replace(when, clock=None, part=None, zone=None), now, country=country)
    if not isinstance(placed, Due):
        return None
    spans += [(bound[0], when.spans[0][0]), *when.spans]  # "até dia 3 de março": every word
    return placed.at.date()


# "o fim do ano", "o final deste mês", "the end of the month", "end of year"
_END_OF = re.compile(
    r"\s*(?:o\s+|the\s+)?(?:fim|final|end)\s+(?:(?:d[oa]s?|of)\s+(?:(?:este|esta|esse|essa|the"
    r"|this)\s+)?|dest[ea]\s+|dess[ea]\s+)(?P<unit>ano|mes|semana|year|month|week)\b"
)


_MONTH_AFTER = re.compile(
    r"\s*(?:(?:o\s+)?(?:(?:fim|final)\s+de\s+)?(?:mes\s+de\s+)?|(?:the\s+)?(?:end\s+of\s+)?)"
    # a month's name, so "end of" is never read as one ("until end of feb")
    rf"(?P<month>{'|'.join(sorted(MONTHS, key=len, reverse=True))})\b(?!\s+\d|\s+de\s+\d)"
)


def _end_of(unit: str, today: date) -> date:
    """The last day of this year, month or week (Sunday) that `today` is in."""
    if unit in ("ano", "year"):
        return date(today.year, 12, 31)
    if unit in ("mes", "month"):
        return date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
    return today + timedelta(days=6 - today.weekday())


def _hours_form(when: When) -> bool:
    """A clock written "6h", "6h30", "6 horas" with no part of the day: in PT that is the
    24-hour clock (06:00); a repeating rule keeps it as written."""
    clock = when.clock
    return (
        clock is not None
        and clock.hours_form
        and clock.ambiguous
        and clock.meridiem is None
        and when.part is None
    )


def _first_day(toks: tuple[Tok, ...], month_first: bool) -> When | None:
    """The time read from the fewest leading words that name a day ("sexta tomar antibiótico":
    "sexta"), or from them all."""
    for size in range(1, min(len(toks), 5) + 1):
        when = read_when(toks[:size], month_first=month_first)
        if when is not None and (when.day is not None or when.period is not None):
            goes_on = False
            for more in (1, 2):  # "sexta que vem", "30 de junho", "dia 3 de março"
                longer = (
                    read_when(toks[: size + more], month_first=month_first)
                    if size + more <= len(toks)
                    else None
                )
                if (
                    longer is not None
                    and (longer.day is not None or longer.period is not None)
                    and (longer.clock, longer.part) == (when.clock, when.part)
                ):
                    goes_on = goes_on or bool(  # the day goes on; a clock after it does not
                        longer.spans and longer.spans[0][1] > when.spans[0][1]
                    )
            if goes_on:
                continue  # the day goes on
            return when
    return read_when(toks, month_first=month_first)


def _next_at(now: datetime, hour: int) -> datetime:
    at = datetime.combine(now.date(), time(hour, 0), now.tzinfo)
    return (
        at if at > now else datetime.combine(now.date() + timedelta(days=1), time(hour), now.tzinfo)
    )


def _second_clock(
    toks: tuple[Tok, ...], when: When, part: str | None
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A second clock time beside the one read ("às 8h e às 20h"): its (hour, minute), span."""
    if when.clock is None or not when.spans:
        return None
    rest = tuple(t for t in toks if not any(a <= t.start and t.end <= b for a, b in when.spans))
    other = read_when(rest)
    if other is None or other.clock is None or other.day is not None or not other.spans:
        return None
    clock = time_of_day(other)
    if clock is None:
        return None
    return clock, other.spans[0]


def _day_of(when: When, now: datetime, country: Country | None) -> date | None:
    if when.day is None and when.relative is None:
        return None
    placed = place(replace(when, clock=None, part=None, zone=None), now, country=country)
    if isinstance(placed, Due):
        return placed.at.date()
    return None


def _hourly_start(
    now: datetime, clock: tuple[int, int] | None, day: date | None, interval: int
) -> datetime:
    if clock is not None:
        return datetime.combine(day or now.date(), time(*clock), now.tzinfo)
    return now.replace(second=0, microsecond=0) + timedelta(hours=interval)


def _after(first: datetime, amount: int, unit: str) -> datetime:
    if unit in _DURATION_DAYS:
        return first + timedelta(days=amount * _DURATION_DAYS[unit])
    if unit == "HOURLY":
        return first + timedelta(hours=amount)
    months = amount * (12 if unit == "YEARLY" else 1)
    index = first.year * 12 + first.month - 1 + months
    year, month = divmod(index, 12)
    return first.replace(year=year, month=month + 1, day=min(first.day, 28))


def _starts(rule: Rule, now: datetime, hour: int, minute: int) -> tuple[datetime, ...]:
    """2-3 days a rule with no day could start on: tomorrow, and the next two of its kind."""
    today = now.date()
    freq = rule.freq
    if freq == "WEEKLY":
        days = [today + timedelta(days=n) for n in (1, 2, 3)]
    elif freq == "MONTHLY":
        first_next = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
        days = [today + timedelta(days=1), first_next, first_next.replace(day=15)]
    else:
        days = [today + timedelta(days=1), today + timedelta(days=7)]
    return tuple(datetime.combine(d, time(hour, minute), now.tzinfo) for d in days)
