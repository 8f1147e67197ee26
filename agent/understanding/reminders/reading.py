"""The time a message names: pieces read by the grammar, grouped and combined into one `When`.

Every reader (relative amounts, days, dates, clocks, parts of the day, zones, holidays,
periods) is tried at each token; the longest match wins. Pieces that stand together,
with at most a comma or a "de"/"of" between them, form a group ("sexta, 12 de setembro
de 2014 às 10h"); a piece that contradicts the ones before it starts another. Words
that are also other words (a bare number, "segunda", "sat", "tarde", "later") count
only beside a piece that is certainly a time, or right after the request, or at the
end. The group with something certain and the most pieces is the time; a lone clock
or day elsewhere completes it ("me lembra amanhã de ligar às 9h").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from agent.understanding.reminders.clocks import Clock, read_clock
from agent.understanding.reminders.dates import (
    Date,
    DayOffset,
    DayPiece,
    NthWeekday,
    Weekday,
    read_day_of_month,
    read_day_word,
    read_month_date,
    read_nth_weekday,
    read_numeric_date,
    read_weekday,
    read_weekdays_from_now,
)
from agent.understanding.reminders.holidays import Holiday, read_holiday
from agent.understanding.reminders.lexicon import Tok, text_at
from agent.understanding.reminders.parts import Part, read_part
from agent.understanding.reminders.periods import Period, read_period
from agent.understanding.reminders.relative import Relative, read_relative
from agent.understanding.reminders.zones import Zone, read_zone

Piece = Relative | DayOffset | Weekday | Date | NthWeekday | Holiday | Clock | Part | Zone | Period
Reader = Callable[[tuple[Tok, ...], int], "tuple[Piece, int] | None"]

GLUE = frozenset({",", "-", "de", "do", "da", "the", "of", "on", "em", "no", "na", "at", "as"})
_ARTICLES = frozenset({"a", "o", "da", "do", "de", "the", "uma", "um", "of"})
# what may stand between the request and a word that is a time only there ("me lembra sexta")
_REQUEST_GAP = frozenset({",", ":", "-", "pra", "para", "pro", "for", "on", "na", "no"})
# what may follow it: the task's own link word, not the task ("sexta de pagar", not "ter paciência")
_TASK_LINKS = frozenset({"de", "do", "da", "que", "pra", "para", "pro", "to", "that", "about",
                         "of", "for", "e", "and", "me", "remind", "lembra", "sobre"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Found:
    piece: Piece
    start: int  # token indexes
    end: int


@dataclass(frozen=True, slots=True)
class When:
    """What the message says about when, before it is put on a calendar."""

    relative: Relative | None = None
    day: DayPiece | Holiday | None = None
    clock: Clock | None = None
    part: Part | None = None
    zone: Zone | None = None
    period: Period | None = None
    spans: tuple[tuple[int, int], ...] = ()  # character spans of the words read

    @property
    def has_day(self) -> bool:
        return self.day is not None or self.relative is not None


def read_when(
    toks: tuple[Tok, ...], *, trigger: tuple[int, int] | None = None, month_first: bool = False
) -> When | None:
    """The time the tokens name outside the `trigger` token range, or None."""
    readers: tuple[Reader, ...] = (
        read_relative,
        read_weekdays_from_now,
        read_period,
        read_nth_weekday,
        read_holiday,
        read_month_date,
        lambda t, i: read_numeric_date(t, i, month_first=month_first),
        read_day_word,
        read_weekday,
        read_day_of_month,
        read_clock,
        read_part,
        read_zone,
    )
    found: list[Found] = []
    segments = [(0, len(toks))] if trigger is None else [(0, trigger[0]), (trigger[1], len(toks))]
    for start, stop in segments:
        found += _scan(toks[:stop], start, readers)
    candidates: list[tuple[When, list[Found], bool]] = []
    for glued_group in _groups(toks, found):
        for group in _split(glued_group):
            kept, certain = _kept(toks, group, trigger)
            when = _combine(kept) if kept else None
            if when is not None:
                candidates.append((when, kept, certain))
    if not candidates:
        return None
    primary, group, _ = max(candidates, key=lambda c: (c[2], _weight(c[0]), -c[1][0].start))
    used = [group]
    for other, other_group, _ in candidates:
        if other_group is group:
            continue
        merged = _complete(primary, other)
        if merged is not None:
            primary = merged
            used.append(other_group)
    spans = tuple((toks[g[0].start].start, toks[g[-1].end - 1].end) for g in used)
    return replace(primary, spans=spans)


def _scan(toks: tuple[Tok, ...], start: int, readers: tuple[Reader, ...]) -> list[Found]:
    found: list[Found] = []
    i = start
    while i < len(toks):
        best: Found | None = None
        for reader in readers:
            result = reader(toks, i)
            if result is not None and (best is None or result[1] > best.end):
                best = Found(result[0], i, result[1])
        if best is None:
            i += 1
            continue
        found.append(best)
        i = best.end
    return found


def _groups(toks: tuple[Tok, ...], found: list[Found]) -> list[list[Found]]:
    groups: list[list[Found]] = []
    for item in found:
        if groups and all(t.text in GLUE for t in toks[groups[-1][-1].end : item.start]):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _strong(piece: Piece) -> bool:
    if isinstance(piece, Clock | Weekday | Part):
        return piece.strong
    if isinstance(piece, Period):
        return not piece.weak
    if isinstance(piece, Relative):
        return piece != Relative()  # "now" inside the task ("call now that...") is no time
    return not isinstance(piece, Zone)


def _split(group: list[Found]) -> list[list[Found]]:
    """A group cut where a piece contradicts the ones before it ("de sexta amanhã às 9h")."""
    parts: list[list[Found]] = [[]]
    when = When()
    for item in group:
        nxt = _add(when, item.piece)
        if nxt is None:
            parts.append([])
            nxt = _add(When(), item.piece) or When()
        parts[-1].append(item)
        when = nxt
    return [p for p in parts if p]


def _kept(
    toks: tuple[Tok, ...], group: list[Found], trigger: tuple[int, int] | None
) -> tuple[list[Found], bool]:
    """The group without its weak pieces, unless something certain or the request stands by them;
    and whether something certain was in it."""
    start, end = group[0].start, group[-1].end
    beside_request = trigger is not None and (
        (start >= trigger[1] and all(t.text in _REQUEST_GAP for t in toks[trigger[1] : start]))
        or (end <= trigger[0] and all(t.text in ".!?," for t in toks[end : trigger[0]]))
    )
    task_follows = text_at(toks, end).isalnum() and text_at(toks, end) not in _TASK_LINKS
    if len(group) == 1 and isinstance(group[0].piece, Weekday) and task_follows:
        if not beside_request:
            return [], False  # "read the friday paper": a weekday naming a thing
    strong = [f for f in group if _strong(f.piece)]
    if strong:
        kept = _rescued_clocks(group)
        if (
            len(kept) > 1
            and isinstance(kept[-1].piece, Part)
            and not kept[-1].piece.strong
            and kept[-1].piece.name == "lunch"
            and any(isinstance(f.piece, Clock) for f in kept)
        ):
            kept = kept[:-1]  # "meio-dia almoço com o Rafa": the meal is the task, not a time
        return kept, True
    at_end = all(t.text in ".!?" for t in toks[end:])
    after_article = text_at(toks, start - 1) in _ARTICLES
    # "lembrete sexta dentista" is Friday; "me lembra ter paciência" is no Tuesday
    named = beside_request and all(len(toks[f.start].text) > 3 for f in group)
    if not (beside_request or at_end) or after_article or (task_follows and not named):
        return [], False
    keep = []
    for f in group:
        piece = f.piece
        if isinstance(piece, Weekday):
            keep.append(replace(f, piece=replace(piece, strong=True)))
        elif isinstance(piece, Period | Part | Relative):
            keep.append(f)
    return keep, False


def _rescued_clocks(group: list[Found]) -> list[Found]:
    """Drop a bare-number clock unless a day or a part of the day stands by it."""
    anchored = any(isinstance(f.piece, DayOffset | Weekday | Date | NthWeekday | Holiday | Part)
                   for f in group)  # fmt: skip
    kept = []
    for f in group:
        if isinstance(f.piece, Clock) and not f.piece.strong and not anchored:
            continue
        kept.append(f)
    return kept if any(_strong(f.piece) for f in kept) else []


def _combine(group: list[Found]) -> When | None:
    """The pieces of one group as a `When`; a piece that contradicts the others ends the group."""
    when = When()
    for item in group:
        nxt = _add(when, item.piece)
        if nxt is None:
            break
        when = nxt
    if when.zone is not None and when.clock is None:
        when = replace(when, zone=None)
    if when == When():
        return None
    return when


_DAYS = (DayOffset, Weekday, Date, NthWeekday, Holiday)


def _add(when: When, piece: Piece) -> When | None:  # noqa: C901 - one branch per kind of piece
    # "amanhã no fim do dia", "tomorrow end of day": the end of that day, not a question
    end_of_day = Part("end_of_day")
    if isinstance(piece, Period) and piece.kind == "end_of_day" and when.day is not None:
        return None if when.part else replace(when, part=end_of_day)
    if (
        isinstance(piece, _DAYS)
        and when.period is not None
        and when.period.kind == "end_of_day"
        and when.day is None
        and when.part is None
    ):
        when = replace(when, period=None, part=end_of_day)
    day = when.day
    today = day == DayOffset(0)  # "today in one hour": the hour says it all
    if isinstance(piece, Relative):
        if when.relative or when.period or (day and not (today and not piece.moves_calendar)):
            return None
        return replace(when, relative=piece, day=None)
    if isinstance(piece, Clock):
        if when.clock or (when.relative and not when.relative.moves_calendar):
            return None
        return replace(when, clock=piece)
    if isinstance(piece, Part):
        if when.part or (when.relative and not when.relative.moves_calendar):
            return None
        if piece.today and day is None and when.relative is None:
            return replace(when, part=piece, day=DayOffset(0))
        return replace(when, part=piece)
    if isinstance(piece, Zone):
        return None if when.zone or when.clock is None else replace(when, zone=piece)
    if isinstance(piece, Period):
        return _add_period(when, piece)
    if when.relative is not None:
        if piece == DayOffset(0) and not when.relative.moves_calendar:
            return when  # "in 2 hours today"
        return None
    if isinstance(piece, Weekday):
        if when.period is not None and when.period.kind == "week" and day is None:
            mode = "next_week" if when.period.offset else piece.mode
            return replace(when, day=replace(piece, mode=mode), period=None)
        if day is None:
            return replace(when, day=piece)
        if isinstance(day, Date) and day.month is not None:
            return replace(when, day=replace(day, weekday=piece.day))  # "12 de setembro, sexta"
        if isinstance(day, Date) or (isinstance(day, DayOffset) and day.days == 0):
            return replace(when, day=_with_weekday(day, piece))
        return None
    if isinstance(piece, Date):
        if isinstance(day, Weekday):  # "sexta, 12 de setembro"; "sexta dia 13"
            return replace(when, day=replace(piece, weekday=day.day))
        if day is not None:
            return None
        if when.period is not None:
            return _date_in_period(when, piece)
        return replace(when, day=piece)
    if day is not None or when.period is not None:
        return None
    return replace(when, day=piece)


def _add_period(when: When, period: Period) -> When | None:
    if when.period is not None or when.relative is not None:
        return None
    day = when.day
    if day is None:
        return replace(when, period=period)
    if isinstance(day, Weekday) and period.kind == "week":
        mode = "next_week" if period.offset else day.mode
        return replace(when, day=replace(day, mode=mode))
    if isinstance(day, Date):
        return _date_in_period(replace(when, day=None, period=period), day)
    return None


def _date_in_period(when: When, date: Date) -> When | None:
    """ "dia 15 do mês que vem", "the 3rd of next month", "5 de maio do ano que vem"."""
    period = when.period
    assert period is not None
    if period.kind == "month" and date.month is None:
        return replace(when, day=replace(date, month_offset=period.offset), period=None)
    if period.kind == "month_name" and date.month is None:  # "dia 20" + "em maio"
        return replace(when, day=replace(date, month=period.month), period=None)
    if period.kind == "year" and date.month is not None and date.year is None:
        return replace(when, day=replace(date, years_ahead=period.offset), period=None)
    return None


def _with_weekday(day: DayPiece, weekday: Weekday) -> DayPiece:
    """ "sexta dia 13": the next 13th that is a Friday."""
    if isinstance(day, Date) and day.month is None:
        return replace(day, weekday=weekday.day)
    return day


def _weight(when: When) -> int:
    return sum(
        x is not None
        for x in (when.relative, when.day, when.clock, when.part, when.zone, when.period)
    )


def _complete(primary: When, other: When) -> When | None:
    """A lone clock or day elsewhere in the message completes the time, when it fits."""
    if primary.period is not None or other.period is not None or other.relative is not None:
        return None
    if primary.clock is None and other.clock is not None and other.day is None:
        if primary.relative is not None and not primary.relative.moves_calendar:
            return None
        if other.clock.strong:
            return replace(primary, clock=other.clock, part=primary.part or other.part,
                           zone=other.zone)  # fmt: skip
    if not primary.has_day and other.day is not None and other.clock is None:
        if isinstance(other.day, Weekday) and not other.day.strong:
            return None
        return replace(primary, day=other.day, part=primary.part or other.part)
    return None
