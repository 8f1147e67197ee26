"""Model text never speaks for the runtime (DESIGN 11.2).

Model text (a RESPOND message, the phrasing of read results, a clarification's question and
options) is produced only in turns in which no effect happened, so any statement in it that
an effect happened or will happen is invalid output (DESIGN 3.1), whatever it names: no
matching against what happened is needed, and the reader is broad (a false positive costs one
re-ask, a false negative a user's trust). The one exception is the output's own belief delta
(seed 000): "Anotado: você gosta de terror" is true once that delta is stored.

What it says of the user's list is checked against storage: membership, absence, counts per
type, emptiness, every item a listing names, "só"/"only" and "todos"/"all" ("só isso" after a
listing), an item seen or not, how many are seen or still to see ("you've watched them all").
Titles are found first, as opaque spans (stored and original titles, titles shown this turn,
the user's own words, quotations, "Title (1999)", capitalised runs), so a title is never read
as a clause: "Não Me Abandone Jamais foi salvo" is a claim, a comma inside a title splits no
listing. What cannot be checked (opinion, small talk, the model's own knowledge) and offers to
act are reported, for the score (seed 003) and for asking the offer with options.

`judge` decides with what it is given (pure; bench/claims.py uses it); `check_model_text`
reads the stored items the text can name and the user's counts, and calls it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise, takewhile
from typing import Final, Literal

from rapidfuzz import fuzz

from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.textlanguage import foreign_language, language_problem
from agent.tools.candidates import naming_any, query_words
from agent.tools.matching import TYPE_WORDS
from agent.understanding.language import EN_WORDS, PT_WORDS
from agent.understanding.reminders.numbers import UNITS
from agent.understanding.textnorm import without_data_tags
from storage.documents import ITEM_TYPES

EFFECT_CLAIMED: Final = (
    "your message says an effect happened or will happen ({what}), but model text is only "
    "shown in turns where nothing changes: to act, call the tool; otherwise say only what "
    "the stored items and this turn's results show"
)
LIST_WRONG: Final = (
    "your message says the user's list {what}, but the stored items say otherwise: say only "
    "what the stored items and this turn's tool results show"
)
StatementKind = Literal["member", "absent", "count", "every", "seen", "unseen", "year"]


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _phrases(text: str) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(f" {p.strip()} ") for p in text.split("|")))


def _said(words: Sequence[str], phrases: re.Pattern[str], *, end: bool = False) -> bool:
    """Whether the words hold one of the phrases (at their end, when `end`)."""
    text = f" {' '.join(words)} "
    return bool(re.search(f"(?:{phrases.pattern})$" if end else phrases, text))


def _rows(text: str, sep: str = " ") -> list[str]:
    """The values of "name: value" lines; an indented line goes on the one before."""
    rows: list[str] = []
    for line in text.strip("\n").splitlines():
        if line.startswith("#"):
            continue
        if line.startswith(" "):
            rows[-1] += sep + line.strip()
        else:
            rows.append(line.split(":", 1)[1].strip())
    return rows


def _families(text: str) -> dict[str, str]:
    """ "save: salv guard" -> {"salv": "save", "guard": "save"}."""
    rows = (line.split(":", 1) for line in text.strip().splitlines())
    return {stem: family.strip() for family, stems in rows for stem in stems.split()}


# -- effect words, by form --------------------------------------------------------------------
# Families: save, note, delete, update, mark, remind, undo, import, done ("Pronto!"); "*"
# marks a verb that is an effect only with its place or particle ("joguei X na lista").
_PT_AR: Final = _families("""
save: salv guard adicion acrescent coloc cadastr armazen grav bot arquiv
save*: jog mand tac lanc pass
note: anot registr memoriz
delete: apag delet elimin limp esvazi retir tir zer
update: atualiz alter edit renome mud troc modific ajust reclassific transform
mark: marc desmarc avali favorit fix
remind: agend program remarc adi cancel configur cri confirm envi lembr avis ativ
undo: restaur recuper
undo*: volt
import: import export sincroniz
""")
_PT_ER_IR: Final = _families("""
delete: remov:e exclu:i
save: inclu:i inser:i
update: corrig:i substitu:i mov:e convert:e
remind: defin:i
undo: revert:e
save*: garant:i
""")
# irregular forms, "family form: words"
_PT_IRREGULAR: Final = {
    word: tuple(key.split())
    for key, words in (
        line.split(":")
        for line in """save pp: salvo salva salvos salvas salvinho
save* pp: posto posta postos postas
save* done1: pus pusemos
undo done1: desfiz refiz desfizemos
undo pp: desfeito desfeita refeito refeita desfeitos
undo pres3: desfaz refaz
undo subj: desfaca refaca desfacam refacam
import done1: trouxe trouxemos
undo inf: desfazer refazer
delete pp: limpo limpa limpos limpas
remind pp: ativo ativa
done pp: feito feita feitos feitas feitinho pronto prontinho prontissimo concluido concluida
done pp: finalizado finalizada resolvido resolvida
done done1: conclui concluimos finalizei finalizamos completei completamos""".splitlines()
    )
    for word in words.split()
}
_EN: Final = _families("""
save: save add store log keep track insert register
save*: put pop stick throw lock
note: note record remember memorize memorise
note*: jot write
delete: delete remove erase wipe purge clear
delete*: take get drop
update: update change edit rename fix correct modify adjust convert retype switch amend
update*: move turn
mark: mark rate favorite favourite pin archive tag bookmark
mark*: check
remind: schedule reschedule snooze postpone cancel remind create send confirm ping notify alert nudge
remind*: set
undo: undo redo revert restore
undo*: roll
import: import export sync
""")
_EN_IRREGULAR: Final = dict(p.split(":") for p in """kept:keep set:set wrote:write written:write
took:take taken:take got:get gotten:get stuck:stick threw:throw thrown:throw undid:undo
undone:undo redid:redo redone:redo put:put done:done finished:done sorted:done""".split())  # fmt: skip
_EN_DOUBLED: Final = _set("pop drop jot log tag pin cancel")
# what a "*" verb needs after it to be an effect ("took X off", "rolled back")
_PARTICLES: Final = {v: _set(w.replace(",", " ")) for v, w in (p.split(":") for p in """
take:off,out,away get:rid,down drop:from,off jot:down write:down move:to
roll:back check:off lock:in turn:into volt:atras,lista,listinha,filmes,series,notas""".split())}  # fmt: skip


def _build_lexicon() -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Every inflected form -> its (family, form, lemma) readings."""
    out: dict[str, list[tuple[str, str, str]]] = {}

    def add(word: str, family: str, form: str, lemma: str) -> None:
        out.setdefault(word, []).append((family, form, lemma))

    ar = "pp:ado ada ados adas adinho adinha adissimo adissima|done1:amos|done3:ou aram|inf:ar|"
    rows = [
        (s, f, ar + "fut:arei aremos ara arao|ger:ando|pres1:o|pres3:a") for s, f in _PT_AR.items()
    ]
    for stem_vowel, family in _PT_ER_IR.items():
        stem, v = stem_vowel.split(":")
        endings = f"pp:ido ida idos idas|done1:i|done3:{v}u {v}ram|inf:{v}r|fut:{v}rei|ger:{v}ndo|"
        rows.append((stem, family, endings + "pres1:o|pres3:e|subj:a"))
    for stem, family, endings in rows:
        for form, ends in (part.split(":") for part in endings.split("|")):
            for end in ends.split():
                add(stem + end, family, form, stem)
        if endings.startswith(ar):  # "coloquei", "apague": c and g before e
            soft = stem[:-1] + {"c": "qu", "g": "gu"}.get(stem[-1], stem[-1])
            add(soft + "ei", family, "done1", stem)
            add(soft + "e", family, "subj", stem)
    for word, (family, form) in _PT_IRREGULAR.items():
        add(word, family, form, word)
    for base, family in _EN.items():
        stem = base[:-1] if base.endswith("e") else base + base[-1] if base in _EN_DOUBLED else base
        add(base, family, "base", base)
        add(base[:-1] + "ied" if base.endswith("y") else stem + "ed", family, "past", base)
        if base in _EN_DOUBLED:
            add(base + "ed", family, "past", base)  # US "canceled" beside "cancelled"
        add(stem + "ing", family, "ger", base)
    for word, base in _EN_IRREGULAR.items():
        add(word, _EN.get(base, "done"), "past", base)
    return {word: tuple(readings) for word, readings in out.items()}


_LEXICON: Final = _build_lexicon()
_FORMS: Final = {word: {form for _, form, _ in readings} for word, readings in _LEXICON.items()}

# -- small word classes, one a line: "name: words" (an indented line goes on) ----------------
(
    _REMINDER_WORDS, _ARTICLES, _NEGATIONS, _NOTHING, _CONDITIONS, _WISH, _DISCOURSE, _ACK_ONLY,
    _PRESENTING, _ADVERBS, _I_WE, _YOU, _DONE_AUX, _STATE_AUX, _HAVE, _FUTURE, _MODALS,
    _PROGRESSIVE, _OBJECT_START, _STORY_PLACE, _PLACE, _POSSESSIVE, _NARROW, _ONLY, _ALL, _SEEN,
    _MEMBER_VERBS, _FOUND, _KEPT_WORDS, _MOTION_IN, _MOTION_OUT, _INTO, _LIGHT, _ACTION_NOUNS,
    _FIELDS, _REFERRING, _TAGS, _PLACE_PREP, _TASTE, _BOUNDARY, _JOINERS, _SUBJECT_NEXT,
    _OTHER_GENERIC, _OTHER_KNOWN, _PRESENTS, _NARROW_MORE, _COPULA, _OUTSIDE, _MADE_BY, _ABOUT,
    _LEFT, _TO_SEE, _STATE_OPEN, _ENDED, _NEXT_STATE, _STILL, _TRASH, _EMPTY, _ABOUT_LIST,
    _FINISHED, _GRADES, _ALL_OF_IT, _THATS,
) = map(_set, _rows("""
reminder_words: reminder reminders alarm alarms alert timer lembrete lembretes alarme alerta ping
  nudge notification notificacao aviso
articles: o a os as um uma the an
negations: nao n nope nah nunca nem jamais nada nenhum nenhuma ninguem not never no nothing none nobody
  neither nor cannot dont didnt doesnt isnt arent wasnt werent havent hasnt hadnt cant couldnt wont
  wouldnt shouldnt aint unable failed falhei falhou without
nothing: nada nothing none nenhum nenhuma anything
conditions: se caso quando assim logo depois if once when whenever unless until reply say type
  confirm responda responde diga digite confirme basta
wish: quiser quiserem preferir desejar want like wish prefer
discourse: pronto ok okay certo beleza blz perfeito otimo show sim claro boa legal combinado
  entendido entendi fechado fechou tranquilo ta e and also tambem aqui here now agora ja already
  just done great sure alright perfect yes yep yeah right good cool nice excelente successfully
  voila tudo so then entao well alias que bem consider got it listo prontinho ✓ +1
ack_only: ok okay certo beleza blz claro combinado entendido entendi fechado fechou perfeito otimo
  show legal tranquilo sure got it gotcha roger that thing alright cool great perfect noted will do
  on bora partiu demorou deixa comigo pode deixar boa you
presenting: aqui segue seguem here heres encontrei achei found below abaixo veja
adverbs: ja agora tambem so apenas mesmo bem mais devidamente duly certinho direitinho corretamente
  entao finalmente ainda just already also now successfully safely correctly properly all both
  finally indeed really still went gone go ahead and te me lhe o a os as lo la los las it them this
  that isso isto ele ela eles elas sim yes ok again
i_we: i we eu ive weve ill well im id gente
you: voce voces vc vcs tu you youve youre
done_aux: foi foram fora ficou ficaram sido acabou was were been got gets
state_aux: esta estao ta tao estava estavam fica ficam continua continuam permanece permanecem
  aparece aparecem appear appears segue seguem consta constam is are s re remains remain stays stay
  its thats sits isnt arent wasnt werent
have: have has had ve tem tenho temos possui
future: vou vamos vai vao irei iremos will ll gonna shall ill youll wont
modals: pode podem deve devem precisa precisam can could should must may might would cannot cant
progressive: estou to tou estamos am m are re im
object_start: the a an his her their its my our this that these those him them us o os as um uma
  seu sua
story_place: em no na nos nas in at do da dos das from apos depois after during
place: lista listas listinha biblioteca colecao acervo watchlist list lists library collection pile
  queue fila salvos salvas favoritos favorites favourites
possessive: seu sua seus suas teu tua teus tuas your my minha meu meus minhas
narrow: do da de dos das by from with com que that of sobre about
only: so somente apenas only just unico unica unicos single sole
all: todos todas all every everything tudo
seen: viu vimos assistiu assistimos assisti vi watched seen leu read visto vista vistos assistido
  assistida lido lida
member_verbs: tem contem inclui includes has have contains holds lists possui
found: encontrei achei localizei vi vejo found find located spotted see
kept_words: salvou guardou saved salvo salvos salva salvas guardado stored ha there
motion_in: entrou entraram foi foram went goes vai voltou voltaram
motion_out: saiu sairam sumiu sumiram gone out off
into: pra para pro pros pras a ao aos na no nos para into to onto in on
light: fiz fizemos realizei efetuei made did performed dei gave
action_nouns: remocao exclusao alteracao atualizacao inclusao correcao edicao registro cadastro
  importacao insercao adicao mudanca troca change update removal deletion edit changes rename nota
  anotacao note rating estrelas stars
fields: ano titulo nome tipo year title name type
referring: ele ela eles elas isso esse essa este esta aquele aquela it they this that these those
  both ambos ambas os dois as duas one
tags: ta ok okay certo ne beleza blz viu right alright sim bora partiu
place_prep: na no nas nos em entre dentro pra para pro a ao aos in on into onto to among from off
  da do
taste: gosta gosto gostar prefere preferencia curte ama odeia detesta adora like likes love loves
  prefer prefers preference enjoy hate hates taste into
boundary: mas porem contudo entretanto but however although though so entao
joiners: de da do das dos e o a os as um uma em no na sem pelo pela of the an and by in on with to
  for at from
subject_next: eh is was are were foi era sao fica has have had doesnt didnt isnt wasnt nao not will
  can could would tem teve ganhou won stars ran came fala conta tells
other_generic: de do da e ou and or of for with com que what which qual quais isso esse essa este
  aquele aquela it its they them one ones yet still here there hoje today ontem yesterday semana
  week mes month ano year desde since ago atras too tudo everything nome title titulo sim yes nao
  no ver assistir ha mais more longer anymore algum alguma any some ai aqui la garantido else pm
  safely right now mesmo sucesso ainda overall
other_known: encontrei achei found want quer posso should would here heres consider listo consegui
  acabei pude tratei cuidei dei fiz managed went let sure great okay ok deixei deixamos
presents: aqui segue seguem here heres vai falta faltam unwatched pending pendentes
# what makes a count or a "nothing" about some items only ("salvou 3 itens hoje")
narrow_more: hoje ontem semana mes today yesterday week month recently recentemente chamado chamada
  called named matching nome title titulo
copula: eh sao is are s re
outside: fora outside besides alem beyond
# what names who made or what a title is about, not an item ("um filme do Nolan")
made_by: pelo pela by de do da dos das of com starring called named chamado
about: sobre about regarding mentioning mentions mention mencionando menciona mencionam fala falam
# what is still to see ("só falta X", "only Heat left to watch")
left: falta faltam resta restam sobra sobrou sobraram left remaining pendente unwatched unseen
to_see: ver assistir watch see ler read
state_open: unseen unwatched unread pending queue fila pendente pendentes waiting esperando aguardando
  open aberto aberta abertos abertas
ended: finished terminou terminei terminado terminada terminados terminadas
# what opens a clause of its own after "e"/"and": "tá na lista e (você) ainda não viu"
next_state: ainda still nao not nunca never
still: ja already ainda still yet sim yes so just
trash: lixo lixeira trash bin
empty: vazia vazio vazias vazios zerada zerado zeradas zerados empty blank
about_list: minha meu meus minhas my tenho have lista list falta vejo assisto assistir ver watch
  primeiro first recomenda recommend sugere suggest pick
finished: complete completed concluido concluida done finished feito feita ok
grades: rating nota score stars estrelas avaliacao
# after a listing, what says it named every item: "só isso", "that's all", "nada mais"
all_of_it: isso tudo it all esses essas those these else mais everything todos todas both ambos
thats: so eh e ai mesmo por enquanto that thats s is only just for now nada nothing pronto ok
"""))  # fmt: skip
(
    _COMPLETION, _PROMISING, _JUST_DID, _PART_OF, _OFFER_HEADS,
) = map(_phrases, _rows("""
completion: ta feito|missao cumprida|mission accomplished|ja era|ta na mao|deixa comigo|pode deixar|all set|all done
  taken care|consider it|youre all set|on it|will do|ja foi|done deal|tudo certinho|its in
promising: going to|let me|make sure to|estou indo|vou garantir de
just_did: acabei de|acabamos de|consegui|conseguimos|pude|managed to|able to|cuidei de|tratei de
  jeito de|questao de|went ahead and|ve gone ahead and
part_of: faz parte|fazem parte|part of|de volta|back
offer_heads: quer que|queres que|deseja que|gostaria que|prefere que|posso|podemos|devo|que tal
  want me|would you like|do you want|should i|shall i|can i|may i|could i|i can|i could
  let me know if|how about|quer|deseja|want|eu posso|gostaria de
""", "|"))  # fmt: skip

