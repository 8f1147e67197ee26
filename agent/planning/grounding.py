"""Grounding (DESIGN 9.6): every fact a tool call carries is traced to a source before the tool runs.

Sources are the user's message, earlier user messages, tool results and replies shown
in this conversation (never the model's own calls or prose; a page `enrich_link`
fetched is such a tool result, so it backs a link's title and description), and
confirmation by the source itself: TMDB by id when it answers.
Text is compared accent-, case- and punctuation-folded, word by word, with one typo
per word. An ungrounded optional fact (year, tmdb_id, a link or video title or
description) is dropped and named `ungrounded:FIELD`; an ungrounded required argument
makes the call invalid, and the model is told which argument it is.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from pydantic import ValidationError
from rapidfuzz import process
from rapidfuzz.distance import OSA

from agent.deps import Deps
from agent.errors import ServiceError, ServiceUnavailable
from agent.planning.offline import plan_offline
from agent.planning.schema import PLANNER_FUNCTION_NAME
from agent.services.tmdb import TmdbCandidate, TmdbKind
from agent.tools.base import ToolArgs
from agent.understanding.datafence import CLOSE, OPEN
from agent.understanding.questions import asks_how_many
from agent.understanding.textnorm import one_line
from agent.understanding.urls import InvalidUrl, extract_urls, normalize_url
from agent.understanding.vocabulary import SAVE_VERBS, TYPE_WORDS, save_verb_typo
from agent.understanding.watchlist import marks_a_title
from storage.documents import ItemDoc

Verdict = Literal["grounded", "dropped", "reasked"]
Kind = Literal["url", "some_word", "all_words", "year", "tmdb_id", "user_words"]

# Words that carry no fact: a title's article needs no source.
STOPWORDS = frozenset(
    "o a os as um uma de do da dos das e em no na the an of and in on to my meu minha".split()
)
TYPO_MIN_LENGTH = 4  # "one typo per word" on short words would make "car" ground "cat"
SQUASH_MIN_LENGTH = 6  # "spiderman" grounds "Spider-Man"; shorter values are words, not names
_TMDB_KIND: dict[str, TmdbKind] = {"save_movie": "movie", "save_tv_show": "tv"}
_TMDB_LANGUAGE = {"pt": "pt-BR", "en": "en-US"}
# Combining marks left by NFKD (Latin, Greek, Cyrillic accents and their extensions).
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_NON_WORD = re.compile(r"[^\w]+")
_CORRECTION_PREFIX = "error:"  # runtime corrections (step.py) are not the user's words


@dataclass(frozen=True, slots=True)
class FieldRule:
    name: str
    kind: Kind
    droppable: bool  # optional fact: dropped when ungrounded; otherwise the call is invalid


@dataclass(frozen=True, slots=True)
class Checked:
    """A call after grounding: the arguments to run (None when invalid) and what happened per field."""

    args: ToolArgs | None
    problem: str | None
    fields: tuple[tuple[str, Verdict], ...]

    @property
    def dropped(self) -> tuple[str, ...]:
        return tuple(name for name, verdict in self.fields if verdict == "dropped")


def rules_for(args_model: type[ToolArgs]) -> tuple[FieldRule, ...]:
    """Which of a tool's arguments name content, and whether each may be dropped."""
    rules: list[FieldRule] = []
    for name, info in args_model.model_fields.items():
        optional = not info.is_required()
        if name == "url":
            rules.append(FieldRule(name, "url", False))
        elif name in ("content", "query", "note", "event"):
            rules.append(FieldRule(name, "some_word", False))
        elif name == "fact":  # what the user said of themselves: never a tool result's words
            rules.append(FieldRule(name, "user_words", False))
        elif name == "title":
            rules.append(FieldRule(name, "all_words", optional))
        elif name == "description":
            rules.append(FieldRule(name, "all_words", True))
        elif name in ("year", "tmdb_id"):
            rules.append(FieldRule(name, name, True))  # type: ignore[arg-type]
    return tuple(rules)


