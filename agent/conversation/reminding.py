"""Reminders in a turn (DESIGN 9.3, 10.5): set, list, cancel, snooze and `/tz`, all in code.

Times are read and shown in the user's time zone; the confirmation names the day it
chose ("hoje às 15:30", "em 09/01 às 18:00 (sexta)") and says when 09:00 was used for
a day given without a time. A period without a day or a vague time gets one question
with 2-3 choices (a pending choice), never a silent default. Snooze buttons carry the
token `snz:<reminder id>`, so pressing one never disturbs the conversation's pending action.

Reading conventions that depend on the user: "4/5" is April 5 (m/d) only for en-US,
which is English as the reply language with a time zone in the United States (`/tz`);
everyone else reads d/m (and a date that is only valid one way is read that way).
Holidays are those of the country of the user's time zone (Brazil, the United States,
Portugal), else the question.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from agent.conversation import pending as pendings
from agent.conversation import reminderlook
from agent.conversation import shelf as shelves
from agent.conversation.clarifying import matching_option
from agent.conversation.replies import finish, numbered
from agent.conversation.rulewords import describe, rule_of, start_of
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, text
from agent.trust.ledgering import append_event, digest
from agent.types import Choice, Language, Reply
from agent.understanding.continuations import continued_clause
from agent.understanding.reminders import (
    AskWhen,
    Country,
    PastTime,
    ReminderParse,
    SetReminder,
    country_of_zone,
    parse,
    same_time_task,
    tells_of_oneself,
    untimed,
)
from agent.understanding.reminders.asks import (
    SAME_TIME,
    WEEKDAYS,
    CancelAsk,
    ChangeAsk,
    ListAsk,
    Period,
    SkipAsk,
    WhenAsk,
    read_ask,
    without_afterwords,
)
from agent.understanding.reminders.lexicon import fold_same_length, tokenize
from agent.understanding.reminders.placing import time_of_day
from agent.understanding.reminders.reading import read_when
from agent.understanding.reminders.requests import only_says_why
from agent.understanding.reminders.rules import (
    Rule,
    days_moved,
    first_from,
    next_after,
    read_rrule,
)
from agent.understanding.reminders.shifting import Shift, read_shift
from agent.understanding.textnorm import fold, one_line
from storage.documents import ReminderDoc
from storage.snapshots import State

SNOOZE_PREFIX = "snz:"
WHATSAPP_WINDOW_MS = 24 * 3600 * 1000
SNOOZE_CHOICES = ("reminder_snooze_10m", "reminder_snooze_1h", "reminder_snooze_tomorrow")
TOMORROW_HOUR = 9

Handler = Callable[[Turn, str], Awaitable[Reply]]


def zone_of(deps: Deps, name: str) -> ZoneInfo:
    """The user's zone, or the default one when the stored name is not a known zone."""
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)


def when_text(due: datetime, now: datetime, language: Language) -> str:
    """ "às 09:00", or "em 06/01 às 09:00" when `due` is not today (both in the user's zone)."""
    clock = due.strftime("%H:%M")
    if due.date() == now.date():
        return text("reminder_when_today", language, time=clock)
    day = due.strftime("%d/%m") if language == "pt" else due.strftime("%b %d").replace(" 0", " ")
    if due.year != now.year:
        day += f"/{due.year}" if language == "pt" else f", {due.year}"
    return text("reminder_when_day", language, date=day, time=clock)


def confirm_when_text(due: datetime, now: datetime, language: Language) -> str:
    """ "hoje às 15:30", "em 06/01 às 09:00 (amanhã)", "em 09/01 às 18:00 (sexta)"."""
    if due.date() == now.date():
        return text("reminder_confirm_today", language, time=due.strftime("%H:%M"))
    if due.date() == (now + timedelta(days=1)).date():
        day = text("reminder_tomorrow", language)
    else:
        day = text(f"reminder_weekday_{due.weekday()}", language)
    return text("reminder_confirm_day", language, when=when_text(due, now, language), day=day)


def reading_for(deps: Deps, turn: Turn) -> tuple[bool, Country | None]:
    """Whether dates are m/d for this user (en-US), and the country whose holidays apply."""
    country = country_of_zone(str(zone_of(deps, turn.user.timezone)))
    return turn.language == "en" and country == "US", country


def what_text(reminder: ReminderDoc, language: Language) -> str:
    return one_line(reminder.text, 200) or text("reminder_no_text", language)


def handlers(deps: Deps) -> dict[str, Handler]:
    """The reminder commands, by the name the classifier routes them under."""

    async def remind(turn: Turn, args: str) -> Reply:
        return await set_reminder(deps, turn, args)

    async def remind_or_note(turn: Turn, args: str) -> Reply:
        # "and friday to pick up X" right after a reminder was set: another one, not a note
        last = shelves.last_action(turn)
        again = last is not None and last.action == "remind" and continued_clause(args) is not None
        return await set_reminder(deps, turn, args, or_note=not again)

    async def reminders(turn: Turn, args: str) -> Reply:
        return await list_reminders(deps, turn)

    async def unremind(turn: Turn, args: str) -> Reply:
        return await cancel_reminder(deps, turn, args)

    async def tz(turn: Turn, args: str) -> Reply:
        return await set_timezone(deps, turn, args)

    return {
        "remind": remind,
        "remind_or_note": remind_or_note,
        "lembrete": remind,
        "reminders": reminders,
        "lembretes": reminders,
        "unremind": unremind,
        "tz": tz,
    }


def _now(deps: Deps, turn: Turn) -> datetime:
    return datetime.fromtimestamp(turn.now_ms / 1000, zone_of(deps, turn.user.timezone))


async def set_reminder(deps: Deps, turn: Turn, args: str, *, or_note: bool = False) -> Reply:
    """`or_note`: a day and a task typed with no request verb ("comprar leite amanhã"): one
    question, that day's reminder (or the times asked) or the message kept as a note."""
    lang = turn.language
    now = _now(deps, turn)
    month_first, country = reading_for(deps, turn)
    parsed = parse(args, now, month_first=month_first, country=country) if args.strip() else None
    if parsed is None:
        parsed = untimed(args, now)  # "/remind pagar a conta": when?
    if or_note and isinstance(parsed, SetReminder):
        parsed = AskWhen(parsed.what, (parsed.due,), "or_note", rule=parsed.rule)
    if isinstance(parsed, AskWhen):
        return await ask_when(deps, turn, parsed, note=args.strip() if or_note else "")
    if isinstance(parsed, PastTime):
        when = when_text(parsed.due, now, lang)
        return finish(turn, text("reminder_past", lang, when=when), kind="deterministic")
    return await schedule(deps, turn, parsed)


async def continued(deps: Deps, turn: Turn, message: str, *, after: str = "remind") -> Reply | None:
    """ "e sexta às 19h de X" right after a reminder was set: another reminder, in code (or
    the question of when, for a time that is not one moment).

    The words after the continuation's opening are read by the reminder grammar as if they
    followed "me lembra" / "remind me"; only a reading with a time and something to remember
    is set, anything else (a question, words with no time) goes on to be read or planned.
    After a change or a cancel (`after`), words that point at a reminder ("and the 3pm one
    too", "e o do dentista pras 12h também") continue that, and set nothing.
    """
    rest = continued_clause(message)
    if rest is None or "?" in message:
        return None
    if after != "remind" and _POINTS_AT_ONE.match(fold(rest)):
        return None
    if read_ask(message) is not None:
        return None  # "e atrasa o do dentista 1 hora tb": a move (or a question) of its own
    if any(w in _OWN_REQUEST for w in fold(rest).split()[:2]):
        return None  # "e lista meus filmes": a request of its own
    if tells_of_oneself(rest):
        return None  # "e eu acordei às 5 pra isso kkk": told, not asked
    now = _now(deps, turn)
    month_first, country = reading_for(deps, turn)
    lead = "remind me" if turn.language == "en" else "me lembra"
    parsed = parse(f"{lead} {rest}", now, month_first=month_first, country=country)
    if parsed is None and (task := same_time_task(rest)) is not None:
        # "e de comprar as velas tb, mesmo horário": at the time of the one just set
        scheduled = await deps.db.reminders.open_for(turn.user_id)
        last = await _just_set(deps, turn, [r for r in scheduled if r.state == "scheduled"])
        if last is None or last.rule:
            return None
        parsed = SetReminder(task, datetime.fromtimestamp(last.due_at_ms / 1000, now.tzinfo))
    if not isinstance(parsed, SetReminder | AskWhen) or not parsed.what.strip():
        return None
    if after != "remind":
        scheduled = await deps.db.reminders.open_for(turn.user_id)
        if find([r for r in scheduled if r.state == "scheduled"], parsed.what) is not None:
            return None  # "e o da mãe pras 11h tb": a reminder there is, never a new one
    turn.facts.apply_rule("continued:remind")
    if isinstance(parsed, AskWhen):  # "and sometime this afternoon to X": which time, asked
        return await ask_when(deps, turn, parsed)
    return await schedule(deps, turn, parsed)


