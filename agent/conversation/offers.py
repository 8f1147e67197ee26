"""The offline planner's answer to a message that asks for nothing it can do (DESIGN 9.2).

One short reply of what Lembra can do; where the message could be kept (a note, a link),
a "Guardar como nota" choice held as a pending action (2 minutes). Nothing is saved until
the user says "sim" or presses the button.
"""

from __future__ import annotations

import json

from agent.conversation import pending as pendings
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.offline import offer_for
from agent.texts import text
from agent.tools.base import Outcome, SaveUnasked, Tool, ToolArgs, ToolContext
from agent.types import Reply
from agent.understanding.vocabulary import normalize


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
