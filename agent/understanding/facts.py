"""Facts a message states about the item just saved or named, read in code (issue 41).

"e o ano é 1982", "é de 2015 na vdd", "it's from 1982 actually", "o ano tá errado, é
2010", "the year is wrong, it's 2010", "o diretor é o Nolan", "the director is Mann btw":
a statement, not a request. Its shape is general: an attribute of a film, show or note
(its year, title, director, cast, genre, seasons...) with a copula ("é", "is", "foi",
"tá errado, é") and a value; or the item itself said to be of a year ("é de 2014",
"it's from 1982"). A statement never names a new thing to save.

What the attribute is decides what can be done: the year and the title are the item's own
fields (an edit of the item the conversation is about); anything else (the director, the
cast) is a field Lembra does not keep, so the message is planned with no save offered.
A question ("o ano é 1982?") states nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from agent.understanding.references import fold_same_length
from agent.understanding.vocabulary import ANOTHER_REQUEST, TYPE_WORDS, ItemType

Field = Literal["year", "title"]


@dataclass(frozen=True, slots=True)
class Fact:
    attribute: str  # the attribute as folded ("ano", "director"); "" for the item itself
    field: Field | None  # the item's own field it sets; None: one Lembra does not keep
    value: str  # the value as the user wrote it ("1982", "Interestelar", "o Nolan")


# a type's word, singular, names the item of that type ("a série é X"), typed as the list reads it
TYPED: Final[dict[str, ItemType]] = {
    w: TYPE_WORDS[w] for w in "filme movie film serie seriado show series".split()
}
_FIELDS: Final[dict[str, Field | None]] = {
    **dict.fromkeys("ano year lancamento release".split(), "year"),
    **dict.fromkeys("titulo title nome name".split(), "title"),
    # "ah escrevi errado, a série é Irmandade": the item of that type named again, as a fix
    **dict.fromkeys(TYPED, "title"),
    **dict.fromkeys(
        """diretor diretora direcao director direction ator atriz atores actor actress actors
        protagonista protagonistas lead star estrela elenco cast genero genre autor autora author
        roteirista roteiro writer script estudio studio produtora producer pais country idioma
        lingua language duracao length runtime temporada temporadas season seasons episodio
        episodios episode episodes trilha soundtrack plataforma platform canal network
        criador criadora creator""".split(),
        None,
    ),
}
_LEAD: Final = (
    r"(?:(?:e|and|nao|no|ah|oh|ops|opa|oops|epa|alias|actually|btw|by\s+the\s+way|so|entao|sorry|"
    r"desculpa|wait|espera|pera|tipo|na\s+verdade|na\s+real|na\s+vdd|fyi|ok|mas|but|"
    r"(?:so\s+)?pra\s+constar|just\s+so\s+you\s+know|detalhe|correcao|correction|"
    r"(?:escrevi|digitei|botei|coloquei)\s+errado|errei|engano\s+meu|my\s+bad|typo|"
    r"(?:corrige|corrija|corrigindo|conserta|arruma|correct|correcting|fix)(?:\s+(?:isso|that|it))?|"
    r"k{3,}|(?:ha){2,}|(?:rs)+)\s+)*"
)
_TAIL: Final = (
    r"(?:\s+(?:na\s+verdade|na\s+real|na\s+vdd|actually|btw|by\s+the\s+way|tb|tbm|tambem|too|"
    r"viu|ne|blz|mesmo|msm|tipo|i\s+think|eu\s+acho|acho|inclusive|ok))*\s*$"
)
_DET: Final = r"(?:(?:o|a|os|as|the|its|seu|sua)\s+)?"
_ATTR: Final = rf"(?P<attr>{'|'.join(sorted(_FIELDS, key=len, reverse=True))})"
_OF: Final = (
    r"(?:\s+(?:dele|dela|disso|do\s+filme|da\s+serie|do\s+seriado|of\s+it|of\s+that|"
    r"of\s+the\s+(?:movie|film|show|series))\s*)?"
)
_COPULA: Final = (
    r"(?:e|eh|is|s|was|foi|era|sao|are|were|seria|should\s+be|deveria\s+ser|devia\s+ser|"
    r"tem\s+que\s+ser|has\s+to\s+be|o\s+certo\s+e|o\s+correto\s+e)"
)
_WRONG: Final = (
    r"(?:(?:ta|esta|is|s|ficou|saiu|veio|was)\s+)?(?:errad[oa]|wrong|incorret[oa]|incorrect|"
    r"trocad[oa])"
)
_AFTER_WRONG: Final = (
    r"(?:\s+(?:na\s+verdade|na\s+real|na\s+vdd|actually|it\s+s|its|it\s+is|e|eh|o\s+certo\s+e|"
    r"o\s+correto\s+e|the\s+right\s+one\s+is|should\s+be|era\s+pra\s+ser|deveria\s+ser|"
    r"devia\s+ser|is|it\s+should\s+be))*"
)
# "o ano é 1982", "the director is Nolan", "o ano tá errado, é 2010"
# "o nome certo é X", "the right year is X", "the new code is X"
_RIGHT: Final = r"(?:certo|certa|correto|correta|real|right|correct|novo|nova|new)"
_ATTRIBUTE: Final = re.compile(
    rf"^{_LEAD}{_DET}(?:{_RIGHT}\s+)?{_ATTR}(?:\s+{_RIGHT})?{_OF}\s+"
    rf"(?:{_WRONG}{_AFTER_WRONG}|{_COPULA})\s+(?:(?:o|a|os|as|the)\s+)?(?P<value>\S.*?){_TAIL}",
    re.DOTALL,
)
# "tá errado o ano, é 2019", "wrong year, it's 2019"
_WRONG_FIRST: Final = re.compile(
    rf"^{_LEAD}{_WRONG}\s+{_DET}{_ATTR}{_OF}{_AFTER_WRONG}\s+(?:(?:o|a|os|as|the)\s+)?"
    rf"(?P<value>\S.*?){_TAIL}",
    re.DOTALL,
)
_ITEM: Final = (
    r"(?:(?:o\s+filme|a\s+serie|o\s+seriado|the\s+movie|the\s+film|the\s+show|the\s+series|"
    r"this\s+one|that\s+one|it|ele|ela|isso|esse|essa|this|that)\s+)?"
)
# ", não 2015", "not 2008", "instead of 2008": the year a correction takes back
_YEAR_TAKEN_BACK: Final = (
    r"(?:e\s+)?(?:nao|not|instead\s+of|em\s+vez\s+de|no\s+lugar\s+de)\s+(?:(?:de|from)\s+)?"
    r"(?:18|19|20)\d\d"
)
# "é de 2014 na real", "it's from 1982 actually", "saiu em 2015"
_OF_YEAR: Final = re.compile(
    rf"^{_LEAD}{_ITEM}(?P<cop>e|eh|is|s|was|foi|era|saiu|lancado|lancada|released|came\s+out)"
    rf"\s+(?:(?:de|do|da|from|of|in|em)\s+)?(?P<value>(?:18|19|20)\d\d)"
    rf"(?:\s+{_YEAR_TAKEN_BACK})?{_TAIL}"
)
_YEAR: Final = re.compile(r"^(?:18|19|20)\d\d$")
_YEAR_BACK_CUT: Final = re.compile(r"[\s,;]+(?:e\s+)?(?:nao|not|instead\s+of|em\s+vez\s+de)\s+")
_FIXING: Final = re.compile(
    r"\b(?:certo|certa|correto|correta|right|correct|errado|errada|wrong|verdade|actually|vdd"
    r"|real|escrevi|typo|digitei)\b"
)


def read_fact(text: str) -> Fact | None:
    """The fact `text` states about the item just named, or None when it states none."""
    raw = text.strip()
    if not raw or len(raw) > 200 or "?" in raw or "\n" in raw or raw.startswith("/"):
        return None
    # folded one character for one, punctuation as spaces: spans index the message as written
    spaced = re.sub(r"[^\w\s]", " ", fold_same_length(raw))
    year = _OF_YEAR.match(spaced)
    if year is not None:
        return Fact("", "year", year.group("value"))
    said = _ATTRIBUTE.match(spaced) or _WRONG_FIRST.match(spaced)
    if said is None:
        return None
    attribute = said.group("attr")
    field = _FIELDS[attribute]
    value = raw[said.start("value") : said.end("value")].strip().strip("\"'«»“”")
    if field == "year":  # "o ano certo é 2016, não 2015": the year taken back is no value
        value = _YEAR_BACK_CUT.split(fold_same_length(value), maxsplit=1)[0].strip(" ,")
    if not value or (field == "year" and not _YEAR.match(value)):
        return None
    if attribute in TYPED and not _FIXING.search(spaced):
        return None  # "o filme é muito bom": said of the film, no fix of its title
    if (
        field == "title"
        and value.islower()
        and len(value.split()) == 1
        and not _FIXING.search(spaced)
    ):
        # "o título é ótimo", "the title is misleading": an opinion as likely, unless the
        # words say it corrects ("o nome certo é interestelar", "wrong name, it's heat")
        return None
    return Fact(attribute, field, said_title(value) if field == "title" else value)


# ", com s", ", with two t's", ", sem acento": how the title is spelled, not part of it
_SPELLING: Final = re.compile(
    r"[,;]\s*(?:com|sem|with|without)\s+(?:(?:um|uma|dois|duas|a|an|two|double)\s+)?"
    r"(?:\w|\w\W?s|acento|accent|hifen|hyphen|espaco|space|maiuscula|capital)\s*[.!]*$",
    re.IGNORECASE,
)
_SAID_IS: Final = re.compile(
    r"^(?:(?:na verdade|actually)\s+)?(?:é|e|eh|is|it's|its|it is|o certo é|o certo e|o nome é|"
    r"o nome e|the title is)\s+",
    re.IGNORECASE,
)


def said_title(value: str) -> str:
    """A title as corrected in words: "é Interestelar, com e" -> "Interestelar"."""
    title = _SPELLING.sub("", value.strip())
    title = _SAID_IS.sub("", title).strip().strip("\"'«»“”").strip()
    return title or value.strip()


# "a senha é 1234", "the code is 4417": a value stated for words a note holds
_STATED: Final = re.compile(
    rf"^{_LEAD}{_DET}(?:{_RIGHT}\s+)?(?P<subject>[^\W\d]\w*(?:\s+[^\W\d]\w*){{0,2}})"
    rf"(?:\s+{_RIGHT})?\s+(?:{_WRONG}{_AFTER_WRONG}|{_COPULA})\s+(?P<value>\w+){_TAIL}",
)
_NOT_SUBJECTS: Final = frozenset(
    """isso isto esse essa ele ela it that this there what which who where when quando onde
    qual quem que o a the e is""".split()
)


def states_value(message: str) -> bool:
    """Whether `message` has the shape `restated` reads ("a senha é 1234", "the pin is 4417"),
    read on the message alone, so a note is fetched only for a message that may restate it."""
    return _stated(message) is not None


def restated(message: str, content: str) -> str | None:
    """`content` (a note) with the value `message` states for words it holds put in the old
    value's place: "a senha é 1234" on "senha do wifi 1233" -> "senha do wifi 1234". None
    unless it is certain: the words are in the note and one word after them has the new
    value's shape (digits for digits, letters and digits alike)."""
    stated = _stated(message)
    return put_value(content, *stated) if stated is not None else None


