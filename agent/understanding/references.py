"""References to what the user was just shown (DESIGN 10.1), read in code.

"apaga o 2", "mostra a segunda", "remove o último", "delete number 3", "show me the last
one", "apaga esse", "delete it", "marca o 2", "muda o 2 para comprar leite sem lactose",
"change the year of the first one to 1999": a verb (delete, show, bookmark, edit) and one
reference to a line of the conversation's shelf (agent/conversation/shelf.py). A
reference is a display number ("o 2", "#2", "número 2", "item 2", "a nota 2"), an ordinal
("a segunda", "the third one", "o último", "a penúltima nota"), or a word naming the one
item the last reply was about ("esse", "ele", "isso", "it", "that one"). A bare
reference ("o 2", "the last one") is read as "show". A save ("salva ele", "save the first
one", "add both", "salva ele tb, é filme") points instead at titles named off the list, by
the last reply or the user's last message (`named_titles` reads a message's).

The whole message must be the request: "apaga o 2 e o 3" or "apaga a nota do dentista"
are not references (the planner, or the search, takes them). An edit needs its new value
written out after "para" / "to" / ":"; the value is cut from the message as written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final, Literal

from agent.understanding.batches import cut_tail, read_batch
from agent.understanding.kinds import correction
from agent.understanding.vocabulary import ItemType

Action = Literal["delete", "show", "bookmark", "edit", "save"]
# "both": the two things just named ("salva os dois", "add both"); only a save reads it
TargetKind = Literal["number", "ordinal", "pronoun", "both"]
Field = Literal["year", "title", "text"]


@dataclass(frozen=True, slots=True)
class Target:
    kind: TargetKind
    value: int = 0  # a display number; an ordinal 1-based, -1 the last, -2 the one before
    type: ItemType | None = None  # "a segunda nota": the second note on the shelf


@dataclass(frozen=True, slots=True)
class Reference:
    action: Action
    target: Target
    field: Field | None = None  # an edit: which field ("o ano", "the title"), None: the main one
    value: str = ""  # an edit: the new value as the user wrote it
    note: str = ""  # a bookmark: what the user said to keep with it
    bare: bool = False  # no verb: "o 2", "the last one" (read as "show")
    # "na verdade é o de 2021": a correction of the item just named, when it fits it
    correction: bool = False
    # "corrige: X": the new text of the item the user's last effect saved or changed
    fix: bool = False
    # "devia ser X, não Y": the title the corrected line has now; it must be Y or nothing changes
    instead_of: str = ""


_ORDINALS: Final[dict[str, int]] = {
    **{
        w: i
        for i, w in enumerate(
            "primeiro segundo terceiro quarto quinto sexto setimo oitavo nono decimo".split(), 1
        )
    },
    **{
        w: i
        for i, w in enumerate(
            "primeira segunda terceira quarta quinta sexta setima oitava nona decima".split(), 1
        )
    },
    **{
        w: i
        for i, w in enumerate(
            "first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1
        )
    },
    "ultimo": -1,
    "ultima": -1,
    "last": -1,
    "penultimo": -2,
    "penultima": -2,
}
_ORDINAL_PHRASES: Final[dict[str, int]] = {
    "second to last": -2,
    "second last": -2,
    "next to last": -2,
    "latest": -1,
}
_CARDINALS: Final[dict[str, int]] = {
    **{w: i for i, w in enumerate("um dois tres quatro cinco seis sete oito nove dez".split(), 1)},
    **{w: i for i, w in enumerate("one two three four five six seven eight nine ten".split(), 1)},
    "uma": 1,
}
_TYPE_NOUNS: Final[dict[str, ItemType]] = {
    **dict.fromkeys("nota notas anotacao note notes".split(), "note"),
    **dict.fromkeys("filme filmes movie movies film".split(), "movie"),
    **dict.fromkeys("serie series seriado show shows".split(), "tv_show"),
    **dict.fromkeys("video videos".split(), "video"),
    **dict.fromkeys("link links site".split(), "link"),
}
_PRONOUNS: Final = (
    *"esse essa este esta isso isto ele ela aquele aquela aquilo it that this".split(),
    "o mesmo",
    "a mesma",
    "the same",
)

_VERBS: Final[dict[Action, str]] = {
    "delete": (
        r"apag[ae]r?|apague|delet[ae]r?|exclu[ia]r?|exclua|remov[ae]r?|remova|tir[ae]r?|"
        r"delete|remove|erase|get rid of|drop|trash"
    ),
    "show": (
        r"(?:me )?mostr[ae]r?|(?:me )?mostre|abr[ae]|abrir|ver|veja|exib[ae]r?|exiba|"
        r"(?:me )?mand[ae]|(?:me )?envi[ae]|send(?: me)?|resend|"
        r"(?:me )?(?:fala|conta|diz) (?:d?[oa]|sobre o|sobre a)|detalhes d[oa]|"
        r"show(?: me)?|open|see|view|display|details of|details for|tell me about|"
        r"o que e|o que era|qual e|qual era|what s|whats|what is|what was"
    ),
    "bookmark": (
        r"marc[ae]r?|marque|favorit[ae]r?|favorite|favourite|bookmark|star|pin|"
        r"guarda (?:como|nos) (?:favorito|favoritos|marcador|marcadores)"
    ),
    # a save points only at titles named off the list (agent/conversation/pointing.py)
    "save": (
        r"salv[ae]r?|guard[ae]r?|guarde|adicion[ae]r?|adicione|bot[ae]r?|coloc[ae]r?|coloque|"
        r"poe|add|save|put|keep|store"
    ),
    "edit": (
        r"mud[ae]r?|alter[ae]r?|altere|troc[ae]r?|troque|corrig[ei]r?|corrija|renomei[ae]|"
        r"renomear|edit[ae]r?|atualiz[ae]r?|atualize|change|rename|edit|update|fix|correct|set"
    ),
}
_LEAD: Final = (
    r"(?:(?:por favor|pfv|pf|please|pls|pode|voce pode|vc pode|can you|could you|cool|nice|great|"
    r"beleza|blz|legal|massa|show|ah ta|ata|hmm|hm|yeah|then|"
    r"quero|queria|i want to|i d like to|id like to|e|and|ok|agora|now|entao|so|tb|tambem|"
    r"actually|na verdade|na real|na vdd|ops|oops|opa|ah|oh|alias|wait|espera|pera|sorry|"
    r"desculpa)\s+)*"
)
_TAIL: Final = (
    r"(?:\s+(?:da lista|na lista|of the list|from the list|on the list|from my list|"
    r"da minha lista|ai|ae|please|por favor|pfv|pls|pra mim|for me|tambem|tb|tbm|too|entao|"
    r"agora|now|mesmo|then|one|item|opcao|option|como favorito|as a favorite|"
    r"as favorite|nos favoritos|to favorites|de novo|again|outra vez|once more))*"
)
_ARTICLE: Final = r"(?:(?:o|a|os|as|the|um|uma|no|na|do|da)\s+)?"
_NUMBER_LEAD: Final = r"(?:(?:numero|num|nr|n|no|item|opcao|option|number|linha|line)\s+)?(?:#\s*)?"
_TYPE: Final = rf"(?P<noun>{'|'.join(sorted(_TYPE_NOUNS, key=len, reverse=True))})"
_ORD: Final = "|".join(
    re.escape(w) for w in sorted([*_ORDINALS, *_ORDINAL_PHRASES], key=len, reverse=True)
)
_CARD: Final = "|".join(sorted(_CARDINALS, key=len, reverse=True))
_PRON: Final = "|".join(re.escape(w) for w in sorted(_PRONOUNS, key=len, reverse=True))
_REF: Final = (
    rf"{_ARTICLE}(?:{_TYPE}\s+)?{_NUMBER_LEAD}(?P<num>\d{{1,3}})(?:o|a|st|nd|rd|th)?"
    rf"|{_ARTICLE}(?:numero|number|item|opcao|option|n)\s+(?P<card>{_CARD})"
    rf"|{_ARTICLE}(?P<ord>{_ORD})(?:\s+(?:{_TYPE.replace('noun', 'onoun')}))?(?:\s+(?:one|item|opcao|option))?"
    rf"|(?:{_ARTICLE}{_TYPE.replace('noun', 'pnoun')}\s+)?(?P<pron>{_PRON})(?:\s+(?:one|item|{_TYPE.replace('noun', 'tnoun')}))?"
)
_FIELDS: Final[dict[str, Field]] = {
    **dict.fromkeys("ano year data date".split(), "year"),
    **dict.fromkeys("titulo title nome name".split(), "title"),
    **dict.fromkeys("texto text conteudo content".split(), "text"),
}
_FIELD: Final = rf"(?P<field>{'|'.join(_FIELDS)})"
_TO: Final = r"\s*(?:\s(?:para|pra|p|por|pro|to|into|as)\s|:|=|->|→)\s*"  # "p/": para

_ACTION_RES: Final[dict[Action, re.Pattern[str]]] = {
    action: re.compile(rf"^{_LEAD}(?:{verbs})\s+(?:{_REF}){_TAIL}$")
    for action, verbs in _VERBS.items()
    if action not in ("edit", "save")
}
_BOTH: Final = (
    r"(?P<both>(?:os|as)\s+(?:dois|duas|2)|ambos|ambas|both(?:\s+of\s+them)?|(?:the|those)\s+two|"
    r"them\s+both|eles\s+dois|elas\s+duas)"
)
# what a save says of what was just named when it names nothing: "salva mesmo assim", "add it
# anyway": "it", the title shown
_ANYWAY: Final = (
    r"mesmo assim|assim mesmo|anyway|anyways|de qualquer jeito|de qualquer forma|all the same|"
    r"even so"
)
_SAVE: Final = re.compile(
    rf"^{_LEAD}(?:{_VERBS['save']})\s+(?:{_BOTH}|(?:{_REF})(?:\s+(?:{_ANYWAY}))?|{_ANYWAY}){_TAIL}$"
)
_BARE: Final = re.compile(rf"^{_LEAD}(?:{_REF}){_TAIL}$")
_EDIT: Final = re.compile(
    rf"^{_LEAD}(?:{_VERBS['edit']})\s+(?:(?:o|a|the)\s+)?(?:{_FIELD}\s+(?:d[oae]s?|of|for|on)\s+)?"
    rf"(?:{_REF})(?P<to>{_TO})(?P<value>\S.*)$",
    re.DOTALL,
)
# "muda o título pra X", "change the year to 1999": a field of the item just named
_EDIT_FIELD: Final = re.compile(
    rf"^{_LEAD}(?:{_VERBS['edit']})\s+(?:(?:o|a|the)\s+)?{_FIELD}"
    rf"(?:\s+(?:dele|dela|disso|of it|of that))?"
    rf"(?P<to>{_TO}|\s+(?:it s|its|it is|it should be|e|eh|seria|o certo e)\s+)(?P<value>\S.*)$",
    re.DOTALL,
)
_BOOKMARK_NOTE: Final = re.compile(
    rf"^{_LEAD}(?:{_VERBS['bookmark']})\s+(?:{_REF})(?:\s*[,:-]\s*|\s+(?:pra|para|to|for)\s+)(?P<note>\S.*)$",
    re.DOTALL,
)


def fold_same_length(text: str) -> str:
    """Lowercase without accents, one character for one, so spans index the original text."""
    out = []
    for ch in text:
        # "ª", "º" and "²" are "a", "o" and "2"; only the first character of an expansion
        base = (unicodedata.normalize("NFKD", ch)[:1] or ch).lower()
        out.append(base if len(base) == 1 else ch)
    return "".join(out)


def _words(text: str) -> str:
    """`text` folded, its punctuation (except "#") as spaces, squeezed."""
    folded = fold_same_length(text)
    return " ".join(re.sub(r"[^\w#]+", " ", folded.replace("#", " # ")).split())


def _target(match: re.Match[str]) -> Target:
    groups = match.groupdict()
    if groups.get("num"):
        return Target("number", int(groups["num"]), _TYPE_NOUNS.get(groups.get("noun") or ""))
    if groups.get("card"):
        return Target("number", _CARDINALS[groups["card"]])
    if groups.get("ord"):
        word = groups["ord"]
        value = _ORDINALS.get(word, _ORDINAL_PHRASES.get(word, 0))
        return Target("ordinal", value, _TYPE_NOUNS.get(groups.get("onoun") or ""))
    noun = groups.get("pnoun") or groups.get("tnoun") or ""
    return Target("pronoun", 0, _TYPE_NOUNS.get(noun))


_CORRECT_YEAR: Final = re.compile(
    r"^(?:(?:na verdade|na real|na vdd|alias|opa|ops|oops|nao|no|actually|sorry|desculpa|wait|"
    r"espera|pera|perai|errei|ih|e|and|so|entao|me confundi|confundi|me enganei|my bad)\s+)*"
    r"(?:(?:e|era|sera|it s|its|it is|it was|it should be|"
    r"i meant|eu quis dizer|quis dizer|(?:eu\s+)?(?:quero|queria)|i want|i wanted)\s+)?(?:(?:o|a|the)\s+(?:(?:one|filme|serie|movie|show|"
    r"versao|version)\s+)?(?:de|do|da|from|of|in)\s+(?P<year>\d{4})|the\s+(?P<year_en>\d{4})\s+"
    r"(?:one|version|movie|show|film))(?:\s+(?:one|version|versao|mesmo|na verdade|na vdd|"
    r"na real|actually|then|entao))*$"
)


# "corrige: a senha é 1234", "fix: Interstellar": the new text of the item just named
_HEADED_FIX: Final = re.compile(
    r"^(?:(?:na verdade|actually|ops|oops|opa)[,\s]+)?(?:corrige|corrija|corrigir|correcao|"
    r"conserta|conserte|arruma|arrume|fix|correct|correction|errata)\s*:\s*(?P<value>\S.*)$",
    re.DOTALL,
)


# "na verdade é Severance, me confundi", "actually it's Heat, sorry", "i meant Arrival": the title
# the item just saved should have had, said alone after a lead that corrects (a reason after it)
_SAID_INSTEAD: Final = re.compile(
    r"^(?:(?:na verdade|na real|na vdd|alias|opa|ops|oops|nao|no|actually|sorry|desculpa|"
    r"errei|me enganei|my bad|wait|hang on|hold on|pera|ih|"
    # a slip of the typing owned: "escrevi errado, é X", "typo, it's X"
    r"(?:escrevi|digitei|botei|coloquei)\s+errado|errei o nome|typo|(?:i\s+)?misspelled(?:\s+it)?|"
    r"k{3,}|(?:ha){2,}|lol)\s+)+(?:(?P<cop>e|eh|era|it s|its|it is|it was"
    r"|(?P<said>i meant|quis dizer|eu quis dizer))\s+)?"
    r"(?P<value>[^\W_][^,;]*?)\s*(?:[,;].*)?$"
    r"|^(?:(?:na verdade|actually|ops|oops|sorry)\s+)*(?:i meant|quis dizer|eu quis dizer)\s+"
    r"(?P<meant>[^\W_][^,;]*?)\s*(?:[,;].*)?$",
    re.DOTALL,
)
_IN_FACT: Final = r"(?:na verdade|na vdd|na real|actually|really|in fact)"
_IS: Final = r"(?:e|eh|era|is|was|s)"
# "actually the second one should be The Insider, not Ronin", "o segundo era pra ser Fogo
# Contra Fogo": a line of the shelf and the title it should have
_SHOULD_BE: Final = re.compile(
    rf"^{_LEAD}(?:{_REF})\s+(?:should be|should have been|was meant to be|was supposed to be|"
    r"deveria ser|devia ser|era pra ser|era para ser|tem que ser|"
    # "is actually", "na vdd é": a plain "is" corrects only beside a word that says so
    rf"{_IN_FACT}\s+{_IS}|{_IS}\s+{_IN_FACT})\s+(?P<value>[^\W_][^,;]*?)"
    r"(?:\s*[,;]?\s*(?:not|nao|e nao|and not|instead of|em vez de|no lugar de)\s+[^,;]+)?"
    r"\s*(?:[,;].*)?$",
    re.DOTALL,
)
# ", não Carol", "not Ronin": the title a correction takes back, said after the new one
_NEGATED_CLAUSE: Final = re.compile(
    r"^\s*(?:e nao|and not|not|nao|nem|nor|instead of|em vez de|no lugar de)\s+(?:(?:e|eh|is|o|a|the)\s+)?"
    r"(?P<title>\S.*?)\s*$",
    re.DOTALL,
)
# "não é Heat, é Ronin", "it isn't Heat": the lead denies the title that follows it
_DENIED: Final = re.compile(r"\b(?:nao|not)\s+(?:e|eh|era|seria|is|was)\b|\b(?:isn|wasn)\b")
_NOT_A_TITLE: Final = re.compile(
    r"^(?:um|uma|o de|a de|the one|de|from|in|em|pra|para|to|at|as|so|just|isso|that|this|it)\b"
    rf"|\b(?:{'|'.join(_TYPE_NOUNS)})\b|^\d[\dh:.\s]*(?:h|am|pm|min)?$"
)


_INLINE_NOT_CORRECTION: Final = re.compile(
    r"(?i)\s+(?:e\s+n[aã]o|and\s+not|not|n[aã]o|instead\s+of|em\s+vez\s+de|no\s+lugar\s+de)\s+"
)
_YEAR_CORRECTED: Final = re.compile(r"(?:18|19|20)\d\d")


def _squeezed(raw: str) -> tuple[str, list[int]]:
    """`_spaced(raw)` with each run of spaces as one, and where each character was in `raw`."""
    spaced = _spaced(raw)
    chars: list[str] = []
    at: list[int] = []
    for i, ch in enumerate(spaced):
        if ch.isspace() and (not chars or chars[-1] == " "):
            continue
        chars.append(" " if ch.isspace() else ch)
        at.append(i)
    while chars and chars[-1] == " ":
        chars.pop()
        at.pop()
    return "".join(chars), at


def _corrected_title(raw: str) -> Reference | None:
    """The title the item just saved (or a shelf line) should have, said as a correction."""
    if "?" in raw:
        return None  # a question corrects nothing
    spaced, at = _squeezed(raw)
    should = _SHOULD_BE.match(spaced)
    said = should or _SAID_INSTEAD.match(spaced)
    if said is None:
        return None
    group = next(g for g in ("value", "meant") if said.groupdict().get(g))
    if _DENIED.search(fold_same_length(raw[: at[said.start(group)]])):
        return None  # "na verdade não é Heat, é Ronin": the title said is the one it is not
    start, end = at[said.start(group)], at[said.end(group) - 1] + 1
    end += raw[end : end + 1] == ")"  # "Zodiac (2007)": the year's closing mark is the value's
    said_alone = re.split(r"[,;]", raw[start:end])[0]
    value = said_alone.strip(" \"'«»“”.!")  # ", me confundi": why, not the title
    # "it's 2010 not 2008", "é Ronin e não Heat": the one taken back said in the same clause
    value, *taken_back = _INLINE_NOT_CORRECTION.split(value, maxsplit=1)
    value = value.strip(" \"'«»“”.!")
    if _YEAR_CORRECTED.fullmatch(value):
        # a year is a year, never a title: "wait, it's 2010 not 2008" fixes the year
        back = taken_back[0].strip(" .!") if taken_back else ""
        if back and not _YEAR_CORRECTED.fullmatch(back):
            return None
        return Reference(
            "edit",
            Target("pronoun"),
            field="year",
            value=value,
            correction=True,
            fix=True,
            instead_of=back,
        )
    folded = fold_same_length(value)
    if not value or len(value.split()) > 8 or _NOT_A_TITLE.search(folded):
        return None
    last = value.split()[-1].strip("()")
    if value[0].isupper() and not (last[:1].isupper() or last[-1:].isdigit()):
        return None  # "Netflix now", "Heat é bom": a sentence goes on after the title
    instead = _instead_of(raw[start + len(said_alone) :])
    if instead is None or (taken_back and instead):
        return None
    instead = instead or (taken_back[0].strip(" \"'«»“”.!") if taken_back else "")
    meant = group == "meant" or bool(said.groupdict().get("said"))
    if not meant and not value[0].isupper() and not value[0].isdigit():
        return None  # "na verdade é ótimo": an opinion as likely as a title written lowercase
    if should is None and not meant and not said.groupdict().get("cop"):
        # no "é"/"it's": only words written as a title ("ops, Heat"), never a sentence
        # ("no Netflix tem", "opa Pedro chegou")
        if any(len(w) > 3 and not (w[0].isupper() or w[0].isdigit()) for w in value.split()):
            return None
        if fold_same_length(raw).lstrip().startswith(("no ", "nao ")):
            return None  # "no X" is "on X" as likely as "no, X"
    if should is not None:
        target = _target(should)
        return Reference(
            "edit", target, field="title", value=value, correction=True, instead_of=instead
        )
    return Reference(
        "edit",
        Target("pronoun"),
        field="title",
        value=value,
        correction=True,
        fix=True,
        instead_of=instead,
    )


def _instead_of(tail: str) -> str | None:
    """The title the clauses after a corrected title take back ("..., não Carol"), "" when
    they name none; None when they deny more than one."""
    clauses = [c for c in re.split(r"[,;]", tail) if c.strip()]
    denied = [(c, m) for c in clauses if (m := _NEGATED_CLAUSE.match(fold_same_length(c)))]
    if len(denied) > 1:
        return None
    if not denied:
        return ""
    clause, match = denied[0]
    return clause[match.start("title") :].strip(" \"'«»“”.!")


def read_reference(text: str) -> Reference | None:
    """The shelf reference `text` is, or None when it is anything else."""
    raw = text.strip()
    if not raw or len(raw) > 500 or raw.startswith("/"):
        return None
    if (save := _read_save(raw)) is not None:
        return save
    # "muda essa nota pra: X": the colon after "pra"/"to" only opens the new value
    raw = re.sub(r"(?i)\b(pra|para|to)\s*:\s*(?=\S)", r"\1 ", raw, count=1)
    edit = _read_edit(raw)
    if edit is not None:
        return edit
    field = _EDIT_FIELD.match(_spaced(raw))
    if field is not None:
        value = raw[field.start("value") :].strip().strip("\"'«»“”")
        named = _FIELDS.get(field.group("field"))
        return (
            Reference("edit", Target("pronoun"), field=named, value=value, fix=True)
            if value
            else None
        )
    fix = _HEADED_FIX.match(_spaced(raw))
    if fix is not None:
        value = raw[fix.start("value") :].strip().strip("\"'«»“”")
        return Reference("edit", Target("pronoun"), value=value, fix=True) if value else None
    words = _words(raw)
    if not words or len(words.split()) > 12:
        return None
    year = _CORRECT_YEAR.match(words)
    if year is not None:
        said = year.group("year") or year.group("year_en")
        return Reference("edit", Target("pronoun"), field="year", value=said, correction=True)
    if (instead := _corrected_title(raw)) is not None:
        return instead
    for action, pattern in _ACTION_RES.items():
        match = pattern.match(words)
        if match is not None:
            return Reference(action, _target(match))
    noted = _BOOKMARK_NOTE.match(_spaced(raw))
    if noted is not None:
        return Reference("bookmark", _target(noted), note=raw[noted.start("note") :].strip())
    match = _BARE.match(words)
    if match is not None and not match.group("pron"):  # "isso" alone is no request
        return Reference("show", _target(match), bare=True)
    return None


# "apaga a série Irmandade e o link tb", "delete Dune, Tenet and that note": one delete verb
# and two or more things named, each on its own (agent/conversation/deleting.py resolves them)
_DELETE_NAMES: Final = re.compile(rf"^{_LEAD}(?:{_VERBS['delete']})\s+(?P<body>.+?){_TAIL}$")
_NAMES_JOINED: Final = re.compile(r"\s*,\s*(?:(?:e|and|&)\s+)?|\s+(?:e|and|&)\s+")
MAX_DELETED_NAMES: Final = 5


def deleted_names(text: str) -> tuple[str, ...] | None:
    """The two or more things one deletion names ("a serie irmandade", "o link"), folded, or
    None: one thing, a question, a line break, or a part that points at the shelf ("o 2",
    "esse") rather than naming something."""
    raw = text.strip()
    if not raw or len(raw) > 300 or "?" in raw or "\n" in raw:
        return None
    said = " ".join(re.sub(r"[^\w#,&]+", " ", fold_same_length(raw)).split())
    match = _DELETE_NAMES.match(re.sub(r"\s*,\s*", ", ", said).strip(" ,"))
    if match is None:
        return None
    parts = tuple(p.strip(" ,") for p in _NAMES_JOINED.split(match.group("body")))
    if not 2 <= len(parts) <= MAX_DELETED_NAMES or not all(parts):
        return None
    if any(_points(p) or _BOTH_ALONE.match(p) for p in parts):
        return None  # "o 2 e o 3", "esse e o outro": the shelf's readers
    return parts


def _points(part: str) -> bool:
    """Whether `part` points at a line or at the item just named ("o 2", "a segunda", "esse")
    rather than at the newest of a type ("that note", "esse link")."""
    match = _BARE.match(part)
    if match is None:
        return False
    return not (match.group("pron") and (match.group("pnoun") or match.group("tnoun")))


_BOTH_ALONE: Final = re.compile(rf"^(?:{_BOTH}|(?:o|a|the)\s+outr[oa]|the\s+other(?:\s+one)?)$")


def saves_it(text: str) -> bool:
    """Whether `text` is a save of "it" and nothing more ("save that", "keep it", "só guarda
    isso"): the yes to an offer to keep the message the last reply made."""
    ref = _read_save(text.strip()) if len(text) <= 500 else None
    return ref is not None and ref.target.kind == "pronoun" and ref.target.type is None


def _read_save(raw: str) -> Reference | None:
    """ "salva ele", "save the first one", "add both", "salva ele tb, é filme", "salva ele pra
    eu rever": a save of something named before, with the type said after a comma, if one;
    None for anything else (a question saves nothing)."""
    if "?" in raw:
        return None
    said, _, typed = raw.rpartition(",")
    said_type: ItemType | None = correction(typed) if said.strip() else None
    body = cut_tail(said if said_type is not None else raw)[0]  # "pra eu rever", "na lista"
    words = _words(body)
    saved_as = _SAVED_AS.search(words)  # "salva os dois como filme": the type, not a title
    if saved_as is not None:
        words = words[: saved_as.start()]
        said_type = said_type or _TYPE_NOUNS[saved_as.group("as")]
    match = _SAVE.match(cut_tail(words)[0])
    if match is None:
        return None
    if match.group("both"):
        return Reference("save", Target("both", 2, said_type))
    target = _target(match)
    if target.kind == "number":
        return None  # "salva o 300" names a title as likely as a line
    return Reference("save", Target(target.kind, target.value, said_type or target.type))


# "como filme", "as a show": the type a save is made as, said after what it points at
_SAVED_AS: Final = re.compile(
    r"\s+(?:como|as)\s+(?:(?:um|uma|a|an)\s+)?(?P<as>filmes?|films?|movies?|series?|shows?|notas?|notes?)$"
)


def named_titles(text: str) -> tuple[tuple[ItemType, str], ...]:
    """The titles `text` names with their type, in order: "two films, Past Lives and
    Aftersun", "os filmes A e B", "o filme Cidade de Deus", "the show Severance"; empty when
    it names none for sure (a title must be written as one: capitalised or a number)."""
    raw = text.strip()
    if not raw or len(raw) > 500:
        return ()
    plural = _PLURAL_NAMED.search(raw)
    if plural is not None:
        listed = _LIST_END.split(raw[plural.start() :])[0]
        batch = read_batch("salva " + listed, split_and=True)
        if batch is not None and batch.kind == "titles" and batch.item_type is not None:
            kind = batch.item_type
            return tuple((kind, p) for p in batch.pieces if _written_as_title(p))
        return ()
    found: list[tuple[ItemType, str]] = []
    for one in _ONE_NAMED.finditer(raw):
        title = _SENTENCE_END.split(one.group("title"))[0].strip(" \"'«»“”")
        if _written_as_title(title) and len(title.split()) <= 8:
            found.append((_TYPE_NOUNS[fold_same_length(one.group("noun")).lower()], title))
    return tuple(found)


_PLURAL_NAMED: Final = re.compile(
    r"(?i)\b(?:(?:dois|duas|tres|três|two|three|uns|umas|some|os|as|these|the)\s+)?"
    r"(?:filmes|films|movies|s[ée]ries|shows)\s*[:,]"
)
_ONE_NAMED: Final = re.compile(
    r"(?i)\b(?:o|a|the|um|uma|a|an)\s+(?P<noun>filme|film|movie|s[ée]rie|show)\s+"
    r"(?P<title>[^\W_][^?!;\n]*)"
)
_LIST_END: Final = re.compile(r"\s*(?:[?!;\n]|\.(?:\s|$))")
_SENTENCE_END: Final = re.compile(r"\s*(?:[?!;\n]|\.(?:\s|$)|,\s)")


def _written_as_title(piece: str) -> bool:
    """Whether `piece` is written as a title: every word of four letters or more capitalised
    (or a number), so "Severance is great" is a sentence, not a title."""
    words = piece.split()
    return (
        bool(words)
        and all(w[0].isupper() or w[0].isdigit() for w in words if len(w) > 3)
        and (words[0][0].isupper() or words[0][0].isdigit())
    )


def shelf_target(text: str) -> Target | None:
    """The shelf line `text` names alone ("o 2", "a segunda", "esse", "that one"), or None."""
    words = _words(text)
    if not words or len(words.split()) > 6:
        return None
    match = _BARE.match(words)
    return _target(match) if match is not None else None


def _spaced(raw: str) -> str:
    """`raw` folded, punctuation as spaces, one character for one (spans index `raw`)."""
    return re.sub(r"[^\w#:=>→\-\s]", " ", fold_same_length(raw))


def _read_edit(raw: str) -> Reference | None:
    match = _EDIT.match(_spaced(raw))
    if match is None:
        return None
    value = raw[match.start("value") :].strip().strip("\"'«»“”")
    if not value or _words(value) in _PRONOUNS:
        return None
    field = _FIELDS.get(match.group("field") or "")
    return Reference("edit", _target(match), field=field, value=value)
