"""The reply a re-driven turn owes when its first run was interrupted mid-effect (issue 15).

A confirmed deletion whose run died after the pending action was used is finished by
`agent.trust.effects.recover`; the re-drive then answers what the first run would
have, instead of "nothing to confirm".
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.conversation.replies import finish, item_label
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, items_word, text
from agent.trust.effects import Finished
from agent.types import Reply


async def recovered_reply(deps: Deps, turn: Turn, finished: Sequence[Finished]) -> Reply | None:
    """The first run's reply for a deletion this update had begun, or None."""
    update_id = turn.incoming.update_id
    if update_id is None:
        return None
    lang = turn.language
    for done in finished:
        effect = done.effect
        if effect.update_id != update_id:
            continue
        turn.facts.apply_rule("explicit_confirmation")
        if effect.op == "delete" and done.item is not None:
            turn.tools_executed.append("delete_item")
            body = text("deleted", lang, label=item_label(done.item))
            return finish(turn, f"{OK_MARK} " + body, kind="effect")
        if effect.op == "delete_all":
            turn.tools_executed.append("delete_all_memories")
            await deps.db.users.update(turn.user_id, {"dream_due": "all_deleted"})
            body = text(
                "delete_all_done", lang, count=done.count, items=items_word(done.count, lang)
            )
            if done.kept:
                body += " " + text("delete_all_kept_newer", lang, count=done.kept)
            return finish(turn, f"{OK_MARK} " + body, kind="effect")
    return None
