"""Model text checked by meaning against what happened (DESIGN 9.2, 10.2).

Model text is read clause by clause. Effect verbs are recognised by their form
(agent/understanding/morphology.py), and the words around them say what the clause
does with the effect:

- `done`: the assistant says it happened ("salvei", "foi adicionado", "Anotado:",
  "Jaws has been saved", "Filme Arrival salvo com sucesso");
- `promise`: it says it will ("vou salvar", "I'll remember that", "estou apagando");
- `state`: it says what the list holds ("Matrix está na sua lista", "X is saved",
  "já está", "você tem X salvo");
- `absent`: it says the list does not hold something ("X não está na sua lista",
  "não encontrei X na sua lista", "you don't have X saved");
- `history`: it says what the user did ("você salvou X");
- `offer`: it offers to act ("quer que eu salve?", "posso colocar na sua lista,
  se quiser"), which is no claim but caps the reply at AMBIGUOUS.

Negated clauses ("não salvei", "nothing was deleted") and questions claim nothing.
The words naming what a claim is about (its target) are matched against the user's
stored items; the turn's ledger events say which effects really happened. A save or a
delete claimed as done needs its event this turn; a field changed needs `item_updated`;
a note about the user needs `belief_updated` or `memory_noted`.

Names are found by form, not by list: a known title, a quotation, the capitalised run
before "(1999)", capitalised words inside a sentence (with the small words between
them: "Mente sem Lembranças"). A "?" or "!" followed by lower case or "(" is a title's
own mark, not a sentence end. A claim that names nothing ("já salvei", "I've added it")
is about the entries of the list its ":" opens, the clause after its ":", or what an
earlier clause named ("Matrix é um clássico. Já salvei."). Counts ("você tem 3 itens"),
emptiness ("sua lista está vazia") and deletes of the whole list are checked against the
items (by kind when the items carry their kind). A bare "Pronto!" / "Done!" claims what
the user's message asked for.

`judge` decides with what it is given (pure, used by bench/claims.py);
`check_model_text` gathers the turn's events and the stored items and calls it. A
false claim is an invalid output: the problem goes back to the model (DESIGN 3.1).
Emojis and echoed data fences are removed from model text (`deliverable`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.textlanguage import foreign_language, language_problem
from agent.tools.candidates import naming_any, query_words
from agent.tools.matching import ONE_TYPO, TYPE_WORDS, URL_NOISE, item_words, word_score
from agent.understanding.language import EN_WORDS, PT_WORDS
from agent.understanding.morphology import (
    ACTION_NOUNS,
    LIGHT_VERBS,
    Effect,
    VerbForm,
    needs_particle,
    needs_place,
    promise_only,
    verb_forms,
)
from agent.understanding.textnorm import fold
from storage.documents import ITEM_TYPES

ClaimKind = Literal["done", "promise", "state", "absent", "history", "offer"]
FALSE_CLAIM: Final = (
    "your message claims an effect that did not happen ({effects}): call the tool, "
    "or say what happened"
)
FALSE_STATE: Final = (
    "your message says the user's list {holds} {what}, but the stored items say otherwise: "
    "say only what the stored items and this turn's tool results show"
)
# what each effect needs to have happened this turn (ledger event types, DESIGN 3.9, 9.5)
EVIDENCE: Final[dict[Effect, frozenset[str]]] = {
    "save": frozenset(
        {"item_saved", "memory_noted", "belief_updated", "bookmark_set", "reminder_set"}
    ),
    "delete": frozenset({"item_deleted", "all_deleted"}),
    "update": frozenset({"item_updated", "belief_updated", "memory_noted", "item_marked"}),
}
# what a claim about the list itself (not about the user) needs
LIST_EVIDENCE: Final[dict[Effect, frozenset[str]]] = {
    "save": frozenset({"item_saved", "bookmark_set"}),
    "delete": frozenset({"item_deleted", "all_deleted"}),
    "update": frozenset({"item_updated", "item_marked"}),
}

# -- words ------------------------------------------------------------------------------------

_QUOTED: Final = re.compile(r"«([^«»]{1,200})»|“([^“”]{1,200})”|\"([^\"]{1,200})\"")
_URL: Final = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_TOKEN: Final = re.compile(r"\x01\d+\x01|\x02\d{4}\x02|[^\W_]+", re.UNICODE)
# sentence ends: . ! ? followed by space or end, ; and new lines; not a ! or ? after which the
# text goes on in lower case or with "(": a title's own mark ("Achei Que Horas Ela Volta? na
# sua lista", "Corra! (2017)")
_SENTENCE: Final = re.compile(
    r"(?<=[.…])\s+|(?<=[!?])\s+(?![\sa-zà-öø-ÿ(\x02])|[;\n]+|(?<=[.!?])$"
    # an emoji ends a sentence when a capital follows: "Removido ✅ Sua lista tem..."
    r"|(?<=[\U0001f000-\U0001faff\u2600-\u27bf\ufe0f])\s+(?=[A-ZÀ-Ý])"
)
# "(1999)" after a title
_TITLE_YEAR: Final = re.compile(r"\(\s*((?:1[89]|20)\d\d)\s*\)")
# one entry of a list: "- Duna", "2. Up (2009) — salvo", "• Matrix"
_LIST_ENTRY: Final = re.compile(r"^\s*(?:[-*•–]|\d{1,2}[.)])\s+(.+?)\s*$")
_ENTRY_STATUS: Final = re.compile(r"\s[-–—]\s|:\s")
_CLAUSE: Final = re.compile(r"([,:]|\s[-–—]\s|^[-–—]\s)")


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# a clause that starts with these (and only these) before a participle is a bare "Salvo!"
_DISCOURSE: Final = _set(
    """pronto prontinho feito ok okay certo beleza perfeito otimo show sim claro done great
    sure alright perfect yes yep yeah right good excelente legal combinado entendido e and
    also tambem aqui here now agora ja already successfully voila ta tudo just"""
)
_DISCOURSE_PHRASES: Final = tuple(
    tuple(p.split())
    for p in (
        "got it",
        "all set",
        "there you go",
        "here you go",
        "tudo bem",
        "com sucesso",
        "all done",
    )
)
# a question's last clause that only asks for agreement: "Salvei X, tá?"
_TAGS: Final = _set("ta ok okay certo ne beleza blz viu right alright sim")
# small words inside a title: "Salvo pelo Gongo", "Stand by Me", "Cidade de Deus"
_TITLE_JOINERS: Final = _set(
    "de da do das dos e o a os as um uma em no na pelo pela para por of the an and by in on "
    "with to for at from"
)
_NAME_INNER: Final = _TITLE_JOINERS | _set("sem without nao not no nunca never")
_NEGATION_PT: Final = _set("nao nunca nem nada nenhum nenhuma sem jamais falhei falhou")
_NEGATION_EN: Final = _set(
    """not never nothing no none nobody neither nor without cannot cant dont didnt doesnt
    wont wasnt werent isnt arent havent hasnt hadnt couldnt shouldnt wouldnt unable failed
    fail"""
)
# contractions fold to two words: "didn't" -> "didn t"
_NEGATED_AUX: Final = _set(
    "didn don doesn won wasn weren isn aren haven hasn hadn couldn shouldn wouldn can ain"
)
_BOUNDARY: Final = _set("mas porem contudo entretanto entao but so however although though")
_YOU: Final = _set("voce voces vc vcs tu senhor senhora you")
_I_WE: Final = _set("i we eu nos")
# between an auxiliary and the verb
_ADVERBS: Final = _set(
    """ja agora tambem so apenas mesmo bem devidamente certinho direitinho corretamente
    entao finalmente ainda just already also now successfully safely correctly properly all
    both finally indeed really still went gone go ahead and te me lhe o a os as lo la los
    las it them this that
    isso isto ele ela eles elas""",
)
# Portuguese auxiliaries before a participle
_PT_DONE_AUX: Final = _set(
    "foi foram fora ficou ficaram ficaria deixei deixamos sido ser acabou acabaram coloquei"
)
_PT_PROMISE_AUX: Final = _set("sera serao vai vao")
_PT_STATE_AUX: Final = _set(
    "esta estao ta tao estava fica ficam continua continuam permanece permanecem segue seguem consta constam"
)
_PT_HAVE: Final = _set("tem tenho temos tinha possui possuo")
_PT_FUTURE_AUX: Final = _set("vou vamos irei iremos")
_PT_JUST: Final = _set("acabei acabamos consegui conseguimos pude pudemos")
_EN_DONE_AUX: Final = _set("was were been got gets")
_EN_STATE_AUX: Final = _set("is are s re remains remain stays stay sits sit")
_EN_HAVE: Final = _set("have has had ve d")
_EN_FUTURE: Final = _set("will ll gonna shall")
_EN_PROGRESSIVE: Final = _set("m am re are currently")
_PT_PROGRESSIVE: Final = _set("estou to tou estamos")
_CLITIC: Final = _set("lo la los las")
# offers: the clause asks the user whether the assistant should act
_OFFER_PHRASES: Final = tuple(
    tuple(p.split())
    for p in (
        "quer que eu",
        "queres que eu",
        "deseja que eu",
        "gostaria que eu",
        "prefere que eu",
        "quer que",
        "posso",
        "podemos",
        "devo",
        "quer",
        "queres",
        "deseja",
        "gostaria de",
        "que tal",
        "se quiser",
        "se voce quiser",
        "caso queira",
        "caso deseje",
        "do you want me to",
        "want me to",
        "would you like me to",
        "would you like",
        "do you want",
        "should i",
        "shall i",
        "can i",
        "may i",
        "could i",
        "i can",
        "i could",
        "we can",
        "if you want",
        "if you like",
        "if you d like",
        "if you wish",
        "let me know if",
        "how about",
    )
)
_IF_YOU_WANT: Final = tuple(
    tuple(p.split())
    for p in (
        "se quiser",
        "se voce quiser",
        "caso queira",
        "caso deseje",
        "if you want",
        "if you like",
        "if you d like",
        "if you wish",
    )
)
# verbs an offer may name besides the effects: reading and reminding
_READ_VERBS: Final = re.compile(
    r"^(?:procur|busc|list|mostr|lembr|pesquis|search|find|look|show|remind|check)"
)
# where an effect puts or takes an item: "na sua lista", "to your list"
_PLACE_WORDS: Final = _set(
    """lista listas biblioteca colecao memoria itens favoritos watchlist salvos acervo
    list lists library collection items memory favorites favourites watchlist saved notes
    notas anotacoes listinha listinhas"""
)
_TYPE_WORDS: Final = _set(
    """filme filmes serie series seriado link links site video videos nota notas anotacao
    item itens documentario movie movies film films show shows tv link video note notes
    item items documentary entry entries pagina page artigo article"""
)
_EVERYTHING: Final = _set("tudo todos todas everything all")
_ABOUT_USER: Final = _set(
    """gosta gosto gostar prefere preferencia preferencias gosto gostos curte ama odeia
    like likes love loves prefer prefers preference preferences taste tastes enjoy enjoys
    hate hates favorite"""
)
# words that never name an item: function words of both languages, fillers, effect talk
_GENERIC: Final = (
    PT_WORDS
    | EN_WORDS
    | _PT_DONE_AUX
    | _PT_STATE_AUX
    | _EN_STATE_AUX
    | _PLACE_WORDS
    | _TYPE_WORDS
    | _set(
        """sucesso successfully pedido pediu pediram mencionou mencionado disse falou pedi
        asked mentioned said wanted requested voce you your sua seu suas seus a o as os um
        uma the an it this that these those them ele ela eles elas isso isto esse essa
        aquele aquela lo la los las lhe te me to in on into from at for of da do de na no
        em para pra pro com with as como also tambem agora now ja already aqui here la there
        sim yes done ok okay pronto feito tudo everything all todos todas itens items mais
        more dele dela deles delas its their title titulo ano year nome name disso disto
        nisso dessa desse down off out away rid deseja quer queria sobre about que what
        which qual quais favor please por favor
        ve s ll d re m t got gets getting don doesn didn isn wasn aren weren haven hasn hadn
        couldn won estes estas aqueles aquelas inteira inteiro whole entire care
        titulos titles coisas things
        consegui conseguimos pude pudemos acabei acabamos ficou ficaram ficar fica ficam
        deixei deixamos tranquilo tranquila desde since ago atras semana passada passado last
        week month mes resultado resultados result results opcao opcoes option options
        dois duas tres ambos ambas both two three segundo segundos minuto minutos hora horas
        instante instantes momento second seconds minute minutes moment time vez
        janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro
        dezembro january february march april may june july august september october
        november december"""
    )
)
_YEAR: Final = re.compile(r"^(?:1[89]|20)\d\d$")


@dataclass(frozen=True, slots=True)
class _Tok:
    folded: str
    raw: str
    masked: bool = False  # part of a known title or a quotation: never a verb
    cap: bool = False  # capitalised inside a sentence: a name, even when a common word
    quoted: bool = False  # inside quotation marks or a URL


@dataclass(frozen=True, slots=True)
class Claim:
    effect: Effect
    kind: ClaimKind
    target: str = ""  # the words naming what the claim is about ("" when none)
    noting: bool = False  # the verb can be about the user ("anotei que você gosta...")
    about_user: bool = False  # the target speaks of the user's tastes
    to_list: bool = False  # the clause names the list, items or a type of item
    everything: bool = False  # "tudo", "everything"
    clause: str = ""
    # "Notas salvas.": a kind of item in general, true when the user keeps items of that kind
    kinds: tuple[str, ...] = ()
    # "você tem 3 itens", "sua lista está vazia" (0): how many items (of `kinds`) there are
    count: int | None = None
    # "limpei sua lista", "apaguei tudo": the effect is on the whole list (of `kinds`)
    whole: bool = False
    # False for what the facts cannot tell: "você tem 3 filmes do Nolan" (which are his?)
    checkable: bool = True

    @property
    def named(self) -> bool:
        return bool(self.target)


@dataclass(frozen=True, slots=True)
class Named:
    """What a stored item is called, as words: its title (or note text) and every word."""

    title: tuple[str, ...]
    words: frozenset[str]
    full: tuple[str, ...] = ()  # every word of the title, small ones too (for masking)


@dataclass(frozen=True, slots=True)
class ClaimFacts:
    """What a claim is checked against: this turn's events and the user's stored items."""

    events: frozenset[str] = frozenset()
    items: tuple[Named, ...] = ()
    user_text: str = ""
    extra_titles: tuple[str, ...] = field(default=())  # titles shown this turn (candidates)
    # False when the stored items are not known: a named claim is then judged by the events
    items_known: bool = True
    # how many items of each kind the user keeps (the kind's words, the count), when `items`
    # holds only the items the text can name: counts and emptiness are read from here then
    kept: tuple[tuple[frozenset[str], int], ...] | None = None


# -- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Sentence:
    clauses: list[list[_Tok]]
    question: bool
    # the entries of a list this sentence introduces ("Salvei estes filmes:\n- Duna\n- Up")
    entries: list[list[_Tok]] = field(default_factory=list)
    # per clause: whether a ":" ends it ("Anotado: | você gosta de terror")
    colons: list[bool] = field(default_factory=list)


def _clauses(
    message: str, masks: Sequence[tuple[str, ...]], language: str = "pt"
) -> list[_Sentence]:
    """Sentences (as lists of clauses of tokens), whether each is a question, and the list
    entries a sentence ending in ":" introduces."""
    quoted: list[str] = []

    def hold(match: re.Match[str]) -> str:
        quoted.append(next(g for g in match.groups() if g is not None))
        return f" \x01{len(quoted) - 1}\x01 "

    def hold_url(match: re.Match[str]) -> str:
        words = fold(match.group(0).replace("_", " ")).split()
        quoted.append(" ".join(w for w in words if w not in URL_NOISE))
        return f" \x01{len(quoted) - 1}\x01 "

    text = _QUOTED.sub(hold, _URL.sub(hold_url, _DATA_TAG.sub(" ", message)))
    text = _TITLE_YEAR.sub(lambda m: f" \x02{m.group(1)}\x02 ", text)
    lines = text.split("\n")
    sentences: list[_Sentence] = []
    for n, line in enumerate(lines):
        entries = _entries(lines[n + 1 :], quoted, masks) if _opens_list(line) else []
        parts = [s for s in _SENTENCE.split(line) if s and s.strip()]
        for k, sentence in enumerate(parts):
            question = sentence.rstrip().endswith("?")
            clauses: list[list[_Tok]] = []
            colons: list[bool] = []
            first = True
            pieces = _CLAUSE.split(sentence)
            for m in range(0, len(pieces), 2):
                tokens = _tokens(pieces[m], quoted, masks, initial=first)
                first = first and not tokens
                split = _split_coordinated(tokens, language)
                clauses += split
                colon = m + 1 < len(pieces) and pieces[m + 1] == ":"
                colons += [False] * (len(split) - 1) + [colon] if split else []
            if question and len(clauses) > 1 and all(t.folded in _TAGS for t in clauses[-1]):
                # "Salvei X, tá?": a tag asks for agreement, the sentence still states
                question = False
                clauses, colons = clauses[:-1], colons[:-1]
            sentences.append(
                _Sentence(clauses, question, entries if k == len(parts) - 1 else [], colons)
            )
    return sentences


def _opens_list(line: str) -> bool:
    return without_emojis(line).rstrip().endswith(":")


def _entries(
    lines: Sequence[str], quoted: list[str], masks: Sequence[tuple[str, ...]]
) -> list[list[_Tok]]:
    """The entries of the list that starts at `lines` ("- Duna", "2. Up (2009) — salvo")."""
    entries: list[list[_Tok]] = []
    for line in lines:
        match = _LIST_ENTRY.match(line)
        if match is None:
            break
        name = _ENTRY_STATUS.split(match.group(1))[0]
        tokens = _tokens(name, quoted, masks, initial=True)
        if tokens:
            entries.append(tokens)
    return entries


def _tokens(
    part: str, quoted: list[str], masks: Sequence[tuple[str, ...]], *, initial: bool
) -> list[_Tok]:
    """The tokens of one clause, known titles and quotations masked.

    A capitalised run before "(1999)" is a title too ("Salvei Ainda Estou Aqui (2024)");
    `cap` marks capitalised words inside a sentence, which name something even when they
    are common words ("O filme Ainda Estou Aqui foi adicionado").
    """
    tokens: list[_Tok] = []
    for raw in _TOKEN.findall(part):
        if raw.startswith("\x01"):
            inner = quoted[int(raw.strip("\x01"))]
            tokens += [_Tok(w, w, masked=True, quoted=True) for w in fold(inner).split()]
        elif raw.startswith("\x02"):
            tokens = _title_before_year(tokens, initial=initial)
            tokens.append(_Tok(raw.strip("\x02"), raw.strip("\x02")))
        else:
            cap = raw[:1].isupper() and not (initial and not tokens) and raw not in ("I", "Eu")
            tokens += [_Tok(w, raw, cap=cap) for w in fold(raw).split()]
    return _inside_names(_masked(tokens, masks))


def _inside_names(tokens: list[_Tok]) -> list[_Tok]:
    """Small words between capitalised ones belong to the name ("Mente sem Lembranças")."""
    out = list(tokens)
    k = 0
    while k < len(out):
        if not (out[k].cap or out[k].masked):
            k += 1
            continue
        j = k + 1
        while j < len(out) and out[j].folded in _NAME_INNER and out[j].raw[:1].islower():
            j += 1
        if k + 1 < j < len(out) and (out[j].cap or out[j].masked):
            out[k + 1 : j] = [replace(t, cap=True) for t in out[k + 1 : j]]
        k = j
    return out


def _plain(tokens: Sequence[_Tok]) -> list[str]:
    """The folded words outside names, for negations ("Brilho Eterno de uma Mente sem
    Lembranças" negates nothing)."""
    return ["" if t.masked or t.cap else t.folded for t in tokens]


def _title_before_year(tokens: list[_Tok], *, initial: bool) -> list[_Tok]:
    """`tokens` with the capitalised run that ends at a "(1999)" marked as a title."""
    start = len(tokens)
    while start > 0:
        tok = tokens[start - 1]
        if not (tok.raw[:1].isupper() or tok.raw[:1].isdigit() or tok.folded in _TITLE_JOINERS):
            break
        if start - 1 == 0 and initial and start < len(tokens):
            break  # a sentence's first word is capitalised anyway: "Encontrei X (2014)"
        start -= 1
    while start < len(tokens) and (
        tokens[start].folded in _TITLE_JOINERS or tokens[start].folded in _DISCOURSE
    ):
        start += 1
    return [*tokens[:start], *(replace(t, masked=True) for t in tokens[start:])]


def _split_coordinated(tokens: list[_Tok], language: str = "pt") -> list[list[_Tok]]:
    """A clause split where a conjunction starts another ("não achei X, mas salvei Y")."""
    clauses: list[list[_Tok]] = []
    current: list[_Tok] = []
    for k, tok in enumerate(tokens):
        # "salvei X e apaguei Y": a second verb after "e"/"and" starts its own clause
        coordinated = (
            tok.folded in ("e", "and")
            and k + 1 < len(tokens)
            and not tokens[k + 1].masked
            and any(v.form in _FINITE for v in verb_forms(tokens[k + 1].folded))
        )
        # "so" joins clauses in English; in Portuguese it is "só" (only)
        boundary = tok.folded in _BOUNDARY and (tok.folded != "so" or language == "en")
        if (boundary or coordinated) and not tok.masked and current:
            clauses.append(current)
            current = []
            continue
        current.append(tok)
    if current:
        clauses.append(current)
    return clauses


# forms that carry their own subject: "e apaguei", "and deleted" start a new claim
_FINITE: Final = frozenset({"done_1", "done_3", "past", "participle", "future_1"})


def _masked(tokens: list[_Tok], masks: Sequence[tuple[str, ...]]) -> list[_Tok]:
    """Tokens with known titles marked, so "Saved by the Bell" is never read as a verb."""
    if not masks:
        return tokens
    words = [t.folded for t in tokens]
    hidden = [t.masked for t in tokens]
    for title in masks:
        n = len(title)
        if not n or n > len(words):
            continue
        common = all(w in _GENERIC for w in title)
        for start in range(len(words) - n + 1):
            if common and not all(t.cap for t in tokens[start : start + n]):
                continue  # "It's been removed" is not the film "It"
            if tuple(words[start : start + n]) == title:
                for k in range(start, start + n):
                    hidden[k] = True
    return [replace(t, masked=h) for t, h in zip(tokens, hidden, strict=True)]


def _ends_with(words: Sequence[str], phrase: Sequence[str]) -> bool:
    return len(words) >= len(phrase) and tuple(words[-len(phrase) :]) == tuple(phrase)


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return any(tuple(words[i : i + n]) == tuple(phrase) for i in range(len(words) - n + 1))


def _strip_adverbs(words: list[str]) -> list[str]:
    """The words before a verb without the adverbs and clitics between it and its auxiliary."""
    while words and words[-1] in _ADVERBS:
        words = words[:-1]
    return words


def _negated(before: Sequence[str], language: str) -> bool:
    """Whether a negation governs the verb after `before`: anywhere in its clause ("You don't
    have Eternal Sunshine of the Spotless Mind saved"); clauses end at "mas", "but", commas."""
    window = list(before)
    for i, word in enumerate(window):
        if word in _NEGATION_PT:
            return True
        if word in _NEGATION_EN and (language == "en" or word != "no"):
            if word == "no" and language != "en":
                continue
            return True
        if word in _NEGATED_AUX and i + 1 < len(window) and window[i + 1] == "t":
            return True
    return False


def _offered(before: Sequence[str]) -> bool:
    return any(_contains(before, phrase) for phrase in _OFFER_PHRASES)


def _only_discourse(words: Sequence[str]) -> bool:
    rest = list(words)
    for phrase in _DISCOURSE_PHRASES:
        n = len(phrase)
        rest = [
            w
            for i, w in enumerate(rest)
            if not any(tuple(rest[j : j + n]) == phrase for j in range(max(0, i - n + 1), i + 1))
        ]
    return all(w in _DISCOURSE for w in rest)


def _kind(
    form: VerbForm,
    before: list[str],
    after: list[str],
    *,
    question: bool,
    wish: bool,
    language: str,
    command: bool = False,
    form_word: str = "",
    copula: bool = False,
) -> ClaimKind | None:
    """What a clause does with the effect verb at this position (None: nothing).

    `command`: the word is also a present or imperative form ("salva", "limpa").
    `copula`: a copula follows in the clause ("Adicionado Recentemente é ótimo"): a word
    that opens its clause is then the start of a name, not a bare "Adicionado!".
    """
    f = form.form
    if promise_only(form.lemma) and f not in ("infinitive", "future_1", "gerund"):
        return None
    if copula and _only_discourse(before) and f in ("participle", "past"):
        return None
    if _generic_subject(before):
        return None  # "Tudo o que você salvar fica guardado", "anything you save stays private"
    if question or wish:
        # "Você salvou Matrix?", "Salvar na sua lista?", "Posso salvar, se quiser."
        offered = ("infinitive", "subjunctive", "present_1", "future_1", "conditional")
        return "offer" if f in offered else None
    near = _strip_adverbs(list(before))
    if _offered(before) and f in ("infinitive", "subjunctive", "present_1"):
        return "offer"
    if (
        f == "gerund"
        and _only_discourse(before)
        and _for_the_user(after)
        and not any(w in _STATE_VERBS | _EN_FINITE | _PT_DONE_AUX for w in after)
    ):
        # "Salvando Duna na sua lista...", "Adding Jaws to your list now!"; not "Saving
        # Private Ryan isn't on your list"
        return "promise"
    if form.language == "pt":
        return _pt_kind(form, before, near, after, command=command, form_word=form_word)
    return _en_kind(form, before, near, after, language)


# "tudo o que você salvar", "anything you save": a rule about saving, not a claim
_UNIVERSAL: Final = _set("tudo todo toda todos todas qualquer anything everything whatever")


def _generic_subject(before: Sequence[str]) -> bool:
    for k, word in enumerate(before):
        if word in _UNIVERSAL and any(w in ("que", "you", "voce") for w in before[k + 1 : k + 4]):
            return True
    return False


def _for_the_user(after: Sequence[str]) -> bool:
    """Whether the words after a verb put its object in the list or hand it to the user."""
    return (
        _has_place(after)
        or _contains(after, ("pra", "voce"))
        or _contains(after, ("para", "voce"))
        or _contains(after, ("for", "you"))
        or any(w in ("agora", "now") for w in after)
    )


_PREPOSITIONS: Final = _set("de do da dos das em no na nos nas com para pra por pelo pela")
# "dei um jeito de salvar", "fiz questão de anotar", "tratei de apagar": it was done
_DONE_PERIPHRASES: Final = (
    ("jeito", "de"),
    ("questao", "de"),
    ("tratei", "de"),
    ("cuidei", "de"),
)
# first-person present forms that are also common nouns or adjectives
_NOUN_LIKE: Final = _set(
    "registro cadastro arquivo marco junto tiro retiro troco mudo limpo salvo gravo ajusto"
)


def _pt_kind(
    form: VerbForm,
    before: list[str],
    near: list[str],
    after: list[str],
    *,
    command: bool,
    form_word: str = "",
) -> ClaimKind | None:
    f = form.form
    last = near[-1] if near else ""
    if after[:1] and after[0] in _CLITIC and f in ("present_3", "participle", "infinitive"):
        f = "infinitive"  # "salvá-lo" folds to "salva lo"
    if f == "done_1":
        return "done"
    if f == "done_3":
        # "você salvou X" is the user's history; "o final mudou tudo" is a story
        if any(w in _YOU for w in before[-3:]):
            return "history"
        if _ends_with(near, ("a", "gente")):
            return "done"  # "a gente salvou": we did
        return "done" if _only_discourse(before) and form.effect != "update" else None
    if f == "participle":
        if any(w in _AGENT - {"por"} for w in after[:8]):
            return None  # "foi removida pelo diretor": a story, not an effect of ours
        if last in _PT_DONE_AUX:
            return "done"
        if last in _PT_PROMISE_AUX:
            return "promise"
        if last in _PT_STATE_AUX:
            return "state"
        if any(w in _PT_HAVE for w in before):
            return "state"
        if _only_discourse(before):
            # "Salvo!", "Anotada: ...", but "salva Matrix" is the user's command echoed
            if command and after and after[0] not in _COMPLEMENT_START | _DISCOURSE:
                return None
            return "done"
        if any(
            w in ("seu", "sua", "seus", "suas", "meu", "minha", "meus", "minhas") for w in before
        ):
            return None  # "seus filmes salvos": an adjective
        if (not after or after[0] in _COMPLEMENT_START) and form.effect != "update":
            return "done"  # "Filme Arrival salvo com sucesso", "Matrix adicionado à lista"
        return None
    if f == "infinitive":
        if last in _PT_FUTURE_AUX or _ends_with(near, ("estou", "indo")):
            return "promise"
        if (
            last in _PT_JUST
            or _ends_with(near, ("acabei", "de"))
            or _ends_with(near, ("acabamos", "de"))
            or any(_ends_with(near, p) for p in _DONE_PERIPHRASES)
        ):
            return "done"
        return None
    if f == "future_1":
        return "promise"
    if f == "future_3":
        return None if any(w in _YOU for w in before[-3:]) else "promise"
    if f == "present_1":
        if last == "eu":
            return "promise"
        # "Anoto X agora": a promise; "Registro de X" is a noun
        if _only_discourse(before) and after and after[0] not in _PREPOSITIONS:
            return None if form_word in _NOUN_LIKE else "promise"
        return None
    if f == "gerund":
        return "promise" if last in _PT_PROGRESSIVE else None
    return None


_AGENT: Final = _set("pelo pela pelos pelas por by")
_COMPLEMENT_START: Final = _set(
    """com na no nas nos a as em para pra pro aqui agora tambem ja ao aos a à dentro entre
    da do das dos de sim"""
)
_EN_FINITE: Final = _set("has have had ve is are was were does do did gets")
_EN_COMPLEMENT_START: Final = _set(
    "successfully to in into on onto for here now too already with from off for later"
)


def _en_kind(
    form: VerbForm, before: list[str], near: list[str], after: list[str], language: str
) -> ClaimKind | None:
    f = form.form
    particles = needs_particle(form.lemma)
    if particles is not None and f in ("past", "infinitive", "gerund"):
        if not any(w in particles for w in after[:12]):
            return None
    last = near[-1] if near else ""
    if f == "past" and [w for w in after[:3] if w not in _ADVERBS][:1] == ["by"]:
        return None  # "was saved by the hero": a story, not an effect of ours
    if f == "past":
        if last in _EN_DONE_AUX or (last == "now" and len(near) > 1):
            return "done"
        if near and near[-1] == "be" and len(near) > 1 and near[-2] in ("will", "ll"):
            return "promise"
        if last in _EN_STATE_AUX:
            # "is now stored" is news; "is saved", "is already saved" a state
            return "done" if "now" in before[-3:] else "state"
        if last in _EN_HAVE or last in _I_WE or last == "just":
            subject = [w for w in near[-4:] if w in _I_WE or w in _YOU]
            if subject and subject[-1] in _YOU:
                return "history"
            if subject or last in _I_WE:
                return "done"
            if last in _EN_HAVE and any(w in _YOU for w in before):
                return "state"  # "you have Jaws saved"
            return "done"
        if last in _YOU:
            return "history"
        if any(w in ("have", "has", "ve") for w in before) and any(w in _YOU for w in before):
            return "state"  # "you have Jaws saved", "you've got Jaws saved"
        if _only_discourse(before):
            if after and after[0] in _TYPE_WORDS:
                return None  # "Saved movies: ..." is a heading
            return "done"
        if before and before[-1] in ("the", "your", "my", "a", "an", "all", "any", "our", "their"):
            return None  # "your saved items": an adjective
        if (
            (not after or after[0] in _EN_COMPLEMENT_START)
            and form.effect != "update"
            and not any(w in _EN_FINITE for w in before)
        ):
            return "done"  # "Jaws saved to your list."; not "a couple has their memories erased"
        return None
    if f == "infinitive":
        if (
            last in _EN_FUTURE
            or _ends_with(near, ("going", "to"))
            or _ends_with(before, ("let", "me"))
        ):
            return "promise"
        if _ends_with(near, ("managed", "to")) or _ends_with(near, ("able", "to")):
            return "done"
        return None
    if f == "gerund":
        if last in _EN_PROGRESSIVE and (language == "en" or last != "a"):
            return "promise"
        return None
    return None


def _target(
    form: VerbForm, clause: list[_Tok], index: int, following: list[_Tok] | None
) -> list[_Tok]:
    """The words naming what the claim is about: the object after an active verb, the
    subject before a passive one or a state, or what follows a bare "Anotado:"."""
    subject = [t for t in clause[:index] if t.masked or t.cap or t.folded not in _DISCOURSE]
    after = clause[index + 1 :]
    near = _strip_adverbs([t.folded for t in subject])
    passive = form.form == "participle" or (
        form.form == "past" and bool(near) and near[-1] not in _I_WE | _YOU | _EN_HAVE
    )
    spans = [subject, after] if passive else [after, subject]
    for span in [*spans, following or []]:
        if _name_of(span):
            return span
    return after or subject


def _name_of(span: Sequence[_Tok]) -> str:
    """The span's naming words (folded), or "" when it only says "it", "o filme", "tudo"."""
    for k in range(1, len(span)):
        # the name ends where the place begins: "Duna | na sua lista de filmes"
        if span[k].folded in _IN | _INTO | _OUT_OF and not span[k].masked:
            if any(t.folded in _PLACE_WORDS for t in span[k + 1 : k + 4]):
                span = span[:k]
                break
    kept = [t.folded for t in span if t.masked or t.cap or _naming(t.folded)]
    if not kept:
        return ""
    # keep the span from the first naming word to the last (a title's own small words stay)
    folded = [t.folded for t in span]
    first = next(i for i, t in enumerate(span) if t.masked or t.cap or t.folded in kept)
    last = max(i for i, t in enumerate(span) if t.masked or t.cap or t.folded in kept)
    return " ".join(w for w in folded[first : last + 1] if not _YEAR.match(w))


def _about_user(words: Sequence[str]) -> bool:
    return any(w in _ABOUT_USER for w in words) or any(
        _contains(words, p) for p in (("sobre", "voce"), ("about", "you"), ("que", "voce"))
    )


def _naming(word: str) -> bool:
    return word not in _GENERIC and not _YEAR.match(word) and not word.isdigit()


_IN: Final = _set("na no em entre nas nos dentro in on among inside within")
_INTO: Final = _set("pra para pro to into na in")
_OUT_OF: Final = _set("da do de das dos from off out")
_LEFT: Final = _set("saiu sairam sumiu sumiram gone went left vanished")
_PART: Final = (("parte", "da"), ("parte", "de"), ("part", "of"))
_HOLDS: Final = _set(
    "tem contem inclui possui guarda has contains includes holds keeps features lists"
)
_NO_LONGER: Final = (("nao", "esta", "mais"), ("nao", "estao", "mais"), ("no", "longer"))
_POSSESSIVE: Final = _set("seu sua seus suas teu tua teus tuas your")
# "was already on your list", "X estava na lista": a state, said in the past
_STATE_VERBS: Final = _PT_STATE_AUX | _EN_STATE_AUX | _set("was were estavam isn aren wasn weren")
# what a gone item is said to be: "X não está mais", "X is no longer on your list"
_GONE_FILLER: Final = _set("mais longer no more")
_HERE: Final = _set("la ai there here")
_GERUND: Final = re.compile(r"(?:ando|endo|indo|ing)$")
# "I found X in your list", "Encontrei X na sua lista": a statement about what the list holds
_FOUND: Final = _set("achei encontrei localizei achamos encontramos localizamos found located find")
# "nada", "nenhum filme", "anything": nothing at all is what the clause speaks of
_NOTHING: Final = _set("nada nenhum nenhuma anything nothing")
_EMPTY: Final = _set("vazia vazio vazias vazios empty")
_HAVE_LIST: Final = _set("tem possui has have haven hasn")
_HAVE_AUX: Final = _set("do does did don doesn didn t not nao ainda still yet really realmente")
# fields of an item: "o ano de X agora é 1999", "the year for X is now 1999"
_FIELDS: Final = _set("ano titulo nome year title name")
_NUMBERS: Final[dict[str, int]] = {
    **{
        w: n
        for n, ws in enumerate(
            (
                "",
                "",
                "dois duas two",
                "tres three",
                "quatro four",
                "cinco five",
                "seis six",
                "sete seven",
                "oito eight",
                "nove nine",
                "dez ten",
            )
        )
        for w in ws.split()
    },
}
_ITEM_KINDS: Final = _set(
    """itens items coisas things titulos titles filmes movies films notas notes links videos
    series shows item coisa thing titulo title filme movie film nota note link video serie
    show"""
)
_GENERIC_KINDS: Final = _set(
    "itens items coisas things titulos titles item coisa thing titulo title"
)


def _is_place(words: Sequence[str], k: int) -> bool:
    """Whether `words[k]` names the list: "lista", or a kind after a possessive ("seus filmes")."""
    word = words[k]
    if word in _PLACE_WORDS:
        return True
    return word in _TYPE_WORDS and k > 0 and words[k - 1] in _POSSESSIVE


def _has_place(words: Sequence[str]) -> bool:
    """Whether the words put something in (or take it from) the list: "na sua lista", "to your
    movies", "nos seus filmes salvos"."""
    return any(
        w in _IN | _INTO | _OUT_OF | {"a", "aos", "as", "ao"}
        and any(_is_place(words, j) for j in range(k + 1, min(k + 4, len(words))))
        for k, w in enumerate(words)
    )


def _place_after(rest: Sequence[str], openers: frozenset[str]) -> bool:
    """Whether `rest` starts with a preposition of `openers` and names the list within 3 words."""
    if not rest:
        return False
    if rest[0] in openers and any(_is_place(rest, j) for j in range(1, min(4, len(rest)))):
        return True
    return any(tuple(rest[:2]) == p for p in _PART) and any(
        _is_place(rest, j) for j in range(2, min(5, len(rest)))
    )


def _after_place(clause: list[_Tok]) -> list[_Tok]:
    """The words after the place a clause names ("Consta em sua lista | o título X")."""
    words = [t.folded for t in clause]
    for k in range(len(words)):
        if _is_place(words, k):
            return clause[k + 1 :]
    return []


def _state_without_verb(
    clause: list[_Tok], language: str
) -> tuple[Effect, ClaimKind, list[_Tok]] | None:
    """ "Matrix está na sua lista", "X is now part of your list", "your list has X", "X saiu
    da sua lista", "X não está mais na sua lista", "X is off your list", "X não está na sua
    lista": statements about the list with no effect verb."""
    if _generic_subject([t.folded for t in clause]):
        return None  # "Tudo que você salvou está em «lista tudo»"
    # quoted words are what someone says ("diga «lista tudo»"), not the list
    words = ["" if t.quoted else t.folded for t in clause]
    for i, word in enumerate(words):
        if clause[i].masked:
            continue
        negated = _negated(_plain(clause[:i]), language) or words[i + 1 : i + 2] == ["t"]
        gone = any(_contains(words[: i + 3], p) for p in _NO_LONGER) or (
            language == "en" and _contains(words, ("not", "anymore"))
        )
        skip = _ADVERBS - _HERE | (_GONE_FILLER if gone else frozenset()) | {"t"}
        # "X tá te esperando na lista": a gerund between the state and the place
        rest = [w for w in words[i + 1 : i + 7] if w not in skip and not _GERUND.search(w)]
        news = any(w in ("now", "agora") for w in words[max(0, i - 2) : i + 3])
        subject = [t for t in clause[:i] if t.folded not in ("nao", "not", "no", "longer")]
        if word in _LEFT and _place_after(rest, _OUT_OF) and not negated:
            return "delete", "done", clause[:i]
        if word in ("foi", "foram", "entrou", "entraram", "went", "goes", "gone") and (
            _place_after(rest, _INTO)
        ):
            if not negated:
                return "save", "done", clause[:i]
        if word in _STATE_VERBS and _place_after(rest, _OUT_OF) and not negated:
            # "X is off your list", "X está fora da lista"
            return "delete", ("done" if news else "state"), subject
        if word in _STATE_VERBS | _set("faz fazem") and (
            _place_after(rest, _IN if word not in ("faz", "fazem") else frozenset())
            or (word not in ("faz", "fazem") and rest[:1] and rest[0] in _HERE)
            or tuple(rest[:2]) in (("in", "there"), ("la", "dentro"))
        ):
            if not [t for t in subject if t.folded not in _DISCOURSE]:
                subject = _after_place(clause) or subject  # "Consta em sua lista o título X"
            if gone:
                return "delete", "state", subject
            if negated:
                return "save", "absent", subject
            return "save", ("done" if news else "state"), subject
        if word in _PLACE_WORDS and i > 0 and words[i - 1] in ("sua", "your", "a", "the"):
            follows = [w for w in words[i + 1 : i + 4] if w not in _ADVERBS]
            if follows and follows[0] in _HOLDS and not negated:
                # "sua lista (agora) tem X": what it holds, after a save or a delete alike
                at = words.index(follows[0], i + 1)
                return "save", "state", clause[at + 1 :]
        # the subject before its auxiliaries and negation: "you do not have X", "você ainda não tem X"
        near = [w for w in words[:i] if w not in _HAVE_AUX]
        if word in ("tem", "tenho", "have", "has") and any(w in _YOU for w in near[-2:]):
            span = clause[i + 1 :]
            if span and (
                any(t.folded in _PLACE_WORDS for t in span) or span[-1].folded in ("saved", "salvo")
            ):
                return "save", "absent" if negated else "state", span
            if span and any(t.folded in _TYPE_WORDS for t in span[:3]) and _name_of(span):
                # "você tem o filme Matrix", not "você tem razão"
                return "save", "absent" if negated else "state", span
        if word == "era" and i > 0 and words[i - 1] == "ja" and not words[i + 1 :]:
            if _name_of(clause[: i - 1]):
                return "delete", "done", clause[: i - 1]  # "Duna já era": gone
        if (
            word == "down"
            and _place_after(rest, _IN)
            and any(w in ("got", "have", "ve") for w in words[:i])
        ):
            at = max(k for k, w in enumerate(words[:i]) if w in ("got", "have", "ve"))
            return "save", "done", clause[at + 1 : i]  # "I've got Jaws down on your list"
    return None


def _found_in_list(clause: list[_Tok], language: str) -> tuple[Claim, list[_Tok]] | None:
    """ "Encontrei X (1999) na sua lista", "I couldn't find X in your list": what the list holds
    (or lacks), said by a search. A search of the catalog names no place and claims nothing."""
    words = [t.folded for t in clause]
    for i, word in enumerate(words):
        if word not in _FOUND or clause[i].masked or not _has_place(words[i + 1 :]):
            continue
        if word == "find" and not _negated(_plain(clause[:i]), language):
            continue  # "find" claims only negated: "I couldn't find X in your list"
        span = clause[i + 1 :]
        for k in range(len(span)):
            if span[k].folded in _IN and _has_place([t.folded for t in span[k:]]):
                span = span[:k]
                break
        kind: ClaimKind = "absent" if _negated(_plain(clause[:i]), language) else "state"
        return _claim("save", kind, span, clause), span
    return None


def _empty_claim(clause: list[_Tok], language: str) -> tuple[Claim, list[_Tok]] | None:
    """ "Sua lista está vazia", "você ainda não salvou nada", "you haven't saved anything",
    "não tem nada salvo na sua lista": the list (or its items of a kind) holds nothing."""
    words = [t.folded for t in clause]
    kinds = tuple(w for w in words if w in _ITEM_KINDS - _GENERIC_KINDS)
    if any(w in _EMPTY for w in words) and any(w in _PLACE_WORDS for w in words):
        if not _negated(_plain(clause), language):
            return Claim("save", "state", clause=" ".join(words), count=0, kinds=kinds), []
        return None
    at = next((k for k, w in enumerate(words) if w in _NOTHING), None)
    if at is None:
        # "você não tem notas salvas": no item of a kind, said with a bare plural
        have = next((k for k, w in enumerate(words) if w in _HAVE_LIST), None)
        if have is None or not any(w in _YOU for w in words[:have]):
            return None
        kind = words[have + 1] if have + 1 < len(words) else ""
        negated = _negated(_plain(clause[:have]), language) or words[have] in ("haven", "hasn")
        if negated and kind in _PLURAL_KINDS - _GENERIC_KINDS:
            return Claim("save", "state", clause=" ".join(words), count=0, kinds=(kind,)), []
        return None
    if not (_negated(_plain(clause[:at]), language) or words[at] in ("nada", "nothing")):
        return None
    before = words[:at]
    you = any(w in _YOU for w in before)
    have = any(w in _HAVE_LIST for w in before)
    saved = any(
        v.effect == "save" and v.form in ("done_3", "past", "participle")
        for w in words
        for v in verb_forms(w)
    )
    there = any(w in ("there", "ha") for w in before) and _has_place(words)
    if (you and (have or saved)) or (have and not you and _has_place(words)) or there:
        if any(w in _I_WE for w in before):
            return None  # "eu não tenho nada salvo", "I have nothing saved": not the list
        return Claim("save", "state", clause=" ".join(words), count=0, kinds=kinds), []
    return None


def _bare_title_in_list(clause: list[_Tok], language: str) -> tuple[Claim, list[_Tok]] | None:
    """ "Listo! Bacurau (2019) na sua lista.": a title and the list, with no verb between."""
    words = [t.folded for t in clause]
    for k in range(1, len(words)):
        if words[k] not in _IN or not _place_after(words[k:], _IN):
            continue
        name = clause[:k]
        tail = [w for w in words[k:] if w not in _ADVERBS]
        if not all(
            w in _IN | _POSSESSIVE | _PLACE_WORDS | _TYPE_WORDS | {"a", "the"} for w in tail
        ):
            return None
        if not any(t.masked or t.cap for t in name) or _negated(_plain(clause[:k]), language):
            return None
        if any(t.folded in _STATE_VERBS | _PT_DONE_AUX | _EN_FINITE for t in name):
            return None
        return _claim("save", "state", name, clause), name
    return None


def _field_now(clause: list[_Tok], language: str) -> tuple[Claim, list[_Tok]] | None:
    """ "O ano de X agora é 1999", "The year for X is now 1999": an item was changed."""
    words = [t.folded for t in clause]
    for i, word in enumerate(words):
        if word not in _FIELDS or i + 1 >= len(words):
            continue
        for j in range(i + 2, len(words)):
            copula = clause[j].raw.lower() in ("é", "is", "s")
            near = words[j - 1 : j + 2]
            if copula and ("agora" in near or "now" in near):
                span = [t for t in clause[i + 2 : j] if t.folded not in ("agora", "now")]
                return _claim("update", "done", span, clause), span
    return None


def _nominal(clause: list[_Tok], language: str) -> Claim | None:
    """ "Fiz a remoção de Parasita", "I made the change": an effect said as a noun."""
    words = [t.folded for t in clause]
    for i, word in enumerate(words):
        if word not in LIGHT_VERBS or clause[i].masked or _negated(_plain(clause[:i]), language):
            continue
        for j in range(i + 1, min(i + 4, len(words))):
            effect = ACTION_NOUNS.get(words[j])
            if effect is not None:
                return _claim(effect, "done", clause[j + 1 :], clause)
    return None


@dataclass(frozen=True, slots=True)
class _Reading:
    """What one clause claims, with the words each claim is about."""

    claims: list[tuple[Claim, list[_Tok]]] = field(default_factory=list)
    consumed: bool = False  # the next clause was read as this one's target ("Anotado: X")
    mention: list[_Tok] = field(default_factory=list)  # what a claim-free clause named


# copulas after a word that opens its clause make that word part of a name
_COPULAS: Final = _set("é era is was")


def _read_clause(
    clause: list[_Tok],
    following: list[_Tok] | None,
    *,
    question: bool,
    wish: bool,
    language: str,
    colon: bool = False,
) -> _Reading:
    """What one clause claims; `colon`: a ":" ends it, so the next clause may say what
    ("Anotado: você gosta de terror")."""
    words = [t.folded for t in clause]
    for i, tok in enumerate(clause):
        if tok.masked:
            continue
        forms = verb_forms(tok.folded)
        if not forms:
            continue
        # the message's language first: "remove" is Portuguese in "ele remove"
        forms = tuple(sorted(forms, key=lambda v: v.language != language))
        before, after = words[:i], words[i + 1 :]
        command = any(v.form == "present_3" for v in forms)
        rest = after + [t.folded for t in following or []]
        copula = any(t.raw.lower() in _COPULAS for t in clause[i + 1 :])
        for form in forms:
            if needs_place(form.lemma) and not any(w in _PLACE_WORDS for w in rest):
                continue  # "mandei um e-mail" moves nothing into the list
            kind = _kind(
                form,
                before,
                rest if needs_particle(form.lemma) else after,
                question=question,
                wish=wish,
                language=language,
                command=command,
                form_word=tok.folded,
                copula=copula,
            )
            if kind is None:
                continue
            if _elsewhere(form, after) or (
                kind == "promise" and any(w in _CONDITIONS for w in after)
            ):
                return _Reading()  # "removido do streaming", "eu apago se você confirmar"
            # "Anotado: você gosta de terror": what follows a ":" says what, unless it has
            # its own effect verb ("Acabei de salvar: guardei X")
            said = following if colon and following and not _has_verb(following) else None
            span = _target(form, clause, i, said)
            negated = _negated(_plain(clause[:i]), language)
            if kind != "offer" and (negated or _nothing_done(after)):
                empty = _empty_claim(clause, language)
                if empty is not None:
                    return _Reading([empty])  # "você ainda não salvou nada"
                if negated and kind == "state" and form.effect == "save":
                    # "Você não tem X salvo", "X não está salvo": the list lacks X
                    return _Reading([(_claim("save", "absent", span, clause), span)])
                return _Reading(mention=span)
            claim = _claim(form.effect, kind, span, clause, noting=form.noting)
            if kind == "promise" and form.form in ("present_1", "present_3") and claim.kinds:
                return _Reading()  # "Eu guardo filmes, notas e links": what it can do
            if kind == "state" and form.noting and claim.about_user:
                # "Tá anotado que você não curte musicais": noted about the user, not the list
                claim = replace(claim, kind="done")
            consumed = said is not None and span is said
            return _Reading([(claim, span)], consumed=consumed)
    if question:
        if _offered(words) and any(_READ_VERBS.match(w) for w in words):
            return _Reading([(Claim("save", "offer", clause=" ".join(words)), [])])
        if words[:1] and words[0] in _WANT and _has_place(words):
            # "Want Parasite on your list?": an offer without its verb
            return _Reading([(Claim("save", "offer", clause=" ".join(words)), [])])
        return _Reading()
    nominal = _nominal(clause, language)
    if nominal is not None:
        return _Reading([(nominal, [])])
    if _offered(words) and any(_READ_VERBS.match(w) for w in words):
        return _Reading([(Claim("save", "offer", clause=" ".join(words)), [])])
    state = _state_without_verb(clause, language)
    if state is not None:
        effect, kind, span = state
        return _Reading([(_claim(effect, kind, span, clause), span)])
    for detect in (_found_in_list, _empty_claim, _bare_title_in_list, _field_now):
        found = detect(clause, language)
        if found is not None:
            return _Reading([found])
    return _Reading()


_WANT: Final = _set("want wanna quer querem deseja")
_CONDITIONS: Final = _set("se caso quando assim if once when unless")
_BACK: Final = _set("volta back again novamente")


def _elsewhere(form: VerbForm, after: Sequence[str]) -> bool:
    """Whether the effect happened somewhere else than the list: a deletion from a named
    place ("removido do streaming"), or a participle placed in one ("foi gravado em Paris",
    "was changed in the director's cut"). The user's things ("na sua conta") stay claims."""
    rest = [w for w in after if w not in _ADVERBS | _BACK]
    if rest[:1] == ["de"] and after[after.index("de") + 1 : after.index("de") + 2] == ["volta"]:
        rest = rest[1:]  # "adicionada de volta na versão estendida"
    if not rest or _has_place(rest) or any(w in _POSSESSIVE for w in rest[:3]):
        return False
    if form.effect == "delete" and rest[0] in _OUT_OF - {"off", "out"}:
        return any(_naming(w) for w in rest[1:4])
    placed = form.form in ("participle", "past") and rest[0] in _IN | {"at"}
    return placed and any(_naming(w) for w in rest[1:4])


def _nothing_done(after: Sequence[str]) -> bool:
    """ "I removed nothing", "apaguei nada": the object says nothing happened."""
    rest = [w for w in after if w not in _ADVERBS]
    return bool(rest) and rest[0] in ("nothing", "nada", "none", "nenhum", "nenhuma")


def _has_verb(clause: Sequence[_Tok]) -> bool:
    """Whether a clause has an effect verb with its own subject ("guardei X", "I saved X"),
    not a participle that may be part of a name ("adicionado recentemente")."""
    for k, tok in enumerate(clause):
        if tok.masked:
            continue
        for form in verb_forms(tok.folded):
            if form.form in ("done_1", "done_3", "future_1"):
                return True
            if form.form == "past" and any(t.folded in _I_WE | _YOU for t in clause[:k]):
                return True
    return False


def _mention(clause: list[_Tok]) -> list[_Tok]:
    """What a clause names for a later "it" or "já salvei" to refer to: a known title, a
    "Title (1999)", a quotation, or the subject of a copula ("A Lista de Schindler é...")."""
    run: list[_Tok] = []
    for tok in clause:
        if tok.masked:
            run.append(tok)
        elif run:
            break
    if run:
        return run
    for k, tok in enumerate(clause):
        if k and tok.raw.lower() in _COPULAS:
            subject = clause[:k]
            # a capitalised name, or one capitalised word opening the sentence ("Inception is
            # a classic"); not "a fotografia é linda"
            titled = any(t.cap for t in subject) or (
                len(subject) == 1 and subject[0].raw[:1].isupper()
            )
            return subject if _name_of(subject) and titled else []
    return []


def _anaphoric(claim: Claim, span: Sequence[_Tok]) -> bool:
    """Whether an unnamed claim refers back ("já salvei", "I've added it", "ele está salvo")
    rather than to a kind, a count or the whole list ("seu filme", "3 filmes", "tudo")."""
    if claim.everything or claim.kinds or claim.count is not None or claim.whole:
        return False
    return not any(t.folded in _TYPE_WORDS or t.folded.isdigit() for t in span)


def read_claims(message: str, language: str = "pt", *, titles: Iterable[str] = ()) -> list[Claim]:
    """Every claim, promise, state and offer the text makes, clause by clause.

    A claim that names nothing is about the entries of the list its sentence opens
    ("Salvei estes filmes:\\n- Duna"), else about what an earlier clause named ("Matrix é
    um clássico. Já salvei na sua lista.").
    """
    masks = sorted({tuple(fold(t).split()) for t in titles if fold(t)}, key=len, reverse=True)
    found: list[Claim] = []
    antecedent: list[_Tok] = []
    for sentence in _clauses(message, masks, language):
        clauses, question = sentence.clauses, sentence.question
        sentence_words = [t.folded for clause in clauses for t in clause]
        wish = any(_contains(sentence_words, p) for p in _IF_YOU_WANT)
        consumed = False
        listing = False  # after "Na sua lista:", each name is a statement about the list
        for n, clause in enumerate(clauses):
            if consumed:
                consumed = False  # the words after "Anotado:" say what; they claim nothing
                antecedent = _mention(clause) or antecedent
                continue
            if listing and not question and _name_of(clause) and not _has_verb(clause):
                found.append(_claim("save", "state", clause, clause))
                continue
            listing = sentence.colons[n] and _only_the_list(clause)
            if listing and n == len(clauses) - 1 and sentence.entries and not question:
                found += [_claim("save", "state", e, e) for e in sentence.entries]
                continue
            following = clauses[n + 1] if n + 1 < len(clauses) else None
            reading = _read_clause(
                clause,
                following,
                question=question,
                wish=wish,
                language=language,
                colon=sentence.colons[n],
            )
            consumed = reading.consumed and sentence.colons[n]
            named: list[_Tok] = []
            for claim, span in reading.claims:
                if claim.kind != "offer" and not claim.named and not claim.whole:
                    if n == len(clauses) - 1 and sentence.entries:
                        found += [
                            _claim(claim.effect, claim.kind, entry, clause, noting=claim.noting)
                            for entry in sentence.entries
                        ]
                        continue
                    if (
                        claim.count is None
                        and sentence.colons[n]
                        and following
                        and not _has_verb(following)
                    ):
                        # "Encontrei 2 resultados na sua lista: Matrix e Matrix Reloaded"
                        found.append(
                            _claim(claim.effect, claim.kind, following, clause, noting=claim.noting)
                        )
                        consumed = True
                        continue
                    if antecedent and _anaphoric(claim, span):
                        found.append(
                            _claim(
                                claim.effect, claim.kind, antecedent, clause, noting=claim.noting
                            )
                        )
                        continue
                found.append(claim)
                if claim.named:
                    named = list(span)
            antecedent = named or reading.mention or _mention(clause) or antecedent
        if question and len(clauses) == 1 and _only_a_name(clauses[0]):
            antecedent = clauses[0]  # "Matrix? Salvo!": the title echoed, then the claim
    return found


def _only_the_list(clause: Sequence[_Tok]) -> bool:
    """Whether a clause only names the list ("Na sua lista", "Your list", "Here's your list")."""
    words = [t.folded for t in clause if not t.masked]
    return (
        len(words) == len(clause)
        and any(_is_place(words, k) for k in range(len(words)))
        and all(
            w in _PLACE_WORDS | _TYPE_WORDS | _POSSESSIVE | _IN | _DISCOURSE | _EN_STATE_AUX
            or w in ("a", "the", "de", "of", "atual", "current", "s")
            for w in words
        )
    )


def _only_a_name(clause: Sequence[_Tok]) -> bool:
    """Whether a clause is a title alone ("Matrix", "Que Horas Ela Volta? (2015)")."""
    return (
        0 < len(clause) <= 8
        and bool(_name_of(clause))
        and not any(verb_forms(t.folded) and not t.masked for t in clause)
        and all(
            t.masked
            or t.cap
            or _naming(t.folded)
            or t.folded in _TITLE_JOINERS
            or _YEAR.match(t.folded)
            for t in clause
        )
    )


def _claim(
    effect: Effect,
    kind: ClaimKind,
    span: Sequence[_Tok],
    clause: Sequence[_Tok],
    *,
    noting: bool = False,
) -> Claim:
    words = [t.folded for t in clause]
    span_words = [t.folded for t in span]
    target = _name_of(span)
    kinds = _bare_kinds(span_words)
    count = None
    checkable = True
    if kind == "state" and any(w in _HAVE_LIST | _HOLDS for w in words):
        counted = _count(span_words)  # "você tem 3 itens salvos", "sua lista tem 4 itens"
        if counted is not None and counted[2]:
            checkable = False  # "3 filmes do Nolan": some of them, which the facts cannot tell
        elif counted is not None and not target:
            count, kinds = counted[0], counted[1]
    whole = effect == "delete" and not target and _whole(span_words, words)
    if whole:
        kinds = tuple(w for w in span_words + words if w in _ITEM_KINDS - _GENERIC_KINDS)
    return Claim(
        effect,
        kind,
        target=target,
        noting=noting,
        about_user=_about_user(span_words),
        to_list=any(w in _PLACE_WORDS or w in _TYPE_WORDS for w in words),
        everything=any(w in _EVERYTHING for w in words),
        clause=" ".join(words),
        kinds=kinds,
        count=count,
        whole=whole,
        checkable=checkable,
    )


def _count(words: Sequence[str]) -> tuple[int, tuple[str, ...], bool] | None:
    """ "3 itens", "dois filmes": how many of which kind, and whether words after narrow
    them down ("3 filmes do Nolan")."""
    for k, word in enumerate(words[:-1]):
        n = int(word) if word.isdigit() and len(word) < 4 else _NUMBERS.get(word)
        kind = words[k + 1]
        if n is None or kind not in _ITEM_KINDS:
            continue
        narrowed = any(_naming(w) and not verb_forms(w) for w in words[k + 2 :])
        return n, (() if kind in _GENERIC_KINDS else (kind,)), narrowed
    return None


def _whole(span: Sequence[str], clause: Sequence[str]) -> bool:
    """Whether a delete is of the whole list: "apaguei tudo", "limpei sua lista", "removi
    todos os seus itens"; not "removi da sua lista", "apaguei tudo que você pediu"."""
    for k, word in enumerate(clause):
        narrowed = any(w in ("que", "that", "which", "of") for w in clause[k + 1 : k + 3])
        if word in ("tudo", "everything") and not narrowed:
            return True
        if (
            word in _EVERYTHING
            and not narrowed
            and any(w in _ITEM_KINDS or w in _PLACE_WORDS for w in clause[k + 1 : k + 4])
        ):
            return True
    return any(
        w in _PLACE_WORDS and not any(x in _OUT_OF for x in span[max(0, k - 3) : k])
        for k, w in enumerate(span)
    )


_PLURAL_KINDS: Final = _set(
    "filmes series videos links notas itens movies films shows videos links notes items"
)


def _bare_kinds(words: Sequence[str]) -> tuple[str, ...]:
    """The kinds a span names when it is only plural kinds ("Notas salvas", "links e notas")."""
    named = [w for w in words if w not in ("e", "and", "seus", "suas", "your")]
    if named and all(w in _PLURAL_KINDS for w in named) and words[0] not in ("os", "as", "the"):
        return tuple(named)
    return ()


def claimed_effects(message: str, language: str = "pt") -> frozenset[Effect]:
    """The effects a text says were done or will be (negations, questions and offers excluded)."""
    return frozenset(
        c.effect for c in read_claims(message, language) if c.kind in ("done", "promise")
    )


def offers_to_act(message: str, language: str = "pt") -> bool:
    """Whether the text offers to do something ("quer que eu salve?", "should I save it?")."""
    return any(c.kind == "offer" for c in read_claims(message, language))


# -- judging ------------------------------------------------------------------------------------


def named_item(title: str | None, words: Iterable[str]) -> Named:
    """An item's naming words for `judge`."""
    full = tuple(fold(title or "").split())
    return Named(
        tuple(w for w in full if w not in _GENERIC) or full,
        frozenset(words),
        full,
    )


def _parts(target: str) -> list[str]:
    parts = [p.strip() for p in re.split(r"\s(?:e|and|ou|or)\s|\s&\s", target)]
    return [p for p in parts if p and _name_words(p)]


def _name_words(text: str) -> list[str]:
    return [w for w in text.split() if w not in _GENERIC and not _YEAR.match(w)]


def _names(part: str, item: Named) -> bool:
    """Whether `part` names `item`: its title inside the words, or the words inside the item."""
    words = _name_words(part) or part.split()
    every = set(part.split())
    if item.title and all(
        w in every or word_score(w, frozenset(every)) >= ONE_TYPO for w in item.title
    ):
        return True
    return bool(words) and all(word_score(w, item.words) >= ONE_TYPO for w in words)


def _stored(target: str, facts: ClaimFacts) -> bool:
    parts = _parts(target) or [target]
    if all(any(_names(p, item) for item in facts.items) for p in parts):
        return True
    # a title with "e"/"and" in it ("Romeu e Julieta"): every word of the target in one item
    words = _name_words(target)
    return (
        len(parts) > 1
        and bool(words)
        and any(all(word_score(w, item.words) >= ONE_TYPO for w in words) for item in facts.items)
    )


def _stored_by_title(target: str, facts: ClaimFacts) -> bool:
    """Whether a stored item's whole title is in `target`: what "X is not in your list" denies.
    Looser matching would deny "Duna" because "Duna: Parte Dois" is stored."""
    for part in _parts(target) or [target]:
        every = frozenset(part.split())
        for item in facts.items:
            if item.title and all(
                w in every or word_score(w, every) >= ONE_TYPO for w in item.title
            ):
                return True
    return False


def _of_kinds(items: Sequence[Named], kinds: Sequence[str]) -> list[Named] | None:
    """The items of `kinds` (all when none), or None when the items' kinds are unknown."""
    if not kinds or not items:
        return list(items)
    typed = [i for i in items if i.words & _TYPE_WORDS]
    if not typed:
        return None
    return [i for i in typed if any(k in i.words for k in kinds)]


def _kept(facts: ClaimFacts, kinds: Sequence[str]) -> int:
    """How many items of `kinds` (all when none) the user keeps, by the stored counts."""
    return sum(n for words, n in facts.kept or () if not kinds or any(k in words for k in kinds))


def _user_refers_to_stored(facts: ClaimFacts) -> bool:
    """Whether the user's own message names a stored item (what "já está" refers to)."""
    words = [w for w in fold(facts.user_text).split() if not verb_forms(w)]
    said = " ".join(words)
    if any(item.full and _contains(words, item.full) for item in facts.items):
        return True  # the whole title, even one of common words ("is us on my list?")
    return bool(_name_words(said)) and any(
        item.title and all(w in set(words) for w in item.title) for item in facts.items
    )


# what a note about the user (not an item) needs: "Anotei que você gosta de terror"
_NOTE_EVIDENCE: Final = frozenset({"memory_noted", "belief_updated"})


def _problem(claim: Claim, facts: ClaimFacts) -> str | None:
    """Why the claim is false, or None when the facts back it."""
    events = facts.events
    effect = claim.effect
    if claim.kind == "offer" or not claim.checkable:
        return None
    if claim.kind == "history":
        return None  # "você salvou X" tells the past, which a later deletion does not undo
    if claim.kind == "absent":
        denied = claim.named and _stored_by_title(claim.target, facts)
        return _state_problem(claim) if denied else None
    if claim.count is not None:
        if facts.kept is not None:
            return None if _kept(facts, claim.kinds) == claim.count else _state_problem(claim)
        counted = _of_kinds(facts.items, claim.kinds)
        if counted is None or len(counted) == claim.count:
            return None
        return _state_problem(claim)
    if claim.kind == "state":
        if effect == "delete":
            if claim.named and _stored_by_title(claim.target, facts):
                return _state_problem(claim)
            return None if claim.named or events & EVIDENCE["delete"] else _state_problem(claim)
        if effect == "update":
            return None
        if claim.named:
            return None if _stored(claim.target, facts) else _state_problem(claim)
        if events & LIST_EVIDENCE["save"] or _user_refers_to_stored(facts):
            return None
        if claim.kinds and _of_kinds(facts.items, claim.kinds) != []:
            return None  # "seus filmes continuam lá": true while the user keeps films
        return _state_problem(claim)
    # done and promise: something must have happened this turn (or be true of the list)
    of_items = claim.to_list or (
        effect == "update" and (claim.named or any(w in _FIELDS for w in claim.clause.split()))
    )
    happened = events & (
        LIST_EVIDENCE[effect] if of_items and not claim.about_user else EVIDENCE[effect]
    )
    if effect == "save":
        if claim.named and _stored(claim.target, facts) and happened:
            return None  # a save this turn, of a title the list now holds
        if claim.kinds and any(k in item.words for k in claim.kinds for item in facts.items):
            return None  # "Notas salvas.": the user keeps notes
        if claim.about_user:
            # "anotei que você gosta de ação": a belief or memory note, not a saved item
            return None if events & _NOTE_EVIDENCE else _effect_problem(claim)
        noted = claim.noting and not claim.to_list and events & _NOTE_EVIDENCE
        if claim.named and facts.items_known and not (claim.about_user or noted):
            return _effect_problem(claim)
        if happened:
            return None
        if not claim.named and _user_refers_to_stored(facts):
            return None
        return _effect_problem(claim)
    if effect == "delete":
        if not happened:
            return _effect_problem(claim)
        if claim.whole:
            # "Limpei sua lista", "Removi todos os seus itens": nothing (of that kind) is left
            if facts.kept is not None:
                return _effect_problem(claim) if _kept(facts, claim.kinds) else None
            left = _of_kinds(facts.items, claim.kinds)
            return _effect_problem(claim) if left else None
        if claim.named and not claim.everything and _stored_by_title(claim.target, facts):
            return _effect_problem(claim)
        return None
    return None if happened else _effect_problem(claim)


def _effect_problem(claim: Claim) -> str:
    what = f"{claim.effect}: «{claim.target}»" if claim.target else claim.effect
    return FALSE_CLAIM.format(effects=what)


def _state_problem(claim: Claim) -> str:
    holds = "no longer holds" if claim.effect == "delete" else "holds"
    what = f"«{claim.target}»" if claim.target else "what the user asked about"
    return FALSE_STATE.format(holds=holds, what=what)


# "Pronto!", "Done!", "Taken care of": the user's request was carried out
_COMPLETION: Final = _set("pronto prontinho feito feitinho resolvido done finished")
_COMPLETION_PHRASES: Final = tuple(
    tuple(p.split())
    for p in ("taken care", "all set", "pode deixar", "na mao", "ja era", "tudo certo", "all done")
)
_ACK_WORDS: Final = (
    _COMPLETION
    | _DISCOURSE
    | _set(
        "it s is of care taken pode deixar na mao era gone that isso ta for pra there go set all"
    )
)
# how a request names its effect: "salva X", "apaga X", "save X", "pode salvar X?"
_REQUEST_FORMS: Final = frozenset({"present_3", "infinitive", "subjunctive", "present_1"})


def _completes(words: Sequence[str]) -> bool:
    return any(w in _COMPLETION for w in words) or any(
        _contains(words, p) for p in _COMPLETION_PHRASES
    )


def _requested(user_text: str, language: str) -> Claim | None:
    """The effect the user's message asks for, as the claim that it was done."""
    tokens = _tokens(user_text, [], (), initial=True)
    words = [t.folded for t in tokens]
    for i, word in enumerate(words):
        forms = [
            v
            for v in sorted(verb_forms(word), key=lambda v: v.language != language)
            if v.form in _REQUEST_FORMS and not promise_only(v.lemma)
        ]
        if forms and not _negated(words[:i], language):
            span = tokens[i + 1 :]
            return _claim(forms[0].effect, "done", span, tokens, noting=forms[0].noting)
    return None


def _acknowledged(message: str, facts: ClaimFacts, language: str) -> str | None:
    """The re-ask for a bare "Pronto!" / "Done!" when what the user asked for did not happen,
    and for "X: done" when nothing happened to any item."""
    words = fold(without_emojis(message)).split()
    if not words or not _completes(words):
        return None
    if all(w in _ACK_WORDS for w in words):
        claim = _requested(facts.user_text, language) if facts.user_text else None
        return _problem(claim, facts) if claim is not None else None
    head, colon, tail = without_emojis(message).partition(":")
    if not colon:
        return None
    sides = [fold(head).split(), fold(tail).split()]
    if not any(side and all(w in _ACK_WORDS for w in side) and _completes(side) for side in sides):
        return None
    named = [
        (side, raw)
        for side, raw in zip(sides, (head, tail), strict=True)
        if side and not all(w in _ACK_WORDS for w in side)
    ]
    # the other side is a title alone: its longer words capitalised ("Stand by Me: done")
    if len(named) != 1 or not all(
        w[:1].isupper() for w in re.findall(r"[^\W\d_]{4,}", named[0][1])
    ):
        return None
    # "Parasite: done": something was done to the item this turn
    if facts.events & (EVIDENCE["save"] | EVIDENCE["delete"] | EVIDENCE["update"]):
        return None
    return FALSE_CLAIM.format(effects=f"«{' '.join(named[0][0])}»")


def judge(message: str, facts: ClaimFacts, language: str = "pt") -> str | None:
    """The re-ask for the first claim of `message` the facts do not back, or None."""
    titles = [" ".join(i.full or i.title) for i in facts.items] + list(facts.extra_titles)
    for claim in read_claims(message, language, titles=titles):
        problem = _problem(claim, facts)
        if problem is not None:
            return problem
    return _acknowledged(message, facts, language)


def false_claim(message: str | None, events: Iterable[str], language: str = "pt") -> str | None:
    """The re-ask for a message claiming effects the events do not show (no stored items)."""
    if not message:
        return None
    return judge(message, ClaimFacts(events=frozenset(events), items_known=False), language)


async def check_model_text(
    deps: Deps,
    turn: Turn,
    texts: Sequence[str],
    *,
    pending: Iterable[str] = (),
    shown: Iterable[str] = (),
) -> str | None:
    """The re-ask for model text that claims what did not happen or is in another language.

    `texts` are what the user would read (a message, or a question and its options).
    `pending` are events the output under check causes if it is accepted (a belief delta
    it carries): "Anotado: você gosta de terror" is true once that delta is stored.
    `shown` are titles this turn's tool results showed (exempt from the language check).
    """
    texts = [t for t in texts if t and t.strip()]
    if not texts:
        return None
    language = turn.language
    user_text = turn.incoming.text or ""
    shown = tuple(shown)
    claims = [c for t in texts for c in read_claims(t, language)]
    foreign = [t for t in texts if foreign_language(t, language, titles=shown, user_text=user_text)]
    if not foreign and all(c.kind == "offer" for c in claims):
        return None
    items = await naming_any(
        deps.db, turn.user_id, [w for t in (*texts, user_text) for w in query_words(t)]
    )
    titles = [*(i.title for i in items if i.title), *shown]
    user = await deps.db.users.get(turn.user_id)
    counts = user.counts if user else {}
    facts = ClaimFacts(
        events=frozenset([*turn.ledger_events, *pending]),
        items=(
            *(named_item(i.title or i.content or i.url, item_words(i)) for i in items),
            *_kinds_kept(counts),
        ),
        user_text=user_text,
        extra_titles=shown,
        # only the items the text can name were read: counts come from the user's record
        kept=tuple(
            (TYPE_WORDS.get(kind, frozenset()), int(counts.get(kind, 0))) for kind in ITEM_TYPES
        ),
    )
    for text in texts:
        problem = judge(text, facts, language)
        if problem is not None:
            deps.metrics.model_text.labels("false_claim").inc()
            return problem
    for text in foreign:
        problem = language_problem(text, language, titles=titles, user_text=user_text)
        if problem is not None:
            deps.metrics.model_text.labels("wrong_language").inc()
            return problem
    return None


def _kinds_kept(counts: Mapping[str, int]) -> tuple[Named, ...]:
    """One nameless entry per type the user keeps, carrying that type's words ("Notas salvas.")."""
    return tuple(
        Named(title=(), words=TYPE_WORDS.get(kind, frozenset()))
        for kind in ITEM_TYPES
        if int(counts.get(kind, 0)) > 0
    )


# -- what may be sent ----------------------------------------------------------------------------

# Pictographs, dingbats, flags, skin tones, joiners and variation selectors.
_EMOJI: Final = re.compile(
    "[\U0001f000-\U0001faff\U00002600-\U000027bf\U00002b00-\U00002bff\U0001f1e6-\U0001f1ff"
    "\u200d\ufe0e\ufe0f\u20e3\u2300-\u23ff\u2190-\u21ff\u2b50\u2b55\u3030\u303d\u3297\u3299"
    "\U000e0020-\U000e007f]+"
)
_SPACES: Final = re.compile(r"[ \t]{2,}")
# The fences the prompt puts around stored text ("<data>https://bbc.com</data>"), echoed back
_DATA_TAG: Final = re.compile(r"<\s*/?\s*data\b[^<>]{0,40}>", re.IGNORECASE)
_SPACE_BEFORE_MARK: Final = re.compile(r"[ \t]+([.,;:!?])")


def without_emojis(message: str) -> str:
    """The text with emojis removed (and the spaces they leave squeezed)."""
    stripped = _EMOJI.sub("", message)
    if stripped == message:
        return message
    lines = (_SPACE_BEFORE_MARK.sub(r"\1", _SPACES.sub(" ", line)) for line in stripped.split("\n"))
    return "\n".join(line.strip() for line in lines).strip()


def without_data_tags(message: str) -> str:
    """The text without the data fences a model copied from its prompt."""
    return _DATA_TAG.sub("", message)


def deliverable(deps: Deps, turn: Turn, message: str) -> str:
    """Model text as it may be sent: emojis and data fences removed, offers capped at AMBIGUOUS."""
    unfenced = without_data_tags(message)
    if unfenced != message:
        deps.metrics.model_text.labels("data_tag_removed").inc()
        turn.facts.apply_rule("data_tag_removed")
    plain = without_emojis(unfenced)
    if plain != unfenced:
        deps.metrics.model_text.labels("emoji_removed").inc()
        turn.facts.apply_rule("emoji_removed")
    if offers_to_act(plain, turn.language):
        # an offer belongs in request_clarification (options); in text it is not an answer
        deps.metrics.model_text.labels("offer_capped").inc()
        turn.facts.ambiguity = "unresolved"
        turn.facts.apply_rule("offer_to_act_capped")
    return plain