# "o do dentista", "a das 10h", "the 3pm one", "that one", "aquele": a reminder pointed at
_POINTS_AT_ONE = re.compile(
    r"^(?:(?:o|a|os|as)\s+(?:lembretes?\s+)?d[eoa]s?\b|(?:the|that|this)\b(?:\s+\S+){0,3}?"
    r"\s+(?:one|reminder)\b|(?:that|this)\s+one\b|aquel[ea]s?\b|ess[ea]s?\b)"
)
# a verb that opens a request of its own after "e" / "and": never a reminder's continuation
_OWN_REQUEST = frozenset(
    """salva anota guarda add save note apaga delete lista list mostra show cancela cancel
    muda change desfaz undo procura find""".split()
)


# a reminder to watch the one title in focus, named by a pronoun: "me lembra de ver ele às
# 20h" after a suggestion, "remind me to start it at 9pm"
_WATCH_IT = re.compile(
    r"^(?P<verb>(?:de\s+|to\s+)?(?:ver|assistir|come[cç]ar|terminar|maratonar|watch|start|"
    r"finish|see|binge))\s+(?:ele|ela|esse|essa|isso|it|that|this|that\s+one|this\s+one)$",
    re.IGNORECASE,
)
_LABEL_YEAR = re.compile(r"\s*\(\d{4}\)\s*$")


def _named_item(turn: Turn, what: str) -> str:
    """`what` with its pronoun named ("ver ele" -> "ver Divertida Mente 2") when it asks to
    watch the one movie, show or video in focus; `what` itself otherwise."""
    m = _WATCH_IT.match(what.strip())
    current = shelves.shown(turn) if m is not None else None
    one = current.single if current is not None else None
    if m is None or one is None or one.type not in ("movie", "tv_show", "video"):
        return what
    return f"{m.group('verb')} {_LABEL_YEAR.sub('', one.label)}"


async def schedule(deps: Deps, turn: Turn, parsed: SetReminder) -> Reply:
    """Store the reminder and confirm it with the day and time it chose (and its rule)."""
    lang = turn.language
    parsed = replace(parsed, what=_named_item(turn, parsed.what))
    now = _now(deps, turn)
    due_ms = int(parsed.due.timestamp() * 1000)
    rule = parsed.rule
    reminder = ReminderDoc(
        _id=uuid.uuid4().hex[:16],
        user_id=turn.user_id,
        channel=turn.incoming.channel,
        chat_id=turn.incoming.chat_id,
        text=parsed.what,
        language=lang,
        timezone=str(now.tzinfo),
        due_at_ms=due_ms,
        wake_at_ms=due_ms,
        created_at_ms=turn.now_ms,
        updated_at_ms=turn.now_ms,
    ).model_copy(update=_rule_fields(rule, parsed.due))
    await deps.db.reminders.add(reminder)
    await reminderlook.lower(deps, turn, due_ms)  # after the insert: a look then finds it
    payload: dict[str, object] = {"reminder_id": reminder.id, "text_sha256": digest(reminder.text)}
    if rule is not None:
        payload["repeats"] = rule.freq
    await append_event(deps, turn, "reminder_set", payload)
    turn.facts.apply_rule("reminder_in_code")
    shelves.did(turn, "remind")  # "e sexta às 19h de X" sets another (issue 41)
    when = confirm_when_text(parsed.due.astimezone(now.tzinfo), now, lang)
    what = what_text(reminder, lang)
    if rule is not None:
        words = describe(rule, parsed.due.astimezone(now.tzinfo), lang)
        body = f"{OK_MARK} " + text(
            "reminder_set_repeating", lang, rule=words, what=what, next=when
        )
    else:
        body = f"{OK_MARK} " + text("reminder_set", lang, when=when, what=what)
    if parsed.default_time:
        body += "\n" + text("reminder_default_time", lang)
    if parsed.zone:
        body += "\n" + text("reminder_zone_converted", lang, zone=parsed.zone, tz=str(now.tzinfo))
    if _may_be_held(deps, reminder, turn.now_ms):
        body += "\n" + text("reminder_held_note", lang)
    return finish(turn, body, kind="effect")


async def import_reminder(deps: Deps, turn: Turn, kept: pendings.ImportReminder) -> int:
    """An exported reminder scheduled again (1), at its next occurrence when it repeats; 0 when
    it has none left."""
    zone = zone_of(deps, kept.timezone)
    now = datetime.fromtimestamp(turn.now_ms / 1000, zone)
    rule = read_rrule(kept.rule, zone) if kept.rule else None
    due = datetime.fromtimestamp(kept.due_at_ms / 1000, zone)
    if rule is not None:
        until = datetime.fromtimestamp(kept.until_ms / 1000, UTC) if kept.until_ms else rule.until
        rule = replace(rule, count=kept.count, until=until)
        start = (
            datetime.fromisoformat(kept.start_local).replace(tzinfo=zone)
            if kept.start_local
            else due
        )
        following = due if due > now else next_after(rule, start, now)
        if following is None:
            return 0
        due, first = following, start
    elif due <= now:
        return 0
    due_ms = int(due.timestamp() * 1000)
    reminder = ReminderDoc(
        _id=uuid.uuid4().hex[:16],
        user_id=turn.user_id,
        channel=turn.incoming.channel,
        chat_id=turn.incoming.chat_id,
        text=kept.text,
        language=kept.language,
        timezone=str(zone),
        due_at_ms=due_ms,
        wake_at_ms=due_ms,
        created_at_ms=turn.now_ms,
        updated_at_ms=turn.now_ms,
    )
    if rule is not None:
        reminder = reminder.model_copy(update=_rule_fields(rule, first))
    await deps.db.reminders.add(reminder)
    await reminderlook.lower(deps, turn, due_ms)
    payload = {"reminder_id": reminder.id, "text_sha256": digest(reminder.text), "imported": True}
    await append_event(deps, turn, "reminder_set", payload)
    return 1


def _rule_fields(rule: Rule | None, first: datetime) -> dict[str, object]:
    """A repeating reminder's stored rule (DESIGN 11.4): read from its first occurrence."""
    if rule is None:
        return {}
    until = rule.until
    return {
        "rule": rule.rrule,
        "start_local": first.replace(tzinfo=None).isoformat(timespec="minutes"),
        "count": rule.count,
        "until_ms": int(until.timestamp() * 1000) if until is not None else None,
    }


