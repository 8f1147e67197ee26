"""An edited message read as a correction of the item its turn saved (DESIGN 10.5, issue 33).

People edit a message to fix a typo in what they just sent. When the message's turn
saved exactly one item, and the edit comes within EDIT_WINDOW_SECONDS of that save,
the new words are read the way a save reads them (the offline rules, in code, 0 model
calls) and the item takes them through `update_item`, the same path a spoken
correction ("na verdade é ...") takes: one `item_updated` event, undoable. Telegram's
`edited_message` and WhatsApp's `edit` both arrive here as Incoming kind "edit".

Of two edits of one message, the newer (by the platform's edit date) wins whatever
order they arrive in: an edit older than the one last applied is ignored. An edit is
held to the same length limit as a message (MAX_MESSAGE_CHARS, in the runtime).

Any other edit (of a message that saved nothing, or several items, after the window,
or one that changes nothing the item has) is ignored silently: no reply, nothing
stored, one log line `edit_ignored` with the reason and never the text. The check
costs one round trip (the items the message saved) before anything else is read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from agent.conversation.replies import finish, item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.planning.offline import plan_offline
from agent.texts import EDIT_MARK, text
from agent.tools.base import ToolContext, Updated
from agent.tools.editing import DATED, TITLED, UpdateItemArgs, apply_update
from agent.types import Incoming, Reply
from agent.understanding.textnorm import clean_text, fold
from config.logging import log_event
from storage.documents import ItemDoc

log = logging.getLogger("lembra.corrections")

TITLE_LIMIT = 200
CONTENT_LIMIT = 4000


@dataclass(frozen=True, slots=True)
class Correction:
    """What an edit changes: the item and the arguments `update_item` takes."""

    item: ItemDoc
    args: UpdateItemArgs | None  # None: this update's first run applied it already (a re-drive)


async def read_edit(deps: Deps, incoming: Incoming, now_ms: int) -> Correction | str:
    """The correction an edit makes, or why it makes none (a reason for `edit_ignored`)."""
    if incoming.edit_of is None:
        return "no_original"
    saved = await deps.db.items.saved_by_message(incoming.user_id, incoming.edit_of)
    if not saved:
        return "not_a_save"
    if len(saved) > 1:
        return "several_items"  # which one the new words mean is a guess: none is changed
    item = saved[0]
    if incoming.update_id is not None and item.edited_by == incoming.update_id:
        return Correction(item, None)  # its re-drive: answered again, applied once
    if now_ms - item.created_at_ms > deps.settings.edit_window_seconds * 1000:
        return "outside_window"
    made, last = incoming.edited_at_s, item.edited_at_s
    if made is not None and last is not None and made < last:
        return "older_edit"  # a newer edit of the message was applied first: it stands
    args = _changes(item, incoming.text or "")
    return Correction(item, args) if isinstance(args, UpdateItemArgs) else args


def _changes(item: ItemDoc, new_text: str) -> UpdateItemArgs | str:
    """The new words read as a save reads them, as the fields of `item` they change."""
    plan = plan_offline(new_text, "save")
    if plan is None:
        return "no_words"
    tool, args = plan
    words = str(args.get("title") or args.get("content") or "")
    year = args.get("year") if isinstance(args.get("year"), int) else None
    if item.type == "note":
        content = clean_text(str(args.get("content") or words))[:CONTENT_LIMIT]
        if not content or content == item.content:
            return "unchanged"
        return UpdateItemArgs(item_id=item.id, content=content)
    if item.type in ("link", "video"):
        if tool not in ("save_link", "save_video") or args.get("url") != item.url:
            return "link_changed"  # a link's address is what it is: not a correction
        title = clean_text(str(args.get("title") or ""))
        if not title or item.type not in TITLED or fold(title) == fold(item.title or ""):
            return "unchanged"
        return UpdateItemArgs(item_id=item.id, title=title[:TITLE_LIMIT])
    title = clean_text(words)[:TITLE_LIMIT]
    if not title:
        return "no_words"
    new_year = year if item.type in DATED and year != item.year else None
    if fold(title) == fold(item.title or "") and new_year is None:
        return "unchanged"
    return UpdateItemArgs(item_id=item.id, title=title, year=new_year)


def ignored(incoming: Incoming, reason: str) -> Reply:
    """The silent answer to an edit that corrects nothing: one log line, no text."""
    log_event(log, "edit_ignored", update_id=incoming.update_id, reason=reason)
    return Reply(text="", silent=True)


async def correct(deps: Deps, turn: Turn, correction: Correction) -> Reply:
    """Apply the correction through `update_item` and say what the item is now."""
    if correction.args is None:  # the re-drive of an edit already applied: the same answer
        item = correction.item
    else:
        made, by = turn.incoming.edited_at_s, turn.incoming.update_id
        also = {"edited_at_s": made, "edited_by": by}
        ctx = ToolContext(deps, turn, wants_save=False)
        outcome = await apply_update(ctx, correction.args, also=also)
        if not isinstance(outcome, Updated):  # deleted meanwhile: nothing to say about it
            return ignored(turn.incoming, "item_gone")
        item = outcome.item
    turn.facts.apply_rule("edit_as_correction")
    turn.tools_executed.append("update_item")
    body = f"{EDIT_MARK} " + text("edit_corrected", turn.language, label=item_label(item))
    return finish(turn, body, kind="effect")
