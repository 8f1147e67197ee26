"""Downloading a file a user sent, from the platform that holds it: bounded, retried, translated.

    a Content-Length over the limit, or more bytes than it as it streams   FileTooLarge
    429, 5xx, a timeout, a refused connection (after the retry policy)     ServiceUnavailable
    any other status                                                       ServiceError

The caller gives the most bytes it takes (a voice note's limit, an import's); the rest
of the body is never read. The URL is never logged: a Telegram file URL holds the token.
"""

from __future__ import annotations

import logging

import aiohttp

from agent.errors import FileTooLarge, ServiceError, ServiceUnavailable
from agent.services.retrying import GaveUp, Retry, RetryPolicy
from config.logging import log_event

log = logging.getLogger("lembra.files")

_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
CHUNK_BYTES = 64 * 1024


async def download(
    session: aiohttp.ClientSession,
    url: str,
    *,
    limit: int,
    policy: RetryPolicy,
    service: str,
    headers: dict[str, str] | None = None,
    timeout_s: float = 10.0,
) -> bytes:
    """The body at `url`, at most `limit` bytes; errors as the module docstring says.

    Args:
        service: names the platform in log lines (`telegram`, `whatsapp`).
        timeout_s: the most a connection or a read may stall (a large file that keeps
            coming is not cut).
    """
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=timeout_s, sock_read=timeout_s)

    async def attempt() -> bytes:
        try:
            async with session.get(url, headers=headers, timeout=timeout) as response:
                if response.status in _RETRY_STATUSES:
                    retry_after = response.headers.get("Retry-After", "")
                    wait_s = float(retry_after) if retry_after.isdigit() else None
                    raise Retry(f"HTTP {response.status}", wait_s=wait_s)
                if response.status != 200:
                    log_event(
                        log,
                        "file_download_refused",
                        level=logging.WARNING,
                        service=service,
                        status=response.status,
                    )
                    raise ServiceError(f"the {service} file server answered {response.status}")
                return await _bounded(response, limit)
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise Retry(type(exc).__name__) from None

    def retried(number: int, error: Retry, wait_s: float) -> None:
        log_event(log, "file_download_retry", service=service, attempt=number, reason=error.reason)

    try:
        return await policy.call(attempt, on_retry=retried)
    except GaveUp as exc:
        log_event(
            log, "file_download_failed", level=logging.WARNING, service=service, reason=exc.reason
        )
        raise ServiceUnavailable(f"the {service} file could not be downloaded") from None


async def _bounded(response: aiohttp.ClientResponse, limit: int) -> bytes:
    """The body, refused as soon as it is known to pass `limit` bytes."""
    announced = response.content_length
    if announced is not None and announced > limit:
        raise FileTooLarge(f"the file has {announced} bytes (at most {limit} are taken)")
    body = bytearray()
    async for chunk in response.content.iter_chunked(CHUNK_BYTES):
        body += chunk
        if len(body) > limit:
            raise FileTooLarge(f"the file has more than {limit} bytes")
    return bytes(body)
