"""The watchlist read in code (DESIGN 11.5, issue 44): marking, state lists, where to watch,
what to watch tonight.

- mark: "já vi Duna", "assisti Duna ontem, nota 8", "terminei a série Dark", "li esse
  artigo", "vi o 2", "marca como visto", "marca o 3 como lido", "I watched Dune", "finished
  Dark", and back: "ainda não vi Duna", "desmarca o 2", "mark Dune as unseen";
- lists: "o que falta ver?", "filmes que eu já vi", "quantos filmes eu já vi?", "o que eu vi
  essa semana?", "what's left on my list?", "what movies have I watched?";
- where: "onde assistir Duna?", "onde passa Dark?", "where can I stream Dune?";
- suggest: "o que eu vejo hoje?", "me sugere algo curto", "uma comédia pra hoje", "a series
  to binge", "something less than 2 hours".

Each reader returns a typed request only when the whole message is that request and
declines (None) otherwise; the planner, with the same tools, takes what is declined. A
title is cut from the message as written ("Duna", not "duna"), so a reply can quote it.
Laughter, politeness and clauses of chatter are read past first (chatter.py), and chat
shorthand is spelled out ("onde q", "hj"). Suggestions, lists by state and counts are read
by their parts: each word an asking word, a see verb, a type, a time, a state or a
constraint, or filler; one word of none of these declines the message (a pick asked from
"my list" reads past a few).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final, Literal

from rapidfuzz.distance import OSA

from agent.understanding.chatter import quiet
from agent.understanding.continuations import read_continuation
from agent.understanding.questions import WINDOWS, window_phrase
from agent.understanding.references import Target, fold_same_length, shelf_target
from agent.understanding.textnorm import CHAT_WORDS, expand_chat, fold
from agent.understanding.vocabulary import ItemType

MarkState = Literal["seen", "unseen"]
ListState = Literal["left", "done"]
Period = Literal["today", "yesterday", "this_week", "last_7_days", "this_month"]
WATCHABLE: Final[tuple[ItemType, ...]] = ("movie", "tv_show", "video")
MAX_WORDS: Final = 14
MAX_TITLE_WORDS: Final = 9


@dataclass(frozen=True, slots=True)
class MarkRequest:
    """Mark one item seen (read, done: its type's done state) or back to its first state."""

    state: MarkState
    title: str = ""  # the words naming it, as written ("" when `target` names it)
    target: Target | None = None  # a line of the shelf ("o 2"), or "esse" / "it"
    type: ItemType | None = None  # "a série Dark", "esse artigo"
    reading: bool = False  # "li", "read": a link (or a note) is meant before a movie
    days_ago: int = 0  # "ontem": when it was seen
    rating: int | None = None  # 0-10, only when given as a number ("nota 8", "8/10")
    comment: str = ""  # what the user said of it, as written ("achei sensacional", "loved it")
    bare: bool = False  # a verb alone ("assisti agora e amei"): the item in focus, if any
    also_seen: str = ""  # "Duna eu não vi não, só a Ruptura": Ruptura is the one seen
    both: bool = False  # "já vi os dois", "watched both": the two items just shown
    every: bool = False  # "já vi todos", "seen all of them": every line just shown (a few)
    described: bool = False  # "já liguei pro encanador, marca como feito": words, not a title
    # read loosely ("Duna já vi", "o que eu vi foi Duna"): certain only when the title is
    # one item of the user's list; the planner's otherwise
    anchored: bool = False
    # several references, each a title as written or a shelf line ("o primeiro e o último",
    # "interestelar, parasita e dark", "e o corra tb" after a mark): every one must name one
    # item for the mark to be certain
    refs: tuple[str | Target, ...] = ()
    carried: bool = False  # no verb ("and coco too"): the state of the mark just made
    # a rating said of each title ("barbie (7) e anora (8)", "X gets a 9, Y no score"): the
    # title as said, folded, and its rating (None: "no score")
    each: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True, slots=True)
class ListRequest:
    """The user's items by state: what is left, or what is seen/read/done."""

    state: ListState
    types: tuple[ItemType, ...]  # the types asked about, in list order
    count: bool = False  # "quantos...?": a number, not a list
    period: Period | None = None  # "o que eu vi essa semana?": by when it was marked
    carried: bool = False  # "and how many are left?": no type said, the last list's type
    then: ListRequest | None = None  # "quantos vi e quantos faltam?": a second count after it
    drop: bool = False  # "tira da lista os que eu já vi": those listed deleted (after a "sim")
    only: str = ""  # "então Dark é o único que falta?": the title asked to be the only one


@dataclass(frozen=True, slots=True)
class WhereRequest:
    """Where to watch one title in the user's country."""

    title: str = ""
    target: Target | None = None
    type: ItemType | None = None
    country: str | None = None  # "no Brasil", "in the US"
    paid: bool = False  # "e pra alugar?": only the rent/buy offers
    service: str = ""  # "tem Dark na Netflix?": whether this service has it, then the rest
    # the title with the place or time words cut from its end put back ("onde passa Ainda
    # Estou Aqui?"): looked up when the cut title finds nothing
    whole: str = ""


@dataclass(frozen=True, slots=True)
class SuggestRequest:
    """Pick something from the user's unseen items (suggest_from_list)."""

    type: ItemType | None = None
    max_minutes: int | None = None
    genre_words: tuple[str, ...] = ()  # words naming genres or moods ("comédia", "leve")
    short: bool = False  # "algo curto": the shortest first
    binge: bool = False  # "pra maratonar": series, the most seasons first


@dataclass(frozen=True, slots=True)
class StateQuestion:
    """Whether one title is on the list and in which state: "is Dune still on my to-watch
    list?", "já vi Duna?"; answered from storage, nothing changes."""

    title: str
    type: ItemType | None = None
    opinion: bool = False  # "what did I rate Dune?", "o que eu achei de Duna?": what was said
    target: Target | None = None  # "qual nota eu dei pra ele?": the item just talked about
    # "quanto eu dei pra X?" with no word of rating: a rating only when X is one item of the
    # list ("quanto eu dei pro João?" is money, the planner's)
    anchored: bool = False


@dataclass(frozen=True, slots=True)
class RatingCompare:
    """Which of the items just shown got the highest (or lowest) rating: "dos dois, qual
    ganhou nota maior?", "which one did I rate lower?"."""

    highest: bool = True
    type: ItemType | None = None  # "qual filme tem a maior nota?": of all the seen of it


WatchRequest = (
    MarkRequest | ListRequest | WhereRequest | SuggestRequest | StateQuestion | RatingCompare
)


# -- words --------------------------------------------------------------------------------------

_NOUNS: Final[dict[str, ItemType]] = {
    **dict.fromkeys("filme filmes movie movies film films".split(), "movie"),
    **dict.fromkeys("serie series seriado seriados show shows temporada".split(), "tv_show"),
    **dict.fromkeys("video videos".split(), "video"),
    **dict.fromkeys(
        "link links artigo artigos materia materias texto textos post posts "
        "article articles site sites pagina page".split(),
        "link",
    ),
    **dict.fromkeys("nota notas tarefa tarefas note notes task tasks".split(), "note"),
}
_NOUN: Final = "|".join(sorted(_NOUNS, key=len, reverse=True))
_ARTICLE: Final = r"(?:(?:o|a|os|as|the|esse|essa|este|esta|that|this)\s+)"
# a title never starts with these: "vi um filme ótimo", "I watched a movie", "vi que..."
_NOT_A_TITLE: Final = frozenset(
    "um uma uns umas algo alguma algum alguns nada nenhum nenhuma que como se quando onde "
    "tudo todos todas isso isto aquilo ele ela eles elas la lá ali aqui a gente voce vc "
    "a an some something anything nothing everything it that this them those these "
    "what when where how who why my your his her their mais menos muito muita pouco "
    "porque pq trailer trailers episodio ep primeiro primeira nao not".split()
)
# what may follow the title: when, a rating, a feeling (never stored as a number)
_DAYS: Final[dict[str, int]] = {
    **dict.fromkeys(
        "hoje|hj|hj a noite|hoje cedo|hoje a noite|agora|agorinha|today|tonight|just now|"
        "this morning|finalmente|finally|enfim|tambem|tb|tbm|too|also|as well|agora tambem|"
        "hoje tambem|hj cedo|de madrugada|hj de madrugada|hoje de madrugada|hj de manha|"
        "hoje de manha|hj de tarde|hoje de tarde|hj a tarde|hoje a tarde|hj de noite|"
        "hoje de noite|this afternoon|this evening|earlier today|earlier".split("|"),
        0,
    ),
    **dict.fromkeys(
        "ontem|ontem a noite|ontem de noite|yesterday|last night|ontem tambem|ontem tb|"
        "ontem de manha|ontem a tarde|ontem de tarde|ontem de madrugada|yesterday morning|"
        "yesterday afternoon|yesterday evening".split("|"),
        1,
    ),
    **dict.fromkeys(["anteontem", "antes de ontem"], 2),
    **dict.fromkeys(["semana passada", "na semana passada", "last week"], 7),
    # further back, when only roughly said: the seen date is as rough as what was said
    # the weekend in progress or just gone: a day back is inside it from Saturday to Monday
    **dict.fromkeys(
        "no fds|no fim de semana|over the weekend|this weekend|on the weekend".split("|"), 1
    ),
    **dict.fromkeys("fds passado|fim de semana passado|last weekend".split("|"), 2),
    **dict.fromkeys(["mes passado", "no mes passado", "last month"], 30),
    **dict.fromkeys(["ano passado", "no ano passado", "last year"], 365),
    # seen again: no other day
    **dict.fromkeys(
        "de novo|outra vez|mais uma vez|pela segunda vez|again|twice|once again|"
        "for the second time|"
        # seen at last: no other day either ("i just watched get out for the first time")
        "pela primeira vez|pela 1a vez|for the first time|for the 1st time|"
        "for the very first time".split("|"),
        0,
    ),
}
_DAY: Final = "|".join(sorted((re.escape(d) for d in _DAYS), key=len, reverse=True))
_NUMBER_WORDS: Final[dict[str, int]] = {
    **{
        w: i
        for i, w in enumerate("zero um dois tres quatro cinco seis sete oito nove dez".split(), 0)
    },
    **{
        w: i
        for i, w in enumerate("zero one two three four five six seven eight nine ten".split(), 0)
    },
    "uma": 1,
}
_SCORE: Final = rf"(?:10|[0-9](?:[.,]5)?|{'|'.join(_NUMBER_WORDS)})"
_RATING: Final = re.compile(
    rf"(?:^|\s)(?:(?:dei|dou|daria|i d give it|i gave it|gave it|give it|rated it|rate it|"
    rf"rating|nota)\s+(?:(?:nota|a)\s+)?(?P<a>{_SCORE})(?:\s*(?:/|de|out of|em)\s*10)?"
    rf"|(?P<b>{_SCORE})\s*(?:/|de|out of|em)\s*10"
    # "that one was a 7", "esse foi um 8": a score said of the item alone, the clause's end
    rf"|^\s*(?:(?:that|this|it|esse|essa|ele|ela)(?:\s+one)?\s+(?:was|s|is|foi|e|eh|levou|got)"
    rf"\s+(?:(?:a|an|um|uma|nota)\s+)?(?P<c>{_SCORE})\s*$))(?:\s|$)"
)
_FEELING: Final = (
    r"(?:e |and )?(?:(?:eu )?(?:adorei|amei|gostei|curti|odiei|detestei|achei|recomendo)|"
    r"muito bom|muito boa|excelente|otimo|otima|incrivel|maravilhoso|top|demais|"
    r"(?:i |we )?(?:loved|liked|hated|enjoyed|recommend)|so good|great|amazing|awesome|"
    # someone else's feeling: "as crianças adoraram", "the kids loved it"
    r"(?:(?:a|o|as|os|the|my|minha|meu|minhas|meus)\s+)?[a-z]+(?:\s+[a-z]+)?\s+"
    r"(?:adorou|adoraram|amou|amaram|gostou|gostaram|curtiu|curtiram|odiou|odiaram|"
    r"loved|liked|enjoyed|hated)|"
    r"it was|was great|was good|pretty good|very good|not bad|so so|meh|nice|good|loved it|"
    r"(?:q|que) (?:serie|filme|video|obra)|que delicia|sensacional|perfeito|bom demais|"
    r"muito legal|legal|massa|show)\b.*"
)

# "e chorei muito", "and cried at the end": a first-person past verb of its own after "e"
_COMMENT: Final = (
    r"(?:(?:e|and)\s+(?:eu\s+|i\s+)?(?:[a-z]{2,}ei|dormi|ri|chorei|cried|laughed|fell asleep|slept|"
    r"cheguei|sai)"
    # a clause of its own that is what the film did to the user: "chorei muito", "cried a lot"
    r"|(?:eu\s+|i\s+)?(?:chorei|ri|cried|laughed)(?:\s+[a-z]+){0,4}$)\b"
)

# -- marking --------------------------------------------------------------------------------

_LEAD: Final = (
    r"(?:(?:e|and|pode|podes|can you|could you|please|por favor|pfv|hj|eu|i|we|nos|ja|already|finalmente|finally|enfim|hoje|ontem|anteontem|yesterday|so|just|entao|ok|pronto|actually|really|"
    r"ah|ei|hey|bom|well|acabei de|acabo de|i ve|i have|ive|have|also|tambem|tb|"
    # who watched with the user: "eu e minha esposa vimos", "my wife and i watched"
    r"(?:eu|i)\s+(?:e|and)\s+(?:(?:a|o|minha|meu|my|the)\s+)?[a-z]+|"
    r"(?:(?:a|o|minha|meu|my|the)\s+)?[a-z]+\s+(?:e|and)\s+(?:eu|i))\s+)*"
)
_SEE_VERBS: Final = (
    r"vi|assisti(?: a| ao| o| os)?|terminei(?: de (?:ver|assistir))?|acabei(?: de (?:ver|assistir))?|"
    r"maratonei|zerei|conclui|finalizei|"
    r"vimos|assistimos(?: a| ao| o| os)?|terminamos(?: de (?:ver|assistir))?|maratonamos|"
    r"watched|saw|seen|finished(?: watching)?|completed|binged|done with"
)
_READ_VERBS: Final = r"li|terminei de ler|acabei de ler|read|finished reading"
_MARK_VERB: Final = r"marca|marque|marcar|coloca|coloque|poe|bota|mark|set|put"
_SEEN_WORDS: Final = (
    r"vist[oa]s?|assistid[oa]s?|lid[oa]s?|feit[oa]s?|conclu[ií]d[oa]s?|"
    r"seen|watched|read|done|finished|completed"
)
_UNSEEN_WORDS: Final = (
    r"nao vist[oa]s?|nao assistid[oa]s?|nao lid[oa]s?|nao feit[oa]s?|pendentes?|"
    r"pra ver|para ver|a ver|por ver|"
    r"unseen|unwatched|not seen|not watched|unread|not read|not done|to watch|to see|to read"
)
_NOT_SEEN_VERBS: Final = (
    r"(?:eu )?(?:ainda )?nao (?:vi|assisti(?: a| ao)?|li|terminei)|"
    r"(?:i )?(?:still )?(?:haven t|have not|havent|didn t|did not|never) "
    r"(?:(?:actually|really) )?(?:seen|watched|read|finished|watch|see|finish)"
)

_MARK_AS: Final = re.compile(
    rf"^{_LEAD}(?:{_MARK_VERB})\s+(?:(?P<what>.+?)\s+)?(?:como|as|de|to)\s+"
    rf"(?:(?P<un>{_UNSEEN_WORDS})|(?P<seen>{_SEEN_WORDS}))$"
)
# the seen list named as a place: "dos vistos", "da lista de assistidos", "off my watched list"
_DONE_PLACE: Final = (
    r"(?:dos|das|da\s+(?:minha\s+)?lista\s+(?:de|dos|das)|(?:from|off)(?:\s+(?:my|the))?"
    r"(?:\s+list\s+of)?)\s+(?:vistos|vistas|assistidos|assistidas|lidos|lidas|feitos|feitas|"
    r"seen|watched|read|done|finished)(?:\s+(?:list|ones))?"
)
# the to-see state named as a place: "pra não vistos", "back on my to-watch list"
_LEFT_PLACE: Final = (
    r"(?:pra|para|pro|pros|to|on|onto|in|into|na|no|nos|nas|a)\s+(?:(?:a|o|os|as|my|the|minha)\s+)?"
    r"(?:(?:lista|list)\s+(?:de|dos|das|of|pra|para)\s+)?(?:(?P<unseen>nao vist[oa]s?|"
    r"nao assistid[oa]s?|nao lid[oa]s?|unseen|unwatched|unread|not seen|not watched)|"
    r"pendentes?|ver|assistir|ler|to watch|to see|to read|watch|a ver|por ver)"
    r"(?:\s+(?:list|lista))?"
)
_UNMARK: Final = re.compile(
    r"^(?:(?:desmarca|desmarque|desmarcar|unmark)\s+(?P<what>.+)|"
    rf"(?:tira|tire|tirar|remove|remova|take)\s+(?P<what2>.+?)\s+{_DONE_PLACE}|"
    # "volta duna pra não vistos", "put dune back on my to-watch list"
    r"(?P<verb>volta|voltar|devolve|coloca|coloque|bota|bote|poe|move|put|set)\s+"
    rf"(?P<what3>.+?)\s+(?P<back>(?:de\s+volta|back)\s+)?{_LEFT_PLACE})$"
)
# the seen mark taken off: "tira o visto dele", "tira o visto de Duna", "remove the check from it"
_UNCHECK: Final = re.compile(
    r"^(?:tira|tire|tirar|remove|remova|take)\s+(?:o\s+|a\s+|the\s+)?(?:visto|check|checkmark|tick|"
    r"marca(?:cao)?\s+de\s+vist[oa]|seen\s+mark|watched\s+mark)(?:\s+(?:off|away))?"
    r"(?:\s+(?P<pro>dele|dela|desse|dessa|disso|deste|desta|from\s+it|off\s+it|from\s+that)"
    r"|\s+(?:de|do|da|from|off)\s+(?P<what>.+))?$"
)
_SAW: Final = re.compile(
    rf"^{_LEAD}(?:(?P<read>{_READ_VERBS})|(?P<see>{_SEE_VERBS}))\s+(?P<what>.+)$"
)
_NOT_SAW: Final = re.compile(
    rf"^(?:(?:ainda|still)\s+)?(?P<verb>{_NOT_SEEN_VERBS})\s+(?P<what>.+?)"
    r"(?:\s+(?:ainda|yet|still|nao|n))*$"  # "não vi Dark ainda não": the negation echoed
)
_BARE_SAW: Final = re.compile(
    rf"^{_LEAD}(?:vi|assisti|terminei|acabei de ver|acabei de assistir|maratonei|"
    r"vimos|assistimos|terminamos|maratonamos|"
    r"watched it|saw it|finished it|binged it|watched|finished)$"
)
_OBJECT_FIRST: Final = re.compile(
    r"^(?P<what>(?!(?:eu|e|so|ai|ja|quais|qual|que|o que|quem|onde|quando|como|quant[oa]s|"
    r"lista|listar|mostra|mostrar|me mostra|me fala|me diz|show|list|tell|"
    r"tudo|todos|todas|nenhum|nenhuma|nada|isso|aquilo)\b).+?)(?:\s+(?:na verdade|na vdd|na real|alias))?"
    r"\s+(?P<eu>eu\s+)?(?:(?P<not>(?:ainda\s+)?nao)\s+)?(?:ja\s+)?"
    r"(?P<verb>vi|assisti|terminei|li|maratonei|zerei|conclui|finalizei|vimos|assistimos|"
    r"terminamos|maratonamos)(?(not)(?:\s+nao)?)(?:\s+ainda)?"
    # where or with whom: "esse eu já vi no cinema", "dark eu vi com meu pai"
    r"(?(not)|(?:\s+(?:no|na|nos|nas|com|pelo|pela)\s+\S+(?:\s+\S+){0,3})?)$|"
    # "the movie dune i already watched": a title, then who saw it
    r"^(?P<what_en>(?!(?:i|what|which|who|where|when|how|show|list|tell|all|nothing|none|"
    r"everything|anything|things|stuff|it|that|this|the one|one|last|first)\b).+?)\s+(?:(?:i|we)\s+"
    r"(?:ve\s+|have\s+)?|ive\s+)(?:already\s+|just\s+|finally\s+)?(?P<verb_en>watched|seen|saw|finished|completed|binged|read)"
    r"(?:\s+(?:in|at|with|on)\s+\S+(?:\s+\S+){0,3})?$"
)
# a cleft: "o que eu terminei foi Duna", "foi Duna que eu vi", "it was Dune I watched",
# "what I actually watched was Dune"; certain only when the title is one item of the list
_CLEFT_VERB: Final = (
    r"(?:ja\s+|actually\s+|really\s+|just\s+)?(?:vi|assisti|terminei|acabei|maratonei|vimos|viu|"
    r"assistiu|terminou|"
    r"assistimos|terminamos|tinha visto|tinha assistido|watched|saw|seen|finished|binged|"
    r"had seen|had watched)"
)
_CLEFT: Final = re.compile(
    r"^(?:(?:o|a|aquele|aquela)\s+(?:(?:" + _NOUN + r")\s+)?que|o que|what|the one|the one that|"
    r"the (?:movie|film|show|series|one)(?:\s+that)?)\s+(?:eu|a gente|nos|i|we)\s+"
    + _CLEFT_VERB
    + rf"(?:\s+(?:{_DAY}))?\s+(?:foi|era|e|was|is)\s+(?P<what>.+)$|"
    r"^(?:foi|era|it was|it s|it is|twas)\s+(?P<what2>.+?)\s+(?:(?:o\s+)?que\s+(?:eu|a gente|nos)"
    r"|(?:that\s+|which\s+)?(?:i|we))\s+" + _CLEFT_VERB + r"$"
)
_PRONOUN_NOUN: Final = re.compile(
    rf"^(?:(?:esse|essa|este|esta|aquele|aquela|that|this|the|o)\s+(?P<noun>{_NOUN})|"
    r"a\s+(?P<pt>serie|materia|nota|tarefa|pagina))$"
)
_READ_WORD: Final = re.compile(r"\b(?:li|ler|lid[oa]s?|read|unread)\b")
# "o filme Duna", "a série Dark", "o artigo sobre café"
_TYPED: Final = re.compile(
    rf"^(?:(?:o|a|the)\s+)?(?P<noun>{_NOUN})\s+(?:(?:do|da|de|dos|das|sobre|about|on|from|of)\s+)?"
    r"(?P<rest>.+)$"
)


