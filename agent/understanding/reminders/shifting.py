"""A reminder moved by an amount from its own time (PT/EN): "atrasa meia hora", "adianta 1h",
"empurra o da academia 2 horas", "antecipa o lembrete da conta em 15 min", "push it 2 hours",
"move the gym one back 20 min", "bring it forward half an hour", "meia hora mais tarde".

The verb, a particle or a direction word says which way; words that disagree are no
reading, and words that say no way ("move it 1 hour", "push it forward", which English
speakers read both ways) give a shift with no direction, for the caller to ask. "Push" and
"empurra" alone mean later, as in everyday speech ("push the meeting an hour"). Everything
in the message must be read: anything else is None, and the other readers or the planner
take it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from agent.understanding.reminders.lexicon import Phrases, Tok, fold_same_length, tokenize
from agent.understanding.reminders.relative import read_amount

Way = Literal["later", "earlier", "either"]  # "either": the words do not say


@dataclass(frozen=True, slots=True)
class Shift:
    query: str  # the reminder's words as written; "" for the one just set
    seconds: int  # how far, always positive
    later: bool | None  # None: no direction said (ask which)
    amount: str  # the amount as written ("meia hora"), to ask back with


_LEADS: Final = Phrases(
    dict.fromkeys(
        """na verdade|na vdd|alias|ops|opa|oops|hmm|hm|ah|e|and|entao|so|ok|pode|podes|
        por favor|pfv|pf|please|pls|can you|could you|actually|wait|sorry|melhor|
        pensando bem|on second thought""".replace("\n", "").split("|"),
        True,
    )
)
_LATER: Final[Way] = "later"
_EARLIER: Final[Way] = "earlier"
_EITHER: Final[Way] = "either"
_VERBS: Final = Phrases[Way](
    {
        **dict.fromkeys(
            """atrasa atrase atrasar empurra empurre empurrar adia adie adiar posterga postergue
            postergar prorroga prorrogue delay postpone push""".split(),
            _LATER,
        ),
        **dict.fromkeys("adianta adiante adiantar antecipa antecipe antecipar".split(), _EARLIER),
        **dict.fromkeys(
            """muda mude mudar move mova mover passa passe joga jogue mexe mexa shift bump
            bring pull set""".split(),
            _EITHER,
        ),
    }
)
# the reminder said without naming it
_IT: Final = Phrases(
    dict.fromkeys(
        """it|ele|ela|isso|isto|esse|essa|este|esta|this|that|o lembrete|a lembranca|lembrete|
        esse lembrete|este lembrete|meu lembrete|the reminder|my reminder|this reminder|
        that reminder|this one|that one""".replace("\n", "").split("|"),
        True,
    )
)
# the reminder named by what it is about: a head, its words, maybe a tail
_NAMED_HEADS: Final = Phrases(
    dict.fromkeys(
        """o do|o da|o dos|o das|a do|a da|o de|o lembrete do|o lembrete da|o lembrete de|
        o lembrete dos|o lembrete das|lembrete do|lembrete da|lembrete de|the reminder about|
        the reminder for|the reminder to|the reminder of|the one about|the one for|the|my""".replace(
            "\n", ""
        ).split("|"),
        True,
    )
)
_NAMED_TAILS: Final = Phrases({"one": True, "reminder": True, "lembrete": True})
_PARTICLES: Final = Phrases[Way](
    {
        "back": _LATER, "out": _LATER, "pra frente": _LATER, "para frente": _LATER,
        "up": _EARLIER, "forward": _EITHER, "ahead": _EITHER,
    }
)  # fmt: skip
_BEFORE_AMOUNT: Final = frozenset("em by de mais for another outra outros umas uns about".split())
_DIRECTIONS: Final = Phrases[Way](
    {
        "mais tarde": _LATER, "later": _LATER, "depois": _LATER, "after": _LATER,
        "mais cedo": _EARLIER, "earlier": _EARLIER, "antes": _EARLIER, "before": _EARLIER,
    }
)  # fmt: skip
# alone, "1 hora antes" may ask for another reminder before this one: these move a reminder
# only after a verb of moving ("muda pra 30 minutos depois")
_AFTER_A_VERB: Final = frozenset("depois antes after before".split())
_AFTERWORDS: Final = Phrases(
    dict.fromkeys(
        "pfv pf pls please por favor entao then ai instead tambem tb tbm too also".split(), True
    )
)
# "10h", "9h30": an amount written as a clock is read as one only with its way said
_CLOCK_LIKE: Final = re.compile(r"\d{1,2}\s*h(?:\s*\d{2})?")
# a reminder's words never end in the word that leads a new time: "o do dentista para 10h"
_TIME_LEADS: Final = frozenset("para pra pras pro as a to till until at for on em".split())
# the particle only the verbs of bringing use for earlier: "bring it forward"
_FORWARD_IS_EARLIER: Final = frozenset({"bring", "pull"})


def read_shift(text: str, *, moved: bool = False) -> Shift | None:
    """The reminder moved by an amount from its own time, or None; `moved`: the words follow
    a verb of moving the caller read ("30 minutos depois" after "muda pra")."""
    folded = fold_same_length(text)
    toks = tokenize(folded)
    i = _skip_leads(toks, 0)
    verb = _VERBS.match(toks, i)
    way_of_verb: Way | None = None
    verb_word = ""
    if verb is not None:
        way_of_verb, verb_word, i = verb[0], toks[i].text, verb[1]
    for object_first in (True, False):
        found = _rest(text, toks, i, object_first=object_first)
        if found is None:
            continue
        query, seconds, amount, ways, end = found
        if verb is None and not any(w in ("later", "earlier") for w in ways):
            return None  # no verb: only "meia hora mais tarde", "back an hour", its way said
        if verb is None and not moved and any(t.text in _AFTER_A_VERB for t in toks):
            return None  # "e 1 hora antes também": maybe another reminder, before this one
        said: list[Way | None] = [way_of_verb, *ways]
        if "either" in ways[:1]:
            # "bring it forward" is earlier; "push it forward" is read both ways: the verb's
            # own way no longer says, only a direction word would
            said = [_EARLIER] if verb_word in _FORWARD_IS_EARLIER else ways[1:2]
        sure = {w for w in said if w is not None and w != "either"}
        if len(sure) > 1 or seconds <= 0:
            return None  # "adianta 1h mais tarde": the words disagree
        if not sure and _CLOCK_LIKE.fullmatch(fold_same_length(amount)):
            return None  # "muda o lembrete 10h": a clock more likely than an amount
        later = None if not sure else sure == {"later"}
        if end == len(toks):
            return Shift(query, seconds, later, amount)
    return None


def _skip_leads(toks: tuple[Tok, ...], i: int) -> int:
    while (lead := _LEADS.match(toks, i)) is not None or (i < len(toks) and toks[i].text in ",:!."):
        i = lead[1] if lead is not None else i + 1
    return i


def _rest(
    text: str, toks: tuple[Tok, ...], i: int, *, object_first: bool
) -> tuple[str, int, str, list[Way | None], int] | None:
    """After the verb: the reminder and the amount, in either order, with a particle before
    the amount and a direction after it; the reminder's words, the seconds, the amount's
    words, the ways said (particle, direction) and the index after all."""
    query = ""
    if object_first:
        named = _object(text, toks, i)
        if named is None:
            return None
        query, i = named
    if (particle := _PARTICLES.match(toks, i)) is not None:
        i = particle[1]
    while i < len(toks) and toks[i].text in _BEFORE_AMOUNT:
        i += 1
    amount = read_amount(toks, i)
    if amount is None:
        return None
    moved, after = amount
    if moved.months or moved.years or not moved.within_reach:
        return None  # a month is no fixed amount, a million hours none at all
    words = text[toks[i].start : toks[after - 1].end]
    i = after
    if particle is None and (particle := _PARTICLES.match(toks, i)) is not None:
        i = particle[1]  # "push it an hour back"
    direction = _DIRECTIONS.match(toks, i)
    if direction is not None:
        i = direction[1]
    if not object_first and i < len(toks):
        named = _object(text, toks, i, last=True)
        if named is None:
            return None
        query, i = named  # "atrasa 1h o do dentista"
    i = _skip_afterwords(toks, i)
    ways: list[Way | None] = [
        particle[0] if particle else None,
        direction[0] if direction else None,
    ]
    return query, moved.seconds + moved.days * 86400, words, ways, i


def _skip_afterwords(toks: tuple[Tok, ...], i: int) -> int:
    while (after_word := _AFTERWORDS.match(toks, i)) is not None or (
        i < len(toks) and toks[i].text in ",.!?"
    ):
        i = after_word[1] if after_word is not None else i + 1
    return i


def _object(
    text: str, toks: tuple[Tok, ...], i: int, *, last: bool = False
) -> tuple[str, int] | None:
    """The reminder: unnamed ("it", "o lembrete", "" when nothing is said) or named by its
    words ("o do dentista", "the gym one"); its words and the index after."""
    head = _NAMED_HEADS.match(toks, i)
    named = _named(text, toks, i, head[1], last=last) if head is not None else None
    if named is not None:
        return named
    if (it := _IT.match(toks, i)) is not None:
        return "", it[1]
    return ("", i) if head is None else None


def _named(
    text: str, toks: tuple[Tok, ...], i: int, start: int, *, last: bool
) -> tuple[str, int] | None:
    """The reminder's words after their head, up to the amount (or, `last`, to the end)."""
    for end in range(start + 1, min(len(toks), start + 8) + 1):
        tail = _NAMED_TAILS.match(toks, end)
        stop = tail[1] if tail is not None else end
        if start == i + 1 and toks[i].text in ("the", "my") and tail is None:
            continue  # "the gym one", "my gym reminder": English names end with their noun
        if toks[end - 1].text in _TIME_LEADS:
            continue
        if (_skip_afterwords(toks, stop) == len(toks)) if last else _starts_amount(toks, stop):
            return text[toks[start].start : toks[end - 1].end], stop
    return None


def _starts_amount(toks: tuple[Tok, ...], i: int) -> bool:
    if (particle := _PARTICLES.match(toks, i)) is not None:
        i = particle[1]
    while i < len(toks) and toks[i].text in _BEFORE_AMOUNT:
        i += 1
    return read_amount(toks, i) is not None
