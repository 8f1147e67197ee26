"""The held-out phrases written by hand (issue 36): nearly all exact, none due early, no time
word left in what will be said back. The figures are printed by bench/reminder_times.py."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agent.understanding.reminders import AskWhen, PastTime, SetReminder, parse, route

HERE = Path(__file__).resolve().parent.parent
ZONE = ZoneInfo("America/Sao_Paulo")
FILES = {
    "reminder_heldout.tsv": datetime(2026, 3, 18, 14, 20, tzinfo=ZONE),
    "reminder_heldout_messages.tsv": datetime(2026, 11, 29, 8, 15, tzinfo=ZONE),
}


def _outcome(message: str, now: datetime) -> tuple[str, str | None]:
    routed = route(message)
    if routed is None or routed[0] != "remind":
        return "-", None
    parsed = parse(message, now, country="BR")
    if isinstance(parsed, SetReminder):
        due = parsed.due.strftime("%Y-%m-%d %H:%M") + (
            f":{parsed.due:%S}" if parsed.due.second else ""
        )
        return due, parsed.what
    if isinstance(parsed, AskWhen):
        return "?", parsed.what
    return ("past" if isinstance(parsed, PastTime) else "-"), None


@pytest.mark.parametrize("name", sorted(FILES))
def test_held_out_times_are_exact_and_never_early(name: str) -> None:
    now = FILES[name]
    counts: Counter[str] = Counter()
    problems = []
    for line in (HERE / name).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lang, phrase, want, *what = line.split("\t")
        if what:
            message, task = phrase, what[0]
        else:
            message = (
                f"me lembra {phrase} de pagar a conta"
                if lang == "pt"
                else f"remind me {phrase} to pay the bill"
            )
            task = "pagar a conta" if lang == "pt" else "pay the bill"
        got, said = _outcome(message, now)
        counts[f"{lang} n"] += 1
        if got == want:
            counts[f"{lang} exact"] += 1
        else:
            problems.append((message, want, got))
        if want[0].isdigit() and got[0].isdigit() and got < want:
            counts["early"] += 1
        if said is not None and said != task:
            counts["words left"] += 1
            problems.append((message, task, said))
    assert counts["early"] == 0, problems
    assert counts["words left"] == 0, problems
    for lang in ("pt", "en"):
        assert counts[f"{lang} n"] >= 60
        assert counts[f"{lang} exact"] / counts[f"{lang} n"] >= 0.95, problems
