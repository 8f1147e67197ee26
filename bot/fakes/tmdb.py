"""A fake TMDB v3 API on loopback, for tests and `lembra replay` (DESIGN section 6).

It speaks TMDB's real shapes, so the real TmdbClient runs against it; `GET /3/authentication`
says whether the key is good, and with `api_key` set every other key gets TMDB's 401. Matching is the
transcript rule: the lowercased, trimmed query is looked up among the lowercased keys;
anything else finds no results. The year and the language are recorded, not used.

An entry may carry what only the details and watch-provider endpoints answer (issue 44):
`runtime` (a movie's minutes), `episode_run_time` (a show's, a number or TMDB's list),
`number_of_seasons`, `genres` (names, or TMDB's `{id, name}` objects) and `providers`
by country, each offer kind a list of service names or of TMDB's provider objects:
`{"BR": {"flatrate": ["Max"], "rent": ["Apple TV"]}}`. A search answers without them
(with `genre_ids`, as TMDB's search does); `GET /3/{kind}/{id}` answers the details
(with `watch/providers` when `append_to_response` asks), `GET /3/{kind}/{id}/watch/providers`
the providers alone, both in TMDB's shapes.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import unicodedata
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

# TMDB's own genre ids (movie and TV lists), by name in English and Brazilian Portuguese
_GENRE_IDS: dict[str, int] = {
    **dict.fromkeys(("action", "acao"), 28),
    **dict.fromkeys(("adventure", "aventura"), 12),
    **dict.fromkeys(("animation", "animacao"), 16),
    **dict.fromkeys(("comedy", "comedia"), 35),
    "crime": 80,
    **dict.fromkeys(("documentary", "documentario"), 99),
    "drama": 18,
    **dict.fromkeys(("family", "familia"), 10751),
    **dict.fromkeys(("fantasy", "fantasia"), 14),
    **dict.fromkeys(("history", "historia"), 36),
    **dict.fromkeys(("horror", "terror"), 27),
    **dict.fromkeys(("music", "musica"), 10402),
    **dict.fromkeys(("mystery", "misterio"), 9648),
    "romance": 10749,
    **dict.fromkeys(("science fiction", "ficcao cientifica"), 878),
    **dict.fromkeys(("tv movie", "cinema tv"), 10770),
    "thriller": 53,
    **dict.fromkeys(("war", "guerra"), 10752),
    **dict.fromkeys(("western", "faroeste"), 37),
    "action & adventure": 10759,
    **dict.fromkeys(("kids", "kids"), 10762),
    "sci-fi & fantasy": 10765,
    **dict.fromkeys(("soap", "novela"), 10766),
    "war & politics": 10768,
}
# TMDB's provider ids and logos for the services a test is likely to name
_PROVIDERS: dict[str, tuple[int, str]] = {
    "netflix": (8, "/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg"),
    "amazon prime video": (119, "/dQeAar5H991VYporEjUspolDarG.jpg"),
    "prime video": (119, "/dQeAar5H991VYporEjUspolDarG.jpg"),
    "max": (1899, "/6Q3ZYUNA9Hsgj6iWnVsw2gR5V6z.jpg"),
    "hbo max": (1899, "/6Q3ZYUNA9Hsgj6iWnVsw2gR5V6z.jpg"),
    "disney plus": (337, "/97yvRBw1GzX7fXprcF80er19ot.jpg"),
    "disney+": (337, "/97yvRBw1GzX7fXprcF80er19ot.jpg"),
    "apple tv": (2, "/9ghgSC0MA082EL6HLCW3GalykFD.jpg"),
    "apple tv+": (350, "/2E03IAZsX4ZaUqM7tXlctEPMGWS.jpg"),
    "google play movies": (3, "/8z7rC8uIDaTM91X0ZfkRf04ydj2.jpg"),
    "google play filmes": (3, "/8z7rC8uIDaTM91X0ZfkRf04ydj2.jpg"),
    "amazon video": (10, "/seGSXajazLMCKGB5hnRCidtjay1.jpg"),
    "globoplay": (307, "/7Cg8esVVXOijXAm1f1vrDBlrNE1.jpg"),
    "paramount plus": (531, "/h5DcR0J2EESLitnhR8xLG1QymTE.jpg"),
    "paramount+": (531, "/h5DcR0J2EESLitnhR8xLG1QymTE.jpg"),
    "mubi": (11, "/x570VpH2C9EKDf1riP83rYc5dnL.jpg"),
    "crunchyroll": (283, "/8Gt1iClBlzTeQs8WQm8UrCoIxnQ.jpg"),
    "claro video": (167, "/21JxHcFm9SWc0RybrkGNDn2Gxxz.jpg"),
    "hulu": (15, "/bxBlRPEPpMVDc4jMhSrTf2339DW.jpg"),
    "peacock": (386, "/8VCV78prwd9QzZnEm0ReO6bERDa.jpg"),
    "tubi tv": (73, "/w2TDH9TRI7pltf5LjN3vXzs7QbN.jpg"),
}
_DETAIL_KEYS = ("runtime", "episode_run_time", "number_of_seasons", "genres", "providers")


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
        app.router.add_get(r"/3/{kind}/{tmdb_id:\d+}/watch/providers", self._providers)
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
        served = [_searched(_shape(kind, entry)) for entry in entries]
        return web.json_response(
            {"page": 1, "results": served, "total_results": len(served), "total_pages": 1}
        )

    async def _details(self, request: web.Request) -> web.StreamResponse:
        """`GET /3/{kind}/{id}`: the entry with that id among every query's results, else 404.

        TMDB's details shape: genres as `{id, name}`, a movie's `runtime`, a show's
        `episode_run_time` list and `number_of_seasons`; with `append_to_response=
        watch/providers`, the providers under that key.
        """
        failure = (
            self._failures.popleft() if self._failures else _Failure(self.status, self.retry_after)
        )
        if failure.status != 200:
            self._record(request, failure.status)
            return _error(failure.status, failure.retry_after)
        found = self._entry(request)
        if found is None:
            self._record(request, 404)
            return _error(404)
        kind, entry = found
        self._record(request, 200)
        body = _detailed(kind, entry)
        appended = [a.strip() for a in request.query.get("append_to_response", "").split(",")]
        if "watch/providers" in appended:
            body["watch/providers"] = {"results": _provider_results(kind, entry)}
        return web.json_response(body)

    async def _providers(self, request: web.Request) -> web.StreamResponse:
        """`GET /3/{kind}/{id}/watch/providers`: `{"id", "results": {country: ...}}`; an id
        no entry has answers 404 as TMDB does."""
        failure = (
            self._failures.popleft() if self._failures else _Failure(self.status, self.retry_after)
        )
        if failure.status != 200:
            self._record(request, failure.status)
            return _error(failure.status, failure.retry_after)
        found = self._entry(request)
        if found is None:
            self._record(request, 404)
            return _error(404)
        self._record(request, 200)
        kind, entry = found
        return web.json_response({"id": entry.get("id"), "results": _provider_results(kind, entry)})

    def _entry(self, request: web.Request) -> tuple[Kind, dict[str, Any]] | None:
        kind = request.match_info["kind"]
        wanted = int(request.match_info["tmdb_id"])
        for shape in _KINDS:
            if shape != kind:
                continue
            for entries in self.results[shape].values():
                for entry in entries:
                    if entry.get("id") == wanted:
                        return shape, entry
        return None

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


def _fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _stable_id(name: str) -> int:
    """An id for a name no table holds, the same in every run."""
    return 100_000 + int(hashlib.sha256(name.encode()).hexdigest()[:6], 16)


def _genres(raw: Any) -> list[dict[str, Any]]:
    """Genres as TMDB's details give them: `{id, name}`, from names or those objects."""
    out: list[dict[str, Any]] = []
    for genre in raw if isinstance(raw, list) else []:
        if isinstance(genre, Mapping):
            out.append({"id": genre.get("id"), "name": genre.get("name")})
        elif isinstance(genre, str):
            out.append({"id": _GENRE_IDS.get(_fold(genre), _stable_id(genre)), "name": genre})
    return out


