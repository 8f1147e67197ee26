"""Plain searches read in code: "procura dentista", "did I save anything about Turing?".

A message that is only a search for a few words is answered by `search_items` without a
model, with or without one configured (the program is in control: a trivial request
never reaches a model). Two shapes are taken:

- a search verb, then what to find: "procura X", "look for X", "search my stuff for X",
  "busca X nos meus itens", "find my notes about X" (the type noun sets the type);
- a yes-or-no question about having saved something on a subject: "did I save
  anything about X?", "eu salvei algum link da X?", "tenho alguma nota sobre X?".

Anything else (counts, dates, "the movie I saved yesterday", "movies with Tom Hanks")
stays with the planner: the subject must be one to five words, none of them a question
word, a time or a verb of saving.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.understanding.smalltalk import QUESTION_WORDS
from agent.understanding.textnorm import clean_text, expand_chat, fold
from agent.understanding.vocabulary import TYPE_WORDS
from storage.documents import ItemType

_FLAGS = re.IGNORECASE | re.UNICODE
_POLITE = r"(?:(?:por\s+favor|pfv|pls|please|hey|oi|hi)[,!\s]+)?"
_VERB = (
    r"(?:procur[ae](?:r)?|busc[ae](?:r)?|pesquis[ae](?:r)?|ach[ae](?:r)?|encontr[ae](?:r)?|"
    r"find|search(?:\s+for)?|look\s+(?:for|up))"
)
# "nos meus itens", "in my stuff", "my saved things for": where to look, not what
_MINE = (
    r"(?:(?:n[oa]s?|em|entre|in|through|among)\s+)?"
    r"(?:(?:meus|minhas|my)\s+)(?:coisas|itens|salvos|saved\s+(?:things|items|stuff)|stuff|things|items|saves|lista|list)"
    r"(?:\s+(?:for|por))?"
)
_ASKED = (
    r"(?:(?:eu\s+)?(?:j[aá]\s+)?(?:salvei|guardei|anotei|tenho)|did\s+i\s+(?:save|keep|note)|"
    r"have\s+i\s+(?:saved|kept|noted)|do\s+i\s+have)"
)
_ANY = r"(?:anything|something|any|a|an|algum|alguma|algo|um|uma)"
_ABOUT = r"(?:about|on|regarding|sobre|d[aoe]s?|com)"
_TYPE = r"(?:notas?|notes?|filmes?|movies?|films?|s[ée]ries?|shows?|v[íi]deos?|links?)"
_ARTICLE = r"(?:(?:o|a|os|as|um|uma|the|my|meu|minha|meus|minhas)\s+)?"

_BY_VERB = re.compile(
    rf"^{_POLITE}{_VERB}\s+(?:{_MINE}\s+)?(?:{_ARTICLE}(?P<type>{_TYPE})\s+(?:{_ABOUT}\s+)?)?"
    rf"(?P<what>.+?)(?:\s+{_MINE})?$",
    _FLAGS,
)
_BY_QUESTION = re.compile(
    rf"^{_POLITE}{_ASKED}\s+{_ANY}\s+(?:(?P<type>{_TYPE})\s+)?{_ABOUT}\s+(?P<what>.+?)"
    rf"(?:\s+(?:saved|salvo|salva|salvos|salvas))?$",
    _FLAGS,
)
# a subject with one of these is a question for the planner, not a plain search
_NOT_A_SUBJECT = frozenset(
    fold(word)
    for word in """que quando onde quantos quantas qual quais como porque por quem ontem hoje
    semana mes ano salvei salvou guardei anotei salvo tenho that which when where how what who
    why whose yesterday today week month year saved save kept have with and or e ou nao not no
    tudo everything all it isso isto ele ela eles elas aquilo this these those them""".split()
)
_MAX_WORDS = 5
_LEADING_ARTICLE = re.compile(
    r"^(?:(?:o|a|os|as|um|uma|the|an|my|meu|minha|meus|minhas)\s+)+", _FLAGS
)


@dataclass(frozen=True, slots=True)
class PlainSearch:
    query: str
    type: ItemType | None = None


def plain_search(text: str) -> PlainSearch | None:
    """The search `text` asks for, when it is only that; None for anything else."""
    message = clean_text(text).strip(" \t.!?;:,")
    if not message or "\n" in message or len(message) > 120:
        return None
    for pattern in (_BY_VERB, _BY_QUESTION):
        match = pattern.match(message)
        if match is None:
            continue
        what = match.group("what").strip(" \t.!?;:,\"'«»")
        what = _LEADING_ARTICLE.sub("", what + " ").strip()
        words = fold(what).split()
        if not words or len(words) > _MAX_WORDS or not _NOT_A_SUBJECT.isdisjoint(words):
            return None
        noun = match.group("type")
        if noun is None and len(words) == 1 and words[0] in TYPE_WORDS:
            return PlainSearch("", TYPE_WORDS[words[0]])  # "procura filmes": every movie
        return PlainSearch(what, TYPE_WORDS.get(fold(noun)) if noun else None)
    return None


# Words of a question about saved things that name nothing saved (issue 41): "tenho algum
# filme do X salvo aí?" searches for X, never for "X salvo aí"; "cadê aquele vídeo do
# youtube q eu mandei?" for "youtube". Verbs of having, saving or sending, pronouns, question
# words and fillers; a type noun too, when other words are left (the type is not the subject).
_QUESTION_FILLERS = (
    frozenset(
        fold(word)
        for word in """salvo salva salvos salvas salvei salvou guardado guardada guardados
    guardadas guardei anotado anotada anotei tenho tem temos voce vc eu meu minha meus minhas
    algum alguma alguns algumas algo coisa coisas ai aqui la cade aquele aquela aqueles
    aquelas onde qual quais que sobre lista mesmo hein ne saved kept noted have has did
    does i my any some anything something thing things stuff there about list again
    please por favor pfv mandei mandou enviei enviou passei passou compartilhei coloquei
    botei adicionei ainda lembra lembro sabe sent shared posted added put got still u you
    your where wheres what whats which do remember know q oq ta esta is was are""".split()
    )
    | QUESTION_WORDS
)  # "quantos", "quando", "can", "did": the shared question words
# the hedges that soften a question ("any chance", "por acaso", "será que"): no subject either
_HEDGES = frozenset("chance acaso sera talvez maybe perhaps possibly wonder".split())
# words left at the ends of a subject once the fillers are out: "do youtube" is "youtube"
_EDGE_WORDS = frozenset(
    """o a os as um uma de do da dos das no na nos nas em sobre pra para com e the an of on
    in to for from with about that this esse essa isso and s""".split()
)


def search_subject(query: str) -> str:
    """`query` without the question's own words ("tenho", "salvo", "aí", "anything", "mandei",
    "where's"), as written; the query itself when nothing else is left (a title made of
    such words)."""
    kept = [word for word in query.split() if not _filler(word)]
    if any(not _typed(word) for word in kept):
        kept = [word for word in kept if not _typed(word)]
    while kept and fold(kept[0]) in _EDGE_WORDS:
        kept = kept[1:]
    while kept and fold(kept[-1]) in _EDGE_WORDS:
        kept = kept[:-1]
    subject = " ".join(kept).strip(" \t.,;:!?\"'«»")
    return subject if fold(subject) else query


def _filler(word: str) -> bool:
    parts = expand_chat(fold(word)).split()
    return bool(parts) and all(
        p in _QUESTION_FILLERS or p in _HEDGES or p in ("s", "o que") for p in parts
    )


def _typed(word: str) -> bool:
    return fold(word) in TYPE_WORDS
