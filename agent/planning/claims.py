"""Model text checked by meaning against what happened (DESIGN 9.2, 10.2).

Model text is read clause by clause. Effect verbs are recognised by their form
(agent/understanding/morphology.py), and the words around them say what the clause
does with the effect:

- `done`: the assistant says it happened ("salvei", "foi adicionado", "Anotado:",
  "Jaws has been saved", "Filme Arrival salvo com sucesso");
- `promise`: it says it will ("vou salvar", "I'll remember that", "estou apagando");
- `state`: it says what the list holds ("Matrix está na sua lista", "X is saved",
  "já está", "você tem X salvo");
- `history`: it says what the user did ("você salvou X");
- `offer`: it offers to act ("quer que eu salve?", "posso colocar na sua lista,
  se quiser"), which is no claim but caps the reply at AMBIGUOUS.

Negated clauses ("não salvei", "nothing was deleted") and questions claim nothing.
The words naming what a claim is about (its target) are matched against the user's
stored items; the turn's ledger events say which effects really happened.

`judge` decides with what it is given (pure, used by bench/claims.py);
`check_model_text` gathers the turn's events and the stored items and calls it. A
false claim is an invalid output: the problem goes back to the model (DESIGN 3.1).
Emojis and echoed data fences are removed from model text (`deliverable`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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

ClaimKind = Literal["done", "promise", "state", "history", "offer"]
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
    "update": frozenset({"item_updated", "belief_updated", "memory_noted"}),
}
# what a claim about the list itself (not about the user) needs
LIST_EVIDENCE: Final[dict[Effect, frozenset[str]]] = {
    "save": frozenset({"item_saved", "bookmark_set"}),
    "delete": frozenset({"item_deleted", "all_deleted"}),
    "update": frozenset({"item_updated"}),
}

# -- words ------------------------------------------------------------------------------------

_QUOTED: Final = re.compile(r"«([^«»]{1,200})»|“([^“”]{1,200})”|\"([^\"]{1,200})\"")
_URL: Final = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_TOKEN: Final = re.compile(r"\x01\d+\x01|[^\W_]+", re.UNICODE)
# sentence ends: . ! ? followed by space or end, ; and new lines
_SENTENCE: Final = re.compile(r"(?<=[.!?…])\s+|[;\n]+|(?<=[.!?])$")
_CLAUSE: Final = re.compile(r"[,:]|\s[-–—]\s|^[-–—]\s")


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
        which qual quais favor please por favor"""
    )
)
_YEAR: Final = re.compile(r"^(?:1[89]|20)\d\d$")


@dataclass(frozen=True, slots=True)
class _Tok:
    folded: str
    raw: str
    masked: bool = False  # part of a known title or a quotation: never a verb


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


# -- reading ----------------------------------------------------------------------------------


