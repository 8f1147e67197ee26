"""The narrator (DESIGN 3.7, seed 002): the context frame told as a short first-person situation.

Written in the user's language, not as a data dump. Stored content (item labels,
handovers, summaries) appears only inside <data>...</data> blocks.

It is told in two parts, so a server's prefix cache can keep the first (issue 28):

- `memory`: who I work for and what I remember (identity, capabilities, handovers,
  what dreaming learned, the periods it synthesized, the assistant's notes, the summarized turns, beliefs). It
  changes only when that memory does (a session's handover, the history dropping a
  block into the summaries, a belief or note changed), and goes before the history;
- `turn`: what changes from one message to the next (the time, what is pending, the
  item counts, the last list shown, the item in focus), which goes after the history,
  right before the new message. It is also given as `parts`, so a json_schema request
  tells only what changed since the situation before it (agent/memory/situation.py).

The narrative has a token budget; when over it, sections are compressed by priority
(lowest first: beliefs, archive, structured memory, periods, capabilities, model memory,
handover, state) until it fits; identity, time and obligations are never dropped. The
memory part is fitted first, to the budget less a fixed allowance for the turn part,
so what is pending this turn never changes how the memory is told; the turn part gets
what is left. If even that is over the budget, the minimal narrative (identity, item
counts, pending action) is used.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from agent.conversation import shelf as shelves
from agent.memory import obligations as stakes
from agent.memory.frame import ContextFrame
from agent.memory.sessionlog import tag_words
from agent.memory.situation import Part
from agent.memory.tiers import structured_line
from agent.texts import plural
from agent.tokens import TokenCounter
from agent.types import Language
from agent.understanding.textnorm import data_block, one_line

# What the memory part leaves of the budget for the turn part (time, pending, counts).
TURN_ALLOWANCE = 120


@dataclass(frozen=True, slots=True)
class Narrative:
    text: str  # both parts, memory first
    tokens: int
    compressed: tuple[str, ...]
    minimal: bool
    memory: str = ""  # changes only with what is remembered: before the history
    turn: str = ""  # changes every message: after the history
    parts: tuple[Part, ...] = ()  # the turn, as the parts a situation tells


@dataclass
class _Section:
    name: str
    priority: int  # higher is kept longer
    levels: list[str]  # full first; each next one shorter; "" drops the section
    level: int = 0

    @property
    def text(self) -> str:
        return self.levels[self.level]


def data(text: str) -> str:
    """A delimited data block; the delimiters cannot be forged from inside."""
    return data_block(text)


def _counts(frame: ContextFrame, pt: bool) -> str:
    counts = frame.state.get("counts", {})
    parts = [plural(int(n), t, "pt" if pt else "en") for t, n in counts.items() if n]
    return ", ".join(parts) or ("nenhum" if pt else "none")


def _who(frame: ContextFrame, pt: bool) -> _Section:
    """Who I work for: the same on every message of a day (the time is the turn's)."""
    ident, temporal = frame.identity, frame.temporal
    role = {
        "admin": "administrador" if pt else "an administrator",
        "user": "usuário" if pt else "a user",
    }[ident["role"]]
    if pt:
        full = (
            f"Eu sou o planejador do Lembra e trabalho para {ident['user_id']} ({role}, há {ident['days_active']} dias), "
            f"pelo canal {frame.position['channel']}, no fuso {temporal['timezone']}. Respondo em português."
        )
        short = f"Eu sou o planejador do Lembra para {ident['user_id']}. Respondo em português."
    else:
        full = (
            f"I am Lembra's planner, working for {ident['user_id']} ({role}, for {ident['days_active']} days) "
            f"on {frame.position['channel']}, in the {temporal['timezone']} time zone. I answer in English."
        )
        short = f"I am Lembra's planner for {ident['user_id']}. I answer in English."
    return _Section("identity", 100, [full, short])


_WEEKDAYS_PT = ("segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo")


def _now(frame: ContextFrame, pt: bool) -> _Section:
    """The local time, short: it is told on every message (the zone is in the memory)."""
    now = datetime.fromisoformat(frame.temporal["now"])
    day = _WEEKDAYS_PT[now.weekday()] if pt else now.strftime("%A")
    return _Section(
        "time",
        100,
        [f"Agora: {now:%d/%m/%Y %H:%M} ({day})." if pt else f"Now: {now:%Y-%m-%d %H:%M} ({day})."],
    )


def _obligations(frame: ContextFrame, pt: bool) -> _Section:
    upcoming = _reminders(frame, pt)
    if not frame.obligations:
        nothing = "Não há nada pendente." if pt else "Nothing is pending."
        return _Section("obligations", 90, [f"{nothing} {upcoming}" if upcoming else nothing])
    full = " ".join(stakes.narrate(ob, pt, data) for ob in frame.obligations)
    short = " ".join(stakes.narrate_short(ob, pt) for ob in frame.obligations)
    if upcoming:
        full += " " + upcoming
    return _Section("obligations", 90, [full, short])


def _reminders(frame: ContextFrame, pt: bool) -> str:
    """The next reminders, compact: "Lembretes: abc123 06/01 08:00 «tomar o remédio» (repete)."."""
    listed = frame.state.get("reminders") or []
    if not listed:
        return ""
    again = " (repete)" if pt else " (repeats)"
    entries = "; ".join(
        f"{r['reminder_id']} {str(r['due'])[5:]} {data(one_line(str(r['text']), 60))}"
        + (again if r.get("repeats") else "")
        for r in listed
    )
    return ("Lembretes: " if pt else "Reminders: ") + entries + "."


def _state(frame: ContextFrame, pt: bool) -> _Section:
    """The item counts. The newest items are not listed: they change with every save, and
    the model sees them in the history (tool results) or in the summarized turns."""
    total = frame.state.get("total", 0)
    counts = _counts(frame, pt)
    items = plural(total, "item", "pt" if pt else "en")
    base = f"O usuário guarda {items} ({counts})." if pt else f"The user keeps {items} ({counts})."
    return _Section("state", 70, [base])


def _shelf(frame: ContextFrame, pt: bool) -> _Section:
    """What the user was just shown, numbered: "o 2" is line 2 (DESIGN 10.1); the stable
    rules say how to read it, so the situation names it in three words."""
    entries = list((frame.shelf or {}).get("entries") or [])
    head = "Última lista vista: " if pt else "Last list seen: "

    def render(limit: int) -> str:
        if not entries or not limit:
            return ""
        shown = "\n".join(
            f"{e['n']}. [{shelves.handle(e['item_id'])}] {e['label']}" for e in entries[:limit]
        )
        more = len(entries) - limit
        if more > 0:
            shown += f"\n(+{more})"
        return head + data(shown) + "."

    return _Section("shelf", 65, [render(SHELF_LINES), render(SHELF_LINES_SHORT), ""])


def _focus(frame: ContextFrame, pt: bool) -> _Section:
    """The item last named alone: what «esse», «ele», «it» refer to."""
    focus = (frame.shelf or {}).get("focus")
    if not focus:
        return _Section("focus", 66, [""])
    head = "Item em foco: " if pt else "Item in focus: "
    text = head + data(f"[{shelves.handle(focus['item_id'])}] {focus['label']}") + "."
    return _Section("focus", 66, [text, ""])


def only_tools(tools: Sequence[str], language: str) -> str:
    """The turn's line naming the only tools this message's path allows (issue 26)."""
    names = ", ".join(tools)
    if language == "pt":
        return f"Nesta mensagem, use só estas ferramentas: {names}."
    return f"For this message, use only these tools: {names}."


SHELF_LINES = 8  # lines of the shelf the frame carries (a handle is ~8 tokens); the rest counted
SHELF_LINES_SHORT = 3


def _capabilities(frame: ContextFrame, pt: bool) -> _Section:
    tools = ", ".join(frame.capabilities.get("tools") or [])
    text = (
        f"Posso usar as ferramentas: {tools}. Apagar tudo não é comigo: o runtime faz isso."
        if pt
        else f"I may use the tools: {tools}. Deleting everything is not mine to do: the runtime does it."
    )
    return _Section("capabilities", 50, [text, ""])


def _handover(frame: ContextFrame, pt: bool) -> _Section | None:
    handover = frame.memory.get("handover")
    if not handover:
        return None
    unverified = "" if handover["verified"] else (" (não verificado)" if pt else " (unverified)")
    head = ("Da última sessão" if pt else "From the last session") + unverified + ": "
    notes = handover.get("governance_notes") or []
    governance = "".join(
        (" Nota de governança: " if pt else " Governance note: ") + data(one_line(n, 200)) + "."
        for n in notes
    )
    found = [str(t) for t in handover.get("tags") or []]
    if found:  # derived in code, so outside the data block
        tagged = tag_words(found, "pt" if pt else "en")
        governance = (f" Etiquetas: {tagged}." if pt else f" Tags: {tagged}.") + governance
    full = head + data(str(handover["text"])) + governance
    short = head + data(one_line(str(handover["text"]), 200)) + governance
    return _Section("handover", 60, [full, short, governance.strip()])


def _baseline(frame: ContextFrame, pt: bool) -> _Section | None:
    baseline = str(frame.memory.get("baseline") or "")
    if not baseline:
        return None
    head = "O que aprendi sobre o usuário: " if pt else "What I have learned about the user: "
    return _Section("baseline", 45, [head + data(baseline), ""])


def _periods(frame: ContextFrame, pt: bool) -> _Section | None:
    """What was saved per period (agent/memory/periods.py): titles first to go, then topics."""
    periods = frame.memory.get("periods") or {}
    lang: Language = "pt" if pt else "en"
    heads = (
        {"recent": "últimos 7 dias", "month": "resto do mês", "older": "antes"}
        if pt
        else {"recent": "last 7 days", "month": "earlier this month", "older": "before"}
    )

    def render(detail: int) -> str:
        parts = []
        for name, head in heads.items():
            period = periods.get(name) or {}
            if not period.get("count"):
                continue
            types = dict(period.get("types") or {})
            line = f"{head}: " + ", ".join(plural(int(n), t, lang) for t, n in types.items())
            shown = [*(period.get("topics") or [])] if detail >= 1 else []
            if detail >= 2:
                shown += period.get("titles") or []
            if shown:
                line += " " + data("; ".join(str(s) for s in shown))
            parts.append(line)
        if not parts:
            return ""
        head = "Salvo por período: " if pt else "Saved by period: "
        return head + " | ".join(parts)

    full = render(2)
    if not full:
        return None
    return _Section("periods", 40, [full, render(1), render(0), ""])


def _model_memory(frame: ContextFrame, pt: bool) -> _Section | None:
    """What the user told me about themselves, and their bookmarks: newest kept longest."""
    kept = frame.memory.get("model") or {}
    facts = [str(f) for f in kept.get("facts") or []]
    marks = [b for b in kept.get("bookmarks") or [] if isinstance(b, dict)]
    if not facts and not marks:
        return None
    head_f = (
        "O que o usuário me contou de si: " if pt else "What the user told me about themselves: "
    )
    head_b = " Marcadores: " if pt else " Bookmarks: "

    def render(n_facts: int, with_notes: bool) -> str:
        chosen = facts[-n_facts:] if n_facts else []
        parts = [head_f + data("\n".join(chosen)) + "."] if chosen else []
        listed = [f"{b['target']} — {b['note']}" if with_notes else str(b["target"]) for b in marks]
        if listed:
            parts.append(head_b.strip() + " " + data("\n".join(listed)) + ".")
        return " ".join(parts)

    levels = [render(len(facts), True), render(10, True), render(5, False), ""]
    return _Section("model_memory", 55, levels)


def _earlier_handovers(frame: ContextFrame, pt: bool) -> _Section | None:
    """Sessions before the last one: newest kept longest, each cut to one line first; their
    sanity check's notes (and an unverified mark) outside the data, as for the last one."""
    entries: list[dict[str, Any]] = [
        e if isinstance(e, dict) else {"text": str(e), "verified": True}
        for e in frame.memory.get("earlier_handovers") or []
    ]
    texts = [str(e.get("text", "")) for e in entries]
    if not texts:
        return None
    unverified = not all(e.get("verified", True) for e in entries)
    head = (
        ("Sessões anteriores" if pt else "Earlier sessions")
        + ((" (não verificadas)" if pt else " (unverified)") if unverified else "")
        + ": "
    )
    notes = [str(n) for e in entries for n in e.get("governance_notes") or []]
    governance = "".join(
        (" Nota de governança: " if pt else " Governance note: ") + data(one_line(n, 200)) + "."
        for n in notes
    )
    levels = [
        head + data("\n".join(texts)) + governance,
        head + data("\n".join(one_line(t, 160) for t in texts)) + governance,
        head + data(one_line(texts[-1], 160)) + governance,
        governance.strip(),
    ]
    return _Section("earlier_handovers", 35, levels)


def _structured(frame: ContextFrame, pt: bool) -> _Section | None:
    entries = frame.memory.get("structured") or []
    if not entries:
        return None
    head = "Turnos anteriores, resumidos: " if pt else "Earlier turns, summarized: "

    def render(chosen: Sequence[dict[str, object]], with_reply: bool) -> str:
        return head + data(
            "\n".join(structured_line(dict(e), with_reply=with_reply) for e in chosen)
        )

    return _Section(
        "structured",
        40,
        [
            render(entries, True),
            render(entries, False),
            render(entries[-10:], False),
            render(entries[-3:], False),
            "",
        ],
    )


def _archive(frame: ContextFrame, pt: bool) -> _Section | None:
    archive = str(frame.memory.get("archive") or "")
    if not archive:
        return None
    head = "Antes disso: " if pt else "Before that: "
    return _Section("archive", 30, [head + data(archive), head + data(archive[-400:]), ""])


def _beliefs(frame: ContextFrame, pt: bool) -> _Section | None:
    beliefs = frame.memory.get("beliefs") or {}
    if not beliefs:
        return None
    listed = ", ".join(f"{k} = {v:.2f}" for k, v in sorted(beliefs.items()))
    return _Section(
        "beliefs",
        20,
        [
            ("Minhas crenças sobre o usuário: " if pt else "My beliefs about the user: ")
            + listed
            + ".",
            "",
        ],
    )


def minimal(frame: ContextFrame, pt: bool, counter: TokenCounter) -> Narrative:
    """The graceful-degradation narrative: identity, item counts, the pending action."""
    memory = _who(frame, pt).levels[1]
    parts = (
        _time_part(frame, pt),
        Part("state", _state(frame, pt).levels[-1]),
        Part("obligations", _obligations(frame, pt).levels[-1]),
    )
    turn = " ".join(p.full for p in parts)
    text = memory + "\n" + turn
    return Narrative(text, counter.count_text(text), (), True, memory, turn, parts)


def _time_part(frame: ContextFrame, pt: bool) -> Part:
    """The time: told whole when the day changed, else only the clock."""
    now = datetime.fromisoformat(frame.temporal["now"])
    return Part(
        "time",
        _now(frame, pt).text,
        key=now.date().isoformat(),
        steady=f"Agora: {now:%H:%M}." if pt else f"Now: {now:%H:%M}.",
    )


def _turn_parts(frame: ContextFrame, pt: bool, sections: Sequence[_Section]) -> tuple[Part, ...]:
    """The turn's sections, as fitted, as the parts a situation tells (agent/memory/situation.py).

    The list, the item in focus and the facts are judged by what they are (the ids, the
    facts), not by how they were fitted: a list that changed while the budget left it out
    is said to have changed, and one that is gone is said to be gone.
    """
    told = {s.name: s.text for s in sections}
    shelf = frame.shelf or {}
    entries = [str(e.get("item_id")) for e in shelf.get("entries") or []]
    focus = shelf.get("focus") or {}
    kept = frame.memory.get("model") or {}
    learned = json.dumps([kept.get("facts") or [], kept.get("bookmarks") or []], default=str)
    has_learned = bool(kept.get("facts") or kept.get("bookmarks"))

    def told_as(name: str, what: str, present: bool, gone: str, left_out: str) -> Part:
        text = told.get(name, "")
        return Part(
            name,
            text,
            key=f"{what}\x1f{text}",
            again=text or (left_out if present else gone),
            what=what,
        )

    return (
        _time_part(frame, pt),
        Part("obligations", told["obligations"]),
        Part("state", told["state"]),
        told_as(
            "shelf",
            ",".join(entries),
            bool(entries),
            "Nenhuma lista recente." if pt else "No recent list.",
            "Uma nova lista foi mostrada (não repetida aqui)."
            if pt
            else "A new list was shown (not repeated here).",
        ),
        told_as(
            "focus",
            str(focus.get("item_id") or ""),
            bool(focus),
            "Nenhum item em foco." if pt else "No item in focus.",
            "O item em foco mudou (não repetido aqui)."
            if pt
            else "The item in focus changed (not repeated here).",
        ),
        told_as(
            "model_memory",
            learned if has_learned else "",
            has_learned,
            "Não guardo mais nada que o usuário me contou de si."
            if pt
            else "I no longer keep anything the user told me about themselves.",
            "O que o usuário me contou de si mudou (não repetido aqui)."
            if pt
            else "What the user told me about themselves changed (not repeated here).",
        ),
    )


def _fit(
    sections: list[_Section], budget: int, counter: TokenCounter, compressed: list[str]
) -> tuple[str, int]:
    """The sections' text within `budget`, compressing the lowest priority first."""

    def render() -> str:
        return "\n".join(s.text for s in sections if s.text)

    text = render()
    tokens = counter.count_text(text)
    while tokens > budget:
        shrinkable = [s for s in sections if s.level < len(s.levels) - 1]
        if not shrinkable:
            break
        victim = min(shrinkable, key=lambda s: s.priority)
        victim.level += 1
        if victim.name not in compressed:
            compressed.append(victim.name)
        text = render()
        tokens = counter.count_text(text)
    return text, tokens


def narrate(
    frame: ContextFrame,
    language: str,
    *,
    budget: int,
    counter: TokenCounter,
    changes_told: bool = False,
) -> Narrative:
    """The frame as a first-person situation within `budget` tokens: memory, then the turn.

    `changes_told` (a json_schema request, whose situation tells only what changed): what
    the user told me about themselves moves from the memory to the turn part. A "remember
    that..." mid-conversation then costs the next request that one section, where in the
    memory, before the history, it made the server evaluate the whole history again.
    """
    pt = language == "pt"
    if frame.degraded:
        return minimal(frame, pt, counter)
    remembered = [
        s
        for s in (
            _who(frame, pt),
            _capabilities(frame, pt),
            _handover(frame, pt),
            _earlier_handovers(frame, pt),
            _baseline(frame, pt),
            _periods(frame, pt),
            None if changes_told else _model_memory(frame, pt),
            _structured(frame, pt),
            _archive(frame, pt),
            _beliefs(frame, pt),
        )
        if s is not None
    ]
    # what changes from one message to the next: the turn part, after the history
    now = [_now(frame, pt), _obligations(frame, pt), _state(frame, pt)]
    now += [_shelf(frame, pt), _focus(frame, pt)]
    learned = _model_memory(frame, pt) if changes_told else None
    if learned is not None:
        now.append(learned)
    compressed: list[str] = []
    # the memory's own share: what is pending this turn never changes how it is told
    memory, memory_tokens = _fit(remembered, max(budget - TURN_ALLOWANCE, 1), counter, compressed)
    # the turn takes what the memory left (at least its allowance)
    turn, turn_tokens = _fit(now, budget - memory_tokens, counter, compressed)
    text = memory + "\n" + turn
    tokens = counter.count_text(text)
    if memory_tokens + turn_tokens > budget:
        # what cannot be dropped is still too long: the minimal narrative
        fallback = minimal(frame, pt, counter)
        return dataclasses.replace(fallback, compressed=tuple(compressed))
    return Narrative(
        text, tokens, tuple(compressed), False, memory, turn, _turn_parts(frame, pt, now)
    )