class Sources:
    """Folded words and normalized links of everything that may back a fact."""

    def __init__(self) -> None:
        self.tokens: set[str] = set()
        self._by_length: dict[int, list[str]] = {}
        self._indexed = 0  # how many tokens _by_length holds
        self.squashed: list[str] = []
        self._raw: list[str] = []
        self._urls: set[str] | None = None

    @property
    def urls(self) -> set[str]:
        """Normalized links of every source, read on first use (most calls carry none)."""
        if self._urls is None:
            self._urls = set()
        for raw in self._raw:
            for url in extract_urls(raw):
                normalized = _normalized(url)
                if normalized is not None:
                    self._urls.add(normalized)
        self._raw.clear()
        return self._urls

    def add(self, raw: str) -> None:
        folded = fold(raw)
        if not folded:
            return
        self.tokens.update(folded.split())
        self.squashed.append(folded.replace(" ", ""))
        if "." in raw:  # no dot, no link
            self._raw.append(raw)

    def has_word(self, word: str) -> bool:
        """Whether `word` (folded) is a source word, allowing one typo in a word of 4+ letters."""
        if word in self.tokens:
            return True
        if len(word) < TYPO_MIN_LENGTH or any(c.isdigit() for c in word):
            return False  # a digit off is another number, another fact
        by_length = self._index()
        for length in (len(word) - 1, len(word), len(word) + 1):
            near = by_length.get(length)
            if near and process.extractOne(word, near, scorer=OSA.distance, score_cutoff=1):
                return True
        return False

    def _index(self) -> dict[int, list[str]]:
        """Source words by length, built only when a typo is looked for."""
        if self._indexed != len(self.tokens):
            self._by_length = {}
            for token in self.tokens:
                self._by_length.setdefault(len(token), []).append(token)
            self._indexed = len(self.tokens)
        return self._by_length

    def has_run(self, value: str) -> bool:
        """Whether the whole folded value, spaces aside, appears in one source ("spiderman")."""
        squashed = fold(value).replace(" ", "")
        return len(squashed) >= SQUASH_MIN_LENGTH and any(squashed in s for s in self.squashed)


class ConversationSources:
    """The sources of one turn, read from its messages as they grow (each message read once)."""

    def __init__(self, user_text: str, messages: list[BaseMessage]) -> None:
        self.message = Sources()  # most facts are in the message itself: checked first, alone
        self.message.add(user_text)
        self.sources = Sources()
        self.sources.add(user_text)
        self.said = Sources()  # the user's own words only (a remembered fact's source)
        self.said.add(user_text)
        self._messages = messages
        self._read = 0
        self._model_prose: list[str] = []

    def current(self) -> Sources:
        for message in self._messages[self._read :]:
            self._ingest(message)
        self._read = len(self._messages)
        return self.sources

    def _ingest(self, message: BaseMessage) -> None:
        content = _unfenced(message.content if isinstance(message.content, str) else "")
        if isinstance(message, HumanMessage):
            if not content.startswith(_CORRECTION_PREFIX):
                self.sources.add(content)
                self.said.add(content)
        elif isinstance(message, ToolMessage):
            if message.name != PLANNER_FUNCTION_NAME:  # the runtime's answers to the planner
                for value in _result_values(content):
                    self.sources.add(value)
        elif isinstance(message, AIMessage):
            if message.tool_calls:
                for call in message.tool_calls:
                    prose = (call.get("args") or {}).get("message")
                    if isinstance(prose, str) and fold(prose):
                        self._model_prose.append(fold(prose))
            elif self._shown_by_runtime(content):
                self.sources.add(content)

    def _shown_by_runtime(self, content: str) -> bool:
        """A reply the user saw that the model did not write (nor a flattened call or result)."""
        if content.startswith("[") or "[called " in content:
            return False
        folded = fold(content)
        return not any(prose in folded for prose in self._model_prose)


def fold(text: str) -> str:
    """Accent-, case- and punctuation-folded words, as textnorm.fold compares them.

    Three C-level passes instead of a per-character loop: a 20-turn history is read in
    well under a millisecond, and every value is folded the same way as its sources.
    """
    return _NON_WORD.sub(
        " ", _MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))
    ).strip()


def _unfenced(content: str) -> str:
    """Stored text as it was written: history shows it inside one data block (DESIGN 3.7)."""
    if content.startswith(OPEN) and content.endswith(CLOSE):
        return content[len(OPEN) : -len(CLOSE)]
    return content


def _result_values(content: str) -> list[str]:
    """The values a tool result reported (labels unfenced), not its JSON keys or status words."""
    try:
        payload = json.loads(content)
    except ValueError:
        return [content]
    values: list[str] = []
    pending: list[Any] = [payload]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(v for k, v in value.items() if k not in ("status", "type", "category"))
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str | int) and not isinstance(value, bool):
            values.append(_unfenced(str(value)))
    return values


