"""Verb forms of the effects model text can claim (saved, deleted, changed), PT and EN.

The effect verbs are listed once, by lemma, with their conjugation class; every
inflected form is generated from the stem by the rules of that class (Portuguese
-ar/-er/-ir with their spelling changes, English -ed/-s/-ing with doubling and
e-drop) plus a few irregular forms. `verb_form` answers, for one folded token
(no case, no accents), which effect verb it is and in which form, so the claim
reader (agent/planning/claims.py) can tell "salvei" (I did it) from "salve"
(an offer or a command) and "salvando" (in progress) without a list of sentences.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final, Literal

Effect = Literal["save", "delete", "update"]
# done_1: first person past ("salvei", "salvamos"; English past after "I"/"we" is read in
#   context); done_3: third person past ("salvou"); past: English past/participle ("saved");
# participle: Portuguese participle ("salvo", "guardadas"); infinitive ("salvar", "save");
# future_1: first person future ("salvarei"); future_3 ("salvara" = "salvará");
# present_1 ("guardo"); present_3 ("salva", "saves"); subjunctive ("salve", "remova");
# conditional ("apagaria": what would happen, never a claim); gerund ("salvando", "saving").
Form = Literal[
    "done_1",
    "done_3",
    "past",
    "participle",
    "infinitive",
    "future_1",
    "future_3",
    "present_1",
    "present_3",
    "subjunctive",
    "conditional",
    "gerund",
]


@dataclass(frozen=True, slots=True)
class VerbForm:
    lemma: str
    effect: Effect
    form: Form
    language: Literal["pt", "en"]
    # the effect can also be about the user rather than the list ("anotei que você gosta...")
    noting: bool = False


# verbs that say where something went: a save only when the place is the list
# ("mandei Matrix pra sua lista", "I popped it onto your list"), never "mandei um e-mail"
_PT_PLACING: Final = frozenset("mandar enviar jogar levar mover passar tacar".split())
_EN_PLACING: Final = frozenset("pop move send throw stick slot tuck toss".split())
# Portuguese: infinitive -> effect. Folded (no accents): "por" is "pôr".
_PT_VERBS: Final[dict[str, Effect]] = {
    **dict.fromkeys(
        """salvar guardar anotar adicionar registrar armazenar incluir colocar botar
        acrescentar inserir cadastrar gravar arquivar memorizar marcar favoritar catalogar
        criar juntar agendar lembrar""".split(),
        "save",
    ),
    **dict.fromkeys(_PT_PLACING, "save"),
    **dict.fromkeys(
        """apagar remover excluir deletar eliminar descartar tirar retirar limpar esquecer
        desmarcar esvaziar zerar""".split(),
        "delete",
    ),
    **dict.fromkeys(
        """alterar mudar atualizar corrigir editar trocar renomear modificar ajustar
        substituir""".split(),
        "update",
    ),
}
# verbs whose object can be a fact about the user, not an item ("anotei que você gosta de terror")
_NOTING: Final = frozenset(
    """anotar registrar guardar memorizar lembrar salvar atualizar ajustar note record
    remember keep update adjust log""".split()
)
# lemmas only read as promises: "esqueci" is "I forgot", "lembrei" is "I remembered"
_PROMISE_ONLY: Final = frozenset({"esquecer", "lembrar", "remember", "forget"})
# short participles besides the regular ones
_PT_EXTRA_PARTICIPLES: Final[dict[str, tuple[str, ...]]] = {
    "salvar": ("salvo", "salva", "salvos", "salvas"),
    "limpar": ("limpo", "limpa", "limpos", "limpas"),
}
# "pôr" is irregular throughout
_PT_IRREGULAR: Final[dict[str, tuple[tuple[str, Form], ...]]] = {
    "por": (
        ("pus", "done_1"),
        ("pusemos", "done_1"),
        ("pos", "done_3"),
        ("puseram", "done_3"),
        ("posto", "participle"),
        ("posta", "participle"),
        ("postos", "participle"),
        ("postas", "participle"),
        ("por", "infinitive"),
        ("porei", "future_1"),
        ("pora", "future_3"),
        ("ponho", "present_1"),
        ("poe", "present_3"),
        ("ponha", "subjunctive"),
        ("ponham", "subjunctive"),
        ("pondo", "gerund"),
    ),
}
_PT_IRREGULAR_EFFECT: Final[dict[str, Effect]] = {"por": "save"}
# present stems that change: "insiro", "insira"
_PT_PRESENT_STEM: Final[dict[str, str]] = {"inserir": "insir", "esquecer": "esquec"}

# English: base -> (effect, past, participle) for the irregular ones; None for regular.
_EN_VERBS: Final[dict[str, Effect]] = {
    **dict.fromkeys(
        """save store add note record keep put bookmark log register archive insert include
        write jot create stash pin capture file remember""".split(),
        "save",
    ),
    **dict.fromkeys(_EN_PLACING, "save"),
    **dict.fromkeys(
        """delete remove erase wipe clear drop discard purge trash scrap forget take get unpin
        empty""".split(),
        "delete",
    ),
    **dict.fromkeys(
        "change update edit correct fix rename modify adjust replace amend".split(), "update"
    ),
}
_EN_IRREGULAR: Final[dict[str, tuple[str, ...]]] = {
    # base: past forms and participles
    "keep": ("kept",),
    "put": ("put",),
    "write": ("wrote", "written"),
    "take": ("took", "taken"),
    "get": ("got", "gotten"),
    "forget": ("forgot", "forgotten"),
    "send": ("sent",),
    "throw": ("threw", "thrown"),
    "stick": ("stuck",),
}
# English verbs that claim an effect only with their particle: "wrote it down", "took it out"
PARTICLES: Final[dict[str, frozenset[str]]] = {
    "write": frozenset({"down"}),
    "jot": frozenset({"down"}),
    "take": frozenset({"off", "out", "away"}),
    "get": frozenset({"rid"}),
    "put": frozenset({"in", "into", "on", "down", "to"}),
}
_EN_DOUBLING: Final = frozenset({"drop", "log", "scrap", "jot", "pin", "unpin", "pop", "slot"})
VOWELS: Final = "aeiou"


def _pt_forms(infinitive: str) -> list[tuple[str, Form]]:
    """Every form of a regular Portuguese verb, folded (accents dropped, as `fold` does)."""
    stem, ending = infinitive[:-2], infinitive[-2:]
    forms: list[tuple[str, Form]] = []
    present = _PT_PRESENT_STEM.get(infinitive, stem)
    if ending == "ar":
        # spelling before e: colocar -> coloquei/coloque, apagar -> apaguei/apague
        soft = stem
        if stem.endswith("c"):
            soft = stem[:-1] + "qu"
        elif stem.endswith("g"):
            soft = stem + "u"
        forms += [
            (soft + "ei", "done_1"),
            (stem + "amos", "done_1"),
            (stem + "ou", "done_3"),
            (stem + "aram", "done_3"),
            (stem + "ado", "participle"),
            (stem + "adinho", "participle"),  # "guardadinho": colloquial, still "saved"
            (stem + "adinha", "participle"),
            (stem + "ada", "participle"),
            (stem + "ados", "participle"),
            (stem + "adas", "participle"),
            (stem + "ar", "infinitive"),
            (stem + "arei", "future_1"),
            (stem + "aremos", "future_1"),
            (stem + "ara", "future_3"),
            (stem + "arao", "future_3"),
            (stem + "aria", "conditional"),
            (stem + "ariam", "conditional"),
            (stem + "o", "present_1"),
            (stem + "a", "present_3"),
            (stem + "am", "present_3"),
            (soft + "e", "subjunctive"),
            (soft + "em", "subjunctive"),
            (soft + "emos", "subjunctive"),
            (stem + "ando", "gerund"),
        ]
    else:
        vowel = ending[0]  # e or i
        third = "eu" if vowel == "e" else "iu"
        # esquecer: esqueço/esqueça (folded: esqueco/esqueca)
        present_soft = present[:-1] + "c" if present.endswith("c") else present
        forms += [
            (stem + "i", "done_1"),
            (stem + vowel + "mos", "done_1"),
            (stem + third, "done_3"),
            (stem + vowel + "ram", "done_3"),
            (stem + "ido", "participle"),
            (stem + "idinho", "participle"),
            (stem + "idinha", "participle"),
            (stem + "ida", "participle"),
            (stem + "idos", "participle"),
            (stem + "idas", "participle"),
            (stem + vowel + "r", "infinitive"),
            (stem + vowel + "rei", "future_1"),
            (stem + vowel + "remos", "future_1"),
            (stem + vowel + "ra", "future_3"),
            (stem + vowel + "rao", "future_3"),
            (stem + vowel + "ria", "conditional"),
            (stem + vowel + "riam", "conditional"),
            (present_soft + "o", "present_1"),
            (present_soft + "a", "subjunctive"),
            (present_soft + "am", "subjunctive"),
            (present_soft + "amos", "subjunctive"),
            (stem + vowel + "ndo", "gerund"),
        ]
        if vowel == "e":
            forms.append((stem + "e", "present_3"))
        elif not stem.endswith("u"):
            forms.append((stem + "e", "present_3"))  # insere
        else:
            forms.append((stem + "em", "present_3"))  # excluem (exclui is read as done_1)
    for participle in _PT_EXTRA_PARTICIPLES.get(infinitive, ()):
        forms.append((participle, "participle"))
    return forms


def _en_forms(base: str) -> list[tuple[str, Form]]:
    """Every form of an English verb: base, -s, past/participle, -ing."""
    if base in _EN_IRREGULAR:
        pasts = list(_EN_IRREGULAR[base])
        doubled = base in ("put", "get", "forget")
        ing = base[:-1] + "ing" if base.endswith("e") else base + ("ting" if doubled else "ing")
        third = base + "s"
    else:
        if base.endswith("e"):
            past, ing = base + "d", base[:-1] + "ing"
        elif base.endswith("y") and base[-2] not in VOWELS:
            past, ing = base[:-1] + "ied", base + "ing"
        elif base in _EN_DOUBLING:
            past, ing = base + base[-1] + "ed", base + base[-1] + "ing"
        else:
            past, ing = base + "ed", base + "ing"
        pasts = [past]
        if base.endswith(("s", "x", "sh", "ch")):
            third = base + "es"
        elif base.endswith("y") and base[-2] not in VOWELS:
            third = base[:-1] + "ies"
        else:
            third = base + "s"
    return [
        (base, "infinitive"),
        (third, "present_3"),
        *((p, "past") for p in pasts),
        (ing, "gerund"),
    ]


@functools.cache
def _table() -> dict[str, tuple[VerbForm, ...]]:
    """Folded form -> the verb forms it can be (built once, on first use)."""
    table: dict[str, list[VerbForm]] = {}

    def add(word: str, form: VerbForm) -> None:
        if form not in table.setdefault(word, []):
            table[word].append(form)

    for infinitive, effect in _PT_VERBS.items():
        for word, form in _pt_forms(infinitive):
            add(word, VerbForm(infinitive, effect, form, "pt", infinitive in _NOTING))
    for infinitive, forms in _PT_IRREGULAR.items():
        for word, form in forms:
            add(word, VerbForm(infinitive, _PT_IRREGULAR_EFFECT[infinitive], form, "pt"))
    for base, effect in _EN_VERBS.items():
        for word, form in _en_forms(base):
            add(word, VerbForm(base, effect, form, "en", base in _NOTING))
    return {word: tuple(forms) for word, forms in table.items()}


def verb_forms(token: str) -> tuple[VerbForm, ...]:
    """The effect-verb forms a folded token can be (empty when it is none)."""
    return _table().get(token, ())


def promise_only(lemma: str) -> bool:
    """Whether the verb claims an effect only as a promise ("vou lembrar", "I'll forget it")."""
    return lemma in _PROMISE_ONLY


def needs_particle(lemma: str) -> frozenset[str] | None:
    """The particles an English verb needs to claim its effect, or None when it needs none."""
    return PARTICLES.get(lemma)


def needs_place(lemma: str) -> bool:
    """Whether the verb claims a save only with the list as its place ("mandei X pra lista")."""
    return lemma in _PT_PLACING or lemma in _EN_PLACING


# Effects said as nouns after a light verb ("fiz a remoção de X", "I made the change")
ACTION_NOUNS: Final[dict[str, Effect]] = {
    **dict.fromkeys(
        "remocao exclusao apagamento delecao eliminacao retirada removal deletion".split(),
        "delete",
    ),
    **dict.fromkeys(
        """inclusao adicao cadastro registro gravacao salvamento insercao addition note
        anotacao""".split(),
        "save",
    ),
    **dict.fromkeys(
        "atualizacao alteracao correcao edicao mudanca troca update change edit correction".split(),
        "update",
    ),
}
LIGHT_VERBS: Final = frozenset(
    "fiz fizemos realizei realizamos efetuei efetuamos conclui made did completed performed".split()
)
