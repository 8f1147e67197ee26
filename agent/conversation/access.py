"""Who may use the bot (DESIGN 10.5): ALLOWED_USER_IDS, admins always, checked before any write.

A sender outside the list gets one polite refusal a day (it names their id, for the
operator to add) and silence after it. Nothing of theirs is stored except what the
channel already wrote to deduplicate the update: the day of the refusal is marked on
that record, so every process knows it; no user document, no message, no model call.
Console users (`cli:`) are always allowed: whoever types there already has the machine.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from zoneinfo import ZoneInfo

from agent.deps import Deps
from agent.texts import text
from agent.types import Incoming, Reply, ReplyMeta
from config.logging import log_event
from config.settings import Settings

logger = logging.getLogger(__name__)

REMEMBERED = 10_000  # refused senders this process remembers without asking the database


def open_to_everyone(settings: Settings) -> bool:
    """Whether a model is configured and anyone may use it (what `serve` warns about)."""
    return settings.model_configured and not settings.allowed


def warn_if_open(settings: Settings) -> None:
    """Log one warning at start when the bot, with a paid model behind it, is open to anyone."""
    if open_to_everyone(settings):
        log_event(
            logger,
            "bot_open_to_everyone",
            level=logging.WARNING,
            note="a model is configured and ALLOWED_USER_IDS is empty: anyone who finds the bot "
            "can use it and spend its token cap; set ALLOWED_USER_IDS=tg:<id>,wa:<number>",
        )


def allows(deps: Deps, user_id: str) -> bool:
    """Whether `user_id` may use the bot: no list, on the list, an admin, or the console."""
    allowed = deps.settings.allowed
    return not allowed or user_id in allowed or deps.is_admin(user_id) or user_id.startswith("cli:")


class Access:
    """The allowlist check at the runtime's entry, and the refusals it sends."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self._refused: OrderedDict[str, str] = OrderedDict()  # sender -> day last refused

    def allows(self, user_id: str) -> bool:
        return allows(self.deps, user_id)

    async def refuse(self, incoming: Incoming) -> Reply:
        """The day's one refusal for this sender, or a silent reply after it."""
        day = self._today()
        first = await self._first_today(incoming, day)
        outcome = "replied" if first else "silent"
        self.deps.metrics.senders_refused.labels(outcome).inc()
        log_event(
            logger,
            "sender_not_allowed",
            level=logging.WARNING if first else logging.DEBUG,
            user_id=incoming.user_id,
            update_id=incoming.update_id,
            outcome=outcome,
        )
        meta = ReplyMeta(intent="not_allowed")
        if not first:
            return Reply(text="", silent=True, meta=meta)
        language = incoming.language_hint or self.deps.settings.default_language
        return Reply(text=text("not_allowed", language, user_id=incoming.user_id), meta=meta)

    async def _first_today(self, incoming: Incoming, day: str) -> bool:
        sender = incoming.user_id
        if self._refused.get(sender) == day:
            return False
        updates = self.deps.db.updates
        if incoming.update_id is not None and await updates.refused_on(sender, day):
            self._remember(sender, day)
            return False
        if incoming.update_id is not None:
            await updates.note_refusal(incoming.update_id, day)
        self._remember(sender, day)
        return True

    def _remember(self, sender: str, day: str) -> None:
        self._refused[sender] = day
        self._refused.move_to_end(sender)
        while len(self._refused) > REMEMBERED:
            self._refused.popitem(last=False)

    def _today(self) -> str:
        zone = ZoneInfo(self.deps.settings.default_timezone)
        return self.deps.clock.now().astimezone(zone).date().isoformat()