async def ask_when(deps: Deps, turn: Turn, asked: AskWhen, *, note: str = "") -> Reply:
    """One short question with the 2-3 concrete times `asked` offers, held as a pending choice;
    with `note`, a last choice keeps that message as a note instead."""
    lang = turn.language
    now = _now(deps, turn)
    labels = [
        confirm_when_text(option.astimezone(now.tzinfo), now, lang) for option in asked.options
    ]
    pending = pendings.ChooseReminderTime(
        what=asked.what,
        options_ms=[int(o.timestamp() * 1000) for o in asked.options],
        context=asked.context,
        clock_only=asked.reason == "vague",
        rule=asked.rule.full() if asked.rule else None,
        note=note,
    )
    if note:
        labels.append(text("offer_note_button", lang))
    await pendings.store(deps, turn, pending)
    await append_event(
        deps, turn, "clarification_asked", {"options": len(labels), "reason": asked.reason}
    )
    turn.facts.ambiguity = "unresolved"
    turn.facts.apply_rule("reminder_time_asked")
    lines = [text(f"reminder_ask_{asked.reason}", lang)]
    if asked.what:
        lines.append(text("reminder_ask_what", lang, what=one_line(asked.what, 200)))
    lines += [numbered(labels), text("reminder_ask_other", lang)]
    return finish(
        turn,
        "\n".join(lines),
        kind="candidates",
        choices=labels,
        choice_kind="pick",
        choice_token=pending.token,
    )


_WEEKDAY_ORDINAL = re.compile(
    r"^\s*(?:na\s+|a\s+)?(?:segunda|quarta|quinta)(?:[\s-]*feira)?\s*[.!]*$"
)


def _bare_clock(said: str) -> bool:
    """ "7h30", "às 8", "3 e meia", "at 7:15 am": a time of day and nothing else."""
    toks = tokenize(fold_same_length(said))
    when = read_when(toks)
    if when is None or when.clock is None or when.has_day or when.part is not None:
        return False
    return not "".join(
        t.text for t in toks if not any(a <= t.start and t.end <= b for a, b in when.spans)
    ).strip(" .!")


async def answer_time(deps: Deps, turn: Turn, current: pendings.ChooseReminderTime) -> Reply | None:
    """The answer to a reminder's time question: a button, a number, an option's words, or a
    time in the user's own words; None when the message is about something else."""
    lang = turn.language
    incoming, intent = turn.incoming, turn.intent
    if incoming.kind == "choice" and (
        incoming.choice_token != current.token or incoming.choice is None
    ):
        return finish(turn, text("stale_button", lang), kind="deterministic")
    if intent is not None and intent.action in ("cancel", "deny"):
        await pendings.clear(deps, turn)
        return finish(turn, text("cancelled", lang), kind="deterministic")
    index = _chosen_index(deps, turn, current)
    if index is not None:
        return await _take_option(deps, turn, current, index)
    if intent is not None and intent.action not in ("llm", "select"):
        return None  # a command, a new reminder, help: the question is dropped
    if current.moves:  # no side named: the question is dropped, the message read on its own
        await pendings.clear(deps, turn)
        return None
    parsed = _read_answer(deps, turn, current)
    if parsed is None:
        return None  # another request: the question is dropped
    await pendings.clear(deps, turn)
    if isinstance(parsed, AskWhen):
        asked = AskWhen(current.what, parsed.options, parsed.reason, parsed.context, parsed.rule)
        return await ask_when(deps, turn, asked)
    if isinstance(parsed, PastTime):
        when = when_text(parsed.due, _now(deps, turn), lang)
        return finish(turn, text("reminder_past", lang, when=when), kind="deterministic")
    turn.facts.apply_rule("clarification_answered")
    rule = parsed.rule or _pending_rule(deps, turn, current)
    return await schedule(
        deps,
        turn,
        SetReminder(current.what, parsed.due, parsed.default_time, parsed.zone, rule=rule),
    )


def _pending_rule(deps: Deps, turn: Turn, current: pendings.ChooseReminderTime) -> Rule | None:
    if not current.rule:
        return None
    return read_rrule(current.rule, zone_of(deps, turn.user.timezone))


def _options(deps: Deps, turn: Turn, current: pendings.ChooseReminderTime) -> list[datetime]:
    zone = _now(deps, turn).tzinfo
    return [datetime.fromtimestamp(ms / 1000, zone) for ms in current.options_ms]


def _chosen_index(deps: Deps, turn: Turn, current: pendings.ChooseReminderTime) -> int | None:
    """The option a button, a number ("2", "o último") or an option's words pick, if any."""
    intent = turn.intent
    if turn.incoming.kind == "choice":
        return turn.incoming.choice
    said = turn.incoming.text or ""
    now = _now(deps, turn)
    labels = _labels(turn, current, _options(deps, turn, current), now)
    # "quarta" is an ordinal and a weekday: beside options named by weekday, the weekday
    if _WEEKDAY_ORDINAL.match(fold(said)) and (named := matching_option(said, labels)) is not None:
        return named
    if intent is not None and intent.action == "select" and "index" in intent.entities:
        return int(intent.entities["index"])
    return matching_option(said, labels) if said else None


def _labels(
    turn: Turn, current: pendings.ChooseReminderTime, options: list[datetime], now: datetime
) -> list[str]:
    """The options as the question shows them: times, or a move's "Later: …", "Earlier: …"."""
    lang = turn.language
    if current.moves and len(options) == 2:
        return [
            text(key, lang, when=confirm_when_text(o, now, lang))
            for key, o in zip(
                ("reminder_shift_later", "reminder_shift_earlier"), options, strict=True
            )
        ]
    labels = [confirm_when_text(o, now, lang) for o in options]
    if current.note:
        labels.append(text("offer_note_button", lang))
    return labels


def chose_note(deps: Deps, turn: Turn, current: pendings.ChooseReminderTime) -> bool:
    """Whether the answer to a reminder-or-note question takes the note (its last choice)."""
    if not current.note:
        return False
    index = _chosen_index(deps, turn, current)
    return index is not None and index in (len(current.options_ms), -1)


async def _take_option(
    deps: Deps, turn: Turn, current: pendings.ChooseReminderTime, index: int
) -> Reply:
    lang = turn.language
    options = _options(deps, turn, current)
    if index < 0:
        index += len(options)  # "o último"
    if not 0 <= index < len(options):
        return finish(
            turn, text("choice_out_of_range", lang, count=len(options)), kind="deterministic"
        )
    await pendings.clear(deps, turn)
    turn.facts.apply_rule("clarification_answered")
    now = _now(deps, turn)
    if options[index].timestamp() <= now.timestamp():  # the question waited past that time
        when = when_text(options[index], now, lang)
        return finish(turn, text("reminder_past", lang, when=when), kind="deterministic")
    if current.moves:  # "Later or earlier?": the reminder asked about moves
        target = await deps.db.reminders.get(turn.user_id, current.moves)
        if target is None or target.state != "scheduled":
            return finish(turn, text("reminder_not_found", lang), kind="deterministic")
        return await _move_by(deps, turn, target, options[index])
    rule = _pending_rule(deps, turn, current)
    first = first_from(rule, options[index], now) if rule is not None else options[index]
    return await schedule(deps, turn, SetReminder(current.what, first or options[index], rule=rule))


def _read_answer(
    deps: Deps, turn: Turn, current: pendings.ChooseReminderTime
) -> ReminderParse | None:
    """A time in the user's words, read with the period asked about when there was one."""
    said = turn.incoming.text or ""
    if not said:
        return None
    now = _now(deps, turn)
    month_first, country = reading_for(deps, turn)
    # "quarta" to "semana que vem": that week's Wednesday; "7h30" to "amanhã de manhã": 07:30
    # tomorrow (a bare clock only: an answer naming its own day is read alone)
    if current.context and (not current.clock_only or _bare_clock(said)):
        within = parse(f"{said} {current.context}", now, month_first=month_first, country=country)
        if isinstance(within, SetReminder):
            return within
    return parse(said, now, month_first=month_first, country=country)