def _normalized(url: str) -> str | None:
    try:
        return normalize_url(url)
    except InvalidUrl:
        return None


def _content_words(value: str) -> list[str]:
    words = [w for w in fold(value).split() if not (len(w) == 1 and w.isalpha())]
    meaningful = [w for w in words if w not in STOPWORDS]
    return meaningful or words


def missing_words(value: str, sources: Sources) -> list[str]:
    """The words of `value` that no source backs (empty when all are grounded)."""
    if sources.has_run(value):
        return []
    return [w for w in _content_words(value) if not sources.has_word(w)]


def grounded(rule: FieldRule, value: Any, sources: Sources) -> bool:
    """Whether one argument value is backed by the sources (a list: each of its values)."""
    if isinstance(value, list):  # mark_item's several names: each one the user's
        return bool(value) and all(grounded(rule, one, sources) for one in value)
    if rule.kind == "url":
        normalized = _normalized(str(value))
        if normalized is None:  # not a link we take: the tool says why, if the user wrote it
            return sources.has_run(str(value))
        return normalized in sources.urls
    if rule.kind in ("year", "tmdb_id"):
        return str(value) in sources.tokens
    words = _content_words(str(value))
    if not words:
        return True  # nothing that could be a fact (punctuation, an emoji)
    missing = missing_words(str(value), sources)
    if rule.kind == "all_words":
        return not missing
    return len(missing) < len(words)


def judge(
    args: ToolArgs,
    sources: Sources,
    confirmed: Mapping[str, bool],
    *,
    said: Sources | None = None,
) -> Checked:
    """Keep grounded arguments, drop ungrounded optional facts, refuse at the first ungrounded required one.

    `said` holds the user's own words, which alone back a `user_words` field (default: `sources`).
    """
    values = args.model_dump()
    verdicts: list[tuple[str, Verdict]] = []
    nested: dict[str, list[dict[str, Any]]] = {}
    for name in type(args).model_fields:
        # a list of objects (save_items' items): each judged as a call of its own
        elements = getattr(args, name)
        if not (isinstance(elements, list) and any(isinstance(e, ToolArgs) for e in elements)):
            continue
        kept_elements: list[dict[str, Any]] = []
        for element in elements:
            inner = judge(element, sources, {}, said=said)
            verdicts.extend((f"{name}.{field}", verdict) for field, verdict in inner.fields)
            if inner.problem is not None or inner.args is None:
                return Checked(None, inner.problem, tuple(verdicts))
            kept_elements.append(inner.args.model_dump())
        if kept_elements != values[name]:
            nested[name] = kept_elements
    for rule in rules_for(type(args)):
        value = values.get(rule.name)
        if value is None:
            continue
        source = said if rule.kind == "user_words" and said is not None else sources
        if confirmed.get(rule.name, False) or grounded(rule, value, source):
            verdicts.append((rule.name, "grounded"))
        elif rule.droppable:
            verdicts.append((rule.name, "dropped"))
        else:
            verdicts.append((rule.name, "reasked"))
            return Checked(None, refusal(rule, value, source), tuple(verdicts))
    drops: dict[str, Any] = {
        name: None for name, verdict in verdicts if verdict == "dropped" and "." not in name
    }
    if not drops and not nested:
        return Checked(args, None, tuple(verdicts))
    try:  # without them the call must still be one (update_item needs something to change)
        kept = type(args).model_validate({**values, **drops, **nested})
    except ValidationError:
        named = ", ".join(f"`{name}`" for name in drops)
        missing = [
            w for name in drops for w in missing_words(str(values.get(name) or ""), sources)
        ][:5]
        shown = (
            f" (not found: {', '.join(repr(one_line(w, 30)) for w in missing)})" if missing else ""
        )
        return Checked(
            None,
            f"argument {named} is not in the user's message{shown}, and without it the call "
            "does nothing: use the user's own words, or answer with a message",
            tuple((n, "reasked" if n in drops else v) for n, v in verdicts),
        )
    return Checked(kept, None, tuple(verdicts))


