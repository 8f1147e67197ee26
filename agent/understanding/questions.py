"""Questions about saved things, read in code (issue 26): answered from storage, never looked up.

- find: "qual era aquele link da bbc?", "which link did I save about python?", "o que eu
  salvei sobre X?", "I saved something about technology, what was it?", "qual filme do
  Nolan eu salvei?", and the plain searches of agent/understanding/searches.py;
- exists: "eu salvei inception?", "já salvei o filme X?", "did I save Dune?", "do I have
  Dark saved?";
- count: "quantos vídeos eu tenho?", "how many movies did I save?", "quantas notas sobre
  trabalho eu tenho?";
- when: "o que eu salvei hoje?", "quais links eu salvei ontem?", "what did I save this
  week?";
- recall: "what was it?", "qual era mesmo?" (about what was just shown).

A subject is one to six words with no question word left in it; anything else ("filmes
com o Tom Hanks que eu salvei depois do natal") stays with the planner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from agent.understanding.references import fold_same_length
from agent.understanding.searches import plain_search, search_subject
from agent.understanding.textnorm import expand_chat, fold
from agent.understanding.vocabulary import SAVE_VERBS, ItemType

Kind = Literal["find", "exists", "count", "when", "recall"]
# the periods of `list_items` (agent/tools/listing.py), and "semana passada"
Window = Literal["today", "yesterday", "this_week", "last_week", "last_7_days", "this_month"]


@dataclass(frozen=True, slots=True)
class SavedQuestion:
    kind: Kind
    subject: str = ""
    type: ItemType | None = None
    window: Window | None = None
    # "qual a senha do wifi?": answered in code only when something saved answers it
    if_found: bool = False
    # "quantos filmes e quantas séries?": several types asked at once (`type` is then None)
    types: tuple[ItemType, ...] = ()


_TYPES: Final[dict[str, ItemType]] = {
    **dict.fromkeys("nota notas anotacao anotacoes note notes".split(), "note"),
    **dict.fromkeys("filme filmes movie movies film films".split(), "movie"),
    **dict.fromkeys("serie series seriado seriados show shows".split(), "tv_show"),
    **dict.fromkeys("video videos".split(), "video"),
    **dict.fromkeys(
        "link links site sites bookmark bookmarks pagina paginas page pages".split(), "link"
    ),
}
_ALL_NOUNS: Final = frozenset(
    "itens item coisas coisa items things thing tudo everything stuff memorias".split()
)
_TYPE: Final = rf"(?P<type>{'|'.join(sorted(_TYPES, key=len, reverse=True))})"
WINDOWS: Final[dict[str, Window]] = {  # every period word the readers know (folded)
    "hoje": "today",
    "today": "today",
    "hoje cedo": "today",
    "earlier today": "today",
    "ontem": "yesterday",
    "yesterday": "yesterday",
    "essa semana": "this_week",
    "esta semana": "this_week",
    "nessa semana": "this_week",
    "nesta semana": "this_week",
    "this week": "this_week",
    "semana passada": "last_week",
    "na semana passada": "last_week",
    "last week": "last_week",
    "ultimos 7 dias": "last_7_days",
    "ultimos sete dias": "last_7_days",
    "nos ultimos 7 dias": "last_7_days",
    "nos ultimos sete dias": "last_7_days",
    "ultima semana": "last_7_days",
    "na ultima semana": "last_7_days",
    "last 7 days": "last_7_days",
    "last seven days": "last_7_days",
    "past 7 days": "last_7_days",
    "past seven days": "last_7_days",
    "past week": "last_7_days",
    "in the last 7 days": "last_7_days",
    "in the past week": "last_7_days",
    "esse mes": "this_month",
    "este mes": "this_month",
    "nesse mes": "this_month",
    "neste mes": "this_month",
    "this month": "this_month",
}
_LONGEST_FIRST: Final = tuple(sorted(WINDOWS, key=len, reverse=True))
_WINDOW: Final = rf"(?P<window>{'|'.join(_LONGEST_FIRST)})"
_HOLD: Final = (
    r"(?:salvei|salvou|guardei|guardou|anotei|adicionei|coloquei|botei|tenho|temos|"
    r"salvo|salvos|salva|salvas|guardado|guardados|guardada|guardadas|anotado|anotados|"
    r"save|saved|keep|kept|note|noted|add|added|store|stored|have|got|put)"
)
# what one has already saved (never "save", "keep": those ask to save)
_HELD: Final = (
    r"(?:salvei|salvou|guardei|guardou|anotei|adicionei|coloquei|botei|tenho|temos|"
    r"mandei|enviei|passei|compartilhei|sent|shared|"
    r"salvo|salvos|salva|salvas|guardado|guardados|guardada|guardadas|anotado|anotados|"
    r"saved|kept|noted|added|stored|have|got|put)"
)
_SAVED: Final = r"(?:salvei|guardei|anotei|adicionei|coloquei|botei|saved|kept|noted|added|stored)"
_I: Final = r"(?:(?:eu|i|voce|vc|you)\s+)?(?:(?:ja|already|ever)\s+)?"
_DID_I: Final = r"(?:(?:did|have|do|had)\s+(?:i|you)\s+(?:already\s+|ever\s+)?)"
_ABOUT: Final = r"(?:sobre|de|da|do|das|dos|about|on|regarding|for|from|of|with|com|by|do|da)"
_THAT: Final = (
    r"(?:(?:aquele|aquela|aqueles|aquelas|esse|essa|o|a|os|as|um|uma|that|the|a|an|this|my|"
    r"meu|minha|algum|alguma|alguns|algumas|any|some)\s+)?"
)
_WAS: Final = r"(?:(?:era|e|foi|eram|sao|esta|estao|ta|fica|ficou|is|was|were|s|re)\s+)?"
_WHAT: Final = r"(?:qual|quais|que|which|what|whats|cade|onde|where|wheres|where s)"
_SOME: Final = r"(?:algo|alguma coisa|algum|alguma|um|uma|something|anything|a|an|some)"
_ANY: Final = r"(?:algo|alguma coisa|algum|alguma|something|anything|any)"  # asked, never "a"
_TAIL_Q: Final = (
    r"(?:\s+(?:o que era|qual era|qual e|o que e|what was it|what was that|which was it|"
    r"which one was it|where is it|wheres it|onde esta|onde ta|cade|mesmo|ne|hein|"
    r"aqui|ai|la|please|por favor|de novo|again|que eu salvei|que salvei|que eu guardei|"
    r"que eu tenho|i saved|that i saved|i kept|i have))*"
)
_LEAD: Final = (
    r"(?:(?:e|and|ah|oh|hey|ei|oi|so|entao|lembra|remember|me diz|me fala|me conta|tell me|"
    r"(?:voce\s+)?(?:sabe|lembra)(?:\s+(?:me\s+)?dizer)?(?:\s+se)?|"
    r"(?:do|can|could)\s+you\s+(?:know|remember|tell me)(?:\s+(?:if|whether))?|you know)\s+)*"
)

_FIND: Final = tuple(
    re.compile(p)
    for p in (
        # qual era aquele link da bbc / what was the link about X / cade o video do gato
        rf"^{_LEAD}{_WHAT}\s+{_WAS}{_THAT}{_TYPE}\s+(?:(?:que\s+)?{_I}{_HELD}\s+|{_DID_I}{_HOLD}\s+)?"
        rf"{_ABOUT}\s+(?P<subject>.+?){_TAIL_Q}$",
        # where's that cacio e pepe link / what was the gym note: English puts the subject first
        rf"^{_LEAD}{_WHAT}\s+{_WAS}(?:that|the|my)\s+(?P<subject>.+?)\s+{_TYPE}{_TAIL_Q}$",
        # which link did I save about X / qual link eu salvei sobre X
        rf"^{_LEAD}{_WHAT}\s+{_TYPE}\s+(?:{_DID_I}{_HOLD}|{_I}{_HELD})\s+{_ABOUT}\s+(?P<subject>.+?){_TAIL_Q}$",
        # qual filme do nolan eu salvei / which movie by nolan did i save
        rf"^{_LEAD}{_WHAT}\s+{_THAT}{_TYPE}\s+{_ABOUT}\s+(?P<subject>.+?)\s+(?:que\s+)?"
        rf"(?:{_I}{_HELD}|{_DID_I}{_HOLD}|i\s+{_HELD})$",
        # o que eu salvei sobre X / what did I save about X / what have I got on X
        rf"^{_LEAD}(?:o que|que|what)\s+(?:{_DID_I}{_HOLD}|{_I}{_HELD})\s+{_ABOUT}\s+(?P<subject>.+?){_TAIL_Q}$",
        # eu salvei algo sobre X, o que era? / I saved something about X, what was it?
        rf"^{_LEAD}(?:{_I}|i\s+){_SAVED}\s+{_SOME}\s+(?:{_TYPE}\s+)?{_ABOUT}\s+(?P<subject>.+?){_TAIL_Q}$",
        # tem alguma coisa sobre X? / have I got anything on X? / is there a note about X?
        rf"^{_LEAD}(?:tem|tinha|there s|theres|is there|have i got|got)\s+{_SOME}\s+"
        rf"(?:{_TYPE}\s+)?{_ABOUT}\s+(?P<subject>.+?)(?:\s+(?:ai|aqui|salvo|salva|saved))?{_TAIL_Q}$",
        # como tá a nota do notebook / o que diz a nota da festa / o que tem na nota do mercado:
        # how a saved thing reads now (after an edit, an undo)
        rf"^{_LEAD}(?:como|(?:o\s+)?(?:que|q)|oq)\s+(?:(?:diz|tem|fala|(?:esta|ta)\s+escrito)\s+n?|{_WAS})"
        rf"{_THAT}{_TYPE}\s+{_ABOUT}\s+(?P<subject>.+?){_TAIL_Q}$",
        # what does the packing note say / how does the trip note look now / what's in the X note
        rf"^{_LEAD}(?:what|how)\s+does\s+(?:that|the|my)\s+(?P<subject>.+?)\s+{_TYPE}\s+"
        rf"(?:say|look|read)(?:\s+like)?(?:\s+(?:now|then))?{_TAIL_Q}$",
        rf"^{_LEAD}(?:what\s+s|whats|what\s+is)\s+(?:in|on)\s+(?:that|the|my)\s+"
        rf"(?P<subject>.+?)\s+{_TYPE}(?:\s+(?:now|then))?{_TAIL_Q}$",
        # me mostra o link da bbc / show me the note about the gym / acha o video do gato
        rf"^{_LEAD}(?:me\s+)?(?:mostra|mostre|show(?:\s+me)?|acha|ache|busca|procura|find|get)\s+"
        rf"{_THAT}{_TYPE}\s+{_ABOUT}\s+(?P<subject>.+?){_TAIL_Q}$",
    )
)
# "anything about kubernetes?", "alguma coisa sobre o IR?", "any notes on taxes?": asked with
# no verb, "tem"/"is there" left out
_SOMETHING_ABOUT: Final = re.compile(
    rf"^{_LEAD}{_ANY}\s+(?:{_TYPE}\s+)?(?:{_ABOUT})\s+(?P<subject>.+?)"
    rf"(?:\s+(?:ai|aqui|salvo|salva|saved))?{_TAIL_Q}$"
)
_EXISTS: Final = tuple(
    re.compile(p)
    for p in (
        # eu salvei inception / ja salvei o filme X / did I save Dune / have I saved X
        rf"^{_LEAD}(?:(?:eu|ja)\s+(?:ja\s+)?(?:salvei|guardei|anotei|adicionei)|{_DID_I}(?:save|saved|keep|kept|add|added|store|stored))"
        rf"\s+{_THAT}(?:{_TYPE}\s+)?(?P<subject>.+?){_TAIL_Q}$",
        # tenho X salvo / do I have X saved
        rf"^{_LEAD}(?:(?:eu\s+)?(?:ja\s+)?tenho|do\s+i\s+(?:already\s+)?have)\s+{_THAT}"
        rf"(?:{_TYPE}\s+(?:{_ABOUT}\s+)?)?(?P<subject>.+?)\s+"
        rf"(?:salvo|salva|salvos|salvas|guardado|guardada|anotado|anotada|saved|stored|kept)(?:\s+(?:ai|aqui|ja|already))?$",
    )
)
# "qual a senha do wifi?", "what's the garage code?", "what's Ana's phone?" (whose it is
# belongs to the subject: "ana phone"): a saved thing, or a question for the
# planner (what Lembra has not saved it does not answer with "nothing found")
_WHAT_IS: Final = re.compile(
    rf"^{_LEAD}(?:qual(?:\s+(?:e|era|eh|foi))?|quais(?:\s+(?:sao|eram))?|what\s+(?:is|was|s|are)|"
    rf"whats)\s+(?:(?:o|a|os|as|the|my|meu|minha|meus|minhas)|(?P<owner>[^\W\d]\w*)\s+s)\s+"
    rf"(?P<subject>.+?){_TAIL_Q}$"
)
# "quem me indicou o Mocotó?", "who recommended Piranesi again?": who said something about
# an item is in what was saved with it (a note): found, or the planner's
_WHO: Final = re.compile(
    rf"^{_LEAD}(?:quem|who|whom|com\s+quem|de\s+quem)\s+(?:(?:foi\s+que|que|me|te|nos|lhe)\s+)*"
    rf"[^\W\d]\w*\s+(?:(?:me|us|to\s+me|pra\s+mim)\s+)?"
    rf"(?:(?:o|a|os|as|the|that|aquele|aquela|about|sobre|do|da|de)\s+)?(?P<subject>.+?){_TAIL_Q}$"
)
# "qual ano tá salvo o nosferatu?", "what year is the fly saved as?": the item, with its year
_WHAT_YEAR: Final = re.compile(
    rf"^{_LEAD}(?:(?:em\s+)?(?:qual|que)|(?:in\s+)?(?:what|which))\s+(?:ano|year)\s+(?P<subject>.+?){_TAIL_Q}$"
)
_COUNT: Final = re.compile(
    r"^(?:e\s+|and\s+|tambem\s+)?(?:(?:voce|vc|tu|eu)\s+)?(?:(?:tem|tenho|sabe)\s+)?"
    r"(?:quantos|quantas|how many|how much)\b(?P<rest>.*)$"
)
_RECALL: Final = re.compile(
    r"^(?:e\s+|and\s+|so\s+|entao\s+)?(?:o que era|qual era|o que e|qual e|what was it|what was that|"
    r"what is it|which was it|which one was it|qual era ele|o que era isso|qual foi)"
    r"(?:\s+(?:mesmo|again|de novo|then|entao|ne|hein))*$"
)
# words that never make a subject: a question word, a time, a verb of saving, a pronoun
_NOT_SUBJECT: Final = frozenset(
    """que quando onde quantos quantas qual quais como porque quem ontem hoje semana mes ano
    salvei salvou guardei anotei salvo tenho that which when where how what who why
    yesterday today week month year saved save kept have it isso isto ele ela aquilo this
    these those them algo something anything tudo everything all nada nothing i eu you
    voce vc me mim my
    ou or sem except exceto menos fora vi assisti watched seen visto vista li
    watch assistir falta faltam left unwatched unseen""".split()
)  # (the last: "Duna ou Matrix", "sem contar", "que eu já vi", "still need to watch": more
# than a subject to search, a state the watchlist's readers answer)
_FILLERS: Final = frozenset(
    """eu i voce vc you ja already ever tenho tem have has got salvei salvou salvo salvos
    salva salvas guardei guardado guardados anotei saved stored kept did do i have
    na no nas nos minha meu minhas meus my in on the a o os as de do da ate agora so far
    ai aqui la total ao todo all in total lista list mesmo save keep store add added got
    noted there are is temos tens we now currently atualmente""".split()
)
_LEADING: Final = re.compile(
    r"^(?:(?:o|a|os|as|um|uma|the|an|a|my|meu|minha|meus|minhas|aquele|aquela|that|this|"
    r"any|some|algum|alguma|alguns|algumas|"
    # "alguma coisa do Nolan": the subject is Nolan
    r"(?:coisa|coisas|algo|thing|things|something|anything|nada|nothing)\s+"
    r"(?:de|do|da|dos|das|sobre|about|on|from|with|com))\s+)+"
)
_MAX_SUBJECT_WORDS: Final = 6


_OR_NOT: Final = re.compile(r"[\s,]+(?:or not|ou nao)(?=\W*$)")


def _words(text: str) -> str:
    """Folded, chat shorthand spelled out, a closing "or not?" dropped ("did I save X or
    not?" asks whether X is saved)."""
    return _OR_NOT.sub("", expand_chat(fold(text)))


def _as_written(text: str, subject: str) -> str:
    """`subject` (folded) as the message wrote it: "Turing", not "turing"."""
    spaced = re.sub(r"[^\w]", " ", fold_same_length(text))
    found = re.search(r"\b" + r"\s+".join(map(re.escape, subject.split())) + r"\b", spaced)
    return text[found.start() : found.end()] if found else subject


def _subject(raw: str) -> str | None:
    subject = _LEADING.sub("", raw.strip() + " ").strip()
    words = subject.split()
    if not words or len(words) > _MAX_SUBJECT_WORDS or not _NOT_SUBJECT.isdisjoint(words):
        return None
    if all(w in _TYPES or w in _ALL_NOUNS or w == "tv" for w in words):
        return None  # "any TV show" names a kind, not a subject: a list, not a search
    return subject


def read_question(text: str) -> SavedQuestion | None:
    """The question about saved things `text` asks, or None when it is anything else."""
    stripped = text.strip()
    if not stripped or len(stripped) > 200 or stripped.startswith("/") or "://" in stripped:
        return None
    words = _words(stripped)
    if not words:
        return None
    asked = "?" in stripped or words.split()[0] in _QUESTION_STARTS
    if _RECALL.match(words):
        return SavedQuestion("recall")
    if (count := _count(words)) is not None:
        if count.subject:  # as the message wrote it: "Nolan", not "nolan"
            return SavedQuestion(
                "count", _as_written(stripped, count.subject), count.type, count.window
            )
        return count
    if (window := _window(words)) is not None:
        return window
    for pattern in _FIND:
        match = pattern.match(words)
        if match is not None and (subject := _subject(match.group("subject"))):
            kind = _TYPES.get(match.groupdict().get("type") or "")
            return SavedQuestion("find", _as_written(stripped, subject), kind)
    if asked:
        for pattern in _EXISTS:
            match = pattern.match(words)
            if match is not None and (subject := _subject(match.group("subject"))):
                kind = _TYPES.get(match.groupdict().get("type") or "")
                return SavedQuestion("exists", _as_written(stripped, subject), kind)
    if asked and (verbless := _SOMETHING_ABOUT.match(words)) is not None:
        if subject := _subject(verbless.group("subject")):
            kind = _TYPES.get(verbless.groupdict().get("type") or "")
            return SavedQuestion("find", _as_written(stripped, subject), kind)
    plain = plain_search(stripped)
    if plain is not None and plain.query:
        return SavedQuestion("find", plain.query, plain.type)
    what = (_WHAT_IS.match(words) or _WHAT_YEAR.match(words)) if asked else None
    if what is not None and (subject := _subject(search_subject(_owned(what)))):
        return SavedQuestion("find", _as_written(stripped, subject), if_found=True)
    who = _WHO.match(words) if asked else None
    if who is not None and (subject := _subject(who.group("subject"))):
        return SavedQuestion("find", _as_written(stripped, subject), if_found=True)
    return None


def _owned(what: re.Match[str]) -> str:
    """The subject of a "what is ..." question with whose it is, if said ("ana phone")."""
    owner = what.groupdict().get("owner")
    return f"{owner} {what.group('subject')}" if owner else what.group("subject")


_QUESTION_STARTS: Final = frozenset(
    "qual quais que o como onde cade quantos quantas eu ja tenho which what whats where did do have how".split()
)


def _count(words: str) -> SavedQuestion | None:
    match = _COUNT.match(words)
    if match is None:
        return None
    said = " ".join(match.group("rest").split())
    phrase = window_phrase(said)
    window = WINDOWS[phrase] if phrase is not None else None
    rest = (said.replace(phrase, " ") if phrase is not None else said).split()
    types = tuple(dict.fromkeys(_TYPES[w] for w in rest if w in _TYPES))
    several = len(types) > 1
    if several and {"e", "and"}.isdisjoint(rest):
        return None  # "quantos filmes ou séries" is no question of each
    subject_words: list[str] = []
    about = False
    for w in rest:
        if w in ("sobre", "about", "com", "with", "de", "da", "do", "by", "on"):
            about = True
            continue
        if w in _TYPES or w in _ALL_NOUNS or w in _FILLERS:
            continue
        if several and w in ("e", "and", "quantos", "quantas", "how", "many"):
            continue  # "quantos filmes e quantas séries"
        subject_words.append(w)
    if subject_words and not about:
        return None  # "quantos anos você tem?" asks nothing about the items
    subject = _subject(" ".join(subject_words)) if subject_words else ""
    if subject is None or (several and subject):
        return None
    if several:
        return SavedQuestion("count", window=window, types=types)
    return SavedQuestion("count", subject, types[0] if types else None, window)


def window_phrase(words: str, *, at_end: bool = False) -> str | None:
    """The longest period phrase in folded `words` ("essa semana", "last 7 days"), or only
    one that ends them after another word when `at_end`; None when there is none."""
    for phrase in _LONGEST_FIRST:
        if re.search(rf"(?<= ){phrase}$" if at_end else rf"\b{phrase}\b", words):
            return phrase
    return None


# "lista os links de ontem", "show me what I saved this week"
_LIST_WHEN: Final = re.compile(
    rf"^{_LEAD}(?:me\s+)?(?:lista|liste|listar|mostra|mostre|list|show(?:\s+me)?)\s+"
    rf"(?:(?:o que|what)\s+(?:{_I}|i\s+){_HELD}|(?:(?:os|as|meus|minhas|my|the)\s+)?{_TYPE}"
    # "me mostra tudo q eu salvei essa semana", "show me everything i saved this week"
    rf"|(?:tudo|everything|all)\s+(?:(?:o que|que|q|that)\s+)?(?:{_I}|i\s+){_HELD}"
    rf"(?:\s+(?:que\s+)?(?:{_I}|i\s+){_HELD})?|(?:(?:os|meus|my|the)\s+)?(?:itens|items|coisas|things))"
    rf"(?:\s+(?:de|from|do|of))?\s+(?P<rest>.*)$"
)
_WHEN: Final = re.compile(
    rf"^{_LEAD}(?:o que|que|quais|qual|what|which|what did i|what have i|o que foi que|"
    rf"cade|onde (?:esta|ta|estao|foi parar)|where s|wheres|where is|where are)\s+"
    rf"{_THAT}(?:{_TYPE}\s+)?(?:(?:que\s+)?(?:{_DID_I}{_HOLD}|{_I}(?:te\s+)?{_HELD}))"
    rf"(?:\s+(?P<rest>.*))?$"
)
# "did I save anything this week?", "salvei alguma coisa hoje?", "saved anything today?",
# "anything new this week?", "any links yesterday?": the period's list
_DID_WHEN: Final = re.compile(
    rf"^{_LEAD}(?:(?:{_DID_I}{_HOLD}|(?:eu\s+)?(?:ja\s+)?(?:salvei|guardei|anotei|adicionei))\s+"
    rf"(?:{_SOME}\s+|(?:alguma\s+)?coisa\s+)?|(?:saved|added|stored|kept|noted)\s+{_ANY}\s+|"
    rf"{_ANY}\s+(?:new|novo|nova|novos|novas)\s+|"
    # "anything I saved this week?", "alguma coisa que eu salvei hoje?"
    rf"{_ANY}\s+(?:(?:que|that)\s+)?(?:eu|i)\s+{_HELD}\s+)(?:{_TYPE}\s+)?(?P<rest>.*)$"
)


def _window(words: str) -> SavedQuestion | None:
    phrase = window_phrase(words)
    if phrase is None:
        return None
    # the period said first ("e ontem, salvei alguma coisa?", "and this week, what did I
    # save?") is read where the question would say it, at its end
    fronted = re.match(rf"^((?:(?:e|and|so|entao)\s+)?){re.escape(phrase)}\s+(\S.*)$", words)
    if fronted is not None:
        words = f"{fronted.group(1)}{fronted.group(2)} {phrase}"
    window = WINDOWS[phrase]
    match = _WHEN.match(words) or _LIST_WHEN.match(words) or _DID_WHEN.match(words)
    if match is None:
        return None
    rest = (match.group("rest") or "").replace(phrase, " ").split()
    rest = [w for w in rest if w not in _FILLERS]
    kind = _TYPES.get(match.group("type") or "")
    if rest:
        if rest[0] not in ("sobre", "about", "com", "with", "de", "da", "do", "on"):
            return None
        subject = _subject(" ".join(rest[1:]))
        if subject is None:
            return None
        return SavedQuestion("when", subject, kind, window)
    return SavedQuestion("when", "", kind, window)


# a word that asks for something to be done: a request verb, or asking politely for one
_ASKS_TO_DO: Final = re.compile(
    r"\b(?:salv|guard|anot|apag|delet|exclu|remov|tir[ae]|marc|desmarc|mud[ae]|troc|edit|corrig"
    r"|renome|bot[ae]|coloc|adicion|lembr|cancel|desfa|refa|pod[ei]|poderia|consegu|tem\s+como"
    r"|da\s+pra|save|add|delete|remove|mark|unmark|change|edit|rename|fix|put|remind|set|cancel"
    r"|undo|redo|can|could|would|will|please|pls|pfv|por\s+favor|keep|store|track|move|push)",
)
_URLS: Final = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)