def _clauses(message: str, masks: Sequence[tuple[str, ...]]) -> list[tuple[list[list[_Tok]], bool]]:
    """Sentences (as lists of clauses of tokens) and whether each is a question."""
    quoted: list[str] = []

    def hold(match: re.Match[str]) -> str:
        quoted.append(next(g for g in match.groups() if g is not None))
        return f" \x01{len(quoted) - 1}\x01 "

    def hold_url(match: re.Match[str]) -> str:
        words = fold(match.group(0).replace("_", " ")).split()
        quoted.append(" ".join(w for w in words if w not in URL_NOISE))
        return f" \x01{len(quoted) - 1}\x01 "

    text = _QUOTED.sub(hold, _URL.sub(hold_url, _DATA_TAG.sub(" ", message)))
    sentences: list[tuple[list[list[_Tok]], bool]] = []
    for sentence in _SENTENCE.split(text):
        if not sentence or not sentence.strip():
            continue
        question = sentence.rstrip().endswith("?")
        clauses: list[list[_Tok]] = []
        for part in _CLAUSE.split(sentence):
            tokens: list[_Tok] = []
            for raw in _TOKEN.findall(part):
                if raw.startswith("\x01"):
                    inner = quoted[int(raw.strip("\x01"))]
                    tokens += [_Tok(w, w, masked=True) for w in fold(inner).split()]
                else:
                    tokens += [_Tok(w, raw) for w in fold(raw).split()]
            # conjunctions start a new clause: "não achei X, mas salvei Y"
            current: list[_Tok] = []
            marked = _masked(tokens, masks)
            for k, tok in enumerate(marked):
                # "salvei X e apaguei Y": a second verb after "e"/"and" starts its own clause
                coordinated = (
                    tok.folded in ("e", "and")
                    and k + 1 < len(marked)
                    and not marked[k + 1].masked
                    and any(v.form in _FINITE for v in verb_forms(marked[k + 1].folded))
                )
                if (tok.folded in _BOUNDARY or coordinated) and not tok.masked and current:
                    clauses.append(current)
                    current = []
                    continue
                current.append(tok)
            if current:
                clauses.append(current)
        sentences.append((clauses, question))
    return sentences


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
        for start in range(len(words) - n + 1):
            if tuple(words[start : start + n]) == title:
                for k in range(start, start + n):
                    hidden[k] = True
    return [_Tok(t.folded, t.raw, h) for t, h in zip(tokens, hidden, strict=True)]


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
    window = list(before[-6:])
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
) -> ClaimKind | None:
    """What a clause does with the effect verb at this position (None: nothing).

    `command`: the word is also a present or imperative form ("salva", "limpa").
    """
    f = form.form
    if promise_only(form.lemma) and f not in ("infinitive", "future_1", "gerund"):
        return None
    if question or wish:
        # "Você salvou Matrix?", "Salvar na sua lista?", "Posso salvar, se quiser."
        offered = ("infinitive", "subjunctive", "present_1", "future_1", "conditional")
        return "offer" if f in offered else None
    near = _strip_adverbs(list(before))
    if _offered(before) and f in ("infinitive", "subjunctive", "present_1"):
        return "offer"
    if form.language == "pt":
        return _pt_kind(form, before, near, after, command=command, form_word=form_word)
    return _en_kind(form, before, near, after, language)


_PREPOSITIONS: Final = _set("de do da dos das em no na nos nas com para pra por pelo pela")
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
_EN_COMPLEMENT_START: Final = _set(
    "successfully to in into on onto for here now too already with from off for later"
)


def _en_kind(
    form: VerbForm, before: list[str], near: list[str], after: list[str], language: str
) -> ClaimKind | None:
    f = form.form
    particles = needs_particle(form.lemma)
    if particles is not None and f in ("past", "infinitive", "gerund"):
        if not any(w in particles for w in after[:5]):
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
        if any(w in ("have", "has") for w in before) and any(w in _YOU for w in before):
            return "state"
        if _only_discourse(before):
            if after and after[0] in _TYPE_WORDS:
                return None  # "Saved movies: ..." is a heading
            return "done"
        if before and before[-1] in ("the", "your", "my", "a", "an", "all", "any", "our", "their"):
            return None  # "your saved items": an adjective
        if (not after or after[0] in _EN_COMPLEMENT_START) and form.effect != "update":
            return "done"  # "Jaws saved to your list."
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
    subject = [t for t in clause[:index] if t.folded not in _DISCOURSE]
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
    kept = [t.folded for t in span if t.masked or _naming(t.folded)]
    if not kept:
        return ""
    # keep the span from the first naming word to the last (a title's own small words stay)
    folded = [t.folded for t in span]
    first = next(i for i, t in enumerate(span) if t.masked or t.folded in kept)
    last = max(i for i, t in enumerate(span) if t.masked or t.folded in kept)
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


def _place_after(rest: Sequence[str], openers: frozenset[str]) -> bool:
    """Whether `rest` starts with a preposition of `openers` and names the list within 3 words."""
    if not rest:
        return False
    if rest[0] in openers and any(w in _PLACE_WORDS for w in rest[1:4]):
        return True
    return any(tuple(rest[:2]) == p for p in _PART) and any(w in _PLACE_WORDS for w in rest[2:5])