class Grounder:
    """Checks one planning session's tool calls; the verdict of the call that runs is settled."""

    def __init__(
        self,
        deps: Deps,
        user_text: str,
        language: str,
        messages: list[BaseMessage],
        *,
        user_id: str = "",
    ):
        self.deps = deps
        self.user_id = user_id  # whose item an edit names
        self.language = language
        self.conversation = ConversationSources(user_text, messages)
        self.user_text = user_text
        self.pending: Checked | None = None

    async def check(self, tool: str, args: ToolArgs) -> Checked:
        """Ground every content argument of one call: keep, drop, or refuse the call.

        An edit's new values come from this message alone, as the user spelled them
        (issue 41): the 1.5B model renamed a film "ótimo filme!" on "esse filme é mt bom",
        and "corrected" Interstelar to itself, one typo from the word the user wrote.
        """
        checked = judge(args, self.conversation.message, {})
        if tool in EDITS_FROM_MESSAGE:
            item = await self._edited_item(args)
            if item is not None and any(verdict != "grounded" for _, verdict in checked.fields):
                checked = judge(args, self._with_text_of(item), {})
            if checked.args is not None and item is not None and unchanged(checked.args, item):
                checked = Checked(None, _UNCHANGED, checked.fields)
            if checked.args is not None and item is not None:
                damage = damaged(checked.args, item, self.user_text)
                checked = checked if damage is None else Checked(None, damage, checked.fields)
            if checked.args is not None:
                checked = Checked(
                    as_written(checked.args, self.user_text), checked.problem, checked.fields
                )
            self.pending = checked if checked.problem is None else None
            if checked.problem is not None:
                self._count(tool, checked.fields[-1:])
            return checked
        if (held := await self._request_in_title(tool, args)) is not None:
            self._count(tool, checked.fields[-1:])
            self.pending = None
            return Checked(None, held, checked.fields)
        if tool == "mark_item" and (episode := _an_episode_only(args, self.user_text)):
            self._count(tool, checked.fields[-1:])
            self.pending = None
            return Checked(None, episode, checked.fields)
        if tool == "mark_item" and (plural := _plural_missed(args, self.user_text)):
            self._count(tool, checked.fields[-1:])
            self.pending = None
            return Checked(None, plural, checked.fields)
        if tool in _ONE_TYPE_ACTS and (other := await self._other_type_named(args)) is not None:
            self._count(tool, checked.fields[-1:])
            self.pending = None
            return Checked(None, other, checked.fields)
        if any(verdict != "grounded" for _, verdict in checked.fields):
            sources = self.conversation.current()
            confirmed = await self._confirmed(tool, args, sources)
            checked = judge(args, sources, confirmed, said=self.conversation.said)
        if checked.problem is None and checked.args is not None and tool in WHOLE_TITLED:
            titled = undecorated(whole_title(checked.args, self.user_text), self.user_text)
            titled = whole_note(titled, self.user_text) if tool == "save_note" else titled
            checked = Checked(titled, None, checked.fields)
        if checked.problem is None and checked.args is not None:
            checked = Checked(
                listed_unless_counted(checked.args, self.user_text), None, checked.fields
            )
        if checked.problem is not None:
            self._count(tool, checked.fields[-1:])  # only the refused field: the retry counts anew
            self.pending = None
        else:
            self.pending = checked
        return checked

    async def _edited_item(self, args: ToolArgs) -> ItemDoc | None:
        item_id = getattr(args, "item_id", None)
        if not isinstance(item_id, str) or not self.user_id:
            return None
        return await self.deps.db.items.get(self.user_id, item_id)

    async def _other_type_named(self, args: ToolArgs) -> str | None:
        """Why a call on items by id is refused: the message names a film and the item is a
        series (or the reverse) whose title it does not name. On "e o filme do oppenhaimer eu
        já vi, nota 9" the 1.5B model marked the series just shown, not the misspelt film."""
        ids = getattr(args, "item_id", None)
        said = _TYPE_SAID.keys() & set(fold(self.user_text).split())
        kinds = {_TYPE_SAID[w] for w in said}
        if not ids or not self.user_id or len(kinds) != 1:
            return None
        (kind,) = kinds
        words = set(fold(self.user_text).split())
        for item_id in [ids] if isinstance(ids, str) else ids:
            item = await self.deps.db.items.get(self.user_id, item_id)
            if (
                item is not None
                and item.type in ("movie", "tv_show")
                and item.type != kind
                and words.isdisjoint(w for w in fold(item.title or "").split() if len(w) > 2)
            ):
                return (
                    f"the message names a {'film' if kind == 'movie' else 'series'} and "
                    f"«{one_line(item.title or '', 40)}» is not one, nor named in it: give the "
                    "item the message names, by its words in `query`"
                )
        return None

    async def _request_in_title(self, tool: str, args: ToolArgs) -> str | None:
        """Why a call is refused: a title to save (or a mark's name) carries a rating or a
        seen mark ("Succession - Nota 9.00") or the request's own verb ("Ne. Salva mesmo
        assim q um dia eu vejo", saved as a film by the 1.5B model on "hmm só alugando né.
        salva mesmo assim"). A title TMDB knows word for word ("Save the Last Dance") is a
        title still. An edit's new title is `update_item`'s own check (tools/editing.py)."""
        for kind, title in _titles_of(tool, args):
            if marks_a_title(title):
                return (
                    f"«{one_line(title, 60)}» holds a rating or a seen mark, which is no part "
                    "of a title: give the title alone; a rating goes in mark_item's `rating`"
                )
            said = fold(title)
            if _holds_request_verb(said, fold(self.user_text)) and not await self._tmdb_knows(
                kind, said
            ):
                return (
                    f"«{one_line(title, 60)}» is the user's request, not a title: give the title "
                    "the message or the conversation names (a title just shown is named by it), "
                    "or answer with a message"
                )
        return None

    async def _tmdb_knows(self, kind: TmdbKind | None, folded: str) -> bool:
        """Whether TMDB holds a title of exactly these (folded) words."""
        if kind is None or not self.deps.tmdb.configured:
            return False
        try:
            found = await self.deps.tmdb.search(
                kind, folded, language=_TMDB_LANGUAGE.get(self.language, "en-US"), limit=5
            )
        except (ServiceUnavailable, ServiceError):
            return False
        return any(folded in (fold(c.title), fold(c.original_title or "")) for c in found)

    def _with_text_of(self, item: ItemDoc) -> Sources:
        """The message and the text of the item an edit names: the words an edit keeps come
        from the item ("in the packing note swap sunscreen for umbrella" is the note with
        one word changed; the 1.5B model's whole new text was refused for the kept words)."""
        sources = Sources()
        sources.add(self.user_text)
        for said in (item.title, item.content):
            if said:
                sources.add(said)
        return sources

    def settle(self, tool: str) -> tuple[str, ...]:
        """Count the checked call that is about to run; the rules it adds to the turn."""
        checked, self.pending = self.pending, None
        if checked is None:
            return ()
        self._count(tool, checked.fields)
        return tuple(f"ungrounded:{name}" for name in checked.dropped)

    def _count(self, tool: str, verdicts: Iterable[tuple[str, Verdict]]) -> None:
        for name, verdict in verdicts:
            self.deps.metrics.grounding.labels(tool, name, verdict).inc()

    async def _confirmed(self, tool: str, args: ToolArgs, sources: Sources) -> dict[str, bool]:
        """Facts the source itself confirms, asked only when the conversation does not back them."""
        values = args.model_dump()
        kind = _TMDB_KIND.get(tool)
        tmdb_id, year, title = values.get("tmdb_id"), values.get("year"), values.get("title")
        if kind is not None and tmdb_id is not None and str(tmdb_id) not in sources.tokens:
            entry = await self._tmdb_entry(kind, int(tmdb_id))
            if entry is not None and _same_title(str(title or ""), entry):
                return {"tmdb_id": True, "year": year is not None and year == entry.year}
        return {}

    async def _tmdb_entry(self, kind: TmdbKind, tmdb_id: int) -> TmdbCandidate | None:
        try:
            return await self.deps.tmdb.details(
                kind, tmdb_id, language=_TMDB_LANGUAGE.get(self.language, "en-US")
            )
        except (ServiceUnavailable, ServiceError):
            return None  # not configured or not answering: nothing is confirmed


