"""Words of a folded message as tokens, and phrase tables matched over them.

A message is folded (lowercase, no accents, one character for one) and cut into
tokens: runs of letters, runs of digits, and single other characters. Each token
keeps its character span, so what the grammar consumes maps back to the original
text, and whether a space stood before it ("3pm" against "3 pm", "10:30").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

_TOKEN = re.compile(r"[^\W\d_]+|\d+|\S")
HYPHENS = frozenset({"-", "\u2010", "\u2011", "\u2013"})


@dataclass(frozen=True, slots=True)
class Tok:
    text: str
    start: int
    end: int
    spaced: bool  # whitespace (or the start of the text) right before it

    @property
    def digits(self) -> bool:
        return self.text.isdigit()


def fold_same_length(text: str) -> str:
    """Lowercase without accents, one character for one, so spans map back to `text`."""
    out = []
    for ch in text:
        low = ch.lower()
        low = low if len(low) == 1 else ch
        base = unicodedata.normalize("NFKD", low)
        folded = base[0] if base else ch
        # a digit int() cannot read ("❶") is no number: every reader takes isdigit() as one
        out.append("#" if folded.isdigit() and not folded.isascii() else folded)
    return "".join(out).replace("\u2019", "'")


def tokenize(folded: str) -> tuple[Tok, ...]:
    """The tokens of a folded text."""
    toks = []
    previous_end = 0
    for m in _TOKEN.finditer(folded):
        toks.append(Tok(m.group(), m.start(), m.end(), m.start() > previous_end or m.start() == 0))
        previous_end = m.end()
    return tuple(toks)


def text_at(toks: tuple[Tok, ...], i: int) -> str:
    """The token text at `i`, or "" past the end."""
    return toks[i].text if 0 <= i < len(toks) else ""


def glued(toks: tuple[Tok, ...], i: int) -> bool:
    """Whether token `i` touches the one before it ("3pm", "10:30")."""
    return 0 < i < len(toks) and not toks[i].spaced


def skip(toks: tuple[Tok, ...], i: int, words: frozenset[str]) -> int:
    """The first index from `i` whose token is not one of `words`."""
    while i < len(toks) and toks[i].text in words:
        i += 1
    return i


def phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(t.text for t in tokenize(fold_same_length(phrase)) if t.text not in HYPHENS)


# how chat spells a phrase's words ("quarta q vem", "dps de amanhã"): each matches too
CHAT_FORMS: dict[str, tuple[str, ...]] = {
    "que": ("q",),
    "depois": ("dps", "dpois"),
    "amanha": ("amn", "amnh", "amnha", "amanhan"),
    "tomorrow": ("tmrw", "tmr", "tmw", "2moro", "2morrow", "2morow", "2mrw", "tomorow", "tomoro",
                 "tommorow", "tommorrow"),
}  # fmt: skip


def _chat_forms(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    forms: list[tuple[str, ...]] = [()]
    for word in words:
        spelled = [(word,), *(phrase_words(w) for w in CHAT_FORMS.get(word, ()))]
        forms = [(*f, *w) for f in forms for w in spelled]
    return forms


class Phrases(Generic[T]):
    """Fixed phrases ("depois de amanha", "o'clock") to values, longest match first.

    A hyphen in the message between two words of a phrase is skipped, so "meio-dia"
    matches "meio dia" and "segunda-feira" matches "segunda feira"; chat spellings of
    its words (`CHAT_FORMS`: "q vem", "dps") match as well.
    """

    def __init__(self, table: Mapping[str, T] | Iterable[tuple[str, T]]) -> None:
        items = table.items() if isinstance(table, Mapping) else table
        self._table: dict[tuple[str, ...], T] = {}
        for phrase, value in items:
            words = phrase_words(phrase)
            if not words:
                raise ValueError(f"phrase {phrase!r} has no words")
            for form in _chat_forms(words):
                self._table.setdefault(form, value)
        self._longest = max((len(k) for k in self._table), default=0)
        self._firsts = frozenset(k[0] for k in self._table)

    def forms(self) -> list[tuple[str, T]]:
        """Every phrase it matches (chat spellings too), its words joined by one space."""
        return [(" ".join(words), value) for words, value in self._table.items()]

    def match(self, toks: tuple[Tok, ...], i: int) -> tuple[T, int] | None:
        """The value of the longest phrase starting at token `i`, and the index after it."""
        if i >= len(toks) or toks[i].text not in self._firsts:
            return None
        words: list[str] = []
        ends: list[int] = []
        j = i
        while j < len(toks) and len(words) < self._longest:
            if toks[j].text in HYPHENS and words:
                j += 1
                continue
            words.append(toks[j].text)
            j += 1
            ends.append(j)
        for size in range(len(words), 0, -1):
            value = self._table.get(tuple(words[:size]))
            if value is not None:
                return value, ends[size - 1]
        return None

    def __contains__(self, word: object) -> bool:
        return (word,) in self._table
