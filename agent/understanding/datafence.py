"""Data blocks whose delimiters cannot be forged from inside (DESIGN 3.7).

A model reads `</data foo>`, `</da\u200dta>`, a fullwidth `＜/data＞` or a Cyrillic
`</datа>` as the end of the block just as it reads `</data>`. So a tag is looked
for in a skeleton of the text: each character folded to NFKC and case-folded,
invisible and combining characters dropped, look-alike letters mapped to the Latin
ones. Any `<` of the skeleton that starts a `data` tag (opening or closing, with or
without attributes) has its original character replaced by `‹`, which no fold
turns back into `<`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

OPEN, CLOSE = "<data>", "</data>"
NEUTRAL = "\u2039"  # ‹: what a forged tag's "<" becomes

# Look-alikes of the characters that spell a data tag, beyond what NFKC folds
# (Unicode confusables.txt, the entries for "<", "/", "d", "a" and "t").
_CONFUSABLES: dict[str, str] = {
    **dict.fromkeys("\u02c2\u1438\u2329\u3008\u27e8\u276e\u276c\u2039\u003c\U0001d7f7", "<"),
    **dict.fromkeys("\u2215\u2044\u29f8\u2571\u30ce\u4e3f\u2cc6\u31d3\u1735", "/"),
    **dict.fromkeys("\u0501\u13e7\u146f\ua4d2\u217e\u0257\u0256\u1d6d\u0111", "d"),
    **dict.fromkeys("\u0430\u0251\u03b1\u237a\u0250\u0252\u1d00\u00e0\u00e1\u00e4", "a"),
    **dict.fromkeys("\u0442\u03c4\u1d1b\u0163\u01ab\u0165\u0167\u01ad", "t"),
    # capitals fold to the small letters above, but their own look-alikes do not
    **dict.fromkeys("\u0410\u0391\u13aa\u15c5\ua4ee", "a"),
    **dict.fromkeys("\u0422\u03a4\u13a2\ua4d4\u22a4\u27d9", "t"),
    **dict.fromkeys("\u13a0\u15ea\ua4d3\u2145", "d"),
}
# Characters that render as nothing (or nearly) but sit between the letters of a tag.
_INVISIBLE_EXTRA = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u180b\u180c\u180d\u180e")
_TAG = re.compile(r"<[\s/]*data(?![a-z0-9])")


@lru_cache(maxsize=4096)
def _skeleton_of(ch: str) -> str:
    """What one character looks like: "" when invisible, else its folded Latin look-alike."""
    if ch == NEUTRAL:
        return NEUTRAL  # our own replacement must never fold back into "<"
    if ch in _CONFUSABLES:
        return _CONFUSABLES[ch]
    out = []
    for part in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", ch).casefold()):
        if part in _INVISIBLE_EXTRA or unicodedata.category(part) in ("Cf", "Mn", "Me", "Cc"):
            if part not in "\t\n\r":
                continue
        out.append(_CONFUSABLES.get(part, part))
    return "".join(out)


def _skeleton(text: str) -> tuple[str, list[int]]:
    """The text's skeleton and, for each skeleton character, its index in `text`."""
    chars: list[str] = []
    origin: list[int] = []
    for index, ch in enumerate(text):
        for folded in _skeleton_of(ch):
            chars.append(folded)
            origin.append(index)
    return "".join(chars), origin


def forged_tags(text: str) -> list[int]:
    """Indexes in `text` of the characters that open something read as a data tag."""
    skeleton, origin = _skeleton(text)
    return sorted({origin[m.start()] for m in _TAG.finditer(skeleton)})


def neutralize(text: str) -> str:
    """`text` with every forged data tag made inert; everything else is kept as it was."""
    starts = forged_tags(text)
    while starts:  # one pass suffices today; looping keeps it true for any future fold
        chars = list(text)
        for index in starts:
            chars[index] = NEUTRAL
        text = "".join(chars)
        starts = forged_tags(text)
    return text


def fence(text: str) -> str:
    """`text` inside one data block that nothing in it can close or reopen."""
    return OPEN + neutralize(text) + CLOSE
