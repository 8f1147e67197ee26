"""What the user's marks kept of one item (issue 44): "what rating did I give Dune?", "o que
eu achei de Duna?", answered in code and by the planner's `what_i_said` with one phrasing.

Only what was stored is said: the rating the user gave as a number, what they said of it
when marking it ("achei sensacional", as written) and when it was marked seen.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agent.conversation import shelf as shelves
from agent.conversation.replies import finish, item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import text
from agent.types import Reply
from storage.documents import ItemDoc

_WATCHED = ("movie", "tv_show", "video")


def said_reply(deps: Deps, turn: Turn, item: ItemDoc) -> Reply:
    """The rating, comment and seen date kept of `item`, or that none was kept."""
    lang = turn.language
    shelves.point_at(turn, item)  # "tira o visto dele", "onde assistir?" name it now
    shelves.did(turn, "said", item.type)  # "e pra Y?": the same question of Y
    state = text(f"state_{item.current_state}", lang)
    label = item_label(item)
    if not item.done:
        return finish(turn, text("said_left", lang, label=label, state=state), kind="deterministic")
    when = ""
    if item.state_at_ms:
        at = datetime.fromtimestamp(item.state_at_ms / 1000, tz=_zone(deps, turn))
        day = at.strftime("%d/%m") if lang == "pt" else at.strftime("%b %d").replace(" 0", " ")
        # "(visto em 05/01)" unless the sentence already says it is seen
        seen = item.type in _WATCHED and (item.rating is not None or bool(item.comment))
        when = text("said_when" if seen else "said_when_done", lang, day=day)
    said = text("said_comment", lang, comment=item.comment) if item.comment else ""
    if item.rating is not None:
        body = text("said_rated", lang, rating=item.rating, label=label, when=when, comment=said)
    elif item.comment:
        body = text("said_commented", lang, label=label, when=when, comment=item.comment)
    else:
        body = text("said_unrated", lang, label=label, state=state, when=when)
    return finish(turn, body, kind="deterministic")


def _zone(deps: Deps, turn: Turn) -> ZoneInfo:
    try:
        return ZoneInfo(turn.user.timezone)
    except (ValueError, KeyError):
        return ZoneInfo(deps.settings.default_timezone)
