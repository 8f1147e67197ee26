"""The real runtime against a test database, the scripted model server and a fake TMDB on loopback.

`live_runtime(db)` builds what `lembra replay` builds (real `Runtime`, real
`ModelTransport` talking HTTP to `ScriptedModelServer`, a `FakeClock`), so memory,
quota and handover tests drive the same entry point a channel does and observe
what the model server received and what the database holds.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from agent.assembly import open_deps
from agent.clock import FakeClock
from agent.conversation.runtime import Runtime
from agent.deps import Deps
from agent.tokens import TokenCounter
from agent.types import Incoming, Reply
from bot.fakes.scripted_model import ScriptedModelServer, ScriptedTurnReport
from bot.fakes.tmdb import FakeTmdb
from config.settings import Settings
from storage import Database

ZONE = "America/Sao_Paulo"
START = datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo(ZONE))
ALICE = "cli:alice"
UNLIMITED = 10**12
BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}


@functools.cache
def shared_counter() -> TokenCounter:
    """One cl100k counter for the whole test run (loading the ranks takes a moment)."""
    return TokenCounter()


def call(tool: str, **args: Any) -> dict[str, Any]:
    """A scripted planner output calling `tool`."""
    return {"action": "CALL_TOOL", "tool": tool, "args": args, "message": None, "belief": BELIEF}


def respond(message: str) -> dict[str, Any]:
    """A scripted planner output answering with `message`."""
    return {"action": "RESPOND", "tool": None, "args": None, "message": message, "belief": BELIEF}


@dataclass
class Live:
    deps: Deps
    runtime: Runtime
    model: ScriptedModelServer
    tmdb: FakeTmdb
    clock: FakeClock

    @property
    def db(self) -> Database:
        return self.deps.db

    async def say(
        self,
        text: str,
        *,
        llm: Sequence[Mapping[str, Any]] = (),
        errors: Sequence[Mapping[str, Any]] = (),
        user: str = ALICE,
    ) -> tuple[Reply, ScriptedTurnReport]:
        """One console message through `Runtime.handle`; the model answers from `llm`."""
        self.model.begin_turn(list(llm), list(errors))
        incoming = Incoming(
            channel="console", chat_id=user.split(":", 1)[1], user_id=user, text=text
        )
        try:
            reply = await self.runtime.handle(incoming)
        finally:
            report = self.model.end_turn()
        return reply, report

    def raw(self, collection: str) -> Any:
        """The driver collection itself, to plant corrupted documents as an outside writer would."""
        return self.db.client[self.db.name][collection]


def make_settings(model_url: str, tmdb_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "openai_base_url": model_url,
        "openai_api_key": "test-not-a-secret",
        "llm_model": "test-scripted",
        "llm_timeout_seconds": 5.0,
        "tmdb_base_url": tmdb_url,
        "tmdb_api_key": None,
        "default_language": "pt",
        "default_timezone": ZONE,
        "user_daily_token_quota": UNLIMITED,
        "admin_daily_token_quota": UNLIMITED,
        "global_daily_token_cap": UNLIMITED,
        "admin_user_ids": "",
        "background_llm": False,
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@asynccontextmanager
async def live_runtime(
    db: Database,
    *,
    start: datetime = START,
    context_size: int = 16_000,
    tmdb: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]] | None = None,
    **settings: Any,
) -> AsyncIterator[Live]:
    """A `Live` runtime on `db`; `settings` override test defaults (quotas unlimited)."""
    counter = shared_counter()
    clock = FakeClock(start)
    async with (
        ScriptedModelServer(context_size=context_size, counter=counter) as model,
        FakeTmdb(tmdb or {}) as fake_tmdb,
    ):
        config = make_settings(model.base_url, await fake_tmdb.start(), **settings)
        async with open_deps(config, db=db, clock=clock, counter=counter) as deps:
            yield Live(deps, Runtime(deps), model, fake_tmdb, clock)
