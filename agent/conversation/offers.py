"""The offline planner's answer to a message that asks for nothing it can do (DESIGN 9.2).

One short reply of what Lembra can do; where the message could be kept (a note, a link),
a "Guardar como nota" choice held as a pending action (2 minutes). Nothing is saved until
the user says "sim" or presses the button.

A title said seen that is not on the list ("ontem vi X, nota 8") is offered the same way
(issue 44): "X (2023) isn't on your list. Save it as seen?"; the yes saves it seen with
the rating, comment and day said, "não" saves nothing.
"""

from __future__ import annotations

import json
import re
from typing import Final, Literal

from rapidfuzz.distance import OSA

from agent.conversation import pending as pendings
from agent.conversation import shelf as shelves
from agent.conversation.replies import finish, item_label, titled_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import ServiceError
from agent.planning.offline import offer_for
from agent.services.tmdb import TMDB_LANGUAGE, TmdbCandidate, TmdbKind, clear_candidate
from agent.texts import OK_MARK, text
from agent.tools.base import Outcome, Saved, SaveUnasked, Tool, ToolArgs, ToolContext
from agent.tools.saving import store_item
from agent.types import Reply
from agent.understanding.textnorm import fold
from agent.understanding.vocabulary import ItemType, normalize
from agent.understanding.watchlist import said_rating


async def capabilities(deps: Deps, turn: Turn) -> Reply:
    """Say what Lembra can do and, when the message could be kept, offer to keep it."""
    lang = turn.language
    body = text("offline_capabilities", lang)
    offer = offer_for(turn.incoming.text or "")
    if offer is None:
        return finish(turn, body, kind="deterministic")
    tool, args = offer
    if tool in ("save_movie", "save_tv_show"):  # "salva Duna?": the title it asked about
        turn.facts.apply_rule("save_offered_not_done")
        return await ask_to_save(deps, turn, SaveUnasked(tool, args, str(args.get("title", ""))))
    pending = pendings.OfferSave(tool=tool, args_json=json.dumps(args, ensure_ascii=False))  # type: ignore[arg-type]
    await pendings.store(deps, turn, pending)
    turn.facts.apply_rule("save_offered_not_done")
    is_note = tool == "save_note"
    return finish(
        turn,
        body + "\n" + text("offer_note" if is_note else "offer_link", lang),
        kind="preview",
        choices=[
            text("offer_note_button" if is_note else "offer_link_button", lang),
            text("confirm_no", lang),
        ],
        choice_kind="confirm",
        choice_token=pending.token,
    )


# Only a plain "yes" keeps the message: in a chat "ok", "beleza" or "claro" are as often an
# answer to something else, and a save the user did not ask for is what this avoids.
PLAIN_YES = frozenset(
    """sim, s, ss, yes, y, pode, pode sim, pode salvar, pode guardar, guarda, guardar, salva,
    salvar, salve, quero, quero sim, sim quero, sim por favor, sim pode, save, save it, keep it,
    keep, yes please, yes save it, guardar como nota, keep as a note""".replace("\n", " ").split(
        ", "
    )
)


async def ask_to_save(deps: Deps, turn: Turn, unasked: SaveUnasked) -> Reply:
    """A save the message did not ask for, asked instead of done: the user's yes runs it."""
    lang = turn.language
    pending = pendings.OfferSave(
        tool=unasked.tool,  # type: ignore[arg-type]
        args_json=json.dumps(unasked.args, ensure_ascii=False),
    )
    await pendings.store(deps, turn, pending)
    return finish(  # a question, never an effect: at most AMBIGUOUS (DESIGN 9.2)
        turn,
        text("offer_unasked_save", lang, label=unasked.label or "?"),
        kind="candidates",
        choices=[text("offer_save_button", lang), text("confirm_no", lang)],
        choice_kind="confirm",
        choice_token=pending.token,
    )


def accepts(message: str) -> bool:
    """Whether `message` is the plain yes that takes the offer."""
    return normalize(message) in {p.strip() for p in PLAIN_YES}


