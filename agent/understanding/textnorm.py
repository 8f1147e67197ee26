"""Text clean-up shared by tools and replies: what we store, what we compare, and model text
made fit to send (emojis and echoed data fences removed)."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

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
# Code points a JSON escape (`"\ud800"`) can put in a str and nothing can encode (UTF-8, BSON).
_SURROGATES = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"
_NON_WORD = re.compile(r"[^\w\s]", re.UNICODE)


def without_surrogates(text: str) -> str:
    """`text` with every lone surrogate replaced by U+FFFD (read once, where outside text enters)."""
    return _SURROGATES.sub(REPLACEMENT, text)


def clean_text(text: str) -> str:
    """Remove control and bidi-control characters and lone surrogates; trim; keep line breaks."""
    cleaned = _CONTROLS.sub("", unicodedata.normalize("NFC", without_surrogates(text)))
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


# Pictographs, dingbats, flags, skin tones, joiners and variation selectors.
_EMOJI: Final = re.compile(
    "[\U0001f000-\U0001faff\U00002600-\U000027bf\U00002b00-\U00002bff\U0001f1e6-\U0001f1ff"
    "\u200d\ufe0e\ufe0f\u20e3\u2300-\u23ff\u2190-\u21ff\u2b50\u2b55\u3030\u303d\u3297\u3299"
    "\U000e0020-\U000e007f]+"
)
_TABS: Final = re.compile(r"[ \t]{2,}")
# The fences the prompt puts around stored text ("<data>https://bbc.com</data>"), echoed back
_DATA_TAG: Final = re.compile(r"<\s*/?\s*data\b[^<>]{0,40}>", re.IGNORECASE)
_SPACE_BEFORE_MARK: Final = re.compile(r"[ \t]+([.,;:!?])")


def without_emojis(message: str) -> str:
    """The text with emojis removed (and the spaces they leave squeezed)."""
    stripped = _EMOJI.sub("", message)
    if stripped == message:
        return message
    lines = (_SPACE_BEFORE_MARK.sub(r"\1", _TABS.sub(" ", line)) for line in stripped.split("\n"))
    return "\n".join(line.strip() for line in lines).strip()


def without_data_tags(message: str) -> str:
    """The text without the data fences a model copied from its prompt."""
    return _DATA_TAG.sub("", message)


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
    "vdd": "verdade",
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
    "vid": "video",
    "vids": "videos",
    "vidz": "videos",
}


def expand_chat(folded: str) -> str:
    """`folded` text (see `fold`) with chat shorthand spelled out: "oq eu salvei hj" -> "o que
    eu salvei hoje". For readers matching words, never for what is stored."""
    return " ".join(CHAT_WORDS.get(word, word) for word in folded.split())
