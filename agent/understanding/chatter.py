"""Words around a request that ask nothing, for the readers to read past (issues 41, 44).

Three cuts, for three kinds of reader:
- `without_chatter` (the runtime, once per message, before every reader): greetings and
  "please" in front; thanks, "please", laughter, "again" and emojis behind ("salva Coringa e
  Her pfv", "add Heat and Ronin thx", "what did I save last week again?"), and a question's "now" ("how many films do I have rn?",
  "quantas notas tenho aí msm?"). Only at the
  message's edges, never inside it; a message made only of them ("valeu") stays whole, as do
  a list a line and commands. The message is stored as sent; only the readers get the cut.
- `without_asides` (the runtime, when what is left reads as a request): clauses of
  interjections and apologies ("ops, desfaz, apaguei errado") and a lead-in that only frames
  what follows ("actually remove X"), and a reason after a comma ("tira ele, não quero
  guardar"); `without_remark` parts a first sentence from the request after it.
- `quiet` (readers that cut spans and must index the message as written, the watchlist's):
  laughter anywhere, politeness at a clause's edge ("Please Stand By" is a film), and whole
  clauses of interjections and apologies ("opa, me confundi, ...", "wait no, ..."), blanked
  one character for one. A clause with any other word stays whole.
"""

from __future__ import annotations

import re
from typing import Final

from agent.understanding.references import fold_same_length
from agent.understanding.vocabulary import TYPE_WORDS

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
    r"(?:eu\s+)?(?:me\s+)?(?:confundi|enganei|equivoquei)(?:\s+(?:tudo|aqui|com\s+outr[oa](?:\s+(?:filme|serie|coisa))?))?|errei|"
    r"(?:foi\s+)?engano(?:\s+meu)?|(?:falei|escrevi|marquei|cliquei|apertei|apaguei|salvei|mandei|"
    r"digitei|coloquei|botei)\s+errado|sem querer|"
    r"i was wrong|(?:i\s+)?(?:mixed (?:it|them) up|messed up|misspoke|clicked wrong|got (?:it|them) mixed up|"
    r"confused (?:it|them))(?:\s+with\s+(?:another|a different|some other|the other)(?:\s+(?:one|movie|show|title))?)?|"
    r"wrong one|"
    r"by mistake|my mistake|correction|correcao|scratch that|ignore that|ignora(?:\s+isso)?|"
    r"ok|okay|blz|beleza|enfim|well|anyway|so|entao|"
    # an approval or "there", closing what came before: "pronto, vi os dois", "fechou, ..."
    r"pronto|fechou|certo|show|massa|perfeito|alright|all right|cool|nice|perfect|great"
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


# a lead-in that only frames what follows ("actually remove X", "na real apaga X", "ok so
# delete it"); never a negation ("não apaga" is no "apaga")
_ASIDE_HEAD: Final = re.compile(
    r"^\s*(?:(?:actually|so|ok|okay|well|anyway|alright|right|na\s+real|na\s+verdade|"
    r"pensando\s+bem|on\s+second\s+thought|second\s+thought|"
    r"ent[aã]o|ali[aá]s|enfim|bom|blz|beleza|tipo|ent"
    # "agora salva X", "now save X": before a verb, never "agora sim" (a word of 4 letters on)
    r"|(?:e\s+|and\s+)?(?:agora|now)(?=[\s,.;:!-]+\w{4}))(?:[\s,.;:!-])+)+(?=\w)",
    re.IGNORECASE,
)


# why, after the request and a comma, asking nothing: "..., não quero guardar não", "..., I
# don't need it anymore", "..., pq já vi"
_REASON_TAIL: Final = re.compile(
    r"[,;]\s*(?:(?:mas|but)\s+)?(?:(?:(?:eu|i)\s+)?(?:nao|n|dont|don.t|do not|no longer)\s+"
    # a taste said of oneself: "não curto mt terror", "não gosto dele", "don't like horror"
    r"(?:quero|queria|preciso|vou|want|need|wanna|curto|gosto|aguento|like|care|dig)"
    r"|pq|porque|because|since|cause|cuz)\b"
    r"[^,;:.!?]*[.!\s]*$"
)
# a remark ended by a full stop before the request: "hmm só alugando né. salva mesmo assim"
_REMARK_FIRST: Final = re.compile(r"^[^.!?]+[.!]+\s+(?=\S)")


