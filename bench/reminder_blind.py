"""Score the reminder grammar on the blind review corpus (tests/agent/reminder_blind.tsv, issue 36).

Each phrase is sent the way a person would, "me lembra {frase} de pagar a conta" / "remind me
{phrase} to pay the bill", through the runtime's own entry: `route` must take it as a reminder,
then `parse` reads it with the row's "now" in the row's zone (m/d dates for en in a US zone, and
that country's holidays, as `reading_for` does). Per language it prints:
- exact: the due instant is one the row accepts (or the question / "has passed" it expects);
- early: a reminder due before the earliest instant the row accepts (the failure that matters);
- wrong: any other reminder (later, or set where a question or "passed" was expected);
- missed: not taken as a reminder, or a question / "passed" where an instant was expected;
- text: the reminder's text is exactly the task ("pagar a conta" / "pay the bill").

Run from the repo root: `.venv/bin/python bench/reminder_blind.py [--show]`.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
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

CORPUS = ROOT / "tests" / "agent" / "reminder_blind.tsv"
TEMPLATE = {"pt": "me lembra {} de pagar a conta", "en": "remind me {} to pay the bill"}
TASK = {"pt": "pagar a conta", "en": "pay the bill"}


@dataclass(frozen=True)
class Row:
    lang: str
    zone: str
    now: datetime
    phrase: str
    expected: str
    shape: str


def instant(text: str, zone: ZoneInfo) -> datetime:
    """'YYYY-MM-DD HH:MM' is wall time in the zone; 'YYYY-MM-DDTHH:MM+hh:mm' is exact."""
    if "T" in text:
        return datetime.fromisoformat(text)
    return datetime.fromisoformat(text).replace(tzinfo=zone)


def rows(path: Path = CORPUS) -> list[Row]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lang, zone, now, phrase, expected, shape = line.split("\t")
        tz = ZoneInfo(zone)
        out.append(Row(lang, zone, instant(now, tz), phrase, expected, shape))
    return out


def off_task(what: str, lang: str) -> str | None:
    return None if what == TASK[lang] else what


def judge(row: Row) -> tuple[str, str, str | None]:
    """(verdict, what the parser said, the reminder text when it is not the task) for one row."""
    tz = ZoneInfo(row.zone)
    message = TEMPLATE[row.lang].format(row.phrase)
    routed = route(message)
    if routed is None or routed[0] != "remind":
        return "missed", f"route={routed}", None
    country = country_of_zone(row.zone)
    month_first = row.lang == "en" and country == "US"
    got = parse(routed[1], row.now, month_first=month_first, country=country)
    points: list[datetime] = []
    ranges: list[tuple[datetime, datetime]] = []
    words: set[str] = set()
    for alt in row.expected.split("|"):
        if alt in ("ask", "past"):
            words.add(alt)
        elif alt.startswith("range:"):
            lo, hi = alt.removeprefix("range:").split("..")
            ranges.append((instant(lo, tz), instant(hi, tz)))
        else:
            points.append(instant(alt, tz))
    if got is None:
        return "missed", "None", None
    if isinstance(got, AskWhen):
        said = f"ask({got.reason})"
        return ("exact" if "ask" in words else "missed"), said, off_task(got.what, row.lang)
    if isinstance(got, PastTime):
        return ("exact" if "past" in words else "missed"), "past", None
    assert isinstance(got, SetReminder)
    due = got.due
    said = due.astimezone(tz).strftime("%Y-%m-%d %H:%M %z")
    text_off = off_task(got.what, row.lang)
    # instants compared as timestamps: == between aware datetimes with different tzinfo is
    # always False for a wall time that repeats when summer time ends (PEP 495)
    stamp = due.timestamp()
    if any(stamp == p.timestamp() for p in points) or any(
        lo.timestamp() <= stamp <= hi.timestamp() for lo, hi in ranges
    ):
        return "exact", said, text_off
    earliest = points + [lo for lo, _ in ranges]
    if earliest and stamp < min(e.timestamp() for e in earliest):
        return "early", said, text_off
    return "wrong", said, text_off


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="list every row that is not exact")
    args = ap.parse_args()
    counts: dict[str, Counter[str]] = {"pt": Counter(), "en": Counter()}
    bad_text: dict[str, list[str]] = {"pt": [], "en": []}
    failures: list[str] = []
    for row in rows():
        verdict, said, text_off = judge(row)
        counts[row.lang][verdict] += 1
        if text_off is not None:
            bad_text[row.lang].append(f"{row.phrase!r} -> {text_off!r}")
        if verdict != "exact":
            failures.append(
                f"{verdict:6} {row.lang} [{row.now:%a %Y-%m-%d %H:%M} {row.zone}] "
                f"{row.phrase!r}: got {said}, want {row.expected} ({row.shape})"
            )
    for lang in ("pt", "en"):
        c = counts[lang]
        total = sum(c.values())
        print(
            f"{lang}: {total} phrases, exact {c['exact']} ({100 * c['exact'] / total:.1f}%), "
            f"wrong {c['wrong']}, missed {c['missed']}, early {c['early']}, "
            f"text not the task {len(bad_text[lang])}"
        )
    if args.show:
        print()
        print("\n".join(failures))
        for lang in ("pt", "en"):
            if bad_text[lang]:
                print(f"text not the task ({lang}):", "; ".join(bad_text[lang]))


if __name__ == "__main__":
    main()