def _state_without_verb(
    clause: list[_Tok], language: str
) -> tuple[Effect, ClaimKind, list[_Tok]] | None:
    """ "Matrix está na sua lista", "X is now part of your list", "your list has X", "X saiu
    da sua lista", "X não está mais na sua lista": statements about the list with no effect verb."""
    words = [t.folded for t in clause]
    for i, word in enumerate(words):
        if clause[i].masked:
            continue
        rest = [w for w in words[i + 1 : i + 6] if w not in _ADVERBS]
        news = any(w in ("now", "agora") for w in words[max(0, i - 2) : i + 3])
        negated = _negated(words[:i], language)
        gone = any(_contains(words[: i + 3], p) for p in _NO_LONGER) or (
            language == "en" and _contains(words, ("not", "anymore"))
        )
        if word in _LEFT and _place_after(rest, _OUT_OF) and not negated:
            return "delete", "done", clause[:i]
        if word in ("foi", "foram", "entrou", "entraram", "went", "goes", "gone") and (
            _place_after(rest, _INTO)
        ):
            if not negated:
                return "save", "done", clause[:i]
        if word in _PT_STATE_AUX | _EN_STATE_AUX and (
            _place_after(rest, _IN) or (rest and rest[0] in ("la", "ai", "there", "here"))
        ):
            if gone:
                return "delete", "state", [t for t in clause[:i] if t.folded not in ("nao",)]
            if negated:
                return None
            return "save", ("done" if news else "state"), clause[:i]
        if word in _PLACE_WORDS and i > 0 and words[i - 1] in ("sua", "your", "a", "the"):
            follows = [w for w in words[i + 1 : i + 4] if w not in _ADVERBS]
            if follows and follows[0] in _HOLDS and not negated:
                at = words.index(follows[0], i + 1)
                return "save", ("done" if news else "state"), clause[at + 1 :]
        if word in ("tem", "tenho", "have", "has") and any(
            w in _YOU for w in words[max(0, i - 2) : i]
        ):
            if negated:
                return None
            span = clause[i + 1 :]
            if span and (
                any(t.folded in _PLACE_WORDS for t in span) or span[-1].folded in ("saved", "salvo")
            ):
                return "save", "state", span
            if span and any(t.folded in _TYPE_WORDS for t in span[:3]) and _name_of(span):
                return "save", "state", span  # "você tem o filme Matrix", not "você tem razão"
    return None


def _nominal(clause: list[_Tok], language: str) -> Claim | None:
    """ "Fiz a remoção de Parasita", "I made the change": an effect said as a noun."""
    words = [t.folded for t in clause]
    for i, word in enumerate(words):
        if word not in LIGHT_VERBS or clause[i].masked or _negated(words[:i], language):
            continue
        for j in range(i + 1, min(i + 4, len(words))):
            effect = ACTION_NOUNS.get(words[j])
            if effect is not None:
                return _claim(effect, "done", clause[j + 1 :], clause)
    return None


