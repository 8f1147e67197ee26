"""Holidays a reminder can name ("no Natal", "on Thanksgiving", "Dia das Mães"), from a small
table by country, and the country a time zone is in.

A holiday the user's country keeps has its date; one whose date differs between the
countries in the table, for a user whose country is not among them, gets a question.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from agent.understanding.reminders.lexicon import Phrases, Tok

Country = Literal["BR", "US", "PT"]


@dataclass(frozen=True, slots=True)
class Fixed:
    month: int
    day: int


@dataclass(frozen=True, slots=True)
class NthOfMonth:
    month: int
    n: int  # -1: the last
    weekday: int  # Monday 0
    shift: int = 0  # days after that weekday (Black Friday: the day after Thanksgiving)


@dataclass(frozen=True, slots=True)
class FromEaster:
    days: int


Rule = Fixed | NthOfMonth | FromEaster
ANY = "*"

# key -> country (or ANY) -> rule
TABLE: dict[str, dict[str, Rule]] = {
    "christmas": {ANY: Fixed(12, 25)},
    "christmas_eve": {ANY: Fixed(12, 24)},
    "new_year": {ANY: Fixed(1, 1)},
    "new_year_eve": {ANY: Fixed(12, 31)},
    "easter": {ANY: FromEaster(0)},
    "good_friday": {ANY: FromEaster(-2)},
    "carnival": {ANY: FromEaster(-47)},
    "ash_wednesday": {ANY: FromEaster(-46)},
    "corpus_christi": {ANY: FromEaster(60)},
    "halloween": {ANY: Fixed(10, 31)},
    "valentines": {ANY: Fixed(2, 14)},
    "st_patrick": {ANY: Fixed(3, 17)},
    "ides_of_march": {ANY: Fixed(3, 15)},
    "workers_day": {ANY: Fixed(5, 1)},
    "mothers_day": {
        "BR": NthOfMonth(5, 2, 6),
        "US": NthOfMonth(5, 2, 6),
        "PT": NthOfMonth(5, 1, 6),
    },
    "fathers_day": {"BR": NthOfMonth(8, 2, 6), "US": NthOfMonth(6, 3, 6), "PT": Fixed(3, 19)},
    "namorados": {"BR": Fixed(6, 12), "PT": Fixed(2, 14), "US": Fixed(2, 14)},
    "thanksgiving": {"US": NthOfMonth(11, 4, 3)},
    "black_friday": {ANY: NthOfMonth(11, 4, 3, shift=1)},  # kept by that date in BR and PT too
    "cyber_monday": {ANY: NthOfMonth(11, 4, 3, shift=4)},
    "memorial_day": {"US": NthOfMonth(5, -1, 0)},
    "labor_day_us": {"US": NthOfMonth(9, 1, 0)},
    "mlk_day": {"US": NthOfMonth(1, 3, 0)},
    "presidents_day": {"US": NthOfMonth(2, 3, 0)},
    "independence": {"US": Fixed(7, 4), "BR": Fixed(9, 7)},
    "independence_br": {"BR": Fixed(9, 7)},
    "tiradentes": {"BR": Fixed(4, 21)},
    "children_br": {"BR": Fixed(10, 12)},
    "aparecida": {"BR": Fixed(10, 12)},
    "finados": {ANY: Fixed(11, 2)},
    "republica": {"BR": Fixed(11, 15)},
    "consciencia_negra": {"BR": Fixed(11, 20)},
}

NAMES = Phrases(
    {
        "natal": "christmas", "dia de natal": "christmas", "christmas": "christmas",
        "christmas day": "christmas", "xmas": "christmas", "vespera de natal": "christmas_eve",
        "christmas eve": "christmas_eve", "ano novo": "new_year", "dia de ano novo": "new_year",
        "primeiro dia do ano": "new_year", "new year": "new_year", "new years": "new_year",
        "new year's": "new_year", "new year's day": "new_year", "new years day": "new_year",
        "reveillon": "new_year_eve", "vespera de ano novo": "new_year_eve",
        "new year's eve": "new_year_eve", "new years eve": "new_year_eve", "pascoa": "easter",
        "domingo de pascoa": "easter", "easter": "easter", "easter sunday": "easter",
        "sexta feira santa": "good_friday", "sexta santa": "good_friday",
        "sexta feira da paixao": "good_friday", "good friday": "good_friday",
        "carnaval": "carnival", "terca de carnaval": "carnival", "terca feira de carnaval": "carnival",
        "terca gorda": "carnival", "terca feira gorda": "carnival", "mardi gras": "carnival",
        "quarta de cinzas": "ash_wednesday", "quarta feira de cinzas": "ash_wednesday",
        "ash wednesday": "ash_wednesday",
        "corpus christi": "corpus_christi", "halloween": "halloween", "dia das bruxas": "halloween",
        "valentine's day": "valentines", "valentines day": "valentines",
        "valentine's": "valentines", "saint valentine's day": "valentines",
        "dia de sao valentim": "valentines", "st patrick's day": "st_patrick",
        "st. patrick's day": "st_patrick", "saint patrick's day": "st_patrick",
        "ides of march": "ides_of_march", "the ides of march": "ides_of_march",
        "dia do trabalho": "workers_day", "dia do trabalhador": "workers_day",
        "dia das maes": "mothers_day", "dia da mae": "mothers_day", "mother's day": "mothers_day",
        "mothers day": "mothers_day", "mothers' day": "mothers_day", "dia dos pais": "fathers_day",
        "dia do pai": "fathers_day", "father's day": "fathers_day", "fathers day": "fathers_day",
        "fathers' day": "fathers_day", "dia dos namorados": "namorados",
        "thanksgiving": "thanksgiving", "thanksgiving day": "thanksgiving",
        "black friday": "black_friday", "cyber monday": "cyber_monday",
        "memorial day": "memorial_day", "labor day": "labor_day_us", "labour day": "labor_day_us",
        "martin luther king day": "mlk_day", "mlk day": "mlk_day",
        "presidents day": "presidents_day", "presidents' day": "presidents_day",
        "president's day": "presidents_day", "independence day": "independence",
        "dia da independencia": "independence_br", "tiradentes": "tiradentes",
        "dia de tiradentes": "tiradentes", "dia das criancas": "children_br",
        "nossa senhora aparecida": "aparecida", "dia de nossa senhora aparecida": "aparecida",
        "finados": "finados", "dia de finados": "finados", "dia dos finados": "finados",
        "proclamacao da republica": "republica", "consciencia negra": "consciencia_negra",
        "dia da consciencia negra": "consciencia_negra",
    }
)  # fmt: skip
_LEADS = Phrases(
    {"no": True, "na": True, "on": True, "em": True, "at": True, "for": True, "para o": True,
     "pro": True, "pra": True, "ate o": True, "by": True, "ate": True}
)  # fmt: skip

# IANA zones by country, for the holidays the user keeps and for m/d dates (en-US).
_BR_ZONES = frozenset(
    "America/" + city
    for city in (
        "Sao_Paulo Fortaleza Recife Bahia Belem Manaus Cuiaba Campo_Grande Porto_Velho "
        "Boa_Vista Rio_Branco Maceio Araguaina Santarem Noronha Eirunepe Sao_Luis"
    ).split()
) | frozenset({"Brazil/East", "Brazil/West", "Brazil/Acre", "Brazil/DeNoronha"})
_US_PREFIXES = ("US/", "America/Indiana/", "America/Kentucky/", "America/North_Dakota/")
_US_ZONES = frozenset(
    "America/" + city
    for city in (
        "New_York Chicago Denver Los_Angeles Phoenix Anchorage Adak Boise Detroit Juneau "
        "Menominee Metlakatla Nome Sitka Yakutat"
    ).split()
) | frozenset({"Pacific/Honolulu", "EST5EDT", "CST6CDT", "MST7MDT", "PST8PDT"})
_PT_ZONES = frozenset({"Europe/Lisbon", "Atlantic/Azores", "Atlantic/Madeira", "Portugal"})


@dataclass(frozen=True, slots=True)
class Holiday:
    key: str


def country_of_zone(zone_name: str) -> Country | None:
    """The country an IANA zone name is in, among those the holiday table knows."""
    if zone_name in _BR_ZONES:
        return "BR"
    if zone_name in _US_ZONES or zone_name.startswith(_US_PREFIXES):
        return "US"
    if zone_name in _PT_ZONES:
        return "PT"
    return None


def read_holiday(toks: tuple[Tok, ...], i: int) -> tuple[Holiday, int] | None:
    """A holiday's name starting at token `i` (with "no"/"on" before it), or None."""
    lead = _LEADS.match(toks, i)
    for start in (lead[1], i) if lead else (i,):
        if found := NAMES.match(toks, start):
            return Holiday(found[0]), found[1]
    return None