_BOTH: Final = re.compile(
    r"^(?:(?:os|as)\s+(?:dois|duas|2)|ambos|ambas|(?:the|those|these)\s+(?:two|2)|both"
    r"(?:\s+of\s+(?:them|those|these))?|(?:esses|essas|estes|estas|aqueles|aquelas)\s+(?:dois|duas|2))"
    r"(?:\s+(?:" + _NOUN + r"))?"
    # how or when: "assisti os dois no fim de semana", "watched both with my sister"
    r"(?:\s+(?:no|na|nos|nas|em|com|pelo|pela|de novo|ontem|hoje|anteontem|semana|"
    r"with|at|on|in|over|during|last|this|yesterday|today|again|now|agora|ja|already|"
    r"finally|finalmente|enfim)\b.*)?$"
)


# the item in focus, then how or where it was seen: "esse no cinema", "it with my dad"
_POINTED_HOW: Final = re.compile(
    r"^(?P<what>\S+(?:\s+\S+)?)\s+(?:no|na|nos|nas|em|com|pelo|pela|de novo|ontem|hoje|"
    r"anteontem|with|at|on|in|over|during|last|yesterday|today|again)\b.*$"
)


_EVERY: Final = re.compile(
    r"^(?:todos|todas|(?:todos|todas)\s+(?:eles|elas|esses|essas|os\s+tres|as\s+tres)|all\s+of\s+them|"
    r"all\s+(?:three|3)|them\s+all|all\s+those)"
    r"(?:\s+(?:no|na|nos|nas|em|com|ontem|hoje|with|at|on|in|over|last|this|yesterday|now|"
    r"agora|ja|already|finally|finalmente|enfim)\b.*)?$"
)


_PART_OF: Final = re.compile(
    r"\b(?:season|seasons|temporada|temporadas|episode|episodes|episodio|episodios|ep|eps|"
    r"capitulo|capitulos|chapter|chapters)\b"
)


# the item saved last, pointed at by when it was saved: "o último que eu salvei", "o último
# filme que adicionei", "the last one I added", "the movie I just saved", "o mais recente"
_NEWEST_SAVED: Final = re.compile(
    rf"^(?:(?:o|a|the)\s+)?(?:(?P<noun>{_NOUN})\s+)?(?:(?:ultim[oa]|last|latest|mais\s+recente|"
    rf"most\s+recent|newest)(?:\s+(?P<noun2>{_NOUN}))?(?:\s+one)?(?:\s+(?:que|q|which|that))?"
    r"|(?:que|q|one|which|that))?\s+(?:(?:eu|i|we|a\s+gente)\s+)?"
    r"(?:(?:just|acabei\s+de|acabamos\s+de|have|ve)\s+)?"
    r"(?:salvei|salvamos|salvar|adicionei|adicionar|coloquei|colocar|guardei|guardar|botei|"
    r"anotei|saved|added|add|save|put|stored)"
    r"(?:\s+(?:na|no|to|on|in|pra|para)\s+(?:a\s+|minha\s+|my\s+|the\s+)?(?:lista|list|watchlist))?"
    r"(?:\s+(?:por\s+ultimo|last|agora|ainda\s+agora|just\s+now))?$"
)


def newest_saved(title: str) -> ItemType | Literal["any"] | None:
    """What `title` points at by when it was saved ("o último que eu salvei": "any"; "the
    last movie I added": "movie"), or None when it is no such pointer (a title)."""
    m = _NEWEST_SAVED.match(_spaced(title))
    if m is None or not re.search(
        r"\b(?:ultim[oa]|last|latest|recente|recent|newest|just|acab)", m.group()
    ):
        return None
    noun = m.group("noun") or m.group("noun2")
    return _NOUNS[noun] if noun else "any"


def _target(obj: str) -> Target | None:
    """A shelf line ("o 2", "esse") or "esse artigo": the one item just named, of that type."""
    found = _PRONOUN_NOUN.match(obj)
    if found is not None:
        return Target("pronoun", 0, _NOUNS[found.group("noun") or found.group("pt")])
    return shelf_target(obj)


# "já liguei pro encanador, pode marcar como feito": the words before name the item
_DESCRIBED_THEN_MARK: Final = re.compile(
    r"^(?P<what>.+?)\s+(?:(?:entao|so|then|e|and)\s+)?(?:(?:pode|podes|can you|please|ja)\s+)?"
    r"(?:marca|marcar|marque|mark|mark it|marca isso|marca ele|marca ela)\s+(?:como|as)\s+"
    r"(?:(?P<done>feit[oa]|conclu[ií]d[oa]|done|completed)|(?P<read>lid[oa]|read)|"
    r"(?P<seen>vist[oa]|assistid[oa]|seen|watched))$"
)
_DESCRIBED_LEAD: Final = re.compile(r"^(?:(?:eu|i|ja|already|just|acabei de|finalmente)\s+)+")


def _described_mark(raw: str) -> MarkRequest | None:
    said = _Said.of(raw)
    m = _DESCRIBED_THEN_MARK.match(said.norm)
    if m is None or "," not in raw:
        return None
    start, end = m.start("what"), m.end("what")
    lead = _DESCRIBED_LEAD.match(said.norm[start:end])
    start += lead.end() if lead is not None else 0
    title = said.title(start, end)
    if title is None or _target(said.norm[start:end]) is not None:
        return None
    clause = raw[: said.at[m.end("what") - 1] + 1]
    if (said_mark := read_mark(clause)) is not None:  # "vi duna, marca como visto"
        return said_mark if said_mark.state == "seen" else None
    item_type: ItemType | None = (
        "note" if m.group("done") else ("link" if m.group("read") else None)
    )
    return MarkRequest(
        "seen", title=title, type=item_type, reading=item_type is not None, described=True
    )


# "nota 9 pro Duna", "dá nota 8 pra Barbie", "rate Dune 9/10": a rating says it was seen
_RATE_FOR: Final = re.compile(
    r"^(?:(?:da|de|dou|dei|daria|coloca|poe|give|i d give|i give)\s+)?(?:(?:uma|a)\s+)?(?:nota|rating)\s+"
    rf"(?P<score>{_SCORE}(?:\s*(?:/|de|out of)\s*10)?)\s+(?:pro|pra|para o|para a|para|ao|a|to|for)\s+"
    r"(?P<what>.+)$"
)
_RATE_TITLE: Final = re.compile(
    rf"^(?:rate|rated|avalia|avaliei)\s+(?P<what>.+?)\s+(?:(?:a|as|com|com nota|nota)\s+)?"
    rf"(?P<score>{_SCORE}(?:\s*(?:/|de|out of)\s*10)?)$"
)


def _rating_only(raw: str) -> MarkRequest | None:
    said = _Said.of(raw)
    m = _RATE_FOR.match(said.norm) or _RATE_TITLE.match(said.norm)
    if m is None:
        return None
    score = m.group("score")
    rating = _rating("nota " + score if "/" not in score and "de" not in score else score)
    if rating is None:
        return None
    found = _with_object(said, said.norm, m, "what", "seen", rating=rating)
    return found if found is not None and not found.both else None


_N_BEFORE: Final = re.compile(
    r"(?i)(?<!\w)n(?=\s+(?:vi|assisti|li|terminei|vimos|assistimos|acabei)\b)"
)
_N_AFTER: Final = re.compile(r"(?i)\b(vi|assisti|li|terminei|vimos|assistimos)\s+n\b(?!')")


def _n_as_not(raw: str) -> str:
    """ "n" is "não" right before or after a see verb (chat shorthand), nowhere else."""
    return _N_AFTER.sub(r"\1 não", _N_BEFORE.sub("não", raw))


# "mas dormi", "but I fell asleep": seen only in part ("mas não gostei" is still seen)
_CONTRAST: Final = re.compile(
    r"^[\s,.;:-]*(?:mas|but|porem|so que)\s+(?:(?:eu|i|a gente|we)\s+)?(?:dormi|cochilei|parei"
    r"|desisti|larguei|nao terminei|nao acabei|fell asleep|dozed|stopped|quit|gave up"
    r"|didn\W?t finish|did not finish)\b"
)


# words that ask again for the mark the sentence already says ("esse eu já vi, pode marcar",
# "seen that one already, mark it", "so esqueci de marcar"), or frame it ("na vdd", "tho")
_MARK_AGAIN: Final = re.compile(
    r"(?:[\s,.;!]+|^)(?:(?:pode|podes|can\s+you|pls|please|so|s[oó]|eu|i|just)\s+)*"
    r"(?:(?:esqueci|forgot)\s+(?:de\s+|to\s+)?)?"
    r"(?:marca(?:r|)?|marque|mark(?:\s+it)?|coloca(?:r)?|put\s+it|bota(?:r)?|poe|p[oõ]e)"
    r"(?:\s+(?:ai|a[ií]|ele|ela|eles|elas|os\s+dois|as\s+duas|both|them|it|la|l[aá]))?"
    r"(?:\s+(?:como|as)\s+(?:vist[oa]s?|assistid[oa]s?|seen|watched))?(?=[\s,.;!]|$)",
    re.IGNORECASE,
)
_FRAME_WORDS: Final = re.compile(
    r"(?:[\s,]+(?:na\s+vdd|na\s+verdade|na\s+real|tho|though|lol|kk+|haha+))+(?=[\s,.;!]|$)",
    re.IGNORECASE,
)
# what the list just shown is called before naming from it: "desses", "dos que salvei,"
_FROM_THOSE: Final = re.compile(
    r"^(?:desses|dessas|destes|destas|dos\s+que\s+(?:eu\s+)?salvei|of\s+those|from\s+(?:those|my\s+list))"
    r"\s*,?\s*",
    re.IGNORECASE,
)


def read_mark(text: str) -> MarkRequest | None:
    """The mark `text` asks for, or None when it is anything else (or not certainly this).
    Words asking again for the mark it says ("pode marcar", "mark it") are read past."""
    found = _read_mark(text)
    if found is not None and found.title and (pointed := _pointed_mark(text)) is not None:
        if _POINTED_ONE.search(fold(found.title)):  # "o 2 no cinema" is no title: the line 2
            rating = found.rating if found.rating is not None else pointed.rating
            return replace(pointed, days_ago=found.days_ago, rating=rating)
    if found is not None or len(text) > 300:
        return found
    bare = _FROM_THOSE.sub("", _FRAME_WORDS.sub("", _MARK_AGAIN.sub("", text.strip())))
    bare = re.sub(r"\s*[,;.]\s*(?=[,;.]|$)", "", bare).strip(" ,;.")
    again = _read_mark(bare) if bare and bare != text.strip() else None
    if again is not None and again.state == "seen":
        return again
    return _pointed_mark(text) if again is None else None  # never "não vi, marca"


# a seen mark of the one line pointed at, whatever chatter is around it: "ah esse eu já vi
# umas 5 vezes kkkk marca como visto, nota 10", "the 2nd one i actually saw in theaters,
# mark it as watched" (the wave-15 blind run); a negation, a plural, a part, another
# request or a question leave it to the other readers and the planner
_POINTED_SEEN: Final = re.compile(
    r"\b(?:ja\s+vi|vi|assisti|seen|saw|watched|mark\s+(?:it|that|this)|marca\s+(?:ai|la)"
    r"|(?:mark|marca)\s+(?:it\s+)?(?:como|as)\s+(?:vist[oa]|assistid[oa]|seen|watched))\b"
)
_POINTED_ONE: Final = re.compile(
    r"\b(?:esse|essa|este|that\s+one|this\s+one)\b"  # no "esta": folded "está"
    # ("the last one I added" is the newest saved, read elsewhere; "the first time" no line)
    r"|\b(?:o|a|the)\s+(?:primeir[oa]|segund[oa]|terceir[oa]|first|second|third|1st|2nd|3rd"
    r"|[1-9])(?:\s+one)?\b(?!\s+(?:time|vez))"
)
_POINTED_ELSE: Final = re.compile(
    r"\b(?:nao|n|nunca|never|not|didn\s?t|haven\s?t|nem|salva|save|add|apaga|delete|remove"
    r"|lembra|remind|onde|where|dois|duas|both|todos|todas|all|trailer|episodios?|episodes?|eps?"
    r"|temporadas?|seasons?|capitulos?|metade|half|comecei|started)\b"
)
# a second line named beside it ("o segundo e o último", "watched 2 and 3"): the set reader's
_POINTED_MORE: Final = re.compile(
    r"\b(?:ultim[oa]|last|[1-9]\s*(?:,|e|and|&)\s*[1-9])\b"
    r"|\b(?:e|and|&)\s+(?:(?:o|a|the)\s+)?(?:[1-9]|primeir|segund|terceir|first|second|third)"
)
_POINTED_RATING: Final = re.compile(r"\bnota\s+(?P<a>10|\d)\b|\b(?P<b>10|\d)\s*/\s*10\b")


def _pointed_mark(text: str) -> MarkRequest | None:
    """A seen mark of the one shelf line `text` points at amid chatter, or None."""
    norm = fold(text).replace("'", " ")
    if "?" in text or len(norm.split()) > 24 or not _POINTED_SEEN.search(norm):
        return None
    pointers = list(_POINTED_ONE.finditer(norm))
    if len(pointers) != 1 or _POINTED_ELSE.search(norm) or _POINTED_MORE.search(norm):
        return None
    target = shelf_target(pointers[0].group())  # "esse", "o segundo", "the 2nd one"
    if target is None:
        return None
    rated = _POINTED_RATING.search(text.lower())
    rating = int(rated.group("a") or rated.group("b")) if rated else None
    return MarkRequest("seen", target=target, rating=rating)


def _read_mark(text: str) -> MarkRequest | None:
    raw = text.strip()
    if not raw or len(raw) > 300 or raw.startswith("/") or "?" in raw:
        return None
    raw = _n_as_not(raw)  # "ainda n vi duna", "duna eu n vi n"
    if (flipped := _title_then_saw(raw)) is not None:
        return flipped
    if (said_again := _said_again(raw)) is not None:
        return said_again
    if (rated := _rating_only(raw)) is not None:
        return rated
    if (described := _described_mark(raw)) is not None:
        return described
    opening = _OPENING.match(fold_same_length(raw))  # "ops, ainda não vi Duna"
    raw = raw[opening.end() :] if opening is not None else raw
    said = _Said.of(raw)
    if not said.norm or len(said.norm.split()) > MAX_WORDS:
        return None
    head_end, tail = _head_and_tail(raw, said)
    also = ""
    if (only := _ONLY.match(tail)) is not None:  # ", só a Ruptura"
        also = raw[len(raw) - len(tail) + only.start("y") :].rstrip(" .!")
        named = _spaced(also).split()
        if not named or len(named) > MAX_TITLE_WORDS or named[0] in _NOT_A_TITLE:
            return None
        tail = ""
    if _CONTRAST.match(fold_same_length(tail).lower()):
        return None  # "vi Duna no cinema mas dormi": seen in part is no certain mark
    days, rating = _tail_facts(tail)
    comment = _comment(tail, raw[len(raw) - len(tail) :]) if tail else ""
    why_not = days is None and _WHY_UNSEEN.search(_spaced(tail)) is not None
    if days is None and not why_not:
        return None  # something after the title that is not a time, a rating or a feeling
    days = days or 0
    head = said.norm[:head_end].rstrip()
    found: tuple[str, int] | None = None
    while True:  # "vi duna ontem nota 8", "vi duna nota 8 ontem": the day and the rating cut
        when = _when_inside(head)
        if when is not None:  # "assisti duna ontem": the day at the end of the request
            head, days, found = when[0], max(days, when[1]), when
        head, inner_rating = _rating_inside(head)
        rating = rating if rating is not None else inner_rating
        how = _HOW_MUCH_END.search(head)  # "Duna eu já vi na vdd", "vi Duna faz tempo"
        head = head[: how.start()] if how is not None else head
        if when is None and inner_rating is None and how is None:
            break
    lead = _INTERJECTION.match(head)  # "ops, ainda não vi Duna"
    offset = lead.end() if lead is not None else 0
    said_more = bool(tail) or found is not None or rating is not None
    request = _mark_head(said, head[offset:], offset, days=days, rating=rating, bare=said_more)
    if also and (request is None or request.state != "unseen"):
        return None  # "só a Y" only follows "X eu não vi"
    if why_not and (request is None or request.state != "unseen"):
        return None  # "never finished it" only explains an unmark
    if request is not None and comment and request.state == "seen":
        request = replace(request, comment=comment)
    return replace(request, also_seen=also) if also and request is not None else request


# why an item goes back to see, after the unmark: "i never finished it", "confundi com outro"
_WHY_UNSEEN: Final = re.compile(
    r"^(?:(?:mas|but|pq|porque|because|since)\s+)?(?:(?:eu|i|we|a gente)\s+)?(?:(?:nunca|never|nao|"
    r"didn t|did not|havent|haven t|have not|not)\s+(?:(?:actually|really|realmente)\s+)?"
    r"(?:vi|terminei|acabei|assisti|seen|finished|watched|finish|watch|see)|dormi|cochilei|"
    r"fell asleep|confundi|mixed|misclicked|errei|wrong one|engano)\b"
)
# how often or how much was seen, after the verb: "mil vezes", "todas as temporadas", "twice"
_HOW_MUCH: Final = (
    r"(?:(?:umas?|uns|tipo|like|some|about|uns)\s+)?(?:\d+|duas|dois|tres|quatro|cinco|seis|dez|"
    r"vinte|cem|mil|varias|muitas|zilhoes de|um monte de|a bunch of|a million|a hundred|two|"
    r"three|four|five|ten|many|several|so many|multiple|a few|a couple of)\s+(?:vezes|times|x)|"
    r"twice|thrice|(?:todas|todos)\s+(?:as\s+|os\s+)?(?:temporadas|episodios|eps|partes)|"
    r"(?:all|every)\s+(?:of\s+)?(?:the\s+)?(?:seasons|episodes|eps|parts)|inteir(?:inh)?[oa]|tod(?:inh)?[oa]|tudo|"
    r"the whole thing|de novo|again|already|ja|too|tambem|rs|tho|though|"  # "rs": a laugh
    # when or how surely, after the verb: "já vi faz tempo", "eu vi na vdd", "ages ago"
    r"(?:faz|ha) (?:um |muito )?(?:tempo|tempao)|(?:faz|ha) (?:uns |muitos )?anos|"
    r"na vdd|na verdade|na real|ages ago|a while ago|a while back|long ago|a long time ago|"
    r"years ago|anos atras|finally|enfim"
)
_HOW_MUCH_END: Final = re.compile(rf"(?<=\S)\s+(?:{_HOW_MUCH})$")
# the command said again at the end: "pode marcar", "marca como visto", "desmarca pfv"
_COMMAND_AGAIN: Final = (
    r"(?:(?:pode|can you|so|entao|ai|just|ja)\s+)*(?P<cmd>marca|marcar|marque|mark|desmarca|"
    r"desmarcar|desmarque|unmark|tira o visto|tira(?:r)? dos vistos|volta|voltar|volte|"
    r"(?:bota|poe|coloca|put)(?=\s+(?:\w+\s+)?(?:de volta|back)\b))"
    r"(?:\s+(?:ele|ela|esse|essa|isso|dele|dela|desse|dessa|disso|it|that|this|ai|ae|la))?"
    # back where the unseen are: "volta ele pra lista", "put it back on my list"
    r"(?:\s+(?:de volta|back))?(?:\s+(?:pra|para|pro|na|a|on|to|in|onto)\s+(?:a\s+|minha\s+|"
    r"my\s+|the\s+)?(?:lista|list|watchlist|watch list|fila|queue))?"
    r"(?:\s+(?:como|as)\s+"
    r"(?P<as>visto|vista|assistido|assistida|seen|watched|lido|lida|read|done|feito|nao visto|"
    r"unseen|unwatched))?"
)
_SAID_AGAIN: Final = re.compile(rf"(?:(?:^|[\s,;.!-]+)(?:{_HOW_MUCH}|{_COMMAND_AGAIN}))+[\s.!]*$")
_ADVERBS_ONLY: Final = re.compile(
    r"^(?:[\s,;.!-]*\b(?:already|ja|too|tambem|again|de novo)\b)+[\s.!]*$"
)
_SEEN_END: Final = re.compile(
    r"\b(?:vi|assisti|terminei|maratonei|zerei|vimos|assistimos|watched|seen|saw|finished|binged|"
    r"esse|essa|ele|ela|it|that|this|ainda|yet)$"
)
# the verbs of a title said before them ("Severance, already watched it", "o X eu vi")
_SEEN_VERBS = r"vi|assisti|terminei|maratonei|watched|saw|finished|binged"
# a title, then a clause saying it was seen: "Severance, already watched it"
_TITLE_THEN_SAW: Final = re.compile(
    r"^(?P<title>[^,;:]+?)(?:\s*[,;:-]\s*(?:(?:i|eu)\s+)?|\s+(?P<who>i|eu|a gente|we)\s+)(?:(?:ve|have)\s+)?"
    rf"(?:ja\s+|already\s+|just\s+|finally\s+)?(?P<verb>{_SEEN_VERBS}|seen)"
    r"(?:\s+(?:it|that|this|this one|that one|esse|essa|ele|ela))?"
    r"(?P<rest>[\s,;.!-].*)?$"
)


