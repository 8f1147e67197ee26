"""Score repeating reminders on a TSV set (issue 43): right rule and first time, right text,
asked, wrong, early; per shape and per language.

The file: tab-separated, '#' comment lines, columns `lang zone now message expected text
shape`. `now` is local "YYYY-MM-DD HH:MM" in `zone`; `message` goes through the runtime's
own entry (`route`, then `parse` with the user's reading conventions, as `reading_for` does);
`expected` is "ask", one time (a one-off reminder: right when read as that one time), or
the first three occurrences as local "YYYY-MM-DD HH:MM" joined by ";" (fewer when the rule
ends sooner), optionally followed by ";end=YYYY-MM-DD HH:MM" (the last
occurrence) or ";count=N"; `text` is the words to remember.

- right: the reading is a repeating reminder whose first occurrences (and end or count) are
  the expected ones, or a question where "ask" is expected;
- asked: a question where occurrences were expected (never early, but not right), and, read
  as typed, a day and a task with no request verb, which asks "a reminder, or a note?";
- wrong: anything else (not a reminder, no rule, other times);
- early: a reminder whose first occurrence comes before the expected first one;
- text: the reminder's text is the expected text (case and spaces aside); also printed with
  accents aside (a message typed without accents keeps the user's words).

Sets: tests/agent/reminder_recurring_dev.tsv, tests/agent/reminder_recurring_dev2.tsv,
tests/agent/reminder_recurring_dev3.tsv and tests/agent/reminder_partial_dev.tsv (ours; every
row right in tests/agent/reminders/test_dev_sets.py); bench/reminder_recurring_blind.tsv (155 repeating requests) and
bench/reminder_partial_blind.tsv (153 one-off requests with partial or vague times), written
blind for issue 43, run once (first-run figures in the wave-4 closing note), spent since;
bench/reminder_recurring_blind3.tsv (90) and bench/reminder_partial_blind3.tsv (90), written
blind in wave 6 and run once (first run: repeating as typed 91.1% EN and PT, as `/remind`
91.1% EN, 93.3% PT; one-offs as typed 80.0% EN, 75.6% PT, as `/remind` 95.6% EN, 86.7% PT;
0 early in all), spent since; bench/reminder_recurring_blind4.tsv (100) and
bench/reminder_partial_blind4.tsv (112), written blind in wave 8 and run once on 586c2f9
(repeating as typed 79.2% EN, 84.6% PT, as `/remind` 85.4% EN, 88.5% PT, 0 early; one-offs
as typed 90.7% EN, 86.2% PT, as `/remind` 92.6% EN, 91.4% PT, 1 early), spent since.

Run from the repo root: `.venv/bin/python bench/reminder_recurring.py --file PATH.tsv [--show]
[--as-remind]`; `--as-remind` reads each message as `/remind <message>` does, for sets whose
messages carry no reminder verb ("todo dia 7h30 tomar o remédio").
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.understanding.reminders import (  # noqa: E402
    AskWhen,
    SetReminder,
    country_of_zone,
    parse,
    route,
)
from agent.understanding.reminders.rules import last, occurrences  # noqa: E402

FORMAT = "%Y-%m-%d %H:%M"


@dataclass(frozen=True)
class Row:
    lang: str
    zone: str
    now: datetime
    message: str
    expected: str
    text: str
    shape: str


@dataclass(frozen=True)
class Expected:
    ask: bool
    times: tuple[str, ...] = ()
    end: str | None = None
    count: int | None = None


def rows(path: Path) -> list[Row]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 7:
            raise SystemExit(f"{path}:{number}: expected 7 tab-separated columns, got {len(cells)}")
        lang, zone, now, message, expected, text, shape = (c.strip() for c in cells)
        tz = ZoneInfo(zone)
        out.append(
            Row(
                lang,
                zone,
                datetime.strptime(now, FORMAT).replace(tzinfo=tz),
                message,
                expected,
                text,
                shape,
            )  # fmt: skip
        )
    return out


def expected_of(cell: str) -> Expected:
    if cell.lower() == "ask":
        return Expected(True)
    times, end, count = [], None, None
    for part in (p.strip() for p in cell.split(";") if p.strip()):
        if part.startswith("end="):
            end = part[4:].strip()
        elif part.startswith("count="):
            count = int(part[6:])
        else:
            times.append(part)
    return Expected(False, tuple(times), end, count)


def _folded(text: str) -> str:
    return " ".join(text.casefold().split())


def _plain(text: str) -> str:
    """Folded and without accents: a message typed without them keeps the user's words."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", _folded(text)) if not unicodedata.combining(c)
    )