def _stated(message: str) -> tuple[list[str], str] | None:
    """The words `message` states a value for and the value ("a senha é 1234"), or None.

    Said among other clauses ("they changed it, the new code is 8193. update that note"),
    the one clause that states a value is read, when no other one asks for something else
    (a save, a reminder, a list) or states a second value."""
    raw = message.strip()
    if not raw or len(raw) > 200 or "?" in raw or "\n" in raw:
        return None
    clauses = [c for c in _CLAUSE_CUT.split(raw) if c.strip()]
    if len(clauses) == 1:
        return _stated_alone(raw)
    read = [said for c in clauses if (said := _stated_alone(c)) is not None]
    if len(read) != 1 or _ASKS_ELSE.search(fold_same_length(raw)):
        return None
    return read[0]


# a clause ends at a comma, a full stop or a semicolon before a space (never inside "1.5",
# "98888-1234" or "12,50")
_CLAUSE_CUT: Final = re.compile(r"[,.;!]+\s+")
# a request of another kind among the clauses: the message is more than a fix of the value
_ASKS_ELSE: Final = re.compile(
    r"\b(?:salv|anot|sav|add|adicion|guard|lembr|remind|marc|mark|list|mostr|show|busc|procur"
    r"|find|search|apag|delet|remov)\w*"
)