# the verbs a request to save, mark or delete opens with: in a title only as a title's word
_REQUEST_VERBS = SAVE_VERBS | frozenset(
    "marca marcar marque mark desmarca desmarcar unmark apaga apagar apague deleta delete".split()
)
_TITLE_KINDS: dict[str, TmdbKind] = {"movie": "movie", "tv_show": "tv"}


def _titles_of(tool: str, args: ToolArgs) -> list[tuple[TmdbKind | None, str]]:
    """The titles (with their TMDB kind) and mark names a call writes or looks up."""
    if tool in _TMDB_KIND:
        return [(_TMDB_KIND[tool], str(getattr(args, "title", "") or ""))]
    if tool == "mark_item":
        query = getattr(args, "query", None)
        return [(None, q) for q in ([query] if isinstance(query, str) else query or [])]
    specs = getattr(args, "items", None) if tool == "save_items" else None
    return [
        (_TITLE_KINDS.get(str(getattr(spec, "type", ""))), str(spec.title))
        for spec in specs or []
        if getattr(spec, "title", None) and getattr(spec, "type", None) in _TITLE_KINDS
    ]


def _holds_request_verb(title: str, message: str) -> bool:
    """Whether the (folded) title holds the message's request verb: a verb of saving or
    marking in it, and none in the message outside it."""
    words = title.split()
    if not any(w in _REQUEST_VERBS for w in words):
        return False
    outside = message.replace(title, " ") if title in message else message
    if title not in message:
        return True  # not the user's words as written, and a verb in it: the model's
    return not any(w in _REQUEST_VERBS for w in outside.split())