_TYPE_OF: Final = {w: kind for kind, words in TYPE_WORDS.items() for w in words} | dict.fromkeys(
    _set("itens items coisas things titulos titles item coisa thing titulo title"), ""
)
_NUMBERS: Final = {w: n for w, n in UNITS.items() if n <= 12}
_MINE: Final = [[w] for w in ("your", "seu", "sua")]
# what "you haven't seen it yet" says besides seeing
_SEEN_ONLY: Final = frozenset().union(
    _SEEN,
    _YOU,
    _NEGATIONS,
    _ADVERBS,
    _REFERRING,
    _set("e and yet ainda but mas have has que which")
    | _set("dos das dentre entre of among the ones those"),
)
_WATCHED: Final = frozenset(("movie", "tv_show", "video"))
_SCREEN: Final = frozenset(("movie", "tv_show"))  # a film said to be a show is a wrong type
_USER_SAW: Final = _set("viu assistiu leu")  # the user's own act ("você já viu")
# an item's state said of it (DESIGN 11.5): done ("nos vistos", "marked as watched") or still
# to see ("unwatched", "pra ver", "ainda não assistida"); not "vi"/"read", which say the speaker's act
_STATE_DONE: Final = (_SEEN - _set("vi vimos assisti assistimos read")) | _set(
    "vistas assistidos assistidas lidos lidas concluidas concluidos"
)
_STATE_BEFORE: Final = frozenset().union(
    _STATE_AUX, _YOU, _POSSESSIVE, _NEGATIONS, _ARTICLES, _HAVE,
    _set("como as marked marcado marcada marcados marcadas nos nas entre among in ("),
)  # fmt: skip
_STATE_WORDS: Final = _STATE_AUX | _set("marcado marcada marked como as")
_STATES: Final = _SEEN | _STATE_OPEN | _STATE_DONE  # words that say an item's state
_RESULTS: Final = _set("results result resultado resultados match matches sign sinal rastro")
_TO_SEE_READ: Final = 200  # items still to see read to check "só falta X"; more: not checked
_ACTS: Final = ("done", "promise")
# a reminder shown as a card ("⏰ Lembrete: academia\n📅 amanhã às 7h"): one was set
_CARD: Final = re.compile(r"^\W*(?:lembrete|reminder|alarme|alarm)\W*:", re.I | re.M)
# "Lembrete mensal todo dia 10 às 09:00", "Reminder locked in for Wed at 9 AM": one was set
_CLOCK: Final = re.compile(
    r"\b(?:lembrete|reminder|alarme|alarm)\b.*?\b\d{1,2}(?::\d\d|h\d*\b|\s?[ap]\.?m\b)", re.I
)
_SAVED_WHEN: Final = frozenset().union(
    _LEXICON, _KEPT_WORDS, ("desde", "since")
)  # "salvou em 2023"
_TAIL: Final = frozenset().union(
    _PLACE_PREP, _PLACE, _POSSESSIVE, _TYPE_OF, _DISCOURSE, _ADVERBS, _STATE_AUX, _HAVE, _KEPT_WORDS
)
_ABLE: Final = _phrases("i can|posso|consigo|podemos|we can|i m able|im able|sou capaz")
_READS: Final = re.compile(
    r"^(?:procur|busc|pesquis|mostr|olh|verific|consult|confer|encontr|ach|revis|analis|notic|"
    r"search|find|look|show|check|ver$|assistir|watch|lembrete|review|scan|brows|"
    r"reminder|alarm)"
)
# words that never name an item on their own
_GENERIC: Final = frozenset().union(
    _ADVERBS, _DISCOURSE, _ARTICLES, _NEGATIONS, _PLACE, _POSSESSIVE, _YOU, _I_WE, _STATE_AUX,
    _DONE_AUX, _HAVE, _MEMBER_VERBS, _PLACE_PREP, _ONLY, _ALL, _SEEN, _FOUND, _FUTURE, _TYPE_OF,
    _NUMBERS, _OTHER_GENERIC,
)  # fmt: skip
_NOTHING_KEPT: Final = _NOTHING | _KEPT_WORDS | _GENERIC  # "Nothing saved yet"
# what stands before a bare participle ("Filme X salvo!", "Lista esvaziada", "Rating saved")
_BEFORE_BARE: Final = frozenset().union(
    _DISCOURSE, _ARTICLES, _TYPE_OF, _JOINERS, _PLACE, _FIELDS, _ACTION_NOUNS
)
_PLACE_WORDS: Final = frozenset().union(_PLACE_PREP, _PLACE, _POSSESSIVE, _ARTICLES, _TYPE_OF)
_COUNTED: Final = frozenset().union(_TYPE_OF, _ALL, _ONLY, _ARTICLES, _NUMBERS)
# what a count said alone may hold besides: "Três links no total", "One movie, watched or not"
_TOTAL: Final = (
    _COUNTED
    | _DISCOURSE
    | _COPULA
    | _set("in total no ao todo em juntos together or ou nao not ate so far i count be d that")
)
# words a capitalised run does not start with ("Salvei Matrix", "Sure, Added Heat")
_KNOWN: Final = frozenset().union(PT_WORDS, EN_WORDS, _GENERIC, _LEXICON, _OTHER_KNOWN)

# -- tokens and names -----------------------------------------------------------------------


@lru_cache(maxsize=8192)
def fold_word(raw: str) -> str:
    """A word as compared: lower case, no accents, no apostrophes."""
    decomposed = unicodedata.normalize("NFKD", raw.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c) and c not in "'’")


# an English contraction's tail is a word of its own ("Heat's on", "they're gone", "I've")
_WORD_RE: Final = r"[^\W_]+(?:['’](?!(?i:s|re|ll|ve|m|d)\b)[^\W_]+)*|(?<=['’])(?i:s|re|ll|ve|m|d)\b"
_URL: Final = r"(?:https?://|www\.)\S+?(?=[.,;:!?)»”\"']*(?:\s|$))"
_TOKEN: Final = re.compile(
    _URL
    + "|"
    + _WORD_RE
    + r"|[.!?;:,()«»\"“”…\n]|(?<!\S)[-–—•*/](?!\S)|[✅✔☑✓\U0001f44d\U0001f44c]"
    r"|(?<![^\W_])['‘’]|['‘’](?![^\W_])"  # a single quote, not an apostrophe inside a word
    r"|[\U0001f300-\U0001faff\u2300-\u23ff\u25a0-\u27bf\u2b00-\u2bff](?:\u200d[\U0001f300-\U0001faff\u2600-\u27bf])*"
)
_WORDS: Final = re.compile(_WORD_RE)
_URL_RE: Final = re.compile(_URL)
_MARKS: Final = {**dict.fromkeys("✅✔☑✓", "✓"), **dict.fromkeys("‘’", "'"), "\U0001f44d": "+1"}
_MARKS["\U0001f44c"] = "+1"
_ENDS: Final = frozenset(".!?;\n…")
_QUOTES: Final = {"«": "»", "“": "”", '"': '"', "'": "'"}


@lru_cache(maxsize=4096)
def title_words(title: str) -> tuple[str, ...]:
    return tuple("eh" if w in ("é", "É") else fold_word(w) for w in _WORDS.findall(title))


@dataclass(frozen=True, slots=True)
class Stored:
    """A stored item as the check sees it (`state` as DESIGN 11.5 names it, when known)."""

    type: str
    title: str
    original_title: str | None = None
    year: int | None = None
    state: str | None = None


@dataclass(frozen=True, slots=True)
class Name:
    """An opaque span naming something, and the stored items it is known to name."""

    words: tuple[str, ...]
    items: tuple[int, ...] = ()


@dataclass(slots=True)
class Tok:
    w: str  # folded word, a mark ("," ":" "✓" ...) or "§" for a name
    raw: str
    cap: bool = False
    name: Name | None = None


@dataclass(frozen=True, slots=True)
class Statement:
    """What a text says about the list."""

    kind: StatementKind
    names: tuple[Name, ...] = ()
    count: int = 0  # how many; of "year", the year said
    type: str = ""  # an item type, "" for any
    complete: bool = False  # "só", "only", "todos", "all": the names are every item (of type)
    confirms: bool = False  # said with a participle ("Tá salvo!"): naming nothing, it confirms
    refers: bool = True  # naming nothing, its subject points back ("it", "ele", "seu filme")
    topic: bool = False  # absent: no item (of type) mentions the names at all
    left: bool = False  # of the items still to see ("só falta X", "2 movies left")
    done: bool = False  # a count of the items seen or read ("you've seen 2 of your movies")
    past: bool = False  # "you saved X": unless the text says it was deleted since
    least: bool = False  # a count of some of them ("3 vídeos do YouTube"): at least that many


@dataclass(frozen=True, slots=True)
class Reading:
    effects: tuple[tuple[str, tuple[Name, ...]], ...] = ()  # (family, names) said done or promised
    statements: tuple[Statement, ...] = ()
    offer: bool = False
    unchecked: bool = False  # some of it states what storage cannot verify
    # names said together ("Matrix, Duna e Alien", a list's entries), and whether as a listing
    # of the list; together, one stored name makes every other one a claim of the list too
    # (names, "listing" | "lines" | "said"): a list's entries are a listing of their own
    groups: tuple[tuple[tuple[Name, ...], str], ...] = ()
    typed: tuple[tuple[Name, str], ...] = ()  # a name said with its type: "o filme X", "the show X"


Title = tuple[tuple[str, ...], tuple[int, ...]]  # a title's words, the stored items it names


def _tokens(text: str) -> list[Tok]:
    out: list[Tok] = []
    for raw in _TOKEN.findall(text):
        if _URL_RE.match(raw):  # a link is a name, whole
            out.append(Tok("§", raw, name=Name(title_words(raw))))
        elif raw in _MARKS or not raw[0].isalnum():  # another emoji is "◆"
            out.append(Tok(_MARKS.get(raw, "◆" if raw >= "\u2300" else raw), raw))
        else:  # "é" is no "e" ("and")
            out.append(Tok("eh" if raw in ("é", "É") else fold_word(raw), raw, raw[0].isupper()))
    return out


def _mask(toks: list[Tok], titles: Sequence[Title]) -> list[Tok]:
    """`toks` with every name as one "§" token: quotations, known titles (the longest
    first), then "Title (1999)" and capitalised runs."""
    by_first: dict[str, list[Title]] = {}
    for known_title in titles:
        by_first.setdefault(known_title[0][0], []).append(known_title)
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        close = _QUOTES.get(toks[i].w)
        j = next((k for k in range(i + 1, min(len(toks), i + 40)) if toks[k].w == close), 0)
        inner = tuple(t.w for t in toks[i + 1 : j] if t.raw[:1].isalnum()) if close else ()
        known = next((t[1] for t in titles if t[0] == inner), ())
        quoted: tuple[int, Title | None] = (j + 1, (inner, known))
        end, title = quoted if inner else _known_at(toks, i, by_first)
        if title is None:
            out.append(toks[i])
            i += 1
        else:
            out.append(Tok("§", " ".join(title[0]), name=Name(*title)))
            i = end
    return _capitalised(out)


def _known_at(
    toks: list[Tok], i: int, by_first: Mapping[str, list[Title]]
) -> tuple[int, Title | None]:
    """Where the longest known title starting at `i` ends (its own "!" or "?" included)."""
    best: tuple[int, Title | None] = (i, None)
    for title in by_first.get(toks[i].w, ()):
        words, k, n = title[0], i, 0
        while (
            k < len(toks)
            and n < len(words)
            and (toks[k].w == words[n] or n and toks[k].w in ",:-–—!?().…/")
        ):
            n, k = n + (toks[k].w == words[n]), k + 1
        if n < len(words) or (len(words) == 1 and words[0] in _KNOWN and not toks[i].cap):
            continue  # "it", "up", "dark" are titles only when written as one
        if k + 1 < len(toks) and toks[k].w in "!?" and not toks[k + 1].cap:
            k += 1  # "Corra! já está salvo"
        elif k < len(toks) and toks[k].w.isdigit() and len(toks[k].w) < 3:
            title, k = ((*title[0], toks[k].w), ()), k + 1  # "Jaws 2" is not "Jaws"
        best = (k, title) if k > best[0] else best
    return best


