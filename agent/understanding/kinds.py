"""What kind of thing a message names, read in code (issue 34: the first hour).

- `guessed_title`: after a generic save verb ("salva", "guarda", "save"...), a short
  phrase that reads like a title ("inception", "the office") is most likely a movie,
  and is saved as one with a way to correct it; a phrase that reads like a to-do
  ("comprar pão", "ligar pro João às 9h"), names a kind Lembra does not keep
  ("o livro Duna") or holds personal data ("minha senha ...", "o pix da Ana", a date,
  an address) stays a note: with a TMDB key the guess is looked up there. Note verbs
  ("anota", "note down") always mean a note.
  A wrong guess costs one message: the reply says how to correct it.
- `correction`: "é uma série", "na verdade é uma nota", "it's a show": the type the
  user says the thing they just saved really is.

Both read the accent-, case- and punctuation-folded text (`fold`).
"""

from __future__ import annotations

import re
from typing import Final, Literal

from agent.understanding.reminders.requests import only_says_why
from agent.understanding.textnorm import expand_chat, fold

Retype = Literal["movie", "tv_show", "note"]

MAX_TITLE_WORDS = 6
# Verbs that ask for a note whatever follows (the save verbs themselves are the planner's).
_NOTE_VERB = re.compile(
    r"^(?:(?:por favor|pfv|pls|please)\s+)?(?:anota|anotar|anote|note(?: down)?|remember|"
    r"(?:me\s+)?lembra(?:r)?\s+de|lembre(?:\s+me)?\s+de)\b"
)
# First words of a to-do, a reminder or a sentence: what follows is not a title.
_NOTE_STARTERS = frozenset(
    """comprar compra compre ligar liga ligue pagar paga pague marcar marca marque levar leva
    leve buscar busca busque pegar pega pegue fazer faz faca ver ler assistir estudar enviar
    envia envie mandar manda mande responder responde lembrar tomar toma tome ir passar passa
    agendar agenda reservar reserva renovar renova trocar troca lavar lava limpar limpa arrumar
    arruma consertar conserta devolver devolve cancelar cancela checar checa verificar
    verifica revisar revisa terminar termina comecar comeca escrever escreve falar fala
    perguntar pergunta avisar avisa tirar tira colocar coloca botar bota depositar transferir
    preciso precisa tenho temos quero queria vou vamos nao que porque quando onde
    buy call pay book send email text fix pick get make do read watch clean check finish start
    write ask tell take go visit renew return cancel schedule need must want""".split()
)
# A kind named first: Lembra's own are the planner's ("salva a nota ...", "salva o filme ..."),
# others are notes ("salva o livro Duna" is a note about a book).
_OTHER_KINDS = frozenset(
    """livro livros book musica song album disco banda band artista artist receita recipe
    podcast jogo game restaurante restaurant lugar place endereco address telefone phone
    numero number senha password ideia idea lista list tarefa task compras shopping presente
    gift nota notas note notes anotacao notacao filme filmes movie movies film serie series seriado
    show shows video videos link links""".split()
)
_ARTICLES = frozenset("o a os as um uma the an".split())
# Words of personal data and appointments: what holds them is a note, never a title the
# guess would also send to TMDB when a key is configured ("salva minha senha do banco ...").
_POSSESSIVES = frozenset("meu minha meus minhas nosso nossa nossos nossas my our mine".split())
_PERSONAL = frozenset(
    """senha senhas password passwords cpf rg cnpj pix cartao conta wifi email login usuario
    username pin token cep whatsapp aniversario reuniao meeting consulta hoje amanha""".split()
)
_TIME = re.compile(r"\b\d{1,2}\s*(?:h|hs|:\d\d|am|pm)\b|\d{5,}", re.IGNORECASE)
_MOVIE_WORDS = frozenset("filme filmes movie movies film films".split())