# tools whose new values are the user's words in this message, never the conversation's
EDITS_FROM_MESSAGE = frozenset({"update_item"})
# calls on items by id checked against the type the message names ("o filme do X")
_ONE_TYPE_ACTS = frozenset(
    {"mark_item", "delete_item"}
)  # not an edit: a retype names the other type
# how many items a plural reference names: "as duas", "both", "all three" (not "os dois
# primeiros episódios", one item's parts)
_PLURAL_SAID = re.compile(
    r"\b(?:(?P<two>os dois|as duas|ambos|ambas|both|the two|them both|those two|eles dois|"
    r"elas duas)|(?P<three>os tres|as tres|all three|the three|those three|todos os tres|"
    r"todas as tres))\b(?!\s+(?:primeir|ultim|episod|temporad|partes|episode|season|"
    r"part|times|vezes|hours|horas))"
)


# an episode watched is no series seen ("vi o primeiro episódio ontem", the 1.5B model
# marked the series on the wave-15 run), unless the words say it was the last or all of them
_EPISODE_SAID = re.compile(r"\b(?:eps?|episodios?|episodes?|capitulos?)\b")
_ALL_EPISODES = re.compile(
    r"\b(?:ultimo|ultima|last|final|finale|todos|todas|all|every|termin\w*|acabei|finished|zerei)\b"
)


def _an_episode_only(args: ToolArgs, user_text: str) -> str | None:
    """Why marking a series seen is refused: the message speaks of an episode of it."""
    said = fold(user_text)
    if getattr(args, "state", None) != "seen" or not _EPISODE_SAID.search(said):
        return None
    if _ALL_EPISODES.search(said):
        return None
    return (
        "the message speaks of watching an episode, not of having seen the whole series: "
        "mark nothing; answer the user"
    )


def _plural_missed(args: ToolArgs, user_text: str) -> str | None:
    """Why a call on items is refused: the message names two or three items ("já vi as
    duas", "watched all three") and the call names another number of them (the 1.5B model
    marked one of "as duas")."""
    said = _PLURAL_SAID.search(fold(user_text))
    if said is None:
        return None
    wanted = 2 if said.group("two") else 3
    named = [v for v in (getattr(args, "item_id", None), getattr(args, "query", None)) if v]
    given = sum(len(v) if isinstance(v, list) else 1 for v in named)
    if given in (0, wanted):
        return None
    return (
        f"the message names {wanted} items («{said.group()}»), and the call names {given}: give "
        f"the {wanted} items it means (the ones just shown), each by its id"
    )


_TYPE_SAID: dict[str, str] = {
    **dict.fromkeys(("filme", "filmes", "movie", "movies", "film", "films"), "movie"),
    **dict.fromkeys(("serie", "series", "seriado", "seriados"), "tv_show"),
}
_WRITTEN = re.compile(r"[\w'-]+")


def as_written(args: ToolArgs, user_text: str) -> ToolArgs:
    """`args` with each word of a title or text that is only a typo away from a word of the
    message replaced by the message's word, as the user wrote it."""
    written = {fold(w): w for w in _WRITTEN.findall(user_text) if fold(w)}
    if not written:
        return args
    changed: dict[str, str] = {}
    for name in ("title", "content"):
        value = getattr(args, name, None)
        if not isinstance(value, str):
            continue
        snapped = _WRITTEN.sub(lambda m: _closest(m.group(0), written), value)
        if snapped != value:
            changed[name] = snapped
    return args.model_copy(update=changed) if changed else args