_QUESTION_FIRST: Final = re.compile(
    r"(?:o que|oq|que|qual|quais|quant[oa]s|quem|quando|onde|what|which|who|when|where|how)\b"
)
# "foi X que eu vi", "the one we finished was X": a cleft, whose title is read elsewhere
_CLEFT_PART: Final = re.compile(
    r"^\s*(?:foi|era|e|it|the one|the thing|aquele|aquela)\s|\s(?:que|q|that|which)\s+$|"
    r"\s(?:was|is|foi|era|e)\s"
)
_JOINED_CLAUSE: Final = re.compile(r"^(?:e|and)\s+(?=\S)")
_SUBJECTS: Final = frozenset("i eu we a gente nos ele ela he she they eles elas".split())
_TITLE_SAW: Final = re.compile(
    r"^(?P<title>[^,;:]+?)\s+(?:ja\s+|already\s+|just\s+|finally\s+)?"
    rf"(?P<verb>{_SEEN_VERBS})(?P<rest>[\s,;.!-].*)?$"
)


def _title_then_saw(raw: str) -> MarkRequest | None:
    """A title, then a clause saying it was seen, and how or when ("Severance, already
    watched it", "dune, watched it last night, 9/10"): read as "watched <title> ..."."""
    text = raw.strip()
    # "..., e o X eu vi ontem", "and X I watched last night": a clause after another mark
    joined = _JOINED_CLAUSE.match(fold_same_length(text).lower())
    if joined is not None:
        text = text[joined.end() :]
    folded = fold_same_length(text).lower()
    seen = _TITLE_THEN_SAW.match(folded)
    if seen is None and joined is not None:
        seen = _TITLE_SAW.match(folded)  # "e o X vi sábado": the verb right after the title
    if seen is None or seen.group("title").strip() in _SUBJECTS:
        return None  # "and i already saw X": the subject, no title, is before the verb
    verb = "vi" if seen.group("verb") in ("vi", "assisti", "terminei", "maratonei") else "watched"
    rest = text[seen.start("rest") :] if seen.group("rest") else ""
    found = read_mark(f"{verb} {text[: seen.end('title')]}{rest}")
    if found is None or found.state != "seen":
        return None
    # with more after it ("comprar pão, vi que acabou") or no comma ("o X eu vi sábado"),
    # only a title on the list is certain
    loose = seen.groupdict().get("who") is not None or joined is not None
    if (
        loose
        and (object_after := read_mark(f"{verb}{rest}")) is not None
        and (object_after.both or object_after.refs or object_after.every)
    ):
        return None  # "kkk na real eu já vi as duas": what was seen comes after the verb
    if loose and (
        not found.title
        or _QUESTION_FIRST.match(seen.group("title"))
        or _CLEFT_PART.search(f" {seen.group('title')} {rest} ")
    ):
        # "ontem eu vi", "the last one i watched": no title before the verb; "quais
        # desses eu vi": a question
        return None
    certain = not rest.strip() and not loose
    return replace(found, anchored=True) if found.title and not certain else found


_NOT_SEEN_ALONE: Final = re.compile(
    r"^(?:(?:i|eu)\s+)?(?:ainda\s+|still\s+|actually\s+|na verdade\s+)?(?:nao|haven.?t|"
    r"have not|didn.?t|did not|never)(?:\s+(?:vi|assisti|seen|watched|watch|see|it|esse|essa|"
    r"ele|ela|actually|yet|ainda|nao|na verdade|really|not))*$"
)


def _said_again(raw: str) -> MarkRequest | None:
    """A mark with how often it was seen or the command said again after it ("Shrek eu já vi
    mil vezes, pode marcar", "Dark eu já vi todas as temporadas", "Severance, seen it twice
    already", "Tenet na vdd eu não vi ainda, desmarca"): read without them, when what is left
    is a mark in the command's direction; a title before a clause that saw "it" is the title."""
    folded = fold_same_length(raw).lower()
    m = _SAID_AGAIN.search(folded)
    cut = raw[: m.start()] if m is not None else raw
    state: MarkState | None = None
    for cmd in re.finditer(_COMMAND_AGAIN, m.group() if m is not None else ""):
        unmark = cmd.group("cmd").startswith(
            ("desmarc", "unmark", "tira", "volt", "bota", "poe", "coloca", "put")
        ) or (cmd.group("as") or "").startswith(("nao", "un"))
        state = "unseen" if unmark else "seen"
    if m is not None and (
        not cut.strip() or _NOT_SEEN_ALONE.match(folded[: m.start()].strip(" ,.!"))
    ):
        # "desmarca", "I haven't actually, unmark it": the item in focus back to see
        return MarkRequest("unseen", target=Target("pronoun")) if state == "unseen" else None
    if m is None or (
        state is None
        and _ADVERBS_ONLY.match(m.group()) is None  # "seen #2 already"
        and _SEEN_END.search(fold_same_length(cut).lower().strip(" ,.!")) is None
    ):
        return None  # "vi Twice": how often only after what saw it
    found = read_mark(cut)
    if found is None and state == "unseen":
        found = _topic_unmarked(cut)  # "succession eu só vi a 1a temporada, desmarca ela"
    if found is None or (state is not None and found.state != state):
        return None
    end = _SEEN_END.search(fold_same_length(cut).lower().strip(" ,.!"))
    if found.target is not None and found.target.kind == "pronoun" and end is not None:
        if end.group() in _DONE_WORDS:
            return None  # "vi Twice": a verb alone names nothing
    return found


# a title said first, then what the user did of it: "succession eu só vi a 1a temporada"
_TOPIC_FIRST: Final = re.compile(r"^(?P<t>[^,;:]+?)\s+(?:eu|i|a gente|we)\s+\S")


def _topic_unmarked(cut: str) -> MarkRequest | None:
    """The title a reason opens with, before an unmark said after it ("Dark eu larguei no
    meio, desmarca"): certain only as one item of the list."""
    text = cut.strip(" ,.;!")
    m = _TOPIC_FIRST.match(fold_same_length(text).lower())
    if m is None:
        return None
    title = text[: m.end("t")].strip()
    words = _spaced(title).split()
    if not words or len(words) > MAX_TITLE_WORDS or words[0] in _NOT_A_TITLE:
        return None
    return MarkRequest("unseen", title=title, anchored=True)


_ONLY: Final = re.compile(
    r"^(?:so|apenas|somente|only|just)\s+(?:(?:o|a|the)\s+)?(?P<y>[^,;!?]+?)[\s.!]*$"
)


# what opens a message before the mark without being part of it: "ops, ainda não vi Duna",
# "ah mas esse eu já vi", "wait, I did see it"
_OPENING_WORDS: Final = (
    r"ops|opa|oops|epa|ih|ah|nossa|na verdade|na vdd|na real|alias|actually|wait|espera|oh|"
    r"hmm+|pois e|entao|so|ok|okay|boa|pera|perai|show|nice|legal|beleza|blz|cool|mas|but"
)
_OPENING: Final = re.compile(rf"^(?:{_OPENING_WORDS})\b[\s,!.:;-]+")
_INTERJECTION: Final = re.compile(rf"^(?:(?:{_OPENING_WORDS})\s+)+")


def _mark_head(
    said: _Said, head: str, offset: int, *, days: int, rating: int | None, bare: bool = False
) -> MarkRequest | None:
    """The mark `head` (what `said.norm` holds from `offset` on) asks for, if any.

    `bare`: a see verb alone may name the item in focus ("assisti agora e amei" after a
    suggestion), as it only does when a time, a rating or a feeling goes with it."""
    if bare and _BARE_SAW.match(head) is not None:
        return MarkRequest(
            "seen", target=Target("pronoun"), days_ago=days, rating=rating, bare=True
        )
    if (m := _CLEFT.match(head)) is not None:
        group = "what" if m.group("what") else "what2"
        days = max(days, days_named(head[: m.start(group)]))  # "o que eu vi ontem foi X"
        found = _with_object(said, head, m, group, "seen", offset=offset, days=days, rating=rating)
        return replace(found, anchored=True) if found is not None and found.title else None
    if (m := _OBJECT_FIRST.match(head)) is not None:  # "o 1 eu vi", "dark eu não vi não"
        state: MarkState = "unseen" if m.group("not") else "seen"
        group = "what" if m.group("what") else "what_en"
        obj = said.norm[offset + m.start(group) : offset + m.end(group)]
        target = _target(obj)
        if group == "what_en" and (
            obj in _NOUNS
            or (target is not None and not bare and not re.match(r"(?:number|no|#)\s*\d", obj))
        ):
            # "movies i watched", "the last one i watched": a list, not a mark (with a rating
            # or a clause after it, "the 2nd one ive seen, 8/10" marks)
            return None
        found = _with_object(
            said,
            head,
            m,
            group,
            state,
            offset=offset,
            reading=(m.group("verb") or m.group("verb_en")) in ("li", "read"),
            days=days if state == "seen" else 0,
            rating=rating if state == "seen" else None,
        )
        if found is None or group == "what_en" or m.group("eu"):
            return found
        # "Duna já vi": no "eu" says who saw it, so only a title of the list is certain
        return replace(found, anchored=True) if found.title else None
    if (m := _MARK_AS.match(head)) is not None:
        state = "unseen" if m.group("un") else "seen"
        reading = bool(_READ_WORD.search(m.group("un") or m.group("seen") or ""))
        what = m.group("what")
        if what is None:  # "marca como visto": the one item just shown
            return MarkRequest(
                state,
                target=Target("pronoun"),
                reading=reading,
                days_ago=days,
                rating=rating if state == "seen" else None,
            )
        return _with_object(
            said, head, m, "what", state, offset=offset, reading=reading, days=days, rating=rating
        )
    if (m := _UNCHECK.match(head)) is not None:
        if m.group("what") is None:
            return MarkRequest("unseen", target=Target("pronoun"))
        return _with_object(said, head, m, "what", "unseen", offset=offset)
    if (m := _UNMARK.match(head)) is not None:
        group = next(g for g in ("what", "what2", "what3") if m.group(g))
        if group == "what3" and not (
            m.group("back")
            or m.group("unseen")
            or m.group("verb") in ("volta", "voltar", "devolve")
        ):
            return None  # "coloca duna pra ver" may save it: only "back" or "não vistos" unmark
        return _with_object(said, head, m, group, "unseen", offset=offset)
    if (m := _NOT_SAW.match(head)) is not None:
        reading = bool(_READ_WORD.search(m.group("verb")))
        return _with_object(said, head, m, "what", "unseen", offset=offset, reading=reading)
    if (m := _SAW.match(head)) is not None:
        if re.search(r"\b(?:nao|not|never|n t)\b", head[: m.start("what")]):
            return None
        reading = bool(m.group("read"))
        days = max(days, days_named(head[: m.start("what")]))  # "ontem vi X"
        return _with_object(
            said, head, m, "what", "seen", offset=offset, reading=reading, days=days, rating=rating
        )
    return None


def _with_object(
    said: _Said,
    head: str,
    found: re.Match[str],
    group: str,
    state: MarkState,
    *,
    offset: int = 0,
    reading: bool = False,
    days: int = 0,
    rating: int | None = None,
) -> MarkRequest | None:
    """The request once its object ("Duna", "o 2", "esse artigo"), `found`'s `group` in
    `head` (which starts at `offset` of `said.norm`), is read."""
    start, end = offset + found.start(group), offset + found.end(group)
    obj = said.norm[start:end].strip()
    if obj in ("de ver", "de assistir", "de ler", "watching", "reading"):
        return None  # "acabei de ver" alone: the bare reading, or the planner's
    if _PART_OF.search(obj):
        return None  # "the first season of Dark", "o episódio 3": a part is not the whole
    if rating is not None and state == "unseen":
        return None  # "ainda não vi, nota 8" makes no sense: not certain
    counted = re.match(r"(?:dois|duas)\b", obj) and re.search(r"\b(?:os|as)\s*$", head[:start])
    if _EVERY.match(obj) is not None:  # "já vi todos": every line just shown
        return MarkRequest(state, every=True, days_ago=max(days, days_named(obj)))
    if _BOTH.match(obj) is not None or (counted and _BOTH.match("os " + obj)):
        # "já vi os dois", "watched both", "assistimos os dois": the two just shown
        days = max(days, days_named(obj))
        return MarkRequest(
            state, both=True, days_ago=days, rating=rating if state == "seen" else None
        )
    target = Target("pronoun", 0, _NOUNS[obj]) if obj in _NOUNS else _target(obj)
    if target is None and (how := _POINTED_HOW.match(obj)) is not None:
        pointed = _target(how.group("what"))  # "vi esse no cinema", "saw it with my dad"
        target = pointed if pointed is not None and pointed.kind == "pronoun" else None
        days = max(days, days_named(obj)) if target is not None else days
    if target is not None:  # "o 2", "esse artigo", "assisti o vídeo": the one in focus
        return MarkRequest(
            state,
            target=target,
            type=target.type,
            reading=reading or target.type == "link",
            days_ago=days,
            rating=rating,
        )
    if state == "seen" and (when := re.match(rf"(?:{_DAY})\s+(?=\S)", obj)) is not None:
        days = max(days, _DAYS[when.group(0).strip()])  # "vi ontem o Duna"
        start += when.end()
        obj = obj[when.end() :]
        if (article := re.match(r"(?:o|a)\s+(?=\S)", obj)) is not None:
            start += article.end()  # "assisti ontem o Coringa", as "assisti o Coringa"
            obj = obj[article.end() :]
    if (named := _typed_title(said, obj, start, end)) is None:
        return None
    title, item_type = named
    return MarkRequest(
        state,
        title=title,
        type=item_type,
        reading=reading or item_type == "link",
        days_ago=days,
        rating=rating,
    )


def _typed_title(
    said: _Said, obj: str, start: int, end: int, article: str | None = None
) -> tuple[str, ItemType | None] | None:
    """The title where `said.norm[start:end]` (`obj`) is, and its type when a noun leads it
    ("o filme Duna", "a série Dark"); a lead matching `article` is no part of the title
    ("e o Coringa"; "The Office" keeps its "The" unless `article` names it)."""
    item_type: ItemType | None = None
    typed = _TYPED.match(obj)
    if typed is not None:
        item_type = _NOUNS[typed.group("noun")]
        start += typed.start("rest")
    elif article is not None and (lead := re.match(article, obj)) is not None:
        start += lead.end() if lead.end() < len(obj) else 0
    title = said.title(start, end)
    return None if title is None else (title, item_type)


# -- a mark read by its clauses -------------------------------------------------------------
#
# "desses já vi interestelar, parasita e dark", "o primeiro e o último eu já vi", "e o corra
# tb, mas esse só nota 6", "i saw la la land ages ago, 7/10 i think, the ending wrecked me",
# "oops, i was thinking of another one. mark it as not seen": each clause is a mark (a verb
# and what it names), a continuation of the last mark ("and coco too"), a rating ("i'd say
# 8", "no score"), the rest of a list of titles ("parasita e dark"), or a few words of the
# user's own (a feeling, a reason); one clause of none of these, a question or a second
# request declines the whole message.

MAX_CLAUSES: Final = 6
MAX_REFS: Final = 5
MAX_ASIDE_WORDS: Final = 10
# a clause ends at punctuation, or before "mas" / "but" ("e dark tb mas sem nota")
_CLAUSE: Final = re.compile(r"(?:[^,;.!\s]|\s(?!\s*(?:mas|but|porem|porém)\s))+", re.IGNORECASE)
# words that may stand beside a rating: "mas esse só nota 6", "7/10 i think", "i'd say 8"
_HEDGES: Final = frozenset(
    "mas but e and esse essa este esta ele ela it this that one so just only eu i d id would "
    "acho que think guess maybe say diria dou daria dei give gave an a uma um nota rating score "
    "tipo like uns umas about around tho though mais ou menos or de pra pro for to sure prob "
    "probably talvez uns yeah sim well hmm pros pras todos todas dois duas both each all ambos "
    "ambas cada".split()
)
_UNRATED: Final = re.compile(
    r"^(?:(?:mas|but|e|and|so|just)\s+)?(?:no|sem|without|nao|nada de)\s+(?:(?:vou\s+)?(?:dar\s+)?)?"
    r"(?:a\s+)?(?:score|nota|rating|grade|numero|number)(?:\s+(?:pra|for)\s+(?:ele|ela|it|this))?$"
)
# words of another request: a clause with one is no aside of a mark
_REQUEST: Final = re.compile(
    r"\b(?:salva|salve|salvar|guarda|anota|apaga|apague|deleta|remove|lembra|lembre|lista|"
    r"mostra|procura|busca|onde|quanto|quantos|quantas|qual|quais|save|add|delete|remind|list|"
    r"show|find|search|where|how many|manda|envia|send|muda|troca|edita|edit|change|"
    r"cancela|cancel|desfaz|undo|sugere|suggest|recomenda|recommend|indica|compra|buy)\b"
    # an imperative to the bot: "me passa o link", "me diz"; "send me", "give me" ("me
    # enganei", "me confundi" are no request)
    r"|\bme\s+(?:\w*[ae]|diz)\b|\b(?:send|give|get|tell)\s+me\b"
)
_SET_VERB: Final = re.compile(
    r"^(?P<what>.+?)\s+(?:(?:eu|a gente|nos|i|we)\s+)?(?:(?P<not>(?:ainda\s+)?nao)\s+)?"
    r"(?:ja\s+|already\s+|ve\s+|have\s+)*(?P<verb>" + _SEE_VERBS + r")(?:\s+(?:nao|ainda|yet))*$"
    r"|^(?:(?:eu|a gente|nos|i|we)\s+)?(?:ja\s+|already\s+|ve\s+|have\s+)*(?P<verb2>"
    + _SEE_VERBS
    + r")\s+(?P<what2>.+)$"
)
_JOINED: Final = re.compile(r"\s*,\s*(?:(?:e|and)\s+)?|\s+(?:e|and|&)\s+")


@dataclass(frozen=True, slots=True)
class _Clause:
    mark: MarkRequest | None = None  # a mark with what it names
    refs: tuple[str | Target, ...] = ()  # what a mark or a continuation names
    carried: bool = False  # a continuation: no verb of its own
    rating: int | None = None
    unrated: bool = False
    listed: bool = False  # titles alone, joined by "e"/"and": the end of a list
    aside: str = ""  # the user's own words, as written
    # a mark that names several before its verb ("barbie e oppenheimer já vi"): the short
    # clauses before it are the start of that list ("duna, barbie e oppenheimer já vi")
    leads: bool = False
    type: ItemType | None = None  # "e a série Dark tb": the type a continuation names


