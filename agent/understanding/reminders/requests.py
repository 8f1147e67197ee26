"""Reminder and undo requests read in code (DESIGN 9.3, 9.4): PT and EN, 0 model calls.

A message asks for a reminder when it has a reminder verb ("me lembra", "remind me",
"lembrete", ...) AND names a time (or a period to ask about), or, as people type in chat,
when it is a time (a clock, an amount, a repetition, a day with a part of it or a period)
and one activity, with no other request, question or statement in it ("amanhã 15h
dentista", "todo dia 7h30 tomar o remédio"); otherwise it stays what it was (a note to
save, a question, the planner's). The time is read by the grammar of this
package (`reading`), put on the calendar in the user's zone (`placing`), and every word
of it is cut from what is left: the thing to remember, with its accents.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Final, Literal

from rapidfuzz.distance import OSA

from agent.understanding.reminders.asks import SAME_TIME, read_ask, read_retime
from agent.understanding.reminders.clocks import Clock
from agent.understanding.reminders.dates import Date, DayOffset, NthWeekday
from agent.understanding.reminders.holidays import Country
from agent.understanding.reminders.lexicon import Tok, fold_same_length, text_at, tokenize
from agent.understanding.reminders.placing import (
    Ask,
    AskReason,
    Due,
    Past,
    later_today_options,
    place,
)
from agent.understanding.reminders.reading import When, read_when
from agent.understanding.reminders.recurring import AskStart, read_recurring
from agent.understanding.reminders.relative import Relative
from agent.understanding.reminders.repeating import read_repeat, repeat_cue, vague_repeat
from agent.understanding.reminders.rules import Rule
from agent.understanding.reminders.shifting import read_shift
from agent.understanding.vocabulary import ANOTHER_REQUEST

RouteName = Literal["remind", "remind_or_note", "reminders", "unremind", "undo", "redo"]

# politeness before the request: "por favor", "oi", "vc pode", "could you"
_FILLER = (
    r"(?:(?:por\s+favor|please|pls|plz|pf|pfv|oi+|ola+|hey|ei|hi+|hello+|lembra|pode|podes|poderia"
    # a continuation's opening ("e me lembra", "ah, and remind me", "also remind me")
    r"|e|and|also|ah|oh|ok|okay|entao|tb|tbm|tambem"
    r"|consegue|bo[am]+\s+(?:dia+|tarde+|noite+)|good\s+(?:morning|afternoon|evening)"
    r"|(?:vc|voce|tu)(?=\s+(?:me|pode|podes|poderia|consegue)\b)|(?:can|could|would|will)\s+you)"
    r"[\s,!]+)*"
)
_TRIGGER = re.compile(
    r"^\s*" + _FILLER + r"(?:/remind\b|/lembrete\b|me\s+lembr(?:[ae]|ar)\b|lembr[ae][\s-]*me\b"
    r"|me\s+avis[ae]\b|avis[ae][\s-]*me\b|remind\s+me\b|set\s+(?:a\s+)?reminder\b"
    r"|(?:cri[ae]r?|coloca|poe|bota)\s+(?:um\s+)?lembrete\b|lembrete\b|reminder\b"
    r"|lembr[ae]r?(?:\s+eu)?\b|don'?t\s+let\s+me\s+forget\b|nao\s+me\s+deixa\s+esquecer\b"
    r"|rmd\s+me\b)[\s:,-]*"
)
_TRIGGER_INSIDE = re.compile(
    r"\b(?:me\s+lembr(?:[ae]|ar)|lembr[ae][\s-]*me|remind\s+me|me\s+avis[ae])\b[\s:,-]*"
)
_POLITE_BEFORE = re.compile(_FILLER + r"$")
_SUBJECTS = frozenset({"isso", "isto", "esse", "essa", "that", "this", "it"})
_LIST = re.compile(
    r"^\s*" + _FILLER + r"(?:/reminders|/lembretes|(?:quais\s+(?:sao\s+)?(?:os\s+)?)?"
    r"(?:(?:lista|listar|mostra|mostrar|ver|veja)\s+)?(?:os\s+|meus\s+|os\s+meus\s+)?lembretes"
    r"(?:\s+(?:abertos|pendentes|agendados|ativos))?|(?:list|show|see)?\s*(?:me\s+)?"
    r"(?:my|the|all)?\s*(?:open\s+|pending\s+|upcoming\s+)?reminders"
    r"|what\s+(?:are\s+)?my\s+reminders|que\s+lembretes\s+(?:eu\s+)?tenho)\s*[?.!]*\s*$"
)
_CANCEL = re.compile(
    r"^\s*" + _FILLER + r"(?:cancel[ae]r?|apag[ae]r?|remov[ae]r?|exclui[r]?|tira|deleta"
    r"|cancel|delete|remove)\s+(?:o\s+|a\s+|the\s+|my\s+|meu\s+)?(?:lembrete|reminder)\s*"
    r"(?:n(?:umero|o|º|°)?\.?\s*|#|number\s+)?(.*?)\s*[.!]*\s*$"
)
# what comes before «desfaz» / «refaz»: interjections; "não"/"no" only as a clause of its own
# ("não desfaz" is no undo)
_INTERJECTIONS = (
    # a letter held long is the same word ("aaah", "opaaa", "eitaaa", "nãooo")
    # "ai não, refaz": «ai» said as a sigh
    r"^\s*(?:(?:wait|o+ps+|o+o+ps+|whoops|opa+|a+h+|a+i+|o+h+|eita+|hmm+|ugh|argh|pera+|espera|ih|xi|vixe|vish"
    r"|putz|aff|nossa|shoot|dang|nah|actually|na\s+verdade|na\s+vdd|pode|podes|poderia|consegue"
    r"|can\s+you|could\s+you|please|pls|por\s+favor"
    # a change of mind said, and laughter: "aff mudei de ideia kkkk desfaz"
    r"|mudei\s+de\s+ideia|changed\s+my\s+mind|pensando\s+bem|on\s+second\s+thought"
    r"|k{3,}|(?:ha){2,}h?|(?:rs){2,}|lol)[\s,!.]+"
    # English "no" after an interjection is one too: "wait no undo that", "oh no undo it"
    r"|(?:no+|nao+)\s*[,!.]+\s*|(?<=\w[\s,!.])no\s+(?=undo\b))*"
)
# what may follow the verb and still name only the last effect: pointing words, the effect
# said as a noun ("a mudança", "the edit", "o que eu fiz"), "again"/"too", politeness
# the effect said as an edit ("desfaz a mudança", "undo the edit"): the last edit, not any effect
_EDITS = r"mudanca|change|edicao|edit|alteracao|troca"
_LAST_EFFECT = (
    r"(?:\s+(?:isso|isto|esse|essa|este|esta|o|a|ai|ae|la|ultim[oa]|last|that|it|the|this|one"
    r"|coisa|thing|pfv|pf|pls|please|por\s+favor|agora|now|ja|rapidinho|de\s+novo|again"
    r"|mais\s+uma?(?:\s+vez)?|one\s+more(?:\s+time)?|too|also|tb|tbm|tambem|"
    + _EDITS
    + r"|aquilo|acao|action|step|passo|my|minha|meu|undo|desfeito"
    r"|(?:como|do\s+jeito\s+que|ao\s+que|pro\s+que)\s+(?:tava|estava|era)(?:\s+antes)?"
    r"|(?:o\s+|what\s+)?(?:q|que)?\s*(?:eu\s+|i\s+)?"
    r"(?:acabei\s+de\s+fazer|fiz|desfiz|just\s+did|did|undid)))*"
)
# «desfaz» with what it names ("desfaz esse último", "undo the last one", "desfaz pfv")
_UNDO_HEAD = (
    _INTERJECTIONS
    + r"(?:/undo|/desfazer|desfaz(?:er)?|desfaca|undo|volta\s+atras|ctrl\s*[+-]?\s*z"
    + r"|revert|take\s+(?:that|it)\s+back"
    # "volta" back to how it was ("volta como tava", "não, volta, deixa como filme msm"), or
    # with only a word pointing at what was just done ("volta isso", "volta aquilo")
    + r"|volta(?=\s+(?:isso|isto|aquilo)\b)"
    + r"|volta(?=\s*[,.!]+\s*deix[ae]\b|\s+(?:como|do\s+jeito\s+que|ao\s+que|pro\s+que)\s+"
    + r"(?:tava|estava|era)\b)"
    # a cancel of what the user just did is its undo ("cancela o que eu fiz")
    + r"|(?:cancel[ae]?|volta)(?=\s+(?:o\s+|what\s+)?(?:q|que)?\s*(?:eu|i)\s+"
    + r"(?:acabei\s+de\s+fazer|fiz|just\s+did|did)\s*[,.!]*\s*$))"
    + _LAST_EFFECT
)
_UNDO = re.compile(_UNDO_HEAD + r"\s*[.!]*\s*$")
_POLITE_QUESTION = re.compile(
    r"^\s*(?:pode|podes|poderia|consegue|can\s+you|could\s+you)\b.*\?\s*$"
)
# «desfaz» and why: "desfaz pfv, minha irmã q vai levar", "undo that, wrong one"; a reason
# asks nothing more, so anything that reads as another request or takes the undo back
# ("desfaz, não, deixa") is the planner's
_UNDO_BECAUSE = re.compile(_UNDO_HEAD + r"\s*[,;:.!-]+\s*(?P<why>\S.*)$")
_NOT_A_REASON = re.compile(
    # "lembrete" / "reminder" as a noun may say why ("I'll just go without a reminder")
    r"\b(?:salv|anot|apag|lembr(?!etes?\b)|remind(?!ers?\b)|set\b|cri[ae]r?\b|mud[ae]|troc|add"
    r"|save|delet|remov|cancel|marc|mark|bot[ae]"
    r"|coloc|adicion|guard|edit|renome|renam|list|mostr|show|desfaz|undo|refaz|redo"
    # "deixa 8h msm" keeps the old value (a reason); "deixa assim (mesmo)" keeps it all (no undo)
    r"|deix[ae](?:\s+(?:assim|quieto|como\s+(?:esta|ta))\b"
    r"|(?![^,.;]*\b(?:msm|mesmo|(?:como|do\s+jeito\s+que)\s+(?:tava|estava|era|antes))))"
    # a "não," of its own takes the request back ("desfaz, não, ...")
    r"|(?:nao|no)\s*(?:[,.;!]|$)"
    # "não precisa" takes the request back; "não precisava" says why ("a nota tb não precisava")
    r"|esquec|never\s*mind|nao\s+(?:precisa|faz|espera)\b|don'?t\s+(?:undo|bother)|no\s+wait"
    r"|keep|mantem|manter|mantenha|cancel)",
)
# «desfaz» naming what it undoes (issue 43): the last save ("desfaz o último que eu salvei",
# "undo my last save") or what it was about ("desfaz o do Thor", "undo the passport one");
# a clause of its own after others that ask nothing ("não, não apaga. desfaz o ...")
_UNDO_NAMED = re.compile(
    r"^\s*(?:(?:e|and|so|just|then|entao|mas|but|agora|now|pode|please|pls)\s+)*"
    r"(?:desfaz(?:er)?|desfaca|undo)\s+(?P<target>.+?)"
    r"(?:\s+(?:tb|tbm|tambem|too|also|pfv|pf|pls|please|por\s+favor))*\s*[.!]*\s*$"
)
_SAVED_WORD = r"(?:salvei|salvo|save|saved|added|adicionei|guardei|anotei|botei|coloquei)"
_LAST_SAVE = re.compile(
    r"^(?:(?:o|a|the|my|meu|minha)\s+)?(?:ultim[oa]|last)\s+(?:(?:coisa|thing|item|one)\s+)?"
    r"(?:(?:q|que|that|which)\s+)?(?:(?:eu|i)\s+)?" + _SAVED_WORD + r"$"
    r"|^(?:(?:o|what)\s+)?(?:q|que|what)?\s*(?:(?:eu|i)\s+)?"
    + _SAVED_WORD
    + r"\s+(?:por\s+)?(?:ultimo|last)$"
)
_ABOUT = re.compile(
    r"^(?:(?:o|a|os|as|the)\s+)?(?:lembrete\s+|reminder\s+|item\s+)?"
    r"(?:d[oa]s?|de|sobre|about|for|of)\s+(?P<about>\S.*)$"
    r"|^the\s+(?P<one>\S.*?)\s+(?:one|reminder|thing)$"
)


@dataclass(frozen=True, slots=True)
class UndoTarget:
    """What a «desfaz» names: its last save (`saves`), or an effect on something `about`."""

    saves: bool = False
    about: str = ""
    edits: bool = False  # "desfaz a mudança": the last edit (an item's or a reminder's)


def undo_target(args: str) -> UndoTarget | None:
    """The target `route` kept in an undo's arguments, or None (the last effect, whatever it was)."""
    folded = fold_same_length(args).strip()
    if not folded:
        return None
    if re.fullmatch(_LAST_EFFECT, " " + folded):
        return UndoTarget(edits=True) if re.search(rf"\b(?:{_EDITS})\b", folded) else None
    if _LAST_SAVE.match(folded):
        return UndoTarget(saves=True)
    about = _ABOUT.match(folded)
    if about is None:
        return None
    words = (about.group("about") or about.group("one") or "").strip(" ,.!")
    return UndoTarget(about=words) if re.search(r"[^\W\d_]{2}", words) else None