def only_asks(text: str) -> bool:
    """Whether `text` is a question that asks for nothing to be done ("e round 6 ainda tá
    faltando?", "did I rate ted lasso?"): it ends in "?" and no word of it asks for an act
    ("salva X?", "pode marcar?" and "can you add it?" ask for one)."""
    said = _URLS.sub(" ", text).strip()
    if not said.rstrip(" \t\n.!)").endswith("?"):
        return False
    return _ASKS_TO_DO.search(fold(said)) is None


# a word that asks for a number: "quantos", "qnts", "how many", "count", "total"
_HOW_MANY: Final = re.compile(
    r"\b(?:quant[oa]s?|q(?:ua)?n?t[oa]?s|qt[oa]s|how\s+many|how\s+much|number\s+of|"
    r"numero\s+de|total|count|conta[rs]?|conte)\b"
)


def asks_how_many(text: str) -> bool:
    """Whether `text` asks how many ("quantos filmes?", "qnts series tenho", "how many notes",
    "conta minhas notas"); "me lista só as séries" and "e de links?" ask for no number."""
    return _HOW_MANY.search(fold(_URLS.sub(" ", text))) is not None


# what may open a request before its verb: "e", "então", "pode", "please"
_BEFORE_VERB: Final = frozenset(
    "e and entao so then ah oh ok okay pode please pls pfv por favor can you just so".split()
)
# a save verb that opens a sentence asks to save; a rating ("nota 8"), a reminder or a
# memory of the user is no save of an item
_NOT_A_SAVE: Final = frozenset(
    {"nota", "lembrete", "remember", "bookmark", "memoriza", "memorizar"}
)
_SENTENCES: Final = re.compile(r"[.!?;\n]+")


