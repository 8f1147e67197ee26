"""Which tools a planning path offers, decided by what each tool does (`Tool.does`), never by name.

A tool added to the registry is offered where its kind belongs, with no list to edit:

- any plan: every tool but a critical one (deleting everything is the runtime's own);
- a question about saved things: what reads the user's own things, a question back and a
  note for /why; never a save, a change or a lookup (a lookup is never the answer to a
  question about what the user saved, issue 26);
- a question of another kind, or a message about a link: everything but what saves;
- the first step of a message the classifier hinted (save, search, delete): the kinds
  that hint can need (`FIRST_STEP`), so a small model cannot bookmark a "keep <url>" or
  search on a delete; later steps, after a tool's result, get the path's whole set.

Whatever the path but a save, a tool that needs an outside service the operator has not
configured (`Tool.needs`) is not offered to the model: without TMDB a lookup that is not a
save can only answer "TMDB is not configured" (on a save it saves as written), and the 1.5B model took the lookup for a search
("what's sarah's address again?"), a retype ("it's a miniseries, fix that") or a year
changed ("quero o de 1922"). The tools that remain do each of those without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from agent.toolkinds import Kind, Service
from agent.tools.base import Tool, ToolArgs

Tools = Iterable[Tool[ToolArgs]]

QUESTION_KINDS: frozenset[Kind] = frozenset({"read", "ask", "meta"})
SAVING_KINDS: frozenset[Kind] = frozenset({"save"})
FIRST_STEP: Mapping[str, frozenset[Kind]] = {
    "save": frozenset({"save", "lookup", "ask", "note", "change"}),
    "search": frozenset({"lookup", "read", "ask"}),
    "delete": frozenset({"delete", "read", "ask", "check"}),
    # anything else may be anything but a bookmark, unless the message names one (the
    # 1.5B model bookmarked "ops, na verdade é 17h" as a moment of the conversation)
    "other": frozenset(
        {"save", "lookup", "read", "change", "delete", "ask", "note", "check", "meta"}
    ),
}
# a headed note ("anota: X", "note: X") is a note to save: the model took "note:" for
# "remember this about me" (a fact noted about the user, no item)
HEADED_NOTE: frozenset[Kind] = frozenset({"save", "ask"})
# a plain search ("look for gym") needs no lookup: the 1.5B model looked the previous
# turn's show or link up instead of searching
PLAIN_SEARCH: frozenset[Kind] = frozenset({"read", "ask"})


def plannable(tools: Tools) -> frozenset[str]:
    """Every tool a plan may call: all but the critical ones."""
    return frozenset(t.name for t in tools if t.risk != "critical")


def of_kinds(tools: Tools, kinds: frozenset[Kind]) -> frozenset[str]:
    """The plannable tools whose kind is one of `kinds`."""
    return frozenset(t.name for t in tools if t.risk != "critical" and t.does in kinds)


def questions(tools: Tools) -> frozenset[str]:
    """What a question about saved things may call."""
    return of_kinds(tools, QUESTION_KINDS)


def without_saves(tools: Tools) -> frozenset[str]:
    """Every plannable tool but those that save."""
    listed = list(tools)
    return plannable(listed) - of_kinds(listed, SAVING_KINDS)


def first_step(hint: str, tools: Tools) -> frozenset[str] | None:
    """The tools a first step of a message hinted `hint` may name, or None for all."""
    kinds = FIRST_STEP.get(hint)
    return None if kinds is None else of_kinds(tools, kinds)


def runnable(tools: Tools, missing: frozenset[Service]) -> frozenset[str]:
    """The plannable tools that can do their job without the `missing` services."""
    return frozenset(
        t.name
        for t in tools
        if t.risk != "critical" and (t.needs is None or t.needs not in missing)
    )


def facts(tools: Tools) -> dict[str, frozenset[str]]:
    """Each tool's optional arguments that are facts a source states (DESIGN 9.6)."""
    return {t.name: t.facts for t in tools if t.facts}