_LEAD = (
    r"(?:(?:nao|no|na verdade|na real|actually|opa|ops|oops|ah|sorry|desculpa|errei|engano meu|"
    r"my bad|wait|espera|pera|perai|epa|foi mal|mals|kk+|haha+|rs)\s+)*"
)
_KINDS: dict[Retype, str] = {
    "movie": r"filmes?|films?|movies?",
    "tv_show": (
        r"series(?:\s+de\s+tv)?|serie(?:\s+de\s+tv)?|seriados?|programas?\s+de\s+tv|tv\s+shows?|"
        r"shows?|tv\s+series|minisseries?|miniseries|mini\s+series|minisserie"
    ),
    "note": r"notas?|anotacao|anotacoes|notes?",
}
_ANY_KIND = "|".join(_KINDS.values())
_KIND = "(?P<kind>" + _ANY_KIND + ")"
# "não filme", "n filme", "actually, not a show": the type it is not
_NOT_ANOTHER = (
    r"(?:(?:\s+(?:na verdade|na real|na vdd|actually|mesmo))*\s+(?:e\s+)?(?:nao|not|n)\s+"
    r"(?:(?:um|uma|uns|umas|a|an)\s+)?(?:" + _ANY_KIND + "))?"
)
# what several things just saved are said to be: "são séries", "os dois são filmes", "theyre
# shows", "they're both series", "both are notes"
_BOTH = r"(?:os dois|as duas|ambos|ambas|todos|todas|tudo|os tres|as tres|both|all|all of them)"
_SEVERAL = (
    rf"^{_LEAD}(?:(?:eles|elas|esses|essas|estes|estas|{_BOTH})\s+)?(?:sao|eram)\s+"
    rf"(?:{_BOTH}\s+)?(?:(?:uns|umas)\s+)?{_KIND}",
    rf"^{_LEAD}(?:they re|theyre|they are|they were|those are|these are|{_BOTH} are)\s+"
    rf"(?:{_BOTH}\s+)?{_KIND}",
    rf"^{_LEAD}(?:{_BOTH})\s+{_KIND}",
)
# "são séries na vdd", "it's a show actually": said after it, the same correction
_AFTER = r"(?:\s+(?:na verdade|na real|actually|then|entao|mesmo|ne|tb|tambem|too))*"
# "é na verdade uma série", "it's actually a movie", "esse também é série": said beside the verb
_IN_FACT_KIND = r"(?:(?:na verdade|na real|na vdd|actually|really|mesmo|tambem|tb|tbm|also)\s+)?"
_SEVERAL_RE = tuple(re.compile(pattern + _NOT_ANOTHER + _AFTER + "$") for pattern in _SEVERAL)
_CORRECTIONS = _SEVERAL_RE + tuple(
    re.compile(pattern + _NOT_ANOTHER + _AFTER + "$")
    for pattern in (
        # é uma série / na verdade era um filme / isso é nota
        rf"^{_LEAD}(?:(?:isso|esse|essa|ele|ela|este|esta)\s+{_IN_FACT_KIND})?(?:e|eh|era)\s+"
        rf"{_IN_FACT_KIND}"
        rf"(?:(?:um|uma)\s+)?{_KIND}",
        # muda para série / salva como nota / troca pra filme
        rf"^{_LEAD}(?:muda|mude|mudar|troca|troque|trocar|salva|salve|guarda|guarde|marca|"
        rf"marque)\s+(?:(?:isso|ele|ela)\s+)?(?:para|pra|como)\s+(?:(?:um|uma)\s+)?{_KIND}",
        # it's a show / that is a movie / actually it was a note
        rf"^{_LEAD}(?:it s|its|it is|it was|that s|thats|that is|that was|this is)\s+"
        rf"{_IN_FACT_KIND}(?:(?:a|an|um|uma)\s+)?{_KIND}",
        # make it a note / save it as a show / change that to a movie
        rf"^{_LEAD}(?:make|change|save|mark|turn|keep)\s+(?:it|that|this)\s+"
        rf"(?:(?:into|to|as)\s+)?(?:(?:a|an)\s+)?{_KIND}",
    )
)


def correction(text: str) -> Retype | None:
    """The type a correction such as "é uma série" or "it's a note" names, else None.

    A question ("é uma série?") asks about the item: it changes nothing.
    """
    text = without_fix_request(text)
    folded = expand_chat(fold(text))  # "na vdd é série"
    if not folded or len(folded) > 80 or text.rstrip().endswith("?"):
        return None
    found = _corrected(folded)
    first, _, why = text.partition(",")
    if found is None and why.strip() and only_says_why(fold(why)):
        found = _corrected(expand_chat(fold(first)))  # "muda pra série, quero a minissérie"
    return found


# "..., arruma aí", "... fix that", "corrige isso pfv": a last clause asking for the fix the
# rest of the message says
_FIX_REQUEST: Final = re.compile(
    r"[,.;!]+\s*(?:(?:pode|can\s+you|please|pls|pfv|so|just)\s+)?(?:arruma|arrume|conserta|"
    r"conserte|corrige|corrija|ajeita|ajusta|atualiza|fix|correct|update)"
    r"(?:\s+(?:a[ií]|ae|l[aá]|isso|isto|that|it|this|pra\s+mim|for\s+me|please|pls|pfv|"
    r"por\s+favor|ent[aã]o|then))*\s*[.!]*\s*$",
    re.IGNORECASE,
)


