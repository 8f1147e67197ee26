"""Times that name no single moment: a period without a day ("semana que vem", "mês que vem",
"next month", "em maio", "this weekend") or a vague time ("mais tarde", "daqui a pouco",
"in a few minutes"). They are read so that the reminder asks, never guesses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agent.understanding.reminders.dates import MONTHS
from agent.understanding.reminders.lexicon import Phrases, Tok, text_at
from agent.understanding.reminders.relative import LEADS, UNITS, Unit

PeriodKind = Literal["week", "weekend", "month", "month_end", "year", "month_name", "later",
                     "soon", "few", "end_of_day"]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Period:
    kind: PeriodKind
    offset: int = 0  # 0 this one, 1 the next
    month: int | None = None  # "em maio"
    unit: Unit | None = None  # "alguns minutos"
    weak: bool = False  # "mais tarde", "later": a time only beside the request, not inside the task


def _p(kind: PeriodKind, offset: int = 0, *, weak: bool = False) -> Period:
    return Period(kind, offset, weak=weak)


PERIODS = Phrases(
    {
        "semana que vem": _p("week", 1), "na semana que vem": _p("week", 1),
        "proxima semana": _p("week", 1), "na proxima semana": _p("week", 1),
        "next week": _p("week", 1), "sometime next week": _p("week", 1),
        "during next week": _p("week", 1), "durante a semana que vem": _p("week", 1),
        "coming week": _p("week", 1), "the coming week": _p("week", 1),
        "the following week": _p("week", 1), "following week": _p("week", 1),
        "esta semana": _p("week"), "essa semana": _p("week"), "nesta semana": _p("week"),
        "nessa semana": _p("week"), "this week": _p("week"), "later this week": _p("week"),
        "ainda esta semana": _p("week"), "ainda essa semana": _p("week"),
        "fim de semana": _p("weekend"), "final de semana": _p("weekend"),
        "no fim de semana": _p("weekend"), "no final de semana": _p("weekend"),
        "neste fim de semana": _p("weekend"), "nesse fim de semana": _p("weekend"),
        "este fim de semana": _p("weekend"), "esse fim de semana": _p("weekend"),
        "this weekend": _p("weekend"), "the weekend": _p("weekend"), "weekend": _p("weekend"),
        "on the weekend": _p("weekend"), "over the weekend": _p("weekend"),
        "next weekend": _p("weekend", 1), "proximo fim de semana": _p("weekend", 1),
        "no proximo fim de semana": _p("weekend", 1), "fim de semana que vem": _p("weekend", 1),
        "no fim de semana que vem": _p("weekend", 1),
        "no fds": _p("weekend"), "neste fds": _p("weekend"), "nesse fds": _p("weekend"),
        "este fds": _p("weekend"), "esse fds": _p("weekend"), "proximo fds": _p("weekend", 1),
        "no proximo fds": _p("weekend", 1), "fds que vem": _p("weekend", 1),
        "no fds que vem": _p("weekend", 1),
        "mes que vem": _p("month", 1), "no mes que vem": _p("month", 1),
        "proximo mes": _p("month", 1), "no proximo mes": _p("month", 1),
        "next month": _p("month", 1), "sometime next month": _p("month", 1),
        "este mes": _p("month"), "esse mes": _p("month"), "neste mes": _p("month"),
        "nesse mes": _p("month"), "this month": _p("month"), "later this month": _p("month"),
        "current month": _p("month"), "the current month": _p("month"), "mes atual": _p("month"),
        "o mes atual": _p("month"), "the next month": _p("month", 1),
        "fim do mes": _p("month_end"), "final do mes": _p("month_end"),
        "no fim do mes": _p("month_end"), "no final do mes": _p("month_end"),
        "end of the month": _p("month_end"), "the end of the month": _p("month_end"),
        "at the end of the month": _p("month_end"), "end of month": _p("month_end"),
        "by the end of the month": _p("month_end"), "ate o fim do mes": _p("month_end"),
        "ano que vem": _p("year", 1), "no ano que vem": _p("year", 1),
        "proximo ano": _p("year", 1), "no proximo ano": _p("year", 1),
        "next year": _p("year", 1), "sometime next year": _p("year", 1),
        "mais tarde": _p("later", weak=True), "later": _p("later", weak=True),
        "later today": _p("later"), "hoje mais tarde": _p("later"),
        "mais tarde hoje": _p("later"), "logo mais": _p("later", weak=True),
        "daqui a pouco": _p("soon"), "daqui a pouquinho": _p("soon"), "em breve": _p("soon"),
        "in a bit": _p("soon"), "in a while": _p("soon"), "in a little while": _p("soon"),
        "soon": _p("soon", weak=True), "shortly": _p("soon", weak=True),
        "mais tarde um pouco": _p("soon"), "a bit later": _p("soon"),
        "fim do dia": _p("end_of_day"), "final do dia": _p("end_of_day"),
        "no fim do dia": _p("end_of_day"), "no final do dia": _p("end_of_day"),
        "ate o fim do dia": _p("end_of_day"), "ate o final do dia": _p("end_of_day"),
        "end of day": _p("end_of_day"), "end of the day": _p("end_of_day"),
        "the end of the day": _p("end_of_day"), "by the end of the day": _p("end_of_day"),
        "by end of day": _p("end_of_day"), "at the end of the day": _p("end_of_day"),
        "eod": _p("end_of_day"), "by eod": _p("end_of_day"),
        # a day not yet chosen: which day is asked, from the days left this week (issue 43)
        "um dia desses": _p("week"), "qualquer dia": _p("week"), "qualquer dia desses": _p("week"),
        "algum dia desses": _p("week"), "one of these days": _p("week"),
        "some day this week": _p("week"), "any day now": _p("week"),
    }
)  # fmt: skip
_MONTH_LEADS = Phrases({"em": True, "in": True, "no mes de": True, "in the month of": True,
                        "durante": True, "during": True, "sometime in": True})  # fmt: skip
_FEW = Phrases({"alguns": True, "algumas": True, "poucos": True, "poucas": True, "a few": True,
                "few": True, "some": True, "several": True, "uns poucos": True})  # fmt: skip
_STRONG_MONTH_NAMES = frozenset(
    name for name in MONTHS if len(name) > 3 and name not in ("sept", "march")
)


def read_period(toks: tuple[Tok, ...], i: int) -> tuple[Period, int] | None:
    """A period or a vague time starting at token `i`, or None."""
    if found := PERIODS.match(toks, i):
        return found
    if lead := _MONTH_LEADS.match(toks, i):
        word = text_at(toks, lead[1])
        if word in _STRONG_MONTH_NAMES and not text_at(toks, lead[1] + 1).isdigit():
            return Period("month_name", month=MONTHS[word]), lead[1] + 1
    if lead := LEADS.match(toks, i):
        if few := _FEW.match(toks, lead[1]):
            unit = UNITS.match(toks, few[1])
            if unit is not None:
                return Period("few", unit=unit[0][0]), unit[1]
        if text_at(toks, lead[1] - 1) in ("uns", "umas"):  # "daqui a uns dias": how many?
            unit = UNITS.match(toks, lead[1])
            if unit is not None:
                return Period("few", unit=unit[0][0]), unit[1]
    return None