def without_remark(text: str) -> tuple[str, str] | None:
    """The sentence `text` opens with and what follows it, when it opens with one ended by a
    full stop ("hmm só alugando né. salva mesmo assim"); the caller keeps the rest only when
    the first asks nothing and the rest reads as a request."""
    m = _REMARK_FIRST.match(text) if "\n" not in text.strip() else None
    if m is None or not text[m.end() :].strip():
        return None
    return text[: m.end()].strip().rstrip(".!"), text[m.end() :].strip()


def without_asides(text: str) -> str:
    """`text` without its clauses of interjections and apologies ("ops, desfaz, apaguei
    errado" is "desfaz"; "wait no, undo that" is "undo that") and without a lead-in that only
    frames it ("actually remove X" is "remove X"), for the runtime's readers; laughter and
    politeness are left to `without_chatter`. `text` itself when nothing is cut or nothing
    would be left; the caller keeps the cut only when what is left reads as a request."""
    if "\n" in text.strip() or text.lstrip().startswith("/"):
        return text  # a list a line and commands stay as sent
    clauses = [m for m in _CLAUSE.finditer(fold_same_length(text)) if m.group().strip()]
    chatter = [m for m in clauses if _CHATTER_CLAUSE.match(m.group())]
    cut = text
    if 0 < len(chatter) < len(clauses):  # something besides chatter is said
        keep = list(text)
        for m in chatter:
            end = m.end() + (m.end() < len(keep) and keep[m.end()] in ",;:.!")
            keep[m.start() : end] = [" "] * (end - m.start())
        cut = re.sub(r"\s+", " ", "".join(keep)).strip().rstrip(",;:")
    cut = _ASIDE_HEAD.sub("", cut)
    if (reason := _REASON_TAIL.search(fold_same_length(cut))) is not None and reason.start() > 0:
        cut = cut[: reason.start()].rstrip()  # "tira ele da lista, não quero guardar não"
    return cut if re.search(r"[^\W_]", cut) else text  # a letter or digit left, not "_"