def _stated_alone(raw: str) -> tuple[list[str], str] | None:
    spaced = re.sub(r"[^\w\s]", " ", fold_same_length(raw))
    said = _STATED.match(spaced)
    if said is None:
        return None
    subject = said.group("subject").split()
    if any(word in _NOT_SUBJECTS or word in _FIELDS for word in subject):
        return None
    value = raw[said.start("value") : said.end("value")]
    if not any(c.isdigit() for c in value):
        return None  # "a reunião foi boa": a word of the same length is a comment, not a fix
    return subject, value


# "muda a senha do portão pra 7788", "change the locker code to 9090": words a note holds
# and the new value for the one word after them of the value's shape
_CHANGED: Final = re.compile(
    r"^(?:muda|mude|mudar|troca|troque|trocar|altera|altere|alterar|atualiza|atualize|corrige|"
    r"corrija|change|update|set|fix)\s+"
    r"(?:(?:o|a|os|as|the|my|meu|minha|essa|esse|esta|este|this|that)\s+)?"
    r"(?P<subject>[^\W\d]\w*(?:\s+[^\W\d]\w*){0,3})\s+(?:pra|para|pro|p|to|for)\s+"
    r"(?P<value>\w+(?:[-./]\w+)*)\s*$"
)
# "o codigo do portão mudou pra 7720, atualiza la na nota", "the gym code is now 4411": the
# words first, a new value with a digit (a statement, so only a value of that shape)
_CHANGED_SAID: Final = re.compile(
    r"^(?:(?:o|a|os|as|the|my|meu|minha)\s+)?(?P<subject>[^\W\d]\w*(?:\s+[^\W\d]\w*){0,3})\s+"
    r"(?:mudou\s+(?:pra|para|pro)|agora\s+e|changed\s+to|is\s+now|now\s+is)\s+"
    r"(?P<value>\w*\d\w*(?:[-./]\w+)*)"
    r"(?:\s+(?:atualiza|atualize|update|corrige|muda|troca|fix)(?:\s+(?:la|ai|isso|it|that))?"
    r"(?:\s+(?:na|the|in\s+the|on\s+the)\s+(?:nota|note))?)?\s*$"
)
_SMALL: Final = frozenset("de do da dos das of for the o a".split())


def changed_value(message: str) -> tuple[list[str], str] | None:
    """The words a note holds and the new value for them, when `message` asks to change
    them to one word ("muda a senha do portão pra 7788"); else None."""
    raw = message.strip()
    if not raw or len(raw) > 120 or "?" in raw or "\n" in raw:
        return None
    # "muda essa senha pra X, trocaram": a comma, a space and a word start why, not part of
    # the value ("pra abc,123" is one value)
    cut = re.search(r",\s+(?=[^\W\d_])", raw)
    why = raw[cut.end() :] if cut else ""
    if why.strip() and not ANOTHER_REQUEST.search(fold_same_length(why)):
        raw = raw[: cut.start()].strip() if cut else raw
    spaced = _spaced_values(fold_same_length(raw)).strip()
    said = _CHANGED.match(spaced) or _CHANGED_SAID.match(spaced)
    if said is None:
        return None
    subject = [w for w in said.group("subject").split() if w not in _SMALL]
    if not subject or any(w in _NOT_SUBJECTS or w in _FIELDS for w in subject):
        return None
    return subject, raw[said.start("value") : said.end("value")]


def put_value(content: str, subject: list[str], value: str) -> str | None:
    """`content` with `value` in place of the one word of its shape after `subject`'s words
    (all in `content`, in order); None unless there is exactly one such word."""
    spaced = _spaced_values(fold_same_length(content))
    words = [(m.start(), m.end(), m.group()) for m in _VALUE_WORD.finditer(spaced)]
    at = _after([w for _, _, w in words], subject)
    if at is None:
        return None
    alike = [w for w in words[at:] if _shape(w[2]) == _shape(value.lower()) and w[2] != value]
    if len(alike) != 1:
        return None
    start, end, _ = alike[0]
    return content[:start] + value + content[end:]


# a value is one word with what joins its parts inside it ("98888-1234", "12/05", "v1.2")
_VALUE_WORD: Final = re.compile(r"\w+(?:[-./]\w+)*")
_EDGE_MARK: Final = re.compile(r"(?!(?<=\w)[-./](?=\w))[^\w\s]")


def _spaced_values(text: str) -> str:
    """`text` with its punctuation as spaces, one for one, but what joins a value's parts."""
    return _EDGE_MARK.sub(" ", text)


def _after(words: list[str], subject: list[str]) -> int | None:
    """The index after the last of `subject`'s words in `words`, all found in order; else None."""
    at = 0
    for word in subject:
        if word not in words[at:]:
            return None
        at = words.index(word, at) + 1
    return at


def _shape(word: str) -> str:
    """Digits as "9", letters as "a", what joins parts left out: "1233", "1234" and "12-34"
    share a shape, "4471" and "abc" do not."""
    return re.sub(r"[^\W\d]", "a", re.sub(r"\d", "9", re.sub(r"[-./]", "", word)))