def without_fix_request(text: str) -> str:
    """`text` without a last clause that only asks for the fix the rest says ("na vdd Dark
    é série, não filme. arruma aí" says it all before "arruma aí")."""
    cut = _FIX_REQUEST.search(text)
    return text[: cut.start()] if cut is not None and text[: cut.start()].strip() else text


def _corrected(folded: str) -> Retype | None:
    for pattern in _CORRECTIONS:
        match = pattern.match(folded)
        if match is not None:
            said = match.group("kind")
            return next(k for k, words in _KINDS.items() if re.fullmatch(words, said))
    return None


# "o terceiro é série", "the second one is a movie actually": a line of the last save named
# by its place ("-1": the last), then what it is
_PLACES: Final = {
    **dict.fromkeys(("primeiro", "primeira", "first", "1o", "1a", "1st"), 1),
    **dict.fromkeys(("segundo", "segunda", "second", "2o", "2a", "2nd"), 2),
    **dict.fromkeys(("terceiro", "terceira", "third", "3o", "3a", "3rd"), 3),
    **dict.fromkeys(("quarto", "quarta", "fourth", "4o", "4a", "4th"), 4),
    **dict.fromkeys(("quinto", "quinta", "fifth", "5o", "5a", "5th"), 5),
    **dict.fromkeys(("ultimo", "ultima", "last"), -1),
}
_PLACED: Final = re.compile(
    rf"^(?P<lead>{_LEAD})(?:(?:o|a|the)\s+)?(?P<place>{'|'.join(_PLACES)})"
    r"(?:\s+(?:one|item|title|titulo|da lista|on the list|of them|deles|delas))?\s+"
    r"(?:(?:na verdade|na real|na vdd|actually|really)\s+)?(?P<cop>e|eh|era|is|was|s)\s+"
)


def placed_correction(text: str) -> tuple[int, Retype] | None:
    """The place of a line of the last save a correction names and the type it says that
    line is ("the third one is a movie actually, not a show": (3, "movie")), else None."""
    text = without_fix_request(text)
    folded = expand_chat(fold(text))
    if not folded or len(folded) > 80 or text.rstrip().endswith("?"):
        return None
    said = _PLACED.match(folded)
    if said is None:
        return None
    # the line said as "it": "the third one is a movie" reads as "it is a movie"
    kind = _corrected(f"{said.group('lead')}it is {folded[said.end() :]}")
    return (_PLACES[said.group("place")], kind) if kind is not None else None


# "o Dark na vdd é uma série", "fleabag is actually a show": the title named, then what it is
_NAMED: Final = re.compile(
    rf"^{_LEAD}(?:(?:o|a|the)\s+)?(?P<name>[^\s].{{0,60}}?)\s+"
    r"(?:(?:na verdade|na real|actually|really|tb|tambem|also)\s+)?(?:e|eh|era|is|was|s)\s+"
    r"(?:(?:actually|really|na verdade|na real)\s+)?(?:(?:um|uma|a|an)\s+)?"
    rf"{_KIND}{_NOT_ANOTHER}{_AFTER}$"
)


def named_correction(text: str) -> tuple[str, Retype] | None:
    """The title a correction names and the type it says that title is ("o Dark na vdd é
    uma série": ("dark", "tv_show")), folded; None for anything else, a pronoun ("isso é
    uma série" is `correction`'s) or a question."""
    text = without_fix_request(text)
    folded = expand_chat(fold(text))
    if not folded or len(folded) > 80 or text.rstrip().endswith("?"):
        return None
    match = _NAMED.match(folded)
    if match is None or only_reference(match.group("name")):
        return None
    said = match.group("kind")
    kind = next(k for k, words in _KINDS.items() if re.fullmatch(words, said))
    return match.group("name"), kind


def of_several(text: str) -> bool:
    """Whether a correction speaks of several things ("são séries", "they're shows")."""
    folded = expand_chat(fold(text))
    return len(folded) <= 80 and any(p.match(folded) for p in _SEVERAL_RE)


