"""A turn's answer kept for its re-drive (issue 46): a re-driven update answers as its first run did.

A turn that changed something (an effect with its ledger receipt) or answered a question
(«sim», «não») keeps its reply on the user document, in the conversation's slot, with its
update id, in the write that ends the turn (and settles the question it took). A later
turn of the same update (the lifecycle's re-drive after a crash, a redelivery before the
record was done) answers that, and does nothing again.

The windows before that write are covered where the work is: an effect interrupted
midway is finished by its recovery (agent/trust/effects.py, agent/conversation/recovery.py),
a question answered by an update stays visible to that update's re-drive (`pending.take`),
and the effects re-run for it answer as their first run (a save made by the same update
is "saved", a deletion it made is "deleted"). Undo (issue 43) keeps its answer the same way.
"""

from __future__ import annotations

import logging
from typing import Any

from agent.conversation import pending as pendings
from agent.conversation.turn import Turn
from agent.replycodec import reply_from_json, reply_to_json
from agent.types import Incoming, Reply
from config.logging import log_event
from storage.documents import UserDoc
from storage.pending import pending_key, pending_slot

log = logging.getLogger("lembra.redrive")


def _slot(user_id: str, conversation_id: str) -> str:
    return pending_slot(pending_key(user_id, conversation_id))


def kept(user: UserDoc, incoming: Incoming) -> Reply | None:
    """The answer this update's first run kept, when this turn is its re-drive."""
    if incoming.update_id is None:
        return None
    stored = user.answers.get(_slot(user.id, incoming.conversation_id))
    if not stored or stored.get("update_id") != incoming.update_id:
        return None
    reply = reply_from_json(str(stored.get("reply") or "null"))
    if reply is not None:
        log_event(log, "answer_repeated", update_id=incoming.update_id, user_id=user.id)
    return reply


def to_keep(turn: Turn, reply: Reply) -> dict[str, Any]:
    """The user document's fields that keep this turn's answer (none for a turn that changed
    nothing, or that has no update to be re-driven), with the question it took settled."""
    update_id = turn.incoming.update_id
    if update_id is None or not (turn.receipts or turn.took_pending) or reply.attachment:
        return {}
    answer = {"update_id": update_id, "reply": reply_to_json(reply, with_data=False)}
    field = f"answers.{_slot(turn.user_id, turn.conversation_id)}"
    return {field: answer, **pendings.settled_fields(turn)}
