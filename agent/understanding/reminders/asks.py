"""Questions about reminders and changes to them, read in code where the words are certain
(issue 43): "tenho algum lembrete?", "quais lembretes pra amanhã?", "muda o lembrete do
dentista para 10h", "na verdade às 10", "cancela o do dentista". Anything else is None:
the planner, with the reminder tools, reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from agent.understanding.reminders.dates import DAY_WORDS
from agent.understanding.reminders.lexicon import fold_same_length, tokenize
from agent.understanding.reminders.reading import read_when
from agent.understanding.reminders.shifting import Shift, read_shift
from agent.understanding.vocabulary import ANOTHER_REQUEST

Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Period = Literal["today", "tomorrow", "this_week", "next_week", "next_days"] | Weekday
WEEKDAYS: Final[tuple[Weekday, ...]] = (
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class ListAsk:
    period: Period | None = None


@dataclass(frozen=True, slots=True)
class ChangeAsk:
    query: str  # words of the reminder's text ("" for the one just set)
    when: str  # the new time, in the user's words (read by the grammar)


@dataclass(frozen=True, slots=True)
class CancelAsk:
    query: str
    # said with a verb that deletes items too ("apaga essa da academia") and no reminder
    # word: a note just listed may be the one meant
    items_too: bool = False
    # "cancela o da academia de vez", "cancel the gym one for good": every occurrence, unasked
    every: bool = False


@dataclass(frozen=True, slots=True)
class WhenAsk:
    query: str  # words of the reminder's text: "quando é o próximo do futebol?"; "": the next
    reminder_said: bool = True  # False: "qual o próximo?", about reminders only in their context


@dataclass(frozen=True, slots=True)
class SkipAsk:
    """Only the next occurrence of a repeating reminder is cancelled ("pula o de amanhã")."""

    query: str  # words of the reminder's text, or "" for the one the day or the context names
    day: Literal["today", "tomorrow"] | Weekday | None = None  # the occurrence named by its day


Ask = ListAsk | ChangeAsk | CancelAsk | WhenAsk | SkipAsk | Shift

_PERIODS: dict[str, Period] = {
    "hoje": "today", "today": "today", "amanha": "tomorrow", "tomorrow": "tomorrow",
    "essa semana": "this_week", "esta semana": "this_week", "this week": "this_week",
    "a semana": "this_week", "os proximos dias": "next_days", "the next few days": "next_days",
    "semana que vem": "next_week", "semana q vem": "next_week", "proxima semana": "next_week",
    "a semana que vem": "next_week", "next week": "next_week",
    "the next days": "next_days", "proximos dias": "next_days",
}  # fmt: skip
# the day words of the grammar, chat spellings too ("amn", "hj", "tmrw", "2moro")
_PERIODS.update({
    words: ("today" if offset == 0 else "tomorrow")
    for words, offset in DAY_WORDS.forms()
    if offset in (0, 1) and words not in _PERIODS
})  # fmt: skip
# a weekday's agenda ("tenho algo pra quinta?", "anything on friday?"): its next such day
_PERIODS.update({
    words: WEEKDAYS[day]
    for day, names in enumerate((
        ("segunda", "segunda-feira", "segunda feira", "monday"),
        ("terca", "terca-feira", "terca feira", "tuesday"),
        ("quarta", "quarta-feira", "quarta feira", "wednesday"),
        ("quinta", "quinta-feira", "quinta feira", "thursday"),
        ("sexta", "sexta-feira", "sexta feira", "friday"),
        ("sabado", "saturday"),
        ("domingo", "sunday"),
    ))
    for words in names
})  # fmt: skip
# words of a period may be written apart or together ("2 moro" is how "2moro" tokenizes)
_PERIOD = (
    "(?P<period>"
    + "|".join(r"\s*".join(map(re.escape, p.split())) for p in sorted(_PERIODS, key=len)[::-1])
    + ")"
)
_BY_LETTERS: dict[str, Period] = {re.sub(r"\s+", "", p): v for p, v in _PERIODS.items()}
_FOR = r"(?:\s+(?:pra|para|de|do|da|for|on|in)?\s*" + _PERIOD + r")?"
_LISTS = tuple(
    re.compile(r"^\s*(?:e\s+|and\s+)?(?:" + p + r")\s*[?.!]*\s*$")
    for p in (
        r"(?:eu\s+)?(?:tenho|tem|ha|existe)\s+(?:algum|alguns|algum\s+tipo\s+de)?\s*lembretes?"
        r"(?:\s+(?:marcados?|agendados?|pendentes?|abertos?))?" + _FOR,
        r"(?:quais|que)\s+(?:sao\s+)?(?:os\s+)?(?:meus\s+)?lembretes\s+(?:eu\s+tenho\s+)?"
        r"(?:pra|para|de)\s+" + _PERIOD,
        r"(?:quais|que)\s+lembretes\s+(?:eu\s+)?tenho" + _FOR,
        r"(?:do\s+i\s+have|have\s+i\s+got|are\s+there)\s+any\s+reminders" + _FOR,
        r"any\s+reminders" + _FOR,
        r"what\s+reminders\s+(?:do\s+i\s+have|are\s+there)" + _FOR,
        r"(?:what\s+are\s+)?my\s+reminders\s+for\s+" + _PERIOD,
        r"(?:(?:mostra|mostre|mostrar|lista|liste|listar|ver|show|list|see)\s+(?:me\s+)?)?"
        r"(?:os\s+|meus\s+|os\s+meus\s+|my\s+|the\s+)?(?:lembretes|reminders)\s+"
        r"(?:pra|para|de|da|do|for|of)\s+" + _PERIOD,
        # "show me tomorrow's reminders", "today's reminders"
        r"(?:(?:show|list|see)\s+(?:me\s+)?(?:my\s+)?)?" + _PERIOD + r"'?s?\s+reminders",
        # a day's agenda with no reminder word: "tenho algo amanhã?", "o que eu tenho pra hoje?",
        # "do I have anything tomorrow?", "what do I have today?"
        r"(?:eu\s+)?(?:tenho|tem)\s+(?:algo|alguma\s+coisa|algum\s+compromisso|compromissos?)"
        r"(?:\s+(?:marcad[oa]s?|agendad[oa]s?))?\s+(?:pra\s+|para\s+|de\s+|em\s+)?" + _PERIOD,
        r"(?:o\s+)?(?:que|q|oq)\s+(?:eu\s+)?tenho(?:\s+(?:marcado|agendado|(?:que|pra|para)\s+fazer))?\s+"
        r"(?:pra\s+|para\s+)?" + _PERIOD,
        r"(?:do\s+i\s+have|have\s+i\s+got|is\s+there)\s+anything(?:\s+(?:planned|scheduled|on))?"
        r"\s+(?:for\s+|on\s+)?" + _PERIOD,
        r"anything\s+(?:for\s+|on\s+)?" + _PERIOD,
        r"what(?:\s+do\s+i\s+have|\s+have\s+i\s+got|\s+is\s+on|'?s\s+on)(?:\s+to\s+do)?\s+(?:for\s+|on\s+)?"
        + _PERIOD,
    )
)
_VERB_CHANGE = (
    r"(?:muda|mude|mudar|altera|altere|alterar|troca|troque|passa|passe|move|mova|adia|adie"
    r"|remarca|remarque|change|move|reschedule|push|set)"
)
_CHANGE = re.compile(
    r"^\s*" + _VERB_CHANGE + r"\s+(?:o\s+|the\s+|my\s+|meu\s+)?(?:lembrete|reminder)\s+"
    r"(?:d[eoa]s?\s+|about\s+|for\s+|to\s+|of\s+)?(?P<query>.+?)\s+(?:para|pras?|pros?|to|for)\s+"
    r"(?P<when>.+?)\s*[.!]*\s*$"
)
_CHANGE_TAIL = re.compile(  # "muda o do dentista para 10h", "move the dentist one to 10am"
    r"^\s*"
    + _VERB_CHANGE
    + r"\s+(?:o|a|the)\s+(?:d[eoa]s?\s+)?(?P<query>.+?)(?:\s+(?:one|reminder))?\s+"
    r"(?:para|pras?|pros?|to)\s+(?P<when>.+?)\s*[.!]*\s*$"
)
# "na verdade às 10", "opa errei, é às 17h30", "actually make it 8pm", "sorry, I meant 9":
# one or more lead-ins, then words that must all be time (the grammar reads them whole)
_RETIME_LEAD = (
    r"(?:na\s+verdade|na\s+vdd|alias|melhor|corrigindo|quer\s+dizer|quis\s+dizer|ops+|opa"
    # a change of mind only before a verb that puts the time: "pensando bem, bota pras 7h"
    r"|(?:pensando\s+bem|on\s+second\s+thought)(?=[\s,]+(?:bota|coloca|poe|p[oõ]e|deixa|passa|joga"
    r"|adia|make|push|move|bump)\b)"
    r"|oops|errei|me\s+enganei|foi\s+mal|desculpa|pode\s+ser|muda\s+pra|troca\s+pra"
    r"|actually|sorry|my\s+bad|i\s+meant|make\s+it|change\s+it\s+to|wait|no|nao"
    r"|(?:push|move|bump)\s+it\s+(?:to|till|until)|(?:passa|joga|adia)\s+(?:pra|para)"
    # "push it back an hour", "move it 30 min later": an amount from its own time follows
    r"|(?:push|move|bump)\s+it(?=\s+(?:back|up|\S+\s+(?:hours?|h|hrs?|min|mins|minutes?)\b))"
    r"|(?:bota|coloca|poe|p[oõ]e|deixa)\s+(?:pra|para|pras|pro|as|às|a)(?=\s))"
)
# the reminder's words: one clause, never a second one after a comma or a dash
_WORDS = r"[^\s,;](?:(?!\s[-–—]\s)[^,;])*?"
# "actually make the mom one 8pm", "set the dentist reminder for 10": the reminder named by
# what it is about, then "one"/"reminder", then the new time
_CHANGE_ONE = re.compile(
    r"^\s*(?:(?:" + _RETIME_LEAD + r"|can\s+you|could\s+you|please|pode|por\s+favor)\s*[,:!.]?\s*)*"
    r"(?:" + _VERB_CHANGE + r"|make|put)\s+"
    r"(?:the|my|o|a)\s+(?P<query>" + _WORDS + r")\s+(?:one|reminder)\s+(?:to\s+|for\s+|at\s+)?"
    r"(?P<when>[^\s].*?)\s*[.!]*\s*$"
)
# "bota o do dentista pras 10h": these verbs also put things in lists, so only in this form
_PUT_ONE = re.compile(
    r"^\s*(?:bota|bote|poe|ponha|coloca|coloque|joga)\s+(?:o|a)\s+d[eoa]s?\s+(?P<query>"
    + _WORDS
    + r")\s+(?:para|pras?|pros?)\s+(?P<when>[^\s].*?)\s*[.!]*\s*$"
)
# "o do dentista passa pra uma hora mais tarde", "e o da mãe joga pra quarta": the reminder
# named first, then a verb of moving and the new time
_MOVED = re.compile(
    r"^\s*(?:(?:e|and)\s+)?(?:o|a)\s+(?:lembrete\s+)?d[eoa]s?\s+(?P<query>" + _WORDS + r")\s+"
    r"(?:passa|fica|vai|joga|muda|move|vira)\s+(?:pra|para|pro|pras)\s+(?P<when>[^\s].*?)\s*[.!]*\s*$"
)
# said after the reminder's words, for good: "de vez", "pra sempre", "for good", "all of them"
_FOR_GOOD_WORDS = (
    r"(?:de\s+vez|(?:de\s+)?uma\s+vez\s+por\s+todas|pra\s+sempre|para\s+sempre|for\s+good"
    r"|todos|todas|completamente|all\s+of\s+them|altogether|completely|entirely|permanently)"
)
# "cancela o do dentista", "cancel the dentist one": a cancel verb and the reminder named by its
# words in that form only ("apaga o inception" deletes an item, never a reminder)
_CANCEL = re.compile(
    r"^\s*(?:(?:cancela|cancele|cancelar|desmarca|desmarque|esquece|esqueca|(?P<erase>apaga|tira))"
    # "aquele da cnh", "esse do dentista": a demonstrative points as the article does
    r"\s+(?:(?:so|somente|apenas)\s+)?(?:o|a|aquele|aquela|esse|essa|este|esta)\s+"
    r"(?P<reminder>lembrete\s+)?d[eoa]s?\s+"
    r"(?P<query>"
    + _WORDS
    + r")|(?:cancel|drop)\s+(?:(?:just|only)\s+)?the\s+(?P<query_en>"
    + _WORDS
    + r")\s+(?:one|reminder)"
    r"|(?:cancel|drop|delete|remove)\s+my\s+(?P<query_my>" + _WORDS + r")\s+reminder"
    r"|(?:cancel|drop)\s+the\s+one\s+(?:about|for|with)\s+(?P<query_one>" + _WORDS + r"))"
    r"(?P<good>\s+" + _FOR_GOOD_WORDS + r")?\s*[.!]*\s*$"
)


# "para de me lembrar da academia", "não precisa mais me lembrar do X", "stop reminding me
# about the gym", "i don't need the gym reminder anymore", "never mind the dentist reminder":
# a cancel said as the reminding that should stop
_STOP: Final = re.compile(
    # "precisa" only negated: "precisa me lembrar do X" asks to be reminded, no stop
    r"^\s*(?:(?:(?:para|pare|parar)\s+de|nao\s+precisa\s+(?:mais\s+)?|precisa\s+(?:mais\s+)?nao"
    r"\s+)\s*(?:me\s+)?lembrar(?:\s+mais)?\s+(?:d[eoa]s?|de)\s+(?P<q>" + _WORDS + r")"
    r"|(?:stop|quit)\s+reminding\s+me\s+(?:about|of|to)\s+(?P<q_en>" + _WORDS + r")"
    r"|no\s+need\s+to\s+remind\s+me\s+(?:about|of|to)\s+(?P<q_no>" + _WORDS + r")"
    r"|(?:never\s*mind|nvm|forget)\s+(?:about\s+)?(?:the|my)\s+(?P<q_nm>" + _WORDS + r")\s+reminder"
    r"|i\s+don'?t\s+need\s+(?:the|my)\s+(?P<q_dn>" + _WORDS + r")\s+reminder)"
    r"(?:\s+(?:anymore|any\s+more|mais))?\s*[.!]*\s*$"
)


# a change of mind said before the request, and a reason given after it, are not the request:
# "pensando bem cancela o lembrete do X pq ele remarcou", "on second thought cancel the X one"
_MIND: Final = re.compile(
    r"^\s*(?:(?:pensando\s+bem|melhor|ah|oh|e|and|entao|so|ok|on\s+second\s+thought|"
    r"actually|nvm|never\s*mind|wait)\s*[,:!.]?\s+)+"
)
_REASON: Final = re.compile(
    r"\s*[,;]?\s+(?:pq|porque|por\s+que|porquê|ja\s+que|que\s+(?:ele|ela|eu)|because|"
    r"cause|cuz|since|as\s+(?:he|she|i|it))\b.*$"
)

# "8pm instead", "10h então": said after the new time, no part of it
_AFTERWORD: Final = re.compile(
    r"(?:[\s,]+(?:instead|then|please|pls|entao|então|por\s+favor|pf|pfv|mesmo|na\s+vdd"
    r"|na\s+verdade|na\s+real|actually))+\s*$",
    re.I,
)


def without_afterwords(when: str) -> str:
    """The new time without words said after it ("quinta na vdd" -> "quinta")."""
    return _AFTERWORD.sub("", when) or when


# a clause of its own after the request: "..., remarcaram", "... - not going anymore"
_CLAUSE: Final = re.compile(r"\s*[,;]\s+|\s+[-–—]\s+")


def read_ask(text: str) -> Ask | None:
    """A question about reminders or a change to one, when the words are certain; a
    cancel said with a change of mind before it, or a reason or a clause of its own after it,
    is read without them; a move by an amount ("atrasa meia hora") is a `Shift`."""
    if (shift := read_shift(text)) is not None:
        return shift
    found = _read_ask(text)
    folded = fold_same_length(text)
    lead = _MIND.match(folded)
    start = lead.end() if lead else 0
    reason = _REASON.search(folded, start)
    if isinstance(found, CancelAsk) and found.query and reason is not None and start == 0:
        # "cancela o lembrete do contador pq ele remarcou": the why names no reminder
        without_why = _read_ask(text[: reason.start()])
        return without_why if isinstance(without_why, CancelAsk) else found
    if found is not None:
        return found
    clause = _CLAUSE.search(folded, start)  # "cancela o do dentista, remarcaram"
    for end in (reason.start() if reason else len(text), clause.start() if clause else None):
        if end is None or (start == 0 and end == len(text)):
            continue
        found = _read_ask(text[start:end])
        if isinstance(found, CancelAsk) or (
            isinstance(found, ChangeAsk) and found.query and end == len(text)
        ):
            return found  # "on second thought make the X one 5pm": the X one, moved
    return None


_WEEKDAY_WORDS: Final[dict[str, Weekday]] = {
    word: day
    for day, words in zip(
        WEEKDAYS,
        ("segunda monday", "terca tuesday", "quarta wednesday", "quinta thursday",
         "sexta friday", "sabado saturday", "domingo sunday"),
        strict=True,
    )
    for word in words.split()
}  # fmt: skip
# "pula só o de amanhã", "skip tomorrow's", "skip the next gym one", "pula o próximo do inglês":
# a skip verb, the occurrence (its day or "next"), the reminder's words at most
_SKIP: Final = re.compile(
    r"^\s*(?:(?:pode|can\s+you|please|pls)\s+)?(?:(?:pula|pule|pular|skip|salta)\s+"
    r"(?:(?:so|somente|apenas|just|only)\s+)?"
    # a cancel of only one day's ("cancela só o dessa quarta", "cancel just this friday's")
    r"|(?:cancela|cancele|desmarca|desmarque|cancel|drop)\s+(?:so|somente|apenas|just|only)\s+)"
    r"(?:(?:o|a|the)\s+)?"
    r"(?:(?:(?:d[eoa]|dess[ae]|dest[ae]|this|on)\s+)?(?P<day>hoje|hj|amanha|amn|today|tomorrow|"
    + "|".join(_WEEKDAY_WORDS)
    + r")(?:'?s)?|proxim[oa]|next)"
    r"(?:\s+(?:one|reminder|lembrete))?"
    r"(?:\s+(?:d[eoa]s?|of|for)\s+(?P<query>" + _WORDS + r")|\s+(?P<query_en>" + _WORDS + r")"
    r"\s+(?:one|reminder))?\s*[.!]*\s*$"
)
_SKIP_DAYS: Final[dict[str, Literal["today", "tomorrow"] | Weekday]] = {
    "hoje": "today", "hj": "today", "today": "today",
    "amanha": "tomorrow", "amn": "tomorrow", "tomorrow": "tomorrow",
    **_WEEKDAY_WORDS,
}  # fmt: skip


# a clause: up to a mark, or up to a connective that leads to the request ("amanhã ele vai
# no veterinário então cancela só o de amanhã", "i'm paying early, so cancel just the next")
_SKIP_CONNECTIVE = r"(?:entao|dai|por\s+isso|so|then|therefore)\s+(?=cancel|pul|skip|drop|desmarc)"
_SKIP_CLAUSE: Final = re.compile(
    r"(?:" + _SKIP_CONNECTIVE + r")?(?:[^,;.!\s]|\s(?!" + _SKIP_CONNECTIVE + r"))+"
)
_SKIP_LEAD: Final = re.compile(_SKIP_CONNECTIVE)


def _skipped(folded: str, text: str) -> SkipAsk | None:
    """A skip said in one clause, the others only telling why ("amanhã não vou poder, pula só o
    de amanhã, o resto mantém"); another request beside it is the planner's."""
    bounds = [m.span() for m in _SKIP_CLAUSE.finditer(folded)]
    for clause, end in bounds:
        lead = _SKIP_LEAD.match(folded, clause, end)
        start = lead.end() if lead else clause
        m = _SKIP.match(folded[start:end])
        if m is None:
            continue
        others = " ".join(folded[a:b] for a, b in bounds if (a, b) != (clause, end))
        if ANOTHER_REQUEST.search(others):
            return None
        group = "query" if m.group("query") else "query_en"
        query = text[start + m.start(group) : start + m.end(group)] if m.group(group) else ""
        return SkipAsk(query.strip(), _SKIP_DAYS.get(m.group("day") or ""))
    return None


# said after the reminder's words, for good: "de vez", "pra sempre", "for good", "all of them"
_FOR_GOOD: Final = re.compile(r"\s+" + _FOR_GOOD_WORDS + r"\s*$")


def _cancel_ask(text: str, m: re.Match[str], group: str, items_too: bool) -> CancelAsk:
    """The cancel `m` read, its words for good ("de vez") no part of the reminder's words."""
    words = _words(text, m, group)
    every = _FOR_GOOD.search(fold_same_length(words))
    if every is None or every.start() == 0:
        return CancelAsk(
            words, items_too, every="good" in m.re.groupindex and bool(m.group("good"))
        )
    return CancelAsk(words[: every.start()].strip(), items_too, every=True)


def _read_ask(text: str) -> Ask | None:
    """A question about reminders or a change to one, when the words are certain."""
    folded = fold_same_length(text)
    for pattern in _LISTS:
        if m := pattern.match(folded):
            period = m.group("period")
            return ListAsk(_BY_LETTERS[re.sub(r"\s+", "", period)] if period else None)
    if m := _STOP.match(folded):
        group = next(g for g in ("q", "q_en", "q_no", "q_nm", "q_dn") if m.group(g))
        return _cancel_ask(text, m, group, items_too=False)
    for pattern in (_CHANGE, _CHANGE_TAIL, _CHANGE_ONE, _PUT_ONE, _MOVED):
        if m := pattern.match(folded):
            when = _words(text, m, "when")
            return ChangeAsk(_words(text, m, "query"), _AFTERWORD.sub("", when) or when)
    if m := _NEXT.match(folded):
        return WhenAsk("", reminder_said=bool(m.group("said") or m.group("said_en")))
    if m := _WHEN.match(folded):
        return WhenAsk(_words(text, m, "query"))
    if (skip := _skipped(folded, text)) is not None:
        return skip
    if (period := _agenda(folded)) is not None:
        return ListAsk(None if period == "any" else period)
    if (retimed := read_retime(text)) is not None:
        return retimed
    if m := _CANCEL.match(folded):
        group = next(g for g in ("query", "query_en", "query_my", "query_one") if m.group(g))
        items_too = bool(m.group("erase")) and not m.group("reminder")
        return _cancel_ask(text, m, group, items_too)
    return None


# "quando é o próximo do futebol?", "qnd é o lembrete da Ju?", "when's my dentist reminder?",
# "when is the next gym one?": when a reminder named by its words falls
_WHEN: Final = re.compile(
    r"^\s*(?:e\s+|and\s+)?(?:(?:quando|qnd|qdo|qndo|when)(?:\s+(?:e|eh|é|sera|vai\s+ser|is|s|will\s+be)|'s)"
    # "que horas ficou o do contador?", "what time is the vet one now?": its time after a change
    # (with its subject said: "what time is it?" asks the clock, no reminder)
    r"|(?:(?:a\s+)?(?:que|q)\s+horas?|what\s+time)\s+(?:ficou|fica|e|eh|sera|vai\s+ser|is|s)"
    r"(?=\s+(?:o|a|the|my|meu|minha|lembrete|reminder)\s))\s+"
    r"(?:(?:o|a|the|my|meu|minha)\s+)?(?:(?:proxim[oa]|next)\s+)?(?:lembrete\s+)?"
    r"(?:(?:d[eoa]s?|about|for|of)\s+)?(?P<query>" + _WORDS + r")"
    r"(?:\s+(?:one|reminder|lembrete))?(?:\s+(?:agora|now|entao|then))?\s*\??\s*$"
)


# "qual o próximo lembrete?", "e qual é o próximo então?", "what's my next reminder?", "when's
# the next one then?": the soonest reminder (without the word, only after reminders were talked of)
_NEXT: Final = re.compile(
    r"^\s*(?:e\s+|and\s+|ok\s+|entao\s+|so\s+)?(?:(?:qual|quando|qnd|qdo)(?:\s+(?:e|eh|é|sera|vai\s+ser))?"
    r"\s+(?:o\s+|meu\s+|o\s+meu\s+)?proximo(?:\s+(?P<said>lembrete))?"
    r"|(?:what|when)(?:'s|\s+s|\s+is)\s+(?:my\s+|the\s+)?next(?:\s+one|\s+(?P<said_en>reminder))?)"
    r"(?:\s+(?:entao|agora|then|now))?\s*\??\s*$"
)


# a question about the agenda in any word order ("tenho oq marcado essa semana?", "anything
# scheduled for me tomorrow?"): a word of the agenda, a period at most, nothing of the list
_AGENDA: Final = frozenset(
    """lembrete lembretes reminder reminders marcado marcada marcados agendado agendados
    compromisso compromissos agenda planned scheduled appointments appointment""".split()
)
_NOT_AGENDA: Final = re.compile(
    r"\b(?:filmes?|series?|notas?|links?|videos?|vids?|movies?|films?|shows?|notes?|salv\w*|"
    r"sav\w*|apag\w*|delet\w*|cancel\w*|muda\w*|chang\w*|move|lembra\s+de|remind\s+me|"
    r"me\s+lembra|visto|vi|seen|watch\w*|assist\w*)\b"
)
_QUESTION_HEAD: Final = re.compile(
    r"^(?:e\s+|and\s+)?(?:tenho|tem|ha|quais|qual|que|q|oq|o\s+que|do|does|is|are|what|whats|any|"
    r"anything)\b"
)


# "o que eu tenho hoje?", "what do i have this week?": what the user has on a day is the
# agenda when no word of the list is said (those are "o que eu salvei hoje?")
_WHAT_I_HAVE: Final = re.compile(
    r"^(?:e\s+|and\s+)?(?:o\s+que|oq|o\s+q|que|q|what|what'?s|what\s+s)\s+(?:(?:eu|i)\s+)?"
    r"(?:tenho|tem|have|do\s+i\s+have|have\s+i\s+got|ve\s+i\s+got|i\s+got|got|s\s+on|is\s+on"
    r"|on|s\s+left|is\s+left|left|falta|s\s+coming\s+up|is\s+coming\s+up|coming\s+up|s\s+next|is\s+next)\b"
    r"(?:\s+(?:(?:going\s+)?on|for\s+me|pra\s+mim|marcado))?\s+(?:pra\s+|para\s+|for\s+|on\s+)?"
    + _PERIOD
    + r"\s*\??$"
)


def _agenda(folded: str) -> Period | Literal["any"] | None:
    said = folded.strip()
    if not (said.endswith("?") or _QUESTION_HEAD.match(said)) or len(said) > 80:
        return None
    words = re.findall(r"\w+", said)
    if _NOT_AGENDA.search(said):
        return None
    if _AGENDA.isdisjoint(words) and not _WHAT_I_HAVE.match(said):
        return None
    found = [m for m in re.finditer(_PERIOD, said) if re.match(r"\b", said[m.start() :])]
    periods = {_BY_LETTERS[re.sub(r"\s+", "", m.group("period"))] for m in found}
    if len(periods) > 1:
        return None
    return periods.pop() if periods else "any"


def _words(text: str, m: re.Match[str], group: str) -> str:
    return text[m.start(group) : m.end(group)].strip()


# words that, beside a time, ask nothing of their own: lead-ins, agreement, a verb of moving
# and its pointing words ("16h tá bom", "pode ser 10h então", "8pm works", "ops, é 17h30,
# muda aí", "make it 9 instead")
_RETIME_FILLER: Final = frozenset(
    """na no vdd verdade real alias ops opa oops errei foi mal desculpa desculpe bad ah oh ai
    actually sorry wait hmm entao then instead pls please pf pfv por favor ok okay ta bom boa
    blz beleza fechado perfeito pode ser serve works work fine good great sounds perfect is it
    its it's s that this e eh sera fica ficou melhor mesmo msm ne sim yes yeah yep sure muda
    mude mudar troca troque passa passe coloca coloque bota bote poe deixa deixe joga adia adie
    move change make set put push bump corrige corrija la isso isto it pra para pro pras to at
    as a o for on in em vai will be till until me enganei quis quer dizer corrigindo i meant my
    pensando bem second thought marca marque ponha have p pro ih eita mudaram mudou changed moved""".split()
)
# "amanhã nesse mesmo horário", "saturday, same time": the reminder's own time on that day
SAME_TIME = re.compile(
    r"\b(?:(?:n?ess[ae]|n?est[ae]|n?a|n?o)\s+)?(?:mesm[oa]\s+(?:horario|hora)|(?:horario|hora)"
    r"\s+de\s+(?:hoje|agora))\b|\b(?:(?:at\s+)?(?:the\s+)?same\s+time|this\s+time)\b"
)
_PT_OF: Final = frozenset({"do", "da", "de", "dos", "das"})
# a reason said after the time ("é 17h30 q ela sai"): no part of the reminder's words
_RETIME_REASON: Final = re.compile(r"\b(?:q|que|pq|porque|because|since|cause|cuz)\s[^,;.!]*")
_RETIME_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def read_retime(text: str) -> ChangeAsk | None:
    """A time and, beside it, only a reminder named by what it is about ("na vdd o do aluguel
    pode ser às 8h", "the gym one 7am instead") or words that ask nothing ("16h tá bom",
    "8pm works"): a change of that reminder (or of the one just set), never a new one whose
    text is "tá bom". None when any other word is said; a last clause after a comma that
    only says why ("muda p 14h, ele pediu pra adiar") is read past."""
    asked = _read_retime(text)
    cut = text.rfind(",")
    while asked is None and cut > 0:
        why = fold_same_length(text[cut + 1 :])
        if _RETIME_ASKS_ELSE.search(why) or _says_when(why):
            return None  # "muda p 14h, e cancela o do dentista": another request after it
        asked = _read_retime(text[:cut])
        cut = text.rfind(",", 0, cut)
    return asked


def _says_when(clause: str) -> bool:
    """Whether a clause after the new time may say part of when: any clock, day, period or
    zone, or time words alone ("muda pra 7h, de noite"). A part of the day in a clause with
    words of its own tells why, not when ("melhor 7h30, o caminhão passa cedo", "make it
    7am, traffic is bad in the morning")."""
    when = read_when(tokenize(clause))
    if when is None:
        return False
    if when.clock or when.has_day or when.period or when.zone:
        return True
    rest = clause
    for start, end in when.spans:
        rest = rest[:start] + " " * (end - start) + rest[end:]
    return all(w.group() in _RETIME_FILLER for w in _RETIME_WORD.finditer(rest))


# what a clause after the new time may not say for it to be read past as the why
_RETIME_ASKS_ELSE: Final = re.compile(
    r"\b(?:lembr\w*|remind\w*|cancel\w*|apag\w*|delet\w*|salv\w*|save|anot\w*|note|"
    r"desfaz|undo|muda|mude|change|move|marc\w*|mark|tamb[eé]m|tb|too|also|e\s+o|e\s+a)\b"
)


def _read_retime(text: str) -> ChangeAsk | None:
    folded = fold_same_length(text)
    # "sábado, mesmo horário": the day moves, the time stays (as the day alone says)
    same = SAME_TIME.search(folded)
    rest = SAME_TIME.sub(_blank, folded)
    # the grammar reads the time without the words said after it ("na quinta na vdd")
    said = rest.rstrip(" ,.;!")
    after = _AFTERWORD.search(said)
    when = read_when(tokenize(said[: after.start()] if after else said))
    if when is None or not when.spans or (when.clock is None and not when.has_day):
        return None
    start, end = min(a for a, _ in when.spans), max(b for _, b in when.spans)
    rest = rest[:start] + " " * (end - start) + rest[end:]
    if _VERBS_OF_MOVING.search(rest):
        rest = _RETIME_REASON.sub(_blank, rest)
    words = list(_RETIME_WORD.finditer(rest))
    named = _named_reminder([w.group() for w in words])
    if named is None or not (words or same):  # a time alone ("16h"): a new one's, or an answer
        return None
    first, last = named
    query = text[words[first].start() : words[last - 1].end()] if last > first else ""
    return ChangeAsk(query.strip(), text[start:end].strip())


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


_VERBS_OF_MOVING: Final = re.compile(
    r"\b(?:muda|mude|troca|troque|passa|passe|corrige|corrija|change|move|make|fix)\b"
)


def _named_reminder(words: list[str]) -> tuple[int, int] | None:
    """The word range of the reminder named ("o do aluguel", "the gym one"), (0, 0) when none
    is named, or None when a word beside it asks something else."""
    named: tuple[int, int] | None = None
    i = 0
    while i < len(words):
        found = None if named is not None else _pt_named(words, i) or _en_named(words, i)
        if found is not None:
            named = found
            i = found[1] + (words[i] in ("the", "my"))  # past "one"/"reminder" too
            continue
        if words[i] not in _RETIME_FILLER:
            return None
        i += 1
    return named or (0, 0)


def _pt_named(words: list[str], i: int) -> tuple[int, int] | None:
    """ "o do aluguel", "a da mãe", "o lembrete do dentista" at `i`: its words up to a filler."""
    said = words[i : i + 3]
    if said[:1] not in (["o"], ["a"]) or len(said) < 2:
        return None
    if said[1] in _PT_OF:
        first = i + 2
    elif said[1] == "lembrete" and said[2:] and said[2] in _PT_OF:
        first = i + 3
    else:
        return None
    last = first
    while last < len(words) and words[last] not in _RETIME_FILLER:
        last += 1
    return (first, last) if last > first else None


def _en_named(words: list[str], i: int) -> tuple[int, int] | None:
    """ "the gym one", "my rent reminder" at `i`: the words between."""
    if words[i] not in ("the", "my"):
        return None
    last = next((j for j in range(i + 1, len(words)) if words[j] in ("one", "reminder")), i + 1)
    return (i + 1, last) if last > i + 1 else None
