"""A fake TMDB v3 search API on loopback, for tests and `lembra replay` (DESIGN section 6).

It speaks TMDB's real shapes, so the real TmdbClient runs against it; `GET /3/authentication`
says whether the key is good, and with `api_key` set every other key gets TMDB's 401. Matching is the
transcript rule: the lowercased, trimmed query is looked up among the lowercased keys;
anything else finds no results. The year and the language are recorded, not used.
"""

from __future__ import annotations

import asyncio
import datetime
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import web

Kind = Literal["movie", "tv"]
_KINDS: tuple[Kind, ...] = ("movie", "tv")

# TMDB's own status_code / status_message for the HTTP statuses a test is likely to ask for.
_ERRORS: dict[int, tuple[int, str]] = {
    401: (7, "Invalid API key: You must be granted a valid key."),
    403: (3, "Authentication failed: You do not have permissions to access the service."),
    404: (34, "The resource you requested could not be found."),
    422: (22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer."),
    429: (25, "Your request count (#) is over the allowed limit of (40)."),
    500: (11, "Internal error: Something went wrong, contact TMDb."),
    502: (43, "Couldn't connect to the backend server."),
    503: (9, "Service offline - This service is temporarily offline, try again later."),
    504: (24, "Your request to the backend server timed out. Try again."),
}


@dataclass(frozen=True)
class RecordedTmdbRequest:
    """One request the fake received; the API key is never kept, only how auth was sent."""

    path: str
    params: Mapping[str, str]  # query parameters without api_key
    auth: Literal["none", "api_key", "bearer"]
    status: int  # what the fake answered


@dataclass
class _Failure:
    status: int
    retry_after: int | None = None


class FakeTmdb:
    """Serve canned search results by kind and query. `start()` returns the base URL.

    `status` is answered to every request (200 by default; a transcript's `tmdb_status`
    sets it between turns), with `retry_after` as Retry-After when set. `fail_next`
    queues one-off failures before `status` applies again; `delay_s` holds each request.
    """

    def __init__(
        self,
        results: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]] | None = None,
        *,
        api_key: str | None = None,
    ) -> None:
        self.api_key = api_key  # when set, TMDB's 401 (status_code 7) to any other key
        self.results: dict[Kind, dict[str, list[dict[str, Any]]]] = {"movie": {}, "tv": {}}
        self.status = 200
        self.retry_after: int | None = None
        self.delay_s = 0.0
        self.requests: list[RecordedTmdbRequest] = []
        self.base_url = ""  # set by start()
        self._failures: deque[_Failure] = deque()
        self._runner: web.AppRunner | None = None
        self._closing: asyncio.Event | None = None
        if results:
            self.set_results(results)

    def set_results(self, results: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]) -> None:
        """Replace all results: {kind: {query: [entries]}}."""
        self.results = {"movie": {}, "tv": {}}
        for kind, by_query in results.items():
            for query, entries in by_query.items():
                self.add(kind, query, entries)

    def add(self, kind: str, query: str, entries: Sequence[Mapping[str, Any]]) -> None:
        """Serve `entries` (movie- or TV-shaped) for `query` of `kind`, replacing earlier ones."""
        if kind not in _KINDS:
            raise ValueError(f"TMDB kind must be 'movie' or 'tv', not {kind!r}")
        if not all(isinstance(entry, Mapping) for entry in entries):
            raise ValueError(f"TMDB results for {query!r} must be a list of mappings")
        # YAML reads a key like 1984 as an int; it is still the query "1984".
        self.results[kind][_key(str(query))] = [dict(entry) for entry in entries]

    def fail_next(self, status: int, *, times: int = 1, retry_after: int | None = None) -> None:
        """Answer the next `times` requests with `status` before going back to `status`."""
        self._failures.extend(_Failure(status, retry_after) for _ in range(times))

    async def start(self) -> str:
        """Listen on a free loopback port; return the base URL (http://127.0.0.1:PORT/3)."""
        if self._runner is not None:
            raise RuntimeError("FakeTmdb is already started")
        app = web.Application()
        app.router.add_get("/3/authentication", self._authentication)
        app.router.add_get("/3/search/{kind}", self._search)
        app.router.add_get(r"/3/{kind}/{tmdb_id:\d+}", self._details)
        app.router.add_route("*", "/{tail:.*}", self._not_found)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        self._closing = asyncio.Event()
        self.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}/3"
        return self.base_url

    async def close(self) -> None:
        if self._runner is not None:
            if self._closing is not None:
                self._closing.set()  # releases requests held by delay_s
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeTmdb:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _authentication(self, request: web.Request) -> web.StreamResponse:
        """`GET /3/authentication`: whether the key is good, as TMDB answers it."""
        refused = self._refused(request)
        if refused is not None:
            return refused
        self._record(request, 200)
        return web.json_response({"success": True, "status_code": 1, "status_message": "Success."})

    def _refused(self, request: web.Request) -> web.Response | None:
        if self.api_key is None:
            return None
        given = request.query.get("api_key") or request.headers.get("Authorization", "")[7:]
        if given == self.api_key:
            return None
        self._record(request, 401)
        return _error(401)

    async def _search(self, request: web.Request) -> web.StreamResponse:
        if self.delay_s > 0 and self._closing is not None:
            try:
                await asyncio.wait_for(self._closing.wait(), timeout=self.delay_s)
            except TimeoutError:
                pass  # the delay ran out: answer as usual
        kind = request.match_info["kind"]
        if (refused := self._refused(request)) is not None:
            return refused
        failure = (
            self._failures.popleft() if self._failures else _Failure(self.status, self.retry_after)
        )
        self._record(request, failure.status)
        if failure.status != 200:
            return _error(failure.status, failure.retry_after)
        if kind not in _KINDS:
            return _error(404)
        entries = self.results[kind].get(_key(request.query.get("query", "")), [])
        served = [_shape(kind, entry) for entry in entries]
        return web.json_response(
            {"page": 1, "results": served, "total_results": len(served), "total_pages": 1}
        )

    async def _details(self, request: web.Request) -> web.StreamResponse:
        """`GET /3/{kind}/{id}`: the entry with that id among every query's results, else 404."""
        kind = request.match_info["kind"]
        failure = (
            self._failures.popleft() if self._failures else _Failure(self.status, self.retry_after)
        )
        if failure.status != 200:
            self._record(request, failure.status)
            return _error(failure.status, failure.retry_after)
        wanted = int(request.match_info["tmdb_id"])
        for shape in _KINDS:
            if shape != kind:
                continue
            for entries in self.results[shape].values():
                for entry in entries:
                    if entry.get("id") == wanted:
                        self._record(request, 200)
                        return web.json_response(_shape(shape, entry))
        self._record(request, 404)
        return _error(404)

    async def _not_found(self, request: web.Request) -> web.StreamResponse:
        self._record(request, 404)
        return _error(404)

    def _record(self, request: web.Request, status: int) -> None:
        params = {key: value for key, value in request.query.items() if key != "api_key"}
        if "api_key" in request.query:
            auth: Literal["none", "api_key", "bearer"] = "api_key"
        elif request.headers.get("Authorization", "").startswith("Bearer "):
            auth = "bearer"
        else:
            auth = "none"
        self.requests.append(RecordedTmdbRequest(request.path, params, auth, status))