# "na nota do churrasco troca linguiça por picanha", "in the bbq note replace ribs with wings",
# "troca 14 por 21": words of a note swapped for others; where, when said, narrows the note
_EDIT_VERB: Final = (
    r"(?:muda|mude|altera|altere|atualiza|atualize|edita|edite|corrige|corrija|mexe|mexa)"
)
# the note the swap is in: "na nota do X", "edita a nota do X,", "in the X note", "edit the X
# note:", or pointed at, "muda essa nota,", "in that note" (the one note holding the words)
_IN_NOTE: Final = (
    rf"(?:(?:{_EDIT_VERB}\s+)?n?(?:ess|est)[ae]\s+nota|(?:edit|change|update|fix|in|on)\s+"
    r"(?:this|that)\s+note|"
    rf"(?:(?:{_EDIT_VERB}\s+)?n?a|in\s+the|on\s+the)\s+nota\s+(?:d[aoe]s?\s+|sobre\s+)?"
    r"(?P<where>[^,:]+?)"
    r"|(?:(?:in|on)\s+(?:the|my)|(?:edit|change|update|fix)\s+(?:the|my))\s+(?P<where_en>[^,:]+?)"
    r"\s+note)"
)
# the note said after the swap: "troca X por Y na nota do Z", "swap X for Y in the Z note"
_IN_NOTE_AFTER: Final = (
    r"(?:[\s,]+(?:n?a|in\s+the|on\s+the|in\s+my)\s+nota\s+(?:d[aoe]s?\s+|sobre\s+)?"
    r"(?P<where_after>[^,:]+?)"
    r"|[\s,]+(?:in|on)\s+(?:the|my)\s+(?P<where_after_en>[^,:]+?)\s+note"
    r"|[\s,]+(?:n?a|in\s+(?:the|my)|on\s+the)\s+(?:nota|note))"
)
_SWAP: Final = re.compile(
    rf"^(?:{_IN_NOTE}[\s,:]+)?(?:troca|troque|trocar|substitui|substitua|substituir|replace|swap)"
    r"\s+(?P<old>[^,:;]+?)\s+(?:por|pel[oa]s?|with|for)\s+(?P<new>[^,:;]+?)"
    rf"(?:{_IN_NOTE_AFTER})?\s*[.!]*$"
)
# "edit the dentist note, it's for Ethan not Lucy", "ops, na nota é antes de fevereiro, não
# março": the words said right, then the words they replace after a "not"
_SAID_NOT_SWAP: Final = re.compile(
    r"^(?:(?:ops|opa|oops|sorry|actually|na verdade|na vdd|errei)[\s,]+)*"
    rf"(?:(?:{_IN_NOTE}|n?a\s+nota|in\s+the\s+note)[\s,:]+)?"
    r"(?:(?:ops|opa|oops|sorry|actually|na verdade|na vdd|errei)[\s,]+)*"
    r"(?:it\s+s|it['’]?s|it\s+is|e|eh|era|is|should\s+be|deveria\s+ser)\s+(?P<new>[^,;:]+?)\s*,?\s+"
    r"(?:not|nao|e\s+nao|and\s+not|instead\s+of|em\s+vez\s+de|no\s+lugar\s+de)\s+"
    r"(?P<old>[^,;:.!]+?)\s*[.!]*$"
)
_WHERE: Final = ("where", "where_en", "where_after", "where_after_en")


def same_stem(a: str, b: str) -> bool:
    """Whether two words differ only in an ending ("pack", "packing"; "viagem", "viagens"):
    the shorter, but for its last letter, of at least four letters, begins the longer."""
    short, long = sorted((a, b), key=len)
    stem = short if len(short) <= 4 else short[:-1]
    return len(stem) >= 4 and long.startswith(stem)


_PRONOUNS: Final = frozenset("it this that isso isto esse essa este esta ele ela o a".split())


@dataclass(frozen=True, slots=True)
class Swap:
    old: str  # as the user wrote it
    new: str
    where: list[str]  # folded words the note must also hold


def swapped(message: str) -> Swap | None:
    """The words to swap in a note ("troca linguiça por picanha"), or None."""
    raw = message.strip()
    if not raw or len(raw) > 160 or "?" in raw or "\n" in raw:
        return None
    folded = fold_same_length(raw)
    said = _SWAP.match(folded) or _SAID_NOT_SWAP.match(folded)
    if said is None:
        return None
    names = said.re.groupindex
    where = next((said.group(g) for g in _WHERE if g in names and said.group(g)), "")
    old, new = (raw[said.start(g) : said.end(g)].strip(" \"'«»") for g in ("old", "new"))
    if not old or not new or fold_same_length(old).lower() in _PRONOUNS:
        return None  # "replace it with X": which words "it" are is the planner's
    return Swap(old, new, [w for w in re.findall(r"\w+", where) if w not in _SMALL])


def swap_in(content: str, swap: Swap, *, loose: bool = False) -> str | None:
    """`content` with `swap.old` (whole words, accents and case aside) replaced by `swap.new`,
    when it holds it exactly once and every word of `swap.where` (`loose`: or a word of the
    same stem, "packing" for "pack"); else None."""
    folded = fold_same_length(content)
    words = set(re.findall(r"\w+", folded))
    if not all(w in words or (loose and any(same_stem(w, x) for x in words)) for w in swap.where):
        return None
    old = re.escape(fold_same_length(swap.old)).replace("\\ ", r"\s+")
    found = list(re.finditer(rf"(?<!\w){old}(?!\w)", folded))
    bare = _LIST_ARTICLE.sub("", swap.old)
    if not found and bare != swap.old:
        # "troca o leite por iogurte" on "arroz, leite e café": the article is the message's
        return swap_in(
            content, Swap(bare, _LIST_ARTICLE.sub("", swap.new), swap.where), loose=loose
        )
    if len(found) != 1:
        return None
    new = swap.new
    said, kept = new.split(), len(swap.old.split())
    lead = " ".join(fold_same_length(w) for w in said[:-kept]).lower()
    if len(said) > kept and folded[: found[0].start()].lower().rstrip().endswith(lead):
        new = " ".join(said[-kept:])  # "for Ethan" over "... for Lucy": only "Ethan" is new
    return content[: found[0].start()] + new + content[found[0].end() :]


