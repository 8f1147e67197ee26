"""Repeating reminders' occurrences (DESIGN 11.4): an RFC 5545 RRULE computed by python-dateutil.

A rule is read from its first occurrence as a wall time in the user's zone: every
occurrence keeps that wall time ("8:00" stays 8:00 across a change to or from summer
time). A wall time a change skips is the instant just after the gap; one it repeats is
its first. `count` counts from the first occurrence; `until` is the last instant an
occurrence may fall on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, tzinfo

from dateutil.rrule import rrulestr

MAX_COUNT = 1000
MAX_INTERVAL = 1000
_FREQS = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY")
_ALLOWED_PARTS = frozenset(
    {
        "FREQ",
        "INTERVAL",
        "BYDAY",
        "BYMONTHDAY",
        "BYMONTH",
        "BYSETPOS",
        "BYHOUR",
        "COUNT",
        "UNTIL",
        "WKST",
    }
)
_PART = re.compile(r"^[A-Z]+=[A-Z0-9,+\-]+$")


@dataclass(frozen=True, slots=True)
class Rule:
    """An RRULE without DTSTART, COUNT or UNTIL (those are the fields beside it)."""

    rrule: str  # "FREQ=WEEKLY;BYDAY=MO,WE"
    count: int | None = None
    until: datetime | None = None  # aware

    @property
    def freq(self) -> str:
        return self.parts().get("FREQ", "")

    def parts(self) -> dict[str, str]:
        return dict(p.split("=", 1) for p in self.rrule.split(";") if "=" in p)

    def full(self) -> str:
        """The RRULE as RFC 5545 writes it (UNTIL in UTC)."""
        text = self.rrule
        if self.count is not None:
            text += f";COUNT={self.count}"
        if self.until is not None:
            text += ";UNTIL=" + self.until.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        return text


def read_rrule(text: str, zone: tzinfo) -> Rule | None:
    """A model- or file-given RRULE ("RRULE:FREQ=DAILY;COUNT=5"), checked, or None.

    Only the parts a reminder needs are taken; anything else (seconds, minutes, DTSTART)
    is refused rather than guessed.
    """
    body = text.strip().upper()
    body = body.removeprefix("RRULE:")
    parts: dict[str, str] = {}
    for part in filter(None, body.split(";")):
        if not _PART.match(part):
            return None
        key, value = part.split("=", 1)
        if key not in _ALLOWED_PARTS or key in parts:
            return None
        parts[key] = value
    if parts.get("FREQ") not in _FREQS:
        return None
    if parts["FREQ"] == "HOURLY" and set(parts) - {"FREQ", "INTERVAL", "COUNT", "UNTIL"}:
        return None  # hour by hour on some days only: not a reminder's (and slow to check)
    interval = parts.get("INTERVAL", "1")
    if not interval.isdigit() or not 1 <= int(interval) <= MAX_INTERVAL:
        return None  # dateutil takes INTERVAL=0 and repeats one instant for ever
    count = parts.pop("COUNT", None)
    until = parts.pop("UNTIL", None)
    if count is not None and until is not None:
        return None  # RFC 5545 3.3.10: one end or the other (dateutil deprecates both)
    rule = Rule(";".join(f"{k}={v}" for k, v in parts.items()))
    try:
        if count is not None:
            number = int(count)
            if not 1 <= number <= MAX_COUNT:
                return None
            rule = replace(rule, count=number)
        if until is not None:
            rule = replace(rule, until=_read_until(until, zone))
        bounded = rrulestr(rule.rrule + ";UNTIL=20360101T000000", dtstart=datetime(2026, 1, 1))
        if next(iter(bounded), None) is None:  # "every February 30th": never
            return None
    except (ValueError, TypeError, OverflowError):
        return None
    return rule


def _read_until(value: str, zone: tzinfo) -> datetime:
    if value.endswith("Z"):
        return datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    if "T" in value:
        return datetime.strptime(value, "%Y%m%dT%H%M%S").replace(tzinfo=zone)
    day = datetime.strptime(value, "%Y%m%d")
    return day.replace(hour=23, minute=59, second=59, tzinfo=zone)


def _instants(rule: Rule, start: datetime, naive_from: datetime) -> Iterator[datetime]:
    zone = start.tzinfo
    assert zone is not None, "a rule's start is aware"
    naive_start = start.replace(tzinfo=None)
    text = rule.rrule
    if rule.count is not None:
        text += f";COUNT={rule.count}"
    if rule.until is not None:
        text += ";UNTIL=" + rule.until.astimezone(zone).strftime("%Y%m%dT%H%M%S")
    recurrence = rrulestr(text, dtstart=naive_start, cache=False)
    for naive in recurrence.xafter(max(naive_from, naive_start), inc=True):
        yield _placed(naive, zone)


def _placed(naive: datetime, zone: tzinfo) -> datetime:
    """A wall time in `zone`; one a change to summer time skips is the instant after the gap."""
    at = naive.replace(tzinfo=zone)
    back = datetime.fromtimestamp(at.timestamp(), zone).replace(tzinfo=None)
    if back != naive:  # in the gap: the same clock reading just after it
        return datetime.fromtimestamp(at.timestamp(), zone)
    return at


def occurrences(rule: Rule, start: datetime, *, limit: int = 3) -> list[datetime]:
    """The first `limit` occurrences from `start` (itself the first)."""
    out = []
    for at in _instants(rule, start, start.replace(tzinfo=None)):
        out.append(at)
        if len(out) >= limit:
            break
    return out


def next_after(rule: Rule, start: datetime, after: datetime) -> datetime | None:
    """The first occurrence strictly after the instant `after`, or None when the rule ended."""
    zone = start.tzinfo
    assert zone is not None
    local_after = after.astimezone(zone).replace(tzinfo=None) - timedelta(hours=3)
    for at in _instants(rule, start, local_after):
        if at.timestamp() > after.timestamp():
            return at
    return None


_WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def days_moved(rule: Rule, days: int) -> Rule | None:
    """The rule with its days moved by `days` ("toda quarta às 0h30" an hour earlier rings
    on Tuesdays at 23:30), or None when its days cannot simply move (a month's last day, a
    nth weekday, a month named): the caller asks rather than guess."""
    parts = rule.parts()
    if not days or parts.keys() & {"BYMONTH", "BYSETPOS", "BYHOUR"}:
        return rule if not days else None
    if "BYDAY" in parts:
        codes = parts["BYDAY"].split(",")
        if any(code not in _WEEKDAY_CODES for code in codes):
            return None  # "1MO", "-1FR": the nth weekday of a month
        moved = [_WEEKDAY_CODES[(_WEEKDAY_CODES.index(c) + days) % 7] for c in codes]
        parts["BYDAY"] = ",".join(moved)
    if "BYMONTHDAY" in parts:
        said = parts["BYMONTHDAY"].split(",")
        if not all(d.isdigit() for d in said):
            return None  # "-1": counted from the month's end
        monthdays = [int(d) + days for d in said]
        if any(not 1 <= d <= 28 for d in monthdays):
            return None  # past a month's end, or counted from it
        parts["BYMONTHDAY"] = ",".join(str(d) for d in monthdays)
    return replace(rule, rrule=";".join(f"{k}={v}" for k, v in parts.items()))


def first_from(rule: Rule, provisional: datetime, now: datetime) -> datetime | None:
    """The first occurrence after `now` of `rule` read from `provisional` (its wall time and
    phase): the start a new reminder is stored with."""
    unbounded = replace(rule, count=None)  # the count starts at the first occurrence
    for at in _instants(unbounded, provisional, provisional.replace(tzinfo=None)):
        if at.timestamp() > now.timestamp():
            return at
        if at.timestamp() > now.timestamp() + 400 * 86400 * 100:
            break
    return None


def last(rule: Rule, start: datetime) -> datetime | None:
    """The last occurrence of a rule that ends (COUNT or UNTIL), else None."""
    if rule.count is None and rule.until is None:
        return None
    found = None
    for index, at in enumerate(_instants(rule, start, start.replace(tzinfo=None))):
        found = at
        if index > MAX_COUNT * 10:
            break
    return found