def _offers(raw: Any) -> list[dict[str, Any]]:
    """One offer kind in TMDB's shape, from names or provider objects."""
    out: list[dict[str, Any]] = []
    for priority, offer in enumerate(raw if isinstance(raw, list) else []):
        if isinstance(offer, Mapping):
            out.append(dict(offer))
        elif isinstance(offer, str):
            provider_id, logo = _PROVIDERS.get(
                _fold(offer), (_stable_id(offer), f"/{_stable_id(offer)}.jpg")
            )
            out.append(
                {
                    "logo_path": logo,
                    "provider_id": provider_id,
                    "provider_name": offer,
                    "display_priority": priority,
                }
            )
    return out


def _provider_results(kind: Kind, entry: Mapping[str, Any]) -> dict[str, Any]:
    """TMDB's `results` of `/watch/providers`: by country, a `link` and each offer kind."""
    results: dict[str, Any] = {}
    providers = entry.get("providers")
    for country, offers in providers.items() if isinstance(providers, Mapping) else ():
        if not isinstance(offers, Mapping):
            continue
        code = str(country).upper()
        shaped: dict[str, Any] = {
            "link": f"https://www.themoviedb.org/{kind}/{entry.get('id')}/watch?locale={code}"
        }
        for offer in ("flatrate", "free", "ads", "rent", "buy"):
            if offer in offers:
                shaped[offer] = _offers(offers[offer])
        results[code] = shaped
    return results


def _searched(shaped: dict[str, Any]) -> dict[str, Any]:
    """A search result: what only the details answer left out, genres as `genre_ids`."""
    if "genres" in shaped and not shaped.get("genre_ids"):
        shaped["genre_ids"] = [g["id"] for g in _genres(shaped["genres"])]
    for key in _DETAIL_KEYS:
        shaped.pop(key, None)
    return shaped


def _detailed(kind: Kind, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The details of `entry` in TMDB's shape for `kind`."""
    shaped = _shape(kind, entry)
    shaped.pop("providers", None)
    shaped.pop("genre_ids", None)
    shaped["genres"] = _genres(entry.get("genres"))
    if kind == "movie":
        shaped.setdefault("runtime", 0)
    else:
        minutes = entry.get("episode_run_time")
        shaped["episode_run_time"] = (
            list(minutes) if isinstance(minutes, list) else [minutes] if minutes else []
        )
        shaped.setdefault("number_of_seasons", 1)
    return shaped