def asks_to_save(text: str) -> bool:
    """Whether a sentence of `text` opens with a verb of saving ("a friend recommended two
    films, Past Lives and Aftersun. save the first one"): the user asked for the save, where
    the message's opening words say something else."""
    for sentence in _SENTENCES.split(_URLS.sub(" ", text[:2_000])):
        words = fold(sentence).split()
        while words and words[0] in _BEFORE_VERB:
            words = words[1:]
        if words and words[0] in SAVE_VERBS and words[0] not in _NOT_A_SAVE:
            return True
    return False


@dataclass(frozen=True, slots=True)
class AskedWords:
    """A question that names something by its words alone ("me passa o numero do
    encanador", "whats daves number again"): the words that may name it, and the type named."""

    words: tuple[str, ...]
    type: ItemType | None = None
    # opened by words that ask for something had ("me passa", "whats"), not only by a "?":
    # then a word no item holds may say what is wanted ("numero"); after a bare "?" it may
    # be the question itself ("inception é bom?")
    opened: bool = False


# what opens a request for something the user has (PT/EN): "me passa", "qual é", "cadê",
# "what's", "where's", "do I have", "tell me"
_ASKED_OPENING: Final = re.compile(
    r"^(?:(?:e|and|ei|hey|oi|so|entao|ah|oh|ok|ty|thanks|valeu|obrigad[oa])\s+)*"
    r"(?:(?:me|pra mim)\s+(?:passa|passe|manda|mande|envia|diz|diga|fala|fale|da|de)|"
    r"qual|quais|cade|onde|where|wheres|what|whats|which|"
    r"do\s+(?:i|we|you)\s+(?:have|still\s+have)|have\s+i\s+got|tell\s+me|give\s+me|send\s+me|"
    r"remind\s+me\s+(?:of|what))\b"
)
# a word that asks for an effect ("pode apagar o X?", "salva X?"): never only a question
_ASKED_EFFECT: Final = re.compile(
    r"\b(?:salv|guard|anot|apag|delet|exclu|remov|desmarc|troc|corrig|renome|coloc|adicion|"
    r"cancel|desfa|refa|atualiz|edit|(?:tir|marc|mud|bot)(?:a|e|ar|ou|ei)\b|"
    r"(?:save|add|delete|remove|mark|unmark|change|rename|fix|put|set|undo|redo|keep|store|"
    r"track|move|push|update)(?:s|d|ed|ing)?\b)"
)
# what was done before, asked about ("o que eu salvei", "the one I saved"): no effect asked
_ASKED_HELD_FORMS: Final = re.compile(
    r"\b(?:salvei|salvou|salvo|salvos|salvas|guardei|guardou|guardado|guardados|anotei|anotou|"
    r"anotado|anotados|adicionei|coloquei|botei|saved|kept|stored|added|noted|put)\b"
)
# words that ask and point but name nothing: function words, question words, the verbs of
# asking and having, chat shorthand's meanings, times of no item
_ASKED_NOISE: Final = frozenset(
    """o a os as um uma uns umas de do da dos das e em no na nos nas ao aos pra para pro por
    com sem que qual quais quem onde cade como quando quanto porque pq se eu me mim meu minha
    meus minhas voce vc tu te seu sua seus suas ele ela eles elas isso isto esse essa este
    esta aquele aquela aquilo ai aqui la ja ainda mesmo mesma de novo agora entao ne hein
    la passa passe manda mande envia diz diga fala fale mostra mostre lembra da de tem tenho
    temos tinha era e eh foi sao salvo salva salvos salvas salvei guardei anotei guardado
    anotado the a an of and or in on at to for from with by about my your his her our their
    me i you we it this that these those there here what whats which where wheres who how
    when is are was were s re do does did have has had got get give tell send show remind
    again still now rn pls please plz por favor obrigado obrigada valeu thanks thx ty ok
    hey oi ei e and so ah oh saved kept stored noted lembrete hoje amanha ontem today
    tomorrow yesterday aquele aquela that one coisa thing something anything algo
    again tb tambem too also ta tao estao estava fica ficou ficava algum alguma alguns algumas
    any some quantos quantas many much sobre daquele daquela desses dessas deles delas those
    among mais more can could should would will""".split()
)
_ASKED_MAX_WORDS: Final = 4  # words left to name the thing: more is a question of its own