def _named_undo(folded: str) -> str | None:
    """The target words of a «desfaz» that names one, alone or between clauses that ask
    nothing else ("não, não apaga. desfaz o último que eu salvei", "desfaz o da Maria, ela
    cancelou": the reason is no part of the target), or None."""
    clauses = [c for c in re.split(r"[,.;!]+", folded) if c.strip()]
    for start in range(len(clauses)):
        named = _UNDO_NAMED.match(clauses[start])
        if named is None:
            continue
        around = clauses[:start] + clauses[start + 1 :]
        if around and ANOTHER_REQUEST.search(" ".join(around)):
            return None
        target = named.group("target")
        return target if undo_target(target) is not None else None
    return None


_REDO_HEAD = _INTERJECTIONS + r"(?:/redo|/refazer|refaz(?:er)?|refaca|redo)" + _LAST_EFFECT
_REDO = re.compile(_REDO_HEAD + r"\s*[.!]*\s*$")
_REDO_BECAUSE = re.compile(_REDO_HEAD + r"\s*[,;:.!-]+\s*(?P<why>\S.*)$")
# what the user did, said as why ("apaguei sem querer", "deleted it by mistake"): no request
_DID: Final = re.compile(
    # what was done, not asked: "apaguei", "deleted it", "nem queria ter salvo", "should've saved"
    r"\b[a-z]+(?:ei|ed)\b|\b(?:ter|tinha|tenho|have|had|has|ve)\s+[a-z]+\b"
)


def only_says_why(why: str) -> bool:
    """Whether the words after an undo or a redo only say why (no request, no question)."""
    return "?" not in why and not _NOT_A_REASON.search(_DID.sub(" ", why))


_PT_GLUE = r"(?:de|do|da|que|pra|para|pro|sobre|e)\b"
_EN_GLUE = r"(?:to|about|that|of|for|and)\b"
# "de", "pra mim:", "to", "that": glue words of one language ("to do the exam" keeps "do")
_LEADING_GLUE = re.compile(
    r"^(?:[\s,:;.-]|(?:pra|para|pro)\s+mim\b|for\s+me\b|lembrar\b|remember\b"
    r"|(?:tamb[eé]m|tbm|tb|also|too)\b"
    # an interjection before the time ("ah e dia 20 às 10h me lembra do niver"): no task
    r"|(?:ah+|oh+|opa|eita|ok|okay|ent[aã]o)\b(?=[\s,]+(?:e|and|de|do|da|to|about)\b))*"
    rf"(?:{_PT_GLUE}(?:\s+{_PT_GLUE})*|{_EN_GLUE}(?:\s+{_EN_GLUE})*)?[\s,:;.-]*",
    re.I,
)
# "a consulta é dia 12": the verb before the time is glue too once the time is cut out
_TRAILING_GLUE = re.compile(
    r"(?:[\s,:;.?!-]|\b(?:de|do|da|pra|para|to|about|e|and|on|at|is|are|was|will\s+be"
    r"|eh|sera|será|sao|são|vai\s+ser)\b|\s(?:é)(?=$|[\s,:;.-]))+$",
    re.I,
)


