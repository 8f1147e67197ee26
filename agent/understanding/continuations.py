"""Messages that continue the last action, read in code (issue 41): "e a série X tb", "and Dune
too", "e o outro também", "the other one too", "and the next", "and this week?".

A continuation opens with "e" / "and" / "também" / "also" or closes with "também" / "tb" /
"too" / "also" / "as well", is short, and has no verb of its own (a message with one is
a request of its own, read as such). What is left (`rest`, as the user wrote it) says
only what is new: a title, an item ("o outro", "a do leite"), a period ("essa semana"),
a type ("e os filmes?"). The caller carries the last action (agent/conversation/shelf.py
keeps it) and decides what the rest means for it; anything it is not sure of is planned
with the last action as the hint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from agent.understanding.facts import read_fact
from agent.understanding.questions import WINDOWS, Window
from agent.understanding.textnorm import expand_chat, fold
from agent.understanding.vocabulary import ItemType

MAX_WORDS: Final = 8
_F: Final = re.IGNORECASE | re.UNICODE
_LEAD: Final = re.compile(
    r"^\s*(?:(?:e|and|&|mais|plus|tamb[ée]m|tb|tbm|also|ah|oh|ok|ent[ãa]o|so|what\s+about|"
    r"how\s+about|quanto\s+(?:a|ao|à))[,.!\s]+)+",
    _F,
)
_TAIL: Final = re.compile(
    r"(?:[,\s]+(?:tamb[ée]m|tb|tbm|too|also|as\s+well))+(?:[,\s]+(?:por\s+favor|pfvr?|please|pls|plz|n[eé]|viu|blz|ok|hein|valeu|vlw|obg|"
    r"thanks|thx|tks))*"
    r"\s*[.!?]*\s*$",
    _F,
)
# the question asked again after what a continuation names: "e link, qual foi?", "and the
# movies, which ones?"
_WHICH_AFTER: Final = re.compile(
    r"\s*,\s*(?:qual|quais|which|what)(?:\s+(?:foi|foram|era|eram|e|é|sao|são|one|ones|was|"
    r"were|are|is|it|they|mesmo|then|entao|então))*\s*[.!?]*\s*$",
    _F,
)
# a verb of its own makes the message a request of its own, not a continuation
_OWN_VERBS: Final = frozenset(
    """salva salvar salve guarda guardar guarde anota anotar anote adiciona add save keep
    store put apaga apagar apague deleta delete remove remova exclui procura busca find
    search lista list mostra show muda change troca edit corrige fix lembra remind me
    desfaz undo marca mark acrescenta acrescente inclui inclua tira tire risca risque poe
    bota coloca include append
    ver vejo vou vamos assistir assisto quero queria watch watching see going want""".split()
)
_TYPES: Final[dict[str, ItemType]] = {
    **dict.fromkeys("filme filmes movie movies film films".split(), "movie"),
    **dict.fromkeys("serie series seriado seriados show shows".split(), "tv_show"),
    **dict.fromkeys("nota notas note notes anotacao anotacoes".split(), "note"),
    **dict.fromkeys("video videos".split(), "video"),
    **dict.fromkeys("link links site sites".split(), "link"),
}
_TYPED_TITLE: Final = re.compile(
    r"^(?:(?:o|a|os|as|um|uma|the|an?)\s+)?(?P<noun>filmes?|movies?|films?|s[ée]ries?|seriados?|"
    r"tv\s+shows?|shows?|notas?|notes?|v[íi]deos?|links?)\b\s*[:,-]?\s*(?P<title>.*)$",
    _F | re.DOTALL,
)
# the type said after the title: "and breaking bad, the series", "e dark (a série)"
_TYPE_AFTER: Final = re.compile(
    r"^(?P<title>.*?[^\s,(-])\s*(?:,|-|\()\s*(?:(?:o|a|the|an?)\s+)?(?P<noun>filme|movie|film|"
    r"s[ée]ries?|seriado|tv\s+show|show)\s*\)?$",
    _F,
)
# why it is saved, after the "too": "e o filme X tb, pra ver com as crianças", "and Y too, for
# the weekend": no part of the title, no verb of the message's own
_WHY_AFTER: Final = re.compile(
    r"(?:[,\s]+(?:tamb[ée]m|tb|tbm|too|also))\s*(?P<why>,\s*(?:pra|para|pro|to|for)\s+"
    r"[^,.;!?]{1,60}[.!]*)\s*$",
    _F,
)
# the year said after the "too": "e o filme X tb, 2009", "and Y too, from 1997"
_YEAR_AFTER_TAIL: Final = re.compile(
    r"(?:[,\s]+(?:tamb[ée]m|tb|tbm|too|also|as\s+well))+\s*,?\s*(?:(?:de|from|of)\s+)?"
    r"(?P<year>(?:18|19|20)\d\d)\s*[.!]*\s*$",
    _F,
)
# a typed rest whose title opens with a verb "to be" is a statement ("o filme é ótimo")
_COPULA: Final = re.compile(r"^(?:e|eh|era|foi|is|was|s|are|ta|esta)\b")
# "o outro", "the other one", "o outro boleto", "a outra nota do dentista": the words after it
# narrow which
_OTHER: Final = re.compile(
    r"^(?:(?:o|a|the)\s+)?(?:outro|outra|other)(?:\s+(?:one|item))?(?:\s+[^\W\d]\w*){0,3}$"
)
_NEXT: Final = re.compile(
    r"^(?:(?:o|a|the)\s+)?(?:proximo|proxima|seguinte|next|next\s+one|following)"
    r"(?:\s+(?:one|item))?$"
)


@dataclass(frozen=True, slots=True)
class Continuation:
    rest: str  # what is new, as written ("a série Severance", "o outro", "this week")
    folded: str  # `rest` folded, chat shorthand spelled out
    type: ItemType | None = None  # a type the rest names ("a série X", "os filmes")
    title: str = ""  # the rest without its type noun: a title to save, if it is one
    other: bool = False  # "o outro", "the other one"
    next: bool = False  # "o próximo", "the next one"
    period: Window | None = None  # "essa semana", "this week"


def continued_clause(text: str) -> str | None:
    """What follows a continuation's opening word ("e sexta às 19h de X" -> "sexta às 19h de
    X"), whatever its length; None when `text` opens with none. The caller reads it as the
    last action would ("me lembra" + it, after a reminder)."""
    raw = text.strip()
    lead = _LEAD.match(raw) if raw and len(raw) <= 500 and "\n" not in raw else None
    if lead is None:
        return None
    rest = raw[lead.end() :].strip()
    return rest or None


def read_continuation(text: str) -> Continuation | None:
    """The continuation `text` is, or None when it is a message of its own."""
    raw = text.strip()
    if not raw or len(raw) > 200 or raw.startswith("/") or "\n" in raw:
        return None
    lead = _LEAD.match(raw)
    rest = raw[lead.end() :] if lead else raw
    if (why := _WHY_AFTER.search(rest)) is not None:
        rest = rest[: why.start("why")]
    dated_tail = _YEAR_AFTER_TAIL.search(rest)
    if dated_tail is not None:  # "and the film X too, 1997": the year is the title's
        rest = f"{rest[: dated_tail.start()]}, {dated_tail.group('year')}"
    tail = _TAIL.search(rest)
    if lead is None and tail is None and dated_tail is None:
        return None
    if read_fact(raw) is not None:
        return None  # "e o ano é 1982", "and the director is X": a fact about the last item
    rest = (rest[: tail.start()] if tail else rest).strip(" \t,.!?;:")
    if (asked := _WHICH_AFTER.search(rest)) is not None and asked.start() > 0:
        rest = rest[: asked.start()]  # "e link, qual foi?": the same question, of links
    folded = expand_chat(fold(rest))
    words = folded.split()
    typed = _TYPED_TITLE.match(rest)
    # "the show X": a type noun after its article is no verb ("show", "list")
    verbs = words[2:] if typed and len(words) > 1 and words[0] in ("the", "a", "an") else words
    after = None if typed else _TYPE_AFTER.match(rest.strip(" \t,.!?;:\"'«»"))
    if after is not None:  # "and fargo, the show": the type noun after it is no verb either
        verbs = expand_chat(fold(after.group("title"))).split()
    if not words or len(words) > MAX_WORDS or not _OWN_VERBS.isdisjoint(verbs):
        return None
    item_type = _TYPES.get(fold(typed.group("noun")).split()[-1]) if typed else None
    title = (typed.group("title") if typed else rest).strip(" \t,.!?;:\"'«»")
    if after is not None:
        item_type = _TYPES.get(fold(after.group("noun")).split()[-1])
        title = after.group("title")
    if typed and _COPULA.match(fold(title)):
        return None  # "e o filme é ótimo" says something of the film, it names none
    return Continuation(
        rest=rest,
        folded=folded,
        type=item_type,
        title=title,
        other=bool(_OTHER.match(folded)),
        next=bool(_NEXT.match(folded)),
        period=WINDOWS.get(folded.removeprefix("e ").removeprefix("and ")),
    )


# "Nosferatu, the 2024 one", "Nosferatu de 2024", "Nosferatu (2024)", "Duna, o de 2021": the
# title and the year that picks which one
_DATED: Final = re.compile(
    r"^(?P<title>.*?[^\s,(])\s*(?:,\s*(?:the|o|a)\s+(?P<y1>(?:18|19|20)\d\d)(?:\s+(?:one|version|versao))?"
    r"|,?\s+(?:the\s+one\s+|o\s+|a\s+)?(?:de|from|of)\s+(?P<y2>(?:18|19|20)\d\d)(?:\s+(?:one|version))?"
    r"|\s*\((?P<y3>(?:18|19|20)\d\d)\)|\s*,\s*(?P<y4>(?:18|19|20)\d\d))\s*[.!]*$",
    _F,
)


def title_and_year(title: str) -> tuple[str, int | None]:
    """`title` without the year phrase that ends it, and that year (None when there is none)."""
    dated = _DATED.match(title.strip())
    if dated is None:
        return title, None
    year = dated.group("y1") or dated.group("y2") or dated.group("y3") or dated.group("y4")
    return dated.group("title").strip(), int(year)