def _may_be_held(deps: Deps, reminder: ReminderDoc, now_ms: int) -> bool:
    """WhatsApp, no approved template, and due after the 24-hour window closes."""
    return (
        reminder.channel == "whatsapp"
        and not deps.settings.whatsapp_reminder_template
        and reminder.due_at_ms - now_ms >= WHATSAPP_WINDOW_MS
    )


async def list_lines(deps: Deps, turn: Turn) -> list[str]:
    """The user's open reminders, numbered soonest first (empty when there are none)."""
    if reminderlook.none_open(turn):
        return []
    now = _now(deps, turn)
    reminders = await deps.db.reminders.open_for(turn.user_id)
    await reminderlook.settle(deps, turn, reminders)
    return [_label(r, now, turn.language) for r in reminders]


def _label(reminder: ReminderDoc, now: datetime, language: Language) -> str:
    due = datetime.fromtimestamp(reminder.due_at_ms / 1000, now.tzinfo)
    rule = rule_of(reminder)
    if rule is not None:
        words = describe(rule, start_of(reminder).astimezone(now.tzinfo), language)
        what = what_text(reminder, language)
        return text(
            "reminder_label_repeating",
            language,
            rule=words,
            what=what,
            next=when_text(due, now, language),
        )
    return f"{when_text(due, now, language)} · {what_text(reminder, language)}"


async def list_reminders(deps: Deps, turn: Turn, period: Period | None = None) -> Reply:
    """The open reminders, numbered soonest first; with `period`, only those due in it."""
    lang = turn.language
    shelves.did(turn, "reminders", period=period or "")  # "e amanhã?" asks another period
    if period is None:
        lines = await list_lines(deps, turn)
        if not lines:
            return finish(turn, text("reminders_none", lang), kind="deterministic")
        body = text("reminders_header", lang, count=len(lines)) + "\n" + numbered(lines)
        return finish(turn, body, kind="deterministic")
    now = _now(deps, turn)
    start, end = period_bounds(period, now)
    reminders = (
        [] if reminderlook.none_open(turn) else await deps.db.reminders.open_for(turn.user_id)
    )
    inside = [r for r in reminders if _falls_in(r, start, end)]
    named = text(f"reminder_period_{period}", lang)
    if not inside:
        return finish(turn, text("reminders_none_period", lang, period=named), kind="deterministic")
    lines = [_label(r, now, lang) for r in inside]
    body = text("reminders_header_period", lang, period=named, count=len(lines))
    return finish(turn, body + "\n" + numbered(lines), kind="deterministic")


def _falls_in(reminder: ReminderDoc, start_ms: int, end_ms: int) -> bool:
    """Whether the reminder is due in the span: its next time, or for a repeating one any
    occurrence ("every day at 10pm until friday" falls tomorrow too)."""
    if start_ms <= reminder.due_at_ms < end_ms:
        return True
    rule = rule_of(reminder)
    if rule is None or reminder.state != "scheduled" or reminder.due_at_ms >= end_ms:
        return False
    first = start_of(reminder)
    after = datetime.fromtimestamp(max(start_ms, reminder.due_at_ms) / 1000 - 0.001, first.tzinfo)
    later = next_after(rule, first, after)
    return later is not None and start_ms <= int(later.timestamp() * 1000) < end_ms


def period_bounds(period: Period, now: datetime) -> tuple[int, int]:
    """The instants (ms) a period of the user's calendar spans, from now."""
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    days = {"today": (0, 1), "tomorrow": (1, 2), "next_days": (0, 4)}
    if period == "this_week":
        first, last = 0, 7 - now.weekday()
    elif period == "next_week":
        first = 7 - now.weekday()
        last = first + 7
    elif period in WEEKDAYS:  # the next such day, today when it is today
        first = (WEEKDAYS.index(period) - now.weekday()) % 7
        last = first + 1
    else:
        first, last = days[period]
    begin = max(now, today + timedelta(days=first)) if first == 0 else today + timedelta(days=first)
    return int(begin.timestamp() * 1000), int((today + timedelta(days=last)).timestamp() * 1000)


async def cancel_reminder(deps: Deps, turn: Turn, args: str) -> Reply:
    lang = turn.language
    now = _now(deps, turn)
    reminders = await deps.db.reminders.open_for(turn.user_id)
    if not reminders:
        return finish(turn, text("reminders_none", lang), kind="deterministic")
    target = _pick(reminders, args)
    asked = read_ask(turn.incoming.text or "") if target is None else None
    if isinstance(asked, CancelAsk):
        # "cancela o lembrete das plantas, comprei um regador": the reason names nothing
        target = find([r for r in reminders if r.state == "scheduled"], asked.query)
    if target is None:
        key = (
            "reminder_cancel_which"
            if not args.strip() or len(reminders) > 1
            else "reminder_not_found"
        )
        listing = numbered([_label(r, now, lang) for r in reminders])
        return finish(turn, text(key, lang) + "\n" + listing, kind="deterministic")
    if target.rule:
        return await ask_scope(deps, turn, target)
    return await cancel(deps, turn, target, "all")


async def ask_scope(deps: Deps, turn: Turn, target: ReminderDoc) -> Reply:
    """A repeating reminder to cancel: only the next occurrence, or all of them?"""
    lang = turn.language
    now = _now(deps, turn)
    rule = rule_of(target)
    assert rule is not None
    due = datetime.fromtimestamp(target.due_at_ms / 1000, now.tzinfo)
    pending = pendings.ChooseCancelScope(reminder_id=target.id)
    await pendings.store(deps, turn, pending)
    labels = [text("reminder_scope_next", lang), text("reminder_scope_all", lang)]
    body = text(
        "reminder_cancel_scope",
        lang,
        what=what_text(target, lang),
        rule=describe(rule, start_of(target).astimezone(now.tzinfo), lang),
        next=when_text(due, now, lang),
    )
    turn.facts.ambiguity = "unresolved"
    return finish(
        turn,
        body + "\n" + numbered(labels),
        kind="candidates",
        choices=labels,
        choice_kind="pick",
        choice_token=pending.token,
    )


# the answer's words: one side named, whatever is said around it ("todos, pode cancelar",
# "só o de amanhã", "just the next one please"), and clauses that only say why ("só o dessa
# semana, a quadra tá fechada"); both sides or neither is no answer
_SCOPE_ALL = frozenset("todos todas tudo all every everything sempre inteiro whole".split())
_SCOPE_NEXT = frozenset("proximo proxima next esse essa este esta hoje amanha today tomorrow "
                        "primeiro first unico single dessa desta desse deste vez time "
                        "semana week".split())  # fmt: skip
_SCOPE_FILLER = frozenset(
    "so somente apenas o a os as de da do dos das pode podes cancela cancelar cancel it them "
    "sim yes ok okay pfv pf pls please por favor the one ones of just only eles elas mesmo "
    "go ahead can you blz beleza isso that nao no this".split()
)


# phrases that name a side whatever their words: "pode tirar de vez", "keep the rest"
_SCOPE_ALL_SAID = re.compile(
    r"\b(?:de\s+vez|pra\s+sempre|para\s+sempre|for\s+good|forever|completely|altogether)\b"
)
_SCOPE_NEXT_SAID = re.compile(
    r"\b(?:keep|mant[eé]m|mantenha|deixa|deixe)\s+(?:the\s+|os\s+|as\s+)?"
    r"(?:rest|others|other\s+ones|outros|outras|resto|demais)\b"
)


