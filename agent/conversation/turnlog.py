"""The one content-free line every turn logs (`turn_done`): what an operator greps first.

It carries what the turn decided and what it cost, read from the reply's meta and the
turn's round-trip counter; never the message, the reply or anything the user typed.
Channels served by `lembra serve` log it at INFO; the console at DEBUG, so
`LOG_LEVEL=DEBUG lembra chat` shows intent -> tools -> result for each message.
"""

from __future__ import annotations

import logging

from agent.types import Incoming, Reply
from config.logging import log_event

logger = logging.getLogger("lembra.turn")


def log_turn(incoming: Incoming, reply: Reply, *, round_trips: int, ms: float) -> None:
    """Log the turn's `turn_done` line (fields only; no user text)."""
    meta = reply.meta
    log_event(
        logger,
        "turn_done",
        level=logging.DEBUG if incoming.channel == "console" else logging.INFO,
        channel=incoming.channel,
        kind=incoming.kind,
        label=meta.intent or "none",
        turn_kind=meta.turn_kind,
        tools=",".join(meta.tools_executed) or "-",
        state=meta.state,
        score=meta.score,
        model_calls=meta.llm_calls,
        # in tokens; not named "*token*", which the log scrubber withholds as a secret
        prompt_size=meta.tokens,
        cached_size=meta.cached_tokens,
        round_trips=round_trips,
        ms=round(ms, 1),
    )