@dataclass(frozen=True, slots=True)
class SetReminder:
    what: str
    due: datetime  # aware, in the user's time zone
    default_time: bool = False  # the message named a day but no time: 09:00
    zone: str | None = None  # the clock was given in this zone ("PST") and converted
    rule: Rule | None = None  # it repeats (DESIGN 11.4): `due` is its first occurrence


@dataclass(frozen=True, slots=True)
class PastTime:
    due: datetime


@dataclass(frozen=True, slots=True)
class AskWhen:
    """The message asks for a reminder at a time that is not one moment: ask, with choices."""

    what: str
    options: tuple[datetime, ...]
    reason: AskReason
    context: str = ""  # "semana que vem": read again with the answer ("quarta" -> that Wednesday)
    rule: Rule | None = None  # a repeating reminder: the chosen option is its first occurrence


ReminderParse = SetReminder | PastTime | AskWhen


def route(text: str) -> tuple[RouteName, str] | None:
    """The reminder or undo command a message is, with its arguments, or None."""
    folded = fold_same_length(text)
    if (target := _named_undo(folded)) is not None:
        return ("undo", target)
    # "pode desfazer?", "can you undo that?": a request said as a question
    said = folded.rstrip(" ?") if _POLITE_QUESTION.match(folded) else folded
    if _UNDO.match(said) or (
        (why := _UNDO_BECAUSE.match(said)) is not None and only_says_why(why.group("why"))
    ):
        return ("undo", "")
    last = re.split(r"[,.;!]+", said.rstrip(" .!"))
    if len(last) > 1 and _UNDO.match(last[-1]) and not ANOTHER_REQUEST.search(" ".join(last[:-1])):
        return ("undo", "")  # "eita não era pra apagar não, desfaz": why, then the undo
    if _REDO.match(said) or (
        (why := _REDO_BECAUSE.match(said)) is not None and only_says_why(why.group("why"))
    ):
        return ("redo", "")  # "refaz pfv, era pra ficar sim"
    if _LIST.match(folded):
        return ("reminders", "")
    if read_shift(text) is not None or read_retime(text) is not None:
        # "adianta 1h", "push it 2 hours", "o do aluguel pode ser às 8h", "16h tá bom": a
        # reminder moved (or a time question answered), never a new one about "tá bom"
        return None
    if cancel := _CANCEL.match(folded):
        return ("unremind", text[cancel.start(1) : cancel.end(1)].strip())
    span = find_trigger(folded)
    # a reminder verb the reader did not take as the request ("esse cheiro me lembra ...")
    # says the message is about something else: no reminder read from its time either
    declined = span is None and _TRIGGER_INSIDE.search(folded) is not None
    if span is None and not declined and (typed := _time_and_activity(text, folded)) is not None:
        return (typed, text)
    if span is not None:
        toks = tokenize(folded)
        if read_when(toks, trigger=_token_range(toks, span)) is not None:
            return ("remind", text)
        rest = folded[: span[0]] + " " * (span[1] - span[0]) + folded[span[1] :]
        if read_repeat(rest) or vague_repeat(rest):
            return ("remind", text)
        if _UNTIMED.match(folded) and "?" not in folded:
            return ("remind", text)  # "me lembra de pagar o IPVA": asks when, saves nothing
        if _about_an_hour(text, toks, span, _REFERENCE) is not None:
            return ("remind", text)  # "me lembra umas 3 de X": asks which 3
        if _unread_clock(text, toks, span, _REFERENCE) is not None:
            return ("remind", text)  # "me lembra às 25h de X": asks when
    return None


# a request to be reminded of a task with no time in it: the verb, then the task's glue word
# ("me lembra de X", "remind me to X"); "me lembra que ..." may be a fact to keep, and
# "lembrete" alone names the thing more than it asks for one
_UNTIMED = re.compile(
    r"^\s*" + _FILLER + r"(?:me\s+lembr[ae]|lembr[ae][\s-]*me|lembr[ae]\s+eu|me\s+avis[ae]"
    r"|avis[ae][\s-]*me|remind\s+me|nao\s+me\s+deixa\s+esquecer|don'?t\s+let\s+me\s+forget"
    r"|rmd\s+me)\s*[,:]?\s+(?:de|do|da|dos|das|pra|para|to|about|of)\s+\w"
)


_NOT_REMINDER = re.compile(
    r"\b(?:anota|anote|salva|salve|guarda|guarde|busca|procura|apaga|deleta|lista|mostra"
    r"|save|search|find|delete|list|show|marca|marque|mark|bookmark|muda|mude|altera|corrige"
    r"|troca|edita|exclui|exclua|remove|remova|tira|deleta|cancela|desmarca"
    r"|adia|adiar)\b(?!-)|\b(?:nota|note)\s*:|\bnote\s+(?:that|this|down)\b"
    # a verb that also puts things somewhere, saving a typed item: "adiciona o filme O Relojoeiro
    # de Tiradentes" (no holiday), "put the movie X on friday's list" ("bota o lixo pra fora
    # amanhã 8h" stays a task)
    r"|\b(?:adiciona|adicione|add|bota|bote|coloca|coloque|poe|ponha|inclui|inclua|put)\s+"
    r"(?:(?:o|a|os|as|um|uma|the|an|esse|essa|this|that)\s+)?"
    r"(?:filmes?|series?|seriados?|movies?|films?|shows?|documentarios?|videos?|links?)\b"
    r"|\b(?:remember|lembra|lembre|saiba|sabia)\s+(?:that|que)\b|[?]|https?:|www\.|[a-z]\.[a-z]"
)
# "cancelar" / "cancel" is a reminder's cancel unless a day comes first and a thing of the
# world follows it ("fim do mês cancelar a academia", "end of the month cancel netflix")
_CANCEL_VERB = re.compile(r"\b(?:cancelar|cancel)\b")
_POINTS_AT_REMINDER = re.compile(
    r"\b(?:lembretes?|reminders?|alarmes?|alarms?|one|ones|aquele|aquela|esse|essa|isso|it|that"
    r"|this)\b|\b(?:o|a|os|as)\s+(?:d[oa]s?|de)\b"
)
# a request of the product's own at the start: "me recomenda", "change the title to ...",
# a suggestion ("sugere um filme pra hoje à noite", "algo curto pra hoje à noite")
_NOT_REMINDER_FIRST = re.compile(
    r"^\s*(?:me|change|edit|rename|correct|fix|mark|update|rewrite|sugere|sugira|sugerir|recomenda|recomende"
    r"|indica|indique|suggest|recommend|algo|something|anything|qualquer|any"
    # a reminder moved ("move it up 2 hrs", "push it back an hour"): never a new one's task
    r"|(?:move|push|bump)\s+it"
    # greetings and wishes: "boa noite, até amanhã", "feliz natal", "see you later"
    r"|boa\s+(?:noite|tarde|semana|viagem|sorte)|bom\s+(?:dia|fim|final|descanso)|boas\s+festas"
    r"|feliz|felizes|merry|happy\s+(?:new|birthday|holidays|easter|christmas|thanksgiving)"
    r"|good\s+(?:night|morning|evening|afternoon|luck|weekend)|see\s+you|have\s+a|tenha"
    r"|bye|tchau)\b"
)
# a question or a statement about oneself, a wish, a saved thing's type: not a request to be
# reminded ("o que tenho amanhã", "quero ver o jogo domingo", "filme pra ver sexta à noite")
_NOT_ACTIVITY_START = frozenset({
    "o", "oq", "que", "quando", "qual", "quais", "onde", "quem", "como", "cade", "quanto",
    "quantos", "quantas", "what", "whats", "when", "where", "which", "who", "how", "do", "does",
    "did", "is", "are", "was", "were", "can", "could", "will", "would", "should", "tem", "tenho",
    "temos", "have", "has", "had", "any", "eu", "estou", "estava", "sou", "era", "fiquei",
    "tive", "am", "one", "nao", "not", "never", "nunca", "done", "preciso", "vi", "assisti", "li", "lido",
    "terminei", "comecei", "watched", "saw", "finished", "precisamos", "devo", "need",
    "quero", "queria", "gostaria", "vou", "vamos",
    "fui", "ja", "i", "im", "we", "my", "meu", "minha", "nosso", "nossa", "filme", "filmes",
    "serie", "series", "livro", "livros", "link", "video", "videos", "podcast", "artigo",
    "movie", "movies", "article", "and", "e", "mas", "but", "so", "entao",
})  # fmt: skip
_CHATTER = frozenset({
    "instead", "actually", "verdade", "melhor", "entao", "ok", "okay", "sim", "nao", "yes", "no",
    "please", "pf", "pfv", "pls", "plz", "thx", "obrigado", "obrigada", "thanks", "thank", "you", "hmm", "ah", "oi",
    "hey", "isso", "that", "this", "then", "mesmo", "tb", "tambem", "too", "also", "ne", "right",
    "vlw", "valeu", "blz", "beleza", "show", "cool", "nice", "great", "kkk", "kkkk", "haha",
})  # fmt: skip
# "a reunião é em 10 minutos", "the call is at 5": a statement of when, not a request
_COPULAS = frozenset({"é", "eh", "será", "sera", "foi", "são", "sao", "is", "was", "are", "will",
                      "fica", "vai", "começa", "comeca", "starts", "vence", "vencem", "due", "expira", "expires"})  # fmt: skip