def scope_said(said: str, about: str = "") -> int | None:
    """0 for "only the next", 1 for "all", None when the words say neither or both; the
    words of the reminder itself (`about`: "todos os do lixo") say nothing else."""
    sides: set[int] = set()
    reasons: list[str] = []
    own = set(re.findall(r"[a-z]+", fold(about)))
    for clause in (fold(c) for c in re.split(r"[,.;!]+", said)):
        if _SCOPE_ALL_SAID.search(clause) or _SCOPE_NEXT_SAID.search(clause):
            sides |= {1} if _SCOPE_ALL_SAID.search(clause) else {0}
            continue
        words = set(re.findall(r"[a-z]+", clause)) - own - {"s"}  # "this week's"
        if words - _SCOPE_ALL - _SCOPE_NEXT - _SCOPE_FILLER:
            reasons.append(clause)
            continue
        sides |= {1} if words & _SCOPE_ALL else set()
        sides |= {0} if words & _SCOPE_NEXT else set()
    if len(sides) != 1 or (reasons and not only_says_why(" ".join(reasons))):
        return None
    return sides.pop()


_YES_FIRST = re.compile(r"^(?:sim|yes|yep|yeah|ok|okay|claro|isso)\b")
# a yes-word with a no beside it is no yes: "claro que não", "ok, deixa pra lá", "nvm"
_NEGATED = re.compile(
    r"\b(?:nao|no|not|nope|nah|deixa|esquece|nevermind|nvm|dont|don't|cancela\s+nada)\b"
)


async def _about(deps: Deps, turn: Turn, current: pendings.ChooseCancelScope) -> str:
    """What the reminder asked about says: its words are no reason beside a side."""
    target = await deps.db.reminders.get(turn.user_id, current.reminder_id)
    return target.text if target is not None else ""


async def answer_scope(deps: Deps, turn: Turn, current: pendings.ChooseCancelScope) -> Reply | None:
    """The answer to "only the next or all?": a button, "1"/"2", or the words; None otherwise."""
    lang = turn.language
    incoming, intent = turn.incoming, turn.intent
    index: int | None = None
    if incoming.kind == "choice":
        if incoming.choice_token != current.token or incoming.choice is None:
            return finish(turn, text("stale_button", lang), kind="deterministic")
        index = incoming.choice
    elif (said := scope_said(incoming.text or "", await _about(deps, turn, current))) is not None:
        index = said  # "ok, só o próximo", "yes, just the next one": the side named wins
    elif not _NEGATED.search(fold(incoming.text or "")) and (
        (intent is not None and intent.action == "confirm")
        or _YES_FIRST.match(fold(incoming.text or ""))
    ):
        index = 1  # "sim, pode cancelar", "yes cancel it": the cancel asked for, all of it
    elif (intent is not None and intent.action in ("cancel", "deny")) or _NEGATED.search(
        fold(incoming.text or "")
    ):
        await pendings.clear(deps, turn)  # "ok, deixa pra lá", "claro que não"
        return finish(turn, text("cancelled", lang), kind="deterministic")
    elif intent is not None and intent.action == "select" and "index" in intent.entities:
        index = int(intent.entities["index"])
    if index is None:
        return None
    if index not in (0, 1, -1):
        return finish(turn, text("choice_out_of_range", lang, count=2), kind="deterministic")
    await pendings.clear(deps, turn)
    target = await deps.db.reminders.get(turn.user_id, current.reminder_id)
    if target is None or target.state not in ("scheduled",):
        return finish(turn, text("reminder_not_found", lang), kind="deterministic")
    turn.facts.apply_rule("clarification_answered")
    return await cancel(deps, turn, target, "next" if index == 0 else "all")


async def cancel(deps: Deps, turn: Turn, target: ReminderDoc, scope: str) -> Reply:
    """Cancel a reminder (or only its next occurrence), undoably: its state before is kept."""
    lang = turn.language
    now = _now(deps, turn)
    # "qual o próximo então?" asks about reminders; "and the 3pm one too" cancels, never sets
    shelves.did(turn, "unremind")
    batch = await _keep(deps, turn, target, "rcancel")
    rule = rule_of(target)
    following = None
    if scope == "next" and rule is not None:
        due = datetime.fromtimestamp(target.due_at_ms / 1000, now.tzinfo)
        following = next_after(rule, start_of(target), due)
    if following is not None:
        next_ms = int(following.timestamp() * 1000)
        moved = await deps.db.reminders.move(
            turn.user_id, target, {"due_at_ms": next_ms, "wake_at_ms": next_ms}, turn.now_ms
        )
        done = moved
    else:
        done = await deps.db.reminders.cancel(turn.user_id, target, turn.now_ms)
    if not done:
        return finish(turn, text("reminder_not_found", lang), kind="deterministic")
    payload = {"reminder_id": target.id, "scope": scope if following else "all", "snapshot": batch}
    await append_event(deps, turn, "reminder_cancelled", payload)
    if following is not None:
        body = text(
            "reminder_skipped",
            lang,
            what=what_text(target, lang),
            next=confirm_when_text(following.astimezone(now.tzinfo), now, lang),
        )
        return finish(turn, f"{OK_MARK} " + body, kind="effect")
    label = _label(target, now, lang)
    return finish(
        turn, f"{OK_MARK} " + text("reminder_cancelled", lang, label=label), kind="effect"
    )


async def _keep(deps: Deps, turn: Turn, reminder: ReminderDoc, kind: str) -> str:
    """The reminder as it is now, kept 24 hours for «desfaz»; the batch's name."""
    batch = f"{kind}:{turn.turn_id}:{reminder.id}"
    state = State("reminder", reminder.id, reminder.model_dump_json(by_alias=True))
    await deps.db.snapshots.keep_states(turn.user_id, batch, [state], turn.now_ms)
    return batch


async def change(
    deps: Deps,
    turn: Turn,
    target: ReminderDoc,
    *,
    due: datetime | None = None,
    what: str | None = None,
    rule: Rule | None = None,
    keep_rule: bool = True,
) -> Reply:
    """Move, reword or re-rule a scheduled reminder, undoably (`reminder_changed`)."""
    lang = turn.language
    now = _now(deps, turn)
    shelves.did(turn, "rechange")  # "e o do dentista pras 12h também" moves, never sets
    fields: dict[str, object] = {}
    if what is not None and what.strip():
        fields["text"] = one_line(what, 300)
    old_rule = rule_of(target)
    new_rule = rule if rule is not None else (old_rule if keep_rule else None)
    if due is not None or rule is not None:
        first = due or start_of(target)
        if new_rule is not None:
            first = first_from(new_rule, first, now) or first
        if first.timestamp() <= now.timestamp():
            when = when_text(first.astimezone(now.tzinfo), now, lang)
            return finish(turn, text("reminder_past", lang, when=when), kind="deterministic")
        due_ms = int(first.timestamp() * 1000)
        fields |= {"due_at_ms": due_ms, "wake_at_ms": due_ms}
        fields |= _rule_fields(new_rule, first) if new_rule else {"rule": None, "start_local": None}
    if not fields:
        return finish(turn, text("reminder_not_found", lang), kind="deterministic")
    batch = await _keep(deps, turn, target, "rchange")
    if not await deps.db.reminders.move(turn.user_id, target, fields, turn.now_ms):
        return finish(turn, text("reminder_not_found", lang), kind="deterministic")
    if "due_at_ms" in fields:
        await reminderlook.lower(deps, turn, int(str(fields["due_at_ms"])))
    payload = {"reminder_id": target.id, "fields": sorted(fields), "snapshot": batch}
    await append_event(deps, turn, "reminder_changed", payload)
    changed = target.model_copy(update=fields)
    label = _label(changed, now, lang)
    if "due_at_ms" in fields and not changed.rule:
        due_at = datetime.fromtimestamp(changed.due_at_ms / 1000, now.tzinfo)
        label = f"{confirm_when_text(due_at, now, lang)} · {what_text(changed, lang)}"
    return finish(turn, f"{OK_MARK} " + text("reminder_changed", lang, label=label), kind="effect")


def moves_one(message: str) -> bool:
    """Whether `message` moves a reminder ("actually push it to 10pm"), whatever else its
    words may hint (a "push" reads like a save)."""
    return isinstance(read_ask(message), ChangeAsk | Shift)


