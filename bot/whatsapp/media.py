"""Media users send on WhatsApp: the media lookup, then the download, both with the bearer token.

    GET {base}/{version}/{media-id} ─> {url, mime_type, file_size} ─> larger than the caller
                                        takes: FileTooLarge, nothing downloaded
    GET {url} (Authorization: Bearer) ─> bot/downloads.py (bounded, retried)

The lookup's URL lasts about five minutes, so each fetch looks the media up again.
Both calls go through the one retry policy.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import partial
from typing import Annotated

import aiohttp
from pydantic import StringConstraints

from agent.errors import FileTooLarge, ServiceError
from agent.services.retrying import RetryPolicy
from agent.types import Fetch
from bot.downloads import download
from bot.inbound import Lenient, Payload, Rejected, validated
from config.logging import log_event

log = logging.getLogger("lembra.whatsapp")

LOOKUP_MAX_BYTES = 64 * 1024  # the lookup answers a small JSON object


class WaMediaLookup(Payload):
    """What `GET /{version}/{media-id}` answers, of what is read."""

    url: Annotated[str, StringConstraints(pattern=r"^https?://")]
    mime_type: Annotated[str | None, Lenient] = None
    file_size: Annotated[int | None, Lenient] = None


class WhatsAppMedia:
    """The channel's `FileSource`: what `fetch` does for a media id, when a turn calls it.

    Args:
        endpoint: `{WHATSAPP_API_BASE_URL}/{version}` (the media id follows).
        headers: the bearer token's Authorization header.
        session: the channel's open HTTP session; raises ServiceUnavailable when it is not.
    """

    def __init__(
        self,
        endpoint: str,
        headers: dict[str, str],
        session: Callable[[], aiohttp.ClientSession],
        *,
        policy: RetryPolicy,
        timeout_s: float,
    ) -> None:
        self._endpoint = endpoint.rstrip("/")
        self._headers = headers
        self._session = session
        self._policy = policy
        self._timeout_s = timeout_s

    def fetcher(self, file_id: str) -> Fetch:
        return partial(self.fetch, file_id)

    async def fetch(self, media_id: str, limit: int) -> bytes:
        """The media's bytes, at most `limit`: refused by the looked-up size before downloading."""
        found = await self._lookup(media_id)
        if found.file_size is not None and found.file_size > limit:
            raise FileTooLarge(f"the media has {found.file_size} bytes (at most {limit} are taken)")
        return await self._get(found.url, limit)

    async def _lookup(self, media_id: str) -> WaMediaLookup:
        if not (media_id.isascii() and media_id.isdigit()):  # only a Graph id goes in the path
            raise ServiceError("not a media id")
        body = await self._get(f"{self._endpoint}/{media_id}", LOOKUP_MAX_BYTES)
        try:
            answer = json.loads(body)
        except ValueError:
            answer = None
        found = validated(WaMediaLookup, answer)
        if isinstance(found, Rejected):
            log_event(log, "media_lookup_unreadable", level=logging.WARNING, reason=found.reason)
            raise ServiceError("the media lookup answered no URL")
        return found

    async def _get(self, url: str, limit: int) -> bytes:
        return await download(
            self._session(),
            url,
            limit=limit,
            policy=self._policy,
            service="whatsapp",
            headers=self._headers,
            timeout_s=self._timeout_s,
        )
