"""The classifier's vocabulary (DESIGN 3.3): labels, PT/EN phrase tables, cut-offs, normalisation.

Data and the small pure functions that build it; `intent.py` holds the classifier that reads it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, Literal

from rapidfuzz import process
from rapidfuzz.distance import OSA

from agent.understanding.textnorm import CHAT_WORDS, fold

Label = Literal[
    "delete_all",
    "list_all",
    "cancel",
    "confirm",
    "deny",
    "select",
    "greeting",
    "help",
    "command",
    "llm",
    "smalltalk",
]
LlmIntent = Literal["save", "search", "delete", "other"]
ItemType = Literal["note", "movie", "tv_show", "video", "link"]

# Chosen for precision; tests/agent/test_intent.py measures them on the labelled corpus.
FUZZY_CUTOFF: Final = 80
FUZZY_CUTOFF_DELETE_ALL: Final = 85
FUZZY_MARGIN: Final = 8
FUZZY_FLOOR: Final = 70  # a lined-up candidate below this is not worth reporting
FUZZY_MAX_WORDS: Final = 5
FUZZY_MAX_CHARS: Final = 36
SQUEEZED_SCORE: Final = 95  # "simm": certain, but not what the alias says letter for letter
FUZZY_MIN_ONE_WORD: Final = 4  # one edit in "sei" (-> "ei") or "tab" (-> "ta") is a new word
# never matched by similarity: "tal", "poder", "clara" must not confirm a deletion
EXPLICIT_ONLY: Final[frozenset[Label]] = frozenset(("confirm",))
MIN_YEAR: Final = 1870
MAX_YEAR: Final = 2100

_NON_WORD: Final = re.compile(r"[\W_]+")
_REPEATED_LETTER: Final = re.compile(r"([^\W\d_])\1{2,}")
_LATIN_MARKS: Final = re.compile("[\u0300-\u036f]+")  # what NFKD splits off Latin letters
_TYPOGRAPHIC_APOSTROPHES: Final = re.compile("[\u2018\u2019\u00b4]")  # "don’t" is "dont"
# the same rules for ASCII text (almost every message once accents are gone), cheaper
_NON_WORD_ASCII: Final = re.compile(r"[^a-z0-9]+")
_TRIPLE_ASCII: Final = re.compile(r"([a-z])\1\1")
_REPEATED_ASCII: Final = re.compile(r"([a-z])\1{2,}")


def normalize(text: str) -> str:
    """Lowercase, strip accents, collapse 3+ repeated letters, drop punctuation/emoji, squeeze spaces.

    Letters of every script are kept ("привет" stays) and digits are never collapsed
    ("2000" stays), so the result can also serve as a comparison key.
    """
    if not text.isascii():
        text = _TYPOGRAPHIC_APOSTROPHES.sub("", text)
        text = _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text))
        if not text.isascii():
            text = "".join(c for c in text if not unicodedata.combining(c))
            if not text.isascii():  # emoji, other scripts
                s = _NON_WORD.sub(" ", text.replace("'", "").replace("`", "").lower())
                return _REPEATED_LETTER.sub(r"\1", s).strip()
    s = text.lower()
    if "'" in s or "`" in s:
        s = s.replace("'", "").replace("`", "")
    s = _NON_WORD_ASCII.sub(" ", s)
    if _TRIPLE_ASCII.search(s):
        s = _REPEATED_ASCII.sub(r"\1", s)
    return s.strip()


def split_phrases(text: str) -> tuple[str, ...]:
    """Split a comma-separated vocabulary list (kept as text so it stays readable)."""
    return tuple(p.strip() for p in text.split(","))


# --- vocabulary, written normalized (lowercase, no accents, no punctuation) ---

EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})

CONFIRM: Final = split_phrases(
    """sim, s, ss, pode, pode sim, pode ser, pode apagar, pode deletar, pode excluir,
    pode salvar, pode fazer, pode ir, pode mandar, pode confirmar, pode continuar, sim pode,
    sim pode apagar, sim apaga, sim confirmo, sim quero, sim por favor, manda, manda ver, bora,
    vai, vai la, confirmo, confirma, confirmar, confirmado, claro, claro que sim, isso,
    isso mesmo, isso ai, exato, exatamente, certo, certeza, com certeza, ok, okay, okey, blz,
    beleza, ta, ta bom, ta certo, ta bem, positivo, afirmativo, uhum, aham, quero, quero sim,
    fechado, perfeito, aceito, concordo, yes, y, ye, yep, yeah, yup, ya, yes please, yes do it,
    yes delete, yes go ahead, sure, sure thing, of course, confirm, confirmed, go ahead, go,
    do it, ok do it, correct, right, thats right, absolutely, affirmative, please do, alright,
    all right, fine"""
)
DENY: Final = split_phrases(
    """nao, n, nn, no, nope, nah, naw, negativo, nao quero, nao obrigado, nao obrigada,
    agora nao, ainda nao, nem pensar, de jeito nenhum, claro que nao, nao precisa, nao pode,
    nada disso, errado, nunca, jamais, melhor nao, acho que nao, nao faca isso, nao faz isso,
    no thanks, no thank you, not now, not yet, no way, dont, do not, dont do it, dont do that,
    no dont, absolutely not, of course not, never, negative, wrong"""
)
CANCEL: Final = split_phrases(
    """cancela, cancelar, cancele, cancelo, cancelado, cancela isso, cancelar isso,
    cancela tudo, cancelar tudo, cancela ai, pode cancelar, esquece, esqueca, esquecer,
    esquece isso, esqueca isso, esquece entao, deixa, deixa pra la, deixa para la, deixa quieto,
    deixa isso, deixa isso pra la, para, pare, parar, para tudo, chega, desisto, sair, cancel,
    cancel it, cancel that, cancel this, cancel everything, never mind, nevermind, nvm,
    forget it, forget that, forget about it, stop, stop it, abort, quit, exit"""
)
GREETING_HEADS: Final = split_phrases(
    """oi, oie, ola, opa, ei, eai, e ai, e ae, eae, bom dia, boa tarde, boa noite, hey, hi,
    hello, hiya, howdy, yo, hola, good morning, good afternoon, good evening"""
)
GREETING_TAILS: Final = (
    "",
    *split_phrases("tudo bem, tudo bom, tudo certo, como vai, como vai voce, beleza, how are you"),
)
GREETING_ALONE: Final = split_phrases(
    "oi oi, hey there, hi there, hello there, como vai, como vai voce, how are you, whats up"
)
HELP: Final = split_phrases(
    """ajuda, ajude, me ajuda, me ajude, ajuda ai, preciso de ajuda, socorro, help, help me,
    i need help, o que voce faz, o que vc faz, o que voce pode fazer, o que vc pode fazer,
    o que voce sabe fazer, o que vc sabe fazer, o que da pra fazer, o que voce e, como funciona,
    como funciona isso, como isso funciona, como funciona o bot, como funciona o lembra,
    como funciona a lembra, como funciona aqui, como voce funciona, como vc funciona,
    como te uso, como eu te uso, como usar, como usar o bot, como eu uso, como uso, como usa,
    como uso isso, comandos, os comandos, quais os comandos, quais sao os comandos,
    lista de comandos, menu, instrucoes, manual, tutorial, what can you do, what do you do,
    how does this work, how does it work, how do you work, how do i use this, how do i use you,
    how to use, commands, list of commands, what are the commands, what are your commands"""
)

DELETE_ALL_VERBS_PT: Final = split_phrases(
    """apaga, apagar, apague, deleta, deletar, delete, limpa, limpar, limpe, exclui, excluir,
    exclua, remove, remover, remova, zera, zerar, zere, reseta, resetar, resete, esvazia,
    esvaziar"""
)
DELETE_ALL_OBJECTS_PT: Final = split_phrases(
    """tudo, tudo que eu salvei, tudo o que eu salvei, tudo que salvei, tudo que eu tenho,
    tudo salvo, tudo mesmo, todas as minhas memorias, todas as memorias, minhas memorias,
    as memorias, todos os meus itens, todos os itens, meus itens, os itens, todos os meus dados,
    todos os dados, meus dados, os dados, todas as minhas coisas, minhas coisas,
    minha lista, a minha lista, minha lista toda, minha lista inteira, a lista toda,
    a lista inteira, toda a lista, toda a minha lista, toda minha lista, tudo da lista,
    tudo da minha lista, tudo na minha lista, tudo que ta na lista, tudo que esta na lista"""
)
DELETE_ALL_VERBS_EN: Final = split_phrases("delete, erase, wipe, clear, remove, purge, reset")
DELETE_ALL_OBJECTS_EN: Final = split_phrases(
    """everything, all, it all, all of it, all my data, my data, all data, all the data,
    all of my data, all my memories, my memories, all memories, all of my memories,
    all my items, my items, all items, all of my items, all my stuff, my stuff,
    everything i saved, everything i have, my list, my whole list, the whole list,
    my entire list, the entire list, my full list, everything on my list, everything on the list,
    everything in my list"""
)

# (plural, gender, type); the gender picks meus/minhas, os/as, todos/todas, salvos/salvas
TYPES_PT: Final[tuple[tuple[str, str, ItemType], ...]] = (
    ("filmes", "m", "movie"),
    ("series", "f", "tv_show"),
    ("seriados", "m", "tv_show"),
    ("shows", "m", "tv_show"),
    ("notas", "f", "note"),
    ("anotacoes", "f", "note"),
    ("videos", "m", "video"),
    ("links", "m", "link"),
)
TYPES_EN: Final[tuple[tuple[str, ItemType], ...]] = (
    ("movies", "movie"),
    ("films", "movie"),
    ("shows", "tv_show"),
    ("tv shows", "tv_show"),
    ("series", "tv_show"),
    ("tv series", "tv_show"),
    ("notes", "note"),
    ("videos", "video"),
    ("links", "link"),
    ("bookmarks", "link"),
)
# the argument of `/list`, singular or plural
TYPE_WORDS: Final[Mapping[str, ItemType]] = MappingProxyType(
    {
        **dict.fromkeys(split_phrases("filme, filmes, movie, movies, film, films"), "movie"),
        **dict.fromkeys(
            split_phrases("serie, series, seriado, seriados, show, shows, tv"), "tv_show"
        ),
        **dict.fromkeys(split_phrases("nota, notas, anotacao, anotacoes, note, notes"), "note"),
        **dict.fromkeys(split_phrases("video, videos"), "video"),
        **dict.fromkeys(split_phrases("link, links, bookmark, bookmarks"), "link"),
    }
)
GENDER: Final = {
    "m": {"my": "meus", "the": "os", "all": "todos", "saved": "salvos"},
    "f": {"my": "minhas", "the": "as", "all": "todas", "saved": "salvas"},
}
LIST_VERBS_PT: Final = split_phrases(
    "lista, listar, liste, mostra, mostrar, mostre, exibe, exibir, exiba, ver, veja, me mostra, "
    "me mostre, me lista, me passa, manda"
)
LIST_OBJECTS_PT: Final = split_phrases(
    """tudo, tudo que eu salvei, tudo o que eu salvei, tudo que salvei, tudo salvo,
    tudo que eu tenho, todos os itens, todos os meus itens, meus itens, os itens,
    minhas memorias, todas as minhas memorias, todas as memorias, as memorias, minhas coisas,
    minha lista, o que eu salvei, o que eu tenho, o que eu tenho salvo, o que tem salvo,
    meus salvos, a lista, a minha lista, minha lista toda, a lista toda, a lista inteira,
    minha lista inteira, toda a lista, toda minha lista"""
)
LIST_ALONE_PT: Final = split_phrases(
    """lista, listar, liste, meus itens, minhas memorias, minhas coisas, tudo que eu salvei,
    tudo o que eu salvei, todos os meus itens, o que eu salvei, o que eu ja salvei,
    o que eu tenho salvo, o que eu tenho, o que tem salvo, o que eu guardei, o que voce tem,
    o que voce tem salvo, o que voce salvou, o que voce guardou, quais sao meus itens,
    quais sao os meus itens, minha lista, meus salvos"""
)
LIST_TYPED_PT: Final = split_phrases(
    """{p}, {my} {p}, {the} {p}, {the} {my} {p}, {all} {the} {p}, {all} {the} {my} {p},
    {my} {p} {saved}, {the} {p} {saved}, {p} {saved}, {the} {p} que eu salvei,
    {p} que eu salvei, {all} {the} {p} que eu salvei, {the} {p} que salvei,
    minha lista de {p}, a minha lista de {p}, a lista de {p}, lista de {p}"""
)
LIST_TYPED_ALONE_PT: Final = split_phrases(
    """quais {p} eu salvei, quais {p} salvei, quais {p} eu tenho, quais {p} eu tenho {saved},
    quais {p} tenho, que {p} eu salvei, que {p} eu tenho, quais sao {the} {my} {p},
    quais sao {my} {p}, quais {the} {my} {p}, quais {the} {p} que eu salvei,
    quais {p} estao {saved}, quais {p} voce tem, quais {p} voce salvou"""
)
LIST_VERBS_EN: Final = split_phrases("list, show, show me, display, see, view")
LIST_OBJECTS_EN: Final = split_phrases(
    """everything, all, all items, all my items, my items, my stuff, all my stuff, my memories,
    all my memories, everything i saved, everything i have, what i saved, what i have, my list,
    the list, my whole list, the whole list, my full list, my entire list"""
)
LIST_ALONE_EN: Final = split_phrases(
    """list, what did i save, what have i saved, what do i have, what do i have saved,
    what did you save, what have you saved, my items, my stuff, my memories, all my items,
    all my stuff, everything i saved, my list, whats on my list, what is on my list,
    whats in my list"""
)
LIST_TYPED_EN: Final = split_phrases(
    "{p}, my {p}, all my {p}, all {p}, the {p}, all the {p}, my saved {p}, saved {p}, "
    "{p} i saved, the {p} i saved, my {one} list, the {one} list, my list of {p}, {one} list"
)
LIST_TYPED_ALONE_EN: Final = split_phrases(
    """which {p} did i save, what {p} did i save, what {p} do i have, which {p} do i have,
    what {p} have i saved, which {p} have i saved"""
)


def _numbered(words: str, start: int) -> dict[str, int]:
    return {w: start + i for i, w in enumerate(split_phrases(words))}


ORDINALS: Final[Mapping[str, int]] = MappingProxyType(
    {
        **_numbered("primeiro, segundo, terceiro, quarto, quinto, sexto", 0),
        **_numbered("setimo, oitavo, nono, decimo", 6),
        **_numbered("primeira, segunda, terceira, quarta, quinta, sexta", 0),
        **_numbered("setima, oitava, nona, decima", 6),
        **_numbered("dois, tres, quatro, cinco, seis, sete, oito, nove, dez", 1),
        **_numbered("first, second, third, fourth, fifth, sixth, seventh, eighth, ninth", 0),
        **_numbered("one, two, three, four, five, six, seven, eight, nine, ten", 0),
        "um": 0,  # only as the whole choice: "um filme" is no choice
        "uma": 0,
        "tenth": 9,
        "ultimo": -1,
        "ultima": -1,
        "last": -1,
    }
)
SELECT_LEAD: Final = (
    r"(?:(?:quero|escolho|prefiro|fico com|vou de|vou com|pode ser|i want|i choose|i pick"
    r"|i ll take|ill take|i take|pick|choose|take|give me)\s+)?"
    r"(?:(?:o|a|the)\s+)?"
    r"(?:(?:numero|num|nr|n|no|opcao|option|number|item|alternativa|choice|escolha)\s+)?"
)
SELECT_TAIL_WORDS: Final = "one, opcao, option, da lista, mesmo, please, por favor, pfv"
SELECT_TAIL: Final = rf"(?:\s+(?:{'|'.join(split_phrases(SELECT_TAIL_WORDS))}))?$"
YEAR_RE: Final = re.compile(
    r"^(?:(?:o|a|the)\s+)?(?:(?:one|filme|serie|versao|movie|show|version)\s+)?"
    r"(?:(?:de|do|da|from|of|in)\s+)?(?P<year>\d{4})(?:\s+(?:one|version|versao|movie|filme))?$"
)

# Step 7. "no" and "n" are negations only as the first word ("no" is also Portuguese "in the").
DELETE_VERB_FORMS: Final = frozenset(
    (
        *DELETE_ALL_VERBS_PT,
        *DELETE_ALL_VERBS_EN,
        *split_phrases(
            """apago, apagam, apagando, apagaria, apagasse, deleto, deletam, deletando,
            deletaria, limpo, limpando, excluo, excluindo, removo, removendo, zerando, erasing,
            wiping, clearing, removing, deleting, deleted, erased, wiped"""
        ),
    )
)
NEGATIONS: Final = frozenset(
    split_phrases(
        "nao, nunca, jamais, nem, sem, dont, not, never, doesnt, didnt, cant, wont, shouldnt"
    )
)
NEGATIONS_FIRST: Final = frozenset(("no", "n"))
EVERYTHING_WORDS: Final = frozenset(
    split_phrases(
        "tudo, todos, todas, everything, all, dados, data, memorias, memories, itens, items, "
        "stuff, coisas"
    )
)
# what a negated delete may also say and still be a plain refusal ("não quero apagar nada")
REFUSAL_WORDS: Final = EVERYTHING_WORDS | frozenset(
    split_phrases(
        """nada, nothing, anything, isso, isto, it, that, this, do, does, eu, i, quero, want, to,
        pode, please, por, favor, pfv, agora, now, ainda, yet, mais, more, any, meus, minhas, my,
        os, as, the, of, mesmo, you"""
    )
)
QUESTION_STARTS: Final = frozenset(
    split_phrases(
        """como, posso, sera, quando, porque, pq, qual, quais, onde, quem, how, why, what, when,
        where, which, who"""
    )
)
QUESTION_PAIRS: Final = frozenset(
    split_phrases(
        "da pra, da para, e possivel, e se, o que, por que, can i, could i, is it, what if, "
        "do i, should i"
    )
)

# Step 8: dropped at the ends before the second lookup.
LEADING_FILLERS: Final = split_phrases(
    """eu gostaria de, i would like to, gostaria de, voce poderia, voce pode, vc pode, eu quero,
    eu queria, eu preciso, por favor, bom dia, boa tarde, boa noite, can you, could you,
    would you, will you, i want to, id like to, i need to, e ai, pfv, pf, pls, plz, please, oi,
    ola, ei, hey, hi, hello, opa, pode, poderia, quero, queria, wanna, me, agora, now, entao, so,
    e, and, just, preciso, ah, oh, sim, ok, okay, yes, ta, beleza,
    mano, mana, cara, bro, brother, vei, veio, amigo, amiga, dude, man, mate, pensando bem,
    on second thought, on second thoughts"""
)
TRAILING_FILLERS: Final = split_phrases(
    """por favor, pra mim, para mim, for me, thank you, pfv, pf, pls, plz, please, agora,
    agora mesmo, now, right now, ai, ae, obrigado, obrigada, obg, vlw, valeu, thanks, ja, logo,
    entao"""
)
COMPOUND_LABELS: Final[frozenset[Label]] = frozenset(("confirm", "deny", "cancel", "greeting"))

# Step 10: the hint for the planner.
SAVE_VERBS: Final = frozenset(
    split_phrases(
        """salva, salvar, salve, guarda, guardar, guarde, anota, anotar, anote, registra,
        registrar, registre, adiciona, adicionar, adicione, add, save, store, keep, bookmark,
        remember, note, nota, lembrete, memoriza, memorizar, bota, botar, bote, poe, ponha,
        coloca, colocar, coloque, joga, jogar, jogue, inclui, incluir, inclua, put, stash, jot"""
    )
)
# "the office pra ver depois", "duna na minha lista": a save said at the end (issue 26)
SAVE_TAILS: Final = tuple(
    f" {p}"
    for p in split_phrases(
        """pra ver depois, para ver depois, pra assistir depois, para assistir depois,
        pra eu ver depois, para eu ver depois, pra ler depois, para ler depois, na minha lista,
        na lista, to watch later, for later, to my list, to my watchlist, on my list,
        to read later"""
    )
)
SAVE_STARTS: Final = tuple(
    f"{p} "
    for p in split_phrases(
        """lembra de, lembrar de, lembre de, lembre me, lembra que, nao esquece, nao esqueca,
        dont forget, do not forget, take note"""
    )
)
# a save verb typed with one slip ("slava", "slave", "anoat"): long verbs only, so a short
# word one letter from a verb ("nota"/"nata") is never taken for one
_LONG_SAVE_VERBS: Final = tuple(sorted(v for v in SAVE_VERBS if len(v) >= 5 and " " not in v))


# endings of a verb's other forms ("salvei", "guardou", "saved", "keeps", "noting"): a save
# verb said in one of them is that word, never a slip of the command
_ENDINGS: Final = "ei ou amos aram ando endo indo ado ada ados adas ed d s es ing".split()


def inflected_save_verb(word: str) -> bool:
    """Whether `word` is a save verb in another form than a command ("salvei", "coloquei",
    "saved", "keeps"): a stem of a save verb and an ending."""
    for ending in _ENDINGS:
        stem = word[: -len(ending)]
        if not word.endswith(ending) or len(stem) < 3:
            continue
        stem = re.sub(r"qu$", "c", re.sub(r"gu$", "g", stem))  # "coloquei": "coloca"
        if any(verb.startswith(stem) for verb in SAVE_VERBS):
            return True
    return False


def save_verb_typo(word: str) -> str | None:
    """The save verb of 5+ letters that `word` (5+ letters, not a verb itself nor one in
    another form) is with one typo ("slava": "salva"), else None."""
    if len(word) < 5 or not word.isalpha() or word in SAVE_VERBS or inflected_save_verb(word):
        return None
    found = process.extractOne(word, _LONG_SAVE_VERBS, scorer=OSA.distance, score_cutoff=1)
    return str(found[0]) if found is not None else None


# the type nouns a save names after its verb, to read back from one slip ("seris", "movei"),
# by the type each names
_TYPE_NOUN_KINDS: Final = {
    **dict.fromkeys("filme filmes movie movies film films".split(), "movie"),
    **dict.fromkeys("serie series seriado seriados show shows".split(), "tv_show"),
    **dict.fromkeys("video videos".split(), "video"),
    **dict.fromkeys("link links".split(), "link"),
    **dict.fromkeys("nota notas note notes".split(), "note"),
}
_TYPE_NOUN_FORMS: Final = tuple(sorted(_TYPE_NOUN_KINDS))
# what stands before a save verb and asks nothing of its own ("mas salva", "hey can u save",
# "e tb guarda"); the modals only when the message asks no question ("pode salvar X?" may ask
# what Lembra does)
_MODALS: Final = frozenset(
    split_phrases(
        """eu gostaria de, i would like to, gostaria de, voce poderia, voce pode, vc pode,
        eu quero, eu queria, eu preciso, can you, could you, would you, will you, i want to,
        id like to, i need to, pode, poderia, quero, queria, wanna, preciso, consegue"""
    )
)
_LEADS: Final = (frozenset(LEADING_FILLERS) - _MODALS) | frozenset(
    split_phrases("mas, porem, but, then, dai, also, tambem, plus, ah, oh, hey")
)
# said between the verb and what it saves, asking nothing: "salva tb a série", "add pls: X"
_BETWEEN: Final = frozenset(
    split_phrases(
        """tambem, also, too, ai, ae, la, pra mim, para mim, for me, please, por favor, pfv,
        pf, plz"""
    )
)
# the words that point at what is saved ("these movies", "as séries"), read back from one
# slip when 4 letters or more ("thes movies")
_POINTERS: Final = frozenset(
    split_phrases(
        """o, a, os, as, um, uma, the, an, my, meu, minha, meus, minhas, these, those, this,
        esses, essas, estes, estas, esse, essa, este, esta"""
    )
)
_LONG_POINTERS: Final = tuple(sorted(p for p in _POINTERS if len(p) >= 4))  # slips read
_WORD: Final = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_GAP: Final = re.compile(r"[\s,.!-]*")  # what may part the head's words ("mas, salva")


def plain_save_head(text: str) -> str:
    """`text` with the head of its save request said plainly: what asks nothing before the
    verb cut ("mas salva", "hey can u save"), the verb read back from one slip ("slava"), the
    words between it and what it saves cut ("salva tb a série", "save these movies pls: X"),
    and one slip in the pointer and type noun read back ("sav thes seris X"); `text` itself
    when it opens no save. A short verb slip is read back only beside a noun slip ("safe the
    movie", "sabe a série" are words of their own); a save verb in another form ("salvei",
    "saved") is no slip, nor an accent ("serie")."""
    words = [(fold(m.group()).replace(" ", ""), m) for m in _WORD.finditer(text[:300])]
    chat = [CHAT_WORDS.get(w, w) for w, _ in words]
    leads = _LEADS if "?" in text else _LEADS | _MODALS
    at = _phrases(chat, words, text, 0, leads)
    if at >= len(words):
        return text
    said, verb_match = words[at]
    verb = said if said in SAVE_VERBS else save_verb_typo(said)
    short_slip = (
        None if verb is not None else _one_slip(said, _SAVE_FORMS) if len(said) >= 3 else None
    )
    if verb is None and (short_slip is None or inflected_save_verb(said)):
        return text
    after = _phrases(chat, words, text, at + 1, _BETWEEN)
    pointer = noun = None
    if after < len(words) and _parted(text, words, after - 1, after):
        said = words[after][0]
        pointer = said if said in _POINTERS else None
        slipped_pointer = False
        if pointer is None and len(said) >= 4 and after + 1 < len(words):
            nxt = words[after + 1][0]  # "thes movies": a slip only before a type's noun
            slipped_pointer = _one_slip(nxt, _TYPE_NOUN_FORMS) is not None and any(
                OSA.distance(said, p, score_cutoff=1) <= 1 for p in _LONG_POINTERS
            )
        at_noun = after + (pointer is not None or slipped_pointer)  # a slipped one only points
        if at_noun < len(words) and _parted(text, words, at_noun - 1, at_noun):
            said = words[at_noun][0]
            noun = said if said in _TYPE_NOUN_KINDS else None
            if noun is None and 5 <= len(said) <= 10:
                noun = _one_slip(said, _TYPE_NOUN_FORMS)
            if noun is not None and noun != said and verb is None:
                verb = short_slip  # "svae the movei": both slipped, one request
        if noun is None and pointer is not None and pointer not in _LONG_POINTERS:
            pointer = None  # "salva o Dark": the article is the title's business
    slipped = verb != words[at][0]
    if verb is None or (slipped and noun is None and pointer is None and ":" not in text):
        return text  # "salsa e cebolinha": a slip of the verb before nothing a save names
    head = [verb, *(p for p in (pointer, noun) if p is not None)]
    if noun is not None:
        last = at_noun
        end = _phrases(chat, words, text, last + 1, _BETWEEN)
        rest = text[words[end - 1][1].end() :] if end > last + 1 else text[words[last][1].end() :]
    elif pointer is not None:
        rest = text[words[after][1].end() :]
    else:
        rest = text[verb_match.end() :]
    if noun is not None:
        rest = _PURPOSE_COLON.sub("", rest, count=1)  # "anota aí filme pra ver: X"
    if not rest.strip(" \t,.;!-"):
        return text  # "mas salva", "hey save it": nothing said after the head to read
    plain = " ".join(head) + (rest if rest[:1] in (":", " ") else " " + rest.lstrip(" ,.!-"))
    return text if fold(plain) == fold(text) else plain


# what a type noun is saved for, then the colon opening its title: "filme pra ver: X",
# "movie to watch later: X"
_PURPOSE_COLON: Final = re.compile(
    r"^\s*(?:pra|para|to)\s+(?:eu\s+|a\s+gente\s+)?(?:ver|assistir|watch|see)"
    r"(?:\s+(?:depois|dps|mais\s+tarde|um\s+dia|later|sometime))?\s*:",
    re.IGNORECASE,
)


def _phrases(
    chat: list[str],
    words: list[tuple[str, re.Match[str]]],
    text: str,
    at: int,
    phrases: frozenset[str],
) -> int:
    """The index of the first word from `at` on that no phrase of `phrases` covers, each
    parted from the last by spaces or light punctuation only. A word said twice in a row
    starts a title, not a filler ("salva o filme la la land")."""
    while at < len(words):
        if at + 1 < len(words) and chat[at] == chat[at + 1]:
            return at
        for n in (4, 3, 2, 1):
            if (
                at + n <= len(words)
                and " ".join(chat[at : at + n]) in phrases
                and all(_parted(text, words, i - 1, i) for i in range(max(at, 1), at + n))
            ):
                at += n
                break
        else:
            return at
    return at


def _parted(text: str, words: list[tuple[str, re.Match[str]]], before: int, at: int) -> bool:
    """Whether word `at` follows word `before` across spaces or light punctuation only."""
    if before < 0:
        return True
    gap = text[words[before][1].end() : words[at][1].start()]
    return _GAP.fullmatch(gap) is not None


_SAVE_FORMS: Final = tuple(sorted(v for v in SAVE_VERBS if len(v) >= 4 and " " not in v))


def _one_slip(word: str, forms: tuple[str, ...]) -> str | None:
    """The one form `word` is, itself or with one edit after the same first letter ("have"
    is no "save")."""
    if word in forms:
        return word
    found = [f for f in forms if f[0] == word[0] and OSA.distance(word, f, score_cutoff=1) <= 1]
    if len({_TYPE_NOUN_KINDS.get(f, f) for f in found}) != 1:
        return None  # none, or forms of different things
    return min(found, key=lambda f: (f[-1] != word[-1], len(f) != len(word)))  # "seris": "series"


DELETE_VERBS: Final = DELETE_VERB_FORMS | frozenset(
    split_phrases("esquece, esqueca, esquecer, tira, tirar, tire, forget, discard, drop")
)
SEARCH_VERBS: Final = frozenset(
    split_phrases(
        """procura, procurar, procure, busca, buscar, busque, acha, achar, ache, encontra,
        encontrar, encontre, pesquisa, pesquisar, pesquise, find, search, look, lookup, lista,
        listar, liste, list, mostra, mostrar, mostre, show, display, cade"""
    )
)
SEARCH_STARTS: Final = tuple(
    f"{p} "
    for p in split_phrases(
        """tem algum, tem alguma, tem algo, tenho algum, tenho alguma, tenho algo,
        eu tenho algum, eu tenho alguma, voce tem, do i have, did i save, have i saved,
        eu salvei, ja salvei, eu ja salvei, onde esta, onde ta, onde fica, where is, wheres,
        where did i, qual era, what was, o que eu salvei, o que eu tenho, what did i save,
        what do i have, quais, which"""
    )
)
SEARCH_QUESTION_WORDS: Final = frozenset(
    split_phrases("salvei, salvo, salva, salvos, salvas, guardei, anotei, tenho, tem, saved, have")
)
HOW_WORDS: Final = frozenset(("como", "how"))
LONGEST_START: Final = max(len(p.split()) for p in SAVE_STARTS + SEARCH_STARTS)
URL_RE: Final = re.compile(r"https?://\S|\bwww\.\S", re.IGNORECASE)
# "ideia: app de receitas"; a colon between two digits is a clock ("4:30"), never a heading
HEADED_NOTE_RE: Final = re.compile(r"^\s*([^:\n]{1,40}?)\s*(?:(?<!\d):|:(?!\d))\s*\S")

COMMAND_RE: Final = re.compile(
    r"^/([A-Za-z0-9_]+)(?:@[A-Za-z0-9_]+)?[?!.]*(?:\s+(.*))?$", re.DOTALL
)
COMMAND_LABELS: Final[Mapping[str, Label]] = MappingProxyType(
    {
        "delete_all": "delete_all",
        "list": "list_all",
        "cancel": "cancel",
        "start": "greeting",
        "help": "help",
    }
)
# variation selector and skin tones, so "👍🏽" is "👍"
EMOJI_MODIFIERS: Final = str.maketrans(
    "", "", "\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff"
)
EMOJI: Final[Mapping[str, Label]] = MappingProxyType(
    {
        **dict.fromkeys("\U0001f44d\U0001f44c\u2705\u2714\u2611\U0001f197", "confirm"),
        **dict.fromkeys("\U0001f44e\u274c\u2716\U0001f6ab", "deny"),
        "\U0001f44b": "greeting",
    }
)


# What a model writes for an item type besides the type itself ("tv", "film", "url"), folded
_TYPE_ALIASES: Final[Mapping[str, ItemType]] = MappingProxyType(
    {
        "tv": "tv_show",
        "show": "tv_show",
        "series": "tv_show",
        "tvshow": "tv_show",
        "tv_series": "tv_show",
        "film": "movie",
        "url": "link",
        "text": "note",
    }
)


def type_named(value: Any) -> Any:
    """The item type a word names ("filmes", "série", "tv"), for a tool argument's validator;
    anything else as it came (the argument model then refuses it)."""
    if not isinstance(value, str):
        return value
    folded = fold(value)
    return _TYPE_ALIASES.get(folded.replace(" ", "_")) or TYPE_WORDS.get(folded) or value


# a clause asking Lembra for something of its own (save, note, remind, change, mark, list,
# find, redo): said before a command that reads alone ("salva X, desfaz", "salva X, apaga
# essa"), the message makes two requests and no reader takes only the last one
ANOTHER_REQUEST: Final = re.compile(
    r"\b(?:salv|anot|sav|add|adicion|guard|lembr|remind|muda|chang|marc|mark|list|mostr|show"
    r"|busc|procur|find|search|refaz|redo)\w*|\?"
)