def _capitalised(toks: list[Tok]) -> list[Tok]:
    """Capitalised runs as names: two or more words ("Não Me Abandone Jamais", "Don't Look
    Up"), one inside a sentence ("salvei Matrix") or before "(1999)". A known word opening a
    run is no name ("Salvei Matrix", "Sure, Added Heat"), unless the run is the subject of a
    verb that follows ("Deleted Scenes is a film") or a small word follows it ("Gone with")."""
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        j = i + 1
        while _capital(toks[i]) and j < len(toks):
            joiners = next(
                (n for n in (0, 1, 2) if j + n >= len(toks) or toks[j + n].w not in _JOINS), 2
            )
            if j + joiners >= len(toks) or not _capital(toks[j + joiners]):
                break
            j += joiners + 1
        run = toks[i:j] if _capital(toks[i]) else []
        first = i == 0 or toks[i - 1].w in _ENDS | {"-", "•", "*", "(", "«", '"', "◆"}
        year = [t.w for t in toks[j : j + 3]][::2] == ["(", ")"] and toks[j + 1].w.isdigit()
        pp = run and "pp" in _FORMS.get(run[0].w, ())
        # "Rescheduled to Wednesday", "Nada de Ruptura": an act and where, "none of", no title
        two = [t.w for t in run[:2]]
        acts = two[1:] and (
            two[0] in _LEXICON and two[1] in _INTO or two[0] in _NOTHING and two[1] in _NARROW
        )
        whole = (
            len(run) > 1
            and not acts
            and (  # "Deleted Scenes is a film", "Adicionado Recentemente (2021)"
                (j < len(toks) and toks[j].w in _SUBJECT_NEXT)
                or (year and pp)
                or run[0].w in _NEGATIONS
                or (run[1].w in _JOINERS - _ARTICLES and not run[1].cap)
            )
        )
        # "Her (2013)", "Taken (2008)": a title by its year; not "Salvei Matrix (1999)"
        known = (set() if len(run) == 1 else _LEXICON) if year else _KNOWN
        if not run:
            out.append(toks[i])
        elif run[0].w in known and run[0].w not in _ARTICLES and not whole:
            out.append(run[0])
            run, first = run[1:], False
        if run and (len(run) > 1 or not first or year or _about_it(toks, i, j)):
            out.append(Tok("§", " ".join(t.raw for t in run), name=Name(tuple(t.w for t in run))))
        else:
            out.extend(run)
        i = j
    return out


def _about_it(toks: list[Tok], i: int, j: int) -> bool:
    """Whether the unknown word opening a sentence is what it is about: "Anora na lista",
    "Oppenheimer is still waiting"."""
    after = [t.w for t in toks[j : j + 4]]
    if not after or toks[i].w in _STATES:
        return False
    return after[0] in _ON_PLACE and _has_place(after) or after[0] in _STATE_AUX


_JOINS: Final = _JOINERS | {"s"}  # "Schindler's List"
_ON_PLACE: Final = _set("na no nas nos on in")  # "Anora na lista"; not "Resumo da lista"


def _capital(tok: Tok) -> bool:
    return tok.cap and tok.w not in ("i", "eu", "ive", "ill", "im", "id")


# -- reading --------------------------------------------------------------------------------


def _lines(toks: list[Tok]) -> list[tuple[list[Tok], bool]]:
    """Lines (tokens, whether a list entry: "- Duna", "2. Up (2009)")."""
    out: list[tuple[list[Tok], bool]] = []
    current: list[Tok] = []
    for tok in [*toks, Tok("\n", "\n")]:
        if tok.w != "\n":
            current.append(tok)
            continue
        entry = bool(current) and current[0].w in ("-", "–", "—", "•", "*", "◆")
        # "▶️ **Videos**" heads the entries below it
        heading = {t.w for t in current if t.name is None} - {"-", "–", "—", "•", "*", "◆"}
        entry = entry and not (heading and heading <= _TYPE_OF.keys())
        if current and current[0].w.isdigit() and current[1:2] and current[1].w in (".", ")"):
            entry, current = True, current[1:]
        current = current[1:] if entry else current  # an emoji stays only opening an entry
        # "Mondays are rough 😩 Hang in there": an emoji between sentences ends the first
        current = [
            t if t.w != "◆" or current[k - 1].w == "," else Tok(".", ".")
            for k, t in enumerate(current)
            if t.w != "◆" or current[k - 1].w == "," or _ends_at(current, k)
        ]
        out += [(current, entry)] if current else []
        current = []
    for (line, entry), (_, next_entry) in pairwise(out):  # "Seus filmes 👇\n- Heat": a heading
        typed = all(t.w in _TYPE_OF or not t.w[:1].isalnum() for t in line)  # "▶️ **Videos**"
        line += [Tok(":", ":")] * (next_entry and not (entry or typed or line[-1].w in ":.!?"))
    return out


def _ends_at(toks: Sequence[Tok], k: int) -> bool:
    """Whether the emoji at `k` ends a sentence: a word before it, a capital after."""
    return 0 < k < len(toks) - 1 and toks[k - 1].raw[:1].isalnum() and toks[k + 1].cap


def _sentences(toks: list[Tok]) -> list[tuple[list[Tok], bool]]:
    """Sentences (tokens, whether a question); a "!" or "?" the text goes on after in lower
    case is a title's own mark ("Que Horas Ela Volta? na sua lista")."""
    out: list[tuple[list[Tok], bool]] = []
    current: list[Tok] = []
    for k, tok in enumerate(toks):
        after = toks[k + 1] if k + 1 < len(toks) else None
        title_mark = (
            after is not None and after.name is None and (after.raw[:1].islower() or after.w == "(")
        )
        listing = tok.w == ";" and any(t.w == ":" for t in current)  # "Notas: a; b; c"
        if tok.w not in _ENDS or (tok.w in "!?" and title_mark) or listing:
            current += [] if tok.w in _ENDS and not listing else [tok]
            continue
        out += [(current, tok.w == "?")] if current else []
        current = []
    return [*out, (current, False)] if current else out


def _clauses(sentence: list[Tok], language: str) -> list[tuple[list[Tok], str]]:
    """Clauses, each with the mark that ends it ("," ":" ...): a name is one token, so a
    comma inside a title splits nothing."""
    out: list[tuple[list[Tok], str]] = []
    current: list[Tok] = []
    for k, tok in enumerate(sentence):
        after = sentence[k + 1].w if k + 1 < len(sentence) else ""
        then = sentence[k + 2].w if k + 2 < len(sentence) else ""
        # "you haven't seen it and it's great": a clause of its own
        another = after in _REFERRING and then in _COPULA
        # "salvei X e apaguei Y", "I saved X and removed Y"; not "the cut removed X and added Y"
        finite = _FORMS.get(after, set()) & {"done1", "past", "pp"} and (
            language == "pt" or any(t.w in _I_WE for t in current)
        )
        boundary = tok.w in _BOUNDARY and (tok.w != "so" or language == "en")
        if (
            tok.w in (",", ":", "-", "–", "—", '"')
            or boundary
            or (
                tok.w in ("e", "and")
                and (finite or another or after in _YOU or after in _NEXT_STATE)
            )
        ):
            out += [(current, tok.w)] if current else []
            current = []
        else:
            current.append(tok)
    return [*out, (current, "")] if current else out


def _names_in(toks: Sequence[Tok], *, loose: bool = False) -> list[Name]:
    """The names of a span: its masked names, else each part ("Duna e Alien") of the words
    that name nothing else, one of them capitalised unless `loose` (a list's entries)."""
    named = [t.name for t in toks if t.name is not None]
    if named and not loose:
        return named
    names: list[Name] = []
    part: list[Tok] = []
    for tok in [*toks, Tok(",", ",")]:
        if tok.name is not None:  # "tem amnésia e Deixa Ela Entrar": every part is an entry
            names += [tok.name, *([Name(tuple(t.w for t in part))] if part else [])]
            part = []
        elif tok.w in ("e", "and", "ou", "or", "&", ",", "/"):
            whole = bool(part) and (loose or any(t.cap for t in part))
            names += [Name(tuple(t.w for t in part))] if whole else []
            part = []
        elif tok.raw[:1].isalpha() and tok.w not in _KNOWN:
            part.append(tok)
    return names


def _spelled(toks: Iterable[Tok]) -> list[str]:
    """The words of tokens, a name's own words in its place."""
    return [w for t in toks for w in (t.name.words if t.name else (t.w,))]


def _refers(toks: Sequence[Tok]) -> bool:
    """Whether a subject only points back ("está na sua lista", "ele", "your movie", "it")."""
    return all(t.w in _REFERRING or t.w in _TYPE_OF or t.w in _GENERIC for t in toks)


def _contains(words: Sequence[str], phrase: Sequence[str]) -> bool:
    n, phrase = len(phrase), tuple(phrase)
    if n and phrase[0] not in words:
        return False  # the common case, found at C speed
    return any(tuple(words[i : i + n]) == phrase for i in range(len(words) - n + 1))


def _negated(words: Sequence[str], language: str) -> bool:
    return any(w in _NEGATIONS and not (w == "no" and language == "pt") for w in words)


def _has_place(words: Sequence[str]) -> bool:
    """Whether the words name the list ("na sua lista", "your movies", "your 3 movies", "lá")."""
    typed = (
        w in _POSSESSIVE and any(x in _TYPE_OF or x in _STATE_OPEN for x in words[k + 1 : k + 4])
        for k, w in enumerate(words)
    )
    return any(w in _PLACE or w in ("la", "ai", "there", "aqui") for w in words) or any(typed)


def _place_at(words: Sequence[str], start: int = 0) -> int | None:
    """Where a place the list is named by begins ("Duna | na sua lista")."""
    at = (k for k in range(start, len(words)) if words[k] in _PLACE_PREP)
    return next((k for k in at if _has_place(words[k : k + 4])), None)


def _type_in(words: Iterable[str], default: str = "") -> str:
    """The first item type the words name ("filmes" -> movie)."""
    return next((_TYPE_OF[w] for w in words if _TYPE_OF.get(w)), default)


def _effect_at(clause: list[Tok], i: int, sentence: Sequence[str], language: str) -> str | None:
    """What the effect word at `i` says: "done" (it happened), "promise" (it will), "state"
    (the list holds it), "history" (the user did it), "story" (someone else, elsewhere), None."""
    words = [t.w for t in clause]
    before, after = words[:i], words[i + 1 :]
    near = list(before)
    while near and near[-1] in _ADVERBS:
        near.pop()
    for family, form, lemma in _LEXICON[words[i]]:
        if family.endswith("*"):  # "took X off", "joguei X na lista", "set a reminder"
            needs = _PARTICLES.get(lemma, _REMINDER_WORDS if lemma == "set" else None)
            where = sentence if lemma == "set" else after[:8]
            sent = any(w in _REMINDER_WORDS for w in after)  # "te mando um lembrete"
            if not (any(w in needs for w in where) if needs else _has_place(after) or sent):
                continue
        by = len(clause) > i + 2 and (clause[i + 2].cap or clause[i + 2].name is not None)
        next_ = after[0] if after else ""
        if next_ in ("pelo", "pela", "pelos", "pelas", "by") or next_ == "por" and by:
            return "story"  # "foi salvo pelo irmão", "saved by the hero", "dirigido por Walter"
        onto = _set("to into onto on") if family[:4] in ("save", "dele") else set()
        elsewhere = _STORY_PLACE | onto
        at = after[:1] and after[0] in elsewhere and after[1:2] and not after[1].isdigit()
        if form in ("pp", "past") and at:  # not "reminded at 9"
            if not _has_place(after[:5]) and after[1] not in _POSSESSIVE:
                return "story"  # "gravado no Rio", "deleted in the theatrical cut"
        kind = _kind(form, family, before, near, after, language)
        if kind is not None:
            return kind
    return None


def _kind(
    form: str, family: str, before: list[str], near: list[str], after: list[str], language: str
) -> str | None:
    last = near[-1] if near else ""
    if form == "done1":
        return "done"
    if form == "done3":  # "você salvou X": history; "X salvou a carreira": a story
        if before[-1:] in (["ele"], ["ela"], ["eles"], ["elas"]):
            return None  # "Eles removeram várias cenas": someone else, elsewhere
        if after[:1] in (["sim"], ["yes"]):
            return None  # "Salvou sim!": yes, the user did
        if near[-1:] and near[-1] in _YOU:
            return "history"  # "você salvou X", "vc salvou e nunca viu"
        return "done" if near[-2:] == ["a", "gente"] or not near else None
    if form == "pres3":  # "salvá-lo" folds to "salva lo"
        promised = last in _FUTURE and after[:1] in (["lo"], ["la"], ["los"], ["las"])
        return "promise" if promised else None
    if form in ("pp", "past"):
        return _participle(family, form, before, near, after)
    if form in ("inf", "base"):
        if last in _FUTURE or _said(before, _PROMISING, end=True):
            return "promise"
        return "done" if _said(before, _JUST_DID, end=True) else None
    if form == "fut":
        return "promise"
    if form == "ger":
        soon = _contains(after, ("for", "you")) or _contains(after, ("pra", "voce"))
        soon = soon or _has_place(after) or any(w in ("agora", "now") for w in after)
        soon = soon or after[:1] in (["you"], ["te"]) and any(w.isdigit() for w in after)
        if last in _PROGRESSIVE and not (last == "a" and language == "pt") or not near and soon:
            return "promise"  # "estou salvando", "Salvando Duna na sua lista...", "Adding X now"
        return None
    now = last in ("eu", "ja") or before[-1:] in (["te"], ["lhe"], ["ja"]) or "agora" in after[:3]
    if form == "pres1" and now:
        if after and set(after) <= _TYPE_OF.keys() | _ARTICLES | {"e"}:
            return None  # "eu salvo filmes, séries e notas": what it can do
        return "promise"  # "eu salvo pra você", "já anoto", "te lembro amanhã"
    return None


