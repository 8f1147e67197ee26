"""TMDB v3 client: candidates for `enrich_movie` / `enrich_tv_show` (DESIGN 3.2), a title's
details (runtime, genres, seasons) and where it streams, per country (DESIGN 11.5).

Where to watch is JustWatch's data, which TMDB serves under `/{kind}/{id}/watch/providers`
(or appended to the details) for every country at once; it is kept a day per title in
this process (`WATCH_TTL_MS`), so a title costs at most one request a day.

Errors are translated here and nowhere else: after the retries a timeout, connection
failure, 5xx or 429 becomes ServiceUnavailable; 401/403/404, other 4xx and answers we
cannot read become ServiceError. The key and the request URL are never logged.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal

import aiohttp

from agent.errors import ServiceError, ServiceNotConfigured, ServiceUnavailable
from agent.services.retrying import GaveUp, Retry, RetryPolicy
from agent.understanding.textnorm import fold
from config.logging import log_event

logger = logging.getLogger(__name__)

TmdbKind = Literal["movie", "tv"]

_OVERVIEW_CHARS = 500
_MAX_RETRY_AFTER_S = 5.0
_BACKOFF_S = (0.2, 0.5, 1.0)
_PUBLIC_HOST = "api.themoviedb.org"  # needs a key; a self-hosted proxy or a fake may not
WATCH_TTL_MS = 24 * 3600 * 1000  # where a title streams, kept a day (issue 44)
TMDB_LANGUAGE = {"pt": "pt-BR", "en": "en-US"}  # TMDB's `language` for the reply language
_WATCH_KEPT = 2_000  # titles whose providers a process keeps at most
# what TMDB calls each way to watch, in the order a user wants them: included first
OFFER_KINDS: tuple[str, ...] = ("flatrate", "free", "ads", "rent", "buy")
APPENDED_PROVIDERS = "watch/providers"  # `append_to_response` value and the key it answers under


class TmdbNotFound(ServiceError):
    """HTTP 404: a search path TMDB does not have, or an id it holds nothing under."""


@dataclass(frozen=True, slots=True)
class TmdbCandidate:
    kind: TmdbKind
    tmdb_id: int
    title: str
    year: int | None
    original_title: str | None
    overview: str  # truncated to 500 chars, "" if none


def clear_candidate(
    candidates: Sequence[TmdbCandidate], query: str, year: int | None
) -> TmdbCandidate | None:
    """The one candidate that is unambiguously what was asked for, if any."""
    if len(candidates) == 1:
        only = candidates[0]
        return only if year is None or only.year in (None, year) else None
    wanted = fold(query)
    matches = [
        c
        for c in candidates
        if wanted in (fold(c.title), fold(c.original_title or ""))
        and (year is None or c.year == year)
    ]
    return matches[0] if len(matches) == 1 else None


@dataclass(frozen=True, slots=True)
class WatchOptions:
    """Where a title can be watched in one country: service names by kind of offer, TMDB's
    display order, and TMDB's page for it (JustWatch's data: attribution required)."""

    country: str
    link: str | None = None
    flatrate: tuple[str, ...] = ()  # included in a subscription
    free: tuple[str, ...] = ()
    ads: tuple[str, ...] = ()  # free with ads
    rent: tuple[str, ...] = ()
    buy: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.flatrate or self.free or self.ads or self.rent or self.buy)

    def to_json(self) -> dict[str, Any]:
        return {
            "country": self.country,
            "link": self.link,
            **{kind: list(getattr(self, kind)) for kind in OFFER_KINDS},
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> WatchOptions | None:
        """What `to_json` wrote (stored on an item); None when it is not that."""
        country = raw.get("country")
        if not isinstance(country, str):
            return None
        link = raw.get("link")
        lists = {kind: _names(raw.get(kind)) for kind in OFFER_KINDS}
        return cls(country, link if isinstance(link, str) else None, **lists)


@dataclass(frozen=True, slots=True)
class TmdbDetails:
    """What a title's details add to a search result (DESIGN 11.5): minutes, genres, seasons,
    and where it streams when they were asked together (`providers`, by country)."""

    kind: TmdbKind
    tmdb_id: int
    runtime_min: int | None  # a movie's; an episode's for a show
    genres: tuple[str, ...]  # names in the language asked for
    seasons: int | None  # a show's
    providers: dict[str, WatchOptions] | None = field(default=None)


@dataclass(frozen=True, slots=True)
class _Attempt:
    """What one request produced: a parsed body, or a retryable failure and how long to wait."""

    body: Any = None
    retry_reason: str | None = None
    wait_s: float | None = None


class TmdbClient:
    """Search TMDB's movies or TV shows. The session belongs to the caller."""

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        base_url: str,
        api_key: str | None,
        timeout_s: float,
        retries: int = 2,
        policy: RetryPolicy | None = None,
    ) -> None:
        if retries < 0:
            raise ValueError("retries must be >= 0")
        self._session = session
        self._base_url = base_url.rstrip("/")
        self._api_key = api_key or None
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        # a lookup waits inside a turn: short backoff, and at most 5 s for a Retry-After
        backoff = tuple(_BACKOFF_S[min(n, len(_BACKOFF_S) - 1)] for n in range(retries))
        self._policy = policy or RetryPolicy(delays=backoff, max_wait_s=5.0, max_total_s=6.0)
        # (kind, id) -> (when fetched, providers by country): a day per title (issue 44)
        self._watch: OrderedDict[tuple[str, int], tuple[int, dict[str, WatchOptions]]] = (
            OrderedDict()
        )
        # searches made for where to watch a title, kept the same day
        self._searches: OrderedDict[
            tuple[str, str, str, int | None], tuple[int, list[TmdbCandidate]]
        ] = OrderedDict()

    @property
    def configured(self) -> bool:
        """False when no request can succeed: TMDB itself with no key."""
        return self._api_key is not None or _PUBLIC_HOST not in self._base_url

    async def search(
        self,
        kind: TmdbKind,
        query: str,
        *,
        language: str,
        year: int | None = None,
        limit: int = 10,
        now_ms: int | None = None,
    ) -> list[TmdbCandidate]:
        """Candidates for `query` in TMDB's order (at most `limit`); a blank query finds nothing.

        With `now_ms`, the answer is kept a day and asked again only after (where to watch
        a title that is not on the list); without it every call asks.
        """
        if kind not in ("movie", "tv"):
            raise ValueError(f"unknown TMDB kind {kind!r}")
        if limit < 1:
            raise ValueError("limit must be >= 1")
        query = query.strip()
        if not query:
            return []
        params = {
            "query": query,
            "language": language,
            "include_adult": "false",
            "page": "1",
        }
        if year is not None:
            params["year" if kind == "movie" else "first_air_date_year"] = str(year)
        key = (kind, query.casefold(), language, year)
        kept = self._searches.get(key) if now_ms is not None else None
        if kept is not None and now_ms is not None and now_ms - kept[0] < WATCH_TTL_MS:
            return kept[1][:limit]
        body = await self._get(f"/search/{kind}", params)
        found = _parse_results(kind, body)
        if now_ms is not None:
            self._searches[key] = (now_ms, found)
            while len(self._searches) > _WATCH_KEPT:
                self._searches.popitem(last=False)
        return found[:limit]

    async def details(self, kind: TmdbKind, tmdb_id: int, *, language: str) -> TmdbCandidate | None:
        """The entry TMDB holds under `tmdb_id`, or None when it holds none (HTTP 404)."""
        if kind not in ("movie", "tv"):
            raise ValueError(f"unknown TMDB kind {kind!r}")
        try:
            body = await self._get(f"/{kind}/{int(tmdb_id)}", {"language": language})
        except TmdbNotFound:
            return None
        found = _parse_results(kind, {"results": [body]}) if isinstance(body, dict) else []
        return found[0] if found else None

    async def authentication(self) -> None:
        """Whether TMDB takes the key (`GET /authentication`, for `lembra check`): raises
        ServiceNotConfigured for a refused or missing key, TmdbNotFound for a base URL that
        is not TMDB's API, ServiceUnavailable when it cannot be reached."""
        await self._get("/authentication", {})

    async def title_details(
        self, kind: TmdbKind, tmdb_id: int, *, language: str, now_ms: int
    ) -> TmdbDetails | None:
        """Runtime, genres and seasons of one title, with where it streams in the same
        request (`append_to_response`); None when TMDB holds nothing under `tmdb_id`."""
        if kind not in ("movie", "tv"):
            raise ValueError(f"unknown TMDB kind {kind!r}")
        params = {"language": language, "append_to_response": APPENDED_PROVIDERS}
        try:
            body = await self._get(f"/{kind}/{int(tmdb_id)}", params)
        except TmdbNotFound:
            return None
        if not isinstance(body, dict):
            raise ServiceError("TMDB answered in an unexpected shape (no details object)")
        providers: dict[str, WatchOptions] | None = None
        appended = body.get(APPENDED_PROVIDERS)
        if isinstance(appended, dict):
            providers = parse_providers(appended)
            self._keep_watch(kind, int(tmdb_id), providers, now_ms)
        return _parse_details(kind, int(tmdb_id), body, providers)

    async def watch_providers(
        self, kind: TmdbKind, tmdb_id: int, *, now_ms: int
    ) -> dict[str, WatchOptions]:
        """Where one title streams, by country (`{}` when nowhere, or unknown to TMDB).

        Kept a day: asked again within it, no request is made.
        """
        if kind not in ("movie", "tv"):
            raise ValueError(f"unknown TMDB kind {kind!r}")
        key = (kind, int(tmdb_id))
        kept = self._watch.get(key)
        if kept is not None and now_ms - kept[0] < WATCH_TTL_MS:
            return kept[1]
        try:
            body = await self._get(f"/{kind}/{int(tmdb_id)}/watch/providers", {})
        except TmdbNotFound:
            body = {"results": {}}
        providers = parse_providers(body)
        self._keep_watch(kind, int(tmdb_id), providers, now_ms)
        return providers

    def _keep_watch(
        self, kind: str, tmdb_id: int, providers: dict[str, WatchOptions], now_ms: int
    ) -> None:
        self._watch[(kind, tmdb_id)] = (now_ms, providers)
        self._watch.move_to_end((kind, tmdb_id))
        while len(self._watch) > _WATCH_KEPT:
            self._watch.popitem(last=False)

    async def _get(self, path: str, params: dict[str, str]) -> Any:
        if not self.configured:
            # TMDB itself answers 401 to every keyless request: don't ask it, don't wait.
            # DEBUG: the caller's caveat is the one warning of the save (`tmdb_caveat`).
            log_event(logger, "tmdb_not_configured", level=logging.DEBUG, path=path)
            raise ServiceNotConfigured("TMDB is not configured (no TMDB_API_KEY)")
        headers = {"Accept": "application/json"}
        if self._api_key is not None:
            if self._api_key.startswith("eyJ"):  # a v4 read-access token (a JWT)
                headers["Authorization"] = f"Bearer {self._api_key}"
            else:
                params = {**params, "api_key": self._api_key}
        url = self._base_url + path

        async def attempt() -> Any:
            result = await self._attempt(url, params, headers)
            if result.retry_reason is not None:
                raise Retry(result.retry_reason, wait_s=result.wait_s)
            return result.body

        def retried(number: int, error: Retry, wait_s: float) -> None:
            log_event(
                logger,
                "tmdb_retry",
                level=logging.WARNING,
                path=path,
                reason=error.reason,
                attempt=number,
                wait_s=round(wait_s, 2),
            )

        try:
            return await self._policy.call(attempt, on_retry=retried)
        except GaveUp as exc:
            log_event(
                logger, "tmdb_unavailable", level=logging.WARNING, path=path, reason=exc.reason
            )
            raise ServiceUnavailable(
                f"TMDB is unavailable ({exc.reason}); try again later"
            ) from None

    async def _attempt(self, url: str, params: dict[str, str], headers: dict[str, str]) -> _Attempt:
        try:
            async with self._session.get(
                url, params=params, headers=headers, timeout=self._timeout, allow_redirects=False
            ) as response:
                status = response.status
                if status == 429:
                    return _Attempt(
                        retry_reason="HTTP 429",
                        wait_s=_retry_after_s(response.headers.get("Retry-After")),
                    )
                if status >= 500:
                    return _Attempt(retry_reason=f"HTTP {status}")
                if status in (401, 403):
                    log_event(logger, "tmdb_key_rejected", level=logging.WARNING, status=status)
                    raise ServiceNotConfigured(_client_error_message(status))
                if status == 404:
                    raise TmdbNotFound(_client_error_message(status))
                if status != 200:
                    raise ServiceError(_client_error_message(status))
                raw = await response.read()
        except TimeoutError:
            return _Attempt(retry_reason="timeout")
        except (aiohttp.ClientError, OSError) as exc:
            return _Attempt(retry_reason=f"connection error ({type(exc).__name__})")
        try:
            return _Attempt(body=json.loads(raw))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ServiceError("TMDB answered with something that is not JSON") from exc