# "muda o ano do Scarface pra 1932", "renomeia The Office pra The Office US", "change
# Nosferatu's year to 1922", "rename the show X to Y": an item named by its title, a field
_KIND_WORD: Final = r"(?:(?:o|a|the)\s+)?(?:filme|serie|video|link|movie|film|show|series)\s+"
_RENAMES: Final = tuple(
    re.compile(p)
    for p in (
        r"^(?:muda|mude|mudar|altera|altere|troca|troque|corrige|corrija)\s+(?:o\s+)?"
        r"(?P<field>ano|nome|titulo)\s+d[aoe]s?\s+(?:" + _KIND_WORD + r")?(?P<name>.+?)\s+"
        r"(?:pra|para|pro)\s+(?P<value>.+?)\s*[.!]*$",
        r"^(?:renomeia|renomeie|renomear)\s+(?:" + _KIND_WORD + r"|(?:o|a)\s+)?(?P<name>.+?)\s+"
        r"(?:pra|para|como)\s+(?P<value>.+?)\s*[.!]*$",
        r"^(?:change|set|fix|update)\s+(?:the\s+)?(?P<field>year|title|name)\s+of\s+(?:"
        + _KIND_WORD
        + r")?(?P<name>.+?)\s+to\s+(?P<value>.+?)\s*[.!]*$",
        r"^(?:change|set|fix|update)\s+(?:" + _KIND_WORD + r")?(?P<name>.+?)'?s\s+"
        r"(?P<field>year|title|name)\s+to\s+(?P<value>.+?)\s*[.!]*$",
        r"^rename\s+(?:" + _KIND_WORD + r")?(?P<name>.+?)\s+(?:to|as)\s+(?P<value>.+?)\s*[.!]*$",
    )
)


@dataclass(frozen=True, slots=True)
class Renamed:
    name: str  # the item's title as the user wrote it
    field: Literal["year", "title"]
    value: str


def renamed(message: str) -> Renamed | None:
    """The title or year asked for an item named by its title, or None."""
    raw = message.strip()
    if not raw or len(raw) > 160 or "?" in raw or "\n" in raw:
        return None
    folded = fold_same_length(raw).replace("\u2019", "'")
    for pattern in _RENAMES:
        said = pattern.match(folded)
        if said is None:
            continue
        field = said.groupdict().get("field")
        name, value = (raw[said.start(g) : said.end(g)].strip(" \"'«»") for g in ("name", "value"))
        if not name or not value or fold_same_length(name).lower() in _PRONOUNS:
            return None
        year = field in ("ano", "year")
        if year and not re.fullmatch(r"\d{4}", value):
            return None
        return Renamed(name, "year" if year else "title", value)
    return None


# "change the dinner note to say X", "muda a nota do condomínio: X", "update my note about the
# trip to read: X": a note named by its words and its whole new text
_REWRITES: Final = tuple(
    re.compile(p)
    for p in (
        r"^(?:change|update|edit|rewrite|fix)\s+(?:the|my)\s+(?P<where>[^:]+?)\s+note\s+to\s+"
        r"(?:say|read)\s*:?\s+(?P<new>\S.*)$",
        r"^(?:change|update|edit|rewrite|fix)\s+(?:the|my)\s+note\s+(?:about|on|for|with)\s+"
        r"(?P<where>[^:]+?)\s+to\s+(?:say|read)\s*:?\s+(?P<new>\S.*)$",
        r"^(?:muda|mude|altera|altere|atualiza|atualize|edita|edite|corrige|corrija|reescreve)\s+"
        r"a\s+nota\s+(?:d[aoe]s?\s+|sobre\s+(?:o\s+|a\s+)?)(?P<where>[^:]+?)\s*"
        r"(?::|,?\s+(?:pra|para)\s+(?:ficar|dizer)\s*:?)\s*(?P<new>\S.*)$",
        # "muda a nota do encanador pra ligar pro eletricista": words, never a rating ("pra 9",
        # "pra oito e meio")
        r"^(?:muda|mude|altera|altere|atualiza|atualize|troca|troque)\s+a\s+nota\s+"
        r"(?:d[aoe]s?\s+|sobre\s+(?:o\s+|a\s+)?)(?P<where>[^:,]+?)\s+(?:pra|para)\s+"
        r"(?!(?:zero|um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez)\b)"
        r"(?P<new>[^\W\d_]{2,}\S*\s+\S.*)$",
    )
)


def rewritten(message: str) -> tuple[list[str], str] | None:
    """The words naming a note and its whole new text, or None."""
    raw = message.strip()
    if not raw or len(raw) > 600 or "\n" in raw:
        return None
    folded = fold_same_length(raw)
    for pattern in _REWRITES:
        said = pattern.match(folded)
        if said is not None:
            where = [w for w in re.findall(r"\w+", said.group("where")) if w not in _SMALL]
            new = raw[said.start("new") :].strip()
            return (where, new) if where and new else None
    return None


def holds_words(content: str, words: list[str], *, loose: bool = False) -> bool:
    """Whether every one of `words` (folded) is a word of `content` (`loose`: or a word of
    the same stem, "compras" for "compra")."""
    held = set(re.findall(r"\w+", fold_same_length(content)))
    return all(w in held or (loose and any(same_stem(w, h) for h in held)) for w in words)