async def accept(
    deps: Deps, turn: Turn, offer: pendings.OfferSave, tools: dict[str, Tool[ToolArgs]]
) -> Outcome:
    """Run the save the user accepted, through the tool's own validation."""
    tool = tools[offer.tool]
    args = tool.args_model.model_validate(json.loads(offer.args_json))
    outcome = await tool.run(ToolContext(deps, turn, wants_save=True), args)
    return outcome


# -- a seen title that is not on the list (issue 44) -------------------------------------------


async def offer_seen(
    deps: Deps,
    turn: Turn,
    *,
    title: str,
    item_type: ItemType | None,
    rating: int | None,
    comment: str,
    seen_at_ms: int,
    joined: bool = False,
) -> Reply | None:
    """ "vi X ontem, nota 8" when X is not on the list: "X (year) is not on your list. Save
    it as seen, rating 8?", held until the user's yes. The title is TMDB's when TMDB clearly
    knows it; without TMDB, only a title the message typed ("o filme X"). None when neither
    is certain (the caller says nothing was marked)."""
    kind = item_type if item_type in ("movie", "tv_show") else None
    found = await _known_title(deps, turn, title, kind)
    if found is None and (kind is None or joined or deps.tmdb.configured):
        return None  # `joined`: "Heat and Ronin" may be two titles; only TMDB makes it one
    pending = (
        pendings.OfferSeen(
            item_type=kind or "movie",
            title=" ".join(title.split()),
            rating=rating,
            comment=comment,
            seen_at_ms=seen_at_ms,
        )
        if found is None
        else pendings.OfferSeen(
            item_type="movie" if found.kind == "movie" else "tv_show",
            title=found.title,
            year=found.year,
            tmdb_id=found.tmdb_id,
            original_title=found.original_title,
            overview=found.overview,
            rating=rating,
            comment=comment,
            seen_at_ms=seen_at_ms,
        )
    )
    # "salva ele" names it too (and, while the offer is open, takes it)
    shelves.did(turn, "named", pending.item_type, named=(f"{pending.item_type}:{pending.title}",))
    await pendings.store(deps, turn, pending)
    lang = turn.language
    label = titled_label(pending.title, pending.year)
    rated = text("offer_seen_rating", lang, rating=rating) if rating is not None else ""
    return finish(  # a question, never an effect (DESIGN 9.2)
        turn,
        text("offer_seen", lang, label=label, rating=rated),
        kind="candidates",
        choices=[text("offer_seen_button", lang), text("confirm_no", lang)],
        choice_kind="confirm",
        choice_token=pending.token,
    )


async def _known_title(
    deps: Deps, turn: Turn, title: str, kind: Literal["movie", "tv_show"] | None
) -> TmdbCandidate | None:
    """The one movie or show TMDB clearly means by `title`: a sole result, or the one whose
    title is these words; a movie before a show when no type was said. None when TMDB is
    not configured, down, or unsure."""
    if not deps.tmdb.configured or not fold(title):
        return None
    kinds: tuple[TmdbKind, ...] = ("tv",) if kind == "tv_show" else ("movie",)
    if kind is None:
        kinds = ("movie", "tv")
    language = TMDB_LANGUAGE[turn.language]
    for each in kinds:
        try:
            found = await deps.tmdb.search(each, title, language=language, now_ms=turn.now_ms)
        except ServiceError:
            return None
        best = clear_candidate(found, title, None)
        if best is not None and _names(best, title):
            return best
    return None


def _names(candidate: TmdbCandidate, title: str) -> bool:
    """Whether every word said is a word of the candidate's title (or its original title),
    a word of 5 letters or more allowed one slip ("openheimer": Oppenheimer); the offer
    that follows names TMDB's title, so the user sees what was understood before a yes."""
    said = set(re.sub(r"[^\w\s]", " ", fold(title)).split()) - {"o", "a", "the"}
    for name in (candidate.title, candidate.original_title or ""):
        words = re.sub(r"[^\w\s]", " ", fold(name)).split()
        if said and all(
            w in words or (len(w) >= MIN_SLIP and any(OSA.distance(w, n) <= 1 for n in words))
            for w in said
        ):
            return True
    return False


MIN_SLIP: Final = 5