def asks_agenda(message: str) -> bool:
    """Whether `message` asks what reminders there are ("o que eu tenho hoje?"), whatever
    list its words may hint."""
    return isinstance(read_ask(message), ListAsk)


async def in_code(deps: Deps, turn: Turn, message: str) -> Reply | None:
    """Questions about reminders and changes to them read in code where sure (issue 43)."""
    asked = read_ask(message)
    if asked is None:
        return None
    if isinstance(asked, ListAsk):
        turn.facts.apply_rule("reminder_in_code")
        return await list_reminders(deps, turn, asked.period)
    reminders = (
        [] if reminderlook.none_open(turn) else await deps.db.reminders.open_for(turn.user_id)
    )
    scheduled = [r for r in reminders if r.state == "scheduled"]
    if isinstance(asked, SkipAsk):
        skipped = await _skipped(deps, turn, asked, scheduled)
        if skipped is None:
            return None  # which one is a guess: the planner reads it
        turn.facts.apply_rule("reminder_in_code")
        return await cancel(deps, turn, skipped, "next" if skipped.rule else "all")
    if isinstance(asked, WhenAsk):
        found = find(scheduled, asked.query) if asked.query else _next_one(turn, asked, scheduled)
        if found is None:
            return None  # not a reminder this user has: the planner reads it
        turn.facts.apply_rule("reminder_in_code")
        return finish(turn, _label(found, _now(deps, turn), turn.language), kind="deterministic")
    if isinstance(asked, CancelAsk):
        if asked.items_too and _items_shown(turn):
            return None  # "apaga essa da academia" after the notes were listed: a note's
        found = find(scheduled, asked.query)
        if found is None:
            return None  # not a reminder this user has: the planner reads it
        turn.facts.apply_rule("reminder_in_code")
        return (
            await ask_scope(deps, turn, found)
            if found.rule and not asked.every  # "de vez", "for good": all, no question
            else await cancel(deps, turn, found, "all")
        )
    target = (
        await _just_set(deps, turn, scheduled) if not asked.query else find(scheduled, asked.query)
    )
    if target is None:
        return None
    if isinstance(asked, Shift):
        return await _shift(deps, turn, target, asked)
    shift = read_shift(asked.when, moved=True)
    if shift is not None and shift.later is not None and not shift.query:
        # "pra uma hora mais tarde", "back an hour": from the reminder's own time
        return await _shift(deps, turn, target, shift)
    due = _read_new_time(deps, turn, asked.when, target)
    if due is None:
        return None
    turn.facts.apply_rule("reminder_in_code")
    return await change(deps, turn, target, due=due)


_REMINDER_ACTIONS = frozenset({"remind", "reminders", "unremind", "rechange"})


def _items_shown(turn: Turn) -> bool:
    """Whether the last thing the conversation showed is a list of items, not reminders."""
    last = shelves.last_action(turn)
    current = shelves.shown(turn)
    shown_items = current is not None and bool(current.entries)
    return shown_items and (last is None or last.action not in _REMINDER_ACTIONS)


def _next_one(turn: Turn, asked: WhenAsk, scheduled: list[ReminderDoc]) -> ReminderDoc | None:
    """The soonest reminder, for "qual o próximo lembrete?", or for "qual o próximo?" right
    after reminders were set, listed or changed (else "the next" may be a film to watch)."""
    last = shelves.last_action(turn)
    talked_of = last is not None and last.action in _REMINDER_ACTIONS
    if not scheduled or not (asked.reminder_said or talked_of):
        return None
    return min(scheduled, key=lambda r: r.due_at_ms)


async def _skipped(
    deps: Deps, turn: Turn, asked: SkipAsk, scheduled: list[ReminderDoc]
) -> ReminderDoc | None:
    """The one reminder a skip names: a repeating one by its words; by the day, the only
    reminder that day (a one-off beside repeating ones is the one meant: "cancela só o de
    amanhã"); else the repeating one just set or the only one."""
    repeating = [r for r in scheduled if r.rule]
    if asked.query:
        return find(repeating, asked.query)
    if asked.day is not None:
        start, end = period_bounds(asked.day, _now(deps, turn))
        on_day = [r for r in scheduled if start <= r.due_at_ms < end]
        one_off = [r for r in on_day if not r.rule]
        if one_off:
            return one_off[0] if len(one_off) == 1 else None
        return on_day[0] if len(on_day) == 1 else None
    just = await _just_set(deps, turn, repeating)
    return just or (repeating[0] if len(repeating) == 1 else None)


async def _shift(deps: Deps, turn: Turn, target: ReminderDoc, asked: Shift) -> Reply | None:
    """A reminder moved by an amount from its own time; which way is asked when the words do
    not say ("move it 1 hour"). A repeating one moves as a whole, as with a new time."""
    turn.facts.apply_rule("reminder_in_code")
    now = _now(deps, turn)
    due = datetime.fromtimestamp(target.due_at_ms / 1000, now.tzinfo)
    step = timedelta(seconds=asked.seconds)
    if asked.later is not None:
        return await _move_by(deps, turn, target, due + step if asked.later else due - step)
    lang = turn.language
    body = text(
        "reminder_shift_way",
        lang,
        what=what_text(target, lang),
        when=confirm_when_text(due, now, lang),
        amount=asked.amount,
        later=when_text(due + step, now, lang),
        earlier=when_text(due - step, now, lang),
    )
    # the answer ("later", "mais cedo", "2", a button) moves it: a question kept as a
    # reminder's time question whose options are the two moves
    options = [due + step, due - step]
    pending = pendings.ChooseReminderTime(
        what=target.text,
        options_ms=[int(o.timestamp() * 1000) for o in options],
        moves=target.id,
    )
    await pendings.store(deps, turn, pending)
    turn.facts.ambiguity = "unresolved"
    return finish(
        turn,
        body,
        kind="candidates",
        choices=_labels(turn, pending, options, now),
        choice_kind="pick",
        choice_token=pending.token,
    )


async def _move_by(deps: Deps, turn: Turn, target: ReminderDoc, due: datetime) -> Reply:
    """The reminder moved to `due` from its own time; a repeating one moved past midnight (or
    by days) moves its rule's days with it ("toda quarta às 0h30" an hour earlier rings on
    Tuesdays at 23:30), or nothing changes and the new day is asked."""
    rule = rule_of(target)
    now = _now(deps, turn)
    was = datetime.fromtimestamp(target.due_at_ms / 1000, now.tzinfo)
    days = (due.astimezone(now.tzinfo).date() - was.date()).days
    if rule is None or not days:
        return await change(deps, turn, target, due=due)
    moved = days_moved(rule, days)
    if moved is not None:
        return await change(deps, turn, target, due=due, rule=moved)
    lang = turn.language
    body = text(
        "reminder_shift_rule_kept",
        lang,
        what=what_text(target, lang),
        rule=describe(rule, start_of(target).astimezone(now.tzinfo), lang),
        when=when_text(due, now, lang),
    )
    turn.facts.ambiguity = "unresolved"
    return finish(turn, body, kind="deterministic")


def _read_new_time(deps: Deps, turn: Turn, words: str, target: ReminderDoc) -> datetime | None:
    """A new time in the user's words, read by the grammar; a clock alone keeps the day.

    Only words that are all time: "às 10", "amanhã às 9h"; never a message with more in it.
    """
    now = _now(deps, turn)
    same = SAME_TIME.search(fold_same_length(words))
    if same is not None:  # "sexta, mesmo horário": the reminder's own time on that day
        words = without_afterwords((words[: same.start()] + words[same.end() :]).strip(" ,"))
    month_first, country = reading_for(deps, turn)
    parsed = parse(f"me lembra {words}", now, month_first=month_first, country=country)
    if not isinstance(parsed, SetReminder) or parsed.what or parsed.rule is not None:
        return None
    when = read_when(tokenize(fold_same_length(words)))
    clock = time_of_day(when) if when is not None and not when.has_day else None
    if clock is not None:
        # "na verdade às 10": the reminder's own day, at that time (10 beside a day is 10:00)
        due = datetime.fromtimestamp(target.due_at_ms / 1000, now.tzinfo)
        moved = due.replace(hour=clock[0], minute=clock[1])
        if moved.timestamp() > now.timestamp():
            return moved
    if parsed.default_time:
        # "passa pra amanhã": a day alone keeps the reminder's own time on that day
        due = datetime.fromtimestamp(target.due_at_ms / 1000, now.tzinfo)
        kept = parsed.due.replace(hour=due.hour, minute=due.minute)
        if kept.timestamp() > now.timestamp():
            return kept
    return parsed.due


