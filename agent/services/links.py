"""Fetch a public web page's title and description for `enrich_link` (DESIGN 3.2).

Only public http(s) addresses are fetched. Every hop (the first URL and each redirect)
is checked for scheme and credentials; IP-literal hosts are classified before any
connection, and host names are resolved only by `_VettingResolver`, which refuses the
name when ANY of its addresses is not public and otherwise hands aiohttp exactly the
addresses it vetted, so a DNS answer that changes between check and connect (rebinding)
cannot reach an internal address. The URL keeps its host name, so the Host header and
TLS SNI stay correct.
"""

from __future__ import annotations

import asyncio
import codecs
import ipaddress
import logging
import re
import socket
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Literal

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from agent.errors import ServiceError, ServiceUnavailable
from config.logging import log_event

logger = logging.getLogger(__name__)

AddressClass = Literal[
    "public",
    "private",
    "loopback",
    "link_local",
    "multicast",
    "reserved",
    "unspecified",
    "shared",
]

_REFUSAL_REASONS: dict[AddressClass, str] = {
    "public": "",
    "private": "a private network address",
    "loopback": "this machine (loopback)",
    "link_local": "a link-local address",
    "multicast": "a multicast address",
    "reserved": "a reserved address",
    "unspecified": "an unspecified address",
    "shared": "a carrier-grade NAT address",
}

_SHARED_V4 = ipaddress.IPv4Network("100.64.0.0/10")
_PRIVATE_NETS: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = (
    ipaddress.IPv4Network("10.0.0.0/8"),
    ipaddress.IPv4Network("172.16.0.0/12"),
    ipaddress.IPv4Network("192.168.0.0/16"),
    ipaddress.IPv6Network("fc00::/7"),
    ipaddress.IPv6Network("fec0::/10"),  # deprecated site-local
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # local-use NAT64
)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_TEREDO = ipaddress.IPv6Network("2001::/32")
# getaddrinfo's "no such name" answers (EAI_NODATA is missing on some platforms).
_NAME_NOT_FOUND = frozenset(
    code for code in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)) if code is not None
)
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_CHUNK_BYTES = 16_384
_TITLE_CHARS = 300
_DESCRIPTION_CHARS = 500
_SITE_NAME_CHARS = 100
_USER_AGENT = "Mozilla/5.0 (compatible; LembraBot/0.1; link preview)"
_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class PageInfo:
    url: str  # final URL after redirects
    title: str | None  # og:title, else <title>; whitespace collapsed, <= 300 chars
    description: str | None  # og:description, else meta description; <= 500 chars
    site_name: str | None
    content_type: str | None


class LinkRefused(ServiceError):
    """An address we will not fetch. `code` names the reason for localized replies:
    private (a non-public address), redirects, credentials, scheme or invalid."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


def classify_address(address: str | ipaddress.IPv4Address | ipaddress.IPv6Address) -> AddressClass:
    """Classify an IP address; IPv6 forms that embed an IPv4 address are classified by that address.

    Raises ValueError when `address` is not an IP address.
    """
    ip = address if not isinstance(address, str) else _parse_ip(address)
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(ip)
        if embedded is not None:
            return classify_address(embedded)
        if ip in _TEREDO:
            # The client address is obfuscated; no public site is served over Teredo.
            return "reserved"
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link_local"
    if ip.is_multicast:
        return "multicast"
    if isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED_V4:
        return "shared"
    if any(ip in net for net in _PRIVATE_NETS if net.version == ip.version):
        return "private"
    if ip.is_reserved or ip.is_private or not ip.is_global:
        return "reserved"
    return "public"


def is_fetchable(address_class: AddressClass, *, allow_loopback: bool = False) -> bool:
    return address_class == "public" or (allow_loopback and address_class == "loopback")


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    return ipaddress.ip_address(text.split("%", 1)[0])


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address inside an IPv4-mapped, 6to4 or NAT64 (64:ff9b::/96) address."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if ip in _NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


class _AddressRefused(OSError):
    """Raised inside the resolver; an OSError so aiohttp wraps it and we can unwrap it."""

    def __init__(self, host: str, address_class: AddressClass) -> None:
        super().__init__(f"{host} resolves to {_REFUSAL_REASONS[address_class]}")
        self.host = host
        self.address_class = address_class


class _VettingResolver(AbstractResolver):
    """Resolve with the event loop's resolver; refuse a name if any of its addresses is not public."""

    def __init__(self, *, allow_loopback: bool) -> None:
        self._allow_loopback = allow_loopback

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        loop = asyncio.get_running_loop()
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, family=family)
        results: list[ResolveResult] = []
        for info_family, _, proto, _, sockaddr in infos:
            address = str(sockaddr[0])
            address_class = classify_address(address)
            if not is_fetchable(address_class, allow_loopback=self._allow_loopback):
                raise _AddressRefused(host, address_class)
            results.append(
                ResolveResult(
                    hostname=host,
                    host=address,
                    port=int(sockaddr[1]),
                    family=info_family,
                    proto=proto,
                    flags=socket.AI_NUMERICHOST | socket.AI_NUMERICSERV,
                )
            )
        if not results:
            raise OSError(f"{host} has no address")
        return results

    async def close(self) -> None:
        return None