def read_mark_clauses(text: str) -> MarkRequest | None:
    """The mark `text` asks for when read clause by clause (above), or None."""
    raw = _FROM_THOSE.sub("", text.strip())
    if not raw or len(raw) > 300 or "?" in raw or raw.startswith("/"):
        return None
    raw = _n_as_not(raw)
    pieces = [m for m in _CLAUSE.finditer(raw) if m.group().strip()]
    if not 1 <= len(pieces) <= MAX_CLAUSES:
        return None
    clauses = [_clause(m.group().strip()) for m in pieces]
    if any(c is None for c in clauses):
        return None
    return _joined([c for c in clauses if c is not None])


def _joined(clauses: list[_Clause]) -> MarkRequest | None:
    """One mark from its clauses: their states agree, every reference said once, the rating
    and the user's words kept; None when there is no mark or more than one reading."""
    marks = [c.mark for c in clauses if c.mark is not None]
    states = {m.state for m in marks}
    carried = not marks and any(c.carried for c in clauses)
    if len(states) > 1 or (not marks and not carried):
        return None
    clauses = _list_heads(clauses)
    refs: list[str | Target] = []
    named = False  # a clause named titles or lines, so a pronoun beside them repeats them
    for at, clause in enumerate(clauses):
        if clause.listed and not (refs and at > 0 and _names(clauses[at - 1])):
            return None  # "parasita e dark" only ends a list a mark began
        refs += [r for r in clause.refs if r not in refs]
        named |= clause.refs != () and not _only_pronoun(clause.refs)
    if named:  # "esse" beside titles repeats one; "o filme" names one of its type
        refs = [
            r for r in refs if not (isinstance(r, Target) and r.kind == "pronoun" and not r.type)
        ]
    ratings = {c.rating for c in clauses if c.rating is not None}
    types = {c.type for c in clauses if c.type is not None}
    if len(ratings) > 1 or len(types) > 1 or len(refs) > MAX_REFS:
        return None
    rating = next(iter(ratings), None)
    base = marks[0] if marks else MarkRequest("seen")
    state = base.state
    if rating is not None and state == "unseen":
        return None
    if any(m.both or m.every for m in marks):
        if named:
            return None  # "os dois" beside titles: not one reading
        return replace(base, rating=rating if rating is not None else base.rating)
    if not refs:
        return None
    said = [m.comment for m in marks if m.comment] + [c.aside for c in clauses if c.aside]
    comment = ", ".join(said)[:MAX_COMMENT]
    days = max((m.days_ago for m in marks), default=0)
    rated = rating if rating is not None else base.rating
    if any(c.unrated for c in clauses):
        rated = None
    common = MarkRequest(
        state,
        type=next(iter(types), base.type),
        days_ago=days,
        rating=rated,
        comment=comment if state == "seen" else "",
        carried=carried,
        reading=base.reading,
    )
    if len(refs) == 1 and not carried:
        one = refs[0]
        if isinstance(one, Target):
            return replace(common, target=one, type=one.type)
        return replace(common, title=one, anchored=True)
    if rating is not None and (each := _rated_before_too(clauses, rating)):
        return replace(common, refs=tuple(refs), rating=None, each=each)
    return replace(common, refs=tuple(refs))


_ARTICLE_FIRST: Final = re.compile(r"^(?:o|a|os|as|the)\s+")


def _rated_before_too(clauses: list[_Clause], rating: int) -> tuple[tuple[str, int | None], ...]:
    """ "vi X, nota 7. e o Y também": the rating is of the titles said before it, the ones
    added after it by "também" have none; () when the clauses are not that."""
    at = max(n for n, c in enumerate(clauses) if c.rating is not None)
    after = [c for c in clauses[at + 1 :] if c.refs]
    if not after or not all(c.carried for c in after):
        return ()
    before = [r for c in clauses[:at] for r in c.refs]
    later = [r for c in after for r in c.refs]
    if not before or not all(isinstance(r, str) for r in before):
        return ()
    rated: list[tuple[str, int | None]] = [(_untitled(r), rating) for r in before]
    # "e o filme tb" after them: a line in view, marked with no rating (none is given)
    return tuple(rated + [(_untitled(r), None) for r in later if isinstance(r, str)])


def _untitled(ref: str | Target) -> str:
    """A title as `_each_rating` finds it: spaced words, no article first."""
    return _ARTICLE_FIRST.sub("", _spaced(str(ref)))


def _list_heads(clauses: list[_Clause]) -> list[_Clause]:
    """`clauses` with the short asides right before a mark that leads with several titles
    made titles of that list."""
    kept = list(clauses)
    for at, clause in enumerate(kept):
        if not clause.leads:
            continue
        before = at - 1
        while before >= 0 and kept[before].aside and _short(kept[before].aside):
            kept[before] = _Clause(refs=(kept[before].aside,), listed=True)
            before -= 1
        if before < at - 1:  # the list's first title starts it
            kept[before + 1] = replace(kept[before + 1], listed=False)
    return kept


def _short(words: str) -> bool:
    return len(_spaced(words).split()) <= MAX_TITLE_WORDS


def _names(clause: _Clause) -> bool:
    return bool(clause.refs) and not _only_pronoun(clause.refs)


def _only_pronoun(refs: tuple[str | Target, ...]) -> bool:
    return all(isinstance(r, Target) and r.kind == "pronoun" for r in refs)


def _clause(part: str) -> _Clause | None:
    """What one clause of a mark is (see above), or None when it is none of these."""
    said = _Said.of(part)
    norm = said.norm
    if not norm:
        return _Clause()
    if _CONTRAST.match(norm):
        return None  # "mas dormi", "but i gave up": seen only in part is no certain mark
    if (rated := _clause_rating(norm)) is not None:
        return _Clause(rating=rated)
    if _UNRATED.match(norm):
        return _Clause(unrated=True)
    marked = _read_mark(part) or _set_mark(said)
    if marked is not None and marked.state == "seen" and _NEGATION.search(norm):
        return None  # "vi tenet, nunca terminei": not a mark this reader is sure of
    if marked is not None:
        if marked.both or marked.every:
            return _Clause(mark=marked)
        ref: str | Target | None = marked.target if marked.target is not None else None
        refs = marked.refs or ((ref,) if ref is not None else (marked.title,))
        if marked.also_seen or marked.described:
            return None
        first = _spaced(refs[0]) if refs and isinstance(refs[0], str) else ""
        leads = (
            bool(first)
            and norm.startswith(first)
            and (len(refs) > 1 or " e " in f" {first} " or " and " in f" {first} ")
        )
        return _Clause(mark=replace(marked, refs=()), refs=refs, rating=marked.rating, leads=leads)
    # no verb of its own ("and the show X too" names a type), or the seeing said after the
    # "too" ("e o filme tb já vi")
    saw_after = _SAW_AFTER_TOO.search(fold_same_length(part).lower())
    more = read_continuation(part[: saw_after.start("saw")] if saw_after is not None else part)
    if more is not None and _TOO.search(norm) and not (more.other or more.next or more.period):
        rest = _Said.of(more.title if more.type else more.rest)  # "e a série Dark tb": Dark
        if more.type is not None and not rest.norm:
            # "e o filme tb": the film in view, beside the titles named
            return _Clause(refs=(Target("pronoun", 0, more.type),), carried=True)
        refs = _refs_of(rest, 0, len(rest.norm))
        return _Clause(refs=refs, carried=True, type=more.type) if refs else None
    if _REQUEST.search(norm) or len(norm.split()) > MAX_ASIDE_WORDS:
        return None
    if re.search(r"\s(?:e|and|&)\s", f" {norm} ") and len(norm.split()) <= MAX_TITLE_WORDS:
        # "parasita e dark", after "já vi interestelar,": the list goes on
        how = _HOW_MUCH_END.search(norm)  # "ronin and heat already"
        refs = _refs_of(said, 0, how.start() if how is not None else len(norm))
        if refs and all(isinstance(r, str) for r in refs):
            return _Clause(refs=refs, listed=True)
    if _SEEING.search(norm) or re.match(r"(?:so|apenas|somente|only)\s+(?:o|a|the)\s", norm):
        return None  # a verb of seeing this reader could not place; "só a Y" (a swap)
    return _Clause(aside=part.strip(" -"))


_SAW_AFTER_TOO: Final = re.compile(
    r"\b(?:tb|tbm|tambem|too|also)(?P<saw>\s+(?:(?:eu|i)\s+)?(?:ja\s+|already\s+)?"
    r"(?:vi|assisti|terminei|maratonei|watched|seen|saw|finished))\s*$"
)
_NEGATION: Final = re.compile(r"\b(?:nao|nunca|never|not|didn t|haven t|n t)\b")


_TOO: Final = re.compile(r"\b(?:tb|tbm|tambem|too|also|as well)\b")


def _clause_rating(norm: str) -> int | None:
    """The rating a clause gives with nothing but hedges beside it ("7/10 i think", "i'd
    say 8", "mas esse só nota 6"), or None."""
    words = norm.split()
    scores = [
        w for w in words if re.fullmatch(r"(?:10|[0-9])(?:/10)?|" + "|".join(_NUMBER_WORDS), w)
    ]
    if len(scores) != 1:
        return None
    rest = [w for w in words if w != scores[0] and w not in ("10", "de", "em", "out", "of")]
    if any(w not in _HEDGES for w in rest):
        return None
    score = scores[0]
    value = _NUMBER_WORDS.get(score)
    return value if value is not None else int(score.split("/")[0])


def _set_mark(said: _Said) -> MarkRequest | None:
    """A mark of a set the single readers leave: "o primeiro e o último eu já vi", "vi o 1
    e o 3", "e os dois eu já vi na real"."""
    norm = said.norm
    lead = re.match(r"(?:(?:e|and|ah|oh|so|entao)\s+)+", norm)
    offset = lead.end() if lead is not None else 0
    head = norm[offset:]
    how = _HOW_MUCH_END.search(head)
    head = head[: how.start()] if how is not None else head
    m = _SET_VERB.match(head)
    if m is None:
        return None
    group = "what" if m.group("what") else "what2"
    state: MarkState = "unseen" if m.group("not") else "seen"
    start, end = offset + m.start(group), offset + m.end(group)
    obj = norm[start:end]
    if _BOTH.match(obj) is not None:
        return MarkRequest(state, both=True)
    if _EVERY.match(obj) is not None:
        return MarkRequest(state, every=True)
    refs = _refs_of(said, start, end)
    if len(refs) >= 2:
        return MarkRequest(state, refs=refs)
    if refs and isinstance(refs[0], Target) and refs[0].kind == "pronoun":
        return MarkRequest(state, target=refs[0])  # "this one i've seen already"
    # one title the single readers declined only for its first word ("i saw la la land
    # ages ago"): certain only as one item of the list
    title = _loose_title(said, start, end)
    return MarkRequest(state, title=title, anchored=True) if title else None


_NOT_A_SUBJECT: Final = frozenset(
    "ele ela eles elas it that this isso isto aquilo them those these um uma a an algo "
    "something que what nada nothing tudo everything nao not nunca never".split()
)


def _loose_title(said: _Said, start: int, end: int) -> str:
    """The words at `said.norm[start:end]` as written, when they are a title of two words or
    more but for a first word that also stands alone as a small word ("La La Land"): that
    word never a pronoun, no other word a small one, a noun or a part ("season"); else ""."""
    words = said.norm[start:end].split()
    if not 2 <= len(words) <= MAX_TITLE_WORDS or words[0] in _NOT_A_SUBJECT:
        return ""
    if words[0] not in _NOT_A_TITLE or _PART_OF.search(said.norm[start:end]):
        return ""
    if any(w != words[0] and (w in _NOT_A_TITLE or w in _NOUNS) for w in words[1:]):
        return ""
    piece = said.norm[start:end]
    first = start + len(piece) - len(piece.lstrip())
    last = start + len(piece.rstrip())
    return said.raw[said.at[first] : said.at[last - 1] + 1].strip()


def _refs_of(said: _Said, start: int, end: int) -> tuple[str | Target, ...]:
    """The references `said.norm[start:end]` joins with commas, "e", "and": shelf lines
    ("o primeiro", "o 3", "esse") and titles as written; () when one part is neither."""
    refs: list[str | Target] = []
    at = start
    piece = said.norm[start:end]
    bounds = [(m.start(), m.end()) for m in _JOINED.finditer(piece)]
    cuts = [0, *[b for pair in bounds for b in pair], len(piece)]
    for left, right in zip(cuts[::2], cuts[1::2], strict=True):
        part = piece[left:right].strip()
        if not part or _SEEING.search(part):
            return ()  # "duna e terminei dark": a second mark of its own
        line = shelf_target(part)
        if line is not None and not (line.kind == "number" and line.value > MAX_LINE):
            refs.append(line)
            continue
        title = said.title(at + left, at + right)
        if title is None:
            return ()
        refs.append(title)
    return tuple(refs)


MAX_LINE: Final = 99  # a bigger number is a title ("1917")


# -- lists ----------------------------------------------------------------------------------------

_LIST_TAIL: Final = re.compile(
    r"\s+(?:da|na|on|from|in)\s+(?:minha|my)\s+(?:lista|list|watchlist)$|\s+(?:ainda|yet|so far|ate agora|agora|now|right now)$"
)


def read_list(text: str) -> ListRequest | None:
    """The list by state `text` asks for ("o que falta ver?"), or None."""
    raw = text.strip()
    if not raw or len(raw) > 200 or raw.startswith("/"):
        return None
    # "oq falta ver?", "qts filmes eu vi?", "quais séries ainda n vi?"
    said = expand_chat(_Said.of(_n_as_not(raw)).norm)
    said, rated = _without_rating_ask(said)
    words = _LIST_TAIL.sub("", _LIST_TAIL.sub("", said))
    if not words or len(words.split()) > MAX_WORDS:
        return None
    if (asked_last := _COUNT_LAST.search(said)) is not None:  # "e séries vistas, quantas?"
        said = f"{asked_last.group('count')} {said[: asked_last.start()]}"
    counted = _read_counts(said)
    if counted is not None or _COUNT_WORD.match(said):
        return counted
    if _LIST_WORD.match(said) or _TYPE_FIRST.match(said):
        listed = _read_count(said, count=False)  # "show me what I haven't watched"
        # the ratings asked beside a list are on the list of what was seen, not of what is left
        return None if rated and (listed is None or listed.state != "done") else listed
    return None


# a second question asking the ratings given ("e que nota dei pra cada um", "and how did
# I rate them", "com as notas"): the seen list shows them, so it asks nothing more
_RATING_ASK: Final = re.compile(r"\s+(?:e|and|com|with|plus|mais)\s+(?P<ask>.+)$")
_RATING_WORDS: Final = frozenset("nota notas rate rated rating ratings score scores".split())
_RATING_FILLER: Final = frozenset(
    "que qual quais quanto how what which did do i eu dei deu gave give them it each cada um uma "
    "one pra para a o as os the my minhas minha meus suas sua their de of to for foi was were "
    "tinha had que q".split()
)


_GIVING_ASK: Final = frozenset("dei deu give gave".split())
_ASKED_HOW: Final = frozenset("que qual quais quanto what which how".split())


def _without_rating_ask(said: str) -> tuple[str, bool]:
    """`said` without a last clause that only asks the ratings given, and whether it had one."""
    m = _RATING_ASK.search(said)
    while m is not None:
        words = m.group("ask").split()
        # "what did I give them?", "quanto eu dei pra cada?": a giving asked is a rating
        asked = any(w in _RATING_WORDS for w in words) or (
            not _GIVING_ASK.isdisjoint(words) and not _ASKED_HOW.isdisjoint(words)
        )
        if asked and all(w in _RATING_WORDS or w in _RATING_FILLER for w in words):
            return said[: m.start()], True
        m = _RATING_ASK.search(said, m.start() + 1)
    return said, False


# "tira da lista os que eu já vi", "remove the ones I've watched from my list": a deletion
# of what a list of the seen would show, said by a verb of removing and that list's words
_DROP_VERB: Final = re.compile(
    r"^(?:(?:e|ok|entao|so|and|now|agora|pode|por favor|please|pls|pfv)\s+)*(?:"
    r"tira|tirar|tire|remove|remover|remova|apaga|apagar|apague|exclui|excluir|exclua|deleta|"
    r"deletar|delete|limpa|limpar|clear|drop|get rid of|take|cut)\s+(?:out\s+|off\s+)?"
    r"(?P<rest>.+)$"
)
_OFF_LIST: Final = re.compile(
    r"\s*\b(?:da|na|of|off|from|on)\s+(?:(?:a|minha|my|the)\s+)?(?:lista|list|watchlist)\b\s*"
)
_ALL_WORDS: Final = re.compile(r"\b(?:tudo|todos|todas|todo|toda|everything|all|of)\b")


def read_drop_seen(text: str) -> ListRequest | None:
    """The deletion of the seen (read) items `text` asks for ("tira da lista os que eu já
    vi"), as the list of them to delete, or None; what is left is never read as one."""
    raw = text.strip()
    if not raw or len(raw) > 160 or raw.startswith("/"):
        return None
    said = expand_chat(_Said.of(_n_as_not(raw)).norm)
    m = _DROP_VERB.match(said)
    if m is None:
        return None
    rest = _OFF_LIST.sub(" ", f" {m.group('rest')} ")
    words = " ".join(_ALL_WORDS.sub(" ", rest).split())
    if len(words.split()) < 2:
        return None  # "apaga vi": no list named
    listed = _read_count(words, count=False)
    if listed is None or listed.state != "done" or listed.period is not None:
        return None
    return replace(listed, carried=False, drop=True)


# "então Dark é o único que eu não vi?", "so Dune is the only one left?": a title, "the only
# one", then the words of a list by state
_ONLY_ONE: Final = re.compile(
    r"^(?:(?:e|entao|so|and|ok|then|ah|quer dizer que|so then)\s+)*(?P<what>.+?)\s+"
    r"(?:e|eh|is|s|era|was|fica|ficou)\s+(?:(?:o|a|the)\s+)?(?:unic[oa]|only|ultim[oa]|last)"
    r"(?:\s+(?:one|thing|item|(?P<noun>filme|serie|movie|show|video|link)))?\s+(?P<rest>.+)$"
)


_POINTING: Final = frozenset("isso esse essa ele ela it that this he she they".split())


def read_only_one(text: str) -> ListRequest | None:
    """The yes-or-no question whether a title is the only one in a state ("so X is the only
    one I haven't watched?"), as the list of that state with the title asked, or None."""
    raw = text.strip()
    if not raw.endswith("?") or len(raw) > 160 or raw.startswith("/"):
        return None
    said = expand_chat(_Said.of(_n_as_not(raw)).norm)
    m = _ONLY_ONE.match(said)
    if m is None or len(m.group("what").split()) > MAX_TITLE_WORDS:
        return None
    what = m.group("what")
    if _QUESTION_FIRST.match(what) or what in _POINTING:
        return None  # "qual é o único...": a question of its own; "ele": no title
    listed = _read_count(f"o que {m.group('noun') or ''} {m.group('rest')}", count=False)
    if listed is None or listed.period is not None:
        return None
    return replace(listed, carried=False, only=what)


# a comparison of ratings, read by its parts: an asking word, a rating word, a word of more or
# less, every other word filler ("dos dois, qual ganhou nota maior?", "which did I rate higher?")
_COMPARE_ASK: Final = frozenset("qual quem which whats what".split())
_COMPARE_RATING: Final = frozenset("nota notas rate rated rating score scored".split())
_COMPARE_UP: Final = frozenset("maior melhor alta higher highest better best top".split())
_COMPARE_DOWN: Final = frozenset("menor pior baixa lower lowest worse worst menos less".split())
_COMPARE_FILLER: Final = frozenset(
    "mais more most e entao so and ok dos das desses dessas destes destas entre esses essas estes estas os as "
    "o a um uma dois duas tres of the two three those these them between one ones eu i did do "
    "dei deu teve ganhou levou tirou recebeu tem tinha ficou com got get gave give had has have "
    "is was foi de do da que mais is s ai la among my minha minhas meus".split()
)


_COMPARE_KNOWN: Final = (
    _COMPARE_ASK | _COMPARE_RATING | _COMPARE_UP | _COMPARE_DOWN | _COMPARE_FILLER
)


def read_rating_compare(text: str) -> RatingCompare | None:
    """Which item just shown was rated higher (or lower), or None."""
    raw = text.strip()
    if not raw or len(raw) > 120 or raw.startswith("/"):
        return None
    words = expand_chat(_Said.of(raw).norm).split()
    if not words or len(words) > 14:
        return None
    asked = rated = up = down = False
    nouns: set[ItemType] = set()
    for word in words:
        asked |= word in _COMPARE_ASK
        rated |= word in _COMPARE_RATING
        up |= word in _COMPARE_UP
        down |= word in _COMPARE_DOWN
        if word in _NOUNS and _NOUNS[word] in WATCHABLE:
            nouns.add(_NOUNS[word])
        elif word not in _COMPARE_KNOWN:
            return None  # "qual nota maior do Nolan?": more than a comparison of those shown
    if not (asked and rated) or up == down or len(nouns) > 1:
        return None  # no comparison, or both ways at once
    return RatingCompare(highest=up, type=next(iter(nouns), None))