async def _just_set(deps: Deps, turn: Turn, scheduled: list[ReminderDoc]) -> ReminderDoc | None:
    """The reminder the user's newest effect set, when it was set in the last few minutes."""
    since = turn.now_ms - JUST_SET_MS
    events = await deps.db.ledger.events_in(turn.user_id, since, turn.now_ms)
    effects = [e for e in events if e.type in _EFFECT_EVENTS]
    if not effects or effects[-1].type not in ("reminder_set", "reminder_changed"):
        return None
    wanted = str(effects[-1].payload.get("reminder_id"))
    return next((r for r in scheduled if r.id == wanted), None)


JUST_SET_MS = 10 * 60 * 1000
_EFFECT_EVENTS = frozenset({"item_saved", "item_deleted", "all_deleted", "item_updated",
                            "reminder_set", "reminder_changed", "reminder_cancelled", "undone",
                            "memory_noted", "bookmark_set"})  # fmt: skip


def find(reminders: list[ReminderDoc], query: str) -> ReminderDoc | None:
    """The one reminder whose text holds every word of `query` (or the number), else None."""
    return _pick(reminders, query) if query.strip() else None


def _pick(reminders: list[ReminderDoc], args: str) -> ReminderDoc | None:
    """By number ("2"), by words of its text ("de ligar pro médico"), or the only one."""
    wanted = args.strip().lstrip("#").strip()
    if not wanted:
        return reminders[0] if len(reminders) == 1 else None
    if wanted.isdigit():
        index = int(wanted) - 1
        return reminders[index] if 0 <= index < len(reminders) else None
    words = [w for w in fold(wanted).split() if w not in _GLUE]
    # "the time of the dentist reminder", "a hora do lembrete do dentista": words about the
    # reminder itself name none of them
    words = [w for w in words if w not in _ABOUT_REMINDER] or words
    if not words:
        return None
    matching = [r for r in reminders if all(_has_word(fold(r.text).split(), w) for w in words)]
    return matching[0] if len(matching) == 1 else None


def _has_word(words: list[str], wanted: str) -> bool:
    """`wanted` among `words`, or a form of one of them: one the stem of the other, 4 letters
    or more ("planning" for "plan the week", "plantas" for "regar a planta")."""
    return any(
        w == wanted
        or (min(len(w), len(wanted)) >= 4 and (w.startswith(wanted) or wanted.startswith(w)))
        for w in words
    )


_GLUE = frozenset({"de", "do", "da", "o", "a", "about", "to", "the", "for", "pra", "para"})
_ABOUT_REMINDER = frozenset(
    "lembrete lembretes reminder reminders hora horario time of one my meu minha".split()
)


async def set_timezone(deps: Deps, turn: Turn, args: str) -> Reply:
    lang = turn.language
    name = args.strip()
    try:
        zone = ZoneInfo(name) if name and "/" in name else None
    except (ValueError, KeyError):
        zone = None
    if zone is None:
        return finish(turn, text("tz_usage", lang, zone=turn.user.timezone), kind="deterministic")
    await deps.db.users.set_timezone(turn.user_id, name)
    turn.user = turn.user.model_copy(update={"timezone": name})
    time = datetime.fromtimestamp(turn.now_ms / 1000, zone).strftime("%H:%M")
    return finish(turn, f"{OK_MARK} " + text("tz_set", lang, zone=name, time=time), kind="effect")


# -- pushing and snoozing -------------------------------------------------------------------------


def due_reply(reminder: ReminderDoc, *, now_ms: int, late_after_ms: int = 600_000) -> Reply:
    """What a due reminder says, with its snooze buttons."""
    lang = reminder.language
    zone = ZoneInfo(reminder.timezone)
    what = what_text(reminder, lang)
    if now_ms - reminder.due_at_ms > late_after_ms:
        now = datetime.fromtimestamp(now_ms / 1000, zone)
        due = datetime.fromtimestamp(reminder.due_at_ms / 1000, zone)
        body = text("reminder_due_late", lang, when=when_text(due, now, lang), what=what)
    else:
        body = text("reminder_due", lang, what=what)
    return Reply(
        text=body,
        choices=tuple(Choice(i, text(key, lang)) for i, key in enumerate(SNOOZE_CHOICES)),
        choice_kind="pick",
        choice_token=f"{SNOOZE_PREFIX}{reminder.id}",
    )


def following_ms(reminder: ReminderDoc, now_ms: int) -> int | None:
    """When a repeating reminder is due next after this occurrence (None: it ended, or it
    does not repeat); occurrences missed while nothing ran collapse into the one sent now."""
    rule = rule_of(reminder)
    if rule is None:
        return None
    after = datetime.fromtimestamp(max(now_ms, reminder.due_at_ms) / 1000, UTC)
    following = next_after(rule, start_of(reminder), after)
    return int(following.timestamp() * 1000) if following is not None else None


async def mark_sent(deps: Deps, claimed: ReminderDoc, now_ms: int) -> bool:
    """This occurrence was sent: marked so by its claim's owner, the next one scheduled."""
    return await deps.db.reminders.mark_sent_and_advance(
        claimed, following_ms(claimed, now_ms), now_ms
    )


def is_snooze(token: str | None) -> bool:
    return bool(token) and str(token).startswith(SNOOZE_PREFIX)


async def snooze(deps: Deps, turn: Turn) -> Reply:
    """A snooze button: move the sent reminder to +10 min, +1 h or tomorrow at 09:00."""
    lang = turn.language
    reminder_id = str(turn.incoming.choice_token)[len(SNOOZE_PREFIX) :]
    reminder = await deps.db.reminders.get(turn.user_id, reminder_id)
    choice = turn.incoming.choice
    if reminder is None or choice not in (0, 1, 2):
        return finish(turn, text("reminder_not_found", lang), kind="deterministic")
    now = _now(deps, turn).astimezone(zone_of(deps, reminder.timezone))
    if choice == 0:
        due = now + timedelta(minutes=10)
    elif choice == 1:
        due = now + timedelta(hours=1)
    else:
        due = (now + timedelta(days=1)).replace(hour=TOMORROW_HOUR, minute=0, second=0)
    due_ms = int(due.timestamp() * 1000)
    if reminder.rule:  # its next occurrence is scheduled already: the snooze is a one-off copy
        copy = reminder.model_copy(
            update={
                "id": f"{reminder.id[:10]}s{reminder.sent_count}",
                "state": "scheduled",
                "due_at_ms": due_ms,
                "wake_at_ms": due_ms,
                "attempts": 0,
                "claimed_by": None,
                "held": False,
                "rule": None,
                "start_local": None,
                "count": None,
                "until_ms": None,
                "created_at_ms": turn.now_ms,
                "updated_at_ms": turn.now_ms,
            }
        )
        if await deps.db.reminders.get(turn.user_id, copy.id) is not None:
            return finish(turn, text("reminder_snooze_stale", lang), kind="deterministic")
        await deps.db.reminders.add(copy)
        reminder = copy
    elif not await deps.db.reminders.reschedule(turn.user_id, reminder, due_ms, turn.now_ms):
        return finish(turn, text("reminder_snooze_stale", lang), kind="deterministic")
    await reminderlook.lower(deps, turn, due_ms)
    await append_event(deps, turn, "reminder_set", {"reminder_id": reminder.id, "snoozed": True})
    body = f"{OK_MARK} " + text(
        "reminder_snoozed", lang, when=when_text(due, now, lang), what=what_text(reminder, lang)
    )
    return finish(turn, body, kind="effect")