def asked_words(text: str) -> AskedWords | None:
    """The words a question names a saved thing by, when `text` is only a question for
    something the user has (a "?" or an opening like "me passa", "whats", "do i have") and
    asks for no effect; None otherwise. "numero", "number" and the like are noise here:
    they say what is wanted, not which item holds it."""
    stripped = text.strip()
    if not stripped or len(stripped) > 200 or stripped.startswith("/") or "://" in stripped:
        return None
    words = _words(stripped)
    if not words or _ASKED_EFFECT.search(_ASKED_HELD_FORMS.sub(" ", words)):
        return None
    opened = _ASKED_OPENING.match(words) is not None
    if not opened and not stripped.rstrip(" \t\n.!)").endswith("?"):
        return None
    kinds = [_TYPES[w] for w in words.split() if w in _TYPES]
    named = [
        w
        for w in words.split()
        if w not in _ASKED_NOISE and w not in _TYPES and w not in _ALL_NOUNS and len(w) > 1
    ]
    named = list(dict.fromkeys(named))
    if not named or len(named) > _ASKED_MAX_WORDS or len(set(kinds)) > 1:
        return None
    return AskedWords(tuple(named), kinds[0] if kinds else None, opened=opened)


@dataclass(frozen=True, slots=True)
class OverShown:
    """A question over the list just shown ("desses, qual é série?", "how many videos is
    that?"): the type it keeps, and whether it asks how many."""

    type: ItemType
    count: bool