def _participle(
    family: str, form: str, before: list[str], near: list[str], after: list[str]
) -> str | None:
    """What a participle says ("foi salvo", "está salvo", "Salvo!", "you have X saved")."""
    last = near[-1] if near else ""
    if after[:2] in (["como", "§"], ["as", "§"]):
        return "state"  # "salvo como *Se Beber, Não Case!*": the name it is kept by
    if family == "done":
        well = last in ("bem", "well", "muito") or after[:1] in (["pra"], ["para"], ["to"])
        well = well or last in _TYPE_OF  # "um dos melhores filmes já feitos"
        if well:
            return None  # not "bem feito", "pronto para assistir", "well done"
        # "tá como feita", "consta como concluída": a state, checked as one ("já está feito!",
        # "that's done" confirm an act)
        held = near[-2:-1] if last in ("como", "as") else []
        return "state" if held and held[0] in _STATE_AUX else "done"
    if last in _DONE_AUX:
        return "done"
    if last in ("ser", "be", "sido"):
        if near[-2:-1] and near[-2] in _MODALS:
            return None  # "pode ser salvo", "can be deleted"
        future = any(w in _FUTURE or w in ("vai", "sera") for w in near[:-1])
        return "promise" if future else "done"  # "vai ser salvo", "acabou de ser salvo"
    if last in ("sera", "serao"):
        return "promise"
    if any(w in ("deixei", "deixamos", "deixo", "deixar") for w in before):
        return "done"  # "deixei X salvo"
    if last in _STATE_AUX:
        return "done" if any(w in ("agora", "now") for w in before[-4:]) else "state"
    if last in _POSSESSIVE:
        return None  # "I couldn't find it in your saved movies"
    subject = [w for w in near if w in _I_WE or w in _YOU]
    have = any(w in _HAVE or w in ("got", "youve", "tinha") for w in near)
    if subject and subject[-1] in _YOU:
        return "state" if have and ("§" in near or family == "save") else "history"
    if subject or have:  # "I saved", "I've added"; "you have X saved"
        return "done" if subject else "state" if family == "save" else None
    described = near[-2:-1] and (near[-2] in _ARTICLES | _POSSESSIVE or _number(near[-2]))
    if last in _TYPE_OF and described or last in _POSSESSIVE | _set("the os as o a"):
        return None  # "os filmes salvos", "3 itens removidos", "your saved items"
    if after[:1] and after[0] in _TYPE_OF:
        return None  # "Saved items show up..."
    ends = all(not w[:1].isalnum() or w in _DISCOURSE or w in _PLACE_WORDS for w in after)
    ends = ends and not (_NEGATIONS | _FOUND).intersection(near)  # not "Não encontrei X salvo"
    if ends or all(w in _BEFORE_BARE or w not in _KNOWN or w == "s" for w in near):
        # "Lista esvaziada", "Lo-fi video removed 🎧": a participle ending what it says
        object_ = form == "past" and after[:1] and after[0] in _OBJECT_START
        return None if near and object_ else "done"  # not "Parasite saved the director's career"
    return None


def _offer(words: Sequence[str], question: bool) -> bool:
    """Whether a sentence offers to act ("Quer que eu salve?", "Posso colocar, se quiser")."""
    acting = any(w in _LEXICON or _READS.match(w) for w in words)
    if acting and any(w in _WISH for w in words) and any(w in ("se", "caso", "if") for w in words):
        return True
    asked = _said(words, _OFFER_HEADS)
    if not question:
        if words[:1] in (["posso"], ["i"], ["eu"], ["podemos"]) and asked and acting:
            return len([w for w in words if w in _TYPE_OF and w.endswith("s")]) < 2
        return _contains(words, ("let", "me", "know", "if")) and acting
    starts = bool(_FORMS.get(words[0], set()) & {"inf", "base", "pres1"})
    let = words[0] in ("bora", "vamos") and "inf" in _FORMS.get(words[1] if words[1:] else "", ())
    starts = starts or let  # "bora adicionar algo?"
    return (asked or starts) and (acting or _has_place(words))


class _Reader:
    """Reads a text sentence by sentence, keeping what earlier ones named."""

    def __init__(
        self, language: str, referent: Sequence[Name], noting: bool, asked_type: str = "",
        frame: str = "",
    ) -> None:  # fmt: skip
        self.language, self.referent, self.noting = language, tuple(referent), noting
        self.asked_type = asked_type  # the item type the user asked about
        self.frame = frame  # what the user's question asks (`_frame`)
        self.effects: list[tuple[str, tuple[Name, ...]]] = []
        self.statements: list[Statement] = []
        self.years: list[Statement] = []  # kept apart: they say nothing of what the list holds
        self.offer = self.unchecked = self.others = False
        self.antecedent: tuple[Name, ...] = ()
        self.opened: Statement | None = None  # a statement whose names the lines below list
        self.last_bare = False  # the last sentence only named things: a "✅" after it confirms
        self.said = 0  # sentences with words so far
        self.groups: list[tuple[tuple[Name, ...], str]] = []
        self.typed: list[tuple[Name, str]] = []
        self.entries: list[Name] = []  # the names of the list entries read in a row
        self.listed: list[Name] = []  # the names listed under `opened`
        self.listing: int | None = None  # the last listing's statement: "Só isso!" completes it

    def line(self, toks: list[Tok], entry: bool) -> None:
        ends = [k for k, t in enumerate(toks) if t.w in ("(", "-", "–", "—", ":", ",", ".")]
        head = toks[: ends[0]] if ends else toks
        tail = [t.w for t in toks[ends[0] + 1 :] if t.w[:1].isalnum()] if ends else []
        typed = [t.w for t in head if t.w[:1].isalnum()]
        if len(typed) == 1 and _TYPE_OF.get(typed[0]) and len(tail) == 1 and _number(tail[0]):
            # "- 🎬 Filmes: 2", "• Movies — 7": a count of the type
            count = Statement("count", count=_number(tail[0]) or 0, type=_TYPE_OF[typed[0]])
            self.statements.append(count)
            return
        named = any(t.name for t in head) and all(t.name or t.w in "✓◆" for t in head)
        state = _entry_state(tail) if named else None
        if state is not None:  # "- Se7en (not yet)", "✅ Adeus, Lenin! — visto": its state
            names = tuple(t.name for t in head if t.name)
            self.statements.append(Statement(state, names, refers=False))
            self.entries += list(names)
            self.listed += list(names) if self.opened is not None else []
            return
        if entry and self.opened is not None:  # "- Up (2009) — salvo": the entry's name
            self.listed += [n for n in _names_in(head, loose=True) or [_whole(head)] if n.words]
            return
        self.close()
        name = head[0].name or _whole(head) if entry and head[:1] else None
        if name is not None and name.words:  # "1. Heat\n2. Ronin", "📝 comprar pão\n📝 pagar luz"
            self.entries.append(name)
            if named and len(head) == len(toks):
                return  # "- Cidade de Deus ✅": an entry, marked
        else:
            self.flush()
        for sentence, question in _sentences(toks):
            self.sentence(sentence, question)

    def sentence(self, toks: list[Tok], question: bool) -> None:
        words = [t.w for t in toks]
        # "X isn't on your list — want to look it up?", "Tem 4 séries, quer ver?": a statement,
        # then a question
        cut = (
            k for k, w in enumerate(words) if w in "—–" or w == "," and _offer(words[k + 1 :], True)
        )
        dash = next(cut, 0) if question else 0
        if dash and not _offer(words[:dash], True):
            self.sentence(toks[:dash], False)
            toks = toks[dash + 1 :]
        words = [t.w for t in toks]
        content = [w for w in words if w[:1].isalnum() or w == "§"]
        if not content:  # a "✅" alone confirms what the sentence before only named
            self.effects += (
                [("done", ())] if "✓" in words and (self.last_bare or not self.said) else []
            )
            return
        self.said += 1
        self.others = bool(_set("outras outros others rest resto demais") & set(words))
        first = [w for w in takewhile(lambda w: w != ",", words) if w in content]
        if self.listing is not None and _thats_all(first):  # "Seus filmes: A, B. Só isso!"
            self.statements[self.listing] = replace(self.statements[self.listing], complete=True)
            return
        confirm = next((k for k, w in enumerate(words[:4]) if w[:7] in ("confirm",)), None)
        if confirm is not None and words[confirm + 1 : confirm + 2] in (["que"], ["that"]):
            toks, words = toks[confirm + 2 :], words[confirm + 2 :]  # "I can confirm that X is"
        offer = _offer(words, question)
        if offer or question and not _tag_question(words):
            # "Que tal Heat? Está na sua lista", "Matrix? Já está aí sim!": what the next
            # sentence is about
            self.offer = self.offer or offer
            self.antecedent = tuple(t.name for t in toks if t.name is not None) or self.antecedent
            return
        effects, statements, groups = len(self.effects), len(self.statements), len(self.groups)
        self.group(toks)
        self.typed += [  # "o filme X", "your show X": X's type
            (t.name, _TYPE_OF[toks[k - 1].w])
            for k, t in enumerate(toks)
            if t.name and k > 1 and _TYPE_OF.get(toks[k - 1].w) in _SCREEN
            and toks[k - 2].w in _ARTICLES | _POSSESSIVE
        ]  # fmt: skip
        self._year(toks)
        clauses = _clauses(toks, self.language)
        conditional = noted = able = False
        for n, (clause, mark) in enumerate(clauses):
            condition = any(t.w in _CONDITIONS for t in clause)
            claims, said = _read_clause(clause, words, self.language)
            if mark == ":" and n == len(clauses) - 1 and _heading([t.w for t in clause]):
                claims = []  # "**Séries salvas:**" heads a listing of what is kept
            able = able or _said([t.w for t in clause], _ABLE)
            if able and not any("done1" in _FORMS.get(t.w, ()) for t in clause):
                claims = []  # "I can save movies, set reminders and search your list"
            for family, kind in claims:
                if (condition or conditional) and kind == "promise":
                    continue  # "quando você confirmar, eu removo X"
                cwords = {t.w for t in clause}
                mine = _I_WE & cwords or any("done1" in _FORMS.get(w, ()) for w in cwords)
                if (
                    family == "mark"
                    and self.frame in ("is", "done")
                    and _SEEN & cwords
                    and not mine
                ):
                    # to "X tá aí?", "X, marcada como vista": its state, not an act
                    unseen = _negated(list(cwords), self.language) or bool(_STATE_OPEN & cwords)
                    self._state(Statement("unseen" if unseen else "seen"), [])
                    continue
                if self.noting and (family == "note" or any(w in _TASTE for w in words)):
                    noted = True  # the output's own belief delta backs it
                else:
                    self.effects.append((family, tuple(_names_in(clause))))
            conditional = condition and mark == ","
            for statement in said:
                if mark == ":" and statement.kind in ("seen", "unseen") and not statement.names:
                    continue  # "Ainda não vistos:" opens a listing, read below
                rest = [t for c, _ in clauses[n + 1 :] for t in c]
                if mark == ":" and any(t.name for t in rest) and not any(t.name for t in clause):
                    statement = replace(statement, names=())  # "tem ficção científica: A e B"
                ahead = [t.name for t in rest if t.name] if n == 0 and mark == "," else []
                if statement.kind in ("seen", "unseen") and not statement.names and ahead:
                    self._state(statement, ahead)  # "Dos que você não viu, sugiro X"
                elif statement.names or mark != ":":
                    self._state(statement, [])
                elif rest:  # "Encontrei 2 itens na sua lista: A e B": the names follow
                    every = _thats_all([t.w for t in clauses[-1][0]])
                    complete = statement.complete or every  # "A and B — nothing else"
                    self._state(replace(statement, complete=complete), _names_in(rest, loose=True))
                    return
                else:
                    self.opened = statement
            self.antecedent = tuple(t.name for t in clause if t.name is not None) or self.antecedent
        together = self.groups[-1][0] if len(self.groups) > groups else ()
        said = self.statements[statements:]  # "You've seen A, B and C": all three
        if len(said) == 1 and said[0].kind in ("seen", "unseen") and together:
            state_first = next((t.name is None for t in toks if t.name or t.w in _STATES), False)
            if state_first and set(said[0].names) < set(together):
                self.statements[statements] = replace(said[0], names=together)
        quiet = len(self.statements) + len(self.effects) == statements + effects
        header = _list_header(toks, self.asked_type) if quiet else None
        if header is not None:
            colon = next(k for k, t in enumerate(toks) if t.w == ":")
            if toks[colon + 1 :]:  # "Aqui vai: 🎬 Matrix, 📝 comprar pão"
                parts = _parts(toks[colon + 1 :])
                names = [_whole(p) for p in parts if not _thats_all([t.w for t in p])]
                if len(names) < len(parts):  # "Dark and Lost — nothing else": every one
                    header = replace(header, complete=True)
                self._state(header, [n for n in names if n.words])
                self.listing = len(self.statements) - 1
            self.opened = None if toks[colon + 1 :] else header
            return
        if len(self.effects) == effects and len(self.statements) == statements:
            self._picked(toks, words)
        if len(self.effects) == effects and _completion(words):
            self.effects.append(("done", ()))
        bare = all(w in _DISCOURSE or w in _ACK_ONLY or w == "§" or w in _TYPE_OF for w in content)
        # "Matrix visto ✅" is an act; "já viu ✅" (the user saw it) is not
        done = any(w in _LEXICON or w in _REMINDER_WORDS or w in _SEEN - _USER_SAW for w in words)
        stated = any(s.kind in ("seen", "unseen") for s in self.statements[statements:])
        if "✓" in words and (bare or done) and len(self.effects) == effects and not stated:
            self.effects.append(("done", ()))  # "Matrix ✅", "Planilha lida e séries importadas ✅"
        self.last_bare = bare and len(self.statements) == statements
        silent = len(self.effects) == effects and len(self.statements) == statements
        if silent and self._answered(toks):
            return
        self.unchecked = self.unchecked or (silent and not (bare or noted))

    def _answered(self, toks: list[Tok]) -> bool:
        """A sentence of names only answers the question the user asked: to "o que falta
        ver?" / "which have I seen?" / "how many movies?", "Just Heat." or "Heat and Drive."
        says those items are the ones still to see / seen / of the type (every one, with
        "só"/"just")."""
        named = [t.name for t in toks if t.name is not None]
        rest = [t.w for t in toks if t.name is None and t.w[:1].isalnum()]
        joins = _DISCOURSE | _ONLY | _ARTICLES | _set("e and ou or one um uma ones")
        asked = self.frame in ("left", "seen", "count") and self.said == 1  # the reply's start
        if not asked or not named or not set(rest) <= joins | _NUMBERS.keys():
            return False
        names = [n for n in map(_part_name, _parts(toks)) if n is not None] or named
        only = bool(_ONLY & set(rest))
        kind: StatementKind = "seen" if self.frame == "seen" else "member"
        left = self.frame == "left"
        statement = Statement(kind, type=self.asked_type, complete=only, left=left, refers=False)
        self._state(statement, names)
        return True

    def _picked(self, toks: list[Tok], words: list[str]) -> None:
        """A sentence set in the list names the list's items: "Da sua lista, recomendo X", "Of
        the shows you saved, start with X"; not "X, que não está na sua lista" nor "fora da
        sua lista, X" (outside it), nor "um filme do Nolan" (who made it), nor "adicionar X à
        lista" (an act spoken of: its object is not on the list)."""
        said = set(words)
        mine = _has_place([w for w in words if w not in ("la", "ai", "there")]) or any(
            w in _YOU and _KEPT_WORDS & set(words[k + 1 : k + 3]) and _TYPE_OF.keys() & said_before
            for k, w in enumerate(words)
            for said_before in [set(words[max(0, k - 4) : k])]
        )  # "the shows you saved", "os filmes que você salvou"; not "você salvou X em janeiro"
        negated = _negated(words, self.language)
        left = _said_state(words, negated) == "unseen"  # "Da sua lista, que você não viu, X"
        if not mine or negated and not left or _OUTSIDE & said:
            return
        for k, w in enumerate(words):  # "the shows you saved", "your saved films" are the list
            owned = _YOU & {*words[max(0, k - 2) : k]} or words[k - 1] in _POSSESSIVE
            if w in _LEXICON and not (w in _KEPT_WORDS and owned):
                return  # an act spoken of
        # "um filme do Nolan" names who made it; "vai de Heat", "I'd go with X" pick X
        go = _MOTION_IN | _set("ir iria go")
        made = [k + 1 for k, t in enumerate(toks) if t.w in _MADE_BY and toks[k - 1].w not in go]
        names = [t.name for k, t in enumerate(toks) if t.name and k not in made]
        if names:
            self._state(Statement("member", left=left), names)

    def _year(self, toks: list[Tok]) -> None:
        """ "X é de 2002", "Heat (1995)": the year of the one title a sentence names; not
        "salvou X em 2023" (when it was saved)."""
        words = [t.w for t in toks]
        named = [t.name for t in toks if t.name is not None]
        years = [
            int(w)
            for k, w in enumerate(words)
            if _year(w) and 1870 < int(w) < 2100 and not _SAVED_WHEN & {*words[k - 2 : k]}
        ]
        if len(named) == 1 and len(years) == 1:  # not "lançada entre 2017 e 2020"
            self.years.append(Statement("year", tuple(named), count=years[0]))

    def close(self) -> None:
        """The statement whose names the entries below it listed, once they end."""
        if self.opened is not None and self.listed:
            self._state(self.opened, self.listed)
            self.listing = len(self.statements) - 1
        self.opened, self.listed = None, []

    def flush(self) -> None:
        self.groups += [(tuple(self.entries), "lines")] if len(self.entries) > 1 else []
        self.entries = []

    def group(self, toks: list[Tok]) -> None:
        """Names said together in a sentence: parts joined by "," "e" "ou" that end in a name
        ("O primeiro é Matrix, depois vêm Duna e Alien"); as a listing when the sentence names
        the list ("Try Heat or Drive, both on your list")."""
        parts = _parts(toks)
        names = [n for n in map(_part_name, parts) if n is not None]
        if len(parts) > 1 and parts[-1][0].name and _part_name(parts[-1]) is None:
            names.append(parts[-1][0].name)  # "Matrix, Duna e Alien are what you've got"
        words = [t.w for t in toks]
        if _negated(words, self.language):
            return  # "Heat e Ronin não estão na sua lista" is an absence
        marked = [k for k, t in enumerate(toks) if t.w == "◆" and (not k or toks[k - 1].w == ",")]
        if len(marked) > 1:  # "🎬 Up, 🎬 Coco, 📝 buy milk": each entry marked, every one a name
            names = [_whole(p) for p in _parts(toks[marked[0] :])]
        place = _has_place([w for w in words if w not in ("la", "ai", "there", "aqui")])
        how = "listing" if place or len(marked) > 1 else "said"  # not "Mi, Lá, Ré"
        self.groups += [(tuple(names), how)] if len(names) > 1 else []

    def _state(self, statement: Statement, names: Sequence[Name]) -> None:
        names = tuple(names) or statement.names
        borrowed = not names  # "Heat? Já vi": the names said before; not "as outras você viu"
        statement = replace(statement, refers=statement.refers and not self.others)
        counted = statement.kind == "count" and (statement.left or statement.done)
        if (statement.complete and statement.left or counted) and not statement.type:
            statement = replace(
                statement, type=self.asked_type
            )  # "Faltam A e B": of the type asked
        if not names and statement.kind not in ("count", "every"):
            names = (self.antecedent or self.referent) if statement.refers else ()
            if not names:  # "Tá salvo!" naming nothing is a confirmation
                self.effects += [("save", ())] if statement.confirms else []
                self.unchecked = self.unchecked or not statement.confirms
                return
        self.statements.append(replace(statement, names=names, refers=borrowed))


