"""Several things to save in one message (issue 26), read in code where the split is unambiguous.

- links: a message asking to save (or made only of) two or more links: one item per link;
- notes: "anota: leite; pão", or one note a line after "anota:": split on ";" and line
  breaks only, never on commas or "e" ("anota: comprar leite, pão e ovos" is one list);
- titles: a save verb and a plural type noun, "salva os filmes matrix e interestelar",
  "add the shows Dark, Severance and The Office": split on commas, ";", "e", "and", "&";
  with no noun, an explicit list (commas, line breaks, bullets: "salva Duna, Matrix e
  Tenet", "put A, B and C on my list") of title-like pieces is several movies, the type
  a bare title after a save verb gets (issue 41);
- typed parts: pieces that say what they are, "a série Dark e o filme Duna", "anota X e
  guarda esse link <url>": each saved as the type it names (a note and a link in one
  message are two items); an untyped piece takes the message's first verb's type.

A title may hold "e" / "and" itself ("velozes e furiosos", "pride and prejudice"). The
pieces split on those words stay joinable (`Run`): a source joins them back (TMDB, by
looking the longer run up first: agent/conversation/batching.py), and without one a list
of well-known titles does. A singular noun ("o filme velozes e furiosos") is one title,
never split; with no noun at all ("salva matrix e interestelar") the planner decides what
it is, and the enrichment tools split it by the same lookup (agent/tools/enrich.py).

At most `MAX_BATCH` items are taken from one message (agent/conversation/batching.py cuts
the list once the titles are settled); the reply says how many were left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from agent.understanding.smalltalk import asks_about_link
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.urls import extract_urls, is_video_url
from agent.understanding.vocabulary import DELETE_VERBS, SEARCH_VERBS, save_verb_typo

MAX_BATCH: Final = 10
BatchKind = Literal["links", "notes", "titles", "mixed"]
TitleType = Literal["movie", "tv_show"]
PieceType = Literal["movie", "tv_show", "note", "link", "video"]


@dataclass(frozen=True, slots=True)
class Run:
    """Title pieces split on "e" / "and" / "&", with the words between them."""

    atoms: tuple[str, ...]
    separators: tuple[str, ...]  # one fewer than atoms

    def joined(self, start: int, end: int) -> str:
        """Atoms `start`..`end` (exclusive) as the message wrote them together."""
        text = self.atoms[start]
        for sep, atom in zip(
            self.separators[start : end - 1], self.atoms[start + 1 : end], strict=True
        ):
            text += sep + atom
        return text


@dataclass(frozen=True, slots=True)
class Batch:
    kind: BatchKind
    pieces: tuple[str, ...]  # what to save, as read without a source (not yet cut)
    item_type: TitleType | None = None
    runs: tuple[Run, ...] = ()  # titles: the same text, joinable by a lookup
    types: tuple[PieceType, ...] = ()  # mixed: each piece's type, in order
    # titles split only on "e" / "and" with a source at hand: a split only when the source
    # knows every part (agent/conversation/batching.py), else the planner's
    confirm: bool = False
    guessed: bool = False  # titles: no word said their type (a source may know it)
    about: tuple[str, ...] = ()  # mixed: what each link is said to be about ("" for none)


_F: Final = re.IGNORECASE | re.UNICODE
_POLITE: Final = (
    r"(?:(?:por\s+favor|pfv|pls|please|ok|oi|hey|ah|oh|e|and|agora|now|tamb[ée]m|tb|tbm|tmb|also|"
    r"quero|queria|gostaria\s+de|i\s+want\s+to|i\s+wanna|i\s+d\s+like\s+to|i.d\s+like\s+to|"
    r"(?:can|could|would|will)\s+(?:you|u)|(?:voc[êe]|vc|tu)\s+(?:pode|podia|poderia|consegue))"
    r"[,!\s]+)*"
)
SAVE_VERB_RE: Final = (
    r"(?:salva|salvar|salve|guarda|guardar|guarde|anota|anotar|anote|adiciona|adicionar|"
    r"adicione|bota|botar|bote|p[õo]e|p[õo]r|ponha|coloca|colocar|coloque|joga|jogar|jogue|"
    r"inclui|incluir|inclua|registra|registrar|add|save|store|keep|put|stash|note(?:\s+down)?|"
    r"jot(?:\s+down)?|bookmark)"
)
# where the save goes, after the last item: "na minha lista", "to my watchlist", and a list
# of a type, which types the items ("to my shows", "nas minhas séries", "na lista de filmes")
_LIST_TYPE: Final = r"s[ée]ries|seriados|shows|tv\s+shows|filmes|movies|films"
_DESTINATION: Final = (
    r"(?:n[ao]s?|[àá]s?|a(?=\s+minha)|pr[ao]s?|pra\s+a|para\s+a|em|to|on|onto|into|in)\s+(?:"
    r"(?:(?:minha|meu|my|the|a|o)\s+)?(?:lista|list|watchlist|watch\s+list|fila|queue)"
    rf"(?:\s+(?:de|of)\s+(?P<of>{_LIST_TYPE}))?|"
    rf"(?:minhas|meus|my)\s+(?P<own>{_LIST_TYPE})(?:\s+(?:list|lista))?|"
    r"(?:my|the)\s+(?P<one>movie|film|show|tv\s+show|series)\s+(?:list|watchlist|queue))"
)
_FILL: Final = (
    # "too"/"also" right after the verb open a title ("add Too Late") unless more follows, and
    # "lá" a title ("salva La La Land") unless where it goes follows
    r"(?:(?:a[ií]|ae|pfv|pls|please|por\s+favor|pra\s+mim|para\s+mim|for\s+me|tamb[ée]m|tb|tbm|"
    r"l[aá](?=\s*[,:]|\s+(?:pra|para|na|no|nas|nos|em|in|on|a[ií])\b)|"
    r"(?:too|also)(?=\s*[,:]|\s+(?:the|a|an|these|this|that|my)\b)|"
    + _DESTINATION.replace("(?P<of>", "(?:").replace("(?P<own>", "(?:").replace("(?P<one>", "(?:")
    + r")[,:\s]+)*"
)
_PLURAL: Final = (
    r"(?:(?:os|as|these|the|both|esses|essas|estes|estas|seguintes|following|dois|duas|"
    r"tr[eê]s|two|three|meus|minhas|my|uns|umas|alguns|algumas|some|a\s+few|few|mais|more)\s+)*"
    r"(?P<noun>filmes|movies|films|s[ée]ries|seriados|tv\s+shows|shows|series"
    # "os filme X e Y": a plural said by its article alone, the noun's "s" dropped
    r"|(?:(?<=\bos\s)|(?<=\besses\s)|(?<=\bmeus\s))filme|(?:(?<=\bas\s)|(?<=\bessas\s)|(?<=\bminhas\s))s[ée]rie)\b"
)
# where the list is, between the noun and the colon opening it: "add these movies here: A, B"
# (politeness there is cut before any reader: vocabulary.plain_save_head)
_NOUN_FILL: Final = r"(?:(?:\s+(?:aqui|here|a[ií]|ae))*\s*[:-]|(?:\s+(?:tamb[ée]m|too|also))?\s*,?)"
_TITLES: Final = re.compile(
    rf"^\s*{_POLITE}{SAVE_VERB_RE}\s+{_FILL}{_PLURAL}{_NOUN_FILL}\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
_NOTES: Final = re.compile(
    rf"^\s*{_POLITE}(?:anota|anote|anotar|notas|note|notes|"
    rf"(?:salva|salve|guarda|guarde|save|add|keep)\s+(?:(?:as|essas|estas|these|the)\s+)?"
    rf"(?:notas|notes))\s*(?:a[ií]|isso|this|these|isto)?\s*(?::|-|\n)\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
# "anota essas duas coisas:\n- X\n- Y": a few words naming the list, then one note a line
_NOTES_LISTED: Final = re.compile(
    rf"^\s*{_POLITE}(?:anota|anote|anotar|note(?:\s+down)?)(?:\s+[^\W\d][\w-]*){{1,4}}\s*:\s*\n"
    rf"\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
_ASKS_SAVE: Final = re.compile(rf"^\s*{_POLITE}{SAVE_VERB_RE}\b", _F)
# what the whole request is for, after the last item: "pra eu ver", "to watch this weekend"
_PURPOSE: Final = (
    r"(?:(?:que\s+)?(?:eu\s+)?(?:quero|queria|vou|i\s+want\s+to|i\s+wanna|want\s+to|wanna|"
    r"i\s+m\s+gonna|gonna)\s+|(?:pra|para|p/)\s+(?:(?:eu|mim|a\s+gente|gente|n[oó]s)\s+)?)"
    r"(?:ver|assistir|maratonar|rever|ler|olhar)(?:\s+(?:depois|dps|mais\s+tarde|hoje|hj|amanh[ãa]|"
    r"logo|no\s+fds|no\s+fim\s+de\s+semana|de\s+noite|[àa]\s+noite|com\s+calma|um\s+dia))?|"
    r"to\s+(?:watch|see|binge|read)(?:\s+(?:later|tonight|soon|sometime|this\s+weekend|"
    r"someday))?|for\s+later|for\s+the\s+weekend|for\s+tonight|"
    r"(?:pra|para|p/)\s+(?:depois|dps|mais\s+tarde)|"
    # "q um dia eu vejo", "que depois eu assisto": when it will be seen, said as a promise
    r"(?:q|que)\s+(?:(?:um|qualquer)\s+dia\s+|depois\s+|dps\s+|mais\s+tarde\s+)?(?:eu\s+)?"
    r"(?:vejo|assisto|leio)(?:\s+(?:depois|dps|um\s+dia|qualquer\s+dia))?"
)
_TAIL_WORD: Final = (
    rf"{_DESTINATION}|{_PURPOSE}|pra\s+mim|para\s+mim|for\s+me|tamb[ée]m|tb|tbm|too|also|"
    r"please|pls|plz|por\s+favor|pfv|pfvr|pf|a[ií]|ae|l[aá]"
)
_TAIL: Final = re.compile(rf"(?:[\s,]+(?:{_TAIL_WORD}))+\s*[.!]*\s*$", _F)
_DESTINATION_RE: Final = re.compile(_DESTINATION, _F)


# why the user saves, after the last item and a comma: a word that says so, in lower case
# (a title after a comma is one more item: ", Que Horas Ela Volta")
_WHY: Final = re.compile(
    r",\s+(?:q|que|pq|porque|pois|because|since|cause|cuz|coz"
    # a remark in the first person: ", quero ver com meu pai", ", vou fazer o barbenheimer"
    r"|(?:eu\s+|i\s+)?(?:quero|queria|vou|preciso|tô|tava|bora|vamos|gonna|wanna|want|need"
    r"|i'?m|i'?ll|we'?re|we'?ll))\s+[^,;\n]*$"
)


def cut_tail(body: str) -> tuple[str, TitleType | None]:
    """`body` without where the save goes and what it is for, and the type that says the
    items are ("to my shows": TV shows), if it says one."""
    body = _WHY.sub("", body)  # ", q o pessoal falou bem": why, after the last item
    tail = _TAIL.search(body)
    if tail is None:
        return body, None
    return body[: tail.start()], _destined(tail.group())


def _destined(text: str) -> TitleType | None:
    """The type of the list `text` sends things to ("nas minhas séries", "to my movies")."""
    said: TitleType | None = None
    for match in _DESTINATION_RE.finditer(text):
        noun = match.group("of") or match.group("own") or match.group("one")
        if noun:
            said = (
                "movie"
                if fold(noun) in ("filmes", "movies", "films", "movie", "film")
                else "tv_show"
            )
    return said


_HARD: Final = re.compile(r"\s*(?:[,;\n]|\s\+\s)\s*")
_SOFT: Final = re.compile(r"(\s+(?:e|and|&)\s+|\s*&\s*)", _F)
_NOTE_SPLIT: Final = re.compile(r"\s*(?:;|\n)\s*")
_BULLET: Final = re.compile(r"^(?:[-*•·]|\d{1,2}[.)])\s+")
_QUOTES: Final = "\"'«»“”‘’"
_LINK_GLUE: Final = frozenset("e and & ou or tambem too also links link esses these estes".split())

# Well-known titles with "e" / "and" / "&" in them: kept whole when no source is at hand.
# A run that starts one of the prefixes ("harry potter e a ...") is kept whole too.
KNOWN_TITLES: Final = frozenset(
    fold(t)
    for t in (
        "velozes e furiosos",
        "the fast and the furious",
        "fast and furious",
        "fast & furious",
        "pride and prejudice",
        "orgulho e preconceito",
        "sense and sensibility",
        "razão e sensibilidade",
        "romeu e julieta",
        "romeo and juliet",
        "tom e jerry",
        "tom and jerry",
        "crime e castigo",
        "crime and punishment",
        "guerra e paz",
        "war and peace",
        "a bela e a fera",
        "beauty and the beast",
        "a dama e o vagabundo",
        "lady and the tramp",
        "o bom o mau e o feio",
        "the good the bad and the ugly",
        "dumb and dumber",
        "debi e loide",
        "marley e eu",
        "marley & me",
        "marley and me",
        "bonnie e clyde",
        "bonnie and clyde",
        "thelma e louise",
        "thelma & louise",
        "lilo e stitch",
        "lilo & stitch",
        "rick and morty",
        "rick e morty",
        "sex and the city",
        "o gordo e o magro",
        "law and order",
        "law & order",
        "mr and mrs smith",
        "sr e sra smith",
        "gods and monsters",
        "dungeons & dragons",
        "o menino e a garça",
        "the boy and the heron",
        "o menino e o mundo",
        "harry e sally",
        "pinky e cérebro",
        "pinky and the brain",
        "a branca de neve e os sete anões",
        "snow white and the seven dwarfs",
        "ali baba e os quarenta ladrões",
        "o rei e eu",
        "the king and i",
        "o velho e o mar",
        "the old man and the sea",
        "sexo mentiras e videotape",
        "sex lies and videotape",
        "amor e outras drogas",
        "love & other drugs",
        "wallace e gromit",
        "wallace & gromit",
        "master and commander",
        "bill & ted",
        "bill e ted",
        "cats & dogs",
        "como cães e gatos",
        "starsky & hutch",
        "starsky e hutch",
        "will & grace",
        "will e grace",
        "mike & molly",
        "two and a half men",
        "dois homens e meio",
        "brothers & sisters",
        "the man and the moon",
        "os fantasmas se divertem",
        "o jardim secreto",
    )
)
KNOWN_PREFIXES: Final = tuple(
    fold(p) + " "
    for p in (
        "harry potter e",
        "harry potter and",
        "indiana jones e",
        "indiana jones and",
        "percy jackson e",
        "percy jackson and",
        "charlie e a",
        "charlie and the",
        "bill e ted",
        "bill & ted",
        "a bela e",
        "beauty and",
    )
)


def is_known_title(text: str) -> bool:
    """Whether `text` is a well-known title holding "e"/"and", or the start of a known run."""
    folded = fold(text)
    return folded in KNOWN_TITLES or any(folded.startswith(p) for p in KNOWN_PREFIXES)


def read_batch(text: str, *, split_and: bool = False) -> Batch | None:
    """The several items `text` asks to save, when reading them is unambiguous; else None.

    `split_and`: no source can join titles back (TMDB is not configured), so a bare "salva
    X e Y" of title-like pieces is several titles too, well-known titles kept whole."""
    message = clean_text(text)
    if not message or len(message) > 4_000 or message.startswith("/"):
        return None
    message = _reframed(_unheaded(_as_asked(message)))
    return (
        _links(message)
        or _notes(message)
        or _counted(message)
        or _titles(message)
        or _mixed(message)
        or _bare_titles(message, split_and=split_and)
    )