def _client_error_message(status: int) -> str:
    if status in (401, 403):
        return f"TMDB refused the credentials (HTTP {status}); check TMDB_API_KEY"
    if status == 404:
        return "TMDB does not know this search (HTTP 404); check TMDB_BASE_URL"
    return f"TMDB refused the request (HTTP {status})"


def _retry_after_s(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date), capped at 5 s."""
    if value is None:
        return None
    value = value.strip()
    seconds: float
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), _MAX_RETRY_AFTER_S)


def _parse_results(kind: TmdbKind, body: Any) -> list[TmdbCandidate]:
    if not isinstance(body, dict) or not isinstance(body.get("results"), list):
        raise ServiceError("TMDB answered in an unexpected shape (no results list)")
    title_key, original_key, date_key = (
        ("title", "original_title", "release_date")
        if kind == "movie"
        else ("name", "original_name", "first_air_date")
    )
    candidates: list[TmdbCandidate] = []
    for entry in body["results"]:
        if not isinstance(entry, dict):
            continue
        tmdb_id = entry.get("id")
        title = entry.get(title_key)
        # bool is an int subclass; a malformed entry is skipped, not fatal.
        if isinstance(tmdb_id, bool) or not isinstance(tmdb_id, int) or tmdb_id <= 0:
            continue
        if not isinstance(title, str) or not title.strip():
            continue
        original = entry.get(original_key)
        overview = entry.get("overview")
        candidates.append(
            TmdbCandidate(
                kind=kind,
                tmdb_id=tmdb_id,
                title=title.strip(),
                year=_year_of(entry.get(date_key)),
                original_title=original.strip()
                if isinstance(original, str) and original.strip()
                else None,
                overview=overview.strip()[:_OVERVIEW_CHARS] if isinstance(overview, str) else "",
            )
        )
    return candidates


def _year_of(date: Any) -> int | None:
    """The year of "YYYY-MM-DD" (TMDB sends "" when unknown)."""
    if isinstance(date, str) and len(date) >= 4 and date[:4].isdigit():
        year = int(date[:4])
        return year if year > 0 else None
    return None


def parse_providers(body: Any) -> dict[str, WatchOptions]:
    """TMDB's `{"results": {"BR": {"link", "flatrate": [...], ...}}}` by country; services in
    TMDB's `display_priority` order, malformed entries left out."""
    if not isinstance(body, dict) or not isinstance(body.get("results"), dict):
        raise ServiceError("TMDB answered in an unexpected shape (no providers by country)")
    found: dict[str, WatchOptions] = {}
    for country, offers in body["results"].items():
        if not (isinstance(country, str) and len(country) == 2 and isinstance(offers, dict)):
            continue
        link = offers.get("link")
        lists = {kind: _services(offers.get(kind)) for kind in OFFER_KINDS}
        found[country.upper()] = WatchOptions(
            country.upper(), link if isinstance(link, str) else None, **lists
        )
    return found


