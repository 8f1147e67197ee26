"""Model text in the turn's reply language (DESIGN 10.2).

A model answer is counted word by word with the same PT/EN vocabularies the message
language detector uses (agent/understanding/language.py). Titles (stored items, results
shown this turn), quotations, links and runs of the user's own words are left out
first: "Você tem The Office na sua lista" is Portuguese, and so is a quotation of an
English user's words. What is left is foreign only when it clearly is: at least two
words of the other language and more than twice the words of the reply language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from agent.types import Language
from agent.understanding.language import EN_WORDS, PT_WORDS
from agent.understanding.textnorm import fold

WRONG_LANGUAGE: Final = (
    "your message is in {found}, but the user's language is {wanted}: write the whole message "
    "in {wanted} (titles and the user's quoted words may stay as they are)"
)
_NAMES: Final[dict[str, str]] = {"pt": "Portuguese", "en": "English"}
_QUOTED: Final = re.compile(
    r"«[^«»]{0,300}»|“[^“”]{0,300}”|\"[^\"]{0,300}\"|<data>.*?</data>", re.S
)
_URL: Final = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_TOKEN: Final = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)
_PT_LETTERS: Final = re.compile(r"[ãõçáéíóúâêôà]", re.IGNORECASE)
MIN_FOREIGN: Final = 2
# short English words Portuguese texts borrow, and the other way round
_BORROWED: Final = frozenset(
    {"ok", "okay", "show", "link", "links", "online", "app", "email", "top"}
)


def _words(text: str) -> list[tuple[str, str]]:
    """(folded, raw) words outside quotations and links."""
    plain = _URL.sub(" ", _QUOTED.sub(" ", text))
    return [(fold(raw), raw) for raw in _TOKEN.findall(plain) if fold(raw)]


def _unmasked(
    words: list[tuple[str, str]], phrases: Sequence[tuple[str, ...]]
) -> list[tuple[str, str]]:
    """The words not covered by any exempt phrase (titles, the user's words)."""
    covered = [False] * len(words)
    folded = [f for f, _ in words]
    for phrase in phrases:
        n = len(phrase)
        if not n:
            continue
        for start in range(len(folded) - n + 1):
            if tuple(folded[start : start + n]) == phrase:
                for k in range(start, start + n):
                    covered[k] = True
    return [w for w, hidden in zip(words, covered, strict=True) if not hidden]


def votes(words: Iterable[tuple[str, str]]) -> dict[Language, int]:
    """Words that only Portuguese or only English uses (and accented Portuguese letters)."""
    count: dict[Language, int] = {"pt": 0, "en": 0}
    for folded, raw in words:
        for part in folded.split():
            if part in _BORROWED:
                continue
            if part in PT_WORDS:
                count["pt"] += 1
            if part in EN_WORDS:
                count["en"] += 1
        if _PT_LETTERS.search(raw):
            count["pt"] += 1
    return count


def _runs(text: str, size: int = 2) -> list[tuple[str, ...]]:
    """Every run of `size` or more consecutive words of the user's message (its own words)."""
    words = fold(text).split()
    return [tuple(words[i : i + size]) for i in range(len(words) - size + 1)]


def foreign_language(
    text: str,
    language: Language,
    *,
    titles: Iterable[str] = (),
    user_text: str = "",
) -> Language | None:
    """The other language when `text` is clearly written in it, else None."""
    phrases = sorted(
        {tuple(fold(t).split()) for t in titles if fold(t)} | set(_runs(user_text)),
        key=len,
        reverse=True,
    )
    count = votes(_unmasked(_words(text), phrases))
    other: Language = "en" if language == "pt" else "pt"
    if count[other] >= MIN_FOREIGN and count[other] > 2 * count[language]:
        return other
    return None


def language_problem(
    text: str, language: Language, *, titles: Iterable[str] = (), user_text: str = ""
) -> str | None:
    """The re-ask for model text not in the reply language, or None."""
    found = foreign_language(text, language, titles=titles, user_text=user_text)
    if found is None:
        return None
    return WRONG_LANGUAGE.format(found=_NAMES[found], wanted=_NAMES[language])