# "o final é 2301 e não 2310", "it's 8193 not 4471", "2301 em vez de 2310": a value said
# with the one it takes the place of; which is which the note says (the one it holds)
_TAKEN_BACK: Final = re.compile(
    r"\b(?:nao|not|instead|em\s+vez|no\s+lugar|ao\s+inves|errad\w*|wrong|typo|digitei|escrevi)\b"
)


def given_back(message: str, content: str) -> str | None:
    """`content` (a note) with the value `message` gives in place of another it holds:
    the message has two values of one shape, with digits, and a word that takes one back
    ("não", "not", "instead of", "errado"); the note holds exactly one of them, once, as a
    whole word. None unless all of that holds, or when the message asks for anything else."""
    raw = message.strip()
    if not raw or len(raw) > 200 or "?" in raw or "\n" in raw:
        return None
    folded = fold_same_length(raw)
    if not _TAKEN_BACK.search(folded) or _ASKS_ELSE.search(folded):
        return None
    values: list[str] = [
        v for v in _VALUE_WORD.findall(_spaced_values(raw)) if any(c.isdigit() for c in v)
    ]
    if len(values) != 2 or _shape(values[0].lower()) != _shape(values[1].lower()):
        return None
    held = [v for v in values if _held_once(content, v)]
    if len(held) != 1 or any(_whole_word(content, v) for v in values if v not in held):
        return None
    old = held[0]
    new = values[1] if old == values[0] else values[0]
    found = _whole_word(content, old)
    return content[: found[0].start()] + new + content[found[0].end() :]


def _whole_word(content: str, value: str) -> list[re.Match[str]]:
    """Where `value` is in `content`, not as part of a longer word or number."""
    return list(re.finditer(rf"(?<![\w]){re.escape(value)}(?![\w])", content, re.IGNORECASE))


def _held_once(content: str, value: str) -> bool:
    return len(_whole_word(content, value)) == 1


# "opa, é apto 12 na vdd", "corrige, é 18/07", "oops it's suite 4C", "actually its 555-0198,
# i flipped two digits": a word that says the message corrects, and one value (a word with a
# digit); which value of the note it replaces is the one of its shape (`replace_alike`)
_CORRECTING: Final = re.compile(
    r"\b(?:corrige|corrija|corrigindo|correcao|correction|errei|errad[oa]|wrong|opa|ops|oops|"
    r"epa|na\s+verdade|na\s+vdd|na\s+real|actually|certo|certa|correto|correta|right|correct|"
    r"swapped|flipped|switched|mixed\s+up|trocad[oa]s?|troquei|inverti|invertid[oa]s?|typo|"
    r"digitei|escrevi|enganei|engano|my\s+bad|meant|quis\s+dizer|sorry|desculpa|wait|pera|"
    r"perai)\b"
)
# "wait no, it's 3170", "é 1243": a value alone after a copula is a correction too
_BARE_VALUE: Final = re.compile(
    r"^(?:(?:errei|ops|opa|oops|wait|no|nao|sorry|desculpa|na\s+verdade|na\s+vdd|actually|"
    r"correcao|correction|pera)\s+)*(?:e|eh|it\s*s|its|is|era|ta|sera|o\s+certo\s+e)\s+"
    r"\w+(?:\s+\w+)?(?:\s+(?:na\s+verdade|na\s+vdd|actually|mesmo|sorry))*\s*$"
)
# a value with what joins its parts inside it ("18/07", "555-0198", "Kiwi#42", "17:30")
_VALUE_TOKEN: Final = re.compile(r"\w+(?:[-./#:]\w+)*")


def corrected_value(message: str) -> str | None:
    """The one value (a word with a digit, as written) a correction says ("opa, é apto 12
    na vdd" -> "12"); None without a word that says it corrects, with no value or several,
    or when the message asks for something else (a save, a reminder, a search)."""
    raw = message.strip()
    if not raw or len(raw) > 200 or "?" in raw or "\n" in raw:
        return None
    folded = fold_same_length(raw)
    bare = _BARE_VALUE.match(" ".join(re.sub(r"[^\w\s]", " ", folded).split()))
    if not (_CORRECTING.search(folded) or bare) or _ASKS_ELSE.search(folded):
        return None
    values = [v for v in _VALUE_TOKEN.findall(raw) if any(c.isdigit() for c in v)]
    return values[0] if len(values) == 1 else None


def naming_overlap(message: str, content: str) -> int:
    """How many words of four letters or more `message` shares with `content` (the first
    five letters alike: "rastreio", "rastreamento"), leaving out words that say the message
    corrects and words with digits (the values): how surely a correction names that note
    ("o codigo do rastreio ta errado" names "codigo de rastreio do tenis: QB...")."""
    said = {
        w[:5]
        for w in re.findall(r"[^\W\d_]{4,}", fold_same_length(message))
        if not _CORRECTING.fullmatch(w)
    }
    held = {w[:5] for w in re.findall(r"[^\W\d_]{4,}", fold_same_length(content))}
    return len(said & held)


def replace_alike(content: str, value: str) -> str | None:
    """`content` with `value` in place of the one value of its shape there: the same
    sequence of digits, letters and separators ("17/08" for "18/07", "3C" for "4C", a word
    of any length for a word), or one edit away (values of four characters or more); of
    several, the one of the very same length in each part, then the one two edits away or
    fewer. None when none or several qualify, or `content` holds `value` already."""
    new = value.lower()
    found = [
        m
        for m in _VALUE_TOKEN.finditer(content)
        if any(c.isdigit() for c in m.group()) and m.group().lower() != new
    ]
    if any(m.group().lower() == new for m in _VALUE_TOKEN.finditer(content)):
        return None
    alike = [m for m in found if _runs(m.group()) == _runs(value) or _one_edit(m.group(), value)]
    if len(alike) > 1:
        alike = [m for m in alike if _classes(m.group()) == _classes(value)] or alike
    if len(alike) > 1:  # of several, the one a slip of two edits or fewer away, if one is
        alike = [m for m in alike if _distance(m.group(), value) <= 2]
    if len(alike) != 1:
        return None
    one = alike[0]
    return content[: one.start()] + value + content[one.end() :]


