"""Deadlines that close connections a slow or silent client holds open (issue 15).

A client that connects and never finishes its headers used to keep its connection
for aiohttp's default keep-alive timeout (an hour): a few hundred of them hold a
few hundred sockets. aiohttp has no separate header-read knob, but its keep-alive
timer starts when the connection opens and again after each response, is not pushed
back by incoming bytes, and closes the connection if no whole request has arrived by
then. So `HTTP_HEADER_TIMEOUT_SECONDS` is both: headers must be complete that long
after connecting (or after the previous response), and an idle kept-alive connection
is closed after it. A client that sends complete headers and then stalls its body is
answered 408 after `HTTP_BODY_TIMEOUT_SECONDS`; the unread rest of a body is drained
for at most that long again, then the connection is closed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web

from config.logging import log_event
from config.settings import Settings

log = logging.getLogger(__name__)


def handler_options(settings: Settings) -> dict[str, Any]:
    """The aiohttp request-handler options for `web.AppRunner`: header, idle and body deadlines."""
    return {
        "keepalive_timeout": settings.http_header_timeout_seconds,
        # after an answer, aiohttp reads a body the handler left unread before closing:
        # no longer than a body may take (its default is 10 s, whatever the deadline)
        "lingering_time": settings.http_body_timeout_seconds,
    }


def body_deadline(timeout_s: float) -> Any:
    """Read every request body within `timeout_s`, or answer 408 and close the connection."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        if request.body_exists:
            try:
                async with asyncio.timeout(timeout_s):
                    await request.read()  # kept by aiohttp: the handler's read() returns it
            except TimeoutError:
                log_event(log, "request_body_timeout", level=logging.WARNING, path=request.path)
                refused = web.Response(status=408, text="request timeout")
                refused.force_close()
                return refused
        response: web.StreamResponse = await handler(request)
        return response

    return middleware
