"""The one typed dependencies object, built once in `main` and passed down.

Nothing in Lembra builds clients or reads settings at import time; everything that
talks to the outside world hangs off `Deps`, built by `agent.assembly.open_deps`. This
module imports no tool, planner or memory module, so all of them may import it.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agent.clock import Clock, SystemClock
from agent.memory.framecache import ConstitutionMemo
from agent.metrics import Metrics
from agent.services.links import LinkFetcher
from agent.services.tmdb import TmdbClient
from agent.services.transcribe import Transcriber
from agent.tokens import TokenCounter
from agent.toolkinds import Service
from agent.trust.inflight import InFlight
from agent.trust.tally import UsageTally
from config.settings import Settings
from storage import Database

if TYPE_CHECKING:  # imported when a model is built: openai and langchain are slow to load
    from agent.planning.transport import ModelTransport


def process_identity() -> str:
    """A lease owner id unique to this process: host, pid and a random suffix."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Deps:
    settings: Settings
    db: Database
    tmdb: TmdbClient
    links: LinkFetcher
    counter: TokenCounter
    model: ModelTransport | None  # None: the offline rule-based planner plans
    clock: Clock = field(default_factory=SystemClock)
    metrics: Metrics = field(default_factory=Metrics)
    owner: str = field(default_factory=process_identity)
    tally: UsageTally = field(default_factory=UsageTally)  # per-turn counters, batched
    transcriber: Transcriber | None = None  # None: voice notes get the fixed reply (DESIGN 10.3)
    # the constitution the risk policy reads on every preview, kept for a short TTL
    constitution_memo: ConstitutionMemo = field(default_factory=ConstitutionMemo)
    # effects finishing off the user's turn (a delete-all of thousands), settled by their next turn
    inflight: InFlight = field(default_factory=InFlight)

    def is_admin(self, user_id: str) -> bool:
        """Admin power is decided here, by namespaced numeric id, never by a prompt."""
        return user_id in self.settings.admins

    @property
    def unconfigured(self) -> frozenset[Service]:
        """The outside services a tool may need (`Tool.needs`) that the operator left unset."""
        return frozenset() if self.tmdb.configured else frozenset({"tmdb"})

    @property
    def model_name(self) -> str:
        return self.settings.llm_model if self.model is not None else "offline"