def _one_edit(old: str, new: str) -> bool:
    """Whether a value of four characters or more is one edit from another ("1234", "12345");
    a shorter one is another value ("1" is not "21")."""
    return min(len(old), len(new)) >= 4 and _distance(old, new) <= 1


def _classes(word: str) -> str:
    """Each character as its class: "9" a digit, "a" a letter, "-" a separator."""
    return re.sub(r"[^\W\d_]", "a", re.sub(r"\d", "9", re.sub(r"[\W_]", "-", word)))


def _runs(word: str) -> str:
    """The classes of `word`'s characters, a run of letters as one: "Kiwi#42" is "a-99",
    as "Mango#17" is; "21" is not "1" (a number of another length is another number)."""
    return re.sub(r"a+", "a", _classes(word))


def _distance(a: str, b: str) -> int:
    """Edits (a letter in, out, changed, or two side by side swapped) from `a` to `b`,
    case aside."""
    a, b = a.lower(), b.lower()
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][len(b)]


# "update the alarm note to Kiwi#42", "edit the locker note, the code is 6610 now", "atualiza
# a nota do cadeado: 4471", "corrige a nota da garagem, é B12": a note named by its words
# and one new value (`replace_alike` puts it in place of the one of its shape)
_NOTE_NAMED: Final = re.compile(
    r"^(?:(?:update|edit|change|fix|correct)\s+(?:the\s+|my\s+)?(?P<en>[^\W\d]+(?:\s+[^\W\d]+)?)"
    r"\s+note|(?:atualiza|atualize|edita|edite|muda|mude|altera|altere|corrige|corrija|troca|"
    r"troque|arruma|arrume)\s+(?:a\s+|minha\s+)?nota\s+(?:d[aoe]s?\s+|sobre\s+(?:o\s+|a\s+)?)?"
    r"(?P<pt>[^\W\d]+))(?P<rest>[\s,:;].*)$"
)


def note_value(message: str) -> tuple[list[str], str] | None:
    """The words naming a note and the one new value said for it ("update the alarm note to
    Kiwi#42": (["alarm"], "Kiwi#42")); None without exactly one value (a word with a digit)."""
    raw = message.strip()
    if not raw or len(raw) > 160 or "?" in raw or "\n" in raw:
        return None
    folded = fold_same_length(raw)
    # "they changed it lol, update the wifi note to X": the request may follow why, in a
    # clause of its own, when the clauses before it ask for nothing else
    starts = [0, *(cut.end() for cut in _CLAUSE_CUT.finditer(folded))]
    at, said = next(
        (
            (at, m)
            for at in starts
            if (m := _NOTE_NAMED.match(folded[at:])) is not None
            and not _ASKS_ELSE.search(folded[:at])
        ),
        (0, None),
    )
    if said is None:
        return None
    raw = raw[at:]
    where = [w for w in (said.group("en") or said.group("pt")).split() if w not in _SMALL]
    rest = raw[said.start("rest") :]
    values = [v for v in _VALUE_TOKEN.findall(rest) if any(c.isdigit() for c in v)]
    if not where or len(values) != 1 or _ASKS_ELSE.search(fold_same_length(rest)):
        return None
    return where, values[0]


