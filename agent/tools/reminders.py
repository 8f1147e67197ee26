"""The reminder and undo tools (DESIGN 11.1): set_reminder, list_reminders, change_reminder,
cancel_reminder and undo_last, user-scoped, each sharing its implementation with the in-code
reader that does the same job (agent/conversation/reminding.py, undoing.py).

A model-given time is always placed by the reminder grammar: `phrase` (the user's time words)
is read by it, and an ISO `when` must be what the grammar reads from the user's message,
else the call is invalid output (3.1) and the model is told to pass the words instead.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from agent.errors import ToolFailure
from agent.tools.base import Failed, NotFound, Outcome, Replied, Tool, ToolArgs, ToolContext
from storage.documents import ReminderDoc

_ISO = r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?$"


class SetReminderArgs(ToolArgs):
    text: str = Field(min_length=1, max_length=300)
    when: str | None = Field(default=None, pattern=_ISO)  # ISO local date-time
    phrase: str | None = Field(default=None, min_length=1, max_length=200)
    rule: str | None = Field(default=None, min_length=6, max_length=200)  # RFC 5545 RRULE

    @model_validator(mode="after")
    def _one_time(self) -> SetReminderArgs:
        if (self.when is None) == (self.phrase is None):
            raise ValueError("give exactly one of when (ISO local date-time) or phrase")
        return self


class ListRemindersArgs(ToolArgs):
    period: Literal["today", "tomorrow", "this_week", "next_days"] | None = None


class _Target(ToolArgs):
    reminder_id: str | None = Field(default=None, min_length=1, max_length=64)
    query: str | None = Field(default=None, min_length=1, max_length=200)

    @model_validator(mode="after")
    def _one_target(self) -> _Target:
        if (self.reminder_id is None) == (self.query is None):
            raise ValueError("give exactly one of reminder_id or query")
        return self


class ChangeReminderArgs(_Target):
    when: str | None = Field(default=None, pattern=_ISO)
    phrase: str | None = Field(default=None, min_length=1, max_length=200)
    text: str | None = Field(default=None, min_length=1, max_length=300)
    rule: str | None = Field(default=None, min_length=6, max_length=200)

    @model_validator(mode="after")
    def _something_changes(self) -> ChangeReminderArgs:
        if not any((self.when, self.phrase, self.text, self.rule)):
            raise ValueError("give at least one of when, phrase, text, rule")
        if self.when is not None and self.phrase is not None:
            raise ValueError("give when or phrase, not both")
        return self


class CancelReminderArgs(_Target):
    scope: Literal["next", "all"] | None = None  # a repeating one with none: the user is asked


class UndoLastArgs(ToolArgs):
    pass


def _failure(code: str, message: str) -> Failed:
    return Failed(ToolFailure(code, "not_found", message, "rephrase", reason="reminder_not_found"))


def check_time(ctx: ToolContext, args: SetReminderArgs | ChangeReminderArgs) -> str | None:
    """Invalid output when the time or rule is not one the reminder grammar places from the
    user's own words (DESIGN 11.1)."""
    from agent.conversation import reminding

    return reminding.tool_time_problem(ctx.deps, ctx.turn, args.when, args.phrase, args.rule)


async def set_reminder(ctx: ToolContext, args: SetReminderArgs) -> Outcome:
    from agent.conversation import reminding

    reply = await reminding.set_from_tool(
        ctx.deps, ctx.turn, args.text, when=args.when, phrase=args.phrase, rule=args.rule
    )
    return Replied(reply, "reminder_set" if reply.meta.turn_kind == "effect" else "asked_user")


async def list_reminders(ctx: ToolContext, args: ListRemindersArgs) -> Outcome:
    from agent.conversation import reminding

    return Replied(await reminding.list_reminders(ctx.deps, ctx.turn, args.period), "listed")


async def _target(ctx: ToolContext, args: _Target) -> ReminderDoc | NotFound | Failed:
    from agent.conversation import reminding

    found = await reminding.target_of(ctx.deps, ctx.turn, args.reminder_id, args.query)
    if found is None:
        if args.query is not None:
            return NotFound(args.query)
        return _failure("REMINDER_NOT_FOUND", "no open reminder of this user has that id")
    return found


async def change_reminder(ctx: ToolContext, args: ChangeReminderArgs) -> Outcome:
    from agent.conversation import reminding

    target = await _target(ctx, args)
    if isinstance(target, NotFound | Failed):
        return target
    reply = await reminding.change_from_tool(
        ctx.deps,
        ctx.turn,
        target,
        when=args.when,
        phrase=args.phrase,
        what=args.text,
        rule=args.rule,
    )
    return Replied(reply, "changed" if reply.meta.turn_kind == "effect" else "not_changed")


async def cancel_reminder(ctx: ToolContext, args: CancelReminderArgs) -> Outcome:
    from agent.conversation import reminding

    target = await _target(ctx, args)
    if isinstance(target, NotFound | Failed):
        return target
    if target.rule and args.scope is None:  # "only the next one, or all?" (DESIGN 11.4)
        reply = await reminding.ask_scope(ctx.deps, ctx.turn, target)
        return Replied(reply, "asked")
    scope = args.scope or "all"
    reply = await reminding.cancel(ctx.deps, ctx.turn, target, scope)
    return Replied(reply, "cancelled" if reply.meta.turn_kind == "effect" else "not_cancelled")


async def undo_last(ctx: ToolContext, args: UndoLastArgs) -> Outcome:
    from agent.conversation import undoing

    reply = await undoing.undo(ctx.deps, ctx.turn)
    return Replied(reply, "undone" if reply.meta.turn_kind == "effect" else "answered")


REMINDER_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "set_reminder",
        SetReminderArgs,
        "low",
        "phrase: the user's time words (or when: an ISO time they state); rule: RRULE.",
        set_reminder,
        {"text": "tomar o remédio", "phrase": "todo dia às 8h"},
        check=check_time,
    ),
    Tool(
        "list_reminders",
        ListRemindersArgs,
        "read",
        "Open reminders.",
        list_reminders,
        {"period": "tomorrow"},
    ),
    Tool(
        "change_reminder",
        ChangeReminderArgs,
        "low",
        "By reminder_id or query.",
        change_reminder,
        {"query": "dentista", "phrase": "às 10h"},
        check=check_time,
    ),
    Tool(
        "cancel_reminder",
        CancelReminderArgs,
        "low",
        "scope next: only its next time.",
        cancel_reminder,
        {"query": "dentista"},
        kind="delete",  # offered where deleting is (agent/tools/paths.py): "esquece o lembrete"
    ),
    Tool(
        "undo_last",
        UndoLastArgs,
        "low",
        "As «desfaz».",
        undo_last,
        {},
    ),
)
