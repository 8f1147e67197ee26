"""Questions about what was saved in a period ("o que eu salvei essa semana?", "what did I
save this month?"), read in code: the period and the type asked for, or None.

The period phrase is cut out and what is left must be a clear question about saved things
by the rules of agent/understanding/smalltalk.py, so "salva o filme da semana" (a save)
and "qual filme do Nolan eu salvei esse mês?" (a search) are not taken for one.
"""

from __future__ import annotations

from typing import Final, Literal

from agent.understanding.smalltalk import QUESTION_WORDS, ItemType, saved_question_type, words_of

AskedPeriod = Literal["week", "month"]
THIS: Final = {
    "week": frozenset("essa esta nessa nesta this".split()),
    "month": frozenset("esse este nesse neste this".split()),
}
UNITS: Final[dict[str, AskedPeriod]] = {
    "semana": "week",
    "week": "week",
    "mes": "month",
    "month": "month",
}
# "what did I save?": the bare verb after "did" asks about what was saved
PAST: Final = {"save": "saved", "keep": "kept", "store": "stored", "add": "added"}


def asked_period(text: str) -> tuple[AskedPeriod, ItemType | Literal["all"]] | None:
    """The period and the type (or "all") a question about saved things asks for."""
    words = words_of(text)
    for n in range(1, len(words)):
        period = UNITS.get(words[n])
        if period is None or words[n - 1] not in THIS[period]:
            continue
        rest = [PAST.get(w, w) for w in words[: n - 1] + words[n + 1 :]]
        # "o que eu salvei essa semana" asks even without its "?": a question word says so
        question = "?" in text or not QUESTION_WORDS.isdisjoint(rest)
        asked = saved_question_type(" ".join(rest) + (" ?" if question else ""))
        return (period, asked) if asked is not None else None
    return None