def read(
    message: str,
    language: str = "pt",
    *,
    titles: Sequence[Title] = (),
    referent: Sequence[Name] = (),
    noting: bool = False,
    asked: bool = False,
    asked_type: str = "",
    frame: str = "",
) -> Reading:
    """What a text claims, states about the list and offers, and whether some of it cannot
    be checked. `titles` are found first; `referent` is what the user's message named ("Sim,
    está na sua lista" is about it); `noting`: the output carries a belief delta; `asked`:
    the user asked for an effect, so a bare "Ok!" answers that it was done."""
    reader = _Reader(language, referent, noting, asked_type, frame)
    keycaps = re.sub(r"(\d)\ufe0f?\u20e3", r"\1.", without_data_tags(message))  # "1️⃣ Matrix"
    toks = _mask(_tokens(keycaps), titles)
    for line, entry in _lines(toks):
        reader.line(line, entry)
    reader.close()
    reader.flush()
    words = [t.w for t in toks if t.raw[:1].isalnum() or t.w in ("✓", "+1")]
    acks = all(w in _ACK_ONLY or w in ("✓", "+1") for w in words)
    if not reader.effects and words and acks and (asked or "✓" in words or "+1" in words):
        reader.effects.append(("done", ()))  # "Ok!" to "salva X", "Certo 👍": a confirmation
    if _CARD.search(message) or any(map(_reminder_set, re.split(r"[.!\n]", message))):
        reader.effects.append(("remind", ()))
    effects, statements = tuple(reader.effects), (*reader.statements, *reader.years)
    return Reading(
        effects, statements, reader.offer, reader.unchecked, tuple(reader.groups),
        tuple(reader.typed),
    )  # fmt: skip


def _parts(toks: Sequence[Tok]) -> list[list[Tok]]:
    """The parts of a span joined by "," "e" "ou" "—", emoji and "(1999)" after them left out."""
    parts: list[list[Tok]] = []
    part: list[Tok] = []
    for tok in [*toks, Tok(";", ";")]:
        if tok.w not in (",", ";", "e", "and", "ou", "or", "&", "—", "–", "-", "/"):
            part += [] if tok.w in ("◆", "✓") else [tok]
            continue
        while part and part[-1].w == ")" and "(" in [t.w for t in part]:
            part = part[: max(k for k, t in enumerate(part) if t.w == "(")]
        parts += [part] if part else []
        part = []
    return parts


def _part_name(part: Sequence[Tok]) -> Name | None:
    """The name a part ends in, the list's words after it aside ("depois vêm Duna", "também
    Fargo nas suas séries", "Alien estão na sua lista")."""
    at = max((k for k, t in enumerate(part) if t.name), default=None)
    tail = part[at + 1 :] if at is not None else ()
    name = part[at].name if at is not None and all(t.w in _TAIL for t in tail) else None
    if at and part[at - 1].w in _NARROW | {"em", "por", "pelo", "pela"}:
        return None  # "ambos baseados em Stephen King", "both by Nolan": no entry
    return None if name is None or all(w in _GENERIC for w in name.words) else name  # "sim"


def _whole(span: Sequence[Tok]) -> Name:
    """A span's words as one name ("comprar pão", "a série Dark" -> "dark"); a name found
    whole stays whole ("Meu Pai" is no possessive)."""
    named = [t.name for t in span if t.name is not None]
    if len(named) == 1 and all(t.name or t.w in _ARTICLES or t.w in _TYPE_OF for t in span):
        return named[0]
    words = [w for w in _spelled(span) if w[:1].isalnum()]
    while words and (
        words[0] in _ARTICLES or words[0] in _TYPE_OF or words[0] in _POSSESSIVE | _ONLY
    ):
        words = words[1:]
    return Name(tuple(words))


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() and len(word) < 4 else _NUMBERS.get(word)


def _entry_state(words: Sequence[str]) -> StatementKind | None:
    """The state a list entry's tail gives its item: "(not yet)", "— visto", "(watched)"."""
    negated = _negated(words, "en")
    if negated and set(words) <= _NEGATIONS | _STILL:
        return "unseen"  # "(not yet)", "— ainda não"
    if words and set(words) <= _FINISHED:
        return "seen"  # "(done)", "— concluída"
    return _said_state(words, negated)


def _thats_all(words: Sequence[str]) -> bool:
    """ "Só isso!", "É isso", "That's all", "Só esses dois", "Nada mais": what was listed is
    every item."""
    said = set(words)
    return bool(said & _ALL_OF_IT) and said <= _ALL_OF_IT | _THATS | _NUMBERS.keys()


def _heading(words: Sequence[str]) -> bool:
    """ "Séries salvas", "Seus filmes guardados": the kept items of a type, said as a heading."""
    acts = any(_FORMS.get(w, set()) & {"done1", "fut", "ger", "past"} for w in words)
    plural = any(w in _TYPE_OF and w.endswith("s") for w in words)
    return plural and _has_place(words) and not acts


def _reminder_set(sentence: str) -> bool:
    """A sentence that gives a reminder its time, not asking, offering or denying."""
    if "?" in sentence or not _CLOCK.search(sentence):
        return False
    held = _NEGATIONS | _CONDITIONS | _MODALS | _WISH | _FUTURE | _HAVE  # "você tem um lembrete"
    return not held & set(title_words(sentence))


def _tag_question(words: Sequence[str]) -> bool:
    """ "Salvei X, tá?": a last clause that only asks for agreement."""
    tail = words[len(words) - words[::-1].index(",") :] if "," in words else []
    return bool(tail) and all(w in _TAGS for w in tail)


def _completion(words: Sequence[str]) -> bool:
    """ "Tá na mão", "All set", "Consider it done", "Já era": something was carried out."""
    if any(w in _PRESENTING for w in words) or _negated(words, "pt"):
        return False
    return _said(words, _COMPLETION) and not re.search(
        r"\bja (?:era hora|foi [a-z])", " ".join(words)
    )


def _read_clause(
    clause: list[Tok], sentence: Sequence[str], language: str
) -> tuple[list[tuple[str, str]], list[Statement]]:
    """The effects a clause says happened or will ((family, "done"|"promise")), and what it
    states about the list."""
    words = [t.w for t in clause]
    negated = _negated(words, language)
    state_counts = _state_counts(words, negated, language)
    if state_counts:
        return [], state_counts
    empty = _about(clause, words, negated) or _emptiness(clause, language)
    empty = empty or _none_of(clause, language)
    counts = _counts(words)
    yours = any(w in _YOU or w in _KEPT_WORDS for w in words) or _has_place(words)
    yours = yours or words[:1] in (["tem"], ["ha"])  # "Tem 3 filmes", "Há duas notas"
    said_of_all = empty or (None if negated else _every(clause, words, sentence))
    if said_of_all is not None:
        return [], [said_of_all]
    left = _left(words)
    acts = any(
        not f.endswith("*") for w in words if w not in _TYPE_OF for f, _, _ in _LEXICON.get(w, ())
    )  # "1 open note" is no act
    opens = any(w in _LEFT_VERBS for w in [w for w in words if w not in _DISCOURSE][:1])
    # "São 3 pendentes (filmes + séries)": a number before what is left, of the types named
    types = {_TYPE_OF[w] for w in words if _TYPE_OF.get(w)}
    left_n = [(n, "" if len(types) > 1 else _type_in(words), False) for w, x in pairwise(words)
              if x in _LEFT | _STATE_OPEN and (n := _number(w)) is not None]  # fmt: skip
    counts, left = counts or left_n, left or bool(left_n) or bool(counts and _STATE_OPEN & {*words})
    named = any(t.name for t in clause)
    if opens and not counts and not named:  # "Faltam as duas!", "Both left": how many, no type
        counts = [(n, "", False) for w in words if (n := _number(w)) is not None]
    if left and not negated and (counts or (_ONLY | _ALL) & set(words) or opens) and not acts:
        # "Só falta Matrix", "Only Heat is left to watch", "Just one movie left: Heat"
        if counts:
            return [], [Statement("count", count=n, type=t, left=True) for n, t, _ in counts]
        type_ = "" if len(types) > 1 else _type_in(words)  # "X (filme) e Y (série)"
        names = tuple(t.name for t in clause if t.name is not None)
        answer = not names and _set("sim yes") & set(words)  # "Falta sim!": of what was named
        return [], [Statement("member", names, type=type_, complete=not answer, left=True)]
    if words[:1] in (["bye"], ["tchau"], ["adeus"]) and clause[1:2] and clause[1].name:
        return [("delete", "done")], []  # "Bye Heat 👋": a farewell to an item
    lead = [w for w in words if w not in _DISCOURSE][:1]  # "Imported 30 films from ..."
    forms = {f for w in words for f in _FORMS.get(w, ())}
    lead_forms = _FORMS.get(lead[0], set()) if lead else set()
    # "Suas 2 notas foram apagadas": a deletion, no count
    passive = {x for x, w in pairwise(words) if x in _DONE_AUX and "pp" in _FORMS.get(w, ())}
    did = "done1" in forms or "past" in forms and _I_WE & set(words) or lead_forms & {"past", "pp"}
    did = did or passive
    news = _news(words)
    if news is not None and not negated:
        return [(news, "done")], []  # "Agora sua lista tem 3 itens"
    either = _set("or ou") & set(words)
    alone = all(w in _TOTAL or w in _NOTHING or w.isdigit() or either and w in _SEEN for w in words)
    if (
        counts
        and (yours and not negated or alone)
        and not did
        and not (any(w in _FOUND for w in words) and not _has_place(words))
    ):
        # "3 filmes do Nolan": which they are, storage cannot tell; at least that many
        return [], [Statement("count", count=n, type=t, least=least) for n, t, least in counts]
    # the first reading, unless an act follows ("the reminder you just set has been undone")
    story, first = False, None
    for i, tok in enumerate(clause):
        kind = _effect_at(clause, i, sentence, language) if tok.w in _LEXICON else None
        story = story or kind == "story"
        if (
            tok.name is None
            and kind not in (None, "story")
            and (first is None or kind in _ACTS and first[1] not in _ACTS)
        ):
            first = (i, kind)
    for i, kind in [first] if first else []:
        family = _LEXICON[words[i]][0][0].rstrip("*")
        no = _negated(words[:i], language) or bool(_NOTHING & set(words[i + 1 : i + 2]))
        if kind in ("done", "promise"):  # "I won't remind you": a reminder cancelled
            return ([] if no and (family, kind) != ("remind", "promise") else [(family, kind)]), []
        if family == "remind" and not any(w in _YOU for w in words[:i]):
            return [(family, "done")], []  # "Lembrete marcado", "your reminder is set"
        if kind == "state" and not no and family in ("undo", "update", "import", "delete"):
            return [(family, "done")], []  # "Tá refeito!", "It's deleted", "Your list is cleared"
        you = next((k for k in range(1, i) if words[k] in _YOU), 0)
        if kind in ("state", "history") and you and words[you - 1] in ("que", "what", "which"):
            return [], []  # "o que vc tem salvo", "what you saved": which ones, not that one is
        if kind == "history" and family == "save":  # "you saved X", "vc não salvou X"
            names = tuple(_names_in(_object(clause[i + 1 :])) or _names_in(clause[:i]))
            return [], [Statement("absent" if no else "member", names, refers=False, past=True)]
        if kind == "history" or family not in ("save", "note", "delete", "mark"):
            return [], []  # "você salvou X em janeiro": the past, which a delete since undoes
        # lower-case words name something unless a possessive opens them ("your data is stored")
        loose = not any(t.w in _POSSESSIVE for t in clause[:i] if t.name is None)
        subject = _names_in(clause[:i], loose=loose)
        names = tuple(subject or _names_in(_object(clause[i + 1 :]), loose=loose))
        if family == "mark":  # "marcado como visto", "marked as not watched"
            seen = any(w in _SEEN for w in words[i + 1 :])
            no = no or _negated(words[i + 1 :], language) or _left(words[i + 1 :])
            return [], [Statement("unseen" if no else "seen", names)] if seen else []
        member: StatementKind = "member" if (family == "delete") == no else "absent"
        bare = set(words[:i]) <= _DISCOURSE | _STATE_AUX | _ADVERBS | _REFERRING
        return [], [Statement(member, names, confirms=bare and not no, refers=_refers(clause[:i]))]
    said = [] if story else _list_statement(clause, negated)
    if said and said[0].kind == "member" and any(w in ("volta", "back") for w in words):
        return [("save", "done")], []  # "Your list now includes X", "Duna está de volta"
    state = None if story or _CONDITIONS & set(words) else _said_state(words, negated)
    if state is None or any(s.kind != "member" for s in said):
        return [], said
    if said:  # "X continua na sua lista pra ver", "Heat is in your watched list"
        if state == "unseen":
            return [], [replace(s, left=True) for s in said]
        return [], [*said, *(Statement("seen", s.names, refers=s.refers) for s in said)]
    names = tuple(t.name for t in clause if t.name is not None)
    said_first = list(takewhile(lambda w: w in _STATE_WORDS | _STILL | _STATE_OPEN, words))
    if names or set(words) <= _STATE_WORDS | _STATE_OPEN | _SEEN_ONLY | _DONE_AUX or said_first:
        return [], [Statement(state, names)]  # "Heat is still unseen", "e ainda não assistida"
    return [], []


