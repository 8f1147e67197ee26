"""Text clean-up shared by tools and replies: what we store and what we compare."""

from __future__ import annotations

import re
import unicodedata

from agent.understanding.datafence import fence

# C0/C1 controls except tab and newline, the bidirectional controls that can make a
# stored title display differently from what it is (U+202E and friends), and invisible
# separators (zero-width space, word joiner, byte order mark). The zero-width joiners
# stay: emoji sequences and some scripts need them.
_CONTROLS = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ufeff]"
)
_SPACES = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^\w\s]", re.UNICODE)


def clean_text(text: str) -> str:
    """Remove control and bidi-control characters; trim; keep line breaks."""
    cleaned = _CONTROLS.sub("", unicodedata.normalize("NFC", text))
    lines = [_SPACES.sub(" ", line).strip() for line in cleaned.split("\n")]
    result = "\n".join(line for line in lines).strip()
    if all(unicodedata.category(c) == "Cf" for c in result if not c.isspace()):
        return ""  # nothing visible is left (a lone joiner, say)
    return result


def one_line(text: str, limit: int = 80) -> str:
    """A single-line, length-capped form for labels and previews."""
    flat = _SPACES.sub(" ", clean_text(text))
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def fold(text: str) -> str:
    """Case-, accent- and punctuation-insensitive form for comparisons and dedup keys."""
    decomposed = unicodedata.normalize("NFKD", clean_text(text).casefold())
    no_marks = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", _NON_WORD.sub(" ", no_marks)).strip()


def data_block(text: str) -> str:
    """`text` as a <data>...</data> block whose delimiters cannot be forged from inside."""
    return fence(text)


# Chat shorthand people type (PT/EN), as the words it stands for. Only unambiguous
# ones: "q" is "que" in "o q eu salvei", but "n" and "ta" are left alone.
CHAT_WORDS: dict[str, str] = {
    "oq": "o que",
    "oqe": "o que",
    "oque": "o que",
    "q": "que",
    "hj": "hoje",
    "hje": "hoje",
    "amnh": "amanha",
    "vc": "voce",
    "vcs": "voces",
    "ce": "voce",
    "tb": "tambem",
    "tbm": "tambem",
    "tmb": "tambem",
    "qnts": "quantos",
    "qnt": "quantos",
    "qts": "quantos",
    "qtos": "quantos",
    "qntos": "quantos",
    "qtas": "quantas",
    "qntas": "quantas",
    "qdo": "quando",
    "qnd": "quando",
    "pq": "porque",
    "td": "tudo",
    "tds": "todos",
    "msm": "mesmo",
    "mt": "muito",
    "mto": "muito",
    "smn": "semana",
    "dps": "depois",
    "agr": "agora",
    "cd": "cade",
    "kd": "cade",
    "pfv": "por favor",
    "pf": "por favor",
    "pls": "please",
    "plz": "please",
    "u": "you",
    "ur": "your",
    "r": "are",
    "thx": "thanks",
    "ty": "thanks",
    "wk": "week",
    "2day": "today",
    "tmrw": "tomorrow",
    "tmr": "tomorrow",
}


def expand_chat(folded: str) -> str:
    """`folded` text (see `fold`) with chat shorthand spelled out: "oq eu salvei hj" -> "o que
    eu salvei hoje". For readers matching words, never for what is stored."""
    return " ".join(CHAT_WORDS.get(word, word) for word in folded.split())
