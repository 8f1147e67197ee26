"""Days (PT/EN): hoje/amanhã, weekdays (full and short, "próxima", "que vem", "next"),
dates with month names ("5 de maio", "sexta, 12 de setembro de 2014", "Jul 18, 2014"),
d/m dates (m/d for en-US), days of the month ("dia 15", "the 20th") and the nth
weekday of a month ("primeira terça de outubro", "last friday of march").
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from typing import Literal

from agent.understanding.reminders.lexicon import HYPHENS, Phrases, Tok, glued, text_at
from agent.understanding.reminders.numbers import cardinal, ordinal

WeekMode = Literal["plain", "next_one", "next_week", "after_next", "last"]


@dataclass(frozen=True, slots=True)
class DayOffset:
    """Today (0), tomorrow (1), yesterday (-1)..."""

    days: int


@dataclass(frozen=True, slots=True)
class Weekday:
    day: int  # Monday 0
    # "próxima sexta": next_one; "next friday", "sexta que vem": next_week;
    # "friday after next": after_next; "sexta passada": last
    mode: WeekMode = "plain"
    strong: bool = True  # "segunda", "sex", "sat" alone may well be other words
    later: int = 0  # "3 fridays from now": this many weeks after the coming one


@dataclass(frozen=True, slots=True)
class Date:
    day: int
    month: int | None = None  # None: "dia 15", "the 20th" (the next month that has it)
    year: int | None = None
    invalid: bool = False  # "31/02": read as a date, but no such day
    month_offset: int | None = None  # "dia 15 do mês que vem": the month this many from now
    years_ahead: int | None = None  # "5 de maio do ano que vem"
    weekday: int | None = None  # "sexta dia 13": only a 13th that is a Friday


@dataclass(frozen=True, slots=True)
class NthWeekday:
    """ "primeira terça de outubro" (n=1, Tuesday, October); weekday None: "último dia de abril"."""

    n: int
    weekday: int | None
    month: int | None  # None: the month of `month_offset` from now
    month_offset: int = 0
    year: int | None = None


DayPiece = DayOffset | Weekday | Date | NthWeekday

DAY_WORDS = Phrases(
    {
        # chat spellings of amanhã/tomorrow come from CHAT_FORMS: "dps de amn", "day after tmrw"
        "hoje": 0, "hj": 0, "today": 0, "amanha": 1, "tomorrow": 1, "tomorrows": 1,
        "depois de amanha": 2, "depois d amanha": 2, "day after tomorrow": 2,
        "the day after tomorrow": 2, "ontem": -1, "yesterday": -1, "anteontem": -2,
        "antes de ontem": -2, "day before yesterday": -2, "the day before yesterday": -2,
        "last night": -1, "ontem a noite": -1, "ontem de noite": -1,
    }
)  # fmt: skip

_DAY_WORD_LEADS = Phrases({"ate": True, "by": True, "until": True, "till": True})
_FULL_WEEKDAYS = {
    "segunda": 0, "terca": 1, "quarta": 2, "quinta": 3, "sexta": 4, "sabado": 5, "domingo": 6,
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6,
}  # fmt: skip
_SHORT_WEEKDAYS = {
    "seg": 0, "ter": 1, "qua": 2, "qui": 3, "sex": 4, "sab": 5, "dom": 6, "mon": 0, "tue": 1,
    "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6,
}  # fmt: skip
# words that are also other words: a weekday only with a preposition, "-feira", a dot or a time
_HOMONYMS = frozenset({"segunda", "quarta", "quinta", "sexta", "seg", "ter", "sex", "dom", "wed",
                       "sat", "sun", "qui"})  # fmt: skip
_ORDINAL_WEEKDAYS = {"2": 0, "3": 1, "4": 2, "5": 3, "6": 4}  # "2ª feira"
_LEADS = Phrases(
    {
        "na": "plain", "no": "plain", "nesta": "plain", "neste": "plain", "nessa": "plain",
        "nesse": "plain", "esta": "plain", "este": "plain", "essa": "plain", "esse": "plain",
        "ate": "plain", "ate a": "plain", "ate o": "plain", "proxima": "next_one",
        "proximo": "next_one", "na proxima": "next_one", "no proximo": "next_one",
        "on": "plain", "this": "plain", "this coming": "next_one", "coming": "next_one",
        "on this": "plain", "by": "plain", "until": "plain", "next": "next_week",
        "upcoming": "next_one", "the upcoming": "next_one", "the coming": "next_one",
        "the": "plain", "on the": "plain",
        "last": "last", "on last": "last", "na ultima": "last", "no ultimo": "last",
        "ultima": "last", "ultimo": "last",
        "on next": "next_week", "a proxima": "next_one", "o proximo": "next_one",
    }
)  # fmt: skip
_TRAILS = Phrases(
    {
        "que vem": "next_week", "da semana que vem": "next_week",
        "da proxima semana": "next_week", "semana que vem": "next_week",
        "next week": "next_week", "of next week": "next_week", "desta semana": "plain",
        "proximo": "next_one", "proxima": "next_one", "passada": "last", "passado": "last",
        "after next": "after_next", "depois da proxima": "after_next",
        "depois do proximo": "after_next", "sem ser essa": "after_next",
        "da semana passada": "last", "last week": "last", "of last week": "last",
        "dessa semana": "plain", "this week": "plain", "of this week": "plain", "agora": "plain",
    }
)  # fmt: skip

MONTHS = {
    "janeiro": 1, "fevereiro": 2, "marco": 3, "abril": 4, "maio": 5, "junho": 6, "julho": 7,
    "agosto": 8, "setembro": 9, "outubro": 10, "novembro": 11, "dezembro": 12,
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "fev": 2, "feb": 2, "mar": 3, "abr": 4, "apr": 4, "mai": 5, "jun": 6, "jul": 7,
    "ago": 8, "aug": 8, "set": 9, "sep": 9, "sept": 9, "out": 10, "oct": 10, "nov": 11,
    "dez": 12, "dec": 12,
}  # fmt: skip
# month names that are everyday words: a month only as "5 de dez", "dez 2026", "dia 5 dez"
_WEAK_MONTHS = frozenset({"mar", "set", "out", "ago"})
_DAY_ORDINAL_WORDS = frozenset({
    "primeiro", "primeira", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
    "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth", "thirtieth", "twenty",
    "thirty",
})  # fmt: skip
_DAY_LEADS = Phrases(
    {"dia": True, "no dia": True, "o dia": True, "em": True, "on": True, "on the": True,
     "the": True, "ate o dia": True, "ate dia": True, "by the": True, "until the": True,
     "em dia": True, "para o dia": True, "pro dia": True, "pra dia": True,
     "este dia": True, "esse dia": True, "essa dia": True, "neste dia": True, "nesse dia": True}
)  # fmt: skip
_OF = frozenset({"de", "do", "da", "of", "in"})
# before a range of days with a month: "de 13 a 15 de julho", "between July 13 and 15"
_RANGE_LEADS = Phrases({"de": True, "entre": True, "from": True, "between": True, "do": True})
_DAY_RANGE_LINKS = Phrases({"a": True, "ao": True, "e": True, "to": True, "thru": True,
                            "through": True, "till": True, "until": True, "ate": True,
                            "ate o": True, "and": True})  # fmt: skip
_DAY_FOLLOWERS = frozenset({
    "at", "to", "of", "in", "on", "and", "for", "about", "that", "by", "around", "before",
    "after", "morning", "afternoon", "evening", "night", "tonight", "noon", "midnight", "am",
    "pm", "de", "do", "da", "as", "a", "ao", "e", "pra", "para", "pro", "que", "sobre",
})  # fmt: skip
_MONTH_REFS = Phrases(
    {
        "mes": 0, "month": 0, "este mes": 0, "esse mes": 0, "this month": 0, "the month": 0,
        "mes que vem": 1, "proximo mes": 1, "next month": 1, "the next month": 1,
        "mes seguinte": 1, "following month": 1, "the following month": 1,
        "current month": 0, "mes atual": 0,
    }
)  # fmt: skip
_NTH_LEADS = Phrases({"a": True, "o": True, "the": True, "na": True, "no": True, "on the": True})


def read_day_word(toks: tuple[Tok, ...], i: int) -> tuple[DayOffset, int] | None:
    """ "hoje", "amanhã", "depois de amanhã", "tomorrow", with "até"/"by" before them."""
    lead = _DAY_WORD_LEADS.match(toks, i)
    found = DAY_WORDS.match(toks, lead[1]) if lead else None
    found = found or DAY_WORDS.match(toks, i)
    return (DayOffset(found[0]), found[1]) if found else None


def _weekday_name(toks: tuple[Tok, ...], i: int) -> tuple[int, bool, int] | None:
    """Weekday, whether the name alone is certainly a weekday, index after."""
    word = text_at(toks, i)
    if word in _ORDINAL_WEEKDAYS and text_at(toks, i + 1) in ("a", "o") and glued(toks, i + 1):
        after = i + 2 + (text_at(toks, i + 2) == "-")
        if text_at(toks, after) == "feira":
            return _ORDINAL_WEEKDAYS[word], True, after + 1
        return None
    if word in _FULL_WEEKDAYS:
        day, end = _FULL_WEEKDAYS[word], i + 1
    elif word in _SHORT_WEEKDAYS:
        day, end = _SHORT_WEEKDAYS[word], i + 1
    else:
        return None
    certain = word not in _HOMONYMS
    after = end + (text_at(toks, end) == "-")
    if text_at(toks, after) == "feira":
        return day, True, after + 1
    if text_at(toks, end) == "." and glued(toks, end) and word in _SHORT_WEEKDAYS:
        return day, True, end + 1
    return day, certain, end


def read_weekday(toks: tuple[Tok, ...], i: int) -> tuple[Weekday, int] | None:
    """ "sexta", "na sexta-feira", "seg", "qua.", "fri", "próxima terça", "next friday"."""
    lead = _LEADS.match(toks, i)
    start = lead[1] if lead else i
    found = _weekday_name(toks, start)
    if found is None:
        if lead is None:
            return None
        found = _weekday_name(toks, i)  # "no" was not a lead: "dom" (Sunday)?
        if found is None:
            return None
        lead, start = None, i
    day, certain, end = found
    mode: WeekMode = lead[0] if lead else "plain"  # type: ignore[assignment]
    if trail := _TRAILS.match(toks, end):
        mode = trail[0] if trail[0] != "plain" else mode  # type: ignore[assignment]
        end = trail[1]
        certain = True
    return Weekday(day, mode, certain or lead is not None), end


_FROM_NOW = Phrases({"from now": True, "from today": True, "a partir de hoje": True})
_COUNT_LEADS = Phrases({"daqui a": True, "em": True, "in": True, "dentro de": True})


def read_weekdays_from_now(toks: tuple[Tok, ...], i: int) -> tuple[Weekday, int] | None:
    """ "2 saturdays from now", "daqui a três sextas": the nth of that weekday after today."""
    lead = _COUNT_LEADS.match(toks, i)
    count = cardinal(toks, lead[1] if lead else i)
    if count is None or not 1 <= count[0] <= 52:
        return None
    word, end = text_at(toks, count[1]), count[1] + 1
    if not word.endswith("s") or (day := _FULL_WEEKDAYS.get(word[:-1])) is None:
        return None  # a weekday in the plural: "fridays", "sextas", "sabados"
    if text_at(toks, end) in HYPHENS and text_at(toks, end + 1) == "feiras":
        end += 2
    if (after := _FROM_NOW.match(toks, end)) is not None:
        end = after[1]
    elif lead is None:
        return None  # "3 fridays" alone is a count of days, not a time
    return Weekday(day, "next_one", True, count[0] - 1), end


def _month(toks: tuple[Tok, ...], i: int) -> tuple[int, bool, int] | None:
    """Month, whether the name is weak ("may", "set"), index after (a dot after an abbreviation)."""
    word = text_at(toks, i)
    if word not in MONTHS:
        return None
    end = i + 1
    if text_at(toks, end) == "." and glued(toks, end) and len(word) <= 4:
        end += 1
    return MONTHS[word], word in _WEAK_MONTHS, end


_YEARS = (1900, 2200)  # years read in a date; outside them the calendar arithmetic overflows


def _year(toks: tuple[Tok, ...], i: int) -> tuple[int, int] | None:
    word = text_at(toks, i)
    if word.isdigit() and len(word) == 4 and _YEARS[0] <= int(word) <= _YEARS[1]:
        return int(word), i + 1
    return None


def _day_number(toks: tuple[Tok, ...], i: int) -> tuple[int, bool, int] | None:
    """A day of the month: "5", "05", "5th", "1º", "primeiro", "fifth"; bool: written as ordinal."""
    word = text_at(toks, i)
    found = ordinal(toks, i)
    if found is not None and 1 <= found[0] <= 31:
        if word.isdigit() or word in _DAY_ORDINAL_WORDS:
            return found[0], True, found[1]
    if word.isdigit() and len(word) <= 2 and 1 <= int(word) <= 31:
        return int(word), False, i + 1
    return None


def read_month_date(toks: tuple[Tok, ...], i: int) -> tuple[Date, int] | None:
    """ "5 de maio", "dia 15 de agosto", "12 de setembro de 2014", "May 5th", "Jul 18, 2014",
    "the 5th of May", "May the 4th"."""
    lead = _DAY_LEADS.match(toks, i) or _RANGE_LEADS.match(toks, i)
    for start in (lead[1], i) if lead else (i,):
        found = _day_first(toks, start) or _month_first(toks, start)
        if found is not None:
            return found
    return None


def _day_first(toks: tuple[Tok, ...], i: int) -> tuple[Date, int] | None:
    day = _day_number(toks, i)
    if day is None:
        spelled = cardinal(toks, i)  # "seis de outubro": in words, only with "de"/"of"
        if spelled is None or not 1 <= spelled[0] <= 31 or text_at(toks, i).isdigit():
            return None
        if text_at(toks, spelled[1]) not in _OF:
            return None
        day = (spelled[0], False, spelled[1])
    number, _, j = day
    j = _range_end(toks, j)  # "13 a 15 de julho": from the 13th
    linked = text_at(toks, j) in _OF
    month = _month(toks, j + 1 if linked else j)
    if month is None:
        return None
    month_number, weak, end = month
    year, end = _year_after(toks, end)
    if weak and not (linked or year is not None or _after_weekday(toks, i)):
        return None
    return _date(number, month_number, year), end


def _month_first(toks: tuple[Tok, ...], i: int) -> tuple[Date, int] | None:
    month = _month(toks, i)
    if month is None:
        return None
    month_number, weak, j = month
    if text_at(toks, j) == "the":
        j += 1
    day = _day_number(toks, j)
    if day is None or (text_at(toks, j + 1) == ":" and glued(toks, j + 1)):
        return None
    number, as_ordinal, end = day
    if weak and not as_ordinal and text_at(toks, j - 1) != "the" and not _after_weekday(toks, i):
        if _year_after(toks, end)[0] is None:
            return None  # "may 5" alone could be "may 5 people..."; "Fri, Mar 21" is a date
    end = _range_end(toks, end, month_number)  # "July 13-15", "July 13 to July 15"
    year, end = _year_after(toks, end)
    return _date(number, month_number, year), end


def _after_weekday(toks: tuple[Tok, ...], i: int) -> bool:
    """Whether a weekday name stands right before token `i` ("Fri, Mar 21", "sex. 21 set")."""
    k = i - 1
    if text_at(toks, k) == ",":
        k -= 1
    if text_at(toks, k) == "." and k > 0:
        k -= 1
    word = text_at(toks, k)
    return k >= 0 and (word in _FULL_WEEKDAYS or word in _SHORT_WEEKDAYS or word == "feira")


def _range_end(toks: tuple[Tok, ...], i: int, month: int | None = None) -> int:
    """Past the end of a range of days after its first day ("-15", "a 15", "to July 15"): a
    reminder for a range is due when it opens."""
    link = _DAY_RANGE_LINKS.match(toks, i)
    j = link[1] if link else (i + 1 if text_at(toks, i) in HYPHENS else None)
    if j is None:
        return i
    if month is not None and (named := _month(toks, j)) is not None and named[0] == month:
        j = named[2]
    day = _day_number(toks, j)
    return day[2] if day is not None else i


def _year_after(toks: tuple[Tok, ...], i: int) -> tuple[int | None, int]:
    j = i + (text_at(toks, i) == ",")
    if text_at(toks, j) in ("de", "of"):
        j += 1
    found = _year(toks, j)
    return (found[0], found[1]) if found else (None, i)


def _date(day: int, month: int, year: int | None) -> Date:
    return Date(day, month, year, invalid=not _valid(day, month, year))


def _valid(day: int, month: int, year: int | None) -> bool:
    if not 1 <= month <= 12:
        return False
    return 1 <= day <= calendar.monthrange(year or 2024, month)[1]


def read_numeric_date(
    toks: tuple[Tok, ...], i: int, *, month_first: bool
) -> tuple[Date, int] | None:
    """ "15/03", "15/03/2026", "2026-03-15", "15.03.2026"; "4/25" is m/d since d/m cannot be."""
    lead = _DAY_LEADS.match(toks, i)
    start = lead[1] if lead else i
    parts: list[str] = []
    seps: set[str] = set()
    j = start
    while text_at(toks, j).isdigit() and len(parts) < 3:
        parts.append(text_at(toks, j))
        sep = text_at(toks, j + 1)
        if sep not in ("/", "-", ".") or not glued(toks, j + 1) or not glued(toks, j + 2):
            j += 1
            break
        if not text_at(toks, j + 2).isdigit():
            j += 1
            break
        seps.add(sep)
        j += 2
    if len(parts) < 2 or len(seps) != 1 or any(len(p) > 4 for p in parts):
        return None
    sep = seps.pop()
    if sep in ("-", ".") and len(parts) == 2 and not (sep == "." and lead):
        return None  # "3-4 dias", "2.5 horas"; but "dia 15.03"
    if len(parts[0]) == 4:  # ISO: 2026-03-15
        if len(parts) != 3:
            return None
        year, month, day = (int(p) for p in parts)
        if not _YEARS[0] <= year <= _YEARS[1] and 1 <= month <= 12 and 1 <= day <= 31:
            return Date(day, month, invalid=True), j
        return _date(day, month, year), j
    if any(len(p) > 2 for p in parts[:2]) or (len(parts) == 3 and len(parts[2]) not in (2, 4)):
        return None
    first, second = int(parts[0]), int(parts[1])
    year_value = None
    if len(parts) == 3:
        year_value = int(parts[2]) + (2000 if len(parts[2]) == 2 else 0)
    day, month = (second, first) if month_first else (first, second)
    if month > 12 and day <= 12:
        day, month = month, day  # only one reading is a date
    if month > 12 or day > 31 or day == 0 or month == 0:
        return None
    if year_value is not None and not _YEARS[0] <= year_value <= _YEARS[1]:
        return Date(day, month, invalid=True), j  # "1/1/9999": ask which day
    return _date(day, month, year_value), j


def read_day_of_month(toks: tuple[Tok, ...], i: int) -> tuple[Date, int] | None:
    """ "dia 15", "no dia 3", "dia primeiro", "the 20th", "on the 15th"."""
    lead = _DAY_LEADS.match(toks, i)
    if lead is None and (of_month := _day_of_a_month(toks, i)) is not None:
        return of_month
    if lead is None or text_at(toks, i) in ("the", "on", "em", "by", "until"):
        start = lead[1] if lead else i  # "17th", "the 20th", "on the 15th": English ordinals
        day = _day_number(toks, start)
        if day is None or (text_at(toks, i) == "em" and not day[1]):
            return None
        if lead is None and text_at(toks, day[2] - 1) not in ("st", "nd", "rd", "th"):
            return None
        if lead is not None and lead[1] == i + 1 and not day[1]:
            return None  # "the 20" is not a day; "on the 20" is
        following = text_at(toks, day[2])
        if (
            following.isalpha()
            and following not in _DAY_FOLLOWERS
            and text_at(toks, i) != "on"
            and not _after_weekday(toks, i)
        ):
            return None  # "the 3rd chapter"; "on the 15th pay", "thursday the 17th pay": a day
        return Date(day[0]), day[2]
    start = lead[1]
    day = _day_number(toks, start)
    if day is None:
        found = cardinal(toks, start)  # "dia quinze"
        if found is None or not 1 <= found[0] <= 31:
            return None
        day = (found[0], False, found[1])
    number, _, end = day
    if text_at(toks, end) in ("/", ":", "-") and glued(toks, end):
        return None
    return Date(number), end


def _day_of_a_month(toks: tuple[Tok, ...], i: int) -> tuple[Date, int] | None:
    """ "20 of next month", "20th day of the next month", "20 do mês que vem": a bare number
    is a day when a month follows it; the month itself is read as a period."""
    day = _day_number(toks, i)
    if day is None:
        return None
    end = day[2] + (text_at(toks, day[2]) in ("day", "dia"))
    j = end
    if text_at(toks, j) not in _OF:
        return None
    j += 1 + (text_at(toks, j + 1) in ("o", "the"))
    return (Date(day[0]), end) if _MONTH_REFS.match(toks, j) else None


def read_nth_weekday(toks: tuple[Tok, ...], i: int) -> tuple[NthWeekday, int] | None:
    """ "primeira terça de outubro", "the last friday of march", "último dia do mês"."""
    lead = _NTH_LEADS.match(toks, i)
    start = lead[1] if lead else i
    found = ordinal(toks, start)
    if found is None or not (1 <= found[0] <= 5 or found[0] in (-1, -2)):
        return None
    n, j = found
    weekday: int | None
    if text_at(toks, j) in ("dia", "day"):
        weekday, j = None, j + 1
    else:
        name = _weekday_name(toks, j)
        if name is None:
            return None
        weekday, _, j = name
    if text_at(toks, j) not in _OF:
        return None
    j += 1
    if text_at(toks, j) in ("o", "the"):
        j += 1
    if month := _month(toks, j):
        year, end = _year_after(toks, month[2])
        return NthWeekday(n, weekday, month[0], 0, year), end
    if ref := _MONTH_REFS.match(toks, j):
        return NthWeekday(n, weekday, None, ref[0]), ref[1]
    return None
