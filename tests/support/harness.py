"""A Runtime built the way `main` builds it, on the test database, with fakes at the network edge.

`open_lembra(db)` starts a fake TMDB and the page server on loopback, builds offline
settings (no model: the rule-based planner plans) and a FakeClock, and yields a
`Lembra` that talks to `Runtime.handle` the way a channel does.

`open_lembra(db, counting_model=True)` also starts the scripted model server and
configures it as OPENAI_BASE_URL, so the real model path (ModelTransport over HTTP)
is wired. Each turn is scripted with the outputs the test passes (none by default),
so any request the runtime makes is recorded by the server (`Lembra.model_calls`):
deterministic turns must leave it at zero.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from agent.assembly import open_deps
from agent.clock import FakeClock
from agent.conversation.runtime import Runtime
from agent.deps import Deps
from agent.tokens import TokenCounter
from agent.types import Channel, Incoming, Language, Reply
from bot.fakes.scripted_model import RecordedRequest, ScriptedModelServer, ScriptedTurnReport
from bot.fakes.tmdb import FakeTmdb
from config.settings import Settings, load_settings
from storage import Database
from storage.documents import ItemDoc, LedgerDoc, MessageDoc, PendingDoc, UserDoc
from tests.support.pages import PageServer

START = datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo("America/Sao_Paulo"))
ALICE = "cli:alice"

# What the fake TMDB serves unless a test says otherwise (TMDB's own ids where they exist).
CATALOGUE: dict[str, dict[str, list[dict[str, Any]]]] = {
    "movie": {
        "inception": [
            {"id": 27205, "title": "Inception", "release_date": "2010-07-15"},
            {"id": 1000001, "title": "Inception", "release_date": "2014-01-01"},
        ],
        "the matrix": [{"id": 603, "title": "The Matrix", "release_date": "1999-03-31"}],
        "pinocchio": [
            {"id": 532639, "title": "Pinocchio", "release_date": "2022-09-07"},
            {"id": 555604, "title": "Pinocchio", "release_date": "2022-11-09"},
            {"id": 539681, "title": "Pinocchio", "release_date": "2019-12-19"},
        ],
    },
    "tv": {"dark": [{"id": 70523, "name": "Dark", "first_air_date": "2017-12-01"}]},
}


@cache
def token_counter() -> TokenCounter:
    """One token counter for the test session, built on first use (loading it takes ~0.3 s)."""
    return TokenCounter()


def offline_settings(*, tmdb_base_url: str, **overrides: Any) -> Settings:
    """Settings with no model (the offline planner), the given TMDB, and loopback pages allowed.

    Everything a test depends on is given explicitly, so the caller's environment
    (an OPENAI_API_KEY, ADMIN_USER_IDS...) cannot leak in.
    """
    values: dict[str, Any] = {
        "_env_file": None,
        "openai_api_key": None,
        "openai_base_url": None,
        "tmdb_base_url": tmdb_base_url,
        "tmdb_api_key": None,
        "tmdb_timeout_seconds": 5.0,
        "mongodb_uri": None,
        "admin_user_ids": "",
        "default_language": "pt",
        "default_timezone": "America/Sao_Paulo",
        "link_fetch_allow_loopback": True,
        "log_level": "WARNING",
    }
    values.update(overrides)
    return load_settings(**values)


@dataclass
class Lembra:
    """One running Lembra for a test: the runtime, its clock and the fakes it talks to."""

    runtime: Runtime
    clock: FakeClock
    tmdb: FakeTmdb
    pages: PageServer
    model: ScriptedModelServer | None = None
    reports: list[ScriptedTurnReport] = field(default_factory=list)

    @property
    def deps(self) -> Deps:
        return self.runtime.deps

    @property
    def db(self) -> Database:
        return self.runtime.deps.db

    @property
    def settings(self) -> Settings:
        return self.runtime.deps.settings

    @property
    def requests(self) -> list[RecordedRequest]:
        """Requests the counting model server received so far (none when there is no model)."""
        return list(self.model.requests) if self.model is not None else []

    @property
    def model_calls(self) -> int:
        return len(self.requests)

    # -- talking to it ----------------------------------------------------------------------

    async def say(
        self,
        text: str,
        *,
        user: str = ALICE,
        chat: str | None = None,
        channel: Channel | None = None,
        language_hint: Language | None = None,
        llm: Sequence[Mapping[str, Any]] = (),
    ) -> Reply:
        """Send `text` as `user` (a console user unless `channel` says otherwise)."""
        return await self.handle(
            Incoming(
                channel=channel or _channel_of(user),
                chat_id=chat or user.split(":", 1)[1],
                user_id=user,
                text=text,
                language_hint=language_hint,
            ),
            llm=llm,
        )

    async def press(
        self, index: int, *, token: str | None, user: str = ALICE, chat: str | None = None
    ) -> Reply:
        """Press button `index` of the reply that carried `token`."""
        return await self.handle(
            Incoming(
                channel=_channel_of(user),
                chat_id=chat or user.split(":", 1)[1],
                user_id=user,
                kind="choice",
                choice=index,
                choice_token=token,
            )
        )

    async def handle(self, incoming: Incoming, *, llm: Sequence[Mapping[str, Any]] = ()) -> Reply:
        """`Runtime.handle`, with the model server (if any) scripted with `llm` for this turn."""
        if self.model is None:
            if llm:
                raise ValueError("scripted model outputs need open_lembra(counting_model=True)")
            return await self.runtime.handle(incoming)
        self.model.begin_turn(llm)
        try:
            return await self.runtime.handle(incoming)
        finally:
            self.reports.append(self.model.end_turn())

    # -- what the database holds ------------------------------------------------------------

    async def items(self, user: str = ALICE) -> list[ItemDoc]:
        return await self.db.items.list_for(user)

    async def user(self, user: str = ALICE) -> UserDoc | None:
        return await self.db.users.get(user)

    async def known_user(self, user: str = ALICE) -> UserDoc:
        """The user's document, which the test expects to exist."""
        doc = await self.db.users.get(user)
        assert doc is not None, f"no user {user}"
        return doc

    async def events(self, user: str = ALICE) -> list[LedgerDoc]:
        return await self.db.ledger.events(user)

    async def event_types(self, user: str = ALICE) -> list[str]:
        return [event.type for event in await self.events(user)]

    async def messages(
        self, user: str = ALICE, conversation: str | None = None
    ) -> list[MessageDoc]:
        conversation = conversation or user
        last = await self.db.messages.last_seq(user, conversation)
        return await self.db.messages.range(user, conversation, 1, last)

    async def pending(
        self, user: str = ALICE, conversation: str | None = None
    ) -> PendingDoc | None:
        return await self.db.pending.get(user, conversation or user, now_ms=self.clock.ms())