def whole_title(args: ToolArgs, user_text: str) -> ToolArgs:
    """`args` with the words the model dropped from the front of the title put back: "salva
    tb ainda estou aqui" saved as "estou aqui" by the 1.5B model. The reference is the title
    the offline reading takes from the message; only a strict tail of it is extended."""
    planned = plan_offline(user_text, "save")
    said = planned[1].get("title") or planned[1].get("content") if planned else None
    if not isinstance(said, str):
        return args
    whole = fold(said).split()
    if len(whole) != len(said.split()):
        return args  # punctuation made words of its own: no word-for-word reference
    for name in ("title", "content"):
        value = getattr(args, name, None)
        kept = fold(value).split() if isinstance(value, str) else []
        if kept and len(kept) < len(whole) <= MAX_WHOLE_WORDS and whole[-len(kept) :] == kept:
            # the words put back as written; the rest as the model had it
            front = said.split()[: len(whole) - len(kept)]
            if len(front) <= MAX_PUT_BACK and not any(map(_no_title_front, front)):
                return args.model_copy(update={name: " ".join([*front, str(value)])})
    return args


_UNCHANGED = (
    "those are the item's current values: nothing would change. Give the new value the "
    "message says, for the item the message names"
)


def unchanged(args: ToolArgs, item: ItemDoc) -> bool:
    """Whether an edit's new values are the item's own (the 1.5B model "updated" the note
    saved last to its own text on "in the packing note swap sunscreen for umbrella")."""
    current = {fold(t) for t in (item.title, item.content) if t}
    texts = [v for v in (getattr(args, "title", None), getattr(args, "content", None)) if v]
    year = getattr(args, "year", None)
    if not texts and year is None:
        return False
    return all(fold(str(t)) in current for t in texts) and year in (None, item.year)


_YEAR_WORD = re.compile(r"(?:18|19|20)\d\d")
# "2011 não 2010", "2010 not 2008", "2010 instead of 2008": words that take a value back
_TAKING_BACK = frozenset("nao not no instead of em vez de no lugar e and".split())
_NAMES_FIELD = re.compile(r"\b(?:ano|year|titulo|title|nome|name)\b")


_CHANGES_A_PART: Final = re.compile(
    r"\b(?:troca|troque|trocar|substitui|substitua|substituir|swap|replace|acrescenta|"
    r"acrescente|adiciona|adicione|inclui|inclua|add|append|poe|bota|coloca)\b"
)


def damaged(args: ToolArgs, item: ItemDoc, user_text: str) -> str | None:
    """Why an edit's new text would damage the item, or None: a title made of years ("2010
    not 2008" on "wait, it's 2010 not 2008"), or a text that keeps some of the item's words
    and drops others the message never named (the 1.5B model answered "e acrescenta banana"
    with the list minus its heading and one element). A text made only of the message's
    words is a rewrite the message said in full, and is let through."""
    note = item.type == "note"
    first, second = ("content", "title") if note else ("title", "content")
    new = getattr(args, first, None) or getattr(args, second, None)
    old = item.content if note else item.title
    if not isinstance(new, str) or not old:
        return None
    new_words = set(_content_words(new))
    dated = new_words - _TAKING_BACK
    years_only = bool(dated) and all(_YEAR_WORD.fullmatch(w) for w in dated)
    if not note and years_only and not _NAMES_FIELD.search(fold(user_text)):
        # "o ano é 2016" sent as a title is taken as the year by the tool; "o nome é 1917"
        # names a title; anything else with a year is the year, never the title
        return (
            "a year is never a title: put the year the message says in `year` and leave `title` out"
        )
    said = set(_content_words(user_text))
    old_words = _content_words(old)
    dropped = [w for w in old_words if w not in new_words and w not in said]
    kept = [w for w in new_words if w in old_words and w not in said]
    # a swap or an addition changes a part: the rest stays, even when the new text holds
    # only the message's words ("troca o leite por leite de aveia" answered "leite de aveia")
    if not dropped or not (kept or _CHANGES_A_PART.search(fold(user_text))):
        return None
    shown = ", ".join(repr(one_line(w, 30)) for w in dict.fromkeys(dropped))
    return (
        f"the new text drops words of the item the message does not change ({shown}): keep "
        "the item's whole text and change only what the message says"
    )


