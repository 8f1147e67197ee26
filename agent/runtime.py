"""The runtime: the single decision point `handle(incoming) -> Reply` (DESIGN section 1).

Placeholder until the deterministic runtime lands: it answers every message with a
fixed "not ready" line so channels can be wired against the real entry point.
"""

from __future__ import annotations

from agent.deps import Deps
from agent.types import Incoming, Reply


class Runtime:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    async def handle(self, incoming: Incoming) -> Reply:
        return Reply(text="Lembra ainda não está pronto.")