def _state_counts(words: Sequence[str], negated: bool, language: str) -> list[Statement]:
    """How many items of a type are seen or still to see, said of the user's list: "you've
    watched all your movies", "não falta nada pra ver" (none still to see), "all your shows are
    unwatched" (none seen), "você já viu 3 filmes", "you've seen two of your movies"."""
    said = set(words)
    mine = _I_WE & said or any("done1" in _FORMS.get(w, ()) for w in words)
    if "§" in said or mine or _CONDITIONS & said or _NARROW_MORE & said:
        return []  # "X is all that's left", "não marquei nada", "se você já viu todos"
    typed = [k for k, w in enumerate(words) if _TYPE_OF.get(w) is not None]
    of = words[typed[0] + 1 : typed[0] + 4] if typed else []
    if of and of[0] in _NARROW and not _has_place(of):
        return []  # "todos os filmes do Nolan": which they are, storage cannot tell
    type_ = _type_in(words)
    seen = any(w in _SEEN or w in _STATE_DONE for w in words)
    still = any(w in _STATE_OPEN for w in words) or _left(words)
    # "Three movies marked as watched", "três séries vistas": a count right before its type
    before_type = any(_number(w) is not None and _TYPE_OF.get(x) for w, x in pairwise(words))
    every = bool(_ALL & said)
    none = bool(_NOTHING & said) or "any" in said or (language == "en" and "no" in said)
    yours = bool(_YOU & said) or _has_place(words) or (language == "pt" or before_type) and seen
    if seen and not still and yours:
        if every and not negated:  # "você já viu todos os seus filmes"
            return [Statement("count", type=type_, left=True)]
        if negated and none:  # "you haven't watched any of your movies"
            return [Statement("count", type=type_, done=True)]
        # "Das suas 5 séries você viu 3": the number after the seeing, else the first one
        at = next(k for k, w in enumerate(words) if w in _SEEN or w in _STATE_DONE)
        numbers = [n for n in map(_number, [*words[at:], *words[:at]]) if n is not None]
        number = numbers[0] if numbers else None
        counted = number is not None and (typed or _has_place(words))
        if counted and not negated and not every:  # "você já viu 3 filmes"
            return [Statement("count", count=number or 0, type=type_, done=True)]
    if still and not seen and (every and not negated or none and negated):
        # "all your shows are unwatched"; "nothing left to watch", "não falta nada pra ver"
        done = every and not negated
        return [Statement("count", type=type_, left=not done, done=done)]
    return []


def _left(words: Sequence[str]) -> bool:
    """Whether a clause speaks of what is still to see ("falta", "left", "pra ver", "to watch")."""
    return any(
        w in _LEFT or w in _TO_SEE and words[k - 1 : k] in (["to"], ["pra"], ["para"], ["sem"])
        for k, w in enumerate(words)
    )


def _said_state(words: Sequence[str], negated: bool) -> StatementKind | None:
    """The state words say an item is in: "seen" (done), "unseen" (still to see or read);
    None when they say both ("uma vista (X) e uma pendente (Y)": which is which, not read)."""
    still = any(w in _STATE_OPEN for w in words) or _left(words)
    done = False
    for k, w in enumerate(words):
        before = [x for x in words[:k] if x not in _STILL][-1:]
        # "marcado como visto", "in your watched list"; not "best watched", "deve ser visto"
        said_as = not before or before[0] in _STATE_BEFORE or negated and before[0] in _DONE_AUX
        done = done or w in _STATE_DONE and said_as  # "ainda não foi visto"
    if done and not negated:
        return None if still else "seen"
    ended = negated and any(w in _ENDED for w in words)  # "you haven't finished it"
    return "unseen" if still or done or ended else None


def _news(words: Sequence[str]) -> str | None:
    """A change said without an effect verb: "X entrou na sua lista", "X saiu da lista", "X
    is gone from your list", "Fiz a remoção de X", "O ano de X agora é 1999"."""
    for i, w in enumerate(words):
        rest, near = words[i + 1 : i + 6], words[i + 1 : i + 4]
        if w in _MOTION_IN and _has_place(rest) and rest[:1] and rest[0] in _INTO:
            return "save"
        out = w in _MOTION_OUT and _has_place([x for x in rest if x not in ("there", "la", "ai")])
        if out or w in _MOTION_IN and _TRASH & set(near):  # not "out there"
            return "delete"  # "X saiu da lista", "Heat foi pro lixo"
        light = w in _LIGHT and (_ACTION_NOUNS & set(near) or any(x.isdigit() for x in near))
        if light or rest[:1] and rest[0] in _FINISHED and (w in _LEXICON or w in _ACTION_NOUNS):
            return "update"  # "Fiz a remoção", "Undo complete", "Import complete", "Sync done"
        on = w in _REMINDER_WORDS and _set("agenda on ativo off desligado desativado") & set(near)
        if on or w in ("get", "receber", "recebe", "receive") and _REMINDER_WORDS & set(near):
            return "remind"  # "Lembrete na agenda", "Reminder is on", "You'll get a ping"
        if (w in _COPULA or w in _REMINDER_WORDS) and rest[:2] in (["in"], ["in", "for"]):
            return "save"  # "Heat is in!", "All 25 rows are in", "Reminder's in for Friday"
        if w in ("virou", "viraram", "became") and any(x in _TYPE_OF for x in rest[:2]):
            return "update"  # "Virou nota"
        if w == "gone" and (not i or words[i - 1] in _STATE_AUX) and not _has_place(rest):
            return "delete"  # "Gone 🗑️", "#1 is gone"
        # a first-person act on an object into a place: "Organizei ele na pasta X", "I've
        # bumped it to the top of your list"
        mine = not i or words[i - 1] in _I_WE or words[i - 1] in ("ve", "ja")
        act = len(w) > 4 and w[-2:] in ("ei", "ed") and w not in _LEXICON and not _READS.match(w)
        rest = words[i + 1 : i + 8]
        object_ = rest[:1] and (rest[0] in _REFERRING or rest[0] in _OBJECT_START or rest[0] == "§")
        if mine and act and object_:
            if _has_place(rest) or _set("pasta folder topo top") & {*rest}:
                return "update"
    # "now" said of the list, an item's field or type: "Your note now reads X", "Heat now has a
    # rating of 8", "Dark agora é uma série", "Your list now includes X"
    now = any(
        w in ("agora", "now") and words[k - 1 : k] not in (["right"], ["ate"], ["por"], ["for"])
        for k, w in enumerate(words)
    ) and not _MODALS & set(words)
    changed = now and (_has_place(words) or (_FIELDS | _TYPE_OF.keys() | _GRADES) & set(words))
    return "update" if changed else None


def _object(span: list[Tok]) -> list[Tok]:
    """An object up to where the place begins ("Duna | na sua lista")."""
    at = _place_at([t.w for t in span])
    return span[: len(span) if at is None else at]


def _list_statement(clause: list[Tok], negated: bool) -> list[Statement]:
    """Membership and absence said without an effect verb: "X está na sua lista", "sua
    lista tem X", "you have X on your list", "encontrei X na sua lista", "X na sua lista"."""
    words = [t.w for t in clause]
    only = any(w in _ONLY for w in words)
    kind: StatementKind = "absent" if negated else "member"
    for i, w in enumerate(words):
        rest = [
            x for x in words[i + 1 : i + 8] if x not in _ADVERBS | _NEGATIONS or x in ("la", "ai")
        ]
        if _said(words[i : i + 2], _PART_OF) and _has_place(words[i:]):
            return [Statement("member", tuple(_names_in(clause[:i])))]  # "X faz parte da lista"
        said = rest[:1] and rest[0] in _set("aqui salvo saved guardado stored la ai there")
        if (w in _STATE_AUX or w in ("was", "were")) and (
            _has_place([x for x in rest[:6] if x not in ("la", "ai", "there")])
            or said
            or (not rest and words[i - 1 : i] == ["ja"])
        ):
            subject = _names_in(_object(clause[:i]), loose=True)
            names = tuple(subject or _names_in(clause[i + 1 :]))
            # "X is in your series", "X está na sua lista de filmes": of that type
            of = (
                x
                for k, x in enumerate(rest)
                if k and rest[k - 1] in _POSSESSIVE | _ONLY | {"de", "of"}
            )
            type_ = _type_in(of)
            refers = _refers(clause[:i])
            return [Statement(kind, names, type=type_, complete=only, refers=refers)]
        yours = any(x in _YOU for x in words[max(0, i - 3) : i])
        # "(não) tem X na sua lista", "não tem X aqui"
        here = _place_at(words, i + 1) or words[-1] in ("aqui", "ai")
        there = w in ("tem", "ha", "tenho") and here
        if (w in _MEMBER_VERBS or there) and (i and (_has_place(words[:i]) or yours) or there):
            span = _object(clause[i + 1 :])
            type_ = _type_in(words)
            names = tuple(_names_in(span, loose=_has_place(words)))
            return [Statement(kind, names, type=type_, complete=only, left=_left(words))]
        # "não achei X (salvo)": nowhere else named, found or not is of the list
        kept = negated and set(words[i + 1 :]) <= _KEPT_WORDS | _PLACE_WORDS | _ADVERBS | {"§"}
        found = w in _FOUND and (_has_place(words[i + 1 :]) or kept)
        if found and (w not in ("find", "see") or negated):
            return [Statement(kind, tuple(_names_in(_object(clause[i + 1 :]))))]
    for k, w in enumerate(words[:-3]):  # "É uma das suas séries", "It's one of your shows"
        if (
            w in _COPULA
            and words[k + 1] in ("um", "uma", "one")
            and _has_place(words[k + 2 : k + 5])
        ):
            names = tuple(_names_in(clause[:k]))
            return [Statement("member", names, type=_type_in(words[k + 2 :]), refers=not names)]
    copula = next((k for k, w in enumerate(words) if w in ("eh", "is", "sao", "are")), 0)
    named = [t.name for t in clause[copula + 1 :] if t.name is not None]
    typed = [w for w in words[:copula] if w in _TYPE_OF]
    if copula and named and typed and (only or _has_place(words[:copula])):
        # "Your only movie is X", "Seus filmes são X e Y"
        return [Statement("member", tuple(named), type=_TYPE_OF[typed[0]], complete=only)]
    place = _place_at(words) or 0
    head, tail = clause[:place], words[place:]
    bare = place and all(t.name or t.w in _DISCOURSE or t.w in "()" or t.w.isdigit() for t in head)
    if bare and any(t.name for t in head) and set(tail) <= _PLACE_WORDS:
        return [Statement(kind, tuple(_names_in(head)))]  # "Ok! Bacurau (2019) na sua lista."
    return []