# a statement anywhere in the activity ("Esqueceram de Mim é perfeito pro Natal")
# past forms the "-ei/-ou" shape misses, said anywhere ("rs na real eu já vi as duas": both
# films seen, not a reminder at 2 o'clock)
_DONE_WORDS = frozenset({"vi", "vimos", "li", "lemos", "assisti", "assistimos", "fiz", "fizemos",
                         "fui", "fomos", "tive", "watched", "saw", "finished", "did", "went"})  # fmt: skip
_STATES = frozenset({"é", "eh", "is", "are", "was", "were", "será", "sera", "foi", "são", "sao", "vence",
                     "vencem", "due", "expira", "expires"})  # fmt: skip
# a verb of something done: PT first-person or third-person past ("acordei", "parou"), EN past
# (PT anywhere: "Dark ep 3 parei em 20min"; EN first: "pick up the repaired laptop" is a task;
# as written: "vôlei" is a noun)
# a word after these is a noun ("jogo de vôlei"), never a verb in the past
_OF: Final = frozenset({"de", "do", "da", "dos", "das", "o", "a", "os", "as", "of", "the"})
_DONE = re.compile(r"[a-z]{3,}(?:ei|ou)", re.I)
_DONE_FIRST = re.compile(r"[a-z]{3,}(?:ei|ou)|[a-z]{4,}ed", re.I)
_RATING = re.compile(r"(?:10|[0-9])(?:[.,]5)?\s*/\s*10")
_YEAR_LIKE = re.compile(r"(?:(?:from|in|of|de|em|do|da)\s+)?(?:19|20)\d\d")
# a time gone by ("já vi duna ontem"): a one-off reminder is never about the past
_PAST = re.compile(r"\b(?:ontem|anteontem|yesterday|passad[ao]s?|last|ago|atras)\b")
_BESIDE_TIME = frozenset({
    ",", ":", ";", "-", ".", "!", "de", "do", "da", "dos", "das", "pra", "para", "pro", "to", "as",
    "a", "o", "at", "on", "in", "em", "no", "na", "nos", "nas", "the", "e", "and", "ao", "by",
})  # fmt: skip
# spans do not depend on the day: any instant reads them (the one a test would pick)
_REFERENCE = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
_AT_START = (0, 0)  # no request verb: the message's start stands where it would be
_ARTICLE_FIRST = frozenset({"o", "a", "os", "as", "the", "um", "uma", "an"})


def _time_and_activity(text: str, folded: str) -> RouteName | None:  # noqa: C901
    """ "amanhã 15h dentista", "todo dia 7h30 tomar o remédio", "reunião segunda 10h", "every
    monday 9am weekly report": a message with no request verb that is a time (or a repetition)
    and one activity, the time before or after it, is a reminder when no other verb of the
    product (save, note, search, delete, list) is in it and it is no question or statement."""
    if _NOT_REMINDER.search(folded) or _NOT_REMINDER_FIRST.match(folded):
        return None
    cancel = _CANCEL_VERB.search(folded)
    try:
        repeating = read_recurring(folded, folded, None, _REFERENCE)
    except (OverflowError, ValueError):
        repeating = None
    spans = list(_rule_words(folded, repeating.spans)) if repeating is not None else []
    if repeating is None and (vague := vague_repeat(folded)) is not None:
        spans.append(vague)
    when = read_when(tokenize(_mask(folded, spans)), trigger=_AT_START)
    if when is not None:
        spans += when.spans
    unread_clock = not spans and when is None and _UNREAD_CLOCK_FIRST.match(folded)
    if unread_clock:
        spans = [unread_clock.span()]  # "às 25h desligar o forno": a clock, asked (never set)
    if not spans or (repeating is None and _PAST.search(folded)):
        return None
    rating_like = len(spans) == 1 and _RATING.fullmatch(folded[spans[0][0] : spans[0][1]].strip())
    if any(_glued(folded, a, b) for a, b in spans):  # "a5a95dd6", "3ª": letters stuck to it
        return None
    all_toks = tokenize(folded)
    timed = [any(a <= t.start and t.end <= b for a, b in spans) for t in all_toks]
    words = [
        i
        for i, t in enumerate(all_toks)
        if not timed[i]
        and t.text not in _BESIDE_TIME
        and t.text not in _LOOKS_LIKE_TIME
        and t.text not in _ORPHAN
        and not t.text.isdigit()
    ]
    if not any(all_toks[i].text.isalpha() and all_toks[i].text not in _CHATTER for i in words):
        return None  # "no, at 10 instead", "ok amanhã então": nothing to remember
    while all_toks[words[-1]].text in _CHATTER:  # "..., pls", "... vlw": said after the task
        words.pop()
    first, last = words[0], words[-1]
    if any(timed[first : last + 1]):  # "meeting at 5pm with Sam": the time inside the activity
        return None
    day_then_task = not any(timed[first:]) and _task_verb(
        all_toks, first, lambda j: j < len(all_toks) and text[all_toks[j].start].isupper()
    )
    if cancel is not None and (
        not day_then_task
        or all_toks[first].text != cancel.group()
        or _POINTS_AT_REMINDER.search(folded[all_toks[first].start :])
    ):
        return None  # "cancel the 3pm one", "amanhã cancelar o lembrete": a reminder's cancel
    # chatter read past ("vlw, vou ver hj à noite"): the activity's first word says what it is
    lead = next((i for i in words if all_toks[i].text not in _CHATTER), first)
    if all_toks[first].text in _NOT_ACTIVITY_START or all_toks[lead].text in _NOT_ACTIVITY_START:
        return None
    beside = (text_at(all_toks, first - 1), text_at(all_toks, last + 1))
    if (
        any(text[t.start : t.end].lower() in _COPULAS for t in all_toks if t.text in beside)
        or any(
            text[t.start : t.end].lower() in _STATES
            or t.text in _DONE_WORDS
            or (_DONE.fullmatch(text[t.start : t.end]) and text_at(all_toks, i - 1) not in _OF)
            for i, t in enumerate(all_toks)
            if not timed[i]
        )
        or _DONE_FIRST.fullmatch(text[all_toks[lead].start : all_toks[lead].end])
    ):
        # "a feira é toda sexta", "boleto vence dia 10": when something is; "acordei 6h hoje",
        # "parei Duna em 1h20", "called mom at 5": something done, not a task to be reminded of
        return None
    if _titled(text):  # "Friday Night Lights": a title, not a task
        return None
    if read_ask(folded) is not None:
        return None  # "o do dentista passa pra 10h": a change to a reminder, a question
    # a day alone before "o dia depois de amanhã"'s article is a title more than a task
    if unread_clock and not day_then_task:
        return None  # a clock the grammar cannot read is asked about only before a to-do
    if repeating is not None or when is None:
        return "remind"
    if when.relative == Relative():  # "look now": no time to wait for
        return None
    if when.clock is not None and any(_YEAR_LIKE.fullmatch(folded[a:b].strip()) for a, b in spans):
        return None  # "the meeting from 2014": a year more than 20:14
    if when.clock is not None or when.relative is not None:
        return "remind"  # a clock or an amount of time: "amanhã 15h dentista", "em 3 dias X"
    if any(_clock_shaped(all_toks, i) for i in range(len(all_toks))):
        return "remind"  # a clock the grammar could not read ("amanhã às 25h"): it asks
    # "o dia depois de amanhã" is a title; a part of the day or a period beside a day is read
    # (a period gets a question); a day alone ("comprar leite amanhã") may as well be a note:
    # one question, that day's reminder or the note, never an effect
    lead = next(i for i, t in enumerate(all_toks) if not timed[i] and t.text.isalpha())
    if all_toks[lead].text in _ARTICLE_FIRST:
        return None
    if when.period is not None or (when.part is not None and (when.has_day or day_then_task)):
        return "remind"  # a period, or a part of the day ("de tarde passar no banco"): asked
    if when.day == DayOffset(0) or (when.day is None and when.relative is None):
        return None  # "estou cansado hoje": today with no time is no reminder to offer
    if isinstance(when.day, Date | NthWeekday) and not rating_like:
        return "remind"  # a date and a task ("dia 20 pagar a fatura"): asked for by its date
    if day_then_task:
        return "remind"  # a day, then what to do on it ("sexta pagar o boleto", "friday pay rent")
    # "Dune 9/10" may be a rating as well as the 9th of October: one question, no effect
    return "remind_or_note"


