"""Words around a request that ask nothing (issue 44): laughter ("kkk", "haha", "lol"),
politeness at a clause's edge ("pfv", "por favor", "please"), and whole clauses of
interjections and apologies ("opa, me confundi, ...", "wait no, ...").

`quiet` blanks them with spaces, one character for one, so a reader sees the request
alone and the spans it cuts still index the message as written. Nothing else is touched:
a clause with any other word stays whole, and a message of chatter only stays as it is.
"""

from __future__ import annotations

import re
from typing import Final

from agent.understanding.references import fold_same_length

# laughter is never part of a title: blanked wherever it stands
_LAUGHTER: Final = re.compile(
    r"(?<![\w/])(?:k{2,}|(?:ha){2,}h?|(?:he){2,}|(?:hi){2,}|(?:rs){2,}|lol+|lmao|lmfao|rofl)"
    r"(?![\w/])"
)
# politeness and asides only at the edge of a clause ("Please Stand By" is a film)
_POLITE: Final = (
    r"(?:pfv+r?|pf|pls|plz|please|por favor|porfa|obg|obrigad[oa]|vlw|valeu|thanks|thx|sim|ne|"
    r"hein|actually|na verdade|tbh|honestly)"
)
_POLITE_EDGE: Final = re.compile(
    rf"(?:^|(?<=[,;:.!?]))(?P<a>\s*{_POLITE})(?=\s|[,;:.!?]|$)|(?<=\s)(?P<b>{_POLITE}\s*)(?=[,;:.!?]|$)"
)
# what a clause made only of these says: an interjection, a correction, an apology
_CHATTER_WORDS: Final = (
    r"opa|ops|oops|epa|ih|ah+|oh+|eita|nossa|pera|peraí|perai|espera|wait|hmm+|hm|uh|"
    r"nao|no|nope|na verdade|actually|alias|sorry|desculpa|desculpe|foi mal|my bad|"
    r"(?:eu\s+)?(?:me\s+)?(?:confundi|enganei|equivoquei)(?:\s+(?:tudo|aqui))?|errei|"
    r"(?:foi\s+)?engano(?:\s+meu)?|(?:falei|escrevi|marquei|cliquei|apertei)\s+errado|sem querer|"
    r"i was wrong|(?:i\s+)?(?:mixed (?:it|them) up|messed up|misspoke|clicked wrong)|"
    r"by mistake|my mistake|correction|correcao|scratch that|ignore that|ignora(?:\s+isso)?|"
    r"ok|okay|blz|beleza|enfim|well|anyway|so|entao"
)
_CHATTER_CLAUSE: Final = re.compile(rf"^\s*(?:(?:{_CHATTER_WORDS})\s*)+$")
_CLAUSE: Final = re.compile(r"[^,;:.!?]+")


def quiet(text: str) -> str:
    """`text` with its laughter, edge politeness and chatter clauses blanked (same length)."""
    folded = fold_same_length(text)
    keep = list(text)

    def blank(start: int, end: int) -> None:
        for i in range(start, end):
            if not keep[i].isspace():
                keep[i] = " "

    for m in _LAUGHTER.finditer(folded):
        blank(m.start(), m.end())
    for m in _POLITE_EDGE.finditer(fold_same_length("".join(keep))):  # "duna sim kkkk"
        group = "a" if m.group("a") is not None else "b"
        blank(m.start(group), m.end(group))
    blanked = "".join(keep)
    clauses = [m for m in _CLAUSE.finditer(fold_same_length(blanked)) if m.group().strip()]
    chatter = [m for m in clauses if _CHATTER_CLAUSE.match(m.group())]
    if len(chatter) < len(clauses):  # something besides chatter is said
        for m in chatter:
            start = m.start()
            end = m.end()
            if end < len(keep) and keep[end] in ",;:.!":
                end += 1  # "opa, ": the clause's own mark goes with it
            blank(start, end)
    if not "".join(keep).strip():
        return text
    return "".join(keep)