class LinkFetcher:
    """Fetch one page's metadata, safely. Owns its aiohttp session: `start()` then `close()`."""

    def __init__(
        self,
        *,
        timeout_s: float,
        max_bytes: int,
        allow_loopback: bool = False,
        max_redirects: int = 5,
    ) -> None:
        self._timeout_s = timeout_s
        self._max_bytes = max_bytes
        self._allow_loopback = allow_loopback
        self._max_redirects = max_redirects
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        if self._session is not None:
            return
        connector = aiohttp.TCPConnector(
            resolver=_VettingResolver(allow_loopback=self._allow_loopback),
            limit_per_host=4,
        )
        # No cookies kept between users' fetches; no proxy from the environment (trust_env False).
        self._session = aiohttp.ClientSession(
            connector=connector,
            cookie_jar=aiohttp.DummyCookieJar(),
            headers={
                "User-Agent": _USER_AGENT,
                "Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            },
            timeout=aiohttp.ClientTimeout(total=self._timeout_s),
        )

    async def close(self) -> None:
        if self._session is not None:
            session, self._session = self._session, None
            await session.close()

    async def __aenter__(self) -> LinkFetcher:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def fetch(self, url: str) -> PageInfo:
        """Fetch an absolute http(s) `url`, following checked redirects, and read its metadata.

        Pass what agent.understanding.urls.parse_user_url returned; a scheme-less address is refused here.
        Raises LinkRefused, ServiceError (4xx, unknown site) or ServiceUnavailable.
        """
        if self._session is None:
            raise RuntimeError("LinkFetcher.start() must be awaited before fetch()")
        session = self._session
        try:
            async with asyncio.timeout(self._timeout_s):
                return await self._fetch(session, url)
        except TimeoutError as exc:
            log_event(logger, "link_fetch_failed", level=logging.WARNING, reason="timeout")
            raise ServiceUnavailable("the page took too long to answer") from exc

    async def _fetch(self, session: aiohttp.ClientSession, url: str) -> PageInfo:
        current = self._checked_url(url)
        for hop in range(self._max_redirects + 1):
            try:
                async with session.get(current, allow_redirects=False) as response:
                    if response.status in _REDIRECT_STATUSES:
                        location = response.headers.get("Location")
                        if not location:
                            raise ServiceError(
                                f"the page answered a redirect ({response.status}) without a destination"
                            )
                        try:
                            target = current.join(URL(location))
                        except ValueError as exc:
                            raise LinkRefused("the page redirects to an invalid address") from exc
                        current = self._checked_url(str(target))
                        continue
                    self._check_status(response.status)
                    return await self._page_info(response)
            except aiohttp.ClientConnectorError as exc:
                refused = _refusal_in(exc)
                if refused is not None:
                    raise LinkRefused(
                        f"the link points to {_REFUSAL_REASONS[refused.address_class]}, which is not fetched",
                        code="private",
                    ) from exc
                if (
                    isinstance(exc.os_error, socket.gaierror)
                    and exc.os_error.errno in _NAME_NOT_FOUND
                ):
                    raise ServiceError("the site's address was not found") from exc
                log_event(
                    logger, "link_fetch_failed", level=logging.WARNING, reason="connect", hop=hop
                )
                raise ServiceUnavailable("the page's server could not be reached") from exc
            except TimeoutError as exc:
                raise ServiceUnavailable("the page took too long to answer") from exc
            except aiohttp.InvalidURL as exc:
                raise LinkRefused("the link is not a valid web address") from exc
            except (aiohttp.ClientError, OSError) as exc:
                log_event(
                    logger,
                    "link_fetch_failed",
                    level=logging.WARNING,
                    reason=type(exc).__name__,
                    hop=hop,
                )
                raise ServiceUnavailable("the page could not be read") from exc
        raise LinkRefused(
            f"the link redirects more than {self._max_redirects} times", code="redirects"
        )

    def _checked_url(self, raw: str) -> URL:
        """Parse and check one hop's URL; refuse it before any connection."""
        try:
            url = URL(raw)
        except ValueError as exc:
            raise LinkRefused("the link is not a valid web address") from exc
        if url.scheme not in ("http", "https"):
            raise LinkRefused("only http and https links are fetched", code="scheme")
        if url.user is not None or url.password is not None:
            raise LinkRefused(
                "links with a user name or password are not fetched", code="credentials"
            )
        host = url.raw_host
        if not host:
            raise LinkRefused("the link has no host")
        try:
            address_class = classify_address(host)
        except ValueError:
            return url.with_fragment(None)  # a host name: vetted by the resolver when connecting
        if not is_fetchable(address_class, allow_loopback=self._allow_loopback):
            raise LinkRefused(
                f"the link points to {_REFUSAL_REASONS[address_class]}, which is not fetched",
                code="private",
            )
        return url.with_fragment(None)

    @staticmethod
    def _check_status(status: int) -> None:
        if status >= 500:
            raise ServiceUnavailable(f"the page's server failed (HTTP {status})")
        if status >= 400:
            raise ServiceError(f"the page could not be opened (HTTP {status})")
        if status >= 300:
            raise ServiceError(f"the page answered an unexpected redirect (HTTP {status})")

    async def _page_info(self, response: aiohttp.ClientResponse) -> PageInfo:
        final_url = str(response.url)
        content_type = response.content_type or None
        if content_type not in _HTML_TYPES:
            return PageInfo(final_url, None, None, None, content_type)
        body = await self._read_capped(response)
        # Parsing a large head-less page takes a while (~0.5 s for 500 kB): keep it off the loop.
        return await asyncio.to_thread(
            _page_from_html, final_url, content_type, body, response.charset
        )

    async def _read_capped(self, response: aiohttp.ClientResponse) -> bytes:
        """Read at most max_bytes of the body; stop (and drop the connection) once the cap is hit."""
        chunks: list[bytes] = []
        remaining = self._max_bytes
        while remaining > 0:
            chunk = await response.content.read(min(_CHUNK_BYTES, remaining))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            remaining -= len(chunk)
        response.close()
        return b"".join(chunks)


def _refusal_in(exc: BaseException) -> _AddressRefused | None:
    """The resolver's refusal wrapped inside an aiohttp connector error, if that is what it is."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, _AddressRefused):
            return seen
        os_error = getattr(seen, "os_error", None)
        if isinstance(os_error, _AddressRefused):
            return os_error
        seen = seen.__cause__
    return None


def _page_from_html(url: str, content_type: str, body: bytes, charset: str | None) -> PageInfo:
    meta = _MetaParser.parse(_decode(body, charset))
    return PageInfo(
        url=url,
        title=_clean(meta.og_title or meta.title, _TITLE_CHARS),
        description=_clean(meta.og_description or meta.description, _DESCRIPTION_CHARS),
        site_name=_clean(meta.site_name, _SITE_NAME_CHARS),
        content_type=content_type,
    )


def _decode(body: bytes, declared: str | None) -> str:
    """Decode with the header's charset, else a <meta charset>, else UTF-8; never fail."""
    candidates = [declared]
    match = _META_CHARSET.search(body[:4_096])
    if match:
        candidates.append(match.group(1).decode("ascii", "replace"))
    for charset in candidates:
        if not charset:
            continue
        try:
            codecs.lookup(charset)
        except LookupError:
            continue
        return body.decode(charset, errors="replace")
    return body.decode("utf-8", errors="replace")


def _clean(value: str | None, limit: int) -> str | None:
    """Collapse whitespace and cut to `limit` characters (ending with "…" when cut)."""
    if value is None:
        return None
    collapsed = " ".join(value.split())
    if not collapsed:
        return None
    if len(collapsed) > limit:
        collapsed = collapsed[: limit - 1].rstrip() + "…"
    return collapsed


class _MetaParser(HTMLParser):
    """Collect <title> and the description/Open Graph <meta> tags; ignore everything else."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title: str | None = None
        self.description: str | None = None
        self.og_title: str | None = None
        self.og_description: str | None = None
        self.site_name: str | None = None
        self._in_title = False
        self._title_parts: list[str] = []
        self._in_svg = 0

    @classmethod
    def parse(cls, text: str) -> _MetaParser:
        """Parse the document's head (or all of it when there is no </head>)."""
        head_end = _HEAD_END.search(text)
        if head_end is not None:
            text = text[: head_end.end()]
        parser = cls()
        try:
            parser.feed(text)
            parser.close()
        except AssertionError:
            # html.parser still raises this on some malformed "<![...]>" sections;
            # keep whatever was read before it.
            pass
        if parser._in_title and parser.title is None:
            parser.title = "".join(parser._title_parts)
        return parser

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self._in_svg += 1  # an <svg><title> is an icon label, not the page title
        elif tag == "title" and self.title is None and not self._in_svg:
            self._in_title = True
        elif tag == "meta":
            self._meta(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg" and self._in_svg:
            self._in_svg -= 1
        elif tag == "title" and self._in_title:
            self._in_title = False
            self.title = "".join(self._title_parts)

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self._title_parts.append(data)

    def _meta(self, attrs: dict[str, str | None]) -> None:
        key = (attrs.get("property") or attrs.get("name") or "").strip().lower()
        content = attrs.get("content")
        if content is None:
            return
        if key == "description" and self.description is None:
            self.description = content
        elif key == "og:title" and self.og_title is None:
            self.og_title = content
        elif key == "og:description" and self.og_description is None:
            self.og_description = content
        elif key == "og:site_name" and self.site_name is None:
            self.site_name = content