# words that point back at the list just shown: "desses", "of those", "is that", "entre eles"
_SHOWN_LIST: Final = re.compile(
    r"\b(?:desses|dessas|destes|destas|deles|delas|daqueles|daquelas|entre\s+(?:eles|elas|esses|"
    r"essas)|(?:dessa|desta|nessa|nesta|na)\s+lista|(?:of|among)\s+(?:those|these|them)|"
    r"(?:in|on)\s+(?:that|this|the)\s+list|(?:is|are|was|were)\s+(?:that|those|these|there)|"
    r"ai\s+(?:nessa|na)\s+lista|ali|ai\s+em\s+cima|up\s+there|above)\b"
)
_OVER_SHOWN_MAX_WORDS: Final = 10
_SHOWN_ASKS: Final = re.compile(r"\b(?:qual|quais|quem|which|what|whats|how|cade|where)\b")


def read_over_shown(text: str) -> OverShown | None:
    """The type (and count) a question over the list just shown asks about; None when the
    message does not point back at a list, names no single type, or asks for an effect."""
    stripped = text.strip()
    if not stripped or len(stripped) > 120 or "://" in stripped:
        return None
    words = _words(stripped)
    effect = _ASKED_EFFECT.search(_ASKED_HELD_FORMS.sub(" ", words))
    if len(words.split()) > _OVER_SHOWN_MAX_WORDS or effect:
        return None
    if _SHOWN_LIST.search(words) is None:
        return None
    kinds = {_TYPES[w] for w in words.split() if w in _TYPES}
    if len(kinds) != 1:
        return None
    asks = "?" in stripped or _SHOWN_ASKS.search(words) or asks_how_many(stripped)
    if not asks and not re.match(r"^(?:e\s+|and\s+)?(?:so\s+)?(?:os|as|the|only|so)\b", words):
        return None
    return OverShown(kinds.pop(), count=asks_how_many(stripped))