# -- counts by state, read by their parts -------------------------------------------------------

_COUNT_WORD: Final = re.compile(
    r"^(?:(?:e|ok|entao|so|and|okay|then|agora|now)\s+)*(?:quant[oa]s|how\s+many)\b"
)
_COUNT_LAST: Final = re.compile(r"\s+(?P<count>quant[oa]s|how\s+many)$")
_COUNT_SPLIT: Final = re.compile(r"\s+(?:e|and)\s+(?=(?:quant[oa]s|how\s+many)\b)")
_DONE_WORDS: Final = frozenset(
    "vi assisti terminei li vimos assistimos terminamos maratonei marquei vist vistos vistas "
    "visto vista assistidos assistidas lidos lidas feitos feitas concluidos seen watched "
    "finished read completed done marked did zerei conclui finalizei maratonamos binged "
    "saw".split()
)
_LEFT_WORDS: Final = frozenset(
    "falta faltam faltando sobrou sobraram sobra sobram sobrando resta restam restando pendente "
    "pendentes left unwatched unseen unread remaining".split()
)
_NOT_WORDS: Final = frozenset("nao not haven havent didn didnt never t".split())
# "preciso ver", "still need to watch", "tenho que ver": what is still owed is what is left
_OWED_WORDS: Final = frozenset("preciso precisa precisam need needs gotta must".split())
_READING_WORDS: Final = frozenset("li lidos lidas read unread ler".split())
# "tenho pra ver", "to watch": still to see when no done word is said
_TO_SEE: Final = re.compile(r"\b(?:pra|para|a|por|to|que)\s+(?:ver|assistir|ler|watch|see|read)\b")
_SEE_WORD: Final = re.compile(r"\b(?:ver|assistir|ler|watch|see|read)\b")
_ABOUT_SEEING: Final = re.compile(
    r"\b(?:ver|assistir|watch|see|vi|assisti|terminei|vimos|assistimos|maratonei|watched|seen|"
    r"saw|finished|binged|vist[oa]s?|assistid[oa]s?|unwatched|unseen|watch\s*list)\b"
)
_OWNED: Final = re.compile(r"\b(?:tem|tenho|ha|have|got|still|lista|list|watchlist)\b")
_LISTED: Final = re.compile(r"\b(?:lista|list|watchlist)\b")
_COUNT_FILLER: Final = frozenset(
    "quantos quantas how many eu ja ainda already still have has ve i do did are is was there "
    "tem tenho ha que that da na minha lista list on my so far ate agora till until now yet "
    "total no em ao todo in of them deles delas me the os as de do from ver assistir ler "
    "watch see read to pra para a por coisas itens things items as como marked marquei "
    "voce you u e and ok okay entao so then foram foi sao were been am got esta estao ta tao "
    "with for finish terminar acabar ficou ficaram fica ficam".split()
)


def _read_counts(said: str) -> ListRequest | None:
    """ "quantos filmes eu já vi?", "how many are still unwatched?", "qts vi e qts faltam?":
    a count word, a state (done, or left: "falta", "not seen", "to watch"), a type, a
    period, every other word filler; the second of two counts takes the first one's type."""
    if not _COUNT_WORD.match(said):
        return None
    parts = _COUNT_SPLIT.split(said)
    if len(parts) > 2:
        return None
    first = _read_count(parts[0])
    if first is None or len(parts) == 1:
        return first
    second = _read_count(parts[1])
    if second is None or second.period != first.period:
        return None
    if second.carried:
        second = replace(second, types=first.types, carried=first.carried)
    return replace(first, then=second)


# a list read by its parts, as a count is: an asking or showing word first, then a state
# said by a word ("left", "falta", "haven't watched"), every other word filler
_LIST_WORD: Final = re.compile(
    r"^(?:(?:e|ok|entao|so|and|okay|then|agora|now)\s+)*(?:o que|oq|que|quais|qual|"
    r"(?:me\s+)?(?:mostra|mostre|lista|fala|diz)|what|whats|which|show|list|tell me|anything|any|"
    r"algum|alguma|tem algum|tem alguma)\b"
)
_LIST_FILLER: Final = frozenset(
    "o que oq quais qual mostra mostre lista fala diz what whats which show list anything any algum "
    "alguma algo something for ones one s tell me ainda meus minhas my".split()
)
# a list said by its type first: "filmes que eu já vi", "séries vistas", "my unwatched shows"
_TYPE_FIRST: Final = re.compile(
    r"^(?:(?:lista|mostra|me mostra|show me|show|list)\s+)?(?:(?:os|as|meus|minhas|my|the)\s+)?"
    r"(?:(?:watched|seen|finished|unwatched|unseen|unread|read)\s+)?(?:" + _NOUN + r")\b"
)
# "what's on my watchlist?": the list to watch is what is left
_WATCHLIST: Final = re.compile(r"\bwatch\s*list\b")


def _read_count(part: str, *, count: bool = True) -> ListRequest | None:
    """A count (or with `count` False a list) read by its parts: an asking word, a state, a
    type, a period at the end, every other word filler; None when a word is of none."""
    words = _LIST_TAIL.sub("", _LIST_TAIL.sub("", part.strip()))
    period: Period | None = None
    if (phrase := window_phrase(words, at_end=True)) is not None:
        window = WINDOWS[phrase]
        if window == "last_week":
            return None
        period = window
        words = words[: -len(phrase)].strip()
    noun: str | None = None
    done = left = negated = reading = owed = False
    for at, said_word in enumerate(words.split()):
        if not count and at == 0 and said_word in ("show", "list", "lista"):
            continue  # "show me what...": the verb, not a type
        word = _spelled_right(said_word)
        if word in _NOUNS or word in ("coisas", "itens", "things", "items"):
            if noun is not None and noun != word:
                return None  # "quantos filmes e séries": not one count
            noun = word
        elif word in _LEFT_WORDS:
            left = True
        elif word in _DONE_WORDS:
            done = True
        elif word in _NOT_WORDS:
            negated = True
        elif word in _OWED_WORDS:
            owed = True
        elif word not in _COUNT_FILLER and (count or word not in _LIST_FILLER):
            return None  # "quantos filmes do Nolan eu vi?": more than a state
        reading |= word in _READING_WORDS
    if negated and not done:
        return None  # "quantos não...": not certain
    if noun is None and "pendente" in words:
        return None  # "o que está pendente?" may be a question or a reminder: not certain
    if negated:  # "haven't watched", "não vi": left
        done, left = False, True
    if not done and _WATCHLIST.search(part):
        left = True  # "what's on my watchlist?", "any shows on my watch list"
    # "o que tem pra ver?", "still on my list to watch", "séries pra ver"
    owned = count or _OWNED.search(words) is not None or _TYPE_FIRST.match(part) is not None
    if (
        not done
        and not left
        and owned
        and (_TO_SEE.search(words) or owed and _SEE_WORD.search(words))
    ):
        left = True  # "quantos filmes tenho pra ver?" ("what to watch?" asks for a pick)
    if done == left:
        return None  # no state, or both in one count: "quantos filmes eu tenho?" is no state's
    state: ListState = "done" if done else "left"
    if period is not None and state == "left":
        return None
    seeing = _ABOUT_SEEING.search(part) is not None
    # "what's left?" lists what is left of every kind (links to read too); a count of it
    # carries the last list's type
    types = _types_of(noun, reading=reading, watching=count and not reading or seeing)
    carried = noun is None and (count or not (seeing or reading or _LISTED.search(part)))
    return ListRequest(state, types, count=count, period=period, carried=carried)


_COUNT_KNOWN: Final = tuple(sorted({*_NOUNS, *_LEFT_WORDS, *_DONE_WORDS}))
_COUNT_FILLER_WORDS: Final = _COUNT_FILLER | _LIST_FILLER


def _count_part(word: str) -> str:
    """What a count's word says: its type, or the state."""
    return _NOUNS.get(word) or ("left" if word in _LEFT_WORDS else "done")


def _spelled_right(
    word: str,
    known: tuple[str, ...] = _COUNT_KNOWN,
    filler: frozenset[str] = _COUNT_FILLER_WORDS,
    part: Callable[[str], object] = _count_part,
) -> str:
    """`word`, or the `known` word it misspells by a letter ("asisti", "flimes", "watchd",
    "comdy", "recomend"): only for words of 5 letters or more, and only when every word
    that close says the same (`part`)."""
    if len(word) < 5 or word in filler or word in known:
        return word
    near = [k for k in known if abs(len(k) - len(word)) <= 1 and OSA.distance(k, word) <= 1]
    return near[0] if near and len({part(k) for k in near}) == 1 else word


def _types_of(noun: str | None, *, reading: bool, watching: bool) -> tuple[ItemType, ...]:
    if noun in _NOUNS:
        return (_NOUNS[noun],)
    if noun in ("coisas", "itens", "things", "items"):
        return (*WATCHABLE, "link")
    if reading:
        return ("link",)
    if watching:
        return WATCHABLE
    return (*WATCHABLE, "link")


# -- where to watch -------------------------------------------------------------------------------

_COUNTRIES: Final[dict[str, str]] = {
    **dict.fromkeys(["no brasil", "in brazil"], "BR"),
    **dict.fromkeys(
        "nos eua|nos estados unidos|in the us|in the usa|in the united states|in america".split(
            "|"
        ),
        "US",
    ),
    **dict.fromkeys(["em portugal", "in portugal"], "PT"),
    **dict.fromkeys(["no reino unido", "in the uk", "in the united kingdom"], "GB"),
    **dict.fromkeys(["no canada", "in canada"], "CA"),
}
_WHERE: Final = re.compile(
    r"^(?:e\s+|and\s+|so\s+)?(?:"
    r"(?:onde|aonde|em que lugar|em qual (?:streaming|plataforma|servico))\s+(?:(?:eu|da|posso|consigo|tem|que|pra|para)\s+)*"
    r"(?:assistir|assisto|ver|vejo|passa|esta passando|ta passando|tem|encontro|achar|acho|streamar)"
    r"(?:\s+(?:a|o)\b)?|"
    r"em\s+(?:qual|que)\s+(?:streaming|plataforma|servico)\s+(?:ta|esta)(?:\s+(?:a|o)\b)?|"
    # "dá pra ver Duna em algum lugar?", "tem Duna pra assistir online?"
    r"(?:da pra|consigo|posso|tem como)\s+(?:ver|assistir|streamar)\s+(?P<anyw>.+?)\s+"
    r"(?:em algum lugar|em algum canto|online|em algum streaming|por ai)|"
    r"tem\s+(?P<anyw2>.+?)\s+(?:pra|para)\s+(?:ver|assistir)\s+(?:online|em algum lugar|em streaming)|"
    # "what app is Dune on?"
    r"(?:what|which)\s+(?:app|service|platform|streaming service|streamer)\s+(?:is|s)\s+"
    r"(?P<app>.+?)\s+on|"
    r"(?:qual|que)\s+(?:streaming|plataforma|servico)\s+(?:tem|passa)|"
    r"(?:ta|esta|tem)\s+(?:em|no|na)\s+(?:qual|que|algum|algu?ma)\s+(?:streaming|plataforma|servico)|"
    # "tem onde?", "tem onde ver?" after the title it asks of ("e Succession, tem onde?")
    r"(?:tem|ha)\s+(?:onde|aonde)(?:\s+(?:ver|assistir))?(?=\s*$)|"
    r"is\s+(?P<is>.+?)\s+(?:streaming|available|on\s+streaming)(?:\s+(?:anywhere|somewhere|online))|"
    r"(?P<pt>.+?)\s+(?:tem|ta|esta|passa)\s+(?:em|no|na)\s+(?:algum|alguma|qual|que)\s+"
    r"(?:streaming|plataforma|servico)|"
    r"(?:where|how)\s+(?:(?:can|do|could|should)\s+i|i\s+(?:can|could|should))\s+(?:watch|stream|see|find)|"
    r"where\s+(?:is|s|are|does|do)\s+(?P<it>.+?)\s+(?:streaming|available|playing|on|stream|play)|"
    # asked about asking: "(any idea) where Dune is streaming"
    r"where\s+(?P<told>.+?)\s+(?:is|s|are)\s+(?:streaming|available|playing|on)|"
    r"where\s+to\s+(?:watch|stream)|"
    r"(?:what|which)\s+(?:streaming\s+)?(?:service|platform|streamer)s?\s+(?:has|have|is|carries)|"
    r"(?:what|which)\s+streaming\s+(?:has|have|carries)|"
    # "tem algum lugar pra ver X?", "tem onde assistir X?", "is there anywhere to watch X?"
    r"(?:tem|existe|ha|conhece)\s+(?:(?:algum|alguma|um|uma)\s+)?(?:lugar|onde|canto|site|app|"
    r"aplicativo|streaming|plataforma|servico)\s+(?:(?:pra|para|que|de|onde|em que|aonde|eu|da)\s+)*"
    r"(?:ver|assistir|assisto|vejo|veja|assista|passa|passe|tenha|tem|streamar)|"
    r"is\s+there\s+(?:(?:any|a|some)\s+)?(?:where|place|anywhere|somewhere|site|app|service|"
    r"platform)\s+(?:(?:to|that|i|can|could|where|has|with)\s+)*(?:watch|stream|see|find|has)|"
    r"(?P<pt2>.+?)\s+(?:passa|ta passando|esta passando|streama|da pra ver|da pra assistir)\s+onde"
    r")\s*(?P<what>.*)$"
)
_WHERE_TAIL: Final = re.compile(
    r"\s+(?:online|de graca|gratis|for free|em streaming|no streaming|streaming|hoje|today|tonight|agora|now|"
    r"pra ver|para ver|pra assistir|para assistir|to watch|aqui|here|around here|por aqui)$"
)


# "e pra alugar?" right after a where-to-watch answer: the same title's rent/buy offers
_PAID: Final = re.compile(
    r"^(?:e|and|so|what about|how about)\s+(?:(?:pra|para|de|to|for)\s+)?"
    r"(?:alugar|comprar|aluguel|compra|rent|renting|buy|buying|rent or buy|alugar ou comprar)"
    r"(?:\s+(?:it|ele|ela))?$"
)


_PAID_ASK: Final = re.compile(
    r"^(?:(?:where\s+)?(?:can|could)\s+i|is\s+it\s+possible\s+to|da\s+pra|posso|consigo|"
    r"(?:onde|aonde)\s+(?:eu\s+)?(?:posso|consigo|da\s+pra))\s+(?:rent|buy|alugar|comprar)"
    r"(?:\s+(?:it|this|that|ele|ela|esse|essa|isso))?"
    r"(?:\s+(?:somewhere|anywhere|online|em algum lugar|em algum canto))?$"
)


_PAID_TITLE: Final = re.compile(
    r"^(?:e\s+|and\s+)?(?:onde|aonde|where)\s+(?:(?:eu|can|could|do|i|posso|da pra|consigo|que)\s+)*"
    r"(?:alugar|alugo|comprar|compro|rent|buy)\s+(?P<what>.+)$"
)


# streaming services as people name them (folded) and as a reply names them
SERVICES: Final[dict[str, str]] = {
    "netflix": "Netflix",
    **dict.fromkeys(
        ["prime video", "amazon prime video", "amazon prime", "prime", "amazon"], "Prime Video"
    ),
    **dict.fromkeys(["hbo max", "hbo", "max"], "Max"),
    **dict.fromkeys(["disney plus", "disney"], "Disney Plus"),
    **dict.fromkeys(["apple tv plus", "apple tv", "appletv"], "Apple TV+"),
    **dict.fromkeys(["globoplay", "globo play"], "Globoplay"),
    **dict.fromkeys(["paramount plus", "paramount"], "Paramount Plus"),
    **{"star plus": "Star Plus", "mubi": "MUBI", "crunchyroll": "Crunchyroll"},
    **{"peacock": "Peacock", "hulu": "Hulu"},
}
_SERVICE: Final = "|".join(sorted(SERVICES, key=len, reverse=True))
# "em algum streaming", "on any service": where at all, no service of its own
_ANY_SERVICE: Final = (
    r"(?:algum|alguma|qualquer|any|some)\s+(?:streaming|servico|plataforma|streaming service|"
    r"service|platform)"
)
_ON_SERVICE: Final = (
    rf"(?:na|no|em|on|in|at)\s+(?:(?:a|o|the)\s+)?(?:(?P<svc>{_SERVICE})|{_ANY_SERVICE})"
)
# "tem Dark na Netflix?", "Dark tá na Netflix?", "is Dune on Netflix?", "does Max have Dune?"
_SERVICE_ASK: Final = (
    re.compile(
        r"^(?:(?:e|and|so)\s+)?(?:tem|ta|esta|passa|rola|da pra ver|da pra assistir|"
        r"(?:eu\s+)?(?:consigo|posso)\s+(?:ver|assistir)|is|s|can\s+i\s+(?:watch|stream|see)|"
        rf"could\s+i\s+(?:watch|stream|see))\s+(?P<what>.+?)\s+(?:streaming\s+)?{_ON_SERVICE}$"
    ),
    re.compile(
        r"^(?:(?:e|and|so)\s+)?(?P<what>.+?)\s+(?:ta|esta|tem|passa|is|s|streams|is streaming)\s+"
        rf"(?:(?:passando|streaming|disponivel|available)\s+)?{_ON_SERVICE}$"
    ),
    re.compile(
        rf"^(?:(?:e|and|so)\s+)?(?:(?:does|do)\s+)?(?:(?:a|o|the)\s+)?(?P<svc>{_SERVICE})\s+"
        r"(?:tem|has|have|carries|carry|streams|stream)\s+(?P<what>.+)$"
    ),
)


def _service_question(raw: str) -> WhereRequest | None:
    if not raw.rstrip().endswith("?"):
        return None  # "Dark tá na Netflix": a statement may be news, not a question
    said = _Said.of(raw)
    for pattern in _SERVICE_ASK:
        m = pattern.match(said.norm)
        if m is None:
            continue
        start, end = m.start("what"), m.end("what")
        obj = said.norm[start:end]
        service = SERVICES[m.group("svc")] if m.group("svc") else ""
        # "tem o Coringa na Netflix?" ("The Office" keeps its "The")
        return _where_of(said, obj, (start, end), WhereRequest(service=service), r"(?:o|a)\s+")
    return None


def _where_of(
    said: _Said, obj: str, span: tuple[int, int], asked: WhereRequest, article: str | None = None
) -> WhereRequest | None:
    """`asked` for what `obj` (`said.norm` at `span`) names: a shelf line or a title."""
    if (target := _target(obj)) is not None:
        return replace(asked, target=target, type=target.type)
    named = _typed_title(said, obj, *span, article)
    return None if named is None else replace(asked, title=named[0], type=named[1])


# a clause that only says the question saves nothing: "não precisa salvar", "só
# curiosidade", "just asking, don't add it"
_NO_SAVE: Final = re.compile(
    r"^(?:(?:mas|but|e|and|ok|so|only|pfv|pls|please)\s+)*(?:"
    r"(?:(?:eu\s+|i\s+)?(?:nao|n|no|not|dont|don t|do not|never|nem|sem|without|no need to)\s+"
    r"(?:(?:precisa|precisa de|tem que|quero|vou|need to|want to|wanna|gonna|pode|vai|am|m|"
    r"estou|to|ta)\s+)?"
    r"(?:(?:salv|guard|adicion|anot|bot|coloc)(?:ar|a|e|o|ando)|coloque|por|poe|pondo|"
    r"add|adding|save|saving|keep|keeping|put|putting|list|listing|store|storing))"
    r"(?:\s+(?:(?:ele|ela|isso|esse|essa|nada|nao|n|ainda|it|that|this|anything|yet|"
    r"(?:na|a|to|on|in)\s+(?:minha\s+|my\s+|the\s+)?(?:lista|list|watchlist))))*|"
    r"(?:(?:e|is|it s|its|foi|i m|im|i was|eu)\s+)?(?:so|just|only|apenas|by)?\s*(?:pra saber|"
    r"para saber|queria saber|quero saber|perguntando|curiosidade|por curiosidade|"
    r"uma pergunta|asking|curious|wondering|out of curiosity|a question|checking|pergunta)|"
    r"no need"
    r")(?:\s+(?:mesmo|ne|hein|viu|ok|tambem|too|lol|tho|though|pls|please|thanks|thx|"
    r"por enquanto|for now|yet|ainda))*$"
)