_ONE_NOTE: Final = re.compile(
    rf"^\s*{_POLITE}(?:anota|anote|anotar|nota|note|notes|jot(?:\s+down)?|write\s+down|(?:make|take)\s+a\s+note)\s*(?:a[ií])?\s*:\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)


def headed_note(text: str) -> str | None:
    """The text of an explicit one-note message ("anota: X", "note: X"), else None."""
    match = _ONE_NOTE.match(clean_text(text))
    if match is None:
        return None
    pieces = [p for p in (_clean_piece(x) for x in _NOTE_SPLIT.split(match.group("body"))) if p]
    return pieces[0] if len(pieces) == 1 else None


def _links(message: str) -> Batch | None:
    urls = list(dict.fromkeys(extract_urls(message)))
    if len(urls) < 2 or asks_about_link(message):
        return None
    rest = message
    for url in urls:
        rest = rest.replace(url, " ")
    only_links = all(w in _LINK_GLUE for w in fold(rest).split())
    if not (only_links or _ASKS_SAVE.match(message)):
        return None
    return Batch("links", tuple(urls))


def _clean_piece(piece: str) -> str:
    piece = _BULLET.sub("", piece.strip())
    return piece.strip().strip(_QUOTES).strip(" .!")


def _notes(message: str) -> Batch | None:
    """Notes a line (or after ";"); after a plural "notas"/"notes" and a colon, a list with
    commas too ("salva as notas: comprar pilha, pagar o iptu")."""
    match = _NOTES.match(message) or _NOTES_LISTED.match(message)
    if match is None:
        return None
    pieces = [p for p in (_clean_piece(x) for x in _NOTE_SPLIT.split(match.group("body"))) if p]
    head = fold(message[: match.start("body")]).split()
    if len(pieces) == 1 and ("notas" in head or "notes" in head):
        pieces = _comma_pieces(pieces[0])
    if len(pieces) < 2:
        return None
    return Batch("notes", tuple(pieces))


def _comma_pieces(body: str) -> list[str]:
    """`body` split on commas and a last "e"/"and" after them ("A, B e C")."""
    pieces = [p for p in (_clean_piece(x) for x in body.split(",")) if p]
    pieces = [re.sub(r"^(?:e|and|&)\s+", "", p, flags=_F) for p in pieces]
    if len(pieces) > 1 and len(last := _LAST_AND.split(pieces[-1])) == 2:
        pieces = [*pieces[:-1], *(_clean_piece(p) for p in last)]
    return pieces


_COUNTS: Final[dict[str, int]] = {
    **dict.fromkeys(("2", "dois", "duas", "two"), 2),
    **dict.fromkeys(("3", "tres", "três", "three"), 3),
    **dict.fromkeys(("4", "quatro", "four"), 4),
    **dict.fromkeys(("5", "cinco", "five"), 5),
}
# "duas coisas pfv: A, B", "two notes: A, and B", "3 things to remember: A, B e C"
_COUNTED: Final = re.compile(
    rf"^\s*{_POLITE}(?:(?:anota|anote|note|salva|save|add)\s+)?(?:(?:as|the)\s+)?"
    rf"(?P<count>{'|'.join(_COUNTS)})\s+(?:coisas|notas|tarefas|itens|things|notes|tasks|items)"
    rf"(?P<aside>(?:\s+[^\W\d][\w-]*){{0,4}})\s*:\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
_LAST_AND: Final = re.compile(r"\s+(?:e|and|&)\s+", _F)


def _counted(message: str) -> Batch | None:
    """Notes announced by their count ("duas coisas pfv: marcar dentista, comprar presente"):
    split on ";" and line breaks, else on commas and a last "e"/"and", and taken only when
    the pieces are as many as the count said."""
    match = _COUNTED.match(message)
    if match is None:
        return None
    count = _COUNTS[match.group("count").lower()]
    body = match.group("body")
    pieces = [p for p in (_clean_piece(x) for x in _NOTE_SPLIT.split(body)) if p]
    if len(pieces) != count:
        pieces = _comma_pieces(body)
    if len(pieces) != count or not all(pieces):
        return None
    return Batch("notes", tuple(pieces))


def _listed(message: str, body: str) -> str:
    """The body of a list written one item a line, without the request's own line: the
    message's first line is the request ("add esses filmes pra mim:", "add these pls") when
    it ends with ":" or when the lines below are bullets and it is not; else `body`."""
    if "\n" not in message:
        return body
    first, rest = message.split("\n", 1)
    lines = [line for line in rest.split("\n") if line.strip()]
    bulleted = bool(lines) and all(_BULLET.match(line.strip()) for line in lines)
    if first.rstrip().endswith(":") or (bulleted and not _BULLET.match(first.strip())):
        return rest.strip()
    return body


# English "series" names one show as well as several: several only after a word that counts
# them ("as series", "these series", "two series"), or written "séries"
_SERIES_COUNTED: Final = re.compile(
    r"\b(?:os|as|esses|essas|estes|estas|these|those|both|dois|duas|tr[eê]s|two|three|uns|"
    r"umas|alguns|algumas|some|few|more|mais|meus|minhas|seguintes|following)\s+$",
    _F,
)


def _one_series(noun: str, before: str) -> bool:
    """Whether the type noun `noun`, after the words `before`, may name one show ("the
    series Parks and Rec")."""
    return noun.lower() == "series" and _SERIES_COUNTED.search(before) is None


def _titles(message: str) -> Batch | None:
    match = _TITLES.match(message)
    if match is None:
        return None
    listed = ":" in message[match.end("noun") : match.start("body")]
    if (
        _one_series(match.group("noun"), message[: match.start("noun")])
        and not listed
        and _HARD.search(match.group("body")) is None
    ):
        return None  # "save the series Parks and Rec": one show's title
    noun = fold(match.group("noun"))
    kind: TitleType = "movie" if noun in ("filmes", "movies", "films", "filme") else "tv_show"
    body = _listed(message, cut_tail(match.group("body"))[0].strip())
    runs: list[Run] = []
    for part in _HARD.split(body):
        part = _GLUE.sub("", part.strip())  # "A and B, plus the show C"
        if "\n" in body:  # one title a line: "eduardo e monica" on its line is one title
            runs += [Run((_clean_piece(part),), ())] if _clean_piece(part) else []
            continue
        tokens = _SOFT.split(_clean_piece(part))  # [piece, separator, piece, ...]
        atoms = [_clean_piece(a) for a in tokens[0::2]]
        if all(atoms):
            runs.append(Run(tuple(atoms), tuple(tokens[1::2])))
        elif any(atoms):  # "e" at an end ("matrix e"): what is there is one piece
            runs.append(Run((" ".join(a for a in atoms if a),), ()))
    pieces = [piece for run in runs for piece in known_runs(run)]
    if len(pieces) < 2:
        return None
    if any(_PIECE_KIND.match(p) for p in pieces[1:]):
        # "os filmes X e Y e a série Z": a piece that says what it is is that; after a
        # plural ("e as séries The Office e o Urso") the pieces that say nothing are of it
        typed: list[tuple[PieceType, str] | None] = []
        current: PieceType = kind
        for p in pieces:
            named = _PIECE_KIND.match(p)
            one = _typed_piece(p, current)
            if one is not None and named and _PLURAL_KIND.match(fold(named.group("kind"))):
                current = one[0]
            typed.append(one)
        if all(t is not None for t in typed):
            kept = [t for t in typed if t is not None]
            return Batch("mixed", tuple(t for _, t in kept), types=tuple(k for k, _ in kept))
    return Batch("titles", tuple(pieces), item_type=kind, runs=tuple(runs))


def known_runs(run: Run) -> list[str]:
    """The titles in `run` with no source: split everywhere, but known titles kept whole."""
    out: list[str] = []
    i = 0
    while i < len(run.atoms):
        for j in range(len(run.atoms), i + 1, -1):
            if is_known_title(run.joined(i, j)):
                out.append(run.joined(i, j))
                i = j
                break
        else:
            out.append(run.atoms[i])
            i += 1
    return out


def split_title(title: str) -> tuple[Run, ...] | None:
    """A single title the planner named, as runs of pieces when it holds ",", "e", "and"."""
    runs: list[Run] = []
    for part in _HARD.split(clean_text(title)):
        tokens = _SOFT.split(_clean_piece(part))
        atoms = [_clean_piece(a) for a in tokens[0::2]]
        if not all(atoms):
            return None
        runs.append(Run(tuple(atoms), tuple(tokens[1::2])))
    if sum(len(r.atoms) for r in runs) < 2:
        return None
    return tuple(runs)


# -- several things that say what they are, or a list of bare titles (issue 41) -----------

_NOTE_VERB: Final = re.compile(
    r"^(?:anota|anote|anotar|note(?:\s+down)?|jot(?:\s+down)?|nota|notes?)\b", re.IGNORECASE
)
_KIND_NOUNS: Final[dict[str, PieceType]] = {
    **dict.fromkeys("filme movie film filmes movies films".split(), "movie"),
    **dict.fromkeys("serie seriado show series seriados shows".split(), "tv_show"),
    **dict.fromkeys("nota note anotacao lembrete".split(), "note"),
    **dict.fromkeys("link site artigo article pagina page".split(), "link"),
    **dict.fromkeys("video".split(), "video"),
}
_ARTICLES: Final = (
    r"(?:(?:o|a|os|as|um|uma|the|a|an|esse|essa|este|esta|esses|essas|this|that|these)\s+)?"
)
# a plural one ("e os filmes Barbie e Duna") names several titles of that type
_PLURAL_KIND: Final = re.compile(r"^(?:filmes|movies|films|series|seriados|tv\s+shows|shows)$")
_KIND_WORD: Final = (
    r"(?:filmes|movies|films|s[ée]ries|seriados|tv\s+shows|shows|"
    r"filme|movie|film|s[ée]rie(?:\s+de\s+tv)?|seriado|tv\s+show|show|nota|note|anota[çc][ãa]o|"
    r"link|site|artigo|article|p[áa]gina|page|v[íi]deo)"
)
# " e " / " and " that opens a piece saying what it is: "... e o filme Duna", "... e
# guarda esse link https://...", "... and https://..."
# a new sentence too, when it names a kind or an address: "jot down: X. also save this link <url>"
_SENTENCE: Final = (
    rf"[.;!]\s+(?:(?:e|and|also|tamb[ée]m|tb|tbm|plus)\s+)*(?=(?:{SAVE_VERB_RE}\s+{_FILL})?"
    rf"{_ARTICLES}{_KIND_WORD}\b|(?:{SAVE_VERB_RE}\s+{_FILL})?(?:https?://|www\.))"
)
_TYPED_BOUNDARY: Final = re.compile(
    rf"\s+(?:e|and|&|mais|plus)\s+(?=(?:{SAVE_VERB_RE}\s+)?{_ARTICLES}{_KIND_WORD}\b|"
    rf"{SAVE_VERB_RE}\b|https?://|www\.)|{_SENTENCE}",
    _F,
)
# after a note verb only a verb of its own or an address opens another piece: "anota que
# preciso ver a série Dark e o filme Duna" is one note
_VERB_BOUNDARY: Final = re.compile(
    rf"\s+(?:e|and|&|mais|plus)\s+(?={SAVE_VERB_RE}\b|"
    rf"(?:{_ARTICLES}(?:link|site|v[íi]deo|page|p[áa]gina)\s*[:,-]?\s*)?(?:https?://|www\.))|"
    rf"{_SENTENCE}",
    _F,
)
_HEAD: Final = re.compile(
    rf"^\s*{_POLITE}(?P<verb>{SAVE_VERB_RE})\b\s*:?\s*{_FILL}"
    rf"(?:(?:these|this|estes|estas|esses|essas|isso|isto|os\s+seguintes|the\s+following)"
    rf"(?:\s+(?:aqui|a[ií]|ae|here))?\s*)?{_FILL}"
    rf"\s*[:,-]?\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
_PIECE_KIND: Final = re.compile(
    rf"^(?:{SAVE_VERB_RE}\s+{_FILL})?{_ARTICLES}(?P<kind>{_KIND_WORD})\b\s*[:,-]?\s*(?P<rest>.*)$",
    _F | re.DOTALL,
)
# "andor (show)", "duna (filme)", "slow horses (the series)", "dark (uma série)"
_KIND_AFTER: Final = re.compile(
    rf"^(?P<rest>.*\S)\s*\(\s*(?:(?:the|a|an|o|um|uma)\s+)?(?P<kind>{_KIND_WORD})\s*\)$", _F
)
_GLUE: Final = re.compile(r"^(?:(?:e|and|&|mais|plus|tamb[ée]m|also)\s+)+", _F)
_PIECE_VERB: Final = re.compile(rf"^{SAVE_VERB_RE}\s+{_FILL}(?P<rest>.*)$", _F | re.DOTALL)


def _kind_of(word: str) -> PieceType | None:
    folded = fold(word).split()
    return _KIND_NOUNS.get(folded[0]) if folded else None


# what a link is about, said after its kind ("esse link da oficina", "the link about taxes"):
# a few words after a preposition, nothing asked of their own
_DESCRIBED: Final = re.compile(
    r"^(?:da|do|de|das|dos|sobre|about|from|of|on|for|pra|para|que|q|that|which)"
    r"(?:\s+[^\W\d]\w*){1,4}$"
)


def link_about(piece: str) -> str | None:
    """What a piece with one link says the link is about ("esse link da oficina <url>": "da
    oficina"; "" when nothing), or None when its words say more than that."""
    rest = piece
    for url in extract_urls(piece):
        rest = rest.replace(url, " ")
    named = _PIECE_KIND.match(rest.strip())
    leftover = named.group("rest") if named else _PIECE_VERB.sub(r"\g<rest>", rest.strip())
    leftover = re.sub(_FILL + r"$", "", _TAIL.sub("", " " + leftover).strip() + " ").strip()
    if not fold(leftover).strip():
        return ""
    if named is None or not _DESCRIBED.match(fold(leftover)):
        return None
    return leftover.split(None, 1)[1]  # "da oficina": what it is about is "oficina"


def _typed_piece(piece: str, default: PieceType) -> tuple[PieceType, str] | None:
    """What one piece is and its text: a link by its address, a kind it names, else `default`."""
    urls = extract_urls(piece)
    if urls:
        if len(urls) > 1 or link_about(piece) is None:
            return None  # a link with words of its own: the planner reads it
        return ("video" if is_video_url(urls[0]) else "link"), urls[0]
    after = _KIND_AFTER.match(piece)  # "andor (show)", "duna (filme)"
    if after is not None:
        kind = _kind_of(after.group("kind"))
        text = _clean_piece(_TAIL.sub("", after.group("rest")))
        return (kind, text) if kind in ("movie", "tv_show") and text else None
    named = _PIECE_KIND.match(piece)
    if named is not None:
        kind = _kind_of(named.group("kind"))
        text = _clean_piece(_TAIL.sub("", named.group("rest")))
        if kind in (None, "link", "video") or not text:
            return None  # "o link" with no address names nothing to save
        return kind, text
    verb = _PIECE_VERB.match(piece)
    if verb is not None and _NOTE_VERB.match(fold(piece)):
        default = "note"  # "... e anota pagar a luz"
    text = _clean_piece(_TAIL.sub("", verb.group("rest") if verb else piece))
    if default == "note":
        text = _SAID_THAT.sub("", text)  # "anota que preciso X": the note is "preciso X"
    return (default, text) if text else None


_SAID_THAT: Final = re.compile(r"^(?:que|q|that)\s+(?=\S)", _F)


def _mixed(message: str) -> Batch | None:
    """ "salva a série Dark e o filme Duna", "anota X e guarda esse link <url>"."""
    head = _HEAD.match(message)
    if head is None:
        return None
    default: PieceType = "note" if _NOTE_VERB.match(fold(head.group("verb"))) else "movie"
    boundary = _VERB_BOUNDARY if default == "note" else _TYPED_BOUNDARY
    lines = "\n" in head.group("body").strip()  # one piece a line, each saying what it is
    typed_parts = all(  # "filme A, série B", "A (show), B (show)": each part says its kind
        _PIECE_KIND.match(_GLUE.sub("", part.strip())) or _KIND_AFTER.match(part.strip())
        for part in _HARD.split(head.group("body"))
    )
    if not boundary.search(head.group("body")) and not lines and not typed_parts:
        return None
    pieces: list[tuple[PieceType, str]] = []
    abouts: dict[int, str] = {}
    body = head.group("body")
    first = _PIECE_KIND.match(body)  # the first piece says what it is
    for part in _HARD.split(body):
        for chunk in boundary.split(part):
            chunk = _GLUE.sub("", _BULLET.sub("", chunk.strip()))  # ", e anota ...", "- "
            if not chunk:
                continue
            typed = _typed_piece(chunk, default)
            if typed is None:
                return None
            named = _PIECE_KIND.match(chunk)
            if (
                named is not None
                and _PLURAL_KIND.match(fold(named.group("kind")))
                and not _one_series(named.group("kind"), chunk[: named.start("kind")])
            ):
                # "os filmes Barbie e Duna": each a title of that type
                tokens = _SOFT.split(typed[1])
                atoms = [_clean_piece(a) for a in tokens[0::2]]
                if not all(atoms):
                    return None
                run = Run(tuple(atoms), tuple(tokens[1::2]))
                pieces += [(typed[0], title) for title in known_runs(run)]
                continue
            if typed[0] in ("link", "video"):  # "esse link da oficina <url>": what it is about
                abouts[len(pieces)] = link_about(chunk) or ""
            pieces.append(typed)
    kinds = {kind for kind, _ in pieces}
    if lines and not all(
        _PIECE_KIND.match(_BULLET.sub("", p.strip())) or extract_urls(p)
        for p in head.group("body").strip().split("\n")
        if p.strip()
    ):
        return None  # lines that do not each say what they are: the lines' reading
    if len(pieces) < 2 or (kinds <= {"movie"} and default == "movie" and first is None):
        return None  # untyped titles only: the titles' reading (TMDB may join them)
    about = tuple(abouts.get(i, "") for i in range(len(pieces)))
    return Batch(
        "mixed",
        tuple(text for _, text in pieces),
        types=tuple(kind for kind, _ in pieces),
        about=about if any(about) else (),
    )


def _bare_titles(message: str, *, split_and: bool = False) -> Batch | None:
    """ "salva Duna, Matrix e Tenet", "put A, B and C on my list": an explicit list of titles;
    "salva Duna e Tenet" too when `split_and` (no source to join them back)."""
    head = _HEAD.match(message)
    if head is None or _NOTE_VERB.match(fold(head.group("verb"))):
        return None
    body, destined = cut_tail(head.group("body"))
    destined = destined or _destined(message[: head.start("body")])
    body = _listed(message, body.strip())
    hard = _HARD.search(body) is not None
    if not (hard or _SOFT.search(body)) or extract_urls(body):
        return None
    runs: list[Run] = []
    for part in _HARD.split(body):
        part = _GLUE.sub("", part.strip())  # "A, B, and C", "A and B, plus C"
        if "\n" in body:  # one title a line (bullets or not): its "e" is the title's
            if _clean_piece(part):
                runs.append(Run((_clean_piece(part),), ()))
            continue
        tokens = _SOFT.split(_clean_piece(part))
        atoms = [_clean_piece(a) for a in tokens[0::2]]
        if not all(atoms):
            return None
        runs.append(Run(tuple(atoms), tuple(tokens[1::2])))
    pieces = [piece for run in runs for piece in known_runs(run)]
    said = _said_type(pieces[-1]) if len(pieces) > 1 else None
    if said is not None:  # "add mindhunter, it's a series": what the titles are, no title
        titles = [cut_tail(p)[0].strip() for p in pieces[:-1]]  # "arcane on my watchlist"
        if not all(titles) or not all(_title_like(p) for p in titles):
            return None
        return Batch("mixed", tuple(titles), types=(said,) * len(titles))
    if len(pieces) < 2 or not all(_title_like(p) for p in pieces):
        return None
    # "salva X e Y": several titles without a source to join them back; with one, only
    # when it knows every part ("velozes e furiosos" stays one)
    confirm = not hard and not split_and
    return Batch(
        "titles",
        tuple(pieces),
        item_type=destined or "movie",
        runs=tuple(runs),
        confirm=confirm,
        guessed=destined is None,
    )


# "quero ver esses filmes: A, B e C. salva aí": the request closes the message, or a wish
# to watch heads the list (a list to watch is a list to keep)
_CLOSING_SAVE: Final = re.compile(
    rf"^(?P<rest>.*?\S)\s*[.!;,]+\s*{_POLITE}(?P<verb>{SAVE_VERB_RE})"
    r"(?:\s+(?:a[ií]|ae|l[aá]|tudo|todos|todas|eles|elas|them|these|those|all|it|pra\s+mim|"
    r"para\s+mim|for\s+me|pls|plz|please|pfv|por\s+favor|tb|tbm|pf|pra\s+ver|na\s+lista|"
    r"(?:to|on)\s+my\s+list))*\s*[.!]*\s*$",
    _F | re.DOTALL,
)
_WISH_HEAD: Final = re.compile(
    rf"^\s*{_POLITE}(?:(?:want\s+to|wanna)\s+)?(?:(?:ver|assistir|rever|maratonar|watch|see|binge)\s+)?"
    rf"{_PLURAL}"
    r"(?:\s+(?:pra|para|to)\s+(?:ver|assistir|maratonar|watch|see|binge))?"
    r"(?:\s+(?:pls|plz|please|pfv|por\s+favor|a[ií]|aqui|here))*\s*:\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)


# a heading naming the titles' type, a few words of its own at most, then the list
_NOUN_HEADED: Final = re.compile(
    # "agora os filmes: A, B" after a list of series: the next list, as the last was
    r"^\s*(?:(?:agora|agr|e|and|now|tb|tbm|tamb[ée]m|also|plus)[,\s]+){0,2}"
    r"(?:(?:os|as|the|my|meus|minhas|uns|umas|some|mais|more)\s+)?"
    r"(?P<noun>filmes|movies|films|s[ée]ries|seriados|tv\s+shows|shows)"
    r"(?P<words>(?:\s+[^\W\d][\w'’-]*){0,5})\s*:\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
# a list headed by things wanted, of no one type: "coisas pra ver:", "stuff to watch:"
_THINGS_HEADED: Final = re.compile(
    r"^\s*(?:(?:as|my|minhas|umas|some)\s+)?(?:coisas|things|stuff)"
    r"(?P<words>(?:\s+[^\W\d][\w'’-]*){1,5})\s*:\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
# words of a heading that tell of titles to watch: a list to keep ("to watch", "pra ver no
# feriado", "que quero ver", "for later", "recommended")
_HEADING_WANTS: Final = re.compile(
    r"\b(?:to\s+(?:watch|see|binge)|(?:pra|para)\s+(?:ver|assistir|maratonar|rever|depois)|"
    r"(?:quero|queria|want\s+to|wanna)\s+(?:ver|assistir|watch|see)|for\s+later|"
    r"recommend\w*|recomend\w*)\b"
)
# words of a heading that tell of titles seen or not wanted: no list to keep
_HEADING_SAYS: Final = frozenset(
    """vi vimos assisti assistimos terminei terminados vistos vistas watched saw seen finished
    nao not never nunca odiei odeio hated hate ruins bad worst piores apaga apagar delete
    remove tira didn don doesn won wasn""".split()
)


# a request put as a question: "can you put A and B on my list?", "pode salvar A e B?"
_POLITE_ASK: Final = re.compile(
    r"^\s*(?:(?:oi|hey|hi|por\s+favor|pfv|pls|please)[,!\s]+)?(?:(?:voc[êe]|vc|tu)\s+)?"
    r"(?:pode|podia|poderia|consegue|can|could|would|will)\s+(?:(?:you|u)\s+)?"
    rf"(?:me\s+|por\s+favor\s+|please\s+)?{SAVE_VERB_RE}\b",
    _F,
)


# a save verb, a few words, a colon, the list: "anota esses filmes pra eu ver dps: A, B",
# "add to my list: A (show), B", "salva pra mim: filme A, série B"
_HEADED: Final = re.compile(
    rf"^\s*{_POLITE}(?P<verb>{SAVE_VERB_RE})\s+(?P<head>[^:\n,]{{1,80}}?)\s*:\s*(?P<body>\S.*)$",
    _F | re.DOTALL,
)
_HEAD_NOUN: Final = re.compile(
    r"\b(?P<noun>filmes|movies|films|series|seriados|tv\s+shows|shows)\b"
)
# the words a request's heading is made of besides its type, where it goes and what for
_HEADING_WORDS: Final = frozenset(
    """os as esses essas estes estas these those the my meus minhas seguintes following
    alguns algumas some uns umas mais more aqui here ai ae pls plz please pfv mim me for
    tb tbm tambem too also la dois duas tres quatro cinco seis two three four five six""".split()
)


def _unheaded(message: str) -> str:
    """`message` without the heading of its list: before the colon a save request says its
    type, where the items go and what for ("pra eu ver dps", "to my list"), never a title;
    "<verb> <plural noun>: <list>" when it says a type, else "<verb>: <list>"."""
    match = _HEADED.match(message)
    if match is None:
        return message
    head = fold(match["head"])
    typed = _destined(head)
    rest = _TAIL.sub("", " " + head)  # where it goes and what for, at the heading's end
    rest = _DESTINATION_RE.sub(" ", rest)
    noun = _HEAD_NOUN.search(rest)
    # "these 3 films for me:": how many the list holds is no word of its own either
    words = [w for w in _HEAD_NOUN.sub(" ", rest).split() if not w.isdigit()]
    if not set(words) <= _HEADING_WORDS or (rest == " " + head and not words):
        return message  # a word of its own ("o que a Ana disse:") or nothing to cut
    listed = message[match.end("head") :]  # ": A, B", ":\n- A\n- B"
    if noun is not None:
        return f"{match['verb']} {noun['noun']}{listed}"
    if typed is not None:
        return f"{match['verb']} {'filmes' if typed == 'movie' else 'series'}{listed}"
    if _NOTE_VERB.match(fold(match["verb"])):
        return message  # "anota pra mim: X, Y" is a note's
    return f"{match['verb']}{listed}"


def _as_asked(message: str) -> str:
    """`message` with its save verb's one slip undone ("slava": "salva") and without the "?"
    of a request put as a question."""
    first, _, rest = message.partition(" ")
    verb = save_verb_typo(fold(first))
    if verb is not None and rest:
        message = f"{verb} {rest}"
    if message.rstrip().endswith("?") and _POLITE_ASK.match(message):
        message = message.rstrip(" ?")
    return message


def _reframed(message: str) -> str:
    """`message` as "<verb> <noun>: <list>" when its list of typed titles is asked to be
    kept at its end or after a wish to watch; as "<verb> <list>" when only where the list
    goes asks it ("Heat e Ronin na minha lista", "A, B and C to my watchlist"); else
    `message` itself."""
    if "?" in message or _ASKS_SAVE.match(message):
        return message
    headed = _NOUN_HEADED.match(message)
    heading = fold(headed["words"]) if headed is not None else ""
    if headed is not None and (
        not heading
        or (_HEADING_WANTS.search(heading) and _HEADING_SAYS.isdisjoint(heading.split()))
    ):
        # "shows to watch: A, B, C", "films my sister recommended:\nA\nB": a list headed by
        # what its titles are, alone or wanted, is a list to keep; any other heading ("movies
        # I loved this year", "filmes que a Ana já viu") tells of them
        return f"salva {headed['noun']}: {headed['body']}"
    things = _THINGS_HEADED.match(message)
    wanted = fold(things["words"]) if things is not None else ""
    if (
        things is not None
        and _HEADING_WANTS.search(wanted)
        and _HEADING_SAYS.isdisjoint(wanted.split())
    ):
        return f"salva: {things['body']}"  # "coisas pra ver:\n• filme A\n• série B"
    closing = _CLOSING_SAVE.match(message)
    rest, verb = (closing["rest"], closing["verb"]) if closing else (message, "salva")
    wish = _WISH_HEAD.match(rest)
    if wish is not None and (closing is not None or _POLITE_WISH.match(rest)):
        return f"{verb} {wish['noun']}: {wish['body']}"
    tail = _TAIL.search(message)
    listed = message[: tail.start()] if tail is not None else ""
    if (
        tail is not None
        and (_DESTINATION_RE.search(tail.group()) or _LATER.search(tail.group()))
        and _HARD_OR_SOFT.search(listed)
        and _CLAUSE_WORDS.isdisjoint(fold(listed).split())
    ):
        return f"salva {message}"
    return message


# with no verb asking, a list says nothing else: a verb, a person or a negation in it makes
# it a sentence ("apaga A e B na lista", "A e B já estão na lista", "I watched A and B")
_CLAUSE_WORDS: Final = (
    DELETE_VERBS
    | SEARCH_VERBS
    | frozenset(
        """tem tenho temos tinha ta esta estao estou sao era eram foi is are was were be have has
    had ja already vi vimos assisti assistimos terminei watched saw seen finished eu i me you
    voce vc ele ela eles elas we nos my meu minha meus minhas nao not no nunca never marca
    mark quero queria want acho think""".split()
    )
)


_HARD_OR_SOFT: Final = re.compile(r",|;|\s(?:e|and|&)\s", _F)
# "pra ver depois", "to watch later": a request to keep, like where it goes
_LATER: Final = re.compile(
    r"(?:pra|para)\s+(?:eu\s+)?(?:ver|assistir|ler)\s+depois|to\s+(?:watch|read)\s+later|"
    r"for\s+later",
    _F,
)


_POLITE_WISH: Final = re.compile(
    r"^\s*(?:\w+[,!\s]+){0,2}?(?:quero|queria|i\s+want\s+to|i\s+wanna|wanna|want\s+to)\s+"
    r"(?:ver|assistir|rever|maratonar|watch|see|binge)\b",
    _F,
)


def _said_type(piece: str) -> PieceType | None:
    """The type a piece says the others are ("é uma série", "it's a show"), else None."""
    from agent.understanding.kinds import correction

    plural = _PLURAL_NOUN.match(fold(piece).strip(" .!"))  # "A, B and C, tv shows"
    if plural is not None:
        return _kind_of(plural.group("noun").split()[-1])  # "tv shows": shows
    return correction(piece)


# a plural type noun alone, as the last piece of a list: what the titles before it are
_PLURAL_NOUN: Final = re.compile(
    r"^(?:(?:all|both|as|os|todas?|todos|sao|they\s*re|they\s+are|are|all\s+of\s+them)\s+)?"
    r"(?P<noun>filmes|movies|films|series|seriados|shows|tv\s+shows|tv\s+series)$"
)


def _title_like(piece: str) -> bool:
    """A piece that reads as a title on its own: not a to-do, a kind Lembra does not keep or
    personal data, and no words about a title ("Duna pra ver com a Ana", "Heat to watch
    with Bob") or a person ("o Pedro"): "X e Y" with such a piece is one phrase, the
    planner's, never a list split on its "e"."""
    from agent.understanding.kinds import carries_clause, guessed_title, names_person

    if carries_clause(piece) or names_person(piece):
        return False
    return guessed_title("salva " + piece, piece) is not None
