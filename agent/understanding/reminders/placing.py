"""Putting a `When` on the calendar at `now`: the next moment the words can mean, or a question.

Conventions (DESIGN 10.5): the future is preferred; a day without a time is 09:00 (the
reply says so); a part of the day fixes a.m./p.m.; a bare clock that could be a.m. or
p.m. is the next one to come; beside a day, an hour from 1 to 6 is read p.m. and from 7
to 11 a.m. ("amanhã às 3" is 15:00, "amanhã às 8" is 08:00), never the earlier of two
readings when the other is the likely one. A period without a day, a vague time, an
impossible date, or "hoje" once its hour has passed, gets 2-3 concrete choices instead.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Literal

from agent.understanding.reminders.clocks import Clock, Meridiem
from agent.understanding.reminders.dates import Date, DayOffset, NthWeekday, Weekday
from agent.understanding.reminders.holidays import Country, Holiday, holiday_dates, nth_weekday
from agent.understanding.reminders.parts import ASKED, DEFAULT_HOUR, clock_in_part
from agent.understanding.reminders.periods import Period
from agent.understanding.reminders.reading import When
from agent.understanding.reminders.relative import Relative

DEFAULT_HOUR_OF_DAY = 9  # "amanhã", "sexta": a day without a time means 09:00
# beside a day, an ambiguous 7-11 is a.m. and 1-6 p.m.; written in hours ("amanhã 6h40", PT's
# 24-hour form) 5-11 is a.m.: a dawn reminder (bus, gym) is plausible, one at 1-4 a.m. is not
MORNING_FROM = 7
MORNING_FROM_IN_HOURS = 5
AskReason = Literal[
    "period",
    "or_note",
    "vague",
    "holiday",
    "invalid_date",
    "passed_today",
    "weekday_mismatch",
    "no_time",
    "repeat_start",
    "partial",
]


@dataclass(frozen=True, slots=True)
class Due:
    at: datetime  # aware, in the user's zone
    default_time: bool = False  # no time of day was given: 09:00
    zone: str | None = None  # the zone the clock was given in ("PST"), when not the user's


@dataclass(frozen=True, slots=True)
class Past:
    at: datetime


@dataclass(frozen=True, slots=True)
class Ask:
    options: tuple[datetime, ...]
    reason: AskReason


Placed = Due | Past | Ask


def _future(at: datetime, now: datetime) -> bool:
    """`at` is after `now` as instants (a comparison in one zone reads wall clocks and would
    get the hour that repeats when summer time ends wrong)."""
    return at.timestamp() > now.timestamp()


def _plus(moment: datetime, elapsed: timedelta) -> datetime:
    """`elapsed` of real time after `moment` (aware arithmetic alone moves the wall clock,
    an hour off across a change to or from summer time)."""
    return (moment.astimezone(UTC) + elapsed).astimezone(moment.tzinfo)


def place(when: When, now: datetime, *, country: Country | None = None) -> Placed:
    """The moment `when` means at `now` (aware, the user's zone).

    Days are the user's ("amanhã" is the user's tomorrow); a clock given with a zone
    ("10h PST") is read in that zone, and the result is shown in the user's.
    """
    local = now.tzinfo
    if when.period is not None:
        return Ask(_period_options(when, now), "vague" if _vague(when.period) else "period")
    zone = when.zone
    placed = _place(when, now, country, zone.tz if zone is not None else local)
    if isinstance(placed, Due):
        at = placed.at.astimezone(local)
        return Due(at, placed.default_time, zone.label if zone else None)
    if isinstance(placed, Past):
        return Past(placed.at.astimezone(local))
    return Ask(tuple(o.astimezone(local) for o in placed.options), placed.reason)


def _place(when: When, now: datetime, country: Country | None, tz: tzinfo | None) -> Placed:
    if when.relative is not None:
        return _relative(when, when.relative, now, tz)
    times = _times(when)
    day = when.day
    default_time = when.clock is None and when.part is None
    if isinstance(day, Date) and day.invalid:
        return Ask(_invalid_date_options(day, now, times[0]), "invalid_date")
    if isinstance(day, Date) and day.weekday is not None:
        if (options := _weekday_mismatch(day, now, times[0], tz)) is not None:
            return Ask(options, "weekday_mismatch")
    if isinstance(day, Holiday):
        found = _holiday_days(day, now, country)
        if isinstance(found, Ask):
            return found
        days: Iterator[date] = iter(found)
    else:  # no day: the next one in the clock's zone ("at 5pm UTC" may still be today there)
        days = _days(day, now if day is not None else now.astimezone(tz))
    if when.part is not None and when.part.name in ASKED and when.clock is None:
        # "depois do almoço", "after lunch": when, exactly? 2-3 times of the first day left
        asked = tuple(
            datetime.combine(candidate, time(hour), tz)
            for candidate in days
            for hour in ASKED[when.part.name]
            if _future(datetime.combine(candidate, time(hour), tz), now)
        )[:3]
        return Ask(asked or _later_today_options(now, when), "vague")
    last: datetime | None = None
    for candidate in days:
        for hour, minute, shift in times:
            at = datetime.combine(candidate + timedelta(days=shift), time(hour, minute), tz)
            if _future(at, now):
                return Due(at, default_time)
            last = at
    if last is None:
        return Ask(_later_today_options(now, when), "invalid_date")
    if isinstance(day, DayOffset) and day.days == 0 and when.clock is None:
        return Ask(_later_today_options(now, when), "passed_today")
    return Past(last)


def _relative(when: When, relative: Relative, now: datetime, tz: tzinfo | None) -> Placed:
    if not relative.within_reach:
        return Ask(_later_today_options(now, when), "invalid_date")
    if not relative.moves_calendar:
        at = _plus(now, timedelta(seconds=relative.seconds))
        return Due(at) if not _future(now, at) else Past(at)  # "há 2 horas", "2 hours ago"
    target = _add_months(now, relative.years * 12 + relative.months) + timedelta(days=relative.days)
    if when.clock is None and when.part is None:
        return Due(target) if _future(target, now) else Past(target)
    if when.clock is None and when.part is not None and when.part.name in ASKED:
        # "daqui a 3 dias de manhã": that day, at which hour of its morning?
        asked = tuple(
            at
            for hour in ASKED[when.part.name]
            if _future(at := datetime.combine(target.date(), time(hour), tz), now)
        )
        return Ask(asked or _later_today_options(now, when), "vague")
    hour, minute, shift = _times(when, explicit_day=True)[0]
    at = datetime.combine(target.date() + timedelta(days=shift), time(hour, minute), tz)
    return Due(at) if _future(at, now) else Past(at)


def _add_months(moment: datetime, months: int) -> datetime:
    if not months:
        return moment
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def _times(when: When, *, explicit_day: bool | None = None) -> list[tuple[int, int, int]]:
    """(hour, minute, days after the day) to try, in order."""
    clock, part = when.clock, when.part
    if explicit_day is None:
        explicit_day = when.day is not None and when.day != DayOffset(0)
    if clock is not None and clock.end_of_day and (explicit_day or when.day is not None):
        return [(0, clock.minute, 1)]  # "hoje à meia-noite", "friday at midnight": its end
    if clock is not None and part is not None:
        return [clock_in_part(clock, part)]
    if clock is not None:
        return _clock_times(clock, explicit_day=explicit_day)
    if part is not None:
        return [(DEFAULT_HOUR[part.name], 0, 0)]
    return [(DEFAULT_HOUR_OF_DAY, 0, 0)]


def _clock_times(clock: Clock, *, explicit_day: bool) -> list[tuple[int, int, int]]:
    if not clock.ambiguous:
        hour, minute = clock.fixed_time()
        return [(hour, minute, 0)]
    if explicit_day:
        morning = MORNING_FROM_IN_HOURS if clock.hours_form else MORNING_FROM
        half: Meridiem = "am" if morning <= clock.hour <= 11 else "pm"
        return [(*clock.in_half(half), 0)]
    first, second = clock.in_half("am"), clock.in_half("pm")
    return [(*first, 0), (*second, 0)]


def _days(day: object, now: datetime) -> Iterator[date]:  # noqa: C901 - one branch per kind of day
    today = now.date()
    match day:
        case None:
            yield today
            yield today + timedelta(days=1)
        case DayOffset(days):
            yield today + timedelta(days=days)
        case Weekday(weekday, mode, _, later):
            ahead = (weekday - today.weekday()) % 7
            if mode == "next_week":
                yield today - timedelta(days=today.weekday()) + timedelta(days=7 + weekday)
                return
            if mode == "last":  # "terça passada", "last tuesday": the one before today
                yield today - timedelta(days=(today.weekday() - weekday) % 7 or 7)
                return
            if mode in ("next_one", "after_next") and ahead == 0:
                ahead = 7
            if later:  # "3 fridays from now": two weeks after the coming Friday
                yield today + timedelta(days=ahead + 7 * later)
                return
            if mode == "after_next":  # "friday after next": a week after the coming one
                yield today + timedelta(days=ahead + 7)
                return
            yield today + timedelta(days=ahead)
            yield today + timedelta(days=ahead + 7)
        case Date():
            yield from _dates(day, today)
        case NthWeekday():
            yield from _nth_days(day, today)


def _dates(day: Date, today: date) -> Iterator[date]:
    if day.month is not None:
        if day.year is not None:
            years = [day.year]
        elif day.years_ahead is not None:
            years = [today.year + day.years_ahead]
        else:
            years = [today.year, today.year + 1]
        found = [
            date(year, day.month, day.day)
            for year in years
            if day.day <= calendar.monthrange(year, day.month)[1]
        ]
        if day.weekday is not None and len(found) > 1:  # "Mon, Feb 16": the year it is a Monday
            found.sort(key=lambda d: (d.weekday() != day.weekday, d) if d >= today else (True, d))
        yield from found
        return
    months = [day.month_offset] if day.month_offset is not None else range(0, 29)
    for offset in months:
        index = today.year * 12 + today.month - 1 + offset
        year, month = divmod(index, 12)
        if day.day > calendar.monthrange(year, month + 1)[1]:
            continue
        candidate = date(year, month + 1, day.day)
        if day.weekday is not None and candidate.weekday() != day.weekday:
            continue
        yield candidate
        if day.weekday is None and offset >= 13:
            return


def _nth_days(day: NthWeekday, today: date) -> Iterator[date]:
    if day.month is not None:
        years = [day.year] if day.year is not None else [today.year, today.year + 1]
        months = [(year, day.month) for year in years]
    else:
        offsets = [day.month_offset] if day.month_offset else [0, 1]
        months = []
        for offset in offsets:
            year, month = divmod(today.year * 12 + today.month - 1 + offset, 12)
            months.append((year, month + 1))
    for year, month in months:
        if day.weekday is None:
            last = calendar.monthrange(year, month)[1]
            number = last + 1 + day.n if day.n < 0 else day.n
            if 1 <= number <= last:
                yield date(year, month, number)
        elif (found := nth_weekday(year, month, day.n, day.weekday)) is not None:
            yield found


def _holiday_days(day: Holiday, now: datetime, country: Country | None) -> list[date] | Ask:
    today = now.date()
    for year in (today.year, today.year + 1):
        found = [d for d in holiday_dates(day, country, year) if d >= today]
        if len(found) > 1:
            return Ask(tuple(_at(d, DEFAULT_HOUR_OF_DAY, now) for d in found[:3]), "holiday")
        if found:
            following = holiday_dates(day, country, year + 1)
            return [found[0], *following[:1]]
    return []


def _at(day: date, hour: int, now: datetime, minute: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute), now.tzinfo)


def _option_time(when: When) -> tuple[int, int]:
    if when.clock is None and when.part is None:
        return DEFAULT_HOUR_OF_DAY, 0
    hour, minute, _ = _times(when, explicit_day=True)[0]
    return hour, minute


def _vague(period: Period) -> bool:
    return period.kind in ("later", "soon", "few", "end_of_day")


def _period_options(when: When, now: datetime) -> tuple[datetime, ...]:  # noqa: C901
    period = when.period
    assert period is not None
    today = now.date()
    hour, minute = _option_time(when)
    days: list[date] = []
    match period.kind:
        case "later":
            return _later_today_options(now, when)
        case "soon":
            return tuple(_plus(now.replace(second=0, microsecond=0), timedelta(minutes=m))
                         for m in (15, 30, 60))  # fmt: skip
        case "few":
            return _few_options(period, now)
        case "end_of_day":  # "até o fim do dia": which end?
            ends = [_at(today, h, now) for h in (17, 18, 20) if _future(_at(today, h, now), now)]
            tomorrow = today + timedelta(days=1)
            ends += [_at(tomorrow, h, now) for h in (17, 18)][: max(0, 2 - len(ends))]
            return tuple(ends)
        case "week":
            monday = today - timedelta(days=today.weekday()) + timedelta(days=7 * period.offset)
            days = [monday + timedelta(days=d) for d in (0, 2, 4)]
            if not period.offset:
                days = [today + timedelta(days=1), monday + timedelta(days=4)]
        case "weekend":
            saturday = today + timedelta(days=(5 - today.weekday()) % 7 + 7 * period.offset)
            if today.weekday() == 6 and not period.offset:
                saturday = today - timedelta(days=1)
            days = [saturday, saturday + timedelta(days=1)]
        case "month" | "month_end":
            year, month = divmod(today.year * 12 + today.month - 1 + period.offset, 12)
            month += 1
            last = calendar.monthrange(year, month)[1]
            if period.kind == "month_end":
                days = [date(year, month, max(1, last - 2)), date(year, month, last)]
            elif period.offset:
                days = [date(year, month, 1), date(year, month, min(today.day, last)),
                        date(year, month, 15)]  # fmt: skip
            else:
                days = [date(year, month, 15), date(year, month, last)]
        case "year":
            year = today.year + period.offset
            days = [date(year, 1, 1), date(year, 6, 1)]
            if period.offset:
                days.insert(1, _same_day(today, year))
        case "month_name":
            assert period.month is not None
            year = today.year if period.month >= today.month else today.year + 1
            last = calendar.monthrange(year, period.month)[1]
            days = [date(year, period.month, d) for d in (1, 15, last)]
    future = sorted({d for d in days if _future(_at(d, hour, now, minute), now)})
    if len(future) < 2 and period.kind != "year":
        future = sorted({*future, *(d + timedelta(days=7) for d in days)})
    return tuple(_at(d, hour, now, minute) for d in future[:3])


def period_days(period: Period, today: date) -> tuple[date, date] | None:
    """The first and last day of a period of days ("semana que vem", "em dezembro", "this
    month"), or None for one that is no run of days ("mais tarde")."""
    match period.kind:
        case "week":
            monday = today - timedelta(days=today.weekday()) + timedelta(days=7 * period.offset)
            return max(monday, today), monday + timedelta(days=6)
        case "weekend":
            saturday = today + timedelta(days=(5 - today.weekday()) % 7 + 7 * period.offset)
            if today.weekday() == 6 and not period.offset:
                saturday = today - timedelta(days=1)
            return max(saturday, today), saturday + timedelta(days=1)
        case "month" | "month_end":
            year, month = divmod(today.year * 12 + today.month - 1 + period.offset, 12)
            last = date(year, month + 1, calendar.monthrange(year, month + 1)[1])
            return max(last.replace(day=1), today), last
        case "year":
            year = today.year + period.offset
            return max(date(year, 1, 1), today), date(year, 12, 31)
        case "month_name" if period.month is not None:
            year = today.year if period.month >= today.month else today.year + 1
            last = date(year, period.month, calendar.monthrange(year, period.month)[1])
            return max(last.replace(day=1), today), last
    return None


def _same_day(day: date, year: int) -> date:
    return day.replace(year=year, day=min(day.day, calendar.monthrange(year, day.month)[1]))


def _few_options(period: Period, now: datetime) -> tuple[datetime, ...]:
    base = now.replace(second=0, microsecond=0)
    steps = {
        "second": [timedelta(minutes=1), timedelta(minutes=2)],
        "minute": [timedelta(minutes=m) for m in (5, 10, 15)],
        "hour": [timedelta(hours=h) for h in (2, 3, 4)],
        "day": [timedelta(days=d) for d in (2, 3, 4)],
        "week": [timedelta(weeks=w) for w in (2, 3)],
        "month": [],
        "year": [],
    }[period.unit or "minute"]
    if not steps:
        return tuple(_add_months(base, m) for m in ((2, 3) if period.unit == "month" else (24, 36)))
    return tuple(_plus(base, step) if step < timedelta(days=1) else base + step for step in steps)


def later_today_options(now: datetime) -> tuple[datetime, ...]:
    """ "/remind pagar a conta", with no time: in an hour, this evening, tomorrow at 09:00."""
    return _later_today_options(now, When())


def _later_today_options(now: datetime, when: When) -> tuple[datetime, ...]:
    """ "mais tarde", or "hoje" after its hour: in an hour, this evening, tomorrow."""
    base = now.replace(second=0, microsecond=0)
    options = [_plus(base, timedelta(hours=1))]
    for hour in (18, 20, 22):
        at = _at(now.date(), hour, now)
        if _future(at, _plus(options[0], timedelta(minutes=30))):
            options.append(at)
            break
    hour = DEFAULT_HOUR[when.part.name] if when.part else DEFAULT_HOUR_OF_DAY
    options.append(_at(now.date() + timedelta(days=1), hour, now))
    return tuple(options)


def _weekday_mismatch(
    day: Date, now: datetime, when_time: tuple[int, int, int], tz: tzinfo | None
) -> tuple[datetime, ...] | None:
    """ "segunda, 16 de fevereiro" or "quarta dia 15" when the next such date is not that
    weekday: that date, or that weekday beside it, and for a bare day of the month the next
    one that is that weekday ("sexta dia 13": the next Friday the 13th). Never a date months
    or a year away without asking."""
    hour, minute, shift = when_time
    future = [
        d
        for d in _dates(replace(day, weekday=None), now.date())
        if _future(datetime.combine(d + timedelta(days=shift), time(hour, minute), tz), now)
    ]
    if not future or future[0].weekday() == day.weekday:
        return None
    assert day.weekday is not None
    written = future[0]
    back = (written.weekday() - day.weekday) % 7
    named = written - timedelta(days=back) if back <= 3 else written + timedelta(days=7 - back)
    options = sorted({written, named})
    if day.month is None:
        both = next((d for d in future if d.weekday() == day.weekday), None)
        options += [both] if both is not None and both not in options else []
    return tuple(
        datetime.combine(d + timedelta(days=shift), time(hour, minute), tz)
        for d in options
        if _future(datetime.combine(d + timedelta(days=shift), time(hour, minute), tz), now)
    )


def _invalid_date_options(
    day: Date, now: datetime, when_time: tuple[int, int, int]
) -> tuple[datetime, ...]:
    """ "31/02": the last day that month has, or the first of the next."""
    hour, minute, _ = when_time
    month = day.month or now.month
    year = day.year or now.year
    if day.year is None and (month, day.day) < (now.month, now.day):
        year += 1
    last = calendar.monthrange(year, month)[1]
    first_next = date(year + month // 12, month % 12 + 1, 1)
    options = [_at(date(year, month, last), hour, now, minute), _at(first_next, hour, now, minute)]
    future = tuple(o for o in options if _future(o, now))
    if future:
        return future
    # a year already past ("29/2/01"): the first of that next month in a year still ahead
    ahead = options[-1]
    while not _future(ahead, now):
        ahead = ahead.replace(year=ahead.year + 1)
    return (ahead,)


def time_of_day(when: When) -> tuple[int, int] | None:
    """The hour and minute a clock or part of the day names beside a day, or None when neither."""
    if when.clock is None and when.part is None:
        return None
    hour, minute, _ = _times(when, explicit_day=True)[0]
    return hour, minute