def _channel_of(user: str) -> Channel:
    prefix = user.split(":", 1)[0]
    channels: dict[str, Channel] = {"tg": "telegram", "wa": "whatsapp"}
    return channels.get(prefix, "console")


@asynccontextmanager
async def open_lembra(
    db: Database,
    *,
    counting_model: bool = False,
    tmdb_results: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]] | None = None,
    clock: FakeClock | None = None,
    **settings_overrides: Any,
) -> AsyncIterator[Lembra]:
    """A Lembra on `db` with a fake TMDB, the page server and (optionally) the counting model."""
    async with AsyncExitStack() as stack:
        tmdb = FakeTmdb(CATALOGUE if tmdb_results is None else tmdb_results)
        tmdb_url = await tmdb.start()
        stack.push_async_callback(tmdb.close)
        pages = PageServer()
        await pages.start()
        stack.push_async_callback(pages.close)
        model: ScriptedModelServer | None = None
        if counting_model:
            model = ScriptedModelServer(counter=token_counter())
            model_url = await model.start()
            stack.push_async_callback(model.close)
            settings_overrides = {
                "openai_base_url": model_url,
                "openai_api_key": "test-not-a-secret",
                "llm_model": "scripted",
                "llm_timeout_seconds": 5.0,
                **settings_overrides,
            }
        # a test may point TMDB elsewhere (its public host, to test "not configured")
        tmdb_url = settings_overrides.pop("tmdb_base_url", tmdb_url)
        settings = offline_settings(tmdb_base_url=tmdb_url, **settings_overrides)
        clock = clock or FakeClock(START)
        deps = await stack.enter_async_context(
            open_deps(settings, db=db, clock=clock, counter=token_counter())
        )
        yield Lembra(Runtime(deps), clock, tmdb, pages, model)


@asynccontextmanager
async def restarted(lembra: Lembra, db: Database) -> AsyncIterator[Lembra]:
    """A second process's view: new Deps and Runtime on `db`, same settings, fakes and clock."""
    async with open_deps(
        lembra.settings, db=db, clock=lembra.clock, counter=token_counter()
    ) as deps:
        yield Lembra(Runtime(deps), lembra.clock, lembra.tmdb, lembra.pages, lembra.model)


async def seed(db: Database, messages: Sequence[str], *, user: str = ALICE, **kwargs: Any) -> None:
    """Say `messages` as `user` through an offline Lembra (the way a user would have saved them)."""
    async with open_lembra(db, **kwargs) as lembra:
        for message in messages:
            await lembra.say(message, user=user)
