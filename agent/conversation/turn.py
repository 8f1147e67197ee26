"""The state of one turn while the runtime handles it: facts, effects, what to persist."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from agent.trust.confidence import TurnFacts
from agent.types import BeliefView, Incoming, Language
from agent.understanding.intent import Intent
from storage.documents import UserDoc
from storage.messages import NewMessage


@dataclass(slots=True)
class Turn:
    incoming: Incoming
    user: UserDoc
    language: Language
    now_ms: int
    intent: Intent | None = None
    facts: TurnFacts = field(default_factory=TurnFacts)
    tools_executed: list[str] = field(default_factory=list)
    llm_calls: int = 0
    prompt_tokens: list[int] = field(default_factory=list)
    ledger_events: list[str] = field(default_factory=list)
    messages: list[NewMessage] = field(default_factory=list)
    belief: BeliefView | None = None
    notes: list[str] = field(default_factory=list)
    # message numbers reserved with the user read (private chats; storage/messages.py)
    reserved_seq: tuple[int, int] | None = None
    forgotten: bool = False  # the user erased their account this turn: persist nothing more  # lines prepended to the reply (e.g. a dropped pending action)
    # a pending action the message did not answer, still open while the planner runs (DESIGN 3.7)
    open_pending: object | None = None
    # a deletion that waited for its "sim" when another request came: the next preview of a
    # deletion in this turn asks for both (agent/conversation/deleting.py)
    waiting_delete: object | None = None
    turn_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    started: float = field(default_factory=time.perf_counter)
    cached_tokens: list[int] = field(default_factory=list)  # per model call, as prompt_tokens
    receipts: list[str] = field(default_factory=list)  # "type:hash" of each committed effect
    # the model failed and the offline planner was tried: "served" or "unserved" (DESIGN 10.5)
    fallback: str = ""
    # the message answers a pending question («sim», a typed pick): what it saves is not its
    # own words, so an edit of it corrects nothing (agent/conversation/corrections.py)
    answers_pending: bool = False
    # the conversation's shelf as this turn leaves it, to be written (agent/conversation/shelf.py)
    shelf_change: dict[str, Any] | None = None
    shelf_written: bool = False  # the staged shelf is already written (with a pending action)
    # the turn named titles off the list (shelf.did): only the next message may point at them
    named_now: bool = False
    # the user's last message, when the reply to it saved nothing and asked back (runtime.plan)
    asked_back_on: str = ""
    # the planner's `log_reasoning` note, shown by /why and never re-sent to it (issue 31)
    reasoning: str = ""
    # the turn answered a confirmation («sim», «não»): its answer is kept for a re-drive (issue 46)
    took_pending: bool = False
    # the re-drive of an update whose first run answered the question and died before its
    # answer was kept: effects look for what that run did before doing anything (issue 46)
    redriven: bool = False

    @property
    def source_message(self) -> str | None:
        """The message an item this turn saves is corrected by editing (None: no such message)."""
        return None if self.answers_pending else self.incoming.message_id

    @property
    def user_id(self) -> str:
        return self.user.id

    @property
    def conversation_id(self) -> str:
        return self.incoming.conversation_id
