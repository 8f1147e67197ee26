"""Repetition in a reminder's words (PT/EN): "todo dia", "dias úteis", "toda segunda e quarta",
"todo dia 5", "toda primeira segunda do mês", "a cada 3 dias", "every other week", with
"até 30/06", "10 vezes", "por 2 semanas", "a partir de segunda" (DESIGN 11.4).

Read on the folded message by patterns whose words say, for certain, that something
repeats: a bare plural weekday ("às segundas", "on mondays") counts, "segunda" alone
does not. What a pattern reads is an RRULE's parts; the time of day, a start day and an
end day are read by the rest of the grammar, from the words these patterns leave.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agent.understanding.reminders.dates import MONTHS
from agent.understanding.reminders.numbers import TENS, UNITS
from agent.understanding.reminders.parts import PartName

CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_PT_DAYS = ("segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo")
_EN_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EN_SHORT = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3,
             "fri": 4, "sat": 5, "sun": 6}  # fmt: skip
_PT_SHORT = {"seg": 0, "ter": 1, "qua": 2, "qui": 3, "sex": 4, "sab": 5, "dom": 6}
_NUMBER_WORDS = {**UNITS, **TENS, "a": 1, "an": 1, "one": 1, "um": 1, "uma": 1}

_PT_DAY = r"(?:segunda|terca|quarta|quinta|sexta|sabado|domingo)(?:[\s-]*feira)?"
_PT_DAYS_RE = r"(?:segunda|terca|quarta|quinta|sexta|sabado|domingo)s(?:[\s-]*feiras)?"
# one weekday or many: "segunda", "segundas", "segunda-feira", "segundas-feiras"
_PT_DAY_S = r"(?:segunda|terca|quarta|quinta|sexta|sabado|domingo)s?(?:[\s-]*feiras?)?"
_EN_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thur?s?|fri|sat|sun)\b"
# a day name that may be plural ("on fridays"): the name's own word end comes after the s
_EN_DAY_S = _EN_DAY.removesuffix(r"\b") + r"s?\b"
_EN_DAYS_RE = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s"
_PT_ITEM = r"(?:(?:segunda|terca|quarta|quinta|sexta|sabado|domingo)s?(?:[\s-]*feiras?)?|(?:seg|ter|qua|qui|sex|sab|dom)\b)"
_EN_ITEM = r"(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|mon|tues?|wed|thur?s?|fri|sat|sun)\b"
_AND = r"\s*(?:,|\be\b|\band\b|&|/)\s*(?:(?:as|nas|aos|nos|a|o|on)\s+)?"
# two or more weekdays joined ("terças e quintas", "seg, qua e sex", "mon wed fri"): each week
_PT_SHORT_RE = r"(?:seg|ter|qua|qui|sex|sab|dom)\b"
_EN_SHORT_RE = r"(?:mon|tues?|wed|thur?s?|fri|sat|sun)\b"
_JOINED_PT = rf"(?:{_PT_ITEM}(?:{_AND}{_PT_ITEM})+|{_PT_SHORT_RE}(?:(?:{_AND}|\s+){_PT_SHORT_RE})+)"
_JOINED_EN = rf"(?:{_EN_ITEM}(?:{_AND}{_EN_ITEM})+|{_EN_SHORT_RE}(?:(?:{_AND}|\s+){_EN_SHORT_RE})+)"
_NUM = (
    r"(?:\d{1,3}|"
    + "|".join(sorted((w for w in _NUMBER_WORDS if len(w) > 1), key=len, reverse=True))
    + r")"
)  # noqa: E501
_ORD_PT = r"(?:primeir[ao]|segund[ao]|terceir[ao]|quart[ao]|quint[ao]|penultim[ao]|ultim[ao]|[1-5]\s*[aoº°ª])"
_ORD_EN = r"(?:first|second|third|fourth|fifth|second\s+to\s+last|last|1st|2nd|3rd|4th|5th)"
# "2nd and 4th", "primeira e terceira": several ordinals of one weekday
_ORDS_PT = rf"{_ORD_PT}(?:\s*(?:,|\be\b)\s*{_ORD_PT})*"
_ORDS_EN = rf"{_ORD_EN}(?:\s*(?:,|\band\b|&)\s*{_ORD_EN})*"
_ORDINALS = {"primeir": 1, "segund": 2, "terceir": 3, "quart": 4, "quint": 5, "penultim": -2,
             "ultim": -1, "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
             "last": -1, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}  # fmt: skip
_MONTH = (
    "(?:"
    + "|".join(sorted((m for m in MONTHS if len(m) > 3 or m == "may"), key=len, reverse=True))
    + ")"
)
_EVERY_PT = r"(?:(?:tod[oa]s?|tds?)\s+(?:as\s+|os\s+|a\s+|o\s+)?|a\s+cada\s+|cada\s+)"
_EVERY_EN = r"(?:every|evry|each)\s+"  # "evry sat": chat's spelling
_MONTHLY_TAIL = (
    r"(?:de\s+cada|de\s+todo|de\s+todos\s+os|do)\s+mes(?:es)?|of\s+(?:every|each|the)\s+month"
)
_NOT_CLOCK = (
    r"(?!\d)(?!\s*(?:h\b|h\d|hs\b|hrs?\b|horas?\b|:|\.\d|am\b|pm\b|o'?clock|e\s+(?:meia|quinze)"
    r"|d[ao]\s+(?:manha|tarde|noite|madrugada)\b|in\s+the\s+(?:morning|afternoon|evening)\b))"
)
# "daily", "weekly": a frequency only beside the request, not describing the task ("the weekly
# meeting", "my daily pill")
_ADJ = r"(?<!\bthe\s)(?<!\bmy\s)(?<!\bour\s)(?<!\ba\s)(?<!\ban\s)(?<!\byour\s)"
_ADJ_END = (
    r"(?=\s*(?:$|[,.;:!?@]|\d|(?:at|on|to|from|until|till|for|starting|in|about|that|de|and|e"
    r"|remind|me|around|by|every|each)\b))"
)
_UNIT = {"dia": "DAILY", "day": "DAILY", "semana": "WEEKLY", "week": "WEEKLY", "mes": "MONTHLY",
         "month": "MONTHLY", "ano": "YEARLY", "year": "YEARLY", "hora": "HOURLY",
         "hour": "HOURLY", "hr": "HOURLY", "h": "HOURLY"}  # fmt: skip
_PARTS: dict[str, PartName] = {"manha": "morning", "morning": "morning", "tarde": "afternoon",
                               "afternoon": "afternoon", "noite": "night", "night": "night",
                               "evening": "night", "nightly": "night"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Repeat:
    """What repeats, read from the words: RRULE parts, a part of the day, and where it was said."""

    parts: dict[str, str]
    spans: tuple[tuple[int, int], ...]
    part: PartName | None = None
    count: int | None = None
    duration: tuple[int, str] | None = None  # "por 2 semanas": (2, "WEEKLY")
    until: tuple[int, int] | None = None  # "até", "until": an end day may follow
    start: tuple[int, int] | None = None  # "a partir de", "starting": a start day may follow
    needs_day: bool = False  # "toda semana", "todo mês" with no day: which day is asked
    twice: bool = False  # "2 vezes por dia", "twice a day": two times of day are needed
    upcoming: bool = False  # "nas próximas 4 segundas": as "próxima segunda", never today

    @property
    def rrule(self) -> str:
        return ";".join(f"{k}={v}" for k, v in self.parts.items())


def _number(word: str) -> int | None:
    word = word.strip()
    if word.isdigit():
        return int(word)
    return _NUMBER_WORDS.get(word)


_ORD_TAILS = ("st", "nd", "rd", "th")  # "every 3rd day", "every second week", "every fifth day"


def _ordinal(word: str) -> int | None:
    word = re.sub(r"\s+", "", word)
    if word and word[0].isdigit():
        return int(word[0])
    if word.startswith("secondtolast"):
        return -2
    for stem, value in _ORDINALS.items():
        if word.startswith(stem):
            return value
    return None


def _day_codes(words: str) -> list[str]:
    codes: list[str] = []
    for word in re.findall(r"[a-z]+", words):
        index = None
        for i, name in enumerate(_PT_DAYS):
            if word.startswith(name):
                index = i
        for i, name in enumerate(_EN_DAYS):
            if word.startswith(name):
                index = i
        if index is None and word in _EN_SHORT:
            index = _EN_SHORT[word]
        if index is None and word in _PT_SHORT:
            index = _PT_SHORT[word]
        if index is not None and CODES[index] not in codes:
            codes.append(CODES[index])
    return codes


def _list(one: str, many: str | None = None) -> str:
    item = many or one
    return rf"(?:{item})(?:{_AND}(?:{item}))*"


# (pattern, what it reads); earlier patterns win where two overlap
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p.replace("__ADJ__", _ADJ).replace("__END__", _ADJ_END)), kind)
    for p, kind in (
        # the first or last working day of each month
        (
            rf"\b(?:(?:tod[oa]s?|tds?)\s+(?:o\s+)?|n?o\s+)?(?P<n>primeir[ao]|ultim[ao]|1\s*[oº°])\s+dia\s+util\s+(?:{_MONTHLY_TAIL})",
            "business",
        ),
        # "todo 5º dia útil", "todo quinto dia útil do mês": the nth working day
        (
            rf"\b(?:tod[oa]s?|tds?)\s+(?:o\s+)?(?P<n>{_ORD_PT})\s+dia\s+util(?:\s+(?:{_MONTHLY_TAIL}))?",
            "business",
        ),
        (
            rf"\b(?:on\s+|every\s+|each\s+)?(?:the\s+)?(?P<n>{_ORD_EN})\s+(?:business|working|work)\s*day\s+of\s+(?:the|every|each)\s+month",
            "business",
        ),
        (
            r"\b(?:(?:on|every|each)\s+)?(?:the\s+)?(?P<n>first|last|1st)\s+(?:business|working|work|week)\s*day\s+of\s+(?:the|every|each)\s+month",
            "business",
        ),
        # "nos próximos 3 sábados", "for the next 3 saturdays": weekly, a count
        (
            rf"\b(?:(?:n?[ao]s|pel[ao]s|durante\s+[ao]s)\s+)?proxim[oa]s\s+(?P<c>{_NUM})\s+(?P<wd>{_PT_DAYS_RE}|{_PT_DAY})",
            "next_n",
        ),
        (
            rf"\b(?:(?:for|on)\s+)?(?:the\s+)?next\s+(?P<c>{_NUM})\s+(?P<wd>{_EN_DAYS_RE}|{_EN_DAY})",
            "next_n",
        ),
        # "segunda sim, segunda não": every other week on that day
        (
            rf"\b(?:{_EVERY_PT})?(?P<wd>{_PT_DAY})\s+sim\s*,?\s*(?:{_PT_DAY})\s+nao\b",
            "weekly_days_other",
        ),
        # the nth weekday or the last day of each month
        (
            rf"\b(?:(?:tod[oa]s?|tds?)\s+(?:as\s+|os\s+|a\s+|o\s+)?|(?:n?[ao]s?\s+)?)(?P<n>{_ORDS_PT})\s+(?P<wd>{_PT_DAY})\s+(?:{_MONTHLY_TAIL})",
            "nth",
        ),
        (
            # a weekday after it is a list, not an ordinal: "toda segunda quarta e sexta"
            rf"\b(?:tod[oa]s?|tds?)\s+(?:as\s+|os\s+|a\s+|o\s+)?(?P<n>{_ORDS_PT})\s+(?P<wd>{_PT_DAY})(?:\s+do\s+mes|(?!(?:{_AND}|\s+){_PT_ITEM}))",
            "nth",
        ),
        (
            rf"\b(?:every|each)\s+(?:the\s+)?(?P<n>{_ORDS_EN})\s+(?P<wd>{_EN_DAY})(?:\s+of\s+(?:the|every|each)\s+month)?",
            "nth",
        ),
        (
            rf"\b(?:(?:on|monthly\s+on)\s+)?the\s+(?P<n>{_ORDS_EN})\s+(?P<wd>{_EN_DAY})\s+of\s+(?:every|each)\s+month",
            "nth",
        ),
        (
            rf"\b(?:on\s+)?(?:the\s+)?(?P<n>{_ORDS_EN})\s+(?P<wd>{_EN_DAY})\s+of\s+(?:the|every|each)\s+month",
            "nth",
        ),
        (
            rf"\b(?:tod[oa]\s+(?:o\s+)?|n?o\s+)?ultimo\s+dia\s+(?:util\s+)?(?:{_MONTHLY_TAIL})",
            "last_day",
        ),
        (r"\btodo\s+ultimo\s+dia(?:\s+do\s+mes)?", "last_day"),
        # "todo fim de mês", "todo final do mês": its last day
        (
            r"\b(?:tod[oa]s?|tds?)\s+(?:o\s+|os\s+)?(?:fi(?:m|ns)|finais|final)\s+d[eo]\s+mes(?:es)?\b",
            "last_day",
        ),
        (
            r"\b(?:(?:on\s+)?(?:the\s+)?last\s+day\s+of\s+(?:every|each)\s+month|every\s+last\s+day\s+of\s+the\s+month|(?:every|each)\s+month\s+on\s+the\s+last\s+day)",
            "last_day",
        ),
        # a day of each year
        (
            rf"\b(?:tod[oa]s?|tds?)\s+(?:os\s+|o\s+)?(?:anos?\s+(?:n?o\s+)?)?(?:dias?\s+)?(?P<d>{_NUM})\s+de\s+(?P<mo>{_MONTH})\b",
            "yearday",
        ),
        (
            rf"\b(?:every|each)\s+(?:year\s+on\s+)?(?P<mo>{_MONTH})\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b",
            "yearday",
        ),
        (
            rf"\b(?:every|each)\s+(?:year\s+on\s+)?(?:the\s+)?(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+of\s+(?P<mo>{_MONTH})\b",
            "yearday",
        ),
        # a day of each month
        # "todo dia 10 e 25", "todo dia 5 e dia 20": several days of each month
        (
            rf"\b(?:tod[oa]s?|tds?)\s+(?:o\s+|os\s+)?dias?\s+(?P<d>\d{{1,2}}(?:\s*(?:,|e|and)\s*(?:dia\s+)?\d{{1,2}})+){_NOT_CLOCK}(?!\s+de\s+{_MONTH}\b)(?:\s+(?:{_MONTHLY_TAIL}))?",
            "monthday",
        ),
        (
            rf"\b(?:tod[oa]s?|tds?)\s+(?:o\s+|os\s+)?dias?\s+(?P<d>{_NUM}|primeiro)(?:[º°ª]|[oa]\b)?{_NOT_CLOCK}(?!\s+de\s+{_MONTH}\b)(?:\s+(?:{_MONTHLY_TAIL}))?",
            "monthday",
        ),
        (
            rf"\b(?:n?o\s+)?dia\s+(?P<d>{_NUM})\s+(?:de\s+cada|de\s+todo|de\s+todos\s+os)\s+mes(?:es)?",
            "monthday",
        ),
        (
            rf"\b(?:todo\s+mes|(?:todos|tds)\s+os\s+meses|mensalmente)\s*,?\s+(?:n?o\s+)?dia\s+(?P<d>{_NUM})",
            "monthday",
        ),
        # "todo começo de mês", "todo início do mês": its first day
        (
            r"\b(?:tod[oa]s?|tds?)\s+(?:o\s+|os\s+)?(?P<d>comeco|inicio|virada)s?\s+d[eo]\s+mes(?:es)?\b",
            "monthday",
        ),
        (
            r"\b(?:on\s+)?the\s+(?P<d>\d{1,2}(?:st|nd|rd|th)?(?:\s*(?:,|and)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?)+)\s+of\s+(?:every|each|the)\s+month",
            "monthday",
        ),
        (
            r"\b(?:on\s+)?the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+of\s+(?:every|each)\s+month",
            "monthday",
        ),
        (
            r"\b(?:every\s+month|monthly)\s*,?\s+on\s+the\s+(?P<d>\d{1,2}(?:st|nd|rd|th)?"
            r"(?:\s*(?:,|and|&)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?)*)",
            "monthday",
        ),
        (
            r"\bevery\s+(?P<d>\d{1,2})(?:st|nd|rd|th)(?:\s+of\s+the\s+month)?(?!\s+of\s+[a-z])(?!\s+(?:days?|weeks?|months?|years?)\b)",
            "monthday",
        ),
        # a run of weekdays: "de terça a sábado", "ter a sáb", "tuesday through saturday"
        (
            rf"\b(?:{_EVERY_PT})?(?:de\s+)?(?:(?P<a>{_PT_DAY_S})\s*(?:a|-)\s*(?P<b>{_PT_DAY_S})|(?P<c>seg|ter|qua|qui|sex|sab|dom)\s*(?:a|-)\s*(?P<d>seg|ter|qua|qui|sex|sab|dom)\b)",
            "day_range",
        ),
        (
            rf"\b(?:every\s+day\s+)?(?:from\s+)?(?P<a>{_EN_ITEM})\s*(?:through|thru|to|-)\s*(?P<b>{_EN_ITEM})",
            "day_range",
        ),
        # working days and weekends
        (
            rf"\b(?:{_EVERY_PT})?(?:n?os\s+|em\s+)?dias?\s+ute(?:is|l)\b|\btodo\s+dia\s+util\b|\bde\s+segunda\s+a\s+sexta(?:[\s-]*feira)?\b|\b(?:de\s+)?seg(?:unda)?\s*(?:a|-)\s*sex(?:ta)?\b",
            "weekdays",
        ),
        (
            r"\b(?:(?:every|each)\s+weekday|(?:on\s+)?(?:weekdays|wkdays)|(?:every\s+day\s+)?(?:from\s+)?monday\s+(?:through|thru|to)\s+friday|mon\s*-\s*fri|(?:every\s+)?work\s*days?|(?:every\s+)?business\s+days?)\b",
            "weekdays",
        ),
        (
            rf"\b(?:{_EVERY_PT}(?:(?:fi(?:m|ns)|finais|final)\s+de\s+semana|fds)|nos\s+fds|nos\s+(?:fins|finais)\s+de\s+semana|(?:every|each)\s+(?:weekend|wknd)|on\s+weekends|weekends)\b",
            "weekends",
        ),
        # intervals
        (r"\bdia\s+sim\s*,?\s*dia\s+nao\b", "other_day"),
        (
            rf"\b(?:a\s+cada|de)\s+(?P<n>{_NUM})\s+(?:em\s+(?P=n)\s+)?(?P<u>dias?|semanas?|mes(?:es)?|anos?|horas?)\b",
            "interval",
        ),
        (
            rf"\bevery\s+(?P<n>{_NUM}|other|second|third|fourth|fifth|\d{{1,2}}(?:st|nd|rd|th))\s+(?P<u>days?|weeks?|months?|years?|hours?|hrs?)\b",
            "interval",
        ),
        # "a cada 8h", "de 6 em 6h", "every 4h": hours written as a clock is
        (
            rf"\b(?:a\s+cada\s+(?P<n>{_NUM})|de\s+(?P<m>{_NUM})h?\s+em\s+(?P=m)|every\s+(?P<k>{_NUM}))\s*(?P<u>h|hs|hrs?)\b",
            "interval",
        ),
        (
            r"\b(?:de\s+hora\s+em\s+hora|a\s+cada\s+hora|toda\s+hora|every\s+hour|__ADJ__hourly__END__)\b",
            "hourly",
        ),
        (
            r"\b(?:a\s+cada\s+(?:duas|2)\s+semanas|quinzenalmente|__ADJ__biweekly__END__|__ADJ__fortnightly__END__|every\s+fortnight)\b",
            "biweekly",
        ),
        # weekdays by name
        # "toda qua", "todo sáb", "toda segunda quarta e sexta" (a list typed without commas)
        (rf"\b(?:{_EVERY_PT})(?:{_PT_ITEM})(?:(?:{_AND}|\s+)(?:{_PT_ITEM}))*", "weekly_days"),
        (rf"\b(?:as|nas|aos|nos)\s+{_list(_PT_DAYS_RE)}", "weekly_days"),
        (rf"\b(?:every\s+other|every\s+second)\s+{_list(_EN_DAY)}", "weekly_days_other"),
        (rf"\b{_EVERY_EN}{_list(_EN_DAY)}", "weekly_days"),
        (rf"(?<!\d\s)\b(?:on\s+)?{_list(_EN_DAYS_RE)}(?!\s+(?:from|after|ago))", "weekly_days"),
        (rf"\b{_JOINED_PT}", "weekly_days"),
        (rf"\b{_JOINED_EN}", "weekly_days"),
        # parts of the day, every day
        (
            r"\b(?:(?:todo|tds?)\s+(?:o\s+)?(?:fim|final)\s+d[eoa]\s+(?P<t>tarde|dia)|(?:at\s+the\s+)?end\s+of\s+(?:every|each)\s+(?P<u>day)|toda\s+(?:a\s+)?(?P<p>manha|tarde|noite)|todas\s+as\s+(?P<q>manhas|tardes|noites)|(?:every|each)\s+(?P<r>morning|afternoon|evening|night)|(?P<s>__ADJ__nightly__END__))\b",
            "daily_part",
        ),
        # plain frequencies
        (
            r"\b(?:(?:2|duas)\s+vezes\s+(?:por|ao)\s+dia|twice\s+(?:a|per)\s+day|twice\s+daily|todo\s+santo\s+dia|(?:tod[oa]s?|tds?)\s+(?:os\s+)?dias?|diariamente|every\s*day|__ADJ__daily__END__|each\s+day|once\s+a\s+day|uma\s+vez\s+(?:por|ao)\s+dia)\b",
            "daily",
        ),
        (
            r"\b(?:toda\s+semana|todas\s+as\s+semanas|semanalmente|(?:every|each)\s+week|__ADJ__weekly__END__|once\s+a\s+week|uma\s+vez\s+por\s+semana)\b",
            "weekly",
        ),
        (
            r"\b(?:todo\s+mes|(?:todos|tds)\s+os\s+meses|mensalmente|(?:every|each)\s+month|__ADJ__monthly__END__|once\s+a\s+month|uma\s+vez\s+por\s+mes)\b",
            "monthly",
        ),
        (
            r"\b(?:todo\s+ano|todos\s+os\s+anos|anualmente|(?:every|each)\s+year|__ADJ__yearly__END__|__ADJ__annually__END__|once\s+a\s+year|uma\s+vez\s+por\s+ano)\b",
            "yearly",
        ),
    )
]
_COUNT = re.compile(
    # "só 10 vezes", "only 5 times": the word that limits the count is the count's too
    rf"\b(?:(?:so|somente|apenas|only|just)\s+)?(?:(?:por|durante)\s+)?(?P<n>{_NUM})(?:\s+(?:vezes|times)|(?<=\d)\s*x)\b(?!\s+(?:por|ao|a|per)\b)"
    rf"|\b(?:(?:so|somente|apenas|only|just)\s+)?(?:for\s+)?(?P<m>{_NUM})\s+times\b(?!\s+(?:a|per)\b)"
    # what is counted named: "for the next 4 sessions", "nas próximas 6 aulas"
    rf"|\b(?:(?:for|over)\s+)?(?:the\s+)?next\s+(?P<k>{_NUM})\s+"
    r"(?:sessions?|classes?|lessons?|occurrences?|meetings?)\b"
    rf"|\b(?:n?as|pelas|por|durante)\s+(?:as\s+)?proximas\s+(?P<j>{_NUM})\s+"
    r"(?:sessoes|aulas|vezes|ocorrencias|reunioes)\b"
)
_DURATION = re.compile(
    rf"\b(?:(?:por|durante)\s+(?:(?:os|as)\s+)?(?:proxim[oa]s\s+)?|(?:n?os|pel[oa]s)\s+proxim[oa]s\s+|for\s+(?:the\s+next\s+)?)"
    rf"(?P<n>{_NUM}|an?)\s+(?P<u>dias?|semanas?|mes(?:es)?|anos?|days?|weeks?|months?|years?)\b"
)
_UNTIL = re.compile(r"\b(?:ate|until|till|through|thru|up\s+to|ending(?:\s+on)?)\b")
_START = re.compile(
    r"\b(?:a\s+partir\s+d[eoa]s?|comecando(?:\s+(?:n[oa]|em|d[eoa]))?|iniciando(?:\s+(?:n[oa]|em))?"
    # "começa amanhã", "starts monday": the start said as a statement after the rule
    r"|(?:(?:que\s+)?(?:comeca|inicia)|(?:it\s+)?(?:starts|begins))(?:\s+(?:n[oa]|em|on))?"
    r"|starting(?:\s+(?:on|from))?|beginning(?:\s+(?:on|from))?|from"
    # the first occurrence named: "first one this friday", "o primeiro é nessa sexta"
    r"|(?:the\s+)?first\s+(?:one|reminder)(?:\s+(?:is|will\s+be|on))?"
    r"|(?:o|a)\s+primeir[oa](?:\s+(?:lembrete\s+)?(?:e|eh|sera|vai\s+ser|fica))?(?:\s+(?:n[oa]|em))?)\b"
)


# days left out of a rule: "todo dia menos domingo", "every morning except sundays"
_EXCEPT = re.compile(
    rf"\s*,?\s*\b(?:menos|exceto|excepto|tirando|fora|except|but(?:\s+not)?|other\s+than)\s+(?:(?:o|a|os|as|aos|nos|nas|no|na|on)\s+)?"
    rf"(?P<x>{_PT_ITEM}|{_EN_ITEM}|fi(?:m|ns)\s+de\s+semana|fds|weekends?)(?:{_AND}(?P<y>{_PT_ITEM}|{_EN_ITEM}))?"
)


def read_repeat(folded: str) -> Repeat | None:
    """What repeats in a folded message, or None when nothing certainly does."""
    left_out = _EXCEPT.search(folded)
    if left_out is None:
        return _read_repeat(folded)
    span = left_out.span()
    repeat = _read_repeat(folded[: span[0]] + " " * (span[1] - span[0]) + folded[span[1] :])
    if (
        repeat is None
        or repeat.parts["FREQ"] not in ("DAILY", "WEEKLY")
        or "INTERVAL" in repeat.parts
    ):
        return repeat
    said = left_out.group("x") + " " + (left_out.group("y") or "")
    out = {"SA", "SU"} if re.search(r"fim|fins|fds|weekend", said) else set()
    out |= set(_day_codes(said))
    days = [c for c in CODES if c in repeat.parts.get("BYDAY", ",".join(CODES)).split(",")]
    kept = [c for c in days if c not in out]
    if not out or not kept or len(kept) == len(days):
        return repeat
    parts = {**repeat.parts, "FREQ": "WEEKLY", "BYDAY": ",".join(kept)}
    return replace(repeat, parts=parts, spans=(*repeat.spans, span))


def _read_repeat(folded: str) -> Repeat | None:  # noqa: C901 - one branch per kind of pattern
    for pattern, kind in _PATTERNS:
        m = pattern.search(folded)
        if m is None:
            continue
        parts: dict[str, str]
        part: PartName | None = None
        needs_day = False
        groups = m.groupdict()
        match kind:
            case "nth":
                ordinals = re.split(r"\s*(?:,|\be\b|\band\b|&)\s*", groups["n"])
                ns, codes = [_ordinal(w) for w in ordinals], _day_codes(groups["wd"])
                if None in ns or not codes:
                    continue
                byday = ",".join(f"{n:+d}{codes[0]}".replace("+", "") for n in ns if n is not None)
                parts = {"FREQ": "MONTHLY", "BYDAY": byday}
            case "business":
                position = _ordinal(groups["n"])
                if position is None:
                    continue
                parts = {"FREQ": "MONTHLY", "BYDAY": "MO,TU,WE,TH,FR",
                         "BYSETPOS": str(position)}  # fmt: skip
            case "next_n":
                codes, count = _day_codes(groups["wd"]), _number(groups["c"])
                if not codes or count is None or not 1 <= count <= 52:
                    continue
                parts = {"FREQ": "WEEKLY", "BYDAY": codes[0]}
            case "yearday":
                day, month = _number(groups["d"]), MONTHS.get(groups["mo"])
                if day is None or month is None or not 1 <= day <= 31:
                    continue
                parts = {"FREQ": "YEARLY", "BYMONTH": str(month), "BYMONTHDAY": str(day)}
            case "last_day":
                parts = {"FREQ": "MONTHLY", "BYMONTHDAY": "-1"}
            case "monthday":
                said = groups["d"]
                read = [
                    1 if d in ("comeco", "inicio", "virada", "primeiro") else _number(d)
                    for d in (re.findall(r"\d+", said) if said[0].isdigit() else [said])
                ]
                days = sorted({d for d in read if d is not None and 1 <= d <= 31})
                if not days or len(days) != len(set(read)):
                    continue
                parts = {"FREQ": "MONTHLY", "BYMONTHDAY": ",".join(map(str, days))}
            case "day_range":
                starts = _day_codes(groups["a"] or groups.get("c") or "")
                ends = _day_codes(groups["b"] or groups.get("d") or "")
                if not starts or not ends or starts == ends:
                    continue
                a, b = CODES.index(starts[0]), CODES.index(ends[0])
                run = [CODES[(a + k) % 7] for k in range((b - a) % 7 + 1)]
                parts = {"FREQ": "WEEKLY", "BYDAY": ",".join(c for c in CODES if c in run)}
            case "weekdays":
                parts = {"FREQ": "WEEKLY", "BYDAY": "MO,TU,WE,TH,FR"}
            case "weekends":
                parts = {"FREQ": "WEEKLY", "BYDAY": "SA,SU"}
            case "other_day":
                parts = {"FREQ": "DAILY", "INTERVAL": "2"}
            case "interval":
                word = groups["n"] or groups.get("m") or groups.get("k") or ""
                n = (
                    2
                    if word == "other"
                    else _ordinal(word)
                    if word[-2:] in _ORD_TAILS
                    else _number(word)
                )
                unit = re.sub(r"(?:es|s)$", "", groups["u"])
                freq = _UNIT.get(unit) or _UNIT.get(unit.rstrip("s"))
                if n is None or freq is None or not 1 <= n <= 366:
                    continue
                parts = {"FREQ": freq} | ({"INTERVAL": str(n)} if n > 1 else {})
                needs_day = freq in ("WEEKLY", "MONTHLY", "YEARLY")
            case "hourly":
                parts = {"FREQ": "HOURLY"}
            case "biweekly":
                parts = {"FREQ": "WEEKLY", "INTERVAL": "2"}
                needs_day = True
            case "weekly_days" | "weekly_days_other":
                codes = _day_codes(
                    m.group(0).split(None, 1)[-1] if kind == "weekly_days_other" else m.group(0)
                )
                if not codes:
                    continue
                parts = {"FREQ": "WEEKLY", "BYDAY": ",".join(codes)}
                if kind == "weekly_days_other":
                    parts["INTERVAL"] = "2"
            case "daily_part":
                word = (
                    next(g for g in (groups["p"], groups["q"], groups["r"], groups["s"]) if g)
                    if not (groups["t"] or groups["u"])
                    else ""
                )
                part = (
                    _PARTS[word.rstrip("s") if word != "nightly" else word]
                    if word
                    else "end_of_day"
                )
                parts = {"FREQ": "DAILY"}
            case "daily":
                parts = {"FREQ": "DAILY"}
            case "weekly":
                parts = {"FREQ": "WEEKLY"}
                needs_day = True
            case "monthly":
                parts = {"FREQ": "MONTHLY"}
                needs_day = True
            case "yearly":
                parts = {"FREQ": "YEARLY"}
                needs_day = True
            case _:
                continue
        spans = [m.span()]
        # "todo dia útil" read as weekdays; "toda semana" beside "segunda" is weekly on it
        extra = _also(folded, kind, parts, spans)
        if extra is not None:
            parts = extra
            needs_day = needs_day and "BYDAY" not in parts and "BYMONTHDAY" not in parts
        part = _part_after(folded, spans) or part
        _absorb_frequency(folded, parts, spans)
        bounded = _with_bounds(folded, Repeat(parts, tuple(spans), part, needs_day=needs_day))
        if kind == "next_n":
            return replace(bounded, count=_number(groups["c"]), upcoming=True)
        if kind == "daily" and re.search(r"vezes|twice", m.group(0)):
            return replace(bounded, twice=True)
        return bounded
    return None


_PART_AFTER = re.compile(
    r"\s*(?:de\s+|a\s+|na\s+|pela\s+|in\s+the\s+)?(?P<w>manha|tarde|noite|morning|afternoon"
    r"|evening|night)\b"
)


def _part_after(folded: str, spans: list[tuple[int, int]]) -> PartName | None:
    """ "toda sexta à tarde", "every sunday evening": the part of the day right after it."""
    end = spans[0][1]
    m = _PART_AFTER.match(folded, end)
    if m is None:
        return None
    spans.append(m.span())
    return _PARTS[m.group("w")]


_FREQUENCY_WORDS = {
    "WEEKLY": re.compile(r"\b(?:weekly|semanalmente|toda\s+semana|every\s+week)\b"),
    "MONTHLY": re.compile(r"\b(?:monthly|mensalmente|todo\s+mes|every\s+month)\b"),
    "DAILY": re.compile(r"\b(?:daily|diariamente)\b"),
}
_ALWAYS = re.compile(r"\b(?:sempre|always)\b")


def _absorb_frequency(folded: str, parts: dict[str, str], spans: list[tuple[int, int]]) -> None:
    """A frequency word said beside the one read ("weekly on mondays", "sempre às segundas")
    is part of the repetition, not of the task."""
    for pattern in (_FREQUENCY_WORDS.get(parts["FREQ"]), _ALWAYS):
        m = pattern.search(folded) if pattern is not None else None
        if m is not None and not any(a < m.end() and m.start() < b for a, b in spans):
            spans.append(m.span())


def _also(
    folded: str, kind: str, parts: dict[str, str], spans: list[tuple[int, int]]
) -> dict[str, str] | None:
    """A weekly or monthly frequency said beside its day ("toda semana na segunda", "every
    2 weeks on monday", "todo mês no dia 5")."""
    if kind not in ("weekly", "biweekly", "interval", "monthly"):
        return None
    if parts.get("FREQ") == "WEEKLY":
        m = re.search(
            rf"\b(?:n[ao]s?|as|aos|on|every)\s+({_list(_PT_DAY_S)}|{_list(_EN_DAY_S)})",
            folded,
        )
        if m is not None and (codes := _day_codes(m.group(1))):
            spans.append(m.span())
            return {**parts, "BYDAY": ",".join(codes)}
    if parts.get("FREQ") == "MONTHLY":
        m = re.search(
            rf"\b(?:n?o\s+dia|on\s+the)\s+(?P<d>{_NUM})(?:st|nd|rd|th)?{_NOT_CLOCK}", folded
        )
        if m is not None and (day := _number(m.group("d"))) is not None and 1 <= day <= 31:
            spans.append(m.span())
            return {**parts, "BYMONTHDAY": str(day)}
    return None


def _with_bounds(folded: str, repeat: Repeat) -> Repeat:
    """The count, duration, end and start words around the repetition."""
    spans = list(repeat.spans)
    count = duration = until = start = None
    if (m := _COUNT.search(folded)) is not None:
        count = _number(m.group("n") or m.group("m") or m.group("k") or m.group("j"))
        spans.append(m.span())
    elif (m := _DURATION.search(folded)) is not None:
        amount = _number(m.group("n"))
        unit = re.sub(r"(?:es|s)$", "", m.group("u"))
        freq = _UNIT.get(unit) or _UNIT.get(unit.rstrip("s"))
        if amount is not None and freq is not None:
            duration = (amount, freq)
            spans.append(m.span())
    if (m := _UNTIL.search(folded)) is not None:
        until = m.span()
    if (m := _START.search(folded)) is not None:
        start = m.span()
    return Repeat(
        repeat.parts,
        tuple(spans),
        repeat.part,
        count=count,
        duration=duration,
        until=until,
        start=start,
        needs_day=repeat.needs_day,
    )


_DAY_NAMES = (
    r"segunda|terca|quarta|quinta|sexta|sabado|domingo|monday|tuesday|wednesday|thursday"
    r"|friday|saturday|sunday"
)
# words that say a reminder repeats; left unread beside a reading, they make it a question
_CUE = re.compile(
    r"\b(?:(?:tod[oa]s?|tds?|every|each|cada)\s+(?:(?:os|as|o|a|the|santo)\s+)?(?:\d+\s+)?"
    rf"(?:dias?|semanas?|mes(?:es)?|anos?|horas?|days?|weeks?|months?|years?|hours?|weekdays?"
    rf"|other|second|third|primeir[ao]|ultim[ao]|first|last|manhas?|tardes?|noites?|morning"
    rf"|afternoon|evening|night|{_DAY_NAMES})"
    rf"|(?:{_DAY_NAMES})\s+sim\b|(?:segunda|terca|quarta|quinta|sexta|sabado|domingo)s\b"
    r"|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s\b"
    r"|dias?\s+ute(?:is|l)|business\s+days?|weekdays|weekends|fins\s+de\s+semana|finais\s+de\s+semana"
    r"|\d+\s+vezes\s+(?:por|ao)|twice|diariamente|semanalmente|mensalmente|quinzenalmente"
    rf"|anualmente|everyday|{_ADJ}(?:daily|weekly|monthly|biweekly|fortnightly|yearly|annually)"
    r"|proxim[oa]s\s+\d+|next\s+\d+)\b"
)
_HOW_OFTEN = r"(?:\d+|duas|tres|quatro|cinco|seis|two|three|four|five|six)"
# repetition with no rule to read: asked, never set ("de vez em quando", "every now and then")
_VAGUE = re.compile(
    r"\b(?:de\s+vez\s+em\s+(?:quando|qdo|qnd|qndo)|as\s+vezes|com\s+frequencia|frequentemente"
    r"|every\s+(?:few|couple\s+of|couple)\s+(?:days|weeks|hours)|a\s+cada\s+(?:uns|alguns)\s+dias"
    r"|(?:varias|algumas|umas)\s+vezes\s+(?:por|ao|no)\s+dia|volta\s+e\s+meia"
    r"|every\s+(?:now\s+and\s+then|so\s+often|once\s+in\s+a\s+while)|now\s+and\s+then"
    r"|from\s+time\s+to\s+time|regularly|frequently|periodically|often"
    r"|(?:several|a\s+few|many)\s+times\s+(?:a|per)\s+day"
    # how often but not which days: "3x por semana", "duas vezes no mês", "twice a week"
    rf"|{_HOW_OFTEN}\s*(?:x|vezes|times)\s+(?:por|na|no|ao|a|per|every|each)\s+(?:semana|mes|week|month)"
    # how many times a day, but not at what times: "3 times a day", "3x ao dia" (twice is read)
    r"|(?:[3-9]|three|four|five|six|tres|quatro|cinco|seis)\s*(?:x|vezes|times)\s+(?:por|ao|a|per)\s+(?:dia|day)"
    r"|twice\s+(?:a|per|every|each)\s+(?:week|month))\b"
)


def repeat_cue(folded: str) -> bool:
    """Whether a folded text still says something repeats ("toda", "every monday", "twice")."""
    return _CUE.search(folded) is not None


def vague_repeat(folded: str) -> tuple[int, int] | None:
    """Where a folded message asks to repeat with no rule ("às vezes", "regularly"), or None."""
    m = _VAGUE.search(folded)
    return m.span() if m else None