def _key(query: str) -> str:
    return query.strip().lower()


def _error(status: int, retry_after: int | None = None) -> web.Response:
    code, message = _ERRORS.get(status, (0, f"HTTP {status}"))
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return web.json_response(
        {"status_code": code, "status_message": message, "success": False},
        status=status,
        headers=headers,
    )


def _shape(kind: Kind, entry: Mapping[str, Any]) -> dict[str, Any]:
    """An entry in TMDB's real shape for `kind`, whichever shape it was given in."""
    shaped = dict(entry)
    if kind == "movie":
        renames = {
            "name": "title",
            "original_name": "original_title",
            "first_air_date": "release_date",
        }
    else:
        renames = {
            "title": "name",
            "original_title": "original_name",
            "release_date": "first_air_date",
        }
    for source, target in renames.items():
        if source in shaped:
            value = shaped.pop(source)
            shaped.setdefault(target, value)
    title_key, original_key, date_key = (
        ("title", "original_title", "release_date")
        if kind == "movie"
        else ("name", "original_name", "first_air_date")
    )
    if title_key in shaped:
        shaped.setdefault(original_key, shaped[title_key])
    date = shaped.get(date_key)
    if isinstance(date, datetime.date):  # YAML reads an unquoted 2010-07-15 as a date
        shaped[date_key] = date.isoformat()
    elif isinstance(date, int):
        shaped[date_key] = str(date)
    shaped.setdefault(date_key, "")
    shaped.setdefault("overview", "")
    shaped.setdefault("adult", False)
    shaped.setdefault("genre_ids", [])
    shaped.setdefault("original_language", "en")
    shaped.setdefault("popularity", 0.0)
    shaped.setdefault("poster_path", None)
    shaped.setdefault("backdrop_path", None)
    shaped.setdefault("vote_average", 0.0)
    shaped.setdefault("vote_count", 0)
    if kind == "movie":
        shaped.setdefault("video", False)
    else:
        shaped.setdefault("origin_country", [])
    return shaped
