"""Clock times (PT/EN): "15h", "15h30", "3:15p", "at 1030", "às 3 e meia", "meio-dia e quinze",
"quinze para as oito", "a quarter past 3pm", "dezoito", "seven thirty", "7 o'clock".

A clock says whether it is fixed (24-hour: "15h", "08:00", "0h", noon) or ambiguous
between a.m. and p.m. ("às 3", "8h", "7:30"); the placing decides which half an
ambiguous one means. A clock is strong when a preposition or a marker says it is a
time; a bare number ("sexta 10") counts only beside a day.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from agent.understanding.reminders.lexicon import HYPHENS, Phrases, Tok, glued, text_at
from agent.understanding.reminders.numbers import AND, TENS, UNITS, cardinal

Meridiem = Literal["am", "pm"]

PREFIXES = Phrases(
    {
        "as": "at", "a": "article", "ao": "article", "ate as": "by", "ate a": "by", "ate o": "by",
        "pelas": "at", "pela": "at", "por volta das": "at", "por volta da": "at",
        "por volta do": "at", "perto das": "at", "la pelas": "at", "a partir das": "at",
        "depois das": "at", "antes das": "by", "antes do": "by", "das": "at",
        "depois do": "at", "depois da": "at", "apos": "at", "apos as": "at", "apos a": "at",
        "apos o": "at", "desde": "at", "desde as": "at", "desde a": "at", "desde o": "at",
        "aproximadamente": "at", "aproximadamente as": "at",
        "at": "at", "by": "by", "around": "at", "about": "at", "at around": "at",
        "at about": "at", "before": "by", "after": "at", "until": "by", "till": "by",
        "@": "at", "from": "at", "since": "at", "approximately": "at", "approx": "at",
    }
)  # fmt: skip
NOON_MIDNIGHT = Phrases(
    {"meio dia": 12, "meiodia": 12, "noon": 12, "midday": 12, "12 noon": 12,
     "meia noite": 0, "meianoite": 0, "midnight": 0, "12 midnight": 0}
)  # fmt: skip
HOUR_WORDS = Phrases({"horas": True, "hora": True, "h": True, "hs": True, "hrs": True, "hr": True})
MINUTE_WORDS = frozenset({"minutos", "minuto", "min", "mins", "minutes", "minute", "m"})
EXACT = Phrases({"o'clock": True, "oclock": True, "em ponto": True, "sharp": True, "ish": True,
                 "approximately": True, "approx": True, "aproximadamente": True})  # fmt: skip
MERIDIEMS = Phrases(
    {"am": "am", "pm": "pm", "a.m.": "am", "p.m.": "pm", "a.m": "am", "p.m": "pm",
     "a . m .": "am", "p . m .": "pm", "p m": "pm", "a m": "am", "in the am": "am",
     "in the pm": "pm"}
)  # fmt: skip
_TO = frozenset({"para", "pras", "pra", "to", "till", "til", "before", "of"})
_TO_ARTICLES = frozenset({"as", "a", "o"})
_PAST = frozenset({"past", "after"})
RANGE_LEADS = Phrases({"from": True, "between": True, "das": True, "entre": True,
                       "entre as": True, "from about": True})  # fmt: skip
RANGE_LINKS = Phrases({"to": True, "till": True, "until": True, "and": True,
                       "as": True, "a": True, "e": True, "ate": True, "ate as": True,
                       "through": True, "and about": True})  # fmt: skip
_OPEN_LINKS = frozenset({"till", "until", "through", "thru", "ate"})
# what may follow "at 5 30": the task's link word or more of the time ("in the afternoon")
_AFTER_SPOKEN_MINUTES = frozenset({"", "to", "de", "da", "do", "pra", "para", "that", ",", ".",
                                   "in", "on", "this", "tonight", "tomorrow", "today", "hoje",
                                   "amanha", "na", "no", "a", "of", "e", "and", "hrs", "h"})  # fmt: skip
_DAY_BEFORE = frozenset({
    "hoje", "hj", "amanha", "today", "tomorrow", "tmrw", "tonight", "segunda", "terca", "quarta",
    "quinta", "sexta", "sabado", "domingo", "feira", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday",
})  # fmt: skip
_QUARTERS = Phrases({"um quarto": 15, "quarter": 15, "a quarter": 15, "half": 30, "meia": 30})


@dataclass(frozen=True, slots=True)
class Clock:
    hour: int  # 0-23, or 1-12 when ambiguous
    minute: int = 0
    meridiem: Meridiem | None = None
    fixed: bool = False  # 24-hour form, noon or midnight: never moved by 12 hours
    strong: bool = True  # a preposition or a marker says it is a time
    # "meia-noite", "midnight", "24h": beside a day, the end of that day ("amanhã à meia-noite"
    # is the night from tomorrow into the day after), not the 00:00 that starts it
    end_of_day: bool = False
    # written in hours, "6h", "6h40", "6 horas": PT's 24-hour way of writing a time
    hours_form: bool = field(default=False, compare=False)

    @property
    def ambiguous(self) -> bool:
        """Could be a.m. or p.m.: "às 3", "8h", "7:30". "12" alone is noon ("12h", "at 12:30")."""
        return self.meridiem is None and not self.fixed and 1 <= self.hour <= 11

    def in_half(self, meridiem: Meridiem) -> tuple[int, int]:
        """Hour and minute when this (ambiguous) clock is read in the given half of the day."""
        hour = self.hour % 12
        return (hour + 12 if meridiem == "pm" else hour), self.minute

    def fixed_time(self) -> tuple[int, int]:
        """Hour and minute of a clock that is not ambiguous."""
        if self.meridiem is not None:
            return self.in_half(self.meridiem)
        return self.hour % 24, self.minute


def read_clock(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    """A clock time starting at token `i` (with its preposition), or None.

    A range ("das 3 às 5 da tarde", "between 2 and 4pm", "3-5pm") is its start: the
    reminder is due when the range opens, in the half of the day its end names.
    """
    lead = RANGE_LEADS.match(toks, i)
    if lead is not None and (ranged := _range(toks, lead[1])) is not None:
        return replace(ranged[0], strong=True), ranged[1]  # "between 2 and 4": a time
    single = _one_clock(toks, i)
    if single is not None and _opens_range(toks, single[1]):
        if (ranged := _range(toks, i)) is not None:  # "3-5pm", "9:30 till 11:00"
            return ranged
    return single


def _opens_range(toks: tuple[Tok, ...], i: int) -> bool:
    """Whether what follows a clock makes it a range's start: a hyphen, "till"/"até", or
    "to"/"às" before a clock said as one ("3:30 to 6 PM"; not "at 3 to pay 2 bills")."""
    word = text_at(toks, i)
    if word in HYPHENS or word in _OPEN_LINKS:
        return True
    link = RANGE_LINKS.match(toks, i)
    if link is None or word in AND:
        return False
    end = _one_clock(toks, link[1])
    return end is not None and end[0].strong


def _range(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    for first in _range_starts(toks, i):
        link = RANGE_LINKS.match(toks, first[1])
        if link is None and text_at(toks, first[1]) in HYPHENS:
            link = (True, first[1] + 1)
        second = _one_clock(toks, link[1]) if link is not None else None
        if second is not None:
            return _range_start(first[0], second[0]), second[1]
    return None


def _range_starts(toks: tuple[Tok, ...], i: int) -> list[tuple[Clock, int]]:
    """The clock a range opens with: as read, or the bare hour ("entre 2 e 4": 2, not 2:04)."""
    starts = [found] if (found := _one_clock(toks, i)) is not None else []
    if found is not None and found[0].minute == 0:
        # "das 5 30 às 6": minutes said apart, then the range's link
        spoken, after = text_at(toks, found[1]), found[1] + 1
        linked = RANGE_LINKS.match(toks, after) is not None or text_at(toks, after) in HYPHENS
        if len(spoken) == 2 and spoken.isdigit() and int(spoken) < 60 and linked:
            starts.insert(0, (replace(found[0], minute=int(spoken)), after))
    prefix = PREFIXES.match(toks, i)
    hour = cardinal(toks, prefix[1] if prefix else i)
    if hour is not None and 0 <= hour[0] <= 23:
        starts.append((Clock(hour[0], 0, None, hour[0] > 12 or hour[0] == 0, False), hour[1]))
    return starts


def _range_start(clock: Clock, end: Clock) -> Clock:
    """The start of a range, in the half of the day its end names ("3-5pm": 15:00)."""
    if clock.ambiguous and end.meridiem is not None:
        meridiem = end.meridiem
        if meridiem == "pm" and clock.hour > end.hour % 12:
            meridiem = "am"  # "11-1pm": from 11 in the morning
        clock = replace(clock, meridiem=meridiem)
    return replace(clock, strong=clock.strong or end.strong)


def _one_clock(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    prefix = PREFIXES.match(toks, i)
    start = prefix[1] if prefix else i
    # "às 15.30", "amanhã 15.30": a dot is a clock's after a preposition or right after a day
    timed = (prefix is not None and prefix[0] != "article") or (
        i > 0 and text_at(toks, i - 1) in _DAY_BEFORE
    )
    for reader in (_noon, _minutes_to, _minutes_past, _half_hour, _digits, _words):
        found = _digits(toks, start, dotted=timed) if reader is _digits else reader(toks, start)
        if found is None:
            continue
        clock, end = found
        clock, end = _tail(toks, clock, end)
        if not (0 <= clock.hour <= 24 and 0 <= clock.minute <= 59):
            return None
        if clock.meridiem and not 1 <= clock.hour <= 12:
            return None  # "15pm"
        if prefix and prefix[0] == "article" and reader in (_digits, _words) and not clock.strong:
            if not (text_at(toks, start) == "1" and text_at(toks, end) == "da"):
                return None  # "ir a uma festa", "a 5 minute break"; but "à 1 da manhã", "à 1h"
        if reader is _digits and len(text_at(toks, start)) > 2:
            if not prefix and clock.meridiem is None:
                return None  # "1030" is a clock only after "at"/"às" or with am/pm
        if clock.hour == 24:
            clock = Clock(0, clock.minute, None, True, clock.strong, end_of_day=True)
        if prefix and not clock.strong:
            clock = replace(clock, strong=True)
            spoken = text_at(toks, end)
            if len(spoken) == 2 and spoken.isdigit() and int(spoken) < 60:
                if text_at(toks, end + 1) in _AFTER_SPOKEN_MINUTES:  # "at 3 15 to pay"
                    clock = replace(clock, minute=int(spoken))
                    end += 1
                    if text_at(toks, end) in ("h", "hrs"):
                        end += 1  # "às 5 30 h": the unit belongs to the clock, not the task
        return clock, end
    return None


def _tail(toks: tuple[Tok, ...], clock: Clock, i: int) -> tuple[Clock, int]:
    """Meridiem and "o'clock"/"em ponto" after a clock, in either order."""
    meridiem: Meridiem | None = clock.meridiem
    strong = clock.strong
    for _ in range(2):
        if meridiem is None and (found := _meridiem(toks, i)):
            meridiem, i = found
            strong = True
        elif found_exact := EXACT.match(toks, i):
            i = found_exact[1]
            strong = True
    fixed = clock.fixed and meridiem is None
    return replace(clock, meridiem=meridiem, fixed=fixed, strong=strong), i


def _meridiem(toks: tuple[Tok, ...], i: int) -> tuple[Meridiem, int] | None:
    found = MERIDIEMS.match(toks, i)
    if found is not None:
        return found  # type: ignore[return-value]
    word = text_at(toks, i)
    if word in ("a", "p") and glued(toks, i):
        return ("am" if word == "a" else "pm"), i + 1  # "3p", "3:15p"
    return None


def _noon(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    found = NOON_MIDNIGHT.match(toks, i)
    if found is None:
        return None
    hour, end = found
    minute, end = _minutes_after_and(toks, end)
    return Clock(hour, minute, None, True, end_of_day=hour == 0), end


def _minutes_after_and(toks: tuple[Tok, ...], i: int) -> tuple[int, int]:
    """ "e quinze", "e meia", "e 15 minutos" after an hour; (0, i) when absent.

    English "and" takes only a half or a quarter: "between 2 and 4" is a range, not 2:04.
    """
    if text_at(toks, i) not in AND:
        return 0, i
    quarter = _QUARTERS.match(toks, i + 1)
    if quarter is not None:
        return quarter[0], quarter[1]
    if text_at(toks, i) == "and":
        return 0, i
    found = cardinal(toks, i + 1)
    if found is None or not 0 < found[0] < 60:
        return 0, i
    minute, end = found
    if HOUR_WORDS.match(toks, end) or text_at(toks, end) in (":", "am", "pm"):
        return 0, i  # "8h e 20h", "às 8 e 20:30": a second clock, not minutes
    if text_at(toks, end) in MINUTE_WORDS:
        end += 1
    return minute, end


def _hour(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    """The hour of "quinze para as oito" / "quarter to 8": a number, a word, noon or midnight."""
    if found := _noon(toks, i):
        return found
    found_number = cardinal(toks, i)
    if found_number is None or not 0 <= found_number[0] <= 23:
        return None
    hour, end = found_number
    if HOUR_WORDS.match(toks, end):
        end += 1
    return Clock(hour, 0, None, hour > 12 or hour == 0), end


def _minute_amount(toks: tuple[Tok, ...], i: int) -> tuple[int, int] | None:
    """The minutes of "quinze para as oito", "ten past six": a quarter, a half, a multiple of
    five, or any number said with "minutes" ("from 3 to 5" is a range, not 4:57)."""
    if quarter := _QUARTERS.match(toks, i):
        return quarter
    found = cardinal(toks, i)
    if found is None or not 0 < found[0] < 60:
        return None
    minute, end = found
    if text_at(toks, end) in MINUTE_WORDS:
        return minute, end + 1
    return (minute, end) if minute % 5 == 0 else None


def _minutes_to(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    """ "quinze para as oito", "quinze pras oito", "a quarter to 8", "ten to five"."""
    found = _minute_amount(toks, i)
    if found is None or text_at(toks, found[1]) not in _TO:
        return None
    minutes, j = found
    j += 1
    if text_at(toks, j) in _TO_ARTICLES:
        j += 1
    hour = _hour(toks, j)
    if hour is None:
        return None
    clock, end = hour
    total = (clock.hour * 60 - minutes) % (24 * 60)
    hour_value, minute = divmod(total, 60)
    if clock.fixed and clock.hour == 12:  # "quinze para o meio-dia": 11:45 in the morning
        return Clock(hour_value, minute, "am"), end
    if clock.fixed:  # "dez para a meia-noite": 23:50; "quinze para as 18h": 17:45
        return Clock(hour_value, minute, None, True), end
    return Clock(hour_value or 12, minute), end  # "quinze para a uma": 12:45


def _minutes_past(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    """ "a quarter past 3", "half past three", "twenty after six", "15 minutes from 1pm"."""
    found = _minute_amount(toks, i)
    if found is None:
        return None
    word = text_at(toks, found[1])
    said_minutes = text_at(toks, found[1] - 1) in MINUTE_WORDS
    if word not in _PAST and not (word == "from" and said_minutes):
        return None
    minutes, j = found
    hour = _hour(toks, j + 1)
    if hour is None:
        return None
    clock, end = hour
    return Clock(clock.hour, minutes, None, clock.fixed, end_of_day=clock.end_of_day), end


def _half_hour(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    """British "half three": 3:30."""
    if text_at(toks, i) != "half":
        return None
    hour = _hour(toks, i + 1)
    if hour is None or hour[0].fixed or hour[0].hour > 12:
        return None
    return Clock(hour[0].hour, 30), hour[1]


def _digits(toks: tuple[Tok, ...], i: int, *, dotted: bool = False) -> tuple[Clock, int] | None:
    """ "15h", "15:30", "3 e meia", "1030"; "15.30" only after "às"/"at" (`dotted`) or with am/pm,
    since alone it is as likely an amount ("pagar 12.50 amanhã")."""
    word = text_at(toks, i)
    if not word.isdigit():
        return None
    if len(word) in (3, 4):  # "1030", "0930": a clock only after "at"/"às" or with am/pm
        hour, minute = int(word[:-2]), int(word[-2:])
        return Clock(hour, minute, None, word[0] == "0" or hour > 12, strong=False), i + 1
    if len(word) > 2:
        return None
    hour = int(word)
    fixed = hour > 12 or hour == 0 or (len(word) == 2 and word[0] == "0")
    sep, after = text_at(toks, i + 1), text_at(toks, i + 2)
    if sep in (":", ".", "h") and after.isdigit() and len(after) == 2:
        if (
            glued(toks, i + 1)
            and glued(toks, i + 2)
            and (sep != "." or dotted or _meridiem(toks, i + 3))
        ):
            end = i + 3
            if text_at(toks, end) == ":" and len(text_at(toks, end + 1)) == 2 and glued(toks, end):
                end += 2  # "15:23:24": the seconds are read and dropped
            if text_at(toks, end) in MINUTE_WORDS or text_at(toks, end) in ("hs", "h"):
                end += 1
            return Clock(hour, int(after), None, fixed, hours_form=sep == "h"), end
    marked = HOUR_WORDS.match(toks, i + 1)
    if marked is not None:
        end = marked[1]
        if text_at(toks, end).isdigit() and glued(toks, end) and len(text_at(toks, end)) == 2:
            minute, end = int(text_at(toks, end)), end + 1  # "15hs30"
            if text_at(toks, end) in MINUTE_WORDS:
                end += 1
            return Clock(hour, minute, None, fixed, hours_form=True), end
        minute, end = _minutes_after_and(toks, end)
        return Clock(hour, minute, None, fixed, hours_form=True), end
    minute, end = _minutes_after_and(toks, i + 1)
    if end > i + 1:
        return Clock(hour, minute, None, fixed), end  # "3 e meia", "15 e 30"
    spoken = text_at(toks, i + 1)
    if spoken.isdigit() and len(spoken) == 2 and int(spoken) < 60 and _meridiem(toks, i + 2):
        return Clock(hour, int(spoken), None, fixed), i + 2  # "3 15 pm"
    return Clock(hour, 0, None, fixed, strong=False), i + 1


def _words(toks: tuple[Tok, ...], i: int) -> tuple[Clock, int] | None:
    """ "três e meia", "dezoito horas", "seven thirty", "nine oh five"."""
    word = text_at(toks, i)
    if word not in UNITS and word not in TENS:
        return None
    found = cardinal(toks, i)
    if found is None or not 1 <= found[0] <= 23:
        return None
    hour, end = found
    strong = False
    if marked := HOUR_WORDS.match(toks, end):
        end = marked[1]
        strong = True
    minute, after = _minutes_after_and(toks, end)
    if after > end:
        return Clock(hour, minute, None, hour > 12), after
    if not strong and hour <= 12:  # EN "seven thirty", "nine oh five"
        spoken = _spoken_minutes(toks, end)
        if spoken is not None:
            return Clock(hour, spoken[0]), spoken[1]
    return Clock(hour, 0, None, hour > 12, strong), end


def _spoken_minutes(toks: tuple[Tok, ...], i: int) -> tuple[int, int] | None:
    word = text_at(toks, i)
    if word == "oh":
        unit = UNITS.get(text_at(toks, i + 1))
        return (unit, i + 2) if unit is not None and 1 <= unit <= 9 else None
    if word in TENS or (word in UNITS and 10 <= UNITS[word] <= 19):
        return cardinal(toks, i)
    return None