# a clock the grammar could not read, first in a message: "às 25h", "at 13pm", "9h75"
_UNREAD_CLOCK_FIRST = re.compile(r"^\s*(?:(?:as|at|a)\s+)?\d{1,2}(?:h\d{0,2}|:\d{2}|\s*[ap]m)\b")
# a verb a to-do starts with: PT in the infinitive ("pagar", "levar", "ir"); EN bare verbs
_PT_INFINITIVE = re.compile(r"[a-z]{2,}(?:ar|er|ir)|ir|ler|ver|dar|por|repor|ter")
_EN_TASK_VERBS = frozenset("""
    buy call pay book send email text fix pick get make do read watch clean check finish start
    write ask tell take go visit renew return cancel schedule bring drop submit file order wash
    feed water walk meet see mail print sign charge change move pack cook bake wrap collect
    renew refill review prepare practice study finish clean confirm remind update upload
""".split())  # fmt: skip


# what follows a PT infinitive opening a to-do ("pagar o boleto", "ir ao banco", "ligar pra
# mãe"), never a noun's ("celular novo", "mulher do João", "lugar marcado")
_AFTER_INFINITIVE = frozenset("""
    o a os as um uma uns umas ao aos pro pra pros pras para no na nos nas com em meu minha
    meus minhas seu sua seus suas nosso nossa todo toda todos todas esse essa isso aquele la
""".split())  # fmt: skip


def _task_verb(
    toks: tuple[Tok, ...], i: int, capitalized: Callable[[int], bool] | None = None
) -> bool:
    """Whether the word at `i` opens a to-do: "pay", "call", or a PT infinitive with its
    object or place after it ("pagar o boleto", "ir ao banco", "assistir Duna": a name, as
    `capitalized` tells of a token) or alone at the end."""
    word = toks[i].text
    if word in _EN_TASK_VERBS:
        return True
    after = text_at(toks, i + 1)
    return _PT_INFINITIVE.fullmatch(word) is not None and (
        i + 1 >= len(toks)
        or after in _AFTER_INFINITIVE
        or (capitalized is not None and capitalized(i + 1))
    )


def tells_of_oneself(text: str) -> bool:
    """Words that tell something done or said of oneself ("eu acordei às 5 pra isso", "I was
    there at 5"), never a task to be reminded of: a continuation of a reminder declines them."""
    words = re.findall(r"[^\W\d_]+", text)
    return bool(words) and (
        fold_same_length(words[0]).lower() in ("eu", "i", "we", "nos")
        or any(_DONE.fullmatch(w) for w in words)
    )


def _glued(folded: str, start: int, end: int) -> bool:
    """A time read inside a longer word ("a5a95dd6"): a letter or digit right outside it."""
    while start < end and folded[start].isspace():
        start += 1
    while end > start and folded[end - 1].isspace():
        end -= 1
    return (start > 0 and folded[start - 1].isalnum()) or (
        end < len(folded) and folded[end].isalnum()
    )


def _titled(text: str) -> bool:
    """Every word of two or more capitalized, as a title is written ("Friday Night Lights")."""
    words = [w for w in re.findall(r"[^\W\d_]+", text) if len(w) > 1]
    return len(words) >= 2 and all(w[0].isupper() for w in words)


def find_trigger(folded: str) -> tuple[int, int] | None:
    """Where a folded message asks to be reminded: at its start, or after a leading time."""
    if m := _TRIGGER.match(folded):
        return m.span()
    if (m := _TRIGGER_INSIDE.search(folded)) and _only_time_before(folded[: m.start()]):
        return m.span()
    return _typo_trigger(folded)


def _only_time_before(before: str) -> bool:
    """What comes before a request verb inside a message is a time or chatter ("amanhã às 9
    me lembra de X", "ok então me lembra ..."), never a sentence of its own: "isso me lembra
    que ...", "minha mãe sempre me lembra de ...", "salva X e me lembra ..." (two requests:
    the planner's) are no reminder request this reader is sure of."""
    toks = tokenize(before)
    if toks and toks[-1].text in _SUBJECTS and before[toks[-1].end :].isspace():
        return False  # "isso me lembra que ...": what reminds is the subject, not a request
    when = read_when(toks, trigger=_AT_START)
    repeat, vague, same = read_repeat(before), vague_repeat(before), SAME_TIME.search(before)
    bounds = tuple(b for b in (repeat.start, repeat.until) if b is not None) if repeat else ()
    spans = (
        (when.spans if when is not None else ())
        + (repeat.spans if repeat else ())
        + bounds  # "every day at 5pm starting feb 1 remind me": the start's day is read next
        + ((vague,) if vague else ())
        + ((same.span(),) if same else ())  # "amanhã nesse mesmo horário me lembra de X"
    )
    if bounds and (day := read_when(tokenize(_mask(before, list(spans))))) is not None:
        spans += day.spans  # the day a start or an end names
    left = " ".join(
        t.text
        for t in toks
        if not any(a <= t.start and t.end <= b for a, b in spans)
        and t.text not in _CHATTER
        and t.text not in _BESIDE_TIME
        and t.text not in ("sempre", "always")  # "sempre depois do almoço me lembra de X"
        and t.text not in _LOOKS_LIKE_TIME  # "like 5ish remind me": time the parse asks about
        and not t.text.isdigit()
        and t.text.isalnum()
    )
    return not left or bool(_POLITE_BEFORE.fullmatch(left + " "))


_TYPO = re.compile(r"^\s*(?:me\s+(?P<pt>[a-z]{5,8})|(?P<en>[a-z]{5,7})\s+me)\b[\s:,-]*")
_TYPO_TARGETS = {"pt": ("lembra", "lembre", "avisa", "avise"), "en": ("remind",)}
# words one edit away that are words of their own: "me lembro" is "I remember", not a request
_NOT_TYPOS = frozenset({"lembro", "lembrou", "lembram", "aviso", "avisou", "avisam"})


def _typo_trigger(folded: str) -> tuple[int, int] | None:
    """ "me lenbra", "remnd me", "me lembar": a request verb one edit (or one swap of two
    letters) away, in the request's own place."""
    m = _TYPO.match(folded)
    if m is None:
        return None
    lang = "pt" if m.group("pt") else "en"
    word = m.group(lang)
    if word in _NOT_TYPOS:
        return None
    if any(OSA.distance(word, target) == 1 for target in _TYPO_TARGETS[lang]):
        return m.span()
    return None


