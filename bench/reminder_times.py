"""Print how the reminder-time grammar agrees with Duckling, per shape, PT and EN (issue 36).

Phrases are generated from templates (days x clocks x parts of the day x relative forms x
zones x holidays), sent as "me lembra {phrase} de pagar a conta" / "remind me {phrase} to
pay the bill", and compared with Duckling's value for the phrase alone, at three fixed
"now"s (04:30 and 14:20 in 2026, and Duckling's reference, Tue 2013-02-12 04:30, São Paulo). Duckling (pyduckling-native-phihos, MIT) is a
development oracle only: `pip install '.[bench]'`; without it the comparison is skipped.

Documented convention differences are counted apart, not as disagreements:
- future: Duckling answers a moment already past ("today at 3" at 16:00); we take the next.
- day-only: Duckling answers a whole day; we set 09:00 on it (any time that day agrees).
- today's weekday: before 09:00, "tuesday" on a Tuesday is today for us, next week for Duckling.
- part of the day alone: Duckling answers an interval; any moment inside it agrees.
- question: a period without a day (a week, a month) or a vague time gets choices from us.
- next weekday: Duckling reads PT "próxima sexta" as the coming one, "sexta que vem" and
  EN "next friday" as the one in next week, and so do we.
- hour beside a day: "amanhã às 3" is 15:00 for us (1-6 p.m., 7-11 a.m.), 03:00 for Duckling.
- today after 09:00: "hoje"/"today" with no time, once 09:00 has passed, gets a question.
- days from now keep their day: "in 2 days at 10am" is 10:00 two days on, even when that is
  earlier in the day than now (Duckling moves it a day later).
- que vem: PT "terça que vem" said on a Wednesday is next week's Tuesday (6 days on);
  Duckling takes the Tuesday after the coming one (13 days on).

Also scores the held-out files written by hand (tests/agent/reminder_heldout*.tsv):
exact / wrong / missed / early, per language, and reminders whose text is not the task. Run from the repo root:
`.venv/bin/python bench/reminder_times.py [--show N]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.understanding.reminders import (  # noqa: E402
    AskWhen,
    PastTime,
    SetReminder,
    country_of_zone,
    parse,
    route,
)

ZONE = "America/Sao_Paulo"
NOWS = (
    datetime(2026, 2, 10, 4, 30, tzinfo=ZoneInfo(ZONE)),  # a Tuesday, before dawn
    datetime(2026, 3, 18, 14, 20, tzinfo=ZoneInfo(ZONE)),  # a Wednesday afternoon
    datetime(2013, 2, 12, 4, 30, tzinfo=ZoneInfo(ZONE)),  # Duckling's own reference time
)
HELDOUT = (
    (
        ROOT / "tests" / "agent" / "reminder_heldout.tsv",
        datetime(2026, 3, 18, 14, 20, tzinfo=ZoneInfo(ZONE)),
    ),
    (
        ROOT / "tests" / "agent" / "reminder_heldout_messages.tsv",
        datetime(2026, 11, 29, 8, 15, tzinfo=ZoneInfo(ZONE)),
    ),
)

CLOCKS = {
    "pt": [
        "às 3", "às 3h", "às 15h", "às 15:30", "às 8h15", "às 10h30", "às 3 e meia",
        "às 3 e quinze", "às duas e quarenta", "às dezoito", "às 7 da manhã", "às 3 da tarde",
        "às 9 da noite", "às 2 da madrugada", "ao meio-dia", "à meia-noite", "meio-dia e meia",
        "quinze para as oito", "vinte para as seis", "às 11h45", "às 0h30", "às 23:59",
        "às 6 horas", "às 21 horas", "às 4 da tarde", "às onze da noite", "às 20h",
    ],
    "en": [
        "at 3", "at 3pm", "at 3p", "at 15:00", "at 3:15pm", "3:15p", "at 1030", "at 10:30",
        "at 8 am", "at noon", "at midnight", "at a quarter past 3", "at half past 7",
        "at quarter to 8", "at ten to five", "at twenty past six", "at 7 o'clock",
        "at seven thirty", "at nine fifteen pm", "at 11 at night", "at 5 in the afternoon",
        "at 6 in the morning", "at 9pm", "at 12:30", "at 2115", "at 8:45 pm", "at 4",
    ],
}  # fmt: skip
DAYS = {
    "pt": [
        "hoje", "amanhã", "depois de amanhã", "segunda", "na terça", "quarta-feira",
        "na quinta", "sexta", "no sábado", "domingo", "seg", "qua.", "sex", "na próxima sexta",
        "sexta que vem", "terça da semana que vem", "5 de maio", "dia 15 de agosto",
        "12 de setembro de 2027", "sexta, 11 de setembro de 2026", "1º de maio", "dia 20",
        "dia 3", "20/03", "15/08/2026", "primeira terça de outubro", "última sexta de março",
        "2 de dezembro",
    ],
    "en": [
        "today", "tomorrow", "the day after tomorrow", "monday", "on tuesday", "wednesday",
        "on thursday", "friday", "on saturday", "sunday", "mon", "wed", "fri", "next friday",
        "this friday", "May 5", "August 15th", "Sept 12, 2027", "Friday, September 11, 2026",
        "the 1st of May", "on the 20th", "on the 3rd", "4/25", "8/15/2026",
        "first tuesday of october", "last friday of march", "December 2nd", "next tuesday",
    ],
}  # fmt: skip
DAY_CLOCKS = {
    "pt": ["às 10h", "às 3", "às 18:30", "às 8", "ao meio-dia", "às 9 da noite"],
    "en": ["at 10am", "at 3", "at 6:30pm", "at 8", "at noon", "at 9 in the evening"],
}
PART_DAYS = {
    "pt": [("hoje", "à noite"), ("amanhã", "de manhã"), ("amanhã", "à tarde"),
           ("sexta", "à noite"), ("no sábado", "de manhã"), ("amanhã", "à noite"),
           ("hoje", "à tarde"), ("domingo", "à tarde")],
    "en": [("", "tonight"), ("tomorrow", "morning"), ("tomorrow", "afternoon"),
           ("friday", "night"), ("saturday", "morning"), ("tomorrow", "evening"),
           ("", "this afternoon"), ("sunday", "evening")],
}  # fmt: skip
PART_CLOCKS = {
    "pt": ["às 11", "às 2", "às 8", "às 5", "às 7:30"],
    "en": ["at 11", "at 2", "at 8", "at 5", "at 7:30"],
}
RELATIVE = {
    "pt": [
        "daqui a 10 minutos", "em 5 minutos", "daqui a meia hora", "em uma hora",
        "daqui a 2 horas", "daqui a uma hora e meia", "em 3 dias", "daqui a uma semana",
        "em duas semanas", "em 2 meses", "daqui a um ano", "em 90 minutos", "em 1h30",
        "daqui a 45 minutos", "dentro de 20 minutos", "em 30 segundos",
    ],
    "en": [
        "in 10 minutes", "in 5 min", "in half an hour", "in an hour", "in 2 hours",
        "in an hour and a half", "in 3 days", "in a week", "in two weeks", "in 2 months",
        "in a year", "in 90 minutes", "in 1/2 hour", "2 minutes from now", "in 45 minutes",
        "within 20 minutes", "in 2.5 hours", "in 30 seconds",
    ],
}  # fmt: skip
RELATIVE_CLOCKS = {
    "pt": [("em 7 dias", "às 17h"), ("daqui a 2 dias", "às 10h"), ("em 3 dias", "às 9 da noite"),
           ("daqui a uma semana", "ao meio-dia")],
    "en": [("in 7 days", "at 5pm"), ("in 2 days", "at 10am"), ("in 3 days", "at 9 pm"),
           ("in a week", "at noon")],
}  # fmt: skip
# Duckling reads "GMT-3" and "UTC+1" as GMT and UTC (the offset is dropped): offsets are
# checked by the unit tests, not against it.
ZONES = ["UTC", "GMT", "PST", "EST", "BRT", "CET", "PDT", "EDT"]
ZONE_CLOCKS = {
    "pt": ["às 15h", "às 8:00", "amanhã às 10h"],
    "en": ["at 3pm", "8:00", "tomorrow at 10am"],
}
HOLIDAYS = {
    "pt": ["no natal", "no ano novo", "na véspera de natal", "na páscoa", "no dia das mães",
           "no dia dos namorados", "no natal às 20h"],
    "en": ["on christmas", "on new year's day", "on christmas eve", "on easter",
           "on thanksgiving", "on halloween", "on christmas at 8pm"],
}  # fmt: skip
RANGES = {
    "pt": ["das 3 às 5 da tarde", "entre 2 e 4 da tarde", "das 9h às 11h", "das 14h às 16h amanhã",
           "entre 10 e 11 da manhã"],
    "en": ["from 3 to 5pm", "between 2 and 4pm", "3-5pm", "from 9am to 11am", "tomorrow from 2 to 4pm"],
}  # fmt: skip
PAST = {
    "pt": ["ontem", "ontem às 10h", "anteontem", "há 2 horas", "há 3 dias"],
    "en": ["yesterday", "yesterday at 10am", "2 hours ago", "3 days ago", "last monday"],
}
PERIODS = {
    "pt": ["semana que vem", "mês que vem", "na próxima semana", "no fim de semana", "ano que vem"],
    "en": ["next week", "next month", "this weekend", "next year", "this week"],
}


def phrases(lang: str) -> list[tuple[str, str]]:
    """(shape, phrase) for one language."""
    out: list[tuple[str, str]] = []
    out += [("clock", c) for c in CLOCKS[lang]]
    out += [("day", d) for d in DAYS[lang]]
    out += [("day+clock", f"{d} {c}") for d in DAYS[lang] for c in DAY_CLOCKS[lang]]
    for day, part in PART_DAYS[lang]:
        out.append(("day+part", f"{day} {part}".strip()))
        for clock in PART_CLOCKS[lang]:
            out.append(("part+clock", " ".join(w for w in (day, part, clock) if w)))
            if lang == "pt":
                suffix = part.replace("à ", "da ").replace("de ", "da ")
                out.append(("clock+part", " ".join(w for w in (clock, suffix, day) if w)))
            else:
                out.append(("clock+part", " ".join(w for w in (clock, day, part) if w)))
    out += [("relative", r) for r in RELATIVE[lang]]
    out += [("relative+clock", f"{r} {c}") for r, c in RELATIVE_CLOCKS[lang]]
    out += [("zone", f"{c} {z}") for c in ZONE_CLOCKS[lang] for z in ZONES]
    out += [("holiday", h) for h in HOLIDAYS[lang]]
    out += [("period", p) for p in PERIODS[lang]]
    out += [("range", r) for r in RANGES[lang]]
    out += [("past", p) for p in PAST[lang]]
    return out


@dataclass(frozen=True)
class Oracle:
    start: datetime | None
    end: datetime | None  # the end of the grain or interval
    grain: str
    whole: bool = True  # the value covers the whole phrase (else Duckling read only a part)


_GRAINS = {
    "second": timedelta(seconds=1), "minute": timedelta(minutes=1), "hour": timedelta(hours=1),
    "day": timedelta(days=1), "week": timedelta(days=7), "month": timedelta(days=31),
    "year": timedelta(days=366),
}  # fmt: skip


class Duckling:
    def __init__(self) -> None:
        import duckling

        self.d = duckling
        self.zones = duckling.load_time_zones("/usr/share/zoneinfo")
        self.dims = duckling.parse_dimensions(["time"])

    def value(self, text: str, lang: str, now: datetime) -> Oracle | None:
        d = self.d
        ref = d.parse_ref_time(self.zones, ZONE, int(now.timestamp()))
        code = lang.upper()
        locale = d.parse_locale(code, d.default_locale_lang(d.parse_lang(code)))
        found = d.parse(text, d.Context(ref, locale), self.dims, False)
        if not found:
            return None
        best = max(found, key=lambda e: e["end"] - e["start"])
        value = best["value"]
        covered = text[: best["start"]] + text[best["end"] :]
        whole = not any(ch.isalnum() for ch in covered)
        if value.get("type") == "interval":
            start = _iso(value.get("from", {}).get("value"))
            end = _iso(value.get("to", {}).get("value"))
            if start is None:  # "before noon": due at its end
                start, end = end, end + timedelta(minutes=1) if end else None
            elif end is None:  # "after 5pm": due from its start, that day
                end = start + timedelta(days=1)
            return Oracle(start, end, "interval", whole)
        grain = value.get("grain", "second")
        start = _iso(value["value"])
        assert start is not None
        return Oracle(start, start + _GRAINS.get(grain, timedelta(seconds=1)), grain, whole)


def _iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text).astimezone(ZoneInfo(ZONE)) if text else None


def _message(phrase: str, lang: str) -> str:
    if lang == "pt":
        return f"me lembra {phrase} de pagar a conta"
    return f"remind me {phrase} to pay the bill"


def _read(message: str, now: datetime) -> SetReminder | PastTime | AskWhen | None:
    routed = route(message)
    if routed is None or routed[0] != "remind":
        return None
    return parse(message, now, country=country_of_zone(ZONE))


def ours(phrase: str, lang: str, now: datetime) -> SetReminder | PastTime | AskWhen | None:
    return _read(_message(phrase, lang), now)


def verdict(
    got: SetReminder | PastTime | AskWhen | None,
    want: Oracle | None,
    now: datetime,
    phrase: str = "",
) -> str:
    """agree | convention:<which> | disagree | early | ours-missed | duckling-missed

    duckling-missed: Duckling found nothing, or a value for only part of the phrase.
    """
    if want is None or not want.whole:
        return "duckling-missed" if isinstance(got, SetReminder) else "agree"
    if isinstance(got, AskWhen):
        if (
            want.grain in ("week", "month", "year")
            or want.grain == "interval"
            and want.end
            and want.start
            and want.end - want.start > timedelta(days=1)
        ):
            return "convention:question"
        if want.grain == "day" and want.start and want.start.date() == now.date() and now.hour >= 9:
            return "convention:today after 09:00"
        return "ours-missed"
    if got is None:
        return "ours-missed"
    due = got.due
    assert want.start is not None
    if want.grain == "interval":
        if want.end is not None and want.start <= due < want.end:
            return "agree"
        if due > now and want.start < now:
            return "convention:future"
    elif want.start <= due < (want.end or want.start):
        return (
            "convention:day-only"
            if want.grain == "day" and due.hour == 9 and due.minute == 0
            else "agree"
        )
    if isinstance(got, PastTime):
        return "agree" if want.start < now else "ours-missed"
    if want.start <= now < due:
        return "convention:future"
    if (
        want.grain == "day"
        and due.date() == now.date()
        and due.hour == 9
        and want.start.weekday() == now.weekday()
    ):
        return "convention:today's weekday"
    if (
        want.grain in ("hour", "minute")
        and abs(due - want.start) == timedelta(hours=12)
        and due > want.start
    ):
        return "convention:hour beside a day"
    if (
        want.start - due == timedelta(days=1)
        and due > now
        and phrase.startswith(("in ", "em ", "daqui"))
    ):
        return "convention:days from now keep their day"
    if timedelta(days=6) <= want.start - due <= timedelta(days=7, hours=12) and "que vem" in phrase:
        return "convention:que vem is next week's"
    return "early" if due < want.start else "disagree"


def compare(show: int) -> None:
    try:
        oracle = Duckling()
    except ImportError:
        print(
            "Duckling comparison skipped: pyduckling-native-phihos is not installed (pip install '.[bench]')."
        )
        return
    for lang in ("pt", "en"):
        table: dict[str, Counter[str]] = defaultdict(Counter)
        shown: list[str] = []
        total = 0
        for now in NOWS:
            for shape, phrase in phrases(lang):
                got = ours(phrase, lang, now)
                want = oracle.value(phrase, lang, now)
                result = verdict(got, want, now, phrase)
                table[shape][result] += 1
                total += 1
                if (
                    result in ("disagree", "early", "ours-missed", "duckling-missed")
                    and len(shown) < show
                ):
                    mine = (
                        got.due.isoformat(" ", "minutes")
                        if isinstance(got, SetReminder)
                        else type(got).__name__
                    )
                    theirs = (
                        f"{want.start:%Y-%m-%d %H:%M} ({want.grain})"
                        if want and want.start
                        else "-"
                    )
                    shown.append(
                        f"  {result:15} {now:%H:%M} {phrase!r}: ours {mine}, duckling {theirs}"
                    )
        print(
            f"\n{lang.upper()}: {total // len(NOWS)} phrases x {len(NOWS)} nows = {total} readings"
        )
        print(
            f"  {'shape':15} {'n':>4} {'agree':>6} {'conv.':>6} {'differ':>6} {'early':>6} {'ours -':>6} {'duck -':>6}"
        )
        sums: Counter[str] = Counter()
        for shape, counts in table.items():
            conv = sum(v for k, v in counts.items() if k.startswith("convention"))
            n = sum(counts.values())
            sums.update(counts)
            print(
                f"  {shape:15} {n:>4} {counts['agree']:>6} {conv:>6} {counts['disagree']:>6} {counts['early']:>6} {counts['ours-missed']:>6} {counts['duckling-missed']:>6}"
            )
        conv_total = {k: v for k, v in sums.items() if k.startswith("convention")}
        n = sum(sums.values())
        agree = sums["agree"] + sum(conv_total.values())
        read = n - sums["duckling-missed"]
        print(
            f"  agreement (conventions counted as agreeing): {agree}/{n} = {100 * agree / n:.1f}%;"
            f" on the {read} phrases Duckling read whole: {100 * agree / read:.1f}%;"
            f" early: {sums['early']}"
        )
        print(f"  conventions: {json.dumps(dict(sorted(conv_total.items())))}")  # fmt: skip
        for line in shown:
            print(line)


def heldout(path: Path, now: datetime) -> None:
    """Score a held-out file: rows of (language, phrase, expected) or (language, message,
    expected, what); a phrase is sent inside "me lembra ... de pagar a conta"."""
    rows = [
        line.split("\t")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    print(f"\nHeld-out {path.relative_to(ROOT)}, now = {now:%a %Y-%m-%d %H:%M}:")
    stats: dict[str, Counter[str]] = defaultdict(Counter)
    for lang, phrase, want, *what in rows:
        if what:
            message, task = phrase, what[0]
        else:
            message = _message(phrase, lang)
            task = "pagar a conta" if lang == "pt" else "pay the bill"
        got = _read(message, now)
        if isinstance(got, SetReminder):
            text = f"{got.due:%Y-%m-%d %H:%M}" + (f":{got.due:%S}" if got.due.second else "")
        else:
            text = {PastTime: "past", AskWhen: "?"}.get(type(got), "-")  # type: ignore[arg-type]
        s = stats[lang]
        s["n"] += 1
        if text == want:
            s["exact"] += 1
        elif text in ("-", "?", "past") or want in ("?", "past", "-"):
            s["missed"] += 1
        else:
            s["early" if text < want else "wrong"] += 1
        if isinstance(got, SetReminder | AskWhen) and got.what != task:
            s["words left"] += 1
    for lang, s in stats.items():
        print(f"  {lang.upper()}: {s['n']} phrases: exact {s['exact']} ({100 * s['exact'] / s['n']:.1f}%),"
              f" wrong {s['wrong']}, missed {s['missed']}, early {s['early']},"
              f" reminder text not exactly the task {s['words left']}")  # fmt: skip


def timing(path: Path, now: datetime, rounds: int = 20) -> None:
    """Microseconds per `route` + `parse` of one whole message (median, p90)."""
    messages = [
        line.split("\t")[1]
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    samples = []
    for _ in range(rounds):
        for message in messages:
            start = time.perf_counter()
            _read(message, now)
            samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    median = statistics.median(samples)
    p90 = samples[int(len(samples) * 0.9)]
    print(
        f"\nroute + parse, {len(messages)} messages x {rounds}: median {median:.0f} us, p90 {p90:.0f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", type=int, default=25, help="disagreements to print per language")
    args = parser.parse_args()
    compare(args.show)
    for path, now in HELDOUT:
        heldout(path, now)
    timing(*HELDOUT[1])


if __name__ == "__main__":
    main()