def read_claims(message: str, language: str = "pt", *, titles: Iterable[str] = ()) -> list[Claim]:
    """Every claim, promise, state and offer the text makes, clause by clause."""
    masks = sorted({tuple(fold(t).split()) for t in titles if fold(t)}, key=len, reverse=True)
    found: list[Claim] = []
    for clauses, question in _clauses(message, masks):
        sentence_words = [t.folded for clause in clauses for t in clause]
        wish = any(_contains(sentence_words, p) for p in _IF_YOU_WANT)
        for n, clause in enumerate(clauses):
            words = [t.folded for t in clause]
            following = clauses[n + 1] if n + 1 < len(clauses) else None
            claimed = False
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
                    )
                    if kind is None:
                        continue
                    if kind != "offer" and _negated(before, language):
                        break
                    span = _target(form, clause, i, following)
                    found.append(_claim(form.effect, kind, span, clause, noting=form.noting))
                    claimed = True
                    break
                if claimed:
                    break
            if not claimed and not question:
                nominal = _nominal(clause, language)
                if nominal is not None:
                    found.append(nominal)
                    continue
                if _offered(words) and any(_READ_VERBS.match(w) for w in words):
                    found.append(Claim("save", "offer", clause=" ".join(words)))
                    continue
                state = _state_without_verb(clause, language)
                if state is not None:
                    effect, kind, span = state
                    found.append(_claim(effect, kind, span, clause))
            elif (
                not claimed
                and question
                and _offered(words)
                and any(_READ_VERBS.match(w) for w in words)
            ):
                found.append(Claim("save", "offer", clause=" ".join(words)))
    return found


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
    return Claim(
        effect,
        kind,
        target=_name_of(span),
        noting=noting,
        about_user=_about_user(span_words),
        to_list=any(w in _PLACE_WORDS or w in _TYPE_WORDS for w in words),
        everything=any(w in _EVERYTHING for w in words),
        clause=" ".join(words),
        kinds=_bare_kinds(span_words),
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
    # a title with "e"/"and" in it ("Romeu e Julieta")
    return len(parts) > 1 and any(_names(target, item) for item in facts.items)


def _user_refers_to_stored(facts: ClaimFacts) -> bool:
    """Whether the user's own message names a stored item (what "já está" refers to)."""
    words = [w for w in fold(facts.user_text).split() if not verb_forms(w)]
    said = " ".join(words)
    return bool(_name_words(said)) and any(
        item.title and all(w in set(words) for w in item.title) for item in facts.items
    )


def _problem(claim: Claim, facts: ClaimFacts) -> str | None:
    """Why the claim is false, or None when the facts back it."""
    events = facts.events
    effect = claim.effect
    if claim.kind == "offer":
        return None
    if claim.kind == "history":
        return None  # "você salvou X" tells the past, which a later deletion does not undo
    if claim.kind == "state":
        if effect == "delete":
            if claim.named and _stored(claim.target, facts):
                return _state_problem(claim)
            return None if claim.named or events & EVIDENCE["delete"] else _state_problem(claim)
        if effect == "update":
            return None
        if claim.named:
            return None if _stored(claim.target, facts) else _state_problem(claim)
        if events & LIST_EVIDENCE["save"] or _user_refers_to_stored(facts):
            return None
        if claim.kinds and any(k in item.words for k in claim.kinds for item in facts.items):
            return None
        return _state_problem(claim)
    # done and promise: something must have happened this turn (or be true of the list)
    happened = events & (
        LIST_EVIDENCE[effect] if claim.to_list and not claim.about_user else EVIDENCE[effect]
    )
    if effect == "save":
        if claim.named and _stored(claim.target, facts):
            return None
        if claim.kinds and any(k in item.words for k in claim.kinds for item in facts.items):
            return None  # "Notas salvas.": the user keeps notes
        if claim.named and not (claim.about_user or claim.noting and not claim.to_list):
            return _effect_problem(claim)
        if happened:
            return None
        if not claim.named and _user_refers_to_stored(facts):
            return None
        return _effect_problem(claim)
    if effect == "delete":
        if not happened:
            return _effect_problem(claim)
        if claim.named and not claim.everything and _stored(claim.target, facts):
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


def judge(message: str, facts: ClaimFacts, language: str = "pt") -> str | None:
    """The re-ask for the first claim of `message` the facts do not back, or None."""
    titles = [" ".join(i.full or i.title) for i in facts.items] + list(facts.extra_titles)
    for claim in read_claims(message, language, titles=titles):
        problem = _problem(claim, facts)
        if problem is not None:
            return problem
    return None


def false_claim(message: str | None, events: Iterable[str], language: str = "pt") -> str | None:
    """The re-ask for a message claiming effects the events do not show (no stored items)."""
    if not message:
        return None
    return judge(message, ClaimFacts(events=frozenset(events)), language)


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
    facts = ClaimFacts(
        events=frozenset([*turn.ledger_events, *pending]),
        items=(
            *(named_item(i.title or i.content or i.url, item_words(i)) for i in items),
            *await _kinds_kept(deps, turn.user_id),
        ),
        user_text=user_text,
        extra_titles=shown,
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


async def _kinds_kept(deps: Deps, user_id: str) -> tuple[Named, ...]:
    """One nameless entry per type the user keeps, carrying that type's words ("Notas salvas.")."""
    user = await deps.db.users.get(user_id)
    counts = user.counts if user else {}
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