def _services(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        return ()
    ranked: list[tuple[int, int, str]] = []
    for position, entry in enumerate(raw):
        if not isinstance(entry, dict):
            continue
        name = entry.get("provider_name")
        priority = entry.get("display_priority")
        if not isinstance(name, str) or not name.strip():
            continue
        rank = priority if isinstance(priority, int) and not isinstance(priority, bool) else 999
        ranked.append((rank, position, name.strip()[:60]))
    names: list[str] = []
    for _, _, name in sorted(ranked):
        if name not in names:
            names.append(name)
    return tuple(names)


def _names(raw: Any) -> tuple[str, ...]:
    if not isinstance(raw, list):
        return ()
    return tuple(str(n)[:60] for n in raw if isinstance(n, str) and n.strip())


def _parse_details(
    kind: TmdbKind, tmdb_id: int, body: dict[str, Any], providers: dict[str, WatchOptions] | None
) -> TmdbDetails:
    genres: list[str] = []
    for genre in body.get("genres") or []:
        name = genre.get("name") if isinstance(genre, dict) else None
        if isinstance(name, str) and name.strip() and name.strip() not in genres:
            genres.append(name.strip()[:40])
    if kind == "movie":
        runtime = _minutes(body.get("runtime"))
        seasons = None
    else:
        times = body.get("episode_run_time")
        runtime = (
            next((m for m in map(_minutes, times) if m), None) if isinstance(times, list) else None
        )
        if runtime is None and isinstance(body.get("last_episode_to_air"), dict):
            runtime = _minutes(body["last_episode_to_air"].get("runtime"))
        seasons = _minutes(body.get("number_of_seasons"))
    return TmdbDetails(kind, tmdb_id, runtime, tuple(genres[:6]), seasons, providers)


def _minutes(value: Any) -> int | None:
    """A positive whole number TMDB sent (minutes, seasons), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = int(value)
    return number if 0 < number < 100_000 else None