def _without_no_save(raw: str) -> str:
    """`raw` without the clauses at its end that only say nothing is to be saved."""
    while True:
        m = re.search(r"[,;.!?]\s*([^,;.!?]+?)[\s,;.!?]*$", raw)
        if m is None or _NO_SAVE.match(_spaced(m.group(1))) is None:
            return raw
        raw = raw[: m.start(1)].rstrip()
        raw = raw.rstrip(",;") if not raw.endswith("?") else raw


# a question asked about asking: "sabe onde passa X?", "do you know where I can watch X"
_ASKED_ABOUT: Final = re.compile(
    r"^(?:(?:e|and|so|ok)\s+)?(?:(?:voce|vc|tu)\s+)?(?:sabe|saberia|sabes)(?:\s+me\s+(?:dizer|falar))?\s+|"
    r"^(?:(?:e|and|so|ok)\s+)?(?:(?:do|would)\s+you\s+know|(?:can|could)\s+you\s+tell\s+me|"
    r"any\s+idea|me\s+(?:diz|fala|conta))\s+(?=onde|aonde|where|em\s+qual|qual|which|what)"
)


def read_where(text: str) -> WhereRequest | None:
    """The title `text` asks where to watch ("onde assistir Duna?", "e o Coringa, onde
    passa?"), or None; a clause saying nothing is to be saved ("só curiosidade, não salva")
    and a frame around the question ("sabe onde...", "do you know where...") are no part
    of it."""
    raw = _without_no_save(text.strip())
    if "?" in raw.rstrip("?"):  # "where's X on? just asking": the question, before what follows
        first = raw[: raw.index("?") + 1]
        after = _without_no_save(raw[len(first) :]).strip()
        asked = read_where(first)
        if asked is not None and (asked.title or asked.target):
            # "onde passa Duna? minha mãe quer ver": a remark after the question asks
            # nothing; "onde passa Duna? e salva ele" asks more: the planner's
            return asked if not after or is_aside(after) else None
    if (frame := _ASKED_ABOUT.match(fold_same_length(raw))) is not None:
        raw = raw[frame.end() :]
    if not raw or len(raw) > 200 or raw.startswith("/"):
        return None
    if (on_service := _service_question(raw)) is not None:
        return on_service
    said = _Said.of(raw)
    if _PAID.match(said.norm) is not None or _PAID_ASK.match(said.norm) is not None:
        return WhereRequest(target=Target("pronoun"), paid=True)  # "can i rent it somewhere?"
    if (rent := _PAID_TITLE.match(said.norm)) is not None:  # "onde alugar Duna?"
        asked = read_where("onde assistir " + raw[said.at[rent.start("what")] :])
        return replace(asked, paid=True) if asked is not None and asked.title else None
    m = _WHERE.match(said.norm)
    if m is None:
        return _named_first(raw)
    named = ("it", "told", "is", "pt", "pt2", "anyw", "anyw2", "app")
    group = next((g for g in named if m.group(g)), "what")
    start, end = m.start(group), m.end(group)
    country: str | None = None
    obj = said.norm[start:end]
    for phrase, code in _COUNTRIES.items():
        if obj == phrase or obj.endswith(" " + phrase):
            country = code
            end -= len(phrase)
            break
    uncut = start + len(said.norm[start:end].rstrip())
    while (tail := _WHERE_TAIL.search(said.norm[start:end].rstrip())) is not None:
        end = start + tail.start()
    obj = said.norm[start:end].strip()
    if obj in ("e", "and"):
        obj = ""  # "e passa onde?": "e" joins it to what came before, it names nothing
    if not obj:
        return WhereRequest(target=Target("pronoun"), country=country)  # "onde assistir?"
    end = start + len(said.norm[start:end].rstrip())
    asked = _where_of(said, obj, (start, end), WhereRequest(country=country))
    if asked is None or not asked.title or uncut == end:
        return asked
    whole = _where_of(said, said.norm[start:uncut], (start, uncut), asked)
    return replace(asked, whole=whole.title) if whole is not None and whole.title else asked


# right after a where-to-watch answer, the same question asked short: "and where's X?",
# "e onde tá o X?", "where is X streaming?": the words after the question's own
_WHERE_SHORT: Final = re.compile(
    r"^(?:(?:e|and|so|ok|ah)\s+)*(?:where\s+(?:is|s|are|about)|wheres|"
    r"(?:onde|aonde)(?:\s+(?:que|q))?(?:\s+(?:ta|esta|fica|tem|passa|acho|encontro))?)\s+"
    r"(?P<what>.+?)(?:\s+(?:streaming|playing|available|on|passando|disponivel|mesmo|again|then|"
    r"tho|now|hoje|agora|ai|la))*$"
)


def read_where_after(text: str) -> WhereRequest | None:
    """The where-to-watch question `text` asks right after a where-to-watch answer: any
    `read_where` reads, or one asked short ("and where's X?"), its object a title stripped
    of the question's words or a pronoun for the title just shown; None otherwise."""
    asked = read_where(text)
    if asked is not None:
        return asked
    raw = text.strip().rstrip("?!. ")
    if not raw or len(raw) > 120 or "?" in raw:
        return None
    said = _Said.of(raw)
    m = _WHERE_SHORT.match(said.norm)
    if m is None:
        return None
    start, end = m.span("what")
    # "e onde tá o Coringa?" ("The Bear" keeps its "The")
    return _where_of(said, said.norm[start:end], (start, end), WhereRequest(), r"(?:o|a)\s+")


# a title chosen before the question: "então vou de X mesmo", "I'll go with X then"
_CHOSEN_LEAD: Final = re.compile(
    r"^(?:(?:entao|ok|beleza|blz|bom|so|ok so|alright)\s+)?(?:vou de|vou ver|vou assistir|"
    r"acho que vou de|i ll go with|i ll watch|going with|let s go with)\s+"
)
_CHOSEN_AFTER: Final = re.compile(r"(?:\s+(?:msm|mesmo|entao|then|hoje|hj|tonight))+$")


def _named_first(raw: str) -> WhereRequest | None:
    """ "e a série Dark, tá em qual streaming?", "and Dune, where can I watch it?": the title
    before the comma, the question after it (with no title of its own)."""
    parts = re.match(r"^([^,?]*)[,?]\s*([^,]+)$", raw)  # "e Dark? onde passa?" too
    if parts is None:
        return None
    head, question = parts.groups()
    asked = read_where(question)
    if asked is None or asked.title or asked.paid or asked.target != Target("pronoun"):
        return None
    said = _Said.of(head)
    lead = re.match(r"^(?:e|and|what about|how about|e quanto a|e sobre)\s+", said.norm)
    lead = lead or _CHOSEN_LEAD.match(said.norm)  # "então vou de Oppenheimer msm, onde passa?"
    start = lead.end() if lead is not None else 0
    end = len(said.norm)
    if lead is not None and (after := _CHOSEN_AFTER.search(said.norm, start)) is not None:
        end = after.start()
    obj = said.norm[start:end]
    if lead is None and _TYPED.match(obj) is None:
        return None  # "comprei pipoca, onde passa?": only "e X," or "a série X," names a title
    # "e o Coringa" ("and The Wire" keeps its "The")
    named = _typed_title(said, obj, start, end, r"(?:o|a|os|as)\s+")
    if named is None or _target(_spaced(named[0])) is not None:
        return None
    return WhereRequest(title=named[0], type=named[1], country=asked.country)


# -- what to watch tonight ----------------------------------------------------------------------

_SHORT: Final = re.compile(
    r"\b(?:curt[oa]s?|rapid[oa]s?|short|shorter|shortest|quick|quicker|quickest|quickie|"
    r"pequen[oa]s?|menor)\b"
)
_BINGE: Final = re.compile(r"\b(?:maratona|maratonar|maratono|binge|binging|bingeable)\b")
# a length: "2h", "1h30", "duas horas e meia", "an hour and a half", "90 min"
_LENGTH: Final = (
    r"(?:(?P<h>\d{1,2}|uma|duas|tres|one|two|three|an|a)\s*(?:h|hr|hrs|hora|horas|hour|hours)"
    r"(?:\s*(?:e\s+)?(?P<hm>\d{1,2}|meia)(?:\s*(?:min|minutos|m))?)?(?:\s+and\s+a\s+half)?"
    r"|(?P<m>\d{2,3})\s*(?:min|mins|minutos|minutes|m))"
)
# at most so long, the limit said before the length, or after it ("2 horas no máximo"), or
# as the time there is ("tenho 1 hora livre", "I only have 90 min")
_MINUTES: Final = re.compile(
    r"\b(?:(?:menos de|ate|no maximo|max|maximo|under|less than|at most|up to|shorter than|below|"
    r"within|abaixo de|mais curt[oa]s? (?:que|do que)|"
    # "nothing longer than 2h", "nada com mais de 2h", "que não passe de 2h"
    r"(?:nothing|no|not|nada|nao|sem)\s+(?:(?:com|with|that s|that is|que|q)\s+)?"
    r"(?:longer|more|over|mais|passe|passar|passa|acima)(?:\s+(?:longo|longa|than|de|que|do que))*|"
    r"(?:(?:so|only|just)\s+)?(?:tenho|temos|have|ve got|got)(?:\s+(?:so|only|just))?)\s+"
    + _LENGTH
    + r"(?:\s+(?:livre|livres|free|to spare|sobrando))?"
    r"|"
    + _LENGTH.replace("?P<", "?P<after_")
    + r"\s+(?:no maximo|no max|max|tops|at most|or less|ou menos|no mais))\b"
)
_HALF: Final = re.compile(r"\b(?:and a half|e meia|e meio)\b")
_GENRE_WORDS: Final[dict[str, str]] = {
    word: genre
    for genre, words in {
        "comedy": "comedia comedias comedy comedies engracado engracada funny rir",
        "light": "leve leves light lighthearted feel_good feelgood tranquilo chill relax relaxar "
        "descontraido",
        "action": "acao action",
        "adventure": "aventura aventuras adventure",
        "animation": "animacao animacoes desenho animation animated cartoon",
        "horror": "terror horror assustador scary",
        "thriller": "suspense thriller thrillers",
        "drama": "drama dramas dramatico",
        "romance": "romance romances romantico romantica romantic romcom",
        "documentary": "documentario documentarios documentary documentaries doc",
        "scifi": "ficcao ficcao_cientifica sci_fi scifi science_fiction",
        "fantasy": "fantasia fantasy",
        "crime": "crime policial criminal true_crime",
        "mystery": "misterio mystery",
        "family": "familia family infantil kids criancas",
        "war": "guerra war",
        "music": "musical musica music",
        "western": "faroeste western",
        "history": "historia historico history historical",
    }.items()
    for word in words.split()
}
# genres a mood stands for ("algo leve")
MOODS: Final[dict[str, frozenset[str]]] = {
    "light": frozenset({"comedy", "animation", "family", "romance"}),
}
# the words of TMDB's genre names (PT or EN) and the genre each stands for
_GENRE_NAMES: Final[dict[str, str]] = {
    "science": "scifi",  # "Ficção científica", "Science Fiction"
    "sci": "scifi",
    **{
        word: _GENRE_WORDS[word]
        for word in "comedia comedy acao action aventura adventure animacao animation terror "
        "horror thriller suspense drama romance documentario documentary ficcao fantasia "
        "fantasy crime misterio mystery familia family kids guerra war musica music faroeste "
        "western historia history".split()
    },
}
# the parts of a request for something to watch; a word of none of them declines it
_ASKING: Final = frozenset(
    "sugere sugira sugerir sugestao sugestoes recomenda recomende recomendar recomendacao "
    "recomendacoes indica indique indicar indicacao indicacoes dica dicas escolhe escolha "
    "escolher decidir decide "
    "suggest suggestion suggestions recommend recommendation recommendations pick choose "
    "idea ideas ideia ideias".split()
)
_WANTING: Final = frozenset(
    "quero queria preciso afim fim bora vamos rola tem tenho got have want need "
    "feel like wanna fala diz manda tell give gimme mood craving".split()
)
_SOME: Final = frozenset(
    "algo alguma algum alguns algumas something anything some any um uma a an".split()
)
_ASKING_WHAT: Final = frozenset("que qual quais what whats which".split())
_WHICH_ONE: Final = frozenset("qual quais which".split())  # one of a set: the user's own
_WATCHING: Final = frozenset(
    "ver vejo veja veria assistir assisto assista assistiria maratonar maratono comecar "
    "comeco comecaria watch see binge start watching".split()
)
_WHEN_WORDS: Final = frozenset(
    "hoje agora noite night tonight tonite 2nite tn now rn today fds weekend fim semana mais "
    "tarde later "
    "depois".split()
)
_SUGGEST_FILLER: Final = frozenset(
    "pra para for me mim eu i de da do na no o os as the of and e com with que seja "
    "minha my lista list watchlist on in from this essa esta that s is are which "
    "voce you u should can could would do does will posso devo vou poderia deveria "
    "gente nos we us a pro ai la hein entao so ok then hmm tipo to estou "
    "first primeiro primeira antes next coisa thing tv one ones im".split()
)
# past see verbs and state words: a mark or a list, never a suggestion
# "que eu ainda não vi", "I haven't seen": what a suggestion picks from anyway
_UNSEEN_SAID: Final = re.compile(
    r"\b(?:(?:ainda|still)\s+)?(?:nao|n|not|never|haven t|havent|have not|didn t|didnt|did not)\s+"
    r"(?:(?:ainda|yet|already)\s+)?(?:vi|assisti|seen|watched|watch|see|visto|assistido)"
    r"(?:\s+(?:ainda|yet|nao))?\b"
    # "the shortest one left", "a comédia que falta": what is left is what a pick is from
    # ("qual dos que sobraram é o mais curto?", "which of the ones left is shortest")
    r"|\b(?:(?:dos|das|of\s+the\s+ones|of\s+those|among\s+the\s+ones)\s+)?(?:que\s+)?"
    r"(?:falta|faltam|faltando|sobrou|sobraram|resta|restam|left|remaining)\b"
)
_NOT_SUGGESTING: Final = frozenset(
    "vi assisti terminei maratonei li watched seen saw finished read falta faltam "
    "left unwatched unseen quantos quantas how many "
    # a change to the list: "tira a comédia da minha lista", "add a comedy to my list"
    "tira tirar tire remove remover remova apaga apagar apague deleta deletar delete salva "
    "salvar salve save add adiciona adicionar adicione guarda guardar marca marcar mark "
    "desmarca unmark move mover troca trocar edita editar muda mudar".split()
)
# the words a pick is asked with, for reading them misspelled by a letter ("recomend",
# "comdy", "asisto"): of 6 letters or more ("acaso" is no "acao"), never a state word (a
# misspelled "assisti" is no "assisto")
_SUGGEST_KNOWN: Final = tuple(
    sorted(
        w
        for w in {*_ASKING, *_NOUNS, *_GENRE_WORDS, *_WATCHING, *_WANTING, "tonight", "weekend"}
        if len(w) >= 6 and w not in _NOT_SUGGESTING
    )
)
_DIMINUTIVE: Final = re.compile(r"^(?P<stem>[a-z]{2,})(?:inh|zinh)[oa]s?$")


def _as_known(word: str) -> str:
    """`word`, or the word its diminutive stands for ("curtinho" -> "curto", "levinho" ->
    "leve", "filminho" -> "filme") when that one is known."""
    m = _DIMINUTIVE.match(word)
    if m is None:
        return word
    for end in "oae":
        base = m.group("stem") + end
        if base in _GENRE_WORDS or base in _NOUNS or _SHORT.fullmatch(base):
            return base
    return word


def read_suggest(text: str) -> SuggestRequest | None:
    """The suggestion `text` asks for ("o que eu vejo hoje?", "algo curtinho pra hj"), or
    None: read by its parts, an asking word, a see verb or a type, a time, a constraint
    (short, binge, a genre, at most so long), each word one of these or filler. A message
    that asks for a pick from the user's own list ("... what do you suggest from my list?")
    or as which one ("qual você sugere?") is read past a few words of no part (a mood,
    an adjective) wherever they stand."""
    raw = text.strip()
    if not raw or len(raw) > 200 or raw.startswith("/"):
        return None
    spaced = expand_chat(_Said.of(raw).norm)  # "oq eu vejo hj?"
    max_minutes = _max_minutes(spaced)
    own_list = _OWN_LIST.search(spaced) is not None
    clauses = [
        [
            _as_known(_spelled_right(w, _SUGGEST_KNOWN, _SUGGEST_FILLER, _suggest_part))
            for w in _genre_phrases(_MINUTES.sub(" ", _UNSEEN_SAID.sub(" ", clause))).split()
        ]
        for clause in re.split(r"[,.;!?]+", expand_chat(_spaced_marks(raw)))
        if clause.strip()
    ]
    asking = wanting = some = what = watching = when = False
    item_type: ItemType | None = None
    genre_words: list[str] = []
    short = binge = False
    said_any = False
    passed: list[str] = []  # words of no part read past in a pick from the own list
    # which one is asked to be picked ("qual você sugere?", "which do you recommend?"): read past
    # a few words of no part as a pick from the own list is ("... antes de dormir")
    picked = own_list or any(
        not _WHICH_ONE.isdisjoint(words) and any(_suggest_role(w) == "ask" for w in words)
        for words in clauses
    )
    for words in clauses:
        # a time word alone does not make a clause a request: "hoje foi puxado, ..."
        known = [w for w in words if _suggest_role(w) not in (None, "when")]
        unknown = [w for w in words if _suggest_role(w) is None and w not in _SUGGEST_FILLER]
        strong = [w for w in known if _suggest_role(w) not in ("want", "some")]
        if unknown and any(w in _NOT_SUGGESTING for w in words):
            return None  # "vi duna, o que eu vejo hoje?": a mark or a count too
        if unknown and strong and not picked:
            return None  # "o que eu vejo com a Ana?": more than this reader knows
        if unknown and not strong:
            continue  # "tô mó cansado", "gotta wake up early tmrw": a clause that asks nothing
        passed += unknown
        said_any = True
        for word in words:
            role = _suggest_role(word)
            asking |= role == "ask"
            wanting |= role == "want"
            some |= role == "some"
            what |= role == "what"
            watching |= role == "watch"
            when |= role == "when"
            if role == "type" and item_type is None:
                item_type = _NOUNS[word]
            elif role == "genre":
                genre_words.append(word)
            short |= role == "short"
            binge |= role == "binge"
    if not said_any or item_type not in (None, *WATCHABLE) or len(passed) > MAX_PASSED:
        return None
    constrained = short or binge or bool(max_minutes) or bool(genre_words)
    sure = (
        asking
        or (constrained and (some or wanting or what or watching or when or item_type is not None))
        or (what and watching)
        or (watching and (wanting or when) and (some or item_type is not None or when))
    )
    if passed:  # read past words: only a request for a pick of something to watch
        sure = (
            sure
            and (asking or what or wanting)
            and (constrained or watching or item_type is not None)
        )
    if not sure:
        return None  # "algo", "filme", "quero ver": nothing this reader can pick by
    if binge and item_type is None:
        item_type = "tv_show"
    return SuggestRequest(
        type=item_type,
        max_minutes=max_minutes,
        genre_words=tuple(genre_words),
        short=short,
        binge=binge,
    )


# "da minha lista", "from my list", "on my watchlist": a pick from what the user saved
_OWN_LIST: Final = re.compile(
    r"\b(?:(?:da|na|dessa|nessa)\s+(?:minha\s+)?lista|(?:from|on|off|in)\s+(?:my|the)\s+"
    r"(?:watch\s*)?list|(?:from|on|in)\s+my\s+watchlist)\b"
)
MAX_PASSED: Final = 4
# genre names of two words, one token each ("ficção científica", "sci-fi", "feel good")
_GENRE_PHRASES: Final = re.compile(
    r"\b(?:ficcao cientifica|science fiction|sci fi|feel good|true crime)\b"
)


# not knowing what to pick asks for a pick: "não sei o que ver", "idk what to watch", "help
# me choose", "me ajuda a escolher"
_UNDECIDED: Final = re.compile(
    r"\b(?:(?:eu\s+)?nao\s+sei|(?:i\s+)?(?:don t|dont|do not)\s+know|idk|no\s+idea|"
    r"(?:i\s+)?can t\s+decide|(?:i\s+)?cant\s+decide|nao\s+consigo\s+(?:decidir|escolher)|"
    r"(?:me\s+)?ajuda(?:\s+a)?|help\s+me)"
    r"(?=\s+(?:o\s+que|oq|que|qual|what|which|escolher|decidir|pick|choose|decide)\b)"
)


def _genre_phrases(words: str) -> str:
    """`words` with each genre name of two words joined into one ("sci fi" -> "sci_fi"),
    and not knowing what to pick said as the asking word it is."""
    words = _UNDECIDED.sub(" sugere ", words)
    return _GENRE_PHRASES.sub(lambda m: m.group(0).replace(" ", "_"), words)


