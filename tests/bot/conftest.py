"""Channel test harness: the real web app on loopback, the fake platforms, a real database."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from agent.assembly import open_deps
from agent.clock import Clock
from agent.deps import Deps
from agent.tokens import TokenCounter
from bot.delivery.lifecycle import Handler, Tuning, UpdateLifecycle
from bot.telegram.channel import SECRET_HEADER, TelegramOptions
from bot.web.app import CHANNELS, WebOptions, create_app
from bot.whatsapp.channel import SIGNATURE_HEADER, WhatsAppOptions
from config.logging import setup_logging
from config.settings import Settings
from storage import Database
from storage.database import make_client
from storage.documents import ProcessedUpdateDoc
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import TOKEN, FakeTelegram
from tests.support.fake_whatsapp import FakeWhatsApp
from tests.support.scripted_runtime import ScriptedRuntime
from tests.support.servers import RunningServer
from tests.support.tcp_proxy import TcpProxy

WEBHOOK_SECRET = "tg-webhook-secret_1"

# Short retries and timeouts so fault tests run in well under a second each.
FAST = WebOptions(
    tuning=Tuning(typing_after_s=0.3, typing_every_s=0.3, chat_lease_wait_s=5.0),
    telegram=TelegramOptions(timeout_s=0.5, retry_delays=(0.05, 0.05, 0.05)),
    whatsapp=WhatsAppOptions(timeout_s=0.5, retry_delays=(0.05, 0.05, 0.05)),
    jobs=False,
    menus=False,  # tests of the menus and probes turn them on (tests/bot/test_operator.py)
    probes=False,
)


@pytest.fixture(autouse=True)
def _ptb_timedelta(monkeypatch: pytest.MonkeyPatch) -> None:
    # What `lembra serve` opts in to; without it PTB warns on every RetryAfter.
    monkeypatch.setenv("PTB_TIMEDELTA", "true")


@pytest.fixture
async def fake_tg() -> AsyncIterator[FakeTelegram]:
    fake = await FakeTelegram().start()
    yield fake
    await fake.close()


@pytest.fixture
async def fake_wa() -> AsyncIterator[FakeWhatsApp]:
    fake = await FakeWhatsApp().start()
    yield fake
    await fake.close()


def channel_settings(
    tg: FakeTelegram | None, wa_fake: FakeWhatsApp | None, **overrides: Any
) -> Settings:
    values: dict[str, Any] = {"rate_limit_messages": 1000, "rate_limit_window_seconds": 60}
    if tg is not None:
        values |= {
            "telegram_bot_token": TOKEN,
            "telegram_webhook_secret": WEBHOOK_SECRET,
            "telegram_api_base_url": tg.base_url,
        }
    if wa_fake is not None:
        values |= {
            "whatsapp_access_token": wa.ACCESS_TOKEN,
            "whatsapp_app_secret": wa.APP_SECRET,
            "whatsapp_verify_token": wa.VERIFY_TOKEN,
            "whatsapp_phone_number_id": wa.PHONE_NUMBER_ID,
            "whatsapp_api_base_url": wa_fake.base_url,
            "whatsapp_api_version": wa.VERSION,
        }
    return Settings(_env_file=None, **(values | overrides))  # type: ignore[call-arg]


@dataclass
class Harness:
    client: TestClient[Any, Any]
    deps: Deps
    runtime: ScriptedRuntime
    tg: FakeTelegram
    wa: FakeWhatsApp
    posted: list[int] = field(default_factory=list)

    @property
    def db(self) -> Database:
        return self.deps.db

    @property
    def lifecycle(self) -> UpdateLifecycle:
        return self.client.server.app[CHANNELS].lifecycle  # type: ignore[union-attr]

    async def post_update(
        self, update: dict[str, Any] | bytes, *, secret: str | None = WEBHOOK_SECRET
    ) -> ClientResponse:
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        body = update if isinstance(update, bytes) else json.dumps(update).encode()
        return await self.client.post("/telegram/webhook", data=io.BytesIO(body), headers=headers)

    async def post_whatsapp(
        self, payload: dict[str, Any] | bytes, *, signature: str | None = ""
    ) -> ClientResponse:
        body = payload if isinstance(payload, bytes) else wa.encode(payload)
        if signature == "":
            signature = wa.sign(body)
        headers = {SIGNATURE_HEADER: signature} if signature is not None else {}
        return await self.client.post("/whatsapp/webhook", data=io.BytesIO(body), headers=headers)

    async def post_raw(self, path: str, header: bytes, body: bytes) -> int:
        """POST with one header written as raw bytes (aiohttp's client only sends text)."""
        server = self.client.server
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            writer.write(
                b"POST " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nConnection: close\r\n"
                + header
                + b"\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
                + body
            )
            await writer.drain()
            status_line = await reader.readline()
        finally:
            writer.close()
            await writer.wait_closed()
        return int(status_line.split()[1])

    async def idle(self) -> None:
        """Wait until every accepted update has been processed."""
        channels = self.client.server.app[CHANNELS]  # type: ignore[union-attr]
        async with asyncio.timeout(15):
            for _ in range(2):  # a turn may queue more work (re-drives, answers)
                if channels.telegram is not None:
                    await channels.telegram.idle()
                if channels.whatsapp is not None:
                    await channels.whatsapp.idle()

    async def record(self, update_id: str) -> ProcessedUpdateDoc | None:
        return await self.db.updates.get(update_id)

    async def until_status(self, update_id: str, status: str, *, timeout_s: float = 10) -> None:
        """Poll the record until it reaches `status` (the database has no notifications)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if await self.status(update_id) == status:
                return
            await asyncio.sleep(0.02)
        raise AssertionError(f"{update_id} never reached {status!r}")

    async def status(self, update_id: str) -> str | None:
        record = await self.db.updates.get(update_id)
        return record.status if record else None

    async def metric(self, name: str, **labels: str) -> float:
        """A sample's value from GET /metrics (0 when absent)."""
        response = await self.client.get("/metrics")
        text = await response.text()
        wanted = ",".join(f'{k}="{v}"' for k, v in labels.items())
        needle = f"{name}{{{wanted}}} " if labels else f"{name} "
        for line in text.splitlines():
            if line.startswith(needle):
                return float(line.split()[-1])
        return 0.0


@contextmanager
def json_logs() -> Iterator[io.StringIO]:
    """Capture what `lembra serve` would log (its JSON handler), at DEBUG."""
    stream = io.StringIO()
    setup_logging("DEBUG", stream=stream)
    try:
        yield stream
    finally:
        root = logging.getLogger()
        for handler in [h for h in root.handlers if getattr(h, "_lembra", False)]:
            root.removeHandler(handler)


def events(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


@pytest.fixture(scope="session")
def counter() -> TokenCounter:
    return TokenCounter()  # loading the tokenizer takes a second: once per session


@pytest.fixture
def harness(
    db: Database, fake_tg: FakeTelegram, fake_wa: FakeWhatsApp, counter: TokenCounter
) -> Callable[..., Any]:
    """`async with harness(**setting_overrides) as h:` the app with both channels."""

    @asynccontextmanager
    async def make(
        *,
        options: WebOptions = FAST,
        runtime: ScriptedRuntime | None = None,
        handler: Handler | None = None,
        database: Database | None = None,
        clock: Clock | None = None,
        **overrides: Any,
    ) -> AsyncIterator[Harness]:
        scripted = runtime or ScriptedRuntime()
        settings = channel_settings(fake_tg, fake_wa, **overrides)
        async with open_deps(settings, db=database or db, counter=counter, clock=clock) as deps:
            app = create_app(deps, handler or scripted.handle, options=options)
            client: TestClient[Any, Any] = TestClient(TestServer(app, host="127.0.0.1"))
            await client.start_server()
            try:
                yield Harness(client, deps, scripted, fake_tg, fake_wa)
            finally:
                await client.close()

    return make


@pytest.fixture
async def outage_db(nx_server: RunningServer) -> AsyncIterator[tuple[Database, TcpProxy]]:
    """A fresh database reached through a relay the test can cut (a database outage)."""
    proxy = await TcpProxy(nx_server.uri).start()
    db = Database(make_client(proxy.uri, timeout_ms=300), f"t_outage_{secrets.token_hex(4)}")
    await db.ensure_indexes()
    try:
        yield db, proxy
    finally:
        proxy.restore()
        await db.drop()
        await db.close()
        await proxy.close()
