"""The intent classifier (DESIGN 3.3): deterministic labels in code, everything else to the planner.

`IntentClassifier().classify(text)` tries these steps in order; the first hit wins:

 1. empty or whitespace-only text: `llm` / other, score 0
 2. a slash command: `/delete_all`, `/list [type]`, `/cancel`, `/start`, `/help` map to their
    labels, every other one is `command` {name, args}; a `@BotName` suffix is dropped.
    `/delete_all` naming a target ("/delete_all filmes") is `command` {delete_all, args} and
    `/delete_all?` is `help`: like the words, the command is `delete_all` only for everything
 3. a lone emoji that means something (thumbs up: confirm, thumbs down: deny, wave: greeting)
 4. `normalize()`; if nothing is left (emoji, punctuation): `llm` / other, score 0
 5. `select`: a number 1-99, an ordinal ("o segundo", "the first one", "último") or a year
    1870-2100 ("2021", "o de 2010")
 6. exact alias lookup of the normalized message
 7. delete guards, for a message with a delete verb: with a negation it is `deny` when it names
    nothing but "everything"/"nothing"/"it" ("não apaga nada", "don't delete everything") and
    `llm` / other when it names a target ("não apaga o inception"); a question about deleting
    everything is `help` ("como eu apago tudo?", "posso apagar tudo?", "apaga tudo?")
 8. alias lookup again after dropping politeness, greeting and "sim"/"ok" fillers at the ends
    ("por favor, apague tudo", "pode listar tudo?", "ok, lista tudo aí"); a message made only
    of one-word aliases of one label ("sim claro", "yeah sure") is that label
 9. a one-word message whose doubled letters squeeze to a one-word alias ("simm", "naao",
    "oii"), score 95; then fuzzy matching, only for short messages whose words are all alias
    words or one typo from one, never for a single word under four letters ("sei" is not
    "ei") and never for `confirm`: a confirmation executes a deletion, so "tal", "poder" or
    "certa" must not pass for "ta", "pode" or "certo". Candidates are the aliases whose
    words line up with the message's (same number of words, each within one typo; or, for
    words run together, the same letters within one edit: "apagatudo"). The best candidate by `rapidfuzz.fuzz.ratio` of the whole message is
    accepted when it reaches its label's cut-off and beats every alias of any other label by
    `FUZZY_MARGIN` ("limta tudo", as near "limpa tudo" as "lista tudo", is left to the
    planner). So "lsita tudo" is `list_all`, while "apaga todos os filmes" never passes for
    "apaga todos os itens".
10. `llm`, with a hint for the planner: save, search, delete or other

`delete_all` comes only from aliases that name nothing but "everything" ("apaga tudo",
"apague todas as minhas memórias", "wipe all my data"), never for a question or a message with
a negation. Other decisions the runtime relies on: "esquece" / "forget it" alone is `cancel`,
while "esquece X" (even "esquece tudo") is `llm` / delete; a year alone is `select` / year
("1984" may be a film: the runtime decides); `/list` with an argument that is not a type lists
everything.

Scores: 100 for command, alias and rule hits; the rounded ratio for a fuzzy hit; for `llm`,
100 minus the ratio (>= `FUZZY_FLOOR`) of the best candidate that lined up but was rejected (a
near miss is a less certain `llm`), else 100; 0 for a message with nothing to classify.

`classify` keeps no state between calls: one instance can serve every chat and thread.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from math import ceil, floor
from types import MappingProxyType
from typing import Any, Final

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA, Levenshtein

from agent.understanding import questions, smalltalk, watchlist
from agent.understanding.reminders import route as reminder_route
from agent.understanding.reminders.requests import only_says_why
from agent.understanding.textnorm import expand_chat
from agent.understanding.vocabulary import (
    CANCEL,
    COMMAND_LABELS,
    COMMAND_RE,
    COMPOUND_LABELS,
    CONFIRM,
    DELETE_ALL_OBJECTS_EN,
    DELETE_ALL_OBJECTS_PT,
    DELETE_ALL_VERBS_EN,
    DELETE_ALL_VERBS_PT,
    DELETE_VERB_FORMS,
    DELETE_VERBS,
    DENY,
    EMOJI,
    EMOJI_MODIFIERS,
    EMPTY,
    EVERYTHING_WORDS,
    EXPLICIT_ONLY,
    FUZZY_CUTOFF,
    FUZZY_CUTOFF_DELETE_ALL,
    FUZZY_FLOOR,
    FUZZY_MARGIN,
    FUZZY_MAX_CHARS,
    FUZZY_MAX_WORDS,
    FUZZY_MIN_ONE_WORD,
    GENDER,
    GREETING_ALONE,
    GREETING_HEADS,
    GREETING_TAILS,
    HEADED_NOTE_RE,
    HELP,
    HOW_WORDS,
    LEADING_FILLERS,
    LIST_ALONE_EN,
    LIST_ALONE_PT,
    LIST_OBJECTS_EN,
    LIST_OBJECTS_PT,
    LIST_TYPED_ALONE_EN,
    LIST_TYPED_ALONE_PT,
    LIST_TYPED_EN,
    LIST_TYPED_PT,
    LIST_VERBS_EN,
    LIST_VERBS_PT,
    LONGEST_START,
    MAX_YEAR,
    MIN_YEAR,
    NEGATIONS,
    NEGATIONS_FIRST,
    ORDINALS,
    QUESTION_PAIRS,
    QUESTION_STARTS,
    REFUSAL_WORDS,
    SAVE_STARTS,
    SAVE_TAILS,
    SAVE_VERBS,
    SEARCH_QUESTION_WORDS,
    SEARCH_STARTS,
    SEARCH_VERBS,
    SELECT_LEAD,
    SELECT_TAIL,
    SELECT_TAIL_WORDS,
    SQUEEZED_SCORE,
    TRAILING_FILLERS,
    TYPE_WORDS,
    TYPES_EN,
    TYPES_PT,
    URL_RE,
    YEAR_RE,
    ItemType,
    Label,
    LlmIntent,
    normalize,
    save_verb_typo,
    split_phrases,
)


@dataclass(frozen=True, slots=True)
class Intent:
    """What a message asks for; `entities` depend on `action` (DESIGN 3.3)."""

    action: Label
    entities: Mapping[str, Any]
    score: int
    text: str


@dataclass(frozen=True, slots=True)
class _Alias:
    key: str
    label: Label
    entities: Mapping[str, Any]
    words: tuple[str, ...]
    letters: str  # the key without spaces: "apagatudo" lines up with "apaga tudo"


class IntentClassifier:
    """Classify one message at a time; every table is built here, once."""

    def __init__(self) -> None:
        exact: dict[str, _Alias] = {}
        for key, label, entities in _grammar():
            alias = _Alias(key, label, entities, tuple(key.split()), key.replace(" ", ""))
            known = exact.setdefault(key, alias)
            if (known.label, dict(known.entities)) != (label, dict(entities)):
                raise ValueError(f"alias {key!r} is both {known.label} and {label}")
        self._exact = exact
        self._single_word = {
            a.key: a.label
            for a in exact.values()
            if len(a.words) == 1 and a.label in COMPOUND_LABELS
        }
        # "simm", "yess", "okk", "naao": a doubled letter is the one typo trusted for every
        # label, including the ones never matched by similarity
        squeezed: dict[str, _Alias] = {}
        for alias in exact.values():
            if len(alias.words) == 1 and alias.label in COMPOUND_LABELS:
                known = squeezed.setdefault(_squeeze(alias.key), alias)
                if known.label != alias.label:
                    raise ValueError(f"{known.key!r} and {alias.key!r} differ by doubled letters")
        self._squeezed = squeezed
        self._fuzzy = [a for a in exact.values() if len(a.words) <= FUZZY_MAX_WORDS]
        self._vocab = frozenset(w for a in self._fuzzy for w in a.words)
        self._vocab_deletes = frozenset(
            d for w in self._vocab if len(w) >= 2 for d in _deletions(w)
        )
        self._longest_word = max(len(w) for w in self._vocab)
        self._run_together = frozenset(
            a + b for alias in self._fuzzy for a, b in pairwise(alias.words)
        )
        by_head: dict[tuple[int, str], list[int]] = {}
        by_letters: dict[tuple[str, int], list[int]] = {}
        for i, alias in enumerate(self._fuzzy):
            for key in _within_one_delete(alias.words[0]):
                by_head.setdefault((len(alias.words), key), []).append(i)
            by_letters.setdefault((alias.letters[:2], len(alias.letters)), []).append(i)
        self._by_head = {k: tuple(v) for k, v in by_head.items()}
        self._by_letters = {k: tuple(v) for k, v in by_letters.items()}
        # for the margin: every alias of the other labels, sorted by length
        self._rivals: dict[Label, tuple[list[int], list[str]]] = {}
        for label in {a.label for a in self._fuzzy}:
            rivals = sorted((a.key for a in self._fuzzy if a.label != label), key=len)
            self._rivals[label] = ([len(k) for k in rivals], rivals)
        self._leading = _fillers(LEADING_FILLERS, leading=True)
        self._trailing = _fillers(TRAILING_FILLERS, leading=False)
        ordinals = "|".join(sorted(ORDINALS, key=len, reverse=True))
        self._select_re = re.compile(
            rf"^{SELECT_LEAD}(?:(?P<num>\d{{1,2}})(?:o|a|st|nd|rd|th)?|(?P<word>{ordinals}))"
            rf"{SELECT_TAIL}"
        )
        self._select_last_words = frozenset(ORDINALS) | frozenset(
            w.split()[-1] for w in split_phrases(SELECT_TAIL_WORDS)
        )
        self._typed: dict[ItemType, Mapping[str, Any]] = {
            t: MappingProxyType({"type": t}) for t in set(TYPE_WORDS.values())
        }
        self._hints: dict[LlmIntent, Mapping[str, Any]] = {
            i: MappingProxyType({"intent": i}) for i in ("save", "search", "delete", "other")
        }

    def classify(self, text: str) -> Intent:
        """Return the intent of one message; never raises for any str."""
        if smalltalk.asks_capability(text):  # "vc salva filmes?" asks what Lembra does
            return Intent("help", EMPTY, 100, text)
        intent = refine(self._classify(text))
        if intent.action == "llm" and (last := _last_clause(text)) is not None:
            # "na real quero começar do zero, apaga tudo": why, then the command; only
            # «apaga tudo», which shows what it would delete and waits for "sim" anyway
            said = self._classify(last)
            before = self._classify(text[: text.rindex(last)])
            says_why = before.action != "llm" or before.entities.get("intent") == "other"
            if (
                said.action == "delete_all"
                and before.action in ("llm", "smalltalk", "greeting")
                and says_why
                and not _has_negation(normalize(text).split() or [""])
            ):
                return Intent("delete_all", said.entities, said.score, text)
        return intent

    def _classify(self, text: str) -> Intent:
        stripped = text.strip()
        if not stripped:
            return self._llm(text, "other", 0)
        if stripped[0] == "/" and (command := self._command(text, stripped)) is not None:
            return command
        routed = reminder_route(stripped)
        if routed is not None and routed[0] in ("remind", "remind_or_note") and _marks(stripped):
            # "finally finished it, 9/10": a rating, not the 9th of October; "me indica algo
            # curto pra ver hj à noite": a pick from the list for tonight, no reminder
            routed = None
        if routed is not None:  # reminders and undo (DESIGN 9.3, 9.4)
            return Intent(
                "command", MappingProxyType({"name": routed[0], "args": routed[1]}), 100, text
            )
        if len(stripped) <= 8 and not stripped.isascii():
            emoji_label = EMOJI.get(stripped.translate(EMOJI_MODIFIERS))
            if emoji_label is not None:
                return Intent(emoji_label, EMPTY, 100, text)
        norm = expand_chat(normalize(stripped))  # "lista td", "qts filmes" (issue 41)
        if not norm:
            return self._llm(text, "other", 0)
        if stripped[0] != "-" and (choice := self._select(norm)) is not None:
            return Intent("select", choice, 100, text)  # "-1" is no choice
        words = norm.split()
        is_question = "?" in stripped or _starts_question(words)
        hit = self._exact.get(norm)
        if hit is not None:
            return _from_alias(hit, text, 100, is_question=is_question)
        if (wiped := self._delete_all_because(stripped, words, is_question)) is not None:
            return wiped
        if (guarded := self._delete_guard(text, words, is_question=is_question)) is not None:
            return guarded
        core_words = self._strip_fillers(words)
        core = " ".join(core_words)
        if core != norm:
            if (choice := self._select(core)) is not None:
                return Intent("select", choice, 100, text)
            if (hit := self._exact.get(core)) is not None:
                return _from_alias(hit, text, 100, is_question=is_question)
        if (everything := self._everything_scoped(core_words)) is not None:
            return _from_alias(everything, text, 100, is_question=is_question)
        only = " ".join(w for w in core_words if w not in _ONLY)
        if only != core and (hit := self._exact.get(only)) is not None and hit.label == "list_all":
            return Intent(hit.label, hit.entities, 100, text)  # "mostra só as séries"
        if (compound := self._compound(core_words)) is not None:
            return Intent(compound, EMPTY, 100, text)
        if len(core_words) == 1 and (hit := self._squeezed.get(_squeeze(core))) is not None:
            return Intent(hit.label, hit.entities, SQUEEZED_SCORE, text)
        near_miss = 0
        if (
            len(core_words) <= FUZZY_MAX_WORDS
            and (len(core_words) > 1 or len(core) >= FUZZY_MIN_ONE_WORD)
            and len(core) <= FUZZY_MAX_CHARS
            and all(self._near_vocabulary(w) for w in core_words)
            and not _chat_word(core_words)
        ):
            allow_delete_all = not (is_question or _has_negation(words))
            accepted, score = self._fuzzy_match(core, core_words, allow_delete_all)
            if accepted is not None:
                return _from_alias(accepted, text, score, is_question=is_question)
            near_miss = score
        hint = self._hint(words, stripped, is_question=is_question)
        return self._llm(text, hint, 100 - near_miss)

    # --- steps, in order ---

    def _command(self, text: str, stripped: str) -> Intent | None:
        match = COMMAND_RE.match(stripped)
        if match is None:
            return None
        name = match.group(1).lower()
        args = (match.group(2) or "").strip()
        label = COMMAND_LABELS.get(name)
        if label == "delete_all" and (guarded := _delete_all_command(name, args, stripped)):
            return Intent(guarded, _command_entities(name, args, guarded), 100, text)
        if label is None:
            return Intent("command", MappingProxyType({"name": name, "args": args}), 100, text)
        item_type = TYPE_WORDS.get(_without_page(normalize(args))) if label == "list_all" else None
        return Intent(label, self._typed[item_type] if item_type else EMPTY, 100, text)

    def _select(self, norm: str) -> Mapping[str, Any] | None:
        last = norm[norm.rfind(" ") + 1 :]
        if not (last[0].isdigit() or last in self._select_last_words):
            return None
        match = self._select_re.match(norm)
        if match is not None:
            if (word := match.group("word")) is not None:
                return MappingProxyType({"index": ORDINALS[word]})
            number = int(match.group("num"))
            return MappingProxyType({"index": number - 1}) if number >= 1 else None
        match = YEAR_RE.match(norm)
        if match is not None and MIN_YEAR <= (year := int(match.group("year"))) <= MAX_YEAR:
            return MappingProxyType({"year": year})
        return None

    def _delete_guard(self, text: str, words: list[str], *, is_question: bool) -> Intent | None:
        if DELETE_VERB_FORMS.isdisjoint(words):
            return None
        if self._deleted_last(text.strip()) == "delete":
            # a clause saying why, negated or not ("nem precisa mais"), then the deletion
            return None
        if _has_negation(words):
            rest = words[1:] if words[0] in NEGATIONS_FIRST else words
            if all(w in REFUSAL_WORDS or w in DELETE_VERB_FORMS or w in NEGATIONS for w in rest):
                return Intent("deny", EMPTY, 100, text)
            return self._llm(text, "other", 100)
        if is_question and not EVERYTHING_WORDS.isdisjoint(words):
            return Intent("help", EMPTY, 100, text)
        return None

    def _strip_fillers(self, words: list[str]) -> list[str]:
        """Drop fillers at the end, then at the start ("ok obrigado" keeps "ok")."""
        end = len(words)
        while end > 1 and words[end - 1] in self._trailing.edge_words:
            for n, fillers in self._trailing.groups:
                if end > n and " ".join(words[end - n : end]) in fillers:
                    end -= n
                    break
            else:
                break
        return words[_strip_leading(words[:end], self._leading) : end]

    def _delete_all_because(self, said: str, words: list[str], is_question: bool) -> Intent | None:
        """ "actually wipe everything, i wanna start fresh": a delete-all clause and only why
        after it is that delete-all (which asks before it runs)."""
        head, comma, why = said.partition(",")
        if not comma or is_question or _has_negation(words) or not why.strip():
            return None
        lead = expand_chat(normalize(head)).split()
        while lead[:1] and lead[0] in _TAKING_BACK:  # "actually wipe everything, ..."
            lead = lead[1:]
        if not lead:
            return None
        core = " ".join(self._strip_fillers(lead))
        hit = self._exact.get(core)
        reason = normalize(why)
        if hit is None or hit.label != "delete_all" or _NARROWS.search(reason):
            return None
        return Intent("delete_all", hit.entities, 100, said) if only_says_why(reason) else None

    def _everything_scoped(self, words: list[str]) -> _Alias | None:
        """ "apaga tudo q eu tenho salvo aqui", "wipe everything i've got saved": a delete-all
        whose "everything" is followed only by words that say where it is kept."""
        if len(words) < 3 or words[1] not in _EVERYTHING_HEADS:
            return None
        hit = self._exact.get(f"{words[0]} {words[1]}")
        if hit is None or hit.label != "delete_all" or not _SCOPE_OF_ALL.issuperset(words[2:]):
            return None
        return hit

    def _compound(self, words: list[str]) -> Label | None:
        """The label of a message made of one-word aliases of one label ("sim claro", "yeah sure")."""
        if len(words) < 2 or words[0] not in self._single_word:
            return None
        labels = {self._single_word.get(w) for w in words}
        if len(labels) != 1:
            return None
        return labels.pop()

    def _near_vocabulary(self, word: str) -> bool:
        """Whether `word` is an alias word or one typo from one (the cheap gate to fuzzy)."""
        vocab, deletes = self._vocab, self._vocab_deletes
        if word in vocab or word in deletes:
            return True
        if 3 <= len(word) <= self._longest_word + 1 and any(
            d in vocab or d in deletes for d in _deletions(word)
        ):
            return True
        return word in self._run_together  # "apagatudo"

    def _fuzzy_match(
        self, core: str, words: list[str], allow_delete_all: bool
    ) -> tuple[_Alias | None, int]:
        """Return (the accepted alias, its score), or (None, the best rejected score)."""
        letters = core.replace(" ", "")
        ids: set[int] = set()
        for key in _within_one_delete(words[0]):
            ids.update(self._by_head.get((len(words), key), ()))
        for length in (len(letters) - 1, len(letters), len(letters) + 1):
            ids.update(self._by_letters.get((letters[:2], length), ()))
        if not ids:
            return None, 0
        candidates = [self._fuzzy[i] for i in ids]
        hits = process.extract(
            core,
            [a.key for a in candidates],
            scorer=fuzz.ratio,
            score_cutoff=FUZZY_FLOOR,
            limit=None,
        )
        near_miss = 0
        for _, ratio, index in hits:  # best first
            alias = candidates[index]
            if not _lines_up(words, letters, alias):
                continue
            cutoff = FUZZY_CUTOFF_DELETE_ALL if alias.label == "delete_all" else FUZZY_CUTOFF
            if (
                ratio >= cutoff
                and alias.label not in EXPLICIT_ONLY
                and (allow_delete_all or alias.label != "delete_all")
                and not self._has_rival(core, alias.label, ratio)
            ):
                return alias, round(ratio)
            near_miss = max(near_miss, round(ratio))
        return None, near_miss

    def _has_rival(self, core: str, label: Label, ratio: float) -> bool:
        """Whether an alias of another label is within `FUZZY_MARGIN` of `ratio`."""
        lengths, keys = self._rivals[label]
        floor_ratio = ratio - FUZZY_MARGIN  # > 0: ratio is at least FUZZY_CUTOFF here
        # ratio = 2·matches / (n + m) >= r bounds the rival's length m
        shortest = ceil(len(core) * floor_ratio / (200 - floor_ratio))
        longest = floor(len(core) * (200 - floor_ratio) / floor_ratio)
        window = keys[bisect_left(lengths, shortest) : bisect_right(lengths, longest)]
        rival = process.extractOne(core, window, scorer=fuzz.ratio, score_cutoff=floor_ratio + 1e-6)
        return rival is not None

    def _hint(self, words: list[str], stripped: str, *, is_question: bool) -> LlmIntent:
        """What the planner will most likely be asked to do (a hint, not a decision)."""
        words = words[_strip_leading(words, self._leading) :]
        first, phrase = words[0], " ".join(words[:LONGEST_START]) + " "
        if phrase.startswith(SAVE_STARTS):
            return "save"
        if first in NEGATIONS or first in NEGATIONS_FIRST or first in HOW_WORDS:
            return self._deleted_last(stripped)
        if first in SAVE_VERBS:
            return "save"
        if first in DELETE_VERBS:
            return "delete"
        if _typed_save_verb(first):
            return "save"  # "slava o filme X": a save verb with one slip of the finger
        has_url = ("://" in stripped or "www." in stripped.lower()) and bool(
            URL_RE.search(stripped)
        )
        if (
            ":" in stripped
            and (headed := HEADED_NOTE_RE.match(stripped))
            and not (has_url and URL_RE.match(stripped))
        ):
            head = normalize(headed.group(1)).split()
            if (
                # "outra coisa pra anotar, separado: X": a longer head that says to save
                (len(head) <= 4 or (len(head) <= 8 and not SAVE_VERBS.isdisjoint(head)))
                and not (len(head) == 1 and head[0] in SEARCH_VERBS)
                and _EDIT_HEAD.isdisjoint(head)  # "muda essa nota pra: X" edits, saves nothing
            ):
                return "save"  # "lista de compras: leite", "ideia: app de receitas"
        if not is_question and _names_a_title(words, stripped):
            return "save"  # "filme Os Normais", "tv show Shogun": a label and what it labels
        if first in SEARCH_VERBS or phrase.startswith(SEARCH_STARTS):
            return "search"
        if is_question and not SEARCH_QUESTION_WORDS.isdisjoint(words):
            return "search"
        if not is_question and (" " + " ".join(words)).endswith(SAVE_TAILS):
            return "save"  # "the office pra ver depois"
        if has_url:
            return "save"
        return self._deleted_last(stripped)

    def _deleted_last(self, stripped: str) -> LlmIntent:
        """ "ah nem precisa mais, a tia leva o bolo. apaga essa nota": why first, then the
        deletion (which asks "sim" before it deletes); "other" for anything else."""
        last = _CLAUSE_CUT.split(stripped)[-1]
        tail = normalize(last).split() if last != stripped else []
        tail = tail[_strip_leading(tail, self._leading) :] if tail else tail
        if not tail or tail[0] not in DELETE_VERBS or _has_negation(tail):
            return "other"
        return "delete"

    def _llm(self, text: str, hint: LlmIntent, score: int) -> Intent:
        return Intent("llm", self._hints[hint], score, text)


# --- helpers ---

# where a clause ends: a stop, a semicolon or a comma before a space
_CLAUSE_CUT: Final = re.compile(r"[,.;!]+\s+")


def _grammar() -> Iterator[tuple[str, Label, Mapping[str, Any]]]:
    """Every alias as (normalized text, label, entities)."""
    yield from _plain(CONFIRM, "confirm")
    yield from _plain(DENY, "deny")
    yield from _plain(CANCEL, "cancel")
    yield from _plain(
        [
            " ".join(f"{h} {n} {t}".split())
            for h in GREETING_HEADS
            for n in ("", "lembra")
            for t in GREETING_TAILS
        ],
        "greeting",
    )
    yield from _plain(GREETING_ALONE, "greeting")
    yield from _plain(HELP, "help")
    for verbs, objects in (
        (DELETE_ALL_VERBS_PT, DELETE_ALL_OBJECTS_PT),
        (DELETE_ALL_VERBS_EN, DELETE_ALL_OBJECTS_EN),
    ):
        yield from _plain([f"{v} {o}" for v in verbs for o in objects], "delete_all")
    for verbs, objects in ((LIST_VERBS_PT, LIST_OBJECTS_PT), (LIST_VERBS_EN, LIST_OBJECTS_EN)):
        yield from _plain([f"{v} {o}" for v in verbs for o in objects], "list_all")
    yield from _plain(LIST_ALONE_PT + LIST_ALONE_EN, "list_all")
    typed: dict[ItemType, Mapping[str, Any]] = {}
    for plural, gender, item_type in TYPES_PT:
        entities = typed.setdefault(item_type, MappingProxyType({"type": item_type}))
        forms = [t.format(p=plural, **GENDER[gender]) for t in LIST_TYPED_PT]
        alone = [t.format(p=plural, **GENDER[gender]) for t in LIST_TYPED_ALONE_PT]
        for form in (*forms, *alone, *(f"{v} {f}" for v in LIST_VERBS_PT for f in forms)):
            yield form, "list_all", entities
    for plural, item_type in TYPES_EN:
        entities = typed.setdefault(item_type, MappingProxyType({"type": item_type}))
        one = plural if plural.endswith("series") else plural.removesuffix("s")  # "movie list"
        forms = [t.format(p=plural, one=one) for t in LIST_TYPED_EN]
        alone = [t.format(p=plural, one=one) for t in LIST_TYPED_ALONE_EN]
        for form in (*forms, *alone, *(f"{v} {f}" for v in LIST_VERBS_EN for f in forms)):
            yield form, "list_all", entities


_TAKING_BACK: Final = frozenset({"actually", "na", "verdade", "vdd", "alias", "enfim"})
# words after a delete-all that narrow it ("apaga tudo, menos os filmes"): no reason, never all
_NARROWS: Final = re.compile(
    r"\b(?:menos|exceto|fora|except|but|besides|other|only|so|apenas|somente|just|keep|mantem"
    r"|manter|deixa|leave|sem|without|nao|not|no|dont)\b"
)
# after "tudo"/"everything", words that only say where it is kept ("tudo q eu tenho salvo aqui")
_EVERYTHING_HEADS: Final = frozenset({"tudo", "everything"})
_SCOPE_OF_ALL: Final = frozenset(
    """o que eu tenho tem temos salvo salvos salvas salvei guardei guardado guardados anotei aqui
    ai ae la na no da do nessa neste nesse minha meu minhas meus lista listas i ive have saved
    stored got on in my the list lists here there that""".split()
)
# "só", "only": a list of one type asks no less for them ("me mostra só as séries")
_ONLY: Final = frozenset({"so", "apenas", "somente", "only", "just"})


def _chat_word(words: list[str]) -> bool:
    """Whether a one-word message is a word of small talk in its own right ("show", "top",
    "massa"): no typo of a command ("show" is no "shows": "show, vlw" thanks)."""
    return len(words) == 1 and words[0] in smalltalk.ACK | smalltalk.PRAISE | smalltalk.THANKS


def refine(intent: Intent) -> Intent:
    """Small talk, questions about saved things and link questions (DESIGN 9.2, smalltalk.py)."""
    if intent.action not in ("llm", "greeting"):
        return intent
    text = intent.text
    kind = smalltalk.smalltalk_kind(text)
    if intent.action == "greeting":
        if kind == "greeting" and not smalltalk.GREETING_TAILS.isdisjoint(smalltalk.words_of(text)):
            return Intent("smalltalk", MappingProxyType({"kind": kind}), intent.score, text)
        return intent
    asked_when = questions.read_question(text)
    if asked_when is not None and asked_when.window and not asked_when.subject:
        # "o que eu salvei essa semana?", "quantos filmes salvei hoje?": a list by period
        period_entities: dict[str, Any] = {"period": asked_when.window}
        if asked_when.type is not None:
            period_entities["type"] = asked_when.type
        return Intent("list_all", MappingProxyType(period_entities), 100, text)
    asked = smalltalk.saved_question_types(text)
    if asked is not None:
        entities = (
            MappingProxyType({"types": asked})  # "q filmes e séries eu tenho?"
            if len(asked) > 1
            else MappingProxyType({"type": asked[0]})
            if asked
            else EMPTY
        )
        return Intent("list_all", entities, 100, text)
    if kind is not None:
        return Intent("smalltalk", MappingProxyType({"kind": kind}), 100, text)
    if intent.entities.get("intent") == "save" and smalltalk.asks_about_link(text):
        return Intent("llm", MappingProxyType({"intent": "other"}), intent.score, text)
    return intent


def _plain(keys: Iterable[str], label: Label) -> Iterator[tuple[str, Label, Mapping[str, Any]]]:
    for key in keys:
        yield key, label, EMPTY


def _from_alias(alias: _Alias, text: str, score: int, *, is_question: bool) -> Intent:
    if alias.label == "delete_all" and is_question:
        return Intent("help", EMPTY, score, text)
    return Intent(alias.label, alias.entities, score, text)


@dataclass(frozen=True, slots=True)
class _Fillers:
    groups: tuple[tuple[int, frozenset[str]], ...]  # by word count, longest first
    edge_words: frozenset[str]  # first (leading) or last (trailing) words: a cheap pre-check


def _fillers(phrases: Iterable[str], *, leading: bool) -> _Fillers:
    groups: dict[int, set[str]] = {}
    for phrase in phrases:
        groups.setdefault(len(phrase.split()), set()).add(phrase)
    return _Fillers(
        tuple((n, frozenset(groups[n])) for n in sorted(groups, reverse=True)),
        frozenset(p.split()[0 if leading else -1] for g in groups.values() for p in g),
    )


def _typed_save_verb(word: str) -> bool:
    """Whether `word` (5+ letters) is a save verb of 5+ letters with one typo."""
    return save_verb_typo(word) is not None


def _strip_leading(words: list[str], fillers: _Fillers) -> int:
    """Index of the first word after the leading fillers; at least one word is kept."""
    start = 0
    while words[start] in fillers.edge_words:
        for n, group in fillers.groups:
            if len(words) - start > n and " ".join(words[start : start + n]) in group:
                start += n
                break
        else:
            break
    return start


def _squeeze(word: str) -> str:
    """Every run of one letter as one letter: "simm" and "sim" are "sim", "isso" is "iso"."""
    return _RUNS.sub(r"\1", word)


_RUNS: Final = re.compile(r"(.)\1+")


def _deletions(word: str) -> Iterator[str]:
    return (word[:i] + word[i + 1 :] for i in range(len(word)))


def _within_one_delete(word: str) -> tuple[str, ...]:
    """The word and its one-letter deletions: two words one typo apart share one of these."""
    return (word, *_deletions(word)) if len(word) >= 2 else (word,)


def _delete_all_command(name: str, args: str, stripped: str) -> Label | None:
    """`/delete_all` with more than itself: a question is `help`, a target is a `command`.

    "/delete_all filmes" names a target, so it is never `delete_all` (DESIGN 3.3): it
    becomes the `command` {name, args} the runtime answers with how to delete one thing.
    "/delete_all tudo" or "/delete_all please" is still `delete_all`.
    """
    if "?" in stripped:
        return "help"
    words = normalize(args).split()
    if all(w in EVERYTHING_WORDS or w in _DELETE_ALL_ARG_FILLERS for w in words):
        return None
    return "command"


_DELETE_ALL_ARG_FILLERS: Final = frozenset(
    split_phrases(
        "por, favor, pfv, pf, please, pls, plz, mesmo, agora, now, o, a, os, as, the, my, meus, "
        "minhas, of"
    )
)


def _command_entities(name: str, args: str, label: Label) -> Mapping[str, Any]:
    return MappingProxyType({"name": name, "args": args}) if label == "command" else EMPTY


def _without_page(args: str) -> str:
    """`/list filmes 2` names the type and then a page (the runtime reads the page itself)."""
    head, _, last = args.rpartition(" ")
    return head if head and last.isdigit() else args


def _starts_question(words: list[str]) -> bool:
    return words[0] in QUESTION_STARTS or " ".join(words[:2]) in QUESTION_PAIRS


_EDIT_HEAD = frozenset(
    """muda mude mudar troca troque trocar altera altere alterar corrige corrija corrigir edita
    edite editar atualiza atualize apaga apague deleta remove change edit update fix delete
    rename renomeia""".split()
)


# a title's type said alone in front of it ("filme Os Normais"), as a headed "filme: X" is;
# never before a word that makes it a description ("filme do Nolan", "show de hoje")
_TITLE_HEADS: Final = frozenset(split_phrases("filme, movie, film, serie, seriado, show, tv show"))
_DESCRIBED_BY: Final = frozenset(
    split_phrases(
        """de, do, da, dos, das, sobre, com, que, pra, para, no, na, em, about, of, with, that,
        for, by, on, in, from, is, e, and"""
    )
)


def _names_a_title(words: list[str], said: str) -> bool:
    """Whether `words` are a title's type and then the title, written as one ("série Dark",
    "tv show Shogun"; "movie night tomorrow" is no title)."""
    for n in (2, 1):
        if " ".join(words[:n]) in _TITLE_HEADS and len(words) > n:
            written = said.split()
            title = written[n] if len(written) > n else ""
            return words[n] not in _DESCRIBED_BY and (title[:1].isupper() or title[:1].isdigit())
    return False


def _last_clause(text: str) -> str | None:
    """The clause after the message's last comma, period or semicolon, when there is one."""
    if len(text) > 300 or "\n" in text.strip():
        return None
    parts = [p for p in re.split(r"[,.;!]+", text) if p.strip()]
    return parts[-1].strip() if len(parts) > 1 else None


def _has_negation(words: list[str]) -> bool:
    return words[0] in NEGATIONS_FIRST or not NEGATIONS.isdisjoint(words)


def _lines_up(words: list[str], letters: str, alias: _Alias) -> bool:
    """Whether each word is its alias word within one typo (one-letter words: exactly).

    With a different number of words (run together or split), the letters without spaces
    must be within one edit.
    """
    if len(words) != len(alias.words):
        return Levenshtein.distance(letters, alias.letters, score_cutoff=1) <= 1
    for word, target in zip(words, alias.words, strict=True):
        if word != target:
            if len(target) <= 1 or OSA.distance(word, target, score_cutoff=1) > 1:
                return False
    return True


def _marks(text: str) -> bool:
    """Whether `text` is certainly a watchlist mark ("já vi Duna, 9/10"), a past the user
    tells, or a pick from the list ("me indica algo pra ver hoje à noite"): never a time to
    be reminded at."""
    return isinstance(watchlist.read(text), watchlist.MarkRequest | watchlist.SuggestRequest)