# -- the message's edges (the runtime's cut) ----------------------------------------------

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
_PLEASE: Final = r"por\s+favor|pfv|pfvr|pf|plis|pls|plz|please|se\s+puder|if\s+you\s+can"
_LAUGH: Final = r"k{3,}|(?:ha){2,}h?|(?:he){2,}|(?:rs)+|lol|lmao|:\)|:D|;\)"
# "what did I save again?", "qual era mesmo de novo?": asking a second time changes nothing
_AGAIN: Final = r"again|de\s+novo|novamente|outra\s+vez"
_GREETING: Final = (
    r"oi+|ol[áa]+|ei+|hey+|hi+|hello+|bom\s+dia+|boa\s+tarde+|boa\s+noite+|"
    r"good\s+morning+|good\s+afternoon+|good\s+evening+|"
    # interjections no reader reads: "hmm desfaz", "ugh undo that"
    r"h+m+|uh+|ugh+|aff+|putz|eita|poxa|xi+"
)
_SEP: Final = r"[\s,.;:!?~-]"
# "buscar o passaporte na PF": after "na"/"da"/"no"... "PF" is a place (Polícia Federal)
_NOT_A_PLACE: Final = r"(?<!\bna\s)(?<!\bno\s)(?<!\bda\s)(?<!\bdo\s)(?<!\bem\s)(?<!\bpela\s)"
_TAIL: Final = re.compile(
    rf"(?:(?:{_SEP}|{_EMOJI})+(?:(?:{_THANKS}|{_NOT_A_PLACE}(?:{_PLEASE})|{_LAUGH}|{_AGAIN})(?=\W|$)"
    rf"|{_EMOJI}+))+"
    rf"(?:{_SEP}|{_EMOJI})*$",
    _F,
)
# "how many films do I have rn?", "quantas notas tenho aí msm?": at a question's end, words
# of "now" and "again" say when or how insistently it is asked, never what about
_QUESTION_TAIL: Final = re.compile(
    r"(?:[\s,]+(?:rn|right\s+now|now|then|currently|at\s+the\s+moment|agr|agora|a[ií]|msm|"
    r"mesmo|atualmente|no\s+momento|hj\s+em\s+dia|ent[aã]o))+[\s?!.]*$",
    _F,
)
# a question said without its "?" ("so what's on my list rn"): its question word first
_ASKED_FIRST: Final = re.compile(
    r"^\s*(?:(?:so|and|ok|e|entao|ah)[\s,]+)*(?:what|what\W?s|which|how\s+many|o\s+que|oq|"
    r"quais|quantos|quantas)\b"
)
# "tem algum filme chamado Now?": a last word that is a name is kept
_NAMED_LAST: Final = re.compile(r"\b(?:chamad[oa]s?|called|named|titled)\s+\S+\W*$", _F)
# a clause of its own before the request that only approves, thanks or changes the subject
# ("cool thx.", "show. ah, ...", "mudando de assunto, ...", "btw"): cut when a mark closes it
_ASIDE_LEAD: Final = (
    r"(?:(?:cool|nice|great|awesome|perfect|sweet|perfeito|[oó]timo|show|massa|legal|top|boa|"
    r"blz|beleza|ok|okay|certo|ah|oh|ufa|fechou|combinado|bora|sounds\s+good|"
    rf"{_THANKS}|mudando\s+de\s+assunto|outra\s+coisa|por\s+falar\s+nisso|by\s+the\s+way|btw|"
    r"changing\s+the\s+subject|anyway|enfim|ali[aá]s)\s*)+[.,!;:]+"
)
_HEAD: Final = re.compile(
    rf"^\s*(?:(?:{_GREETING}|{_PLEASE})(?:{_SEP})+|{_ASIDE_LEAD}\s*|(?:btw|by\s+the\s+way)\s+)+(?=\S)",
    _F,
)


def without_chatter(text: str) -> str:
    """`text` without greetings and "please" in front, thanks, "please", laughter, "again"
    and emojis behind; `text` itself when nothing is cut or nothing would be left."""
    if not text or text.lstrip().startswith("/"):
        return text  # commands stay as sent
    if "\n" in text.strip():  # a list a line: only a greeting opening its first line goes
        first, rest = text.lstrip().split("\n", 1)
        head = _HEAD.sub("", first)
        return f"{head}\n{rest}" if head.strip() and head != first else text
    cut = _HEAD.sub("", text)
    tail = _TAIL.search(" " + cut)
    if tail is not None:
        colon = cut.rfind(":")
        # "anota: 🎬" (a colon closing a word), not an emoticon's ":)"
        if colon > 0 and cut[colon - 1].isalnum() and colon >= tail.start() - 1:
            return text  # "anota: 🎬": what follows the colon is the content, whatever it is
        kept = (" " + cut)[: tail.start()]
        last = re.findall(r"\w+", fold_same_length(kept).lower())[-1:]
        # "add the show Cheers", "salva o filme LOL": after a type's word the tail is its title
        one = last and last[0] in TYPE_WORDS and last[0].removesuffix("s") == last[0]
        cut = cut if one else kept  # (a plural is a list: "list my movies again")
    if (
        ":" not in cut
        and not _NAMED_LAST.search(cut)
        and (text.rstrip().endswith("?") or _ASKED_FIRST.match(fold_same_length(cut).lower()))
        and (bare := _QUESTION_TAIL.sub("", cut))
        and re.search(r"\w+\W+\w+", bare)
    ):
        cut = bare
    question = "?" if text.rstrip().endswith("?") and not cut.rstrip().endswith("?") else ""
    cut = cut.strip() + question
    return cut if re.search(r"[^\W_]", cut) else text  # a letter or digit left, not "_"
