"""Politeness and chatter around a request, cut before the request is read (issue 41).

"salva Coringa e Her pfv", "add Heat and Ronin thx", "oi, anota: pagar a luz", "what did I
save last week again?": the words around the request ("pfv", "valeu", "thx", "obg", "kkk",
"oi", "hey", "again") say nothing about what to do or to what. They are closed classes
(greetings, thanks, please, laughter, "again"), cut only at the edges of a message, never
inside it, and a message made only of them is left whole (a "valeu" alone is small talk,
read as such). What the user wrote is stored as written; only the readers get the cut text.
"""

from __future__ import annotations

import re
from typing import Final

_F: Final = re.IGNORECASE | re.UNICODE
# an emoji or a run of them (pictographs, dingbats, flags, joiners, variation selectors)
_EMOJI: Final = (
    "[\U0001f000-\U0001faff\U00002600-\U000027bf\U00002b00-\U00002bff\U0001f1e6-\U0001f1ff"
    "\u200d\ufe0e\ufe0f\u20e3]"
)
_THANKS: Final = (
    r"valeu|vlw|vlws|obg|obgd|obgda|obrigad[oa]|brigad[oa]|agrade[cç]o|"
    r"thanks|thank\s+you|thx|tks|tnx|cheers|much\s+appreciated"
)
_PLEASE: Final = r"por\s+favor|pfv|pfvr|plis|pls|plz|please|se\s+puder|if\s+you\s+can"
_LAUGH: Final = r"k{3,}|(?:ha){2,}h?|(?:he){2,}|(?:rs)+|lol|lmao|:\)|:D|;\)"
# "what did I save again?", "qual era mesmo de novo?": asking a second time changes nothing
_AGAIN: Final = r"again|de\s+novo|novamente|outra\s+vez"
_GREETING: Final = (
    r"oi+|ol[áa]|ei|hey+|hi|hello|bom\s+dia|boa\s+tarde|boa\s+noite|"
    r"good\s+morning|good\s+afternoon|good\s+evening|"
    # interjections no reader reads: "hmm desfaz", "ugh undo that"
    r"h+m+|uh+|ugh+|aff+|putz|eita|poxa|xi+"
)
_SEP: Final = r"[\s,.;:!?~-]"
_TAIL: Final = re.compile(
    rf"(?:(?:{_SEP}|{_EMOJI})+(?:(?:{_THANKS}|{_PLEASE}|{_LAUGH}|{_AGAIN})(?=\W|$)|{_EMOJI}+))+"
    rf"(?:{_SEP}|{_EMOJI})*$",
    _F,
)
_HEAD: Final = re.compile(
    rf"^\s*(?:(?:{_GREETING}|{_PLEASE})(?:{_SEP})+)+(?=\S)",
    _F,
)


def without_chatter(text: str) -> str:
    """`text` without greetings and "please" in front, thanks, "please", laughter, "again"
    and emojis behind; `text` itself when nothing is cut or nothing would be left."""
    if not text or "\n" in text.strip() or text.lstrip().startswith("/"):
        return text  # a list a line (its last line is an item) and commands stay as sent
    cut = _HEAD.sub("", text)
    tail = _TAIL.search(" " + cut)
    if tail is not None:
        cut = (" " + cut)[: tail.start()]
    question = "?" if text.rstrip().endswith("?") and not cut.rstrip().endswith("?") else ""
    cut = cut.strip() + question
    return cut if re.search(r"\w", cut) else text
