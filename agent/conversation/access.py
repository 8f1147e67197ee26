"""Who may use the bot (DESIGN 10.5, 11.6): ALLOWED_USER_IDS, the ids an admin approved
(`allowed_users`), admins always; checked before any write.

A sender outside them gets one polite refusal a day, with their id and a pairing code
for the operator (`/allow CODE`, `lembra users allow CODE`), and silence after it.
Nothing of theirs is stored except what the channel already wrote to deduplicate the
update: the day of the refusal and the digest of the code (valid PAIRING_TTL_MS) are
marked on that record, so every process knows them; no user document, no message, no
model call. `/id` is answered to anyone, in code, and stores nothing either.
Console users (`cli:`) are always allowed: whoever types there already has the machine.

Approvals are read from the database on every turn of a sender outside the
environment's list (one lookup by `_id`, no per-process cache), so `/allow` and `/deny`
hold at once in every process.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal
from zoneinfo import ZoneInfo

from agent.deps import Deps
from agent.texts import text
from agent.types import Incoming, Reply, ReplyMeta
from config.logging import log_event
from config.settings import Settings

logger = logging.getLogger(__name__)

REMEMBERED = 10_000  # refused senders this process remembers without asking the database
PAIRING_TTL_MS = 24 * 3600 * 1000
# 29 letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L, U/V):
# 8 of them are ~39 bits, an admin alone may try one, and it expires in a day.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789"
CODE_LENGTH = 8
_ID = re.compile(r"^(?:tg:[1-9]\d{0,19}|wa:[1-9]\d{5,19})$")
_ID_COMMAND = re.compile(r"^/id(?:@\w+)?\s*$", re.IGNORECASE)

Change = Literal[
    "added", "already", "listed", "admin", "removed", "absent", "unknown_code", "invalid"
]


@dataclass(frozen=True, slots=True)
class AccessChange:
    """What `/allow` or `/deny` (or `lembra users`) did."""

    outcome: Change
    user_id: str | None = None


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


async def allows(deps: Deps, user_id: str) -> bool:
    """Whether `user_id` may use the bot: no list, on the list, approved, an admin, the console."""
    listed = deps.settings.allowed
    if not listed or user_id in listed or deps.is_admin(user_id) or user_id.startswith("cli:"):
        return True
    return await deps.db.allowed.has(user_id)


def new_code() -> str:
    """A pairing code, shown as `ABCD-EFGH`."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{code[:4]}-{code[4:]}"


def code_digest(code: str) -> str | None:
    """The stored form of a code as typed (case, dashes and spaces ignored); None: not a code."""
    folded = re.sub(r"[\s-]", "", code).upper()
    if len(folded) != CODE_LENGTH or not set(folded) <= set(CODE_ALPHABET):
        return None
    return hashlib.sha256(folded.encode()).hexdigest()


async def approve(deps: Deps, wanted: str, *, by: str) -> AccessChange:
    """Let in the sender a pairing code was given to, or a namespaced id (`tg:123`)."""
    wanted = wanted.strip()
    if _ID.match(wanted):
        user_id = wanted
    else:
        digest = code_digest(wanted)
        if digest is None:
            return AccessChange("invalid")
        found = await deps.db.updates.paired(digest, now_ms=deps.clock.ms())
        if found is None:
            return AccessChange("unknown_code")
        user_id = found
        await deps.db.updates.spend_pairing(digest)
    if deps.is_admin(user_id):
        return AccessChange("admin", user_id)
    if user_id in deps.settings.allowed:
        return AccessChange("listed", user_id)
    added = await deps.db.allowed.add(user_id, by=by, now_ms=deps.clock.ms())
    log_event(logger, "user_allowed", user_id=user_id, by=by, added=added)
    return AccessChange("added" if added else "already", user_id)


async def revoke(deps: Deps, wanted: str) -> AccessChange:
    """Take an approval back; admins and ALLOWED_USER_IDS are the environment's to change."""
    user_id = wanted.strip()
    if not _ID.match(user_id):
        return AccessChange("invalid")
    if deps.is_admin(user_id):
        return AccessChange("admin", user_id)
    if user_id in deps.settings.allowed:
        return AccessChange("listed", user_id)
    removed = await deps.db.allowed.remove(user_id)
    log_event(logger, "user_denied", user_id=user_id, removed=removed)
    return AccessChange("removed" if removed else "absent", user_id)


def is_id_command(message: str | None) -> bool:
    return message is not None and _ID_COMMAND.match(message.strip()) is not None


class Access:
    """The allowlist check at the runtime's entry, and the refusals it sends."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self._refused: OrderedDict[str, str] = OrderedDict()  # sender -> day last refused

    async def allows(self, user_id: str) -> bool:
        return await allows(self.deps, user_id)

    async def refuse(self, incoming: Incoming) -> Reply:
        """The day's one refusal for this sender (with a pairing code), or a silent reply after
        it; `/id` is answered every time."""
        language = incoming.language_hint or self.deps.settings.default_language
        meta = ReplyMeta(intent="not_allowed")
        if incoming.kind == "text" and is_id_command(incoming.text):
            return Reply(text=text("your_id", language, user_id=incoming.user_id), meta=meta)
        day = self._today()
        code = await self._first_today(incoming, day)
        first = code is not None
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
        if code is None:
            return Reply(text="", silent=True, meta=meta)
        if not code:  # no update record to keep a code on
            return Reply(text=text("not_allowed", language, user_id=incoming.user_id), meta=meta)
        body = text("not_allowed_code", language, user_id=incoming.user_id, code=code)
        return Reply(text=body, meta=meta)

    async def _first_today(self, incoming: Incoming, day: str) -> str | None:
        """The code of today's first refusal ("" when there is no record to keep it on), or
        None when this sender was already refused today."""
        sender = incoming.user_id
        if self._refused.get(sender) == day:
            return None
        updates = self.deps.db.updates
        if incoming.update_id is not None and await updates.refused_on(sender, day):
            self._remember(sender, day)
            return None
        code = ""
        if incoming.update_id is not None:
            code = new_code()
            await updates.note_refusal(
                incoming.update_id,
                day,
                code_hash=code_digest(code),
                until_ms=self.deps.clock.ms() + PAIRING_TTL_MS,
            )
        self._remember(sender, day)
        return code

    def _remember(self, sender: str, day: str) -> None:
        self._refused[sender] = day
        self._refused.move_to_end(sender)
        while len(self._refused) > REMEMBERED:
            self._refused.popitem(last=False)

    def _today(self) -> str:
        zone = ZoneInfo(self.deps.settings.default_timezone)
        return self.deps.clock.now().astimezone(zone).date().isoformat()