def listed_unless_counted(args: ToolArgs, user_text: str) -> ToolArgs:
    """`args` asking for a list where they ask for a count (`count_only`) the message never
    asked for: the 1.5B model answered "me mostra só as séries" and "e de links?" with a
    number. A list says how many too; a count shows none of the items."""
    if getattr(args, "count_only", False) is True and not asks_how_many(user_text):
        return args.model_copy(update={"count_only": False})
    return args


def whole_note(args: ToolArgs, user_text: str) -> ToolArgs:
    """A note with the words the model dropped from its front put back: "anota o tel do
    encanador seu Jorge: (11) 97744-2310" saved as the number alone by the 1.5B model, which
    loses what the note is about, or "rewatch s3 ..." as "watch s3 ...", cut inside its first
    word. The reference is the note the offline reading takes from the message; a strict
    tail of it is extended unless the words before it ask to save ("outra coisa pra anotar,
    separado: endereço ..."): those are the request, not the note."""
    content = getattr(args, "content", None)
    planned = plan_offline(user_text, "save")
    said = planned[1].get("content") if planned and planned[0] == "save_note" else None
    if not isinstance(content, str) or not isinstance(said, str):
        return args
    kept = content.strip()
    if not kept or len(kept) >= len(said) or not said.casefold().endswith(kept.casefold()):
        return args
    front = said[: len(said) - len(kept)]
    if any(f in SAVE_VERBS or save_verb_typo(f) is not None for f in fold(front).split()):
        return args
    return args.model_copy(update={"content": said})


# what the runtime writes after a title in its replies, never part of it: "The Pitt (2025)
# (US)" is a where-to-watch heading, not a title to save
_LABEL_TAIL = re.compile(r"(?:\s*\((?P<year>(?:19|20)\d\d)\)|\s*\([A-Z]{2}\))+\s*$")


def undecorated(args: ToolArgs, user_text: str) -> ToolArgs:
    """`args` without a reply's label copied after the title ("(2025)", "(US)"), unless the
    user wrote it; the year it held kept as the year."""
    title = getattr(args, "title", None)
    found = _LABEL_TAIL.search(title) if isinstance(title, str) else None
    if title is None or found is None or found.start() == 0 or found.group().strip() in user_text:
        return args
    update: dict[str, Any] = {"title": title[: found.start()].rstrip()}
    if (
        found.group("year")
        and "year" in type(args).model_fields
        and getattr(args, "year", None) is None
    ):
        update["year"] = int(found.group("year"))
    return args.model_copy(update=update)


def _no_title_front(word: str) -> bool:
    """A word the offline reading may have left before a title that is none of it: a save verb
    (with a slip), an article, a type's word, laughter."""
    folded = fold(word)
    return (
        folded in SAVE_VERBS
        or save_verb_typo(folded) is not None
        or folded in TYPE_WORDS
        or folded in STOPWORDS
        or _LAUGH.fullmatch(folded) is not None
    )


MAX_PUT_BACK = 2
_LAUGH = re.compile(r"k{2,}|(?:ha){2,}h?|(?:rs){2,}|lol+")


MAX_WHOLE_WORDS = 8
WHOLE_TITLED = frozenset(
    {"save_movie", "save_tv_show", "save_note"}
)  # a link's title is its page's


def _closest(word: str, written: Mapping[str, str]) -> str:
    folded = fold(word)
    if not folded or folded in written or len(folded) < TYPO_MIN_LENGTH:
        return word
    found = process.extractOne(folded, list(written), scorer=OSA.distance, score_cutoff=1)
    return written[found[0]] if found is not None else word


def _same_title(title: str, entry: TmdbCandidate) -> bool:
    names = Sources()
    names.add(entry.title)
    if entry.original_title:
        names.add(entry.original_title)
    return bool(fold(title)) and not missing_words(title, names)


def refusal(rule: FieldRule, value: Any, sources: Sources) -> str:
    """What the model is told: which argument is not in the user's message, and what to do."""
    if rule.kind == "url":
        return (
            f"argument `{rule.name}` is not in the user's message: that address appears nowhere "
            "in this conversation. Never invent a link; use one the user wrote, or answer with a message"
        )
    missing = missing_words(str(value), sources)[:5]
    shown = ", ".join(repr(one_line(w, 30)) for w in missing)
    return (
        f"argument `{rule.name}` is not in the user's message (not found: {shown}). "
        "Use the user's own words, or what a tool returned; never add facts you were not given"
    )