def easter(year: int) -> date:
    """Western Easter Sunday (the anonymous Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    leap = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * leap) // 451
    month = (h + leap - 7 * m + 114) // 31
    day = (h + leap - 7 * m + 114) % 31 + 1
    return date(year, month, day)


def nth_weekday(year: int, month: int, n: int, weekday: int) -> date | None:
    """The nth (1-5, or -1 for the last) weekday of a month, or None when there is no such day."""
    days = [
        date(year, month, d)
        for d in range(1, calendar.monthrange(year, month)[1] + 1)
        if date(year, month, d).weekday() == weekday
    ]
    if n < 0:
        return days[n] if len(days) >= -n else None
    return days[n - 1] if n <= len(days) else None


def _on(rule: Rule, year: int) -> date | None:
    match rule:
        case Fixed(month, day):
            return date(year, month, day)
        case NthOfMonth(month, n, weekday, shift):
            found = nth_weekday(year, month, n, weekday)
            return found + timedelta(days=shift) if found is not None else None
        case FromEaster(days):
            return easter(year) + timedelta(days=days)
    return None


def holiday_dates(holiday: Holiday, country: Country | None, year: int) -> list[date]:
    """The holiday's date in `year` for someone in `country`: one date, or the candidates."""
    rules = TABLE[holiday.key]
    if country in rules:
        chosen = [rules[country]]
    elif ANY in rules:
        chosen = [rules[ANY]]
    else:
        chosen = list(rules.values())
    found = sorted({d for rule in chosen if (d := _on(rule, year)) is not None})
    return found