# "e acrescenta banana", "na lista do mercado põe ovos", "add eggs to the shopping list",
# "tira o café da nota do mercado", "cross off milk": an element added to or taken off a
# note written as a list ("lista do mercado: arroz, feijão e café", or one per line)
_LIST_VERBS: Final[dict[Literal["add", "remove"], str]] = {
    "add": (
        r"acrescenta|acrescente|adiciona|adicione|inclui|inclua|coloca|coloque|bota|bote|poe|"
        r"add|include|append|put"
    ),
    "remove": (
        r"tira|tire|retira|retire|risca|risque|remove|remova|exclui|exclua|apaga|apague|"
        r"take\s+off|take\s+out|cross\s+off|strike|drop|delete"
    ),
}
# the removals a message may ask with no note named: "apaga X", "delete X" name an item too
_LIST_REMOVE_ALONE: Final = re.compile(r"^(?:tira|tire|retira|retire|risca|risque|take|cross)\b")
_LIST_LEAD: Final = r"(?:(?:e|and|also|tambem|tb|tbm|ah|ok|entao|so|agora|now|pfv|please)\s+)*"
_LIST_IN: Final = (  # "na lista", "to that note", "nessa nota": the one just touched if unnamed
    r"(?:(?:n?a|n?o|d[ao]|to|on|in|into|from|off|of)\s+"
    r"(?:(?:a|the|my|minha|that|this|essa|esta)\s+)?|[nd]ess?[ae]\s+|[nd]est[ae]\s+)"
)
_LIST_NAMED: Final = (
    r"(?:[^\W\d]+\s+){0,3}?(?:nota|lista|note|list)(?:\s+(?:d[aeo]s?|of|for)\s+[^\W\d]+"
    r"(?:\s+[^\W\d]+)?)?"
)
_LIST_EDIT: Final = {
    op: re.compile(
        rf"^{_LIST_LEAD}(?:{_LIST_IN}(?P<where_first>{_LIST_NAMED})[\s,:]+)?"
        rf"(?P<verb>{verbs})\s+(?:(?:tambem|tb|also)\s+)?(?P<what>[^\W_].*?)"
        rf"(?:\s+{_LIST_IN}(?P<where>{_LIST_NAMED}))?"
        r"(?:\s+(?:tambem|tb|tbm|too|also|pfv|please|por\s+favor))*\s*[.!]*$"
    )
    for op, verbs in _LIST_VERBS.items()
}
_LIST_WHEN: Final = re.compile(
    r"\b(?:\d{1,2}\s*(?:h|hs|am|pm)|\d{1,2}:\d\d|amanha|hoje|tomorrow|today|tonight)\b"
)
_LIST_NOUNS: Final = frozenset("nota lista note list".split())
_LIST_ARTICLE: Final = re.compile(r"^(?:o|a|os|as|the|um|uma|some)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ListEdit:
    op: Literal["add", "remove"]
    what: tuple[str, ...]  # the elements as written ("banana"; "ovos", "pão")
    where: list[str]  # folded words naming the note ("mercado"); empty: the note just touched
    pointed: bool = False  # "to that note", "nessa nota": a note pointed at, named by nothing


def list_edit(message: str) -> ListEdit | None:
    """The elements `message` adds to or takes off a list note, and the words naming it;
    None for anything else (a typed thing, a link, a question, a long phrase)."""
    raw = message.strip()
    if not raw or len(raw) > 160 or "?" in raw or "\n" in raw or "://" in raw:
        return None
    folded = fold_same_length(raw)
    for op, pattern in _LIST_EDIT.items():
        said = pattern.match(folded)
        if said is None:
            continue
        where_said = said.group("where") or said.group("where_first") or ""
        where = [w for w in where_said.split() if w not in _SMALL and w not in _LIST_NOUNS]
        if not where_said and op == "remove" and not _LIST_REMOVE_ALONE.match(said.group("verb")):
            return None  # "apaga o leite" with no list named: an item to delete as likely
        what = raw[said.start("what") : said.end("what")]
        if _ASKS_ELSE.search(fold_same_length(what)) or _LIST_WHEN.search(fold_same_length(what)):
            return None  # "bota um lembrete amanhã", "add a reminder at 9": another request
        parts = [
            _LIST_ARTICLE.sub("", p.strip(" \"'«»“”."))
            for p in re.split(r",\s*|\s+(?:e|and)\s+", what)
        ]
        if not parts or any(not p or len(p.split()) > 4 for p in parts):
            return None
        if any(fold_same_length(p).split()[0] in TYPED or p.lower() in _PRONOUNS for p in parts):
            return None  # "adiciona o filme X", "add it": a save or the planner's
        # "that note" points at a note; "essa lista" after a film may be the films
        pointed = not where and not {"nota", "note"}.isdisjoint(where_said.split())
        return ListEdit(op, tuple(parts), where, pointed=pointed)
    return None


_LIST_BULLET: Final = re.compile(r"^(?P<bullet>\s*(?:[-•*·]|\d+[.)])?\s*)(?P<text>.*)$")
# "lista do mercado: a, b", "packing list for the trip - a, b": the list's name before it
_LIST_HEAD: Final = re.compile(r"^(?P<head>[^:\n,]{1,60}?(?::|\s[-–—]\s)\s*)(?=\S)")
_LIST_LAST_AND: Final = re.compile(r"\s+(?P<conj>e|and|&)\s+(?=\S)(?!.*\s(?:e|and|&)\s)")


def list_edited(content: str, edit: ListEdit) -> str | None:
    """`content` (a note written as a list) with `edit`'s elements added at the end or taken
    off, written the way the list is (one per line with its bullet, or "a, b e c"); None when
    it is no list, an element to take off is not in it once, or one to add is there already."""
    lines = [line for line in content.splitlines() if line.strip()]
    bulleted = len(lines) == 2 and re.match(r"\s*(?:[-•*·]|\d+[.)])", lines[1]) is not None
    if len(lines) >= 3 or bulleted:
        return _lines_edited(lines, edit)
    if len(lines) != 1:
        return None
    head_said = _LIST_HEAD.match(lines[0])
    head = head_said.group("head") if head_said else ""
    body = lines[0][len(head) :].rstrip(" .")
    conj_said = _LIST_LAST_AND.search(body)
    conj = conj_said.group("conj") if conj_said else ""
    pieces = [p.strip() for p in body.split(",")]
    if conj_said is not None:
        last = pieces.pop()
        cut = _LIST_LAST_AND.search(last)
        if cut is None:
            return None
        pieces += [last[: cut.start()].strip(), last[cut.end() :].strip()]
    if len(pieces) < 2 or any(not p or len(p.split()) > 5 for p in pieces):
        return None
    edited = _elements_edited(pieces, edit)
    if edited is None:
        return None
    if not conj or len(edited) < 2:
        return head + ", ".join(edited)
    return head + ", ".join(edited[:-1]) + f" {conj} " + edited[-1]


def _lines_edited(lines: list[str], edit: ListEdit) -> str | None:
    said = [_LIST_BULLET.match(line) for line in lines]
    texts = [m.group("text").strip() if m else line for m, line in zip(said, lines, strict=True)]
    head = [lines[0]] if texts[0].endswith(":") else []
    items = lines[len(head) :]
    edited = _elements_edited(texts[len(head) :], edit)
    if edited is None:
        return None
    if edit.op == "remove":
        kept = [
            line for line, text in zip(items, texts[len(head) :], strict=True) if text in edited
        ]
        return "\n".join(head + kept)
    last = said[-1]
    bullet = last.group("bullet") if last else ""
    numbered = re.match(r"^(\s*)(\d+)([.)]\s*)$", bullet)
    added = []
    for n, one in enumerate(edited[len(items) :], start=1):
        mark = (
            f"{numbered.group(1)}{int(numbered.group(2)) + n}{numbered.group(3)}"
            if numbered
            else bullet
        )
        added.append(mark + one)
    return "\n".join(lines + added)


def _elements_edited(elements: list[str], edit: ListEdit) -> list[str] | None:
    folded = [_LIST_ARTICLE.sub("", fold_same_length(e)) for e in elements]
    if edit.op == "add":
        if any(fold_same_length(w) in folded for w in edit.what):
            return None  # already on the list: nothing to add
        return [*elements, *edit.what]
    kept = list(elements)
    for one in edit.what:
        at = [i for i, f in enumerate(folded) if f == fold_same_length(one)]
        if len(at) != 1:
            return None
        kept[at[0]] = ""
    left = [e for e in kept if e]
    return left or None