def judge(row: Row, *, as_remind: bool = False) -> tuple[str, bool, str, bool]:
    """(verdict: right | asked | wrong | early, text right, what was read, text right with
    accents aside) for one row.

    `as_remind`: the message as `/remind <message>` takes it (no reminder verb needed)."""
    expected = expected_of(row.expected)
    routed = route(row.message)
    if not as_remind and routed is not None and routed[0] == "remind_or_note":
        return "asked", False, "reminder or note?", False  # one question, never right
    if not as_remind and (routed is None or routed[0] != "remind"):
        return "wrong", False, f"not a reminder ({routed[0] if routed else 'none'})", False
    country = country_of_zone(row.zone)
    month_first = row.lang == "en" and country == "US"
    parsed = parse(row.message, row.now, month_first=month_first, country=country)
    if isinstance(parsed, AskWhen):
        return ("right" if expected.ask else "asked"), expected.ask, "ask", expected.ask
    if not isinstance(parsed, SetReminder):
        return "wrong", False, type(parsed).__name__, False
    text_right = _folded(parsed.what) == _folded(row.text)
    plain = _plain(parsed.what) == _plain(row.text)
    if parsed.rule is None:  # a one-off: right when a one-off of that time was expected
        due = parsed.due.strftime(FORMAT)
        read = f"once {due}"
        if expected.times and _instant(row, due) < _instant(row, expected.times[0]):
            return "early", text_right, read, plain
        once = len(expected.times) == 1 and expected.end is None and expected.count is None
        verdict = "right" if once and due == expected.times[0] else "wrong"
        return verdict, text_right, read, plain
    got = [a.strftime(FORMAT) for a in occurrences(parsed.rule, parsed.due, limit=3)]
    read = f"{parsed.rule.full()} {';'.join(got)}"
    if expected.ask:
        return "wrong", text_right, read, plain
    if expected.times and got and _instant(row, got[0]) < _instant(row, expected.times[0]):
        return "early", text_right, read, plain
    right = tuple(got) == expected.times[:3] and len(got) == len(expected.times[:3])
    if right and expected.end is not None:
        final = last(parsed.rule, parsed.due)
        right = final is not None and final.strftime(FORMAT) == expected.end
    if right and expected.count is not None:
        right = parsed.rule.count == expected.count or (
            parsed.rule.count is None
            and len(occurrences(parsed.rule, parsed.due, limit=expected.count + 1))
            == expected.count
        )
    return ("right" if right else "wrong"), text_right, read, plain


def _instant(row: Row, local: str) -> float:
    return datetime.strptime(local, FORMAT).replace(tzinfo=ZoneInfo(row.zone)).timestamp()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--file", type=Path, required=True)
    parser.add_argument("--show", action="store_true", help="print every row not right")
    parser.add_argument(
        "--as-remind",
        action="store_true",
        help="read each message as `/remind <message>` does (a request with no reminder verb)",
    )
    args = parser.parse_args()
    by_shape: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    by_lang: dict[str, Counter[str]] = defaultdict(Counter)
    shown = []
    for row in rows(args.file):
        verdict, text_right, read, plain = judge(row, as_remind=args.as_remind)
        for counter in (by_shape[(row.lang, row.shape)], by_lang[row.lang]):
            counter[verdict] += 1
            counter["n"] += 1
            counter["text"] += text_right
            counter["plain"] += plain
        if verdict != "right" or not text_right:
            shown.append(f"  {verdict:5} text={'ok' if text_right else 'no'} {row.lang} "
                         f"{row.message!r}: read {read}; expected {row.expected} / {row.text!r}")  # fmt: skip
    header = f"  {'lang':4} {'shape':22} {'n':>4} {'right':>6} {'text':>5} {'asked':>6} {'wrong':>6} {'early':>6}"  # noqa: E501
    print(f"{args.file}:")
    print(header)
    for (lang, shape), c in sorted(by_shape.items()):
        print(f"  {lang:4} {shape:22} {c['n']:>4} {c['right']:>6} {c['text']:>5} {c['asked']:>6} "
              f"{c['wrong']:>6} {c['early']:>6}")  # fmt: skip
    for lang, c in sorted(by_lang.items()):
        n = c["n"] or 1
        print(f"{lang}: {c['n']} messages: right rule and first time {c['right']} "
              f"({100 * c['right'] / n:.1f}%), right text {c['text']} ({100 * c['text'] / n:.1f}%; "
              f"accents aside {c['plain']}, {100 * c['plain'] / n:.1f}%), "
              f"asked {c['asked']}, wrong {c['wrong']}, early {c['early']}")  # fmt: skip
    if args.show:
        print("\n".join(shown))


if __name__ == "__main__":
    main()