def parse(
    text: str,
    now: datetime,
    *,
    month_first: bool = False,
    country: Country | None = None,
    slips: bool = True,
) -> ReminderParse | None:
    """Read a reminder from `text` (trigger optional) at `now` (aware, user's zone).

    `month_first`: read 4/5 as April 5 (en-US); `country`: whose holidays to use; `slips`:
    whether a word one slip from a day word is asked about (`_day_typos`).
    """
    folded = fold_same_length(text)
    if (corrected := _self_corrected(text, folded)) is not None:
        return parse(corrected, now, month_first=month_first, country=country, slips=slips)
    if slips and (slipped := _day_typos(text, folded)) is not None:
        # "amanah às 7h", "sabdo 10h": the day the slip hides, or the time as written (today):
        # asked, since a word of its own may be one slip from a day word ("sabão", "quintal")
        meant = parse(slipped, now, month_first=month_first, country=country, slips=False)
        said = parse(text, now, month_first=month_first, country=country, slips=False)
        if (
            isinstance(meant, SetReminder)
            and isinstance(said, SetReminder)
            and meant.rule is None
            and said.rule is None
            and meant.due != said.due
        ):
            return AskWhen(said.what, tuple(sorted({meant.due, said.due})), "partial")
        return said
    toks = tokenize(folded)
    span = find_trigger(folded)
    repeating = read_recurring(text, folded, span, now, month_first=month_first, country=country)
    if repeating is not None:
        what = _what(text, ((span,) if span else ()) + _rule_words(folded, repeating.spans))
        if isinstance(repeating, AskStart):
            return AskWhen(what, repeating.options, repeating.reason, rule=repeating.rule)
        return SetReminder(what, repeating.first, repeating.default_time, rule=repeating.rule)
    vague = vague_repeat(folded)
    if vague is not None:  # "de vez em quando", "regularly": no rule to read, ask
        what = _what(text, ((span,) if span else ()) + (vague,))
        return AskWhen(what, later_today_options(now), "vague")
    trigger = _token_range(toks, span) if span else _AT_START
    when = read_when(toks, trigger=trigger, month_first=month_first)
    if when is None:
        return _about_an_hour(text, toks, span, now) or _unread_clock(text, toks, span, now)
    when = _clock_said_again(folded, when)
    same = SAME_TIME.search(folded)
    if same is not None and when.clock is None and when.part is None and when.day is not None:
        # "amanhã nesse mesmo horário", "same time tomorrow": the day at now's clock
        clock = Clock(now.hour, now.minute, None, fixed=True)
        when = replace(when, clock=clock, spans=(*when.spans, same.span()))
    what = _what(text, ((span,) if span else ()) + when.spans)
    try:
        placed = place(when, now, country=country)
    except (OverflowError, ValueError):  # past the calendar's edge ("31/12/2200 às 2 da noite")
        return AskWhen(what, later_today_options(now), "invalid_date")
    if isinstance(placed, Ask):
        # "semana que vem" (a period), "amanhã de manhã" (a part of a day): read again with
        # the answer, so "quarta" is that week's and "7h30" that morning's
        spans = " ".join(text[a:b] for a, b in when.spans)
        context = (
            spans
            if placed.reason == "period" or (placed.reason == "vague" and when.part is not None)
            else ""
        )
        return AskWhen(what, placed.options, placed.reason, context)
    if isinstance(placed, Past):
        return PastTime(placed.at)
    if repeat_cue(_mask(folded, list(((span,) if span else ()) + when.spans))):
        # rule words the grammar could not read ("segunda sim, segunda não" unknown): never once
        return AskWhen(what, later_today_options(now), "partial")
    start = min((a for a, _ in when.spans), default=0)
    if when.spans and (_DEADLINE.search(folded[:start]) or _DEADLINE_HEAD.match(folded[start:])):
        # "até sexta", "by friday", "antes das 17h": a deadline, not the moment to remind;
        # when only the deadline itself is still ahead, that is the time
        ahead = timedelta(hours=1) if when.clock is not None else timedelta(days=1)
        if placed.at - ahead > now:
            return AskWhen(what, (placed.at - ahead, placed.at), "partial")
    unread = unread_time_words(toks, when.spans, span)
    if when.clock is not None and (not when.clock.ambiguous or when.part is not None):
        # "umas 5 da tarde", "like 5pm": about a clock that says its half of the day
        unread = [t for t in unread if t.text not in _APPROXIMATELY]
    if when.clock is not None or when.part is not None:
        unread = [t for t in unread if t.text not in _ANY_TIME_OF]
    if unread:  # part of the time was left unread: ask rather than set it early
        marks = {toks.index(t) for t in unread}
        marks |= {i - 1 for i in marks if text_at(toks, i - 1) in _ARTICLES}  # "a week from"
        for i in [i for i in marks if _clock_shaped(toks, i)]:  # "às 25h", "at 25:00"
            marks |= {j for j in range(i + 1, i + 4) if j < len(toks) and not toks[j].spaced}
            marks |= {i - 1} if text_at(toks, i - 1) in ("as", "at", "a") else set()
        words = tuple((toks[i].start, toks[i].end) for i in sorted(marks))
        what = _what(text, ((span,) if span else ()) + when.spans + words)
        options = partial_options(placed, when, [t.text for t in unread], now)
        return AskWhen(what, options, "partial")
    return SetReminder(what, placed.at, placed.default_time, placed.zone)


# a time taken back in the same message: "quinta 20h, não pera, sexta 20h", "thursday 8pm??
# no wait friday", "às 9h, quer dizer, 10h"
_TAKEN_BACK = re.compile(
    r"[\s,.!?;-]+(?:(?:no|nao)[\s,.!]*(?:wait|pera|espera|peraí|perai)|wait[\s,.!]+no|i\s+mean"
    r"|quer\s+dizer|ou\s+melhor|or\s+rather|(?:no|nao)[\s,.!]+(?:na\s+verdade|actually))"
    r"[\s,.!?;:-]+"
)


# day words a slip of one letter may hide ("amanah", "sabdo", "wedensday", "tomorow"): left
# unread, the clock beside them would be set today, earlier than meant (asked, see `parse`)
_DAY_WORDS: Final = frozenset(
    """segunda terca quarta quinta sexta sabado domingo amanha monday tuesday wednesday
    thursday friday saturday sunday tomorrow tonight""".split()
)
# words of their own one slip from a day word: "manhã", "sabão", "quintal", plurals ("aos domingos")
_NOT_DAY_TYPOS: Final = frozenset(
    {"manha", "manhas", "sabao", "quintal", "domino", "quita", "quart", "frida"}
    | {w + "s" for w in _DAY_WORDS}
)

_LONG_WORD: Final = re.compile(r"\b[a-z]{5,10}\b")


def _day_typos(text: str, folded: str) -> str | None:
    """`text` with each word one slip from a day word (a letter left out or added, two
    letters swapped; never one letter for another, "quarto" is a room) made that day word;
    None when there is none."""
    out, last, changed = [], 0, False
    for m in _LONG_WORD.finditer(folded.lower()):
        word = m.group()
        if word in _DAY_WORDS or word in _NOT_DAY_TYPOS:
            continue
        day = next((d for d in sorted(_DAY_WORDS) if _one_slip(word, d)), None)
        if day is not None:
            out += [text[last : m.start()], day]
            last, changed = m.end(), True
    return "".join([*out, text[last:]]) if changed else None


def _one_slip(word: str, target: str) -> bool:
    """Whether `word` is `target` with one letter left out or added, or two letters swapped."""
    if OSA.distance(word, target) != 1:
        return False
    return len(word) != len(target) or sorted(word) == sorted(target)


def _self_corrected(text: str, folded: str) -> str | None:
    """`text` without a time the user took back before the one meant ("thursday 8pm?? no wait
    friday 8pm, game night" is "friday 8pm, game night"): the time said right before the words
    that take it back is dropped with them. None unless the words after them say a whole time
    again, a day with or without its clock ("às 9h, quer dizer, 10h" is left to the reading,
    which asks when part of it stays unread)."""
    taken = _TAKEN_BACK.search(folded)
    if taken is None:
        return None
    before = read_when(tokenize(folded[: taken.start()]), trigger=_AT_START)
    after = read_when(tokenize(folded[taken.end() :]), trigger=_AT_START)
    if before is None or after is None or not before.spans or after.day is None:
        return None  # only a whole time said again replaces one ("não, 10h" may keep the day)
    start, end = min(a for a, _ in before.spans), max(b for _, b in before.spans)
    if folded[end : taken.start()].strip(" ,.!?;:-"):
        return None  # words between the time and the taking back: not the time taken back
    return (text[:start] + text[taken.end() :]).strip()


