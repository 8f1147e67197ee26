"""Media users send on WhatsApp: the media lookup, then the download, both with the bearer token.

    GET {base}/{version}/{media-id} ─> {url, mime_type, file_size} ─> larger than the caller
                                        takes: FileTooLarge, nothing downloaded
    GET {url} (Authorization: Bearer) ─> bot/downloads.py (bounded, retried)

The token goes only where it belongs (issue 46): the download URL must be on the origin
of WHATSAPP_API_BASE_URL, or, when that is Meta's Graph API, on Meta's media host
(`https://lookaside.fbsbx.com`, where the Cloud API's media URLs point). A URL anywhere
else is not fetched at all (neither with the token nor without: it is not the media).
The lookup's URL lasts about five minutes, so each fetch looks the media up again.
Both calls go through the one retry policy.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import partial
from typing import Annotated
from urllib.parse import urlsplit

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
GRAPH_HOST = "graph.facebook.com"
META_MEDIA_ORIGIN = ("https", "lookaside.fbsbx.com", 443)

Origin = tuple[str, str, int | None]


def origin(url: str) -> Origin | None:
    """(scheme, host, port) of `url`, the port filled in for http(s); None when it has no host."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if not host:
        return None
    return scheme, host, port if port is not None else {"https": 443, "http": 80}.get(scheme)


def token_origins(base_url: str) -> frozenset[Origin]:
    """Where the bearer token may go: the API base's origin, and Meta's media host beside Meta's API."""
    base = origin(base_url)
    if base is None:
        return frozenset()
    if base == ("https", GRAPH_HOST, 443):
        return frozenset({base, META_MEDIA_ORIGIN})
    return frozenset({base})


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
        self._trusted = token_origins(self._endpoint)
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
        where = origin(found.url)
        if where not in self._trusted:
            host = where[1] if where is not None else ""
            log_event(log, "media_url_refused", level=logging.WARNING, host=host)
            raise ServiceError("the media URL is not on the API's host: the token stays home")
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
