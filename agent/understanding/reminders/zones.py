"""Time zones named beside a clock: "8:00 PST", "15h UTC", "10h GMT-3", "18h BRT",
"9am UTC+5:30", "10h horário de Brasília". The clock is read in that zone and the
reminder is set at the same instant in the user's zone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo

from agent.understanding.reminders.lexicon import Phrases, Tok, glued, text_at

# Abbreviations read as fixed offsets (hours), as written: PST is -8 even in July.
ABBREVIATIONS = {
    "utc": 0.0, "gmt": 0.0, "z": 0.0, "brt": -3.0, "brst": -2.0, "pst": -8.0,
    "pdt": -7.0, "mst": -7.0, "mdt": -6.0, "cst": -6.0, "cdt": -5.0, "est": -5.0, "edt": -4.0,
    "akst": -9.0, "akdt": -8.0, "hst": -10.0, "bst": 1.0, "cet": 1.0, "cest": 2.0,
    "eet": 2.0, "eest": 3.0, "msk": 3.0, "ist": 5.5, "jst": 9.0, "kst": 9.0, "aest": 10.0,
    "aedt": 11.0, "nzst": 12.0, "nzdt": 13.0, "sgt": 8.0, "hkt": 8.0,
}  # fmt: skip
NAMED = Phrases(
    {
        "horario de brasilia": "America/Sao_Paulo", "hora de brasilia": "America/Sao_Paulo",
        "brasilia time": "America/Sao_Paulo", "horario de lisboa": "Europe/Lisbon",
        "hora de lisboa": "Europe/Lisbon", "hora de portugal": "Europe/Lisbon",
        "horario de portugal": "Europe/Lisbon", "eastern time": "America/New_York",
        "pacific time": "America/Los_Angeles", "central time": "America/Chicago",
        "mountain time": "America/Denver", "horario de nova york": "America/New_York",
        "new york time": "America/New_York", "london time": "Europe/London",
        "hora de londres": "Europe/London", "horario de londres": "Europe/London",
    }
)  # fmt: skip
_OPTIONAL_LEADS = Phrases({"no": True, "pelo": True, "in": True, "de": True})


@dataclass(frozen=True, slots=True)
class Zone:
    label: str  # as the user wrote it, for the reply: "PST", "GMT-3"
    tz: tzinfo


def read_zone(toks: tuple[Tok, ...], i: int) -> tuple[Zone, int] | None:
    """A time zone starting at token `i` ("PST", "(BST)", "GMT-3"), or None."""
    if text_at(toks, i) == "(":
        inside = read_zone(toks, i + 1)
        if inside is not None and text_at(toks, inside[1]) == ")":
            return inside[0], inside[1] + 1
        return None
    lead = _OPTIONAL_LEADS.match(toks, i)
    for start in (lead[1], i) if lead else (i,):
        if named := NAMED.match(toks, start):
            label = " ".join(t.text for t in toks[start : named[1]])
            return Zone(label, ZoneInfo(named[0])), named[1]
    word = text_at(toks, i)
    if word not in ABBREVIATIONS or (word == "z" and not glued(toks, i)):
        return None
    hours, end = ABBREVIATIONS[word], i + 1
    label = word.upper()
    if word in ("utc", "gmt"):
        offset = _offset(toks, end)
        if offset is not None:
            hours, end = offset
            label += "".join(t.text for t in toks[i + 1 : end])
    return Zone(label, timezone(timedelta(hours=hours))), end


def _offset(toks: tuple[Tok, ...], i: int) -> tuple[float, int] | None:
    """ "-3", "+5:30", "-0300", "+1"."""
    sign = text_at(toks, i)
    digits = text_at(toks, i + 1)
    if sign not in ("+", "-", "\u2212") or not digits.isdigit():
        return None
    if len(digits) in (3, 4):
        hours, minutes = int(digits[:-2]), int(digits[-2:])
        end = i + 2
    else:
        hours, minutes, end = int(digits), 0, i + 2
        if text_at(toks, end) == ":" and text_at(toks, end + 1).isdigit():
            minutes, end = int(text_at(toks, end + 1)), end + 2
    if hours > 14 or minutes > 59:
        return None
    value = hours + minutes / 60
    return (-value if sign != "+" else value), end