def _every(clause: list[Tok], words: list[str], sentence: Sequence[str]) -> Statement | None:
    """What a clause says of every item's type: "todos os seus itens são filmes", "your
    list contains only links" (every item is of one type); "X is your only note", "X is the
    sole series on your list" (X is the one item of its type)."""
    at = next((k for k, w in enumerate(words) if w in _COPULA or w in _MEMBER_VERBS), None)
    head, tail = (words[:at], words[at + 1 :]) if at is not None else ([], words)
    types = {_TYPE_OF[w] for w in tail if _TYPE_OF.get(w)}
    if len(types) != 1 or any(_TYPE_OF.get(w) for w in head) or "§" in words:
        return None
    if any(w in _ONLY and (w2 in _NUMBERS or w2.isdigit()) for w, w2 in pairwise(tail)):
        return None  # "you have only one series": a count
    type_ = next(iter(types))
    mine = any(w in _YOU or w in _POSSESSIVE or w in _PLACE or _TYPE_OF.get(w) == "" for w in words)
    # "só tem filmes", "is movies only", "só séries mesmo"; not "só séries, notas e um link"
    plural = {w for w in tail if _TYPE_OF.get(w) and w.endswith("s")}
    only = any(w in _ONLY | _ALL and plural & {*tail[k - 1 : k], *tail[k + 1 : k + 2]}
               for k, w in enumerate(tail)) or head[-1:] and head[-1] in _ONLY and _PLACE & set(head)  # fmt: skip
    start = next((k for k in range(len(sentence)) if sentence[k : k + len(words)] == words), 0)
    after = list(takewhile(lambda w: w not in _NEGATIONS, sentence[start:]))  # "— no notes"
    only = only and {_TYPE_OF[w] for w in after if _TYPE_OF.get(w)} == types
    bare = at is None and set(words) <= _ONLY | _TYPE_OF.keys() | _DISCOURSE | _ADVERBS
    if (mine or bare) and (_ALL & set(head) or only):
        return Statement("every", type=type_)  # "all your items are notes", "contains only links"
    return None


def _about(clause: Sequence[Tok], words: Sequence[str], negated: bool) -> Statement | None:
    """ "Nada sobre pasta nas suas notas", "I couldn't find anything about the plumber in your
    notes": no item (of the type named) mentions those words."""
    at = next((k for k, w in enumerate(words) if w in _ABOUT), None)
    reminds = any(f == "remind" for w in words[: at or 0] for f, _, _ in _LEXICON.get(w, ()))
    if at is None or not negated or reminds:  # "I won't remind you about X": no absence
        return None
    place = _place_at(words, at + 2)  # "nada sobre X nas suas notas"
    topic = [w for w in _spelled(clause[at + 1 : place]) if w[:1].isalnum() and w not in _GENERIC]
    where = words[place:] if place else words[:at]
    type_ = _type_in(where)
    return Statement("absent", (Name(tuple(topic)),), type=type_, topic=True) if topic else None


def _none_of(clause: Sequence[Tok], language: str) -> Statement | None:
    """ "Nada de O Urso por aqui", "no Heat saved": the name is not on the list."""
    for k, tok in enumerate(clause[:-1]):
        results = tok.w == "sem" and clause[k + 1].w in _RESULTS  # "sem resultados pra X"
        if tok.w in _NOTHING or tok.w == "no" and language == "en" or results:
            after = clause[k + 1 : k + 4]
            if after[0].w in _RESULTS:  # "No results for X", "nenhum resultado pra X"
                after = after[1:]
            of = after[1:] if after[0].w in _NARROW | _INTO | _MADE_BY | {"for"} else after[:1]
            if of and of[0].name:
                return Statement("absent", (of[0].name,))
    return None


def _emptiness(clause: Sequence[Tok], language: str) -> Statement | None:
    """ "Sua lista está vazia", "você ainda não salvou nada", "you have no notes"."""
    words = [t.w for t in clause]
    type_ = _type_in(words)
    negated = _negated(words, language)
    if any(w in _REMINDER_WORDS or w in _NARROW_MORE for w in words):
        return None  # "você não tem lembretes", "não há itens com esse nome": not the list's size
    empty = any(w in _EMPTY or w.replace("inh", "") in _EMPTY for w in words) or _contains(
        words, ("sem", "nada")
    )
    if empty and (_has_place(words) or words[:1] and words[0] in _STATE_AUX | _set("it ela")):
        no = _negated([w for k, w in enumerate(words) if words[k - 1 : k] != ["sem"]], language)
        return None if no else Statement("count", type=type_)  # "It's completely empty"
    if not negated or any(w in _I_WE for w in words):
        return None  # "eu não tenho nada salvo" is not the list
    you = any(w in _YOU or w in ("there", "theres", "ha") for w in words) or _has_place(words)
    kept = any(w in _HAVE or w in _KEPT_WORDS or w == "theres" for w in words)
    here = kept or bool(_set("here aqui") & set(words))  # "Nothing here yet!"
    nothing = any(w in _NOTHING for w in words) or (language == "en" and "no" in words)
    plural = any(w in _TYPE_OF and w.endswith("s") for w in words)
    follows = {words[k + 1] for k, w in enumerate(words[:-1]) if w in _NOTHING}
    no_en = {words[k + 1] for k, w in enumerate(words[:-1]) if w == "no" and language == "en"}
    # "nenhum vídeo do X na sua lista", "no links saved yet"
    none_of = bool((follows | no_en) & _TYPE_OF.keys())
    held = _has_place(words) or kept or any(w in ("ainda", "yet") for w in words)
    # "nothing on your list yet", "nada nas suas notas"
    bare = bool(follows & _set("on in na no nas nos em")) and _has_place(words)
    # "Nothing saved yet", "Nada salvo ainda"; not "nada foi salvo" (this turn)
    alone = here and set(words) <= _NOTHING_KEPT and not _DONE_AUX & set(words)
    bare = bare or alone and bool(_set("yet ainda") & set(words))
    if not ((you and kept or none_of and held or bare) and (nothing or (type_ and plural))):
        return None
    typed = next((k for k, w in enumerate(words) if w in _TYPE_OF), len(words))
    # a name whole ("Tudo Gostoso"), else the words that name nothing else
    topic = [w for t in clause[typed + 2 :] if t.name for w in t.name.words] or [
        w for w in _spelled(clause[typed + 2 :]) if w not in _GENERIC and w[:1].isalnum()
    ]
    if words[typed + 1 : typed + 2] and words[typed + 1] in _NARROW and topic:
        # "nenhum vídeo do Nolan", "no notes about the plumber": no item of it mentions that
        return Statement("absent", (Name(tuple(topic)),), type=type_, topic=True)
    return Statement("count", type=type_)


def _counts(words: Sequence[str]) -> list[tuple[int, str, bool]]:
    """ "3 itens", "dois filmes e uma nota": how many of which type, and whether words after
    narrow them ("3 filmes do Nolan")."""
    found: list[tuple[int, str, bool]] = []
    # "2 unwatched movies", "5 saved items"
    words = [w for w in words if w not in _LEFT | _KEPT_WORDS]
    for k, w in enumerate(words[:-1]):
        n = 0 if w in ("nenhum", "nenhuma") else _number(w)  # "Cinco filmes e nenhuma série"
        # "um filme" is an article; "só um filme", "um filme só", "your one movie" a count
        only = any(x in _ONLY for x in words[:k]) or words[k + 2 : k + 3] in (["so"], ["only"])
        one = w in ("um", "uma") and not (found or only or words[k - 1 : k] in _MINE)
        # "Você tem um filme salvo", "Contei: uma série" count; not "você salvou uma nota"
        one = one and (
            "§" in words[k:] or not _HAVE & set(words) and bool(_LEXICON.keys() & set(words))
        )
        if n is None or words[k + 1] not in _TYPE_OF or one:
            continue
        rest = words[k + 2 : k + 5]
        narrowed = bool(rest) and rest[0] in _NARROW and any(x not in _GENERIC for x in rest[1:])
        narrowed = narrowed or any(x in _NARROW_MORE for x in words)  # "3 itens hoje": which?
        # "2 títulos na sua lista de filmes": the type named elsewhere in the clause
        type_ = _TYPE_OF[words[k + 1]] or _type_in(words)
        found.append((n, type_, narrowed))
    return found


def _list_header(sentence: list[Tok], asked_type: str = "") -> Statement | None:
    """ "Sua lista:", "Seus filmes:", "Here are your movies:", "Você tem 3 filmes:": a listing."""
    colon = next((k for k, t in enumerate(sentence) if t.w == ":"), None)
    if colon is None or any(t.name for t in sentence[:colon]):
        return None
    head = [t.w for t in sentence[:colon] if t.w[:1].isalnum()]
    core = [w for w in head if w not in _DISCOURSE]
    presents = (
        bool(_PRESENTS & set(head))
        or bool(core)
        and all(w in _COUNTED or w.isdigit() for w in core)
    )  # "Aqui vai:", "Filmes:", "Yes, just two:"; not "Achei 2 filmes com esse nome:"
    you_have = any(w in _YOU for w in head) and any(w in _HAVE or w in _KEPT_WORDS for w in head)
    # "Ainda não assistidas:", "Movies you've already watched:": of that state
    state = _said_state(head, any(w in _NEGATIONS and w != "no" for w in head))
    every = _thats_all(head)  # "That's everything:", "É tudo:"
    if not (_has_place(head) or you_have or presents or state or every) or len(head) > 8:
        return None
    type_ = _type_in(head, asked_type)
    # "Seus links:", "Your shows:": the user's items of a type, every one of them
    whole = bool(core) and set(core) <= _POSSESSIVE | _TYPE_OF.keys() | _PLACE | _KEPT_WORDS
    complete = whole and bool(_POSSESSIVE & set(core)) or any(w in _ONLY | _ALL for w in head)
    complete = complete or every
    kind: StatementKind = "seen" if state == "seen" else "member"
    return Statement(kind, type=type_, complete=complete, left=state == "unseen")


# -- judging ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClaimFacts:
    """What model text is judged against: the stored items it can name, the user's counts
    per type (every item), the user's message and the titles this turn showed."""

    items: tuple[Stored, ...] = ()
    counts: Mapping[str, int] | None = None  # None: counted from `items`
    user_text: str = ""
    shown: tuple[str, ...] = ()
    noting: bool = False  # the output carries a belief delta (seed 000)
    left_listed: bool = False  # `items` holds every item still to see (None `counts`: it does)


@dataclass(frozen=True, slots=True)
class Verdict:
    problem: str | None = None  # the re-ask; None when the text may be shown
    offer: bool = False  # it offers to act: asked as a clarification, never shown as prose
    checked: bool = False  # something it says about the list was checked against storage
    unchecked: bool = False  # something it says cannot be checked (opinion, small talk, facts)


def _titles(facts: ClaimFacts) -> list[Title]:
    """Every title to find first: stored titles and original titles (with and without their
    article), the titles this turn showed, and the user's own words for the thing."""
    spans: dict[tuple[str, ...], set[int]] = {}
    for k, item in enumerate(facts.items):
        for words in (title_words(item.title), title_words(item.original_title or "")):
            for variant in (words, words[1:] if len(words) > 1 and words[0] in _ARTICLES else ()):
                spans.setdefault(variant, set()).add(k) if variant else None
    for words in (*(title_words(t) for t in facts.shown), _user_target(facts.user_text)):
        spans.setdefault(words, set()) if words else None
    return sorted(((w, tuple(sorted(i))) for w, i in spans.items()), key=lambda t: -len(t[0]))


# how users ask about one thing: "e duna, tá na minha lista?", "is her on my list?", "salva X"
_ASKED: Final = tuple(re.compile(p) for p in (
    r"^(?:e |and )?(?:(?:o|a|os|as|the) )?(.+?) (?:ta|esta|is|are|s|consta|fica|aparece) "
    r"(?:na|no|em|on|in) (?:minha|meu|my) ",
    r"^(?:e|and|what about|e o|e a|e os|e as) (.+?)$",
    r"^(?:e )?(?:(?:o|a|the) )?(.+?) (?:ta|esta|is) (?:la|ai|there|salvo|saved|guardado)\b",
    r"\b(?:is|are) (?:(?:the) )?(.+?) (?:on|in) my ",
    r"\b(?:tenho|have i got|do i have) (?:(?:o|a|the) )?(.+?)(?: (?:salvo|saved|na|on|in|ai|there)\b|$)",
    r"^(?:salva|salve|guarda|anota|adiciona|coloca|bota|apaga|remove|exclui|deleta|tira|save|add|"
    r"delete|remove|store) (?:(?:o|a|os|as|the) )?(?:(?:filme|serie|movie|show|nota|note) )?(.+?)"
    r"(?: (?:na|da|no|do|to|from|pra|on) (?:minha|meu|my)\b.*)?$",
))  # fmt: skip


@lru_cache(maxsize=512)
def _user_target(user_text: str) -> tuple[str, ...]:
    """The user's own words for the thing named ("e duna, tá na minha lista?" -> duna)."""
    toks = [t for t in _tokens(user_text) if t.raw[:1].isalnum()]
    folded = " ".join(" ".join(t.name.words) if t.name else t.w for t in toks)  # a link whole
    matches = (pattern.search(folded) for pattern in _ASKED)
    words = next((m.group(1).split() for m in matches if m and m.group(1).strip()), [])
    if len(words) > 1 and words[0] in _TYPE_OF:  # "o vídeo do Porta dos Fundos"
        words = words[2:] if words[1] in _NARROW and len(words) > 2 else words[1:]
    return () if all(w in _TYPE_OF or w in _TOTAL for w in words) else tuple(words)  # "in total"


def _matching(name: Name, items: Sequence[Stored], *, strict: bool = False) -> set[int]:
    """The stored items a name names: by its whole title or original title, or, unless
    `strict`, by a part of one or one typo away."""
    if name.items:
        return set(name.items)
    words = tuple(w for w in name.words if w not in _ARTICLES and not _year(w))
    joined, numbers = " ".join(words), [w for w in words if w.isdigit()]
    link = words[:1] in (("http",), ("https",), ("www",))
    hits: set[int] = set()
    for k, item in enumerate(items):
        for title in (item.title, item.original_title) if words else ():
            own = tuple(w for w in title_words(title or "") if w not in _ARTICLES and not _year(w))
            # a part of a title names it in a note or a link ("comprar pão" of a longer note),
            # never a title's prefix ("Dark" is not "Dark Waters"); "Jaws 2" is not "Jaws"
            part = not strict and len(joined) >= 4 and _contains(own, words)
            prefix = item.type not in ("note", "link", "video") and own[:1] == words[:1]
            part = part and not prefix
            typo = not link and fuzz.ratio(joined, " ".join(own)) >= 88
            # "Xógum" is not missing when "Xógum: A Gloriosa Saga do Japão" is stored
            head = (
                title_words((title or "").split(":")[0]) if strict and ":" in (title or "") else ()
            )
            typo = typo or head == words
            if own and (
                own == words or part or typo and numbers == [w for w in own if w.isdigit()]
            ):
                hits.add(k)
    return hits


def _named_by(words: Sequence[str], items: Sequence[Stored]) -> list[Name]:
    """The one stored item the user's own words point at ("is the dentist note done",
    "did i watch the lofi one"), when every word that names an item names that one."""
    own = [w for w in words if len(w) > 2 and w not in _GENERIC and w not in _LEXICON]
    stems = {_stem(w) for w in own}
    hits = {
        k
        for k, (words_, stems_, joined) in enumerate(
            _item_words(i.title, i.original_title) for i in items
        )
        if own and (words_.intersection(own) or stems_ & stems or any(w in joined for w in own))
    }
    return [Name(title_words(items[k].title), (k,)) for k in hits] if len(hits) == 1 else []


