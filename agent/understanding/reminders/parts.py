"""Parts of the day (PT/EN): manhã, tarde, noite, madrugada; morning, afternoon, evening, tonight.

A part of the day alone stands for its default hour. Beside a clock, on either side
("hoje à noite às 11", "às 11 da noite", "tonight at 11", "8 tonight"), it says
which half of the day an ambiguous clock is in: a reminder is never set 12 hours
early because the part was on the other side of the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agent.understanding.reminders.clocks import Clock
from agent.understanding.reminders.lexicon import Phrases, Tok

PartName = Literal[
    "early", "morning", "before_lunch", "lunch", "after_lunch", "afternoon", "late_afternoon",
    "end_of_day", "evening", "night", "dawn",
]  # fmt: skip
DEFAULT_HOUR: dict[PartName, int] = {
    "early": 7, "morning": 9, "before_lunch": 11, "lunch": 12, "after_lunch": 14, "afternoon": 15,
    "late_afternoon": 17, "end_of_day": 18, "evening": 19, "night": 20, "dawn": 3,
}  # fmt: skip
# parts whose start is not one moment: alone, without a clock, they get a question with 2-3
# times ("amanhã de manhã": 7, 8 or 9?), never a guessed hour (issue 43: readers of "de tarde"
# mean anything from 13:00 to 17:00, and a guess before theirs is an early reminder); lunch
# and noon are one moment
ASKED: dict[PartName, tuple[int, ...]] = {
    "early": (6, 7, 8), "morning": (7, 8, 9), "before_lunch": (10, 11), "after_lunch": (13, 14, 15),
    "afternoon": (14, 15, 16), "late_afternoon": (16, 17, 18), "end_of_day": (17, 18, 19),
    "evening": (18, 19, 20), "night": (19, 20, 21), "dawn": (3, 4, 5),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Part:
    name: PartName
    today: bool = False  # "tonight", "esta noite", "this morning" also name the day
    strong: bool = True  # a bare "tarde", "night" counts only beside a day or a clock


def _forms() -> list[tuple[str, Part]]:
    forms: list[tuple[str, Part]] = []
    pt: dict[str, PartName] = {
        "manha": "morning", "tarde": "afternoon", "noite": "night", "madrugada": "dawn"
    }  # fmt: skip
    for word, name in pt.items():
        forms.append((word, Part(name, strong=False)))
        for lead in ("de", "pela", "na", "a", "durante a"):
            forms.append((f"{lead} {word}", Part(name)))
        forms.append((f"da {word}", Part(name)))
        for lead in ("esta", "nesta", "essa", "nessa", "hoje a", "hoje de", "hoje na"):
            forms.append((f"{lead} {word}", Part(name, today=True)))
    en: dict[str, PartName] = {
        "morning": "morning", "afternoon": "afternoon", "evening": "night", "night": "night"
    }  # fmt: skip
    for word, name in en.items():
        forms.append((word, Part(name, strong=False)))
        for lead in ("in the", "during the", "at", "in"):
            forms.append((f"{lead} {word}", Part(name)))
        forms.append((f"this {word}", Part(name, today=True)))
    forms.append(("at night", Part("night")))
    for early in (
        "cedo",
        "bem cedo",
        "de manha cedo",
        "cedinho",
        "logo cedo",
        "early",
        "early morning",
        "early in the morning",
        "in the early morning",
        "first thing",
        "first thing in the morning",
        "logo pela manha",
        "logo de manha",
    ):
        forms.append((early, Part("early", strong=early not in ("cedo", "early"))))
    for end in (
        "fim da tarde",
        "final da tarde",
        "no fim da tarde",
        "no final da tarde",
        "late afternoon",
        "after work",
        "depois do trabalho",
        "depois do expediente",
    ):
        forms.append((end, Part("end_of_day")))
    for lunch in (
        "lunch",
        "lunchtime",
        "at lunch",
        "at lunchtime",
        "almoco",
        "no almoco",
        "na hora do almoco",
        "hora do almoco",
    ):
        forms.append((lunch, Part("lunch", strong=lunch not in ("lunch", "almoco"))))
    for after in ("depois do almoco", "apos o almoco", "after lunch", "after lunchtime"):
        forms.append((after, Part("after_lunch")))
    for before in ("antes do almoco", "before lunch", "before lunchtime"):
        forms.append((before, Part("before_lunch")))
    soft: tuple[tuple[str, PartName], ...] = (
        ("tardinha", "late_afternoon"),
        ("noitinha", "evening"),
    )
    for word, name in soft:
        forms.append((word, Part(name)))
        for lead in ("de", "a", "na", "pela", "no fim da", "no comeco da", "no inicio da"):
            forms.append((f"{lead} {word}", Part(name)))
    for word in ("tonight", "tonite", "2nite"):
        forms.append((word, Part("night", today=True)))
    return forms


PARTS = Phrases(_forms())


def read_part(toks: tuple[Tok, ...], i: int) -> tuple[Part, int] | None:
    """A part of the day starting at token `i`, or None."""
    return PARTS.match(toks, i)


def clock_in_part(clock: Clock, part: Part) -> tuple[int, int, int]:
    """Hour, minute and days after the named day for `clock` read in `part`.

    Night hours after midnight ("às 2 da noite", "tonight at 1") fall on the next day; an
    afternoon hour is p.m. whatever it is ("this afternoon at 8": 20:00, never 08:00).
    """
    if clock.end_of_day:  # "midnight tonight", "hoje à noite à meia-noite": the day's end
        return 0, clock.minute, 1
    if clock.meridiem is None and clock.hour == 12 and not clock.fixed:
        return (0, clock.minute, 1) if part.name == "night" else (12, clock.minute, 0)
    if not clock.ambiguous:
        hour, minute = clock.fixed_time()
        return hour, minute, 0
    hour = clock.hour
    match part.name:
        case "morning" | "dawn" | "early" | "before_lunch":
            return hour, clock.minute, 0
        case "lunch":
            return (hour, clock.minute, 0) if hour >= 10 else (hour + 12, clock.minute, 0)
        case "afternoon" | "end_of_day" | "after_lunch" | "late_afternoon" | "evening":
            return hour + 12, clock.minute, 0
        case "night":
            if hour <= 4:
                return hour, clock.minute, 1
            return hour + 12, clock.minute, 0
