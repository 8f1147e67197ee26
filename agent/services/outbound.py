"""Counting every outbound HTTP request by service and status, through aiohttp's tracing."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import aiohttp

from agent.metrics import Metrics


def outbound_trace(metrics: Metrics, service: str) -> aiohttp.TraceConfig:
    """A trace config for a session talking to `service` (telegram, whatsapp, tmdb)."""
    trace = aiohttp.TraceConfig()

    async def started(_: aiohttp.ClientSession, ctx: SimpleNamespace, __: Any) -> None:
        ctx.started = time.perf_counter()

    async def ended(_: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
        metrics.observe_outbound(service, str(params.response.status), _elapsed(ctx))

    async def failed(_: aiohttp.ClientSession, ctx: SimpleNamespace, params: Any) -> None:
        # the status label stays a small closed set: the error's class, never its text
        metrics.observe_outbound(service, type(params.exception).__name__, _elapsed(ctx))

    trace.on_request_start.append(started)
    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace


def _elapsed(ctx: SimpleNamespace) -> float:
    return time.perf_counter() - getattr(ctx, "started", time.perf_counter())