# Words about a title, never part of one (issue 41): a purpose ("pra ver com a Ana", "to
# watch with Bob": "pra"/"para" and an infinitive, "to" and a verb of the to-do starters),
# company ("with my sister", "com minha mãe", "with Ana", "com a Ana"), or a verb of its
# own after "também"/"too" ("o Pedro tb adorou").
_WATCH_VERBS = frozenset("see watch rewatch show share discuss try".split())
_PURPOSE = re.compile(r"\b(?P<prep>pra|para|to)\s+(?P<verb>[a-z]+)\b")
_INFINITIVE = re.compile(r"^[a-z]{2,}(?:ar|er|ir|or)$")
_COMPANY = re.compile(
    r"\b(?:com|with)\s+(?:(?:minha|meu|minhas|meus|nossa|nosso|my|our|his|her|their)\b|"
    r"(?-i:(?:(?:a|o|as|os)\s+)?[A-ZÀ-Ý][a-zà-ÿ]+(?:\s+(?:e|and)\b|\s*$)))",
    re.IGNORECASE,
)
_ALSO_THEN = re.compile(r"\b(?:tb|tbm|tmb|tambem|too|also)\s+[a-z]")
# "a Ana", "o Pedro": an article and one capitalised word may as well be a person
_PERSON = re.compile(r"^(?:a|o|as|os)\s+[A-ZÀ-Ý][a-zà-ÿ]+$")


def has_purpose(text: str) -> bool:
    """Whether `text` says what a title is for ("pra ver com a Ana", "to watch later")."""
    for match in _PURPOSE.finditer(fold(text)):
        verb = match.group("verb")
        if match.group("prep") == "to":
            if verb in _NOTE_STARTERS or verb in _WATCH_VERBS:
                return True
        elif _INFINITIVE.match(verb) or verb in _NOTE_STARTERS:
            return True
    return False


def carries_clause(text: str) -> bool:
    """Whether `text` says something about a title besides naming it: what it is for, who it
    is with, or a verb of its own after "também" ("o Pedro tb adorou"). Such a piece is no
    title on its own, and a reader splitting "X e Y" into titles declines on it."""
    folded = fold(text)
    return has_purpose(text) or bool(_COMPANY.search(text) or _ALSO_THEN.search(folded))


def names_person(text: str) -> bool:
    """Whether `text` is an article and one capitalised word ("a Ana", "o Pedro"): a person
    as likely as a title, so no reader saves it as one."""
    return _PERSON.match(text.strip(" \t.,!?;:")) is not None


# words that point at something said before: never a title on their own ("salva ele")
_REFERENCES = frozenset(
    "ele ela eles elas esse essa esses essas isso este esta isto aquele aquela aquilo "
    "it this that them those these one".split()
)


def only_reference(words: str) -> bool:
    """Whether `words` only point at something said before ("ele", "that one"), its type
    said after a comma or not ("ele tb, é filme")."""
    said, _, typed = words.rpartition(",")
    if said.strip() and correction(typed) is not None:
        words = said
    folded = fold(words).strip(" \t.!?;:,").split()
    pointed = [w for w in folded if w not in _ALSO]  # "ele tb", "that one too"
    return bool(pointed) and all(w in _REFERENCES for w in pointed)


_ALSO: Final = frozenset("tb tbm tambem too also entao so agora now".split())


def guessed_title(message: str, body: str) -> str | None:
    """`body` (what follows the save verb of `message`) when it reads like a title, else None.

    None as well when the verb asks for a note ("anota", "note down", "lembra de").
    """
    verb = message[: max(0, len(message) - len(body))]
    if not verb.strip() or ":" in verb or _NOTE_VERB.match(fold(verb)):
        return None  # no verb, a headed note ("guarda: ..."), or a note verb
    title = body.strip(" \t.!;:,")
    words = fold(title).split()
    if not words or len(words) > MAX_TITLE_WORDS or any(c in title for c in ":?@$\n"):
        return None
    first = next((w for w in words if w not in _ARTICLES), words[0])
    if first in _NOTE_STARTERS or first in _OTHER_KINDS or _TIME.search(title):
        return None
    if only_reference(title):
        return None  # "salva ele pra eu rever": what "ele" names was said before, not here
    if first in _POSSESSIVES or any(w in _PERSONAL for w in words):
        return None  # "minha senha ...", "o pix da maria", "reunião amanhã"
    if has_purpose(title):
        return None  # "Duna pra ver com a Ana": a title and what it is for, a note
    numbers = [w for w in words if any(c.isdigit() for c in w)]
    if len(numbers) > 1 or any(not w.isdigit() for w in numbers):
        return None  # "Rua das Flores 123 apto 4", "12/05", "hunter2": data, not a title
    return title


def names_a_movie(text: str) -> bool:
    """Whether `text` itself says it is about a movie ("filme", "movie")."""
    return any(word in _MOVIE_WORDS for word in fold(text).split())