def _spaced_marks(raw: str) -> str:
    """`raw` folded as `_Said.norm` is, its clause marks (, . ; ! ?) kept as words' ends."""
    return " ".join(
        _spaced(part) + mark for part, mark in re.findall(r"([^,.;!?]*)([,.;!?]*)", raw)
    )


def _suggest_part(word: str) -> object:
    """What a pick's word says: its role, and the type or genre it names."""
    return (_suggest_role(word), _NOUNS.get(word), _GENRE_WORDS.get(word))


def _suggest_role(word: str) -> str | None:
    if word in _NOT_SUGGESTING:
        return None
    if word in _ASKING:
        return "ask"
    if word in _NOUNS:
        return "type"
    if word in _GENRE_WORDS:
        return "genre"
    if _SHORT.fullmatch(word):
        return "short"
    if _BINGE.fullmatch(word):
        return "binge"
    if word in _WATCHING:
        return "watch"
    if word in _WHEN_WORDS:
        return "when"
    if word in _ASKING_WHAT:
        return "what"
    if word in _SOME:
        return "some"
    if word in _WANTING:
        return "want"
    return None


def _max_minutes(words: str) -> int | None:
    m = _MINUTES.search(words)
    if m is None:
        return None
    at = "after_" if m.group("h") is None and m.group("m") is None else ""
    if m.group(f"{at}m"):
        return int(m.group(f"{at}m"))
    hours = {"uma": 1, "one": 1, "an": 1, "a": 1, "duas": 2, "two": 2, "tres": 3, "three": 3}
    h = m.group(f"{at}h")
    total = 60 * (int(h) if h.isdigit() else hours[h])
    extra = m.group(f"{at}hm")
    if extra:
        total += 30 if extra == "meia" else int(extra)
    elif _HALF.search(m.group(0)):
        total += 30
    return total


def is_short_word(word: str) -> bool:
    """Whether `word` asks for something short ("curto", "quick")."""
    return bool(_SHORT.search(_Said.of(word).norm))


def is_binge_word(word: str) -> bool:
    """Whether `word` asks for a series to binge ("maratonar", "binge")."""
    return bool(_BINGE.search(_Said.of(word).norm))


