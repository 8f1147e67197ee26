"""`lembra serve` closes connections whose clients never finish a request (issue 15, partial).

The campaign left 316 half-open connections (headers never finished) open after 80 s:
aiohttp's default keep-alive timeout is an hour and counts as its only header deadline.
These tests run the real `serve` on a loopback port with short deadlines, and fail on
the previous main, where every connection below stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from agent.assembly import open_deps
from agent.tokens import TokenCounter
from bot.web.app import serve
from storage import Database
from storage.embedded import free_port
from tests.bot.conftest import FAST, WEBHOOK_SECRET, channel_settings
from tests.support.fake_telegram import FakeTelegram
from tests.support.scripted_runtime import ScriptedRuntime

DEADLINE_S = 0.5
CLOSED_WITHIN_S = 5.0  # an upper bound only: an open connection would block until it


@pytest.fixture
async def port(db: Database, fake_tg: FakeTelegram, counter: TokenCounter) -> AsyncIterator[int]:
    """Run `serve` in this process with half-second header and body deadlines."""
    number = free_port()
    settings = channel_settings(
        fake_tg,
        None,
        port=number,
        http_header_timeout_seconds=DEADLINE_S,
        http_body_timeout_seconds=DEADLINE_S,
    )
    stop = asyncio.Event()
    async with open_deps(settings, db=db, counter=counter) as deps:
        options = FAST
        task = asyncio.create_task(
            serve(deps, ScriptedRuntime().handle, options=options, stop=stop)
        )
        await _until_listening(number, task)
        try:
            yield number
        finally:
            stop.set()
            await asyncio.wait_for(task, timeout=30)


async def _until_listening(port: int, task: asyncio.Task[None]) -> None:
    for _ in range(300):
        assert not task.done(), task.exception()
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.02)
    raise AssertionError("serve never listened")


async def _closed_by_server(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    async with asyncio.timeout(CLOSED_WITHIN_S):
        try:
            return await reader.read()
        except ConnectionResetError:
            return b""


async def _connections(port: int, count: int) -> list[Any]:
    return [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]


PARTIAL = b"POST /telegram/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl"


async def test_connections_that_never_finish_their_headers_are_closed(port: int) -> None:
    opened = await _connections(port, 20)
    for _, writer in opened:
        writer.write(PARTIAL)
    stalled_reader, stalled_writer = opened[0]

    async def trickle() -> None:  # a byte at a time must not push the deadline back
        with contextlib.suppress(OSError):
            while not stalled_writer.is_closing():
                stalled_writer.write(b"x")
                await stalled_writer.drain()
                await asyncio.sleep(DEADLINE_S / 5)

    trickler = asyncio.create_task(trickle())
    try:
        answers = await asyncio.gather(*(_closed_by_server(reader) for reader, _ in opened))
    finally:
        trickler.cancel()
        for _, writer in opened:
            writer.close()
    assert answers == [b""] * 20  # closed without an answer: no request ever arrived


async def test_a_kept_alive_connection_is_answered_then_closed_once_idle(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        status = await reader.readline()
        assert status.split()[1] == b"200"
        rest = await _closed_by_server(reader)  # idle after its answer: closed by the server
        assert b'"status": "ok"' in rest
    finally:
        writer.close()


async def test_a_stalled_body_is_answered_408_and_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(
            b"POST /telegram/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"X-Telegram-Bot-Api-Secret-Token: " + WEBHOOK_SECRET.encode() + b"\r\n"
            b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n"
            b'{"update_id": 1'
        )
        answer = await _closed_by_server(reader)
    finally:
        writer.close()
    assert answer.startswith(b"HTTP/1.1 408 ")