# a clock taken back at the message's end: "às 15h, na vdd 16h", "at 3pm, actually 4pm",
# "amanhã às 9h de X, não, às 10h"
_CLOCK_TAKEN_BACK = re.compile(
    r"(?:[\s,.!?;-]+(?:na\s+(?:vdd|verdade|real)|actually|i\s+mean|quer\s+dizer|digo"
    r"|ou\s+melhor|or\s+rather|make\s+it|(?:no|nao)[\s,.!]+(?:wait|pera|espera|perai"
    r"|na\s+verdade|actually)|wait[\s,.!]+no)"
    # a no alone takes back only as a clause of its own: "às 9h, não, 10h" ("dizer não 10")
    r"|\s*[,.!?;-]\s*(?:no|nao))[\s,.!?;:-]+"
)
# what may stand between those words and the clock ("actually make it 6", "na vdd deixa pras 16h")
_CLOCK_GLUE = frozenset({"as", "a", "at", "pras", "pra", "para", "for", "the", "no", "nao", ".",
                         ",", "make", "it", "deixa", "coloca", "bota", "poe", "muda", "passa"})  # fmt: skip


def _clock_said_again(folded: str, when: When) -> When:
    """`when` with its clock replaced by one said again right after words taking it back
    ("me lembra de pagar a conta às 15h, na vdd 16h", "at 3pm, actually 4pm, to call mom",
    "amanhã às 3 da tarde, na verdade 4": 16:00, never the 15:00 taken back with "16h" left
    in the task). `when` itself unless a clock alone (or a bare hour, read as the first
    clock was) follows those words and `when`'s clock was said before them."""
    if when.clock is None or not when.spans:
        return when
    for taken in reversed(list(_CLOCK_TAKEN_BACK.finditer(folded))):
        if max(b for _, b in when.spans) > taken.start():
            continue
        rest = _mask(folded, [(0, taken.end())])
        toks = tokenize(rest)
        while toks and toks[0].text in _CLOCK_GLUE:
            toks = toks[1:]
        if not toks:
            return when
        again = read_when(toks, trigger=_AT_START)
        if again is not None and min(a for a, _ in again.spans) == toks[0].start:
            if again.clock is None or again.has_day or again.period is not None:
                return when  # a day said again is `_self_corrected`'s
            if again.zone is not None or again.part is not None:
                return when
            clock, spans = again.clock, again.spans
        elif toks[0].text.isdigit() and int(toks[0].text) <= 23 and not _clock_shaped(toks, 0):
            if len(toks) > 1 and toks[1].text not in (",", ";", "."):
                return when  # "na vdd 4 pães" counts; "4:30" / "4.5" are no bare hour
            hour = int(toks[0].text)
            clock = replace(when.clock, hour=hour, minute=0) if hour <= 12 else Clock(hour)
            spans = ((toks[0].start, toks[0].end),)
        else:
            return when
        said = (taken.start(), toks[0].start)  # the words taking it back, "às" after them
        return replace(when, clock=clock, spans=(*when.spans, said, *spans))
    return when


def _unread_clock(
    text: str, toks: tuple[Tok, ...], span: tuple[int, int] | None, now: datetime
) -> AskWhen | None:
    """A clock the grammar cannot read and nothing else of time ("me lembra às 25h de
    desligar o forno", "at 13pm call the insurance guy"): asked, never set."""
    shaped = [i for i in range(len(toks)) if _clock_shaped(toks, i)]
    if len(shaped) != 1:
        return None
    i = shaped[0]
    marks = [j for j in range(i, min(i + 4, len(toks))) if j == i or not toks[j].spaced]
    if text_at(toks, i - 1) in ("as", "at", "a"):
        marks.insert(0, i - 1)
    words = tuple((toks[j].start, toks[j].end) for j in marks)
    what = _what(text, ((span,) if span else ()) + words)
    return AskWhen(what, later_today_options(now), "partial")


# "umas 3", "like 4": about an hour with nothing else of time; the number says no half of the
# day, and "umas" may count things ("umas 3 camisas"): asked, never set
_ABOUT_HOUR = re.compile(r"^(?:umas|uns|like|about|around)\s+(?:(?:as|a|at)\s+)?(\d{1,2})$")
_AFTER_ABOUT = frozenset({"", "de", "da", "do", "pra", "para", "to", "e", "and", ",", ".", "!"})


def _about_an_hour(
    text: str, toks: tuple[Tok, ...], span: tuple[int, int] | None, now: datetime
) -> AskWhen | None:
    """A reminder at about an hour of no day ("me lembra umas 3 de X", "me lembra de X umas 3"):
    which one, asked. Only right after the request verb or at the end: inside the task
    ("levar umas 2 de chocolate") it counts things."""
    first = next((k for k, t in enumerate(toks) if span is None or t.start >= span[1]), len(toks))
    for i in range(len(toks) - 1):
        for size in (2, 3):
            words = " ".join(t.text for t in toks[i : i + size])
            found = _ABOUT_HOUR.match(words)
            if found is None or text_at(toks, i + size) not in _AFTER_ABOUT:
                continue
            if i != first and i + size < len(toks) and text_at(toks, i + size) not in ".!,":
                continue
            hour = int(found.group(1))
            if not 1 <= hour <= 12:
                return None
            base = now.replace(minute=0, second=0, microsecond=0)
            hours = (hour % 12 + 12, hour % 12) if hour <= 11 else (12, 0)
            options = sorted(
                o
                for o in (
                    *(base.replace(hour=h) for h in hours),
                    *(base.replace(hour=h) + timedelta(days=1) for h in hours),
                )
                if o.timestamp() > now.timestamp()
            )[:2]
            spans = ((toks[i].start, toks[i + size - 1].end),)
            return AskWhen(
                _what(text, ((span,) if span else ()) + spans), tuple(options), "partial"
            )
    return None


_BY = r"(?:ate|by|antes\s+d[eoa]s?|before|no\s+maximo)"
_DEADLINE = re.compile(rf"\b{_BY}\s*$")
_DEADLINE_HEAD = re.compile(rf"{_BY}\b")
_FREQUENCY_WORD = re.compile(
    r"(?:daily|weekly|monthly|yearly|diari[oa]s?|semana(?:l|is)|mensa(?:l|is)|anua(?:l|is))"
)