def genres_of_words(words: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The genres words name ("comédia" -> comedy; "leve" -> what a light mood stands for)."""
    found: set[str] = set()
    for word in words:
        for part in _spaced(word).split():
            key = _GENRE_WORDS.get(part) or _GENRE_NAMES.get(part)
            if key is None:
                continue
            found |= MOODS.get(key, {key})
    return frozenset(found)


def genres_of_names(names: list[str] | tuple[str, ...]) -> frozenset[str]:
    """The genres TMDB's names (in either language) are ("Ficção científica" -> scifi)."""
    found: set[str] = set()
    for name in names:
        for part in _spaced(name).replace("&", " ").split():
            if part in _GENRE_NAMES:
                found.add(_GENRE_NAMES[part])
    return frozenset(found)


# -- the message as a whole -----------------------------------------------------------------------


# a rating said of one title: "barbie (7)", "ted lasso gets a 9", "anora nota 8", "abbott no
# score"; `t` runs back to the clause's start or the last rating
_EACH_RATED: Final = re.compile(
    rf"(?P<t>[a-z0-9][^,;.()!?]*?)\s*(?:"
    rf"\(\s*(?P<a>{_SCORE})\s*(?:/\s*10)?\s*\)|"
    rf"\s(?:gets|got|get|ganha|ganhou|leva|levou|fica com|ficou com)\s+(?:(?:a|an|um|uma|nota)\s+)*"
    rf"(?P<b>{_SCORE})(?:\s*/\s*10)?|"
    rf"\s(?:nota\s+)(?P<c>{_SCORE})(?:\s*/\s*10)?|"
    rf"\s(?P<d>(?:10|[0-9]))\s*/\s*10|"
    rf"\s(?P<none>no score|sem nota|no rating|nota nenhuma|unrated))"
    r"(?=\s*(?:[,;.!]|\s(?:e|and|&)\s|$))"
)
# a clause saying another title is not seen yet: "conclave ainda não", "not dune yet"
_NOT_YET: Final = re.compile(
    r"(?:^|(?<=[,;.!]))\s*(?:(?:e|and|mas|but)\s+)?[a-z0-9][^,;.!?]*?\s(?:ainda\s+nao|ainda\s+n|"
    r"not\s+yet|nao\s+ainda)\s*(?=[,;.!]|$)"
)


def read_each_rated(text: str) -> MarkRequest | None:
    """A mark of several titles with a rating said of each ("já vi barbie (7) e anora (8)",
    "watched A and B. A gets a 9, B no score"): read without the ratings, every rating then
    one of the titles marked; None when any is not certainly one of them."""
    raw = text.strip()
    folded = fold_same_length(raw).lower()
    found = list(_EACH_RATED.finditer(folded))
    if len(found) < 2 or len(raw) > 300 or "?" in raw:
        return None  # one rating is the mark's own ("vi duna e dei nota 8")
    kept = list(raw)

    def blank(start: int, end: int) -> None:
        kept[start:end] = " " * (end - start)

    each: list[tuple[str, int | None]] = []
    after = 0  # where the last rating ended
    for m in found:
        title = re.sub(r"^(?:e|and|&)\s+", "", _spaced(m["t"]))
        said = m["a"] or m["b"] or m["c"] or m["d"]
        each.append((title, None if said is None else _rating(f"nota {said}")))
        before = folded[: m.start()].rstrip()
        starts = (
            not before
            or before[-1] in ",;.!"
            or (
                after > 0
                and re.fullmatch(r"\s*(?:[,;]|(?:e|and|&))?\s*", folded[after : m.start()])
            )
            is not None
        )
        # "A gets a 9" after A was marked: the whole clause goes; else only its rating
        whole = starts and f" {title} " in f" {_spaced(folded[: m.start()])} "
        blank(m.start() if whole else m.end("t"), m.end())
        after = m.end()
    for m in _NOT_YET.finditer(fold_same_length("".join(kept)).lower()):
        blank(m.start(), m.end())  # "conclave ainda não": nothing to change
    rest = re.sub(r"\s*([,;.!])(?:\s*[,;.!])+", r"\1", "".join(kept))
    rest = re.sub(r"\s+", " ", re.sub(r"(?:\s*[,;.!])+\s*$", "", rest)).strip()
    mark = _read_whole(rest) or read_mark_clauses(rest) or _rated_titles(rest, each)
    if not isinstance(mark, MarkRequest) or mark.state != "seen" or mark.target is not None:
        return None
    refs = [r for r in (mark.refs or _PARTS_SPLIT.split(mark.title)) if isinstance(r, str)]
    named = [_spaced(r) for r in refs if r.strip()]
    rated: list[tuple[str, int | None]] = []
    for title, rating in each:
        owners = [n for n in named if f" {title} ".endswith(f" {n} ")]
        if len(owners) != 1 or any(o == owners[0] for o, _ in rated):
            return None  # a rating of no title marked, or of one twice
        rated.append((owners[0], rating))
    if len(named) < 2:
        return None
    return replace(mark, each=tuple(rated), comment="", rating=None)


_RATED_ARTICLE: Final = re.compile(r"^(?:o|a|os|as|the)\s+", re.IGNORECASE)
_RATED_NOT_FIRST: Final = (
    _NOT_A_TITLE
    | _SUBJECTS
    | frozenset("do da de dos das pro pra para pros pras p for to of no na em in on".split())
)


def _rated_titles(rest: str, each: list[tuple[str, int | None]]) -> MarkRequest | None:
    """A rating of each title and nothing else ("o barbie nota 7 e o oppenheimer nota 9",
    "dune 8/10, dark 9/10"): a rating is said only of what was seen, so a seen mark of those
    titles, each as written; certain only when each is one item of the list (_mark_refs).
    None when any word besides the titles and their joiners is said."""
    parts = [_RATED_ARTICLE.sub("", p.strip()) for p in _PARTS_SPLIT.split(rest) if p.strip()]
    rated = [_RATED_ARTICLE.sub("", title) for title, _ in each]
    if len(parts) != len(rated) or [_spaced(p) for p in parts] != rated:
        return None
    if any(
        len(p.split()) > MAX_TITLE_WORDS or _spaced(p).split()[0] in _RATED_NOT_FIRST for p in parts
    ):
        return None  # "eu gostei do X nota 7 e do Y nota 9": words of the user's, not titles
    return MarkRequest("seen", refs=tuple(parts))


# one title and its rating, as a whole part of a list of them: "batman 9", "ruptura nota 10",
# "succession: 7/10", and the number first: "8 pro la la land", "a 9 for whiplash"
_PAIR_AFTER: Final = re.compile(
    r"^(?P<t>[a-z0-9].*?)\s*(?::|-|=)?\s+(?:(?:nota|gets|got|ganha|leva|a|an)\s+)*"
    r"(?P<n>10|[0-9])(?:\s*/\s*10)?$"
)
_PAIR_BEFORE: Final = re.compile(
    r"^(?:(?:nota|dei|gave|a|an|um)\s+)*(?P<n>10|[0-9])(?:\s*/\s*10)?\s+"
    r"(?:pro|pra|para|pros|pras|p|for|to|no|na|ao)\s+(?P<t>[a-z0-9].*)$"
)
_PAIR_PARTS: Final = re.compile(r"\s*(?:[,;.!]+|\s(?:e|and|&)\s)\s*")
_NO_TITLE: Final = frozenset("nota rating score dei gave a an o the um uma e and eu i".split())


def _pair(part: str) -> tuple[str, int] | None:
    """ "batman 9" or "8 pro la la land": the title and its rating, or None."""
    m = _PAIR_BEFORE.match(part) or _PAIR_AFTER.match(part)
    if m is None:
        return None
    title = _spaced(re.sub(r"^(?:(?:o|a|the)\s+)", "", m["t"].strip()))
    if not title or all(w in _NO_TITLE for w in title.split()) or len(title.split()) > 9:
        return None
    return title, int(m["n"])


def _rated_tail(text: str) -> MarkRequest | None:
    """A mark followed by a list of its titles, each with a rating ("seen both now! batman 9,
    the last of us 8", "já vi os dois, 8 pro X e 9 pro Y"): the mark read from the words
    before the list, with each rating; None unless the list holds two ratings or more and
    the words before it are a seen mark."""
    raw = text.strip()
    if len(raw) > 300 or "?" in raw:
        return None
    folded = fold_same_length(raw).lower()
    cuts = [(0, 0), *((m.start(), m.end()) for m in _PAIR_PARTS.finditer(folded))]
    each: list[tuple[str, int | None]] = []
    start = len(folded)
    for i in range(len(cuts) - 1, -1, -1):
        end = cuts[i + 1][0] if i + 1 < len(cuts) else len(folded)
        part = folded[cuts[i][1] : end].strip()
        if not part and i == len(cuts) - 1:
            continue  # a closing "!"
        found = _pair(part)
        if found is None:
            break
        each.insert(0, found)
        start = cuts[i][0]
    titles = [t for t, _ in each]
    if len(each) < 2 or len(set(titles)) != len(titles) or start == 0:
        return None
    mark = _read_whole(raw[:start]) or read_mark_clauses(raw[:start])
    if not isinstance(mark, MarkRequest) or mark.state != "seen" or mark.target is not None:
        return None
    if mark.rating is not None or mark.each:
        return None  # a rating said twice over: not certain which counts
    if not (mark.both or mark.every):
        refs = [r for r in (mark.refs or _PARTS_SPLIT.split(mark.title)) if isinstance(r, str)]
        named = [f" {_spaced(r)} " for r in refs if r.strip()]
        if len(named) < 2 or any(sum(f" {t} " in n for n in named) != 1 for t in titles):
            return None  # a rating of no title marked: the planner's
    return replace(mark, each=tuple(each), comment="", rating=None)


def _rated_pairs(text: str) -> MarkRequest | None:
    """Ratings alone, each said before its title ("nota 7 pro barbie e 9 pro oppenheimer",
    "a 7 for barbie and a 9 for oppenheimer"): a seen mark of each title with its rating,
    certain only when each is one item of the list (a number before "pro" / "for" is a
    rating; a number after a title may be its own: "toy story 3")."""
    raw = text.strip()
    if len(raw) > 300 or "?" in raw:
        return None
    folded = fold_same_length(raw).lower().rstrip(" .!")
    parts = [p for p in _PAIR_PARTS.split(folded) if p.strip()]
    pairs = [_PAIR_BEFORE.match(p.strip()) for p in parts]
    if len(pairs) < 2 or any(m is None for m in pairs):
        return None
    each = [_pair(m.group()) for m in pairs if m is not None]
    titles = [found[0] for found in each if found is not None]
    if len(titles) != len(parts) or len(set(titles)) != len(titles):
        return None
    rated = tuple((t, n) for t, n in (f for f in each if f is not None))
    return MarkRequest("seen", refs=tuple(titles), each=rated)


def _rated_several(text: str) -> bool:
    """Whether `text` gives two ratings or more, each after words of its own."""
    return len(_EACH_RATED.findall(fold_same_length(text.strip()).lower())) >= 2


_PARTS_SPLIT: Final = re.compile(r"\s*(?:,|;|\s(?:e|and|&)\s)\s*")


# the type a question is asked of, said first: "e dos filmes, qual eu não vi?", "and of the
# shows, which is the shortest?"
_SCOPE_FIRST: Final = re.compile(
    r"^(?:(?:e|and|ah|so|entao)\s+)?(?:dos|das|entre\s+(?:os|as)|(?:of|from|among)\s+(?:the|my)|"
    r"out\s+of\s+(?:the|my))\s+(?P<noun>filmes|series|seriados|videos|movies|films|shows|"
    r"tv\s+shows)\s*[,:;-]\s*(?P<rest>.+)$"
)


def _scoped(text: str) -> WatchRequest | None:
    """A list or pick asked of the type said first ("e dos filmes, qual eu não vi ainda?"):
    the question read without it, for that type only; None when it is no such question or
    names another type itself."""
    said = fold_same_length(text.strip()).lower()
    m = _SCOPE_FIRST.match(said)
    if m is None or len(said) > 200:
        return None
    kind = _NOUNS[m["noun"].split()[-1]]
    asked = _read_whole(text.strip()[m.start("rest") :])
    if isinstance(asked, ListRequest) and set(asked.types) >= {kind}:
        return replace(asked, types=(kind,), carried=False)
    if isinstance(asked, SuggestRequest) and asked.type in (None, kind):
        return replace(asked, type=kind)
    return None


def read(text: str) -> WatchRequest | None:
    """Whichever watchlist request `text` certainly is, or None. A message that opens with
    words saying nothing by themselves ("blz, deixa quieto.", "never mind.", "also") is read
    without them; laughter, politeness and clauses of chatter ("kkk", "pfv", "opa, me
    confundi,") are read past wherever they stand (agent/understanding/chatter.py)."""
    text = quiet(text)
    if (rated := read_each_rated(text) or _rated_tail(text) or _rated_pairs(text)) is not None:
        return rated
    if _rated_several(text):
        return None  # two ratings not certainly of two titles: the planner's
    rest = _after_opening(text)
    found = _read_whole(rest) if rest is not None else None
    if found is None:
        found = _read_whole(text)
    if found is None:
        found = read_mark_clauses(text)
    return found if found is not None else _scoped(text)


def asks_of_title(text: str) -> bool:
    """Whether `text` is a watchlist question that changes nothing and names its own title
    ("e Succession, tem onde?", "já vi Duna?"): what a remark before it cannot point into."""
    asked = read(text)
    if isinstance(asked, WhereRequest | StateQuestion):
        return bool(asked.title) and asked.target is None
    return False


def _read_whole(text: str) -> WatchRequest | None:
    return (
        read_list(text)
        or read_drop_seen(text)
        or read_only_one(text)
        or read_rating_compare(text)
        or read_where(text)
        or read_suggest(text)
        or read_state_question(text)
        or read_said(text)
        or read_mark(text)
    )


# the question, with the title in `what`
_ASK_STATE: Final = (
    # "is X still on my to-watch list?": still, or the to-watch list (bare membership, "is
    # X on my list?", is a question about saved things, not about the state)
    re.compile(
        r"^is\s+(?P<what>.+?)\s+(?:(?:still\s+(?:on|in)\s+(?:my|the)\s+(?:(?:to\s*watch|to\s*see|watch)\s*)?"
        r"list)|(?:on|in)\s+(?:my|the)\s+(?:to\s*watch|to\s*see|watch)\s*list(?:\s+still)?)$"
    ),
    re.compile(
        r"^(?:have|did)\s+i\s+(?:already\s+|ever\s+)?(?:seen|watched|see|watch|finished|finish)\s+"
        r"(?P<what>.+?)(?:\s+(?:yet|already))?$"
    ),
    re.compile(r"^do\s+i\s+still\s+(?:need|have)\s+to\s+(?:watch|see)\s+(?P<what>.+?)$"),
)
# what the user said of an item: its rating, seen date, or that nothing was kept ("que nota eu
# dei pro X?", "what did I rate X?", "o que eu achei de X?"); a question without its "?"
_ASK_OPINION: Final = (
    re.compile(
        r"^(?:(?:(?:que|qual)\s+nota|quanto\s+de\s+nota)\s+(?:que\s+)?(?:eu\s+)?(?:dei|tinha\s+dado|coloquei|botei)"
        r"|(?:qual\s+(?:foi\s+|e\s+)?(?:a\s+)?(?:minha\s+)?nota))\s+"
        r"(?:(?:pr[oa]|para\s+[oa]|a[o]?|em|no|na|de|do|da)\s+)?(?P<what>.+?)(?:\s+(?:mesmo|hein))?$"
    ),
    re.compile(
        r"^(?:(?:wh?at|how)\s+did\s+i\s+(?:rate|score)|wh?at\s+rating\s+did\s+i\s+give"
        r"(?:\s+(?:to|for))?|wh?at\s+(?:is|was|s)\s+my\s+(?:rating|score)\s+(?:for|of|on))\s+"
        r"(?P<what>.+?)(?:\s+(?:again|already|out of 10))?$"
    ),
    re.compile(
        r"^(?:(?:wh?at|how)\s+did\s+i\s+(?:think|say|feel|find)\s+(?:of|about)|"
        r"how\s+did\s+i\s+(?:like|find)|wh?at\s+did\s+i\s+(?:make|think)\s+of|"
        r"did\s+i\s+(?:like|enjoy|love))\s+"
        r"(?P<what>.+?)(?:\s+(?:again|then|back then))?$"
    ),
    re.compile(
        r"^(?:o\s+)?que\s+(?:que\s+)?(?:eu\s+)?(?:tinha\s+|tinha\s+me\s+)?(?:achei|achado|"
        r"falei|falado|disse|dito|comentei|comentado)\s+"
        r"(?:de|do|da|dos|das|sobre(?:\s+[oa])?)\s+(?P<what>.+?)(?:\s+(?:mesmo|hein|ne))?$"
    ),
)


_WONDER: Final = re.compile(
    r"^(?:sera\s+que|sabe\s+se|voce\s+sabe\s+se|vc\s+sabe\s+se|i\s+wonder\s+if|"
    r"do\s+you\s+know\s+if|(?:can|could)\s+you\s+check\s+if)\s+"
)
_OR_NOT: Final = re.compile(r"\s+(?:ou\s+nao|or\s+not)$")
# forms a statement also has ("X ainda está na lista", "já vi X", "falta ver X"): a question
# only with its "?"
_STATED_STATE: Final = (
    re.compile(
        r"^(?P<what>.+?)\s+(?:(?:ainda\s+(?:esta|ta)|(?:esta|ta)\s+ainda)\s+na\s+(?:minha\s+)?lista"
        r"(?:\s+(?:pra|para|de)\s+ver)?|(?:esta|ta)\s+na\s+(?:minha\s+)?lista\s+(?:pra|para|de)\s+ver"
        r"(?:\s+ainda)?)$"
    ),
    re.compile(
        r"^(?:eu\s+)?(?:ja\s+)?(?:vi|assisti(?:\s+a|\s+o)?|terminei)\s+(?P<what>.+?)(?:\s+ja)?$"
    ),
    re.compile(r"^(?:ainda\s+)?falta\s+(?:eu\s+)?(?:ver|assistir)\s+(?P<what>.+?)$"),
    # "e round 6 ainda tá faltando né?", "X continua pra ver?", "is X still left?"
    re.compile(
        r"^(?P<what>.+?)\s+(?:ainda\s+)?(?:ta|esta|continua|segue|fica)\s+(?:ainda\s+)?"
        r"(?:faltando|pendente|(?:pra|para)\s+ver)(?:\s+(?:ver|ainda|ne|ne\s+nao))*$"
    ),
    re.compile(r"^(?:is|are)\s+(?P<what>.+?)\s+still\s+(?:left|unwatched|unseen|to\s+watch)$"),
    re.compile(
        r"^(?:i\s+)?(?:already\s+)?(?:saw|watched|seen|finished)\s+(?P<what>.+?)(?:\s+already)?$"
    ),
    # "já marquei X como visto?", "X tá marcado como visto?", "is X marked as watched?"
    re.compile(r"^(?:eu\s+)?(?:ja\s+)?marquei\s+(?P<what>.+?)\s+como\s+(?:vist[oa]|assistid[oa])$"),
    re.compile(
        r"^(?P<what>.+?)\s+(?:ta|esta|ja\s+ta|ja\s+esta)\s+(?:marcad[oa]\s+)?como\s+"
        r"(?:vist[oa]|assistid[oa])$"
    ),
    re.compile(
        r"^(?:is|did\s+i\s+mark)\s+(?P<what>.+?)\s+(?:marked\s+)?(?:as\s+)?(?:seen|watched)$"
    ),
)


def read_state_question(text: str) -> StateQuestion | None:
    """The title `text` asks the state of ("já vi Duna?", "is Dune on my list?") or what the
    user said of it ("o que eu achei de X?"), or None. A question said as a statement ("já vi
    Duna", a mark) needs its "?"; one that opens with a question's own words ("what rating did
    I give Dune") does not."""
    raw = re.sub(r"\?+$", "?", text.strip())  # "já vi o urso??"
    if len(raw) > 200 or "?" in raw[:-1]:
        return None
    said = _Said.of(raw)
    norm = said.norm
    opening = re.match(r"(?:e|and|so|entao)\s+", norm)  # "e o que eu achei de X?"
    at = opening.end() if opening is not None else 0
    # "será que eu já vi X?", "X ou não?": the question said around it
    lead = _WONDER.match(norm[at:])
    at += lead.end() if lead is not None else 0
    tail = _OR_NOT.search(norm)
    norm = " " * at + norm[at : tail.start() if tail is not None else len(norm)]
    for pattern in (*_ASK_STATE, *_ASK_OPINION, *(_STATED_STATE if raw.endswith("?") else ())):
        m = pattern.match(norm[at:])
        if m is None:
            continue
        start, end = at + m.start("what"), at + m.end("what")
        obj = norm[start:end]
        if _target(obj) is not None or obj in _NOUNS or _when_inside(obj) is not None:
            return None  # "já vi esse?", "já vi duna ontem?": the planner's
        if set(obj.split()) <= _SAID_PERSON | _SAID_GIVING:
            return None  # "qual nota eu coloquei?": no title, the question's own words
        named = _typed_title(said, obj, start, end)
        if named is None or _spaced(named[0]) in _DAYS:
            return None
        return StateQuestion(*named, opinion=pattern in _ASK_OPINION)
    return None


# "what did I say about X?" read by its parts: a question word, the user (or a first-person
# verb), a word of saying, thinking or rating, then what it was said of
_SAID_ASKING: Final = frozenset(
    "que qual quais quanto quanta como what wat wht whats how which did do".split()
)
_SAID_OPINION: Final = frozenset(
    "achei achado falei falado disse dito comentei comentado pensei pensado escrevi escrito "
    "nota notas avaliei avaliado opiniao "
    "say said think thought feel felt write wrote rate rated rating score scored "
    "like liked enjoy enjoyed find found opinion review".split()
)
# giving is a rating only beside a rating's word: "quanto eu dei pro João?" is money
_SAID_GIVING: Final = frozenset("dei dado coloquei botei give gave".split())
_SAID_RATING: Final = frozenset("nota notas rating score".split())
_SAID_PERSON: Final = frozenset(
    "eu i me mim my minha meu achei falei disse comentei pensei escrevi dei avaliei coloquei "
    "botei".split()
)
# frame words around the question: "você lembra o que eu...", "do you remember what I..."
_SAID_FRAME: Final = frozenset(
    "o a e foi era is was s tinha had have has mesmo entao you voce vc tu lembra lembro "
    "remember recall sabe know diz fala tell again".split()
)
_SAID_OF: Final = frozenset(
    "de do da dos das sobre pro pra pros pras para ao no na em about of for to on".split()
)
# said TO someone is not said OF an item: "o que eu falei pro João?" (a rating is given to it)
_SAID_TO: Final = frozenset("pro pra pros pras para ao to for".split())
_SAID_DIRECT: Final = frozenset(
    "give gave rate rated score scored like liked enjoy enjoyed".split()
)
_SAID_TAIL: Final = frozenset(
    "mesmo again hein ne then back ai la lol haha rs pls please pfv agora out 10 de novo".split()
)
_SAID_OPENING: Final = frozenset("e and so ah oh hey btw entao ok mas but alias tipo hmm".split())
_SAID_CLAUSES: Final = re.compile(r"([?!.;,]+)")
_OTHER_REQUEST: Final = re.compile(
    r"\b(?:salv|anot|sav|add|adicion|guard|lembr|remind|muda|chang|marc|mark|list|mostr|show"
    r"|busc|procur|find|search|refaz|redo|apag|delet|remov|tira|desfaz|undo)\w*"
)


_QUESTION_WORDS: Final = frozenset(
    "onde aonde where what whats qual quais quando when how como quem who which why porque "
    "pq quanto quantos quantas tem ta is are do does did can could".split()
)


def is_aside(said: str) -> bool:
    """Whether `said`, said beside a question, is a short remark that asks nothing itself
    ("minha irmã quer saber", "my sister wants to see it"): no question, no request."""
    words = fold(said).split()
    return (
        "?" not in said
        and len(words) <= 8
        and (not words or words[0] not in _QUESTION_WORDS)
        and (len(words) <= 1 or _OTHER_REQUEST.search(" ".join(words)) is None)
    )


def read_said(text: str) -> StateQuestion | None:
    """What the user said of one item, asked by its parts ("o que eu tinha achado do X
    mesmo? minha irmã quer saber", "what did i say about X again?", "qual nota eu dei pra
    ele?"): the title as written, or the item just talked about for a pronoun; None unless
    one clause is that question and any other is a short aside asking for nothing."""
    raw = text.strip()
    if not raw or len(raw) > 200:
        return None
    found: StateQuestion | None = None
    rated = not _SAID_RATING.isdisjoint(fold(raw).split())  # "quanto eu dei pra ela, de nota?"
    parts = _SAID_CLAUSES.split(raw)
    for clause, mark in zip(parts[::2], [*parts[1::2], ""], strict=True):
        if not clause.strip():
            continue
        asked = _said_clause(clause, rated=rated)
        if asked is not None and found is None:
            found = asked
            continue
        if asked is not None and found is not None and asked.target == Target("pronoun"):
            # "o que eu achei de X? e que nota dei?": the same item asked twice over
            continue
        words = fold(clause).split()
        # a second question ("... ? onde passa?"), not a word or two asked after ("de nota?")
        question = "?" in mark and (len(words) > 2 or not _QUESTION_WORDS.isdisjoint(words))
        if asked is not None or question or not is_aside(clause):
            return None  # two questions, or a request besides: the planner's
    return found


def _said_clause(clause: str, *, rated: bool) -> StateQuestion | None:
    said = _Said.of(clause)
    words = said.norm.split()
    at = 0
    while at < len(words) and words[at] in _SAID_OPENING:
        at += 1
    asking = person = opinion = gave = said_of = False
    start = -1
    for i in range(at, len(words)):
        word = words[i]
        known = (
            word in _SAID_ASKING
            or word in _SAID_OPINION
            or word in _SAID_PERSON
            or word in _SAID_GIVING
        )
        if opinion and word in _SAID_OF and (word not in _SAID_TO or gave or rated):
            start = i + 1  # "... achei do X", "... said about X", "... dei pra ele"
            break
        if not known and word not in _SAID_FRAME:
            if opinion and words[i - 1] in _SAID_DIRECT:
                start = i  # "what rating did i give X"
            break
        asking = asking or (word in _SAID_ASKING and not opinion)
        person = person or word in _SAID_PERSON
        said_of = said_of or word in _SAID_OPINION or (rated and word in _SAID_GIVING)
        opinion = opinion or word in _SAID_OPINION or word in _SAID_GIVING
        gave = gave or word in _SAID_GIVING
    else:
        if rated and asking and person and opinion and words[-1] in _SAID_GIVING:
            # "e que nota eu dei?": the rating of the item just talked about
            return StateQuestion("", None, opinion=True, target=Target("pronoun"))
    if start < 0 or not (asking and person and opinion):
        return None
    end = len(words)
    while end > start and words[end - 1] in _SAID_TAIL:
        end -= 1
    obj = " ".join(words[start:end])
    if not obj or end - start > MAX_TITLE_WORDS or obj in _DAYS or obj in _NOUNS:
        return None
    if not said_of:  # "quanto eu dei pra X?": a rating only if X is one item of the list
        if _target(obj) is not None or obj.split()[0] in _SAID_PERSON | _SAID_GIVING:
            return None
    elif (target := _target(obj)) is not None:
        return StateQuestion("", target.type, opinion=True, target=target)
    elif obj in ("dele", "dela", "disso", "desse", "dessa", "him", "her"):
        return StateQuestion("", None, opinion=True, target=Target("pronoun"))
    offsets = [m.start() for m in re.finditer(r"\S+", said.norm)]
    begin, finish = offsets[start], offsets[end - 1] + len(words[end - 1])
    typed = _TYPED.match(obj)
    item_type = _NOUNS[typed.group("noun")] if typed is not None else None
    if typed is not None:
        begin += typed.start("rest")
    title = said.raw[said.at[begin] : said.at[finish - 1] + 1].strip()
    return StateQuestion(title, item_type, opinion=True, anchored=not said_of) if title else None


# words that say nothing by themselves before a request: a dismissal, an interjection, "also"
_DISCOURSE: Final = re.compile(
    r"^\s*(?:(?:deixa (?:quieto|pra la|para la|isso)|esquece(?: isso)?|nao importa|tudo bem|"
    r"ta bom|ah ta|ah ok|beleza|blz|ok|okay|certo|tranquilo|entendi|hmm+|pera|perai|opa|ops|"
    r"bom|enfim|alem disso|tambem|e tambem|never ?mind|forget (?:it|that)|whatever|"
    r"fine|cool|alright|all right|got it|i see|oh|ah|well|anyway|also|and also)\b[\s,.;:!-]*|"
    # approval of what was just shown, in a clause of its own: "nice, where can I stream it?"
    r"(?:nice|great|awesome|perfect|sounds good|perfeito|legal|massa|otimo|top|boa|demais)"
    r"\s*[,.;:!-][\s,.;:!-]*)+"
)


def _after_opening(text: str) -> str | None:
    """`text` after its opening words (as written), or None when it has none or only them."""
    if len(text) > 300:
        return None
    m = _DISCOURSE.match(fold_same_length(text))
    if m is None or not text[m.end() :].strip():
        return None
    return text[m.end() :]


# -- helpers ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Said:
    """A message folded for matching (lowercase, no accents, punctuation as single spaces;
    "/" kept for "8/10") and where each character of it came from in the message."""

    raw: str
    norm: str
    at: tuple[int, ...]  # at[i]: the index in `raw` of norm[i]

    @classmethod
    def of(cls, raw: str) -> _Said:
        folded = fold_same_length(raw)
        chars: list[str] = []
        at: list[int] = []
        for i, ch in enumerate(folded):
            keep = ch.isalnum() or ch in "/_"
            if not keep and (not chars or chars[-1] == " "):
                continue
            chars.append(ch if keep else " ")
            at.append(i)
        while chars and chars[-1] == " ":
            chars.pop()
            at.pop()
        return cls(raw, *_spelled_out("".join(chars), at))

    def title(self, start: int, end: int) -> str | None:
        """The title as written where norm[start:end] is, or None when it is no title."""
        piece = self.norm[start:end]
        lead = len(piece) - len(piece.lstrip())
        start, end = start + lead, start + len(piece.rstrip())
        if start >= end:
            return None
        title = self.raw[self.at[start] : self.at[end - 1] + 1].strip()
        words = self.norm[start:end].split()
        if not words or len(words) > MAX_TITLE_WORDS or words[0] in _NOT_A_TITLE:
            return None
        if (
            len(words) > 1
            and words[0] in ("o", "a", "os", "as", "the")
            and (words[1] in _NOT_A_TITLE or words[1] in _NOUNS)
        ):
            return None  # "vi o trailer de Duna", "vi o filme" (no title after the noun)
        folded = " ".join(words)
        if folded in _DAYS or folded in _NOUNS:
            return None
        return title


def _spelled_out(norm: str, at: list[int]) -> tuple[str, tuple[int, ...]]:
    """`norm` with chat shorthand spelled out ("onde q" -> "onde que", "hj" -> "hoje"), each
    character of an expansion pointing into the shorthand it replaces."""
    chars: list[str] = []
    where: list[int] = []
    for m in re.finditer(r"\S+|\s+", norm):
        word = m.group()
        spelled = CHAT_WORDS.get(word)
        if spelled is None:
            chars.append(word)
            where += at[m.start() : m.end()]
            continue
        source = at[m.start() : m.end()]
        chars.append(spelled)
        where += [source[min(j, len(source) - 1)] for j in range(len(spelled))]
    return "".join(chars), tuple(where)


def _spaced(raw: str) -> str:
    """`raw` folded for matching, as `_Said.norm`."""
    return _Said.of(raw).norm


_CUT: Final = re.compile(
    r"\s*[,;!.]+\s*|\s+-\s+|\s+(?=(?:e|and)\s+(?:eu\s+)?(?:adorei|amei|gostei|curti|odiei|"
    r"detestei|achei|loved|liked|hated|enjoyed)\b)|\s+(?="
    + _COMMENT
    + r")|\s+(?=(?:mas|but|porem)\s)"
)


def _head_and_tail(raw: str, said: _Said) -> tuple[int, str]:
    """Where the request ends in `said.norm`, and what follows it (folded, punctuation kept)
    after a comma, a dash or before "e adorei", if anything does."""
    folded = fold_same_length(raw)
    m = _CUT.search(folded)
    if m is None:
        return len(said.norm), ""
    end = next((i for i, pos in enumerate(said.at) if pos >= m.start()), len(said.norm))
    return end, folded[m.end() :]


def _is_comment(part: str) -> bool:
    """ "e chorei muito", "and cried": what the user did besides, not another title."""
    if re.match(r"(?:mas|but|porem)\s", part):
        return True  # "mas não gostei", "but it was long"
    m = re.match(_COMMENT, part)
    return (
        m is not None and re.match(rf"(?:e|and)\s+(?:eu\s+|i\s+)?(?:{_SEE_VERBS})\b", part) is None
    )


MAX_COMMENT: Final = 200


def _comment(tail: str, raw_tail: str) -> str:
    """What the user felt, as written, of the clauses after a mark ("achei sensacional",
    "loved it"); "" when none is a feeling or a comment of their own."""
    kept: list[str] = []
    for m in re.finditer(r"[^,;!.]+", tail):
        part = _Said.of(m.group()).norm
        if part and part not in _DAYS and _rating(part) is None:
            # a feeling, a clause of the user's own, or a short one said of the title ("the
            # music scene was insane", "final absurdo"); never when or where it was seen
            said_of = _aside(part) and not _WHEN_OR_WHERE.match(part) and len(part) > 3
            if re.match(_FEELING, part) or _is_comment(part) or said_of:
                kept.append(raw_tail[m.start() : m.end()].strip(" -"))
    return ", ".join(k for k in kept if k)[:MAX_COMMENT]


_WHEN_OR_WHERE: Final = re.compile(
    r"(?:com|no|na|nos|nas|em|pelo|pela|num|numa|de novo|outra vez|faz|ha|fds|with|at|in|on|"
    r"over|during|this|last|again|ontem|hoje|anteontem|yesterday|today|tonight|btw|tipo|"
    r"sem nota|no score|no rating)\b"
)


def _tail_facts(tail: str) -> tuple[int | None, int | None]:
    """(days ago, rating) from what follows the request; days None when it says more."""
    days = 0
    rating: int | None = None
    for piece in re.split(r"[,;!.]+|\s-\s", tail):
        part = _Said.of(piece).norm
        if not part:
            continue
        if part in _DAYS:
            days = _DAYS[part]
            continue
        found = _when_inside(part)
        if found is not None and re.match(_FEELING, found[0]):
            days = found[1]  # "adorei, assisti ontem" is not read; "amei ontem" is a feeling
            continue
        score = _rating(part)
        if score is not None:
            rating = score
            continue
        if re.match(_FEELING, part) or _is_comment(part) or _aside(part):
            continue
        return None, None
    return days, rating


# in a clause after the mark, what makes it more than a comment: a request, a "not", another
# viewing ("chorei demais", "achei sensacional", "masterpiece", "q final" are comments)
_MORE_THAN_COMMENT: Final = re.compile(
    r"\b(?:salva|salve|guarda|anota|apaga|deleta|remove|tira|marca|desmarca|lembra|lista|mostra"
    r"|procura|busca|save|add|delete|mark|unmark|remind|list|show|find|search|nao|n|not|never"
    r"|nunca|ainda|yet|also|tambem|tb|too|e|and|onde|where|qual|which|quanto|quantos|how)\b"
)


def _aside(part: str) -> bool:
    """A short clause said about the title just marked, asking nothing and naming no other."""
    return (
        len(part.split()) <= 6
        and not _MORE_THAN_COMMENT.search(part)
        and not _REQUEST.search(part)
        and (re.search(_SEE_VERBS, part) is None)
    )


# a mark written into a title: "Whiplash (2014) - Nota 8", "Nota 9.00", "Duna 8/10", "Dark (visto)"
_MARK_IN_TITLE: Final = re.compile(
    r"(?:(?:^|[\s\-–—:|,;(\[]+)(?:(?:nota|rating|rated|score)\s*:?\s*\d{1,2}(?:[.,]\d{1,2})?"
    r"(?:\s*/\s*10)?|\d{1,2}(?:[.,]\d{1,2})?\s*/\s*10)|\s*[\-–—:|,;(\[]\s*(?:vist[oa]|assistid[oa]|"
    r"seen|watched|lid[oa]|read|done|feito)|\s*(?:\u2713|\u2714\ufe0f?|\u2705))[\s)\].!]*$",
    re.IGNORECASE,
)


def marks_a_title(title: str) -> bool:
    """Whether `title` ends in a rating or a seen mark ("Whiplash - Nota 8", "Dark (visto)")."""
    return _MARK_IN_TITLE.search(title[-200:]) is not None


def said_rating(text: str) -> int | None:
    """The 0-10 rating `text` gives as a number ("nota 8", "8/10", "nota dez"), or None:
    "adorei" / "loved it" is no number."""
    return _rating(_Said.of(text).norm)


_SEEING: Final = re.compile(
    rf"\b(?:{_SEE_VERBS}|{_READ_VERBS}|{_SEEN_WORDS}|desmarca\w*|unmark\w*)\b|\bnota\s+{_SCORE}\b"
)


def speaks_of_seeing(text: str) -> bool:
    """Whether `text` says something was seen, read or rated ("Duna eu vi", "nota 8",
    "unmark it"), so marking may be what it asks."""
    return _SEEING.search(_Said.of(text[:300]).norm) is not None


def _rating(part: str) -> int | None:
    m = _RATING.search(f" {part} ")
    if m is None:
        return None
    said = m.group("a") or m.group("b") or m.group("c")
    value = _NUMBER_WORDS.get(said)
    if value is None:
        value = round(float(said.replace(",", ".")))
    return value if 0 <= value <= 10 else None


def _rating_inside(head: str) -> tuple[str, int | None]:
    """A rating at the end of the request itself ("vi duna nota 8"), cut from it."""
    m = re.search(
        r"\s+(?:(?:nota|dei nota|rated|rating)\s+(?:" + _SCORE + r")(?:\s*(?:/|de)\s*10)?|"
        r"(?:10|[0-9])\s*/\s*10)$",
        head,
    )
    if m is None:
        return head, None
    kept = re.sub(r"\s+(?:e|and)$", "", head[: m.start()])  # "vi duna e dei nota 8"
    return kept, _rating(m.group(0))


def _when_inside(head: str) -> tuple[str, int] | None:
    """Time words (and "tb", "finally") at the end of `head`, cut: ("vi duna", 1) from
    "vi duna ontem tb"; None when there are none."""
    days: int | None = None
    while (m := re.search(rf"\s+(?:{_DAY})$", head)) is not None:
        head, days = head[: m.start()], max(days or 0, _DAYS[m.group(0).strip()])
    return None if days is None else (head, days)


def days_named(words: str) -> int:
    """How many days ago the time words anywhere in `words` say ("no cinema ontem" -> 1)."""
    spaced = f" {_spaced(words)} "
    return max((n for day, n in _DAYS.items() if f" {day} " in spaced), default=0)