# what a user's question asks, by its words: whether the list is empty, what is still to
# see, which are seen, whether one item is seen or done, how many or which of a type
_SEEN_ASKED: Final = _SEEN | _FINISHED | _STATE_DONE | _set("li lemos terminei acabei feita feito")
_HOW_MANY: Final = _set("quantos quantas quais qual which what whats many")
_LEFT_VERBS: Final = _set("falta faltam resta restam sobra sobrou sobraram left")  # "Faltam A e B"
_COUNTING: Final = _set("quantos quantas many")
_ASKS: Final = _set("tenho is are do does did have")  # a question without "?"


def _names_whole(words: Sequence[str], title: Sequence[str]) -> bool:
    """Whether the words hold a title, not followed by a number ("Alien 3" is not "Alien")."""
    if not title or title[0] not in words:
        return False  # the common case
    text, said = f" {' '.join(words)} ", f" {' '.join(title)} "
    at = text.find(said)
    return at >= 0 and not text[at + len(said) :][:1].isdigit()


def _frame(user_words: Sequence[str], question: bool) -> str:
    """What the user's question asks: "empty" ("minha lista tá vazia?"), "left" ("o que falta
    ver?", "links i haven't read"), "seen" ("which ones have I seen?"), "done" ("já vi
    Duna?", "já liguei pra tia?"), "count" ("how many movies?", "o que tem na lista"), "is"
    ("tenho X?"), "" (no question about the list: "what should I watch?")."""
    user_words, said = list(user_words), set(user_words)
    seen = _SEEN_ASKED & said or any(w == "ja" and x[-2:] == "ei" for w, x in pairwise(user_words))
    which = _HOW_MANY & said or _contains(user_words, ("o", "que"))
    asks = question or user_words[:1] and user_words[0] in _ASKS
    if _EMPTY & said:
        return "empty"
    if _left(user_words) or _STATE_OPEN & said or seen and _negated(user_words, "en"):
        return "left"
    if seen:
        return "seen" if which else "done" if asks else ""
    if which and (_COUNTING & said or _HAVE & said or _has_place(user_words)):
        return "count"
    return "is" if asks else ""


_YES: Final = _set("sim yes yep yeah yup claro tem ta esta is it does do has have ainda yet still")
_SOME: Final = _GENERIC - _ARTICLES | _NOTHING | _ABOUT | _set("algum alguma algo some something")


def _answer(
    message: str, frame: str, referent: Sequence[Name], type_: str, named: bool,
    user_words: Sequence[str],
) -> Statement | None:  # fmt: skip
    """A reply opening with "sim"/"não" ("Tá sim", "N tem não", "Not yet", "Nope") answers
    the user's question: of what it named (its membership, or whether it is seen or done),
    or of the list ("Tá sim" to "minha lista tá vazia?")."""
    first = takewhile(lambda t: t.raw[:1].isalnum(), _tokens(message[:80]))
    words = [t.w for t in first]
    if not words or not set(words) <= _YES | _NEGATIONS | _DISCOURSE - {"e", "and"}:
        return None
    no = _negated(words, "en")
    if frame == "empty":
        return None if no else Statement("count", type=type_)
    # "tenho algum filme do Nolan?", "filmes do Walter Salles?": some items, not one
    plural = any(_TYPE_OF.get(w) and w.endswith("s") for w in user_words)
    if len(referent) != 1 or not referent[0].items and (plural or _SOME & {*referent[0].words}):
        return None
    if frame == "is" and not named:
        return (
            Statement("absent", tuple(referent), topic=True)
            if no
            else Statement("member", tuple(referent), refers=False)
        )
    if frame == "done":
        return Statement("unseen" if no else "seen", tuple(referent), refers=True)
    return None


def _year(word: str) -> bool:
    return len(word) == 4 and word.isdigit()


def _kept(facts: ClaimFacts, type_: str, left: bool = False, done: bool = False) -> int | None:
    """How many items (of `type_`; still to see when `left`, seen or read when `done`) the
    user has, None if unknown."""
    if left or done:
        if facts.counts is not None and not facts.left_listed:
            return None
        types = {type_} if type_ else _WATCHED
        still = sum(1 for i in facts.items if i.type in types and not _done(i))
        if left:
            return still
        every = (_kept(facts, t) or 0 for t in types)
        return sum(every) - still
    if facts.counts is not None:
        return sum(n for t, n in facts.counts.items() if not type_ or t == type_)
    return sum(1 for i in facts.items if not type_ or i.type == type_)


def _problem(statement: Statement, facts: ClaimFacts) -> str | None:
    """Why a statement about the list is false, or None when storage backs it."""
    items, kind = facts.items, statement.kind
    if kind == "year":
        hits = _matching(statement.names[0], items, strict=True)
        # a series runs over years ("encerrada em 2023"): a film's one year is checked
        years = {items[k].year for k in hits if items[k].type != "tv_show"}
        wrong = years and None not in years and statement.count not in years
        said = " ".join(statement.names[0].words)
        return LIST_WRONG.format(what=f"dates «{said}» to {statement.count}") if wrong else None
    if kind == "every":
        wrong = _kept(facts, statement.type) != _kept(facts, "")
        what = f"holds only items of type {statement.type}"
        return LIST_WRONG.format(what=what) if wrong else None
    if kind == "count":
        of = f" of type {statement.type}" if statement.type else ""
        kept = _kept(facts, statement.type, statement.left, statement.done)
        more = kept is not None and kept > statement.count and not statement.least
        wrong = kept is not None and kept < statement.count or more
        state = " still to see" if statement.left else " seen or read" if statement.done else ""
        what = f"holds {statement.count} item(s){of}{state}"
        return LIST_WRONG.format(what=what) if wrong else None
    for name in statement.names:
        said = " ".join(name.words)
        hits = _matching(name, items, strict=kind == "absent")
        if kind in ("member", "absent") and statement.type:
            hits = {k for k in hits if items[k].type == statement.type}
        if statement.left and any(_done(items[k]) for k in hits):
            return LIST_WRONG.format(what=f"has «{said}» still to see")
        if statement.topic:
            typed = (k for k, i in enumerate(items) if i.type == (statement.type or i.type))
            hits = {k for k in typed if _mentions(items[k], name.words)}
        if kind == "absent" and hits:
            return LIST_WRONG.format(what=f"lacks «{said}»")
        said_seen = kind == "seen" and statement.refers  # "Heat? Já vi": not said to be stored
        if kind != "absent" and not hits and name.words and not said_seen:  # "Vistos: X"
            return LIST_WRONG.format(what=f"holds «{said}»")
        # an item stored before states were kept has the first state of its type (DESIGN 11.5)
        seen = [_done(items[k]) for k in hits]
        if kind in ("seen", "unseen") and any(s != (kind == "seen") for s in seen):
            return LIST_WRONG.format(what=f"marks «{said}» as {kind}")
    named = (
        {k for n in statement.names for k in _matching(n, items)} if statement.complete else set()
    )
    types = {statement.type} if statement.type else _WATCHED if statement.left else ()
    of_types = {k for k in named if not types or items[k].type in types}
    kept = _kept(facts, statement.type, statement.left, kind == "seen")
    if (
        statement.complete
        and kind in ("member", "seen")
        and kept is not None
        and len(of_types) != kept
    ):
        return LIST_WRONG.format(what="holds only the items named")
    return None


def _mentions(item: Stored, words: Sequence[str]) -> bool:
    """Whether an item's words hold every word (a plural or a gender apart: "receitas" names
    "receita"), or its title runs them together ("Tudo Gostoso" in tudogostoso.com.br)."""
    own, stems, joined = _item_words(item.title, item.original_title)
    return all(w in own or _stem(w) in stems for w in words) or "".join(words) in joined


@lru_cache(maxsize=4096)
def _item_words(title: str, original: str | None) -> tuple[frozenset[str], frozenset[str], str]:
    own = frozenset((*title_words(title), *title_words(original or "")))
    return own, frozenset(map(_stem, own)), "".join(title_words(title))


def _stem(word: str) -> str:
    """A word without its plural and its last vowel ("receitas", "receita" -> "receit")."""
    word = word[:-1] if len(word) > 3 and word.endswith("s") else word
    return word[:-1] if len(word) > 4 and word[-1] in "aoe" else word


def _done(item: Stored) -> bool:
    """Whether an item is in its type's done state (one stored before states is not)."""
    return item.state in ("seen", "read", "done")


def judge(message: str, facts: ClaimFacts, language: str = "pt") -> Verdict:
    """The verdict on one model text in a turn with no effect."""
    titles = _titles(facts)
    user_words = title_words(facts.user_text)
    referent = [Name(w, i) for w, i in titles if i and _names_whole(user_words, w)][:1]
    target = _user_target(facts.user_text)
    referent = referent or ([Name(target)] if target else []) or _named_by(user_words, facts.items)
    asked = any(
        _FORMS.get(t.w, set()) & {"base", "inf", "pres3", "subj"}
        for t in _tokens(facts.user_text)[:3]
    )
    asked_types = {_TYPE_OF[w] for w in user_words if _TYPE_OF.get(w)}
    asked_type = _type_in(user_words) if len(asked_types) < 2 else ""  # "movies and shows"
    frame = _frame(user_words, "?" in facts.user_text)
    reading = read(
        message, language, titles=titles, referent=referent, noting=facts.noting, asked=asked,
        asked_type=asked_type, frame=frame,
    )  # fmt: skip
    named = any(s.names and s.kind in ("member", "absent") for s in reading.statements)
    answer = _answer(message, frame, referent, asked_type, named, user_words) if frame else None
    if answer is not None and not reading.effects:
        reading = replace(reading, statements=(answer, *reading.statements))
    if reading.effects:
        family, names = reading.effects[0]
        said = family + (f": «{' '.join(names[0].words)}»" if names else "")
        return Verdict(EFFECT_CLAIMED.format(what=said), offer=reading.offer)
    deleted = any(f == "delete" for w in title_words(message) for f, _, _ in _LEXICON.get(w, ()))
    statements = [s for s in reading.statements if not (s.past and deleted)]
    problem = next((p for p in map(_problem, statements, [facts] * 99) if p), None)
    about = any(w in _ABOUT_LIST for w in user_words)  # the user asks about their things
    for names, how in reading.groups if problem is None else ():
        hits = [bool(_matching(n, facts.items)) for n in names]
        mixed = any(hits) and (how == "lines" or about)
        if not all(hits) and (how == "listing" or mixed):
            said = " ".join(names[hits.index(False)].words)
            problem = LIST_WRONG.format(what=f"holds «{said}»")
    for name, type_ in reading.typed if problem is None else ():
        types = {facts.items[k].type for k in _matching(name, facts.items, strict=True)}
        if types and types <= _SCREEN and type_ not in types:  # "o filme Succession"
            problem = LIST_WRONG.format(what=f"holds «{' '.join(name.words)}» as a {type_}")
    if problem is not None:
        return Verdict(problem, offer=reading.offer)
    return Verdict(
        offer=reading.offer, checked=bool(reading.statements), unchecked=reading.unchecked
    )


def offers_to_act(message: str, language: str = "pt") -> bool:
    """Whether the text offers to do something ("quer que eu salve?", "should I save it?")."""
    return read(message, language).offer


def named_effects(message: str, language: str, titles: Iterable[str]) -> list[tuple[str, str]]:
    """The effects a text says happened, with the names it gives them (family, name): the
    handover's sanity check reads its own session's text this way."""
    known = sorted(
        ((title_words(t), ()) for t in titles if title_words(t)), key=lambda t: -len(t[0])
    )
    reading = read(message, language, titles=known)
    return [(f, " ".join(n.words)) for f, names in reading.effects for n in names if n.words]


# -- in a turn ---------------------------------------------------------------------------------


async def check_model_text(
    deps: Deps, turn: Turn, texts: Sequence[str], *, pending: Iterable[str] = (),
    shown: Iterable[str] = (), answer: bool = True,
) -> str | None:  # fmt: skip
    """The re-ask for model text that speaks for the runtime, states what storage denies, or is
    in another language; None when it may be shown. `texts` are what the user would read (a
    message, or a clarification's question and options); `pending`, the events the output
    itself causes (its belief delta); `shown`, the titles this turn's results showed. When an
    answer passes, what was and was not checked is recorded in the turn's rules: text the
    runtime cannot verify is never scored OK 100 (seed 003: the rules are only partly kept)."""
    texts = [t for t in texts if t and t.strip()]
    if not texts:
        return None
    language, user_text, shown = turn.language, turn.incoming.text or "", tuple(shown)
    items = await naming_any(
        deps.db, turn.user_id, [w for t in (*texts, user_text) for w in query_words(t)]
    )
    user = await deps.db.users.get(turn.user_id)
    counts = user.counts if user else {}
    # "só falta X", "you've seen 2 of your movies": every item still to see, if not too many
    left = any(_left(w) or _STATES & {*w} for w in map(title_words, texts))
    to_see = []
    if left:
        to_see = await deps.db.items.list_for(turn.user_id, not_done=True, limit=_TO_SEE_READ)
    left_listed = left and len(to_see) < _TO_SEE_READ
    items = list({i.id: i for i in [*items, *to_see]}.values()) if left_listed else items
    stored = tuple(
        Stored(i.type, i.title or i.content or i.url or "", i.original_title, i.year, i.state)
        for i in items
    )
    counted: dict[str, int] = {kind: int(counts.get(kind, 0)) for kind in ITEM_TYPES}
    noting = "belief_updated" in pending
    facts = ClaimFacts(stored, counted, user_text, shown, noting=noting, left_listed=left_listed)
    verdicts = [judge(text, facts, language) for text in texts]
    problem = next((v.problem for v in verdicts if v.problem is not None), None)
    if problem is not None:
        deps.metrics.model_text.labels("false_claim").inc()
        return problem
    titles = [*(i.title for i in items if i.title), *shown]
    for text in texts:
        problem = foreign_language(
            text, language, titles=shown, user_text=user_text
        ) and language_problem(text, language, titles=titles, user_text=user_text)
        if problem:
            deps.metrics.model_text.labels("wrong_language").inc()
            return problem
    if answer and any(v.checked for v in verdicts):  # not a clarification's question
        turn.facts.apply_rule("model_text_checked")
    if answer and any(v.unchecked for v in verdicts):
        turn.facts.apply_rule("model_text_unchecked")
        turn.facts.lower_rules("partial")
    return None