def _rule_words(folded: str, spans: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The spans of a rule that are not part of the task: "every monday ... the weekly report"
    keeps "weekly" in the text when other words say the rule."""
    rest = tuple(
        s
        for s in spans
        if not _FREQUENCY_WORD.fullmatch(folded[s[0] : s[1]])
        or any(  # "weekly on sundays": beside the other rule words, it is one of them
            _touching(folded, s, t) and repeat_cue(folded[t[0] : t[1]]) for t in spans if t != s
        )
    )
    return rest if any(repeat_cue(folded[a:b]) for a, b in rest) else spans


def _touching(folded: str, one: tuple[int, int], other: tuple[int, int]) -> bool:
    """Two spans with nothing but spaces and punctuation between them."""
    between = folded[min(one[1], other[1]) : max(one[0], other[0])]
    return not re.search(r"\w", between)


_APPROXIMATELY = frozenset({"umas", "uns", "like", "ish"})
# words that, beside a time the grammar read, say there was more to it than it read
_LOOKS_LIKE_TIME = frozenset({
    "q", "vem", "dps", "dpois", "depois", "umas", "uns", "like", "end", "fim", "final",
    "week", "semana", "from", "black", "cyber", "proxima", "proximo", "next", "ish",
    "antes", "before", "after", "ate", "until", "till", "horario", "same", "sometime", "anytime",
})  # fmt: skip
# "sometime tomorrow": any time of that day, asked; beside a clock or a part, nothing more
_ANY_TIME_OF = frozenset({"sometime", "anytime"})


def _bare_number(toks: tuple[Tok, ...], i: int) -> bool:
    """A number standing alone right beside the time ("amanhã 3"), not part of an amount
    ("12.50", "3/4") or a count of something ("2 contas" reads on as words)."""
    if not toks[i].text.isdigit() or len(toks[i].text) > 2:
        return False
    joined = (text_at(toks, i - 1) in ".,/:" and not toks[i].spaced) or (
        text_at(toks, i + 1) in ".,/:" and i + 1 < len(toks) and not toks[i + 1].spaced
    )
    return not joined


def _clock_shaped(toks: tuple[Tok, ...], i: int) -> bool:
    """A number written as a clock the grammar could not read ("25h", "25:00", "9h75")."""
    if not toks[i].text.isdigit() or len(toks[i].text) > 2:
        return False
    after = text_at(toks, i + 1)
    return (
        i + 1 < len(toks)
        and not toks[i + 1].spaced
        and (after in ("h", "hs", "am", "pm") or (after == ":" and text_at(toks, i + 2).isdigit()))
    )


_ARTICLES = frozenset({"a", "na", "no", "the", "on", "uma", "um", "an"})
_NEAR = 2  # words on either side of a time read that are looked at


def unread_time_words(
    toks: tuple[Tok, ...], spans: tuple[tuple[int, int], ...], trigger: tuple[int, int] | None
) -> list[Tok]:
    """Words beside the time read that look like time themselves ("quarta q vem", "amanhã umas
    3", "a week from friday"): the reading is partial when there are any."""
    found: list[Tok] = []
    inside = [
        i
        for i, t in enumerate(toks)
        if any(a <= t.start and t.end <= b for a, b in spans)
        or (trigger is not None and trigger[0] <= t.start and t.end <= trigger[1])
    ]
    taken = set(inside)
    for a, b in spans:
        first = next((i for i, t in enumerate(toks) if t.start >= a), len(toks))
        last = max((i for i, t in enumerate(toks) if t.end <= b), default=-1)
        around = [*range(first - _NEAR, first), *range(last + 1, last + 1 + _NEAR)]
        for i in around:
            if 0 <= i < len(toks) and i not in taken:
                word = toks[i].text
                beside = i in (first - 1, last + 1) or text_at(toks, i - 1) in _LOOKS_LIKE_TIME
                if (
                    word in _LOOKS_LIKE_TIME
                    or (beside and _bare_number(toks, i))
                    or _clock_shaped(toks, i)
                ):
                    found.append(toks[i])
    return found


def partial_options(
    placed: Due, when: When, unread: list[str], now: datetime
) -> tuple[datetime, ...]:
    """2-3 times the words may mean: the reading and what the unread words suggest."""
    reading = placed.at
    day = reading.replace(second=0, microsecond=0)
    options = [] if placed.default_time else [reading]  # 09:00 was only the day's default
    for word in unread:
        if word.isdigit() and int(word) <= 23 and when.clock is None:
            hour = int(word)  # beside a day, 1-6 is p.m. first (DESIGN 10.5)
            first, second = (hour + 12, hour) if 1 <= hour <= 6 else (hour, hour + 12)
            options.append(day.replace(hour=first, minute=0))
            if second <= 23:
                options.append(day.replace(hour=second, minute=0))
        elif word.isdigit() and len(word) == 2 and when.clock is not None:
            options.append(day.replace(minute=int(word) % 60))
        elif word in ("q", "vem", "proxima", "proximo", "next", "week", "semana", "from"):
            options.append(day + timedelta(days=7))
        elif word in ("dps", "dpois", "depois", "after"):
            options.append(day + timedelta(days=1))
        elif word in ("end", "fim", "final"):
            options += [day.replace(hour=17, minute=0), day.replace(hour=18, minute=0)]
        elif word in _ANY_TIME_OF:
            options += [day.replace(hour=h, minute=0) for h in (9, 14, 19)]
        elif word in ("black", "cyber"):
            options += [day + timedelta(days=7 * k) for k in (1, 2)]
    future = sorted({o for o in options if o.timestamp() > now.timestamp()})
    if len(future) < 2:
        future = sorted({*future, *(o for o in (reading, day + timedelta(days=1)) if o > now)})
    return tuple(future[:3])


_ALSO_END = re.compile(r"(?:[\s,]+(?:tb|tbm|tambem|too|also|as\s+well))+\s*$")


def same_time_task(text: str) -> str | None:
    """The task of a reminder asked for at the same time as another one, with no other time
    word ("de comprar as velas tb, mesmo horário", "to buy candles too, same time"), or None."""
    folded = fold_same_length(text)
    same = SAME_TIME.search(folded)
    if same is None or read_ask(text) is not None:
        return None  # "e a do inglês vai pra sexta, mesmo horário": a move
    span = find_trigger(folded)
    if span is None and not re.match(r"\s*(?:de|do|da|pra|para|to|about|of)\b", folded):
        return None  # a task goes on from "me lembra" / "remind me" with its glue word
    cut = [same.span(), *([span] if span else [])]
    if read_when(tokenize(_mask(folded, cut)), trigger=_AT_START) is not None:
        return None  # another time beside it ("sexta, mesmo horário"): read as a time
    what = _what(text, tuple(cut))
    also = _ALSO_END.search(fold_same_length(what))
    return (what[: also.start()] if also else what).strip() or None


def untimed(text: str, now: datetime) -> AskWhen:
    """A reminder that names no time ("/remind pagar a conta"): ask when, with choices."""
    span = find_trigger(fold_same_length(text))
    return AskWhen(_what(text, (span,) if span else ()), later_today_options(now), "no_time")


def _token_range(toks: tuple[Tok, ...], span: tuple[int, int] | None) -> tuple[int, int] | None:
    """The tokens inside the character span of the trigger."""
    if span is None:
        return None
    inside = [i for i, t in enumerate(toks) if t.start >= span[0] and t.end <= span[1]]
    return (inside[0], inside[-1] + 1) if inside else (0, 0)


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


# words that only say something about a time beside them ("a partir de", "starting", "todo",
# "around", "first thing"): left alone once the time is cut, they are no part of the task
_ORPHAN = frozenset({
    "starting", "beginning", "comecando", "partir", "primeira", "primeiro", "first", "thing",
    "sometime", "anytime", "algum", "alguma", "momento",
    "around", "sempre", "todo", "toda", "todos", "todas", "tds", "every", "each", "cada", "last",
    "daqui", "like", "ish", "umas", "uns", "volta", "semana", "semanas", "mes", "meses", "dias",
    "days", "weeks", "finais", "final", "fim", "ultimo", "ultima", "proximo", "proxima", "ate",
})  # fmt: skip
_ORPHAN_GLUE = frozenset({"a", "de", "do", "da", "dos", "das", "o", "os", "as", "nos", "nas",
                          "no", "na", "of", "the", "por", "at", "from", "in", "on", "pelas",
                          "em"})  # fmt: skip


def _orphans(text: str, spans: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """Time words the reading left at the edge of the task, next to a time it cut ("trocar a
    água, a partir de [hoje]", "[every 3 days at 8pm] starting change the litter")."""
    folded = fold_same_length(text)
    toks = tokenize(folded)
    cut = [any(a <= t.start and t.end <= b for a, b in spans) for t in toks]
    found: list[tuple[int, int]] = []
    for i in range(len(toks)):
        if cut[i]:
            continue
        for step, edge in ((1, i > 0 and cut[i - 1]), (-1, i + 1 < len(toks) and cut[i + 1])):
            if not edge:
                continue
            j, orphan = i, False
            while 0 <= j < len(toks) and not cut[j]:
                word = toks[j].text
                if word in _ORPHAN and (word != "ate" or "é" in text[toks[j].start : toks[j].end]):
                    orphan = True
                elif word not in _ORPHAN_GLUE:
                    break
                j += step
            if orphan and j != i:
                a, b = sorted((i, j - step))
                found.append((toks[a].start, toks[b].end))
    return found


def _what(text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """The thing to remember: the message without its trigger, time and glue words."""
    while more := [o for o in _orphans(text, spans) if o not in spans]:
        spans = tuple(spans) + tuple(more)
    rest = _mask(text, list(spans))
    rest = re.sub(r"\s{2,}", " ", rest).strip()
    rest = _LEADING_GLUE.sub("", rest)
    rest = _TRAILING_GLUE.sub("", rest).strip()[:300]
    return rest if re.search(r"\w", rest) else ""  # "me lembra amanhã?": no task said