_SEEN_YES: Final = frozenset(
    """sim s ss yes y yeah yep yup sure ok okay pode claro bora isso go ahead please pfv pf
    por favor plz pls com certeza of course absolutely certo manda ver""".split()
)
# what a yes may add: the save itself said again ("salva como visto", "put it as watched")
_SEEN_SAY: Final = frozenset(
    """salva salvar salve guarda guardar guarde adiciona adicionar adicione coloca coloque
    bota bote poe marca marcar marque save add put keep mark store it ele ela esse essa isso
    that this como as de to on in na no a o the my minha lista list watchlist visto vista
    assistido assistida seen watched lido done sim yes pode go ahead ja already e and
    then entao tambem too also""".split()
)


_SEEN_VERBS: Final = frozenset(
    """salva salvar salve guarda guardar guarde adiciona adicionar adicione coloca coloque
    bota bote poe marca marcar marque save add put keep mark store""".split()
)


# a rating said with the yes: "sim pode salvar, nota 10 pra ele", "yes, gave it a 9"
_YES_RATING: Final = re.compile(
    r"\b(?:(?:com|with|e|and|dei|gave|give|i\s+gave)\s+)?(?:(?:it|ele|ela)\s+)?"
    r"(?:(?:nota|rating|score|a|an|um)\s+)*(?:10|[0-9])(?:\s*/\s*10)?"
    r"(?:\s+(?:pra|pro|para|for|to)\s+(?:ele|ela|esse|essa|it|this|that|this one|that one))?\b"
)


def yes_rating(message: str) -> int | None:
    """The rating a yes to the seen offer gives ("sim, nota 10 pra ele"), or None."""
    said = message.lower().replace(",", " ")
    found = list(_YES_RATING.finditer(said))
    if (
        len(found) != 1
        or said_rating(found[0].group()) is None
        and not re.search(r"(?:nota|rating|score|/\s*10|gave|dei)", found[0].group())
    ):
        return None
    return int(re.search(r"10|[0-9]", found[0].group()).group())  # type: ignore[union-attr]


def takes_seen(message: str) -> bool:
    """Whether `message` says yes to saving the offered title as seen: a yes ("sim", "yeah,
    go ahead"), the save said again ("salva como visto", "put it as watched"), or both, with
    one rating at most ("nota 10 pra ele"); any other word (another title) is not this yes."""
    if yes_rating(message) is not None:
        message = _YES_RATING.sub(" ", message.lower().replace(",", " "))
    words = normalize(message).replace(",", " ").split()
    if not words or len(words) > 12:
        return False
    said = " ".join(words)
    yes = any(w in _SEEN_YES for w in words) or "go ahead" in said
    says_save = any(w in _SEEN_VERBS for w in words)
    return (yes or says_save) and all(w in _SEEN_YES or w in _SEEN_SAY for w in words)


async def save_seen(deps: Deps, turn: Turn, offer: pendings.OfferSeen) -> Outcome:
    """The offered title saved as seen, with its rating, comment and day: one save, undone
    as any save is, and kept once however often the answer is driven again."""
    return await store_item(
        ToolContext(deps, turn, wants_save=True),
        offer.item_type,
        title=offer.title,
        year=offer.year,
        tmdb_id=offer.tmdb_id,
        overview=offer.overview or None,
        enriched=offer.tmdb_id is not None,
        original_title=offer.original_title,
        state="seen",
        state_at_ms=offer.seen_at_ms,
        rating=offer.rating,
        details={"comment": offer.comment} if offer.comment else None,
    )


def seen_reply(turn: Turn, offer: pendings.OfferSeen, outcome: Saved) -> Reply:
    """ "✅ Salvei X como visto. Nota: 8/10.", or that it was already saved."""
    lang = turn.language
    shelves.point_at(turn, outcome.item)  # "qual nota eu dei pra ele?", "desfaz" name it
    shelves.did(turn, "save", outcome.item.type)
    label = item_label(outcome.item)
    if not outcome.created:
        return finish(turn, text("already_saved", lang, label=label), kind="dedup")
    turn.tools_executed.append("save_movie" if offer.item_type == "movie" else "save_tv_show")
    rated = text("marked_rating", lang, rating=offer.rating) if offer.rating is not None else ""
    body = f"{OK_MARK} " + text("offer_seen_saved", lang, label=label) + rated
    return finish(turn, body, kind="effect")
