"""The offline rule-based planner (DESIGN 7): used when no model is configured.

It emits real `PlannerResponse` objects, delivered as a function call exactly as a
model's would be, so they go through the same validation and execution path:
links -> save_link/save_video, "filme/movie X" -> enrich_movie, "série/show X" ->
enrich_tv_show, "procura/find X" -> search_items, "apaga/delete X" -> delete_item;
a bare title after a save verb ("salva inception") -> enrich_movie, the type guessed;
a note only when the message asks to save one (DESIGN 9.2), otherwise nothing.
A question is never saved: "salva Duna?" plans nothing and `offer_for` asks it back
("pode salvar o filme Duna?" is a request); a search drops the question's own words,
and a question about reminders lists them (issue 41).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage

from agent.planning.answer import ModelAnswer
from agent.planning.backend import PlanHints
from agent.planning.schema import PLANNER_FUNCTION_NAME, Belief, PlannerResponse
from agent.understanding.batches import cut_tail
from agent.understanding.chatter import quiet
from agent.understanding.facts import list_edit
from agent.understanding.kinds import correction, guessed_title
from agent.understanding.questions import WINDOWS
from agent.understanding.references import read_reference
from agent.understanding.searches import plain_search, search_subject
from agent.understanding.smalltalk import asks_about_link
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.urls import InvalidUrl, extract_urls, is_video_url, parse_user_url
from agent.understanding.vocabulary import TYPE_WORDS
from agent.understanding.watchlist import speaks_of_seeing

_FLAGS = re.IGNORECASE | re.UNICODE
# said before the request, asking nothing: "pfv apaga X", "pensando bem tira X da lista"
# and what joins a request to the one before it: "e anota: X", "and save a note: X"
_POLITE = (
    r"(?:(?:por\s+favor|pfv|pls|please|pensando\s+bem|on\s+second\s+thoughts?|e|and|also|plus|"
    r"tb|tamb[ée]m)[,\s]+){0,3}"
)
# where the save goes, never part of the title: "na minha lista", "to my list:", "pra lista:",
# "on my watchlist", "à fila"
_DESTINATION = (
    r"(?:n[ao]|[àa]|pr[ao]|pra\s+a|para\s+a|em|to|on|onto|into|in)\s+(?:(?:minha|meu|my|the|a)\s+)?"
    r"(?:lista|list|watchlist|watch\s+list|fila|queue)"
)
_LEADING_DESTINATION = re.compile(r"\s*" + _DESTINATION + r"\b[\s:,-]*", re.IGNORECASE | re.UNICODE)
_DESTINATION_COLON = re.compile(r"(" + _DESTINATION + r")\s*:\s*", re.IGNORECASE | re.UNICODE)
_SAVE = re.compile(
    _POLITE + r"(?:(?:quero|queria|i\s+want\s+to|pode|can\s+you)\s+)?"
    r"(?:salva|salvar|salve|guarda|guardar|guarde|anota|anotar|anote|adiciona|adicionar|adicione|add|save|store|keep|"
    r"bota|botar|bote|p[õo]e|ponha|coloca|colocar|coloque|joga|jogar|jogue|inclui|incluir|inclua|put|stash|"
    r"note(?:\s+down)?|jot(?:\s+down)?|write\s+down|(?:make|take)\s+a\s+note|remember)\b[\s:,-]*"
    # the words people put after the verb: "bota aí tb", "guarda pra mim", "add too"
    r"(?:(?:a[ií]|ae|l[aá]|tb|tbm|tamb[ée]m|pra\s+mim|para\s+mim|for\s+me|"
    # "too"/"also" right after the verb open a title ("add Too Late") unless more follows
    r"(?:too|also)(?=\s*[,:]|\s+(?:the|a|an|these|this|that|my)\b)|"
    r"" + _DESTINATION + r")\b[\s:,-]*)*",
    _FLAGS,
)
_SEARCH = re.compile(
    _POLITE
    + r"(?:procura(?:r)?|busca(?:r)?|acha(?:r)?|encontra(?:r)?|pesquisa(?:r)?|find|search(?:\s+for)?|look\s+(?:for|up)|"
    r"(?:eu\s+)?tenho|do\s+i\s+have)\b[\s:,-]*",
    _FLAGS,
)
_DELETE = re.compile(
    _POLITE
    + r"(?:apaga(?:r)?|apague|deleta(?:r)?|delete|remove(?:r)?|remova|exclui(?:r)?|exclua|esquece(?:r)?|forget|erase"
    r"|tira(?:r)?|tire|take\s+(?:off|out))\b[\s:,-]*",
    _FLAGS,
)
_ARTICLE = re.compile(
    r"^(?:(?:o|a|os|as|um|uma|the|a|an|meu|minha|meus|minhas|my|aquele|aquela|that)\s+)+", _FLAGS
)
# what points at an item named after it: "apaga essa nota do bolo" names the note by "bolo"
_POINTER = re.compile(r"^(?:(?:esse|essa|este|esta|this)\s+)+", _FLAGS)
_POINTED_TYPE = re.compile(
    r"\b(?:that|this|esse|essa|este|esta|aquele|aquela)\s+(?:nota|note|filme|movie|film|s[ée]rie"
    r"|show|v[íi]deo|link)\b",
    _FLAGS,
)
_A_NOTE_NAMED = re.compile(r"\b(?:nota|note)\b")
_NOTE_NOUN = re.compile(r"(?:(?:a|uma|the|an)\s+)?(?:nota|note)\b[\s:,-]*", _FLAGS)
_MOVIE = re.compile(r"\b(?:filme|movie|film)\b[\s:,-]*", _FLAGS)
_TV = re.compile(r"\b(?:s[ée]rie|series|tv\s+show|show|programa)\b[\s:,-]*", _FLAGS)
# what may stand between the save verb and "filme"/"série": an article ("também" and the
# like were cut before: vocabulary.plain_save_head)
_LEADING_WORDS = frozenset({"", "o", "a", "um", "uma", "the", "an", "esse", "este", "this"})
_YEAR = re.compile(
    r"[\s(,-]*(?:\b(?:de|do|da|from|of|in)\s+)?\(?\b(?P<year>1[89]\d\d|20\d\d|2100)\b\)?\s*$",
    _FLAGS,
)
# ", o de 2024", ", the 2021 one", ", the one from 1979": which one, by its year, after a comma
_THE_ONE_OF = re.compile(
    r",\s*(?:o|a|the)\s+(?:(?:one|vers[aã]o|version|filme|movie)\s+)?(?:(?:de|do|da|from|of|in)\s+)?"
    r"(?P<year>1[89]\d\d|20\d\d|2100)(?:\s+(?:one|version|vers[aã]o))?\s*$",
    _FLAGS,
)
# Written as a link but not one we take: any "scheme://..." and script schemes.
_URL_TOKEN = re.compile(r"(?<!\S)(?:https?://|www\.)\S+", _FLAGS)
_LINKISH = re.compile(r"(?<!\S)(?:[a-z][a-z0-9+.-]*://\S+|(?:javascript|vbscript):\S+)", _FLAGS)


def _strip(pattern: re.Pattern[str], text: str) -> str:
    match = pattern.match(text)
    return text[match.end() :] if match else text


_TYPE_NOUN = re.compile(
    r"^(?:nota|notas|anota[cç][aã]o|note|notes|filme|filmes|movie|movies|s[ée]rie|s[ée]ries|series|show|shows|"
    r"v[íi]deo|v[íi]deos|videos?|link|links)\s+(?:(?:do|da|de|dos|das|sobre|about|of|on)\s+)?",
    _FLAGS,
)


# a clause after a comma that says why (a subject and what happened), never part of a title
_REASON = re.compile(
    r"^\s*(?:they|i|i'?ve|i'?m|it'?s|we|he|she|eu|ele|ela|eles|elas|a\s+gente|ja|já|nao|não|pq"
    r"|porque|because|since|cause|cuz|trocaram|mudaram|mudou|acabou|changed|done|finished"
    # what the user did, said as why: "desisti dele", "já vi", "gave up on it"
    r"|\w{3,}ei|desisti|perdi|vi|assisti|gave\s+up|lost\s+interest|hated|didn'?t|don'?t)\b",
    _FLAGS,
)
# where a clause ends: a stop, a semicolon or a comma before a space
_CLAUSE_CUT = re.compile(r"[,.;!]+\s+")
# where it is taken from, never part of what is named: "from my list", "da minha lista"
_FROM_LIST = re.compile(
    r"\s+(?:from|off|out\s+of|d[ao]s?)\s+(?:(?:minha|meu|minhas|meus|my|the|a|o)\s+)?"
    r"(?:lista|list|watchlist|watch\s+list|fila|queue|coisas|itens|items|stuff|things)"
    r"(?:\s+(?:de|of)\s+\w+)?[\s.!]*$",
    _FLAGS,
)
# "the gym one", "the dentist one": what names it is before "one"
_ONE_SUFFIX = re.compile(r"^(?P<what>(?:the|that|this)\s+\S.*?)\s+one\s*$", _FLAGS)


def _target(text: str) -> str:
    return _ARTICLE.sub("", text.strip(" \t.!?;:,")).strip(" \t.!?;:,")


def _named(text: str) -> str:
    """What a delete or search names: "a nota do leite" -> "leite", "o filme inception" -> "inception"."""
    target = _target(_POINTER.sub("", text.strip()))
    return _target(_TYPE_NOUN.sub("", target)) or target


def _title_and_year(rest: str) -> tuple[str, int | None]:
    """The title after "filme"/"série", articles kept: "the matrix", "A Origem" are whole titles."""
    rest = cut_tail(_strip(_LEADING_DESTINATION, rest))[0]  # "the movie to my list: Heat"
    match = _THE_ONE_OF.search(rest) or _YEAR.search(rest)
    if match and rest[: match.start()].strip():
        return _trim(rest[: match.start()]), int(match.group("year"))
    return _trim(rest), None


def _typed_after(text: str) -> tuple[str, str] | None:
    """ "salva Moonlight, é filme": the one title and the type said after it, or None."""
    said, _, clause = text.rpartition(",")
    typed = correction(clause) if said.strip() and "," not in said else None
    return (said.rstrip(), typed) if typed in ("movie", "tv_show") else None


def _trim(text: str) -> str:
    return text.strip(" \t.!?;:,")


def _refused_link(message: str) -> str | None:
    """The first link-looking token that parse_user_url refuses (credentials, javascript:...)."""
    for raw in _LINKISH.findall(message):
        try:
            parse_user_url(raw)
        except InvalidUrl:
            return str(raw)
    return None


def plan_offline(text: str, llm_intent: str) -> tuple[str, dict[str, Any]] | None:
    """The tool and arguments the rules pick for `text`, or None for nothing to do.

    Only what the message asks to save is saved (DESIGN 9.2): a save verb, a headed note
    ("anota: ...", "lista de compras: ..."), or a message that is only a link. A question
    about a link reads the page; anything else is None, and the runtime offers to keep it.
    """
    message = clean_text(text)
    if not message:
        return None
    if llm_intent == "delete":
        last = _CLAUSE_CUT.split(message)[-1]
        if _DELETE.match(message) is None and _DELETE.match(last) is not None:
            message = last  # "nem precisa mais, a tia leva o bolo. apaga a nota do bolo": why first
        named = _strip(_DELETE, message)
        first, _, why = named.partition(",")  # "delete the gym one, they changed it": why
        # a reason after a comma is no part of it ("Crouching Tiger, Hidden Dragon" stays whole)
        what = first if first.strip() and _REASON.match(why) else named
        target = _named(_ONE_SUFFIX.sub(r"\g<what>", _FROM_LIST.sub("", what)))
        if (pointed := _POINTED_TYPE.search(what)) is not None and fold(target) in TYPE_WORDS:
            target = pointed.group()  # "delete that note": the newest note, never one named "note"
        return ("delete_item", {"query": target}) if target else None
    if llm_intent == "search":
        if (plain := plain_search(message)) is not None:  # "did I save anything about X?"
            return "search_items", {
                **({"query": plain.query} if plain.query else {}),
                **({"type": plain.type} if plain.type else {}),
            }
        words = fold(message).split()
        if not _REMINDER_WORDS.isdisjoint(words):  # "quantos lembretes eu tenho?"
            return "list_reminders", _reminder_period(words)
        rest = _strip(_SEARCH, message)
        args: dict[str, Any] = {}
        if _MOVIE.search(rest):
            args["type"] = "movie"
            rest = _MOVIE.sub(" ", rest, count=1)
        elif _TV.search(rest):
            args["type"] = "tv_show"
            rest = _TV.sub(" ", rest, count=1)
        # "any chance I saved something about taxes?" looks for "taxes": the question's own
        # words are no subject (agent/understanding/searches.py)
        target = _named(search_subject(_named(rest))) if _named(rest) else ""
        if fold(target) in _DAYS and "type" not in args:
            return "list_reminders", _reminder_period([fold(target)])  # "o que tem pra hoje?"
        if fold(target) in WINDOWS or (target and not any(c.isalnum() for c in target)):
            target = ""  # a period alone names nothing to look for
        if fold(target) in TYPE_WORDS and "type" not in args:
            args["type"], target = TYPE_WORDS[fold(target)], ""  # "do I have any notes?"
        if target:
            args["query"] = target
        elif "type" not in args:
            return None  # nothing named: said so, never a search for the question's words
        return "search_items", args
    # the classifier hints "save" for any message with a link: only the words count here
    asked = _SAVE.match(message) is not None or (llm_intent == "save" and not extract_urls(message))
    refused = _refused_link(message)
    if refused is not None and (asked or _only_links(message)):
        # save_link refuses it with the reason; kept as a note it would store a password or a script.
        return "save_link", {"url": refused}
    link = _link_plan(message)
    if link is not None:
        if asks_about_link(message):
            return "enrich_link", {"url": link[1]["url"]}
        return link if asked or _only_links(message) else None
    if asked and _is_question(message):
        if not _POLITE_ASK.match(message):
            return None  # "salva Duna?" asks: never saved unasked (`offer_for` asks back)
        message = message.rstrip(" ?")  # "pode salvar o filme Duna?" asks for the save
    if (ref := read_reference(message)) is not None and ref.action == "save":
        return None  # "salva os dois", "save it": names nothing to save (no note of the words)
    if list_edit(message) is not None and _A_NOTE_NAMED.search(fold(message)):
        return None  # "add swimsuit to that note": an edit of a note, never a thing to save
    # "add oppenheimer e barbie pfv": laughter and politeness are no part of a title
    titled = " ".join(quiet(message).split()) or message
    body = _strip(_SAVE, titled)
    for pattern, tool in ((_MOVIE, "enrich_movie"), (_TV, "enrich_tv_show")):
        match = pattern.search(body)
        if match is None or body[: match.start()].strip(" \t:,-").lower() not in _LEADING_WORDS:
            continue  # "anota: ver o filme X com a Ana" is a note, not a movie
        title, year = _title_and_year(body[match.end() :])
        if title:
            # without a save verb, enrich only shows the candidates (ToolContext.wants_save)
            return tool, {"title": title, **({"year": year} if year else {})}
    # "salva inception": a bare title after a save verb is most likely a movie; the reply
    # says so and how to correct it (issue 34; agent/understanding/kinds.py decides)
    # "add to my list: Heat": the colon after where it goes does not head a note
    # "put X on my watchlist", "add X to my shows": where it goes is no part of the title
    untailed, said = _typed_after(titled) or cut_tail(titled)
    untailed = untailed.rstrip(" ,") or titled
    guessed = (
        guessed_title(_DESTINATION_COLON.sub(r"\1 ", untailed), _strip(_SAVE, untailed))
        if asked
        else None
    )
    if guessed is not None:
        title, year = _title_and_year(guessed)
        tool = "enrich_tv_show" if said == "tv_show" else "enrich_movie"
        return tool, {"title": title, **({"year": year} if year else {})}
    return _note_plan(message) if asked else None


_REMIND = re.compile(r"^\W*(?:me\s+)?(?:lembr|remember|remind)", _FLAGS)
# a question put as a request: "pode salvar o filme X?", "can you add Heat?"
_POLITE_ASK = re.compile(
    r"^\W*(?:(?:por\s+favor|pfv|pls|please|oi|hey|hi)[,!\s]+)?(?:(?:voc[êe]|vc|tu)\s+)?"
    r"(?:pode|podia|poderia|consegue|can|could|would|will)\s+(?:(?:you|u)\s+)?"
    r"(?:me\s+|por\s+favor\s+|please\s+)?\w",
    _FLAGS,
)
_REMINDER_WORDS = frozenset("lembrete lembretes reminder reminders agenda".split())
_DAYS: dict[str, str] = {"hoje": "today", "hj": "today", "today": "today"}
_DAYS |= {"amanha": "tomorrow", "amn": "tomorrow", "tomorrow": "tomorrow"}


def _reminder_period(words: list[str]) -> dict[str, Any]:
    """`list_reminders`' period from a question's words ("lembretes de hoje"), if any."""
    said = {_DAYS[w] for w in words if w in _DAYS}
    return {"period": said.pop()} if len(said) == 1 else {}


def _is_question(message: str) -> bool:
    """Whether `message` asks (a "?" outside its links): never a request to save as it is."""
    return "?" in _URL_TOKEN.sub(" ", message)


def asked_to_save(text: str) -> bool:
    """Whether `text` opens with a save verb ("salva", "guarda", "anota", "save", "put"...);
    "me lembra de X" asks for a reminder, never for a save."""
    message = clean_text(text)
    return _SAVE.match(message) is not None and _REMIND.match(message) is None


def _link_plan(message: str) -> tuple[str, dict[str, Any]] | None:
    for raw in extract_urls(message):
        try:
            url = parse_user_url(raw).url
        except InvalidUrl:
            continue
        if is_video_url(url):
            rest = _target(_strip(_SAVE, message.replace(raw, " ")))
            return "save_video", {"url": url, **({"title": rest} if rest else {})}
        return "save_link", {"url": url}  # what the message says of it: `save_link` keeps it
    return None


def _note_plan(message: str) -> tuple[str, dict[str, Any]] | None:
    content = _strip(_SAVE, message).strip()
    # "salva a nota comprar pão" saves "comprar pão": the words naming the kind are not the note
    content = _strip(_NOTE_NOUN, content).strip() or content
    return ("save_note", {"content": content}) if content else None


def _only_links(message: str) -> bool:
    return not _LINKISH.sub(" ", _URL_TOKEN.sub(" ", message)).strip(" \t\n.,;:!-<>()[]")


def offer_for(text: str) -> tuple[str, dict[str, Any]] | None:
    """What a message the rules did not act on could be kept as, if anything (DESIGN 9.2).

    A statement that is not a question: the note it would be, or the link it holds.
    """
    message = clean_text(text)
    if not message or asks_about_link(message) or _refused_link(message) is not None:
        return None
    link = _link_plan(message)
    if link is not None:
        return link
    if _is_question(message) and asked_to_save(message):
        # "salva Duna?": the save it names, asked back instead of done
        planned = plan_offline(message.rstrip(" ?"), "save")
        if planned is not None and planned[0] in _ASKED_BACK:
            tool, args = planned
            return _ASKED_BACK[tool], {
                k: v for k, v in args.items() if k in ("title", "year", "content")
            }
        return None
    if message.rstrip().endswith("?") or not any(c.isalnum() for c in message):
        return None
    if _ASKS_A_CHANGE.search(fold(message)) or speaks_of_seeing(message):
        return None  # "pode apagar essa", "na verdade é X", "esse eu já vi": never a note
    if (ref := read_reference(message)) is not None and ref.action == "save":
        return None  # "entao salva ele tb, é filme": what "ele" is, a note of it would not say
    return _note_plan(message)


# a verb of changing, deleting, showing or correcting what is kept: the message asks for
# something the rules did not read, and keeping it as a note would answer the wrong thing
_ASKS_A_CHANGE = re.compile(
    r"\b(?:apag\w*|delet\w*|remov\w*|exclu\w*|cancel\w*|desfaz\w*|undo|muda\w*|troca\w*|"
    r"chang\w*|edit\w*|renam\w*|renomei\w*|desmarc\w*|unmark\w*|corrig\w*|corrij\w*|"
    r"mostra\w*|lista\w*|show|list|na\s+verdade|na\s+vdd|actually|i\s+meant|quis\s+dizer)\b"
)


# what a question's save is offered as: a pending offer runs a plain save, no lookup
_ASKED_BACK = {
    "enrich_movie": "save_movie",
    "enrich_tv_show": "save_tv_show",
    "save_note": "save_note",
}


class OfflineBackend:
    """A planner backend that answers from the rules, in the model's wire shape."""

    name = "offline"
    calls_model = False

    def count_prompt(
        self, messages: Sequence[BaseMessage], *, tools: Sequence[Mapping[str, Any]]
    ) -> int:
        return 0

    async def complete(
        self,
        messages: Sequence[BaseMessage],
        *,
        tools: Sequence[Mapping[str, Any]],
        hints: PlanHints,
    ) -> ModelAnswer:
        planned = plan_offline(hints.text, hints.llm_intent) if hints.step == 0 else None
        belief = Belief(key="answer.confidence", guessed=round(hints.confidence_now, 2), delta=0)
        if planned is None:
            response = PlannerResponse(action="NOOP", belief=belief)
        else:
            tool, args = planned
            response = PlannerResponse(action="CALL_TOOL", tool=tool, args=args, belief=belief)  # type: ignore[arg-type]
        call = {
            "name": PLANNER_FUNCTION_NAME,
            "args": response.model_dump(mode="json"),
            "id": f"offline_{uuid.uuid4().hex[:12]}",
            "type": "tool_call",
        }
        return ModelAnswer(AIMessage(content="", tool_calls=[call]), 0, 0, 0.0, 0)