async def with_held(deps: Deps, turn: Turn, reply: Reply) -> Reply:
    """Put reminders waiting for this user's next message in front of the reply.

    WhatsApp: those held while the 24-hour window was closed. The console (`lembra
    chat`), which no scheduler pushes to, shows the ones that fell due meanwhile.
    """
    channel = turn.incoming.channel
    if channel == "telegram" or turn.forgotten or reminderlook.none_due(turn):
        return reply
    still_open = await deps.db.reminders.open_for(turn.user_id)
    waiting = [
        r
        for r in still_open
        if r.state == "scheduled"
        and (r.held or (channel == "console" and r.due_at_ms <= turn.now_ms))
    ]
    shown = []
    stale_ms = int(deps.settings.reminder_reclaim_s * 1000)
    for reminder in waiting:
        claimed = await deps.db.reminders.claim(
            reminder, deps.owner, turn.now_ms, stale_ms=stale_ms
        )
        if claimed is None:
            continue
        if await mark_sent(deps, claimed, turn.now_ms):
            await append_event(
                deps, turn, "reminder_sent", {"reminder_id": reminder.id, "held": True}
            )
            shown.append(due_reply(reminder, now_ms=turn.now_ms).text)
            still_open.remove(reminder)
    await reminderlook.settle(deps, turn, still_open)
    if not shown:
        return reply
    return replace(reply, text="\n".join([*shown, "", reply.text]))


# -- the reminder tools (DESIGN 11.1): the same code as the readers above -------------------------


def _iso(deps: Deps, turn: Turn, value: str) -> datetime:
    return datetime.fromisoformat(value.replace(" ", "T")).replace(
        tzinfo=zone_of(deps, turn.user.timezone), second=0, microsecond=0
    )


def _phrase(deps: Deps, turn: Turn, phrase: str) -> ReminderParse | None:
    now = _now(deps, turn)
    month_first, country = reading_for(deps, turn)
    return parse(f"me lembra {phrase}", now, month_first=month_first, country=country)


def _message_times(deps: Deps, turn: Turn) -> list[datetime]:
    """The instants the grammar reads from the user's message (one, or the options it asks)."""
    parsed = _phrase(deps, turn, turn.incoming.text or "")
    if isinstance(parsed, SetReminder):
        return [parsed.due]
    if isinstance(parsed, AskWhen):
        return list(parsed.options)
    return []


# the words without which a message asks for no repetition: a model's `rule` needs one
_ASKS_REPEAT = re.compile(
    r"\b(?:tod[oa]s?|cada|every\w*|daily|weekly|monthly|yearly|annually|diari\w*|semana\w+|"
    r"mensa\w+|anua\w+|sempre|always|repet\w*|repeat\w*|weekdays?|uteis|fds|weekends?|"
    r"fins?|vezes|times|\d+\s*x)\b"
)


def tool_time_problem(
    deps: Deps, turn: Turn, when: str | None, phrase: str | None, rule: str | None
) -> str | None:
    """Why a model-given time or rule cannot be placed (invalid output, 3.1), or None."""
    if rule is not None and read_rrule(rule, zone_of(deps, turn.user.timezone)) is None:
        return "argument `rule` is not an RRULE a reminder can use (FREQ=DAILY|WEEKLY|MONTHLY|..."
    if rule is not None and not _ASKS_REPEAT.search(fold(turn.incoming.text or "")):
        return (  # "me lembra de ver ele hj às 20h" set as every day at 20:00 (wave-15 run)
            "argument `rule`: the user's message asks for no repetition; leave `rule` out "
            "for a one-off reminder"
        )
    if phrase is not None and _phrase(deps, turn, phrase) is None:
        return (
            "argument `phrase` names no time the reminder grammar can read: pass the user's own "
            "time words (e.g. 'amanhã às 9h')"
        )
    if when is not None:
        try:
            wanted = _iso(deps, turn, when)
        except ValueError:
            return "argument `when` is not an ISO local date-time (YYYY-MM-DDTHH:MM)"
        said = _message_times(deps, turn)
        if not any(abs(t.timestamp() - wanted.timestamp()) < 60 for t in said):
            return (
                "argument `when` is not the time the user's message states: pass the user's own "
                "time words as `phrase` instead"
            )
    return None


async def set_from_tool(
    deps: Deps,
    turn: Turn,
    what: str,
    *,
    when: str | None,
    phrase: str | None,
    rule: str | None,
) -> Reply:
    """`set_reminder`: the reader's `schedule`, with the time placed by the grammar."""
    lang = turn.language
    now = _now(deps, turn)
    zone = zone_of(deps, turn.user.timezone)
    given = read_rrule(rule, zone) if rule else None
    what = one_line(what, 300)
    if phrase is not None:
        parsed = _phrase(deps, turn, phrase)
        if isinstance(parsed, AskWhen):
            return await ask_when(deps, turn, replace(parsed, what=what, rule=given or parsed.rule))
        if isinstance(parsed, PastTime) or parsed is None:
            due = parsed.due if parsed else now
            return finish(turn, text("reminder_past", lang, when=when_text(due, now, lang)),
                          kind="deterministic")  # fmt: skip
        first = parsed.due
        rule_now = given or parsed.rule
        default_time = parsed.default_time
        spoken = read_when(tokenize(fold_same_length(phrase)))
        clock = time_of_day(spoken) if given is not None and spoken is not None else None
        if clock is not None and spoken is not None and not spoken.has_day:
            # a rule beside a bare clock: that time of every day it names ("7h" is 07:00)
            first = now.replace(hour=clock[0], minute=clock[1], second=0, microsecond=0)
    else:
        assert when is not None
        first, rule_now, default_time = _iso(deps, turn, when), given, False
    if rule_now is not None:
        first = first_from(rule_now, first, now - timedelta(minutes=1)) or first
    if first.timestamp() <= now.timestamp():
        return finish(turn, text("reminder_past", lang, when=when_text(first, now, lang)),
                      kind="deterministic")  # fmt: skip
    return await schedule(deps, turn, SetReminder(what, first, default_time, rule=rule_now))


async def target_of(
    deps: Deps, turn: Turn, reminder_id: str | None, query: str | None
) -> ReminderDoc | None:
    """The user's open reminder by id (never another user's) or by words of its text."""
    scheduled = [
        r for r in await deps.db.reminders.open_for(turn.user_id) if r.state == "scheduled"
    ]
    if reminder_id is not None:  # the full id, or the handle the frame shows (its start)
        named = [r for r in scheduled if r.id == reminder_id]
        if not named and len(reminder_id) >= HANDLE_MIN:
            named = [r for r in scheduled if r.id.startswith(reminder_id)]
        return named[0] if len(named) == 1 else None
    return find(scheduled, query or "")


HANDLE_MIN = 6  # the frame shows 8 characters of a reminder's id


async def change_from_tool(
    deps: Deps,
    turn: Turn,
    target: ReminderDoc,
    *,
    when: str | None,
    phrase: str | None,
    what: str | None,
    rule: str | None,
) -> Reply:
    """`change_reminder`: the reader's `change`, the new time placed by the grammar."""
    due = None
    if phrase is not None:
        due = _read_new_time(deps, turn, phrase, target)
        if due is None:
            return finish(turn, text("reminder_not_found", turn.language), kind="deterministic")
    elif when is not None:
        due = _iso(deps, turn, when)
    given = read_rrule(rule, zone_of(deps, turn.user.timezone)) if rule else None
    return await change(deps, turn, target, due=due, what=what, rule=given)
