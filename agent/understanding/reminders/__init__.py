"""Reminder requests and the times they name, read in code (DESIGN 9.3, 10.5): a small grammar.

Modules, each tested on its own:
- `lexicon`: folding and tokens; phrase tables.
- `numbers`: numbers in words and digits, ordinals, fractions.
- `clocks`: clock times; `parts`: parts of the day; `zones`: explicit time zones.
- `dates`: day words, weekdays, dates, days of the month, nth weekday of a month.
- `relative`: amounts of time from now; `periods`: periods and vague times (a question).
- `holidays`: holidays by country; the country of a time zone.
- `reading`: the pieces of one message combined into a `When`.
- `placing`: a `When` on the calendar, or the choices to ask about.
- `requests`: which messages ask for a reminder, list, cancel or undo, and what to remember.
"""

from agent.understanding.reminders.holidays import Country, country_of_zone
from agent.understanding.reminders.lexicon import fold_same_length
from agent.understanding.reminders.requests import (
    AskWhen,
    PastTime,
    ReminderParse,
    RouteName,
    SetReminder,
    UndoTarget,
    find_trigger,
    parse,
    route,
    same_time_task,
    tells_of_oneself,
    undo_target,
    untimed,
)

__all__ = [
    "AskWhen",
    "Country",
    "PastTime",
    "ReminderParse",
    "RouteName",
    "SetReminder",
    "country_of_zone",
    "find_trigger",
    "fold_same_length",
    "parse",
    "route",
    "same_time_task",
    "tells_of_oneself",
    "UndoTarget",
    "undo_target",
    "untimed",
]
