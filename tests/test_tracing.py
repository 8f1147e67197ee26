"""Tracing only when Lembra is told (DESIGN 10.5): LangSmith's own switches are not enough."""

from __future__ import annotations

import asyncio
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bot.fakes.scripted_model import ScriptedModelServer
from tests.support.live import call, shared_counter
from tests.support.proc import lembra_env

# What a machine where someone develops with LangChain often has in its environment.
TRACING_ENV = {
    "LANGSMITH_TRACING": "true",
    "LANGCHAIN_TRACING_V2": "true",
    "LANGSMITH_API_KEY": "ls-test-not-a-secret",
}


@pytest.fixture
async def tracing_endpoint() -> AsyncIterator[tuple[str, list[str]]]:
    """A fake LangSmith API on loopback that records every request it gets."""
    seen: list[str] = []

    async def anything(request: web.Request) -> web.Response:
        await request.read()
        seen.append(f"{request.method} {request.path}")
        return web.json_response({})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", anything)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    await web.SockSite(runner, sock).start()
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", seen
    finally:
        await runner.cleanup()


async def _chat(tmp_path: Path, endpoint: str, **env: str) -> tuple[str, str, int]:
    """`anota: comprar leite` through `lembra chat` with a model; (stdout, stderr, model calls)."""
    async with ScriptedModelServer(counter=shared_counter()) as model:
        model.begin_turn([call("save_note", content="comprar leite")])
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "chat",
            env=lembra_env(
                {
                    "DATA_DIR": str(tmp_path / "data"),
                    "OPENAI_BASE_URL": model.base_url,
                    "OPENAI_API_KEY": "test-not-a-secret",
                    "LANGSMITH_ENDPOINT": endpoint,
                    **TRACING_ENV,
                    **env,
                }
            ),
            cwd=tmp_path,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(b"anota: comprar leite\n"), 90)
        assert proc.returncode == 0, err.decode()
        return out.decode(), err.decode(), len(model.end_turn().requests)


async def test_tracing_sends_nothing_unless_lembra_is_told(
    tmp_path: Path, tracing_endpoint: tuple[str, list[str]]
) -> None:
    endpoint, seen = tracing_endpoint
    # LangChain's retired v1 switch too: langchain would refuse every call with it alone
    out, err, calls = await _chat(tmp_path, endpoint, LANGCHAIN_TRACING="true")
    assert calls == 1
    assert "comprar leite" in out
    assert seen == []
    assert "tracing" not in err


async def test_llm_tracing_langsmith_traces_and_says_so_at_start(
    tmp_path: Path, tracing_endpoint: tuple[str, list[str]]
) -> None:
    endpoint, seen = tracing_endpoint
    out, err, calls = await _chat(tmp_path, endpoint, LLM_TRACING="langsmith")
    assert calls == 1
    assert "comprar leite" in out
    assert any(request.startswith("POST /runs") for request in seen)
    assert "llm tracing on" in err or "llm_tracing_on" in err
    assert "message text" in err
    assert endpoint in err
