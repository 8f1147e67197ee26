"""The one typed dependencies object, built once in `main` and passed down.

Nothing in Lembra builds clients or reads settings at import time; everything that
talks to the outside world hangs off `Deps`.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass, field

from agent.clock import Clock, SystemClock
from agent.metrics import Metrics
from config.settings import Settings
from storage import Database


def process_identity() -> str:
    """A lease owner id unique to this process: host, pid and a random suffix."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Deps:
    settings: Settings
    db: Database
    clock: Clock = field(default_factory=SystemClock)
    metrics: Metrics = field(default_factory=Metrics)
    owner: str = field(default_factory=process_identity)

    def is_admin(self, user_id: str) -> bool:
        """Admin power is decided here, by namespaced numeric id, never by a prompt."""
        return user_id in self.settings.admins
