"""The real TmdbClient against FakeTmdb (and a broken server) over loopback HTTP."""

from __future__ import annotations

import datetime
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from agent.errors import ServiceError, ServiceNotConfigured, ServiceUnavailable
from agent.services.tmdb import TmdbCandidate, TmdbClient
from bot.fakes.tmdb import FakeTmdb

MakeClient = Callable[..., TmdbClient]

INCEPTION_PT = {
    "id": 27205,
    "title": "A Origem",
    "original_title": "Inception",
    "release_date": "2010-07-15",
    "overview": "Dom Cobb é um ladrão...",
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeTmdb]:
    server = FakeTmdb()
    await server.start()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client_session:
        yield client_session


@pytest.fixture
def make_client(fake: FakeTmdb, session: aiohttp.ClientSession) -> MakeClient:
    def make(
        *,
        api_key: str | None = None,
        timeout_s: float = 2.0,
        retries: int = 2,
        base_url: str | None = None,
    ) -> TmdbClient:
        return TmdbClient(
            session,
            base_url=base_url or fake.base_url,
            api_key=api_key,
            timeout_s=timeout_s,
            retries=retries,
        )

    return make


async def test_portuguese_query_finds_the_configured_movie_and_sends_language_and_year(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "a origem", [INCEPTION_PT])

    found = await make_client().search("movie", "  A Origem ", language="pt-BR", year=2010)

    assert found == [
        TmdbCandidate(
            kind="movie",
            tmdb_id=27205,
            title="A Origem",
            year=2010,
            original_title="Inception",
            overview="Dom Cobb é um ladrão...",
        )
    ]
    [request] = fake.requests
    assert request.path == "/3/search/movie"
    assert request.params == {
        "query": "A Origem",
        "language": "pt-BR",
        "include_adult": "false",
        "page": "1",
        "year": "2010",
    }
    assert request.auth == "none"


async def test_tv_search_sends_first_air_date_year_and_reads_the_tv_shape(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    # Given in movie shape; the fake serves TMDB's TV shape (name, first_air_date, original_name).
    fake.add("tv", "dark", [{"id": 70523, "title": "Dark", "release_date": "2017-12-01"}])

    found = await make_client().search("tv", "Dark", language="en-US", year=2017)

    assert [(c.kind, c.tmdb_id, c.title, c.year, c.original_title) for c in found] == [
        ("tv", 70523, "Dark", 2017, "Dark")
    ]
    [request] = fake.requests
    assert request.path == "/3/search/tv"
    assert request.params["first_air_date_year"] == "2017"
    assert "year" not in request.params


async def test_movie_search_without_year_sends_no_year(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    await make_client().search("movie", "inception", language="en-US")

    assert "year" not in fake.requests[0].params


async def test_unknown_query_finds_nothing(fake: FakeTmdb, make_client: MakeClient) -> None:
    fake.add("movie", "inception", [{"id": 27205, "title": "Inception"}])

    assert await make_client().search("movie", "interstellar", language="en-US") == []


async def test_blank_query_finds_nothing_without_asking(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    assert await make_client().search("movie", "   ", language="pt-BR") == []
    assert fake.requests == []


async def test_results_keep_tmdb_order_and_respect_the_limit(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add(
        "movie",
        "inception",
        [
            {"id": n, "title": f"Inception {n}", "release_date": f"20{n:02d}-01-01"}
            for n in range(1, 6)
        ],
    )

    found = await make_client().search("movie", "inception", language="en-US", limit=3)

    assert [(c.tmdb_id, c.year) for c in found] == [(1, 2001), (2, 2002), (3, 2003)]


async def test_malformed_entries_are_skipped(fake: FakeTmdb, make_client: MakeClient) -> None:
    fake.add(
        "movie",
        "x",
        [
            {"id": 1, "title": "Good", "release_date": "1999-03-31"},
            {"title": "No id"},
            {"id": 2},
            {"id": "3", "title": "String id"},
            {"id": True, "title": "Bool id"},
            {"id": 4, "title": "   "},
            {"id": 5, "title": "No date", "release_date": "", "overview": None},
            {"id": 6, "title": "Bad date", "release_date": "soon"},
        ],
    )

    found = await make_client().search("movie", "x", language="en-US")

    assert [(c.tmdb_id, c.title, c.year, c.overview) for c in found] == [
        (1, "Good", 1999, ""),
        (5, "No date", None, ""),
        (6, "Bad date", None, ""),
    ]


async def test_long_overview_is_truncated(fake: FakeTmdb, make_client: MakeClient) -> None:
    fake.add("movie", "long", [{"id": 1, "title": "Long", "overview": "a" * 2_000}])

    [candidate] = await make_client().search("movie", "long", language="en-US")

    assert len(candidate.overview) == 500


async def test_5xx_is_retried_then_reported_unavailable(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.status = 503

    with pytest.raises(ServiceUnavailable, match="TMDB is unavailable"):
        await make_client(retries=2).search("movie", "inception", language="pt-BR")

    assert [r.status for r in fake.requests] == [503, 503, 503]


async def test_a_transient_5xx_recovers(fake: FakeTmdb, make_client: MakeClient) -> None:
    fake.add("movie", "inception", [{"id": 27205, "title": "Inception"}])
    fake.fail_next(500)

    found = await make_client().search("movie", "inception", language="en-US")

    assert [c.tmdb_id for c in found] == [27205]
    assert [r.status for r in fake.requests] == [500, 200]


async def test_429_honours_retry_after_then_succeeds(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "inception", [{"id": 27205, "title": "Inception"}])
    fake.fail_next(429, retry_after=1)

    found = await make_client().search("movie", "inception", language="en-US")

    assert [c.tmdb_id for c in found] == [27205]
    assert [r.status for r in fake.requests] == [429, 200]


async def test_timeout_is_retried_then_reported_unavailable(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.delay_s = 5.0  # released at once when the fake closes

    with pytest.raises(ServiceUnavailable, match="timeout"):
        await make_client(timeout_s=0.05, retries=1).search("movie", "inception", language="en-US")


@pytest.mark.parametrize("status", [401, 403, 404, 422])
async def test_client_errors_are_not_retried(
    fake: FakeTmdb, make_client: MakeClient, status: int
) -> None:
    fake.status = status

    with pytest.raises(ServiceError) as caught:
        await make_client(retries=2).search("movie", "inception", language="en-US")

    assert not isinstance(caught.value, ServiceUnavailable)
    assert len(fake.requests) == 1


async def test_unreachable_server_is_unavailable(session: aiohttp.ClientSession) -> None:
    stopped = FakeTmdb()
    base_url = await stopped.start()
    await stopped.close()
    client = TmdbClient(session, base_url=base_url, api_key=None, timeout_s=1.0, retries=1)

    with pytest.raises(ServiceUnavailable, match="TMDB is unavailable"):
        await client.search("movie", "inception", language="en-US")


async def test_api_key_goes_in_the_query_and_is_never_logged(
    fake: FakeTmdb, make_client: MakeClient, caplog: pytest.LogCaptureFixture
) -> None:
    fake.status = 503
    caplog.set_level(logging.DEBUG)

    with pytest.raises(ServiceUnavailable):
        await make_client(api_key="secret-v3-key", retries=1).search("movie", "x", language="en-US")

    assert {r.auth for r in fake.requests} == {"api_key"}
    assert caplog.records, "retries should be logged"
    for record in caplog.records:
        assert "secret-v3-key" not in str(record.__dict__)
        assert fake.base_url not in str(record.__dict__)


async def test_read_access_token_goes_in_the_authorization_header(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    await make_client(api_key="eyJhbGciOiJIUzI1NiJ9.e30.sig").search("movie", "x", language="en-US")

    [request] = fake.requests
    assert request.auth == "bearer"
    assert "api_key" not in request.params


async def test_fake_errors_use_tmdb_error_shape(
    fake: FakeTmdb, session: aiohttp.ClientSession
) -> None:
    fake.status = 401

    async with session.get(fake.base_url + "/search/movie", params={"query": "x"}) as response:
        body = await response.json()

    assert response.status == 401
    assert body == {
        "status_code": 7,
        "status_message": "Invalid API key: You must be granted a valid key.",
        "success": False,
    }


async def test_fake_accepts_yaml_style_keys_and_dates(
    make_client: MakeClient, fake: FakeTmdb
) -> None:
    # What a transcript's YAML turns `1984: [{..., release_date: 1984-10-10}]` into.
    yaml_results: dict[str, Any] = {
        "movie": {
            1984: [{"id": 9314, "title": "1984", "release_date": datetime.date(1984, 10, 10)}]
        }
    }
    fake.set_results(yaml_results)

    [candidate] = await make_client().search("movie", "1984", language="en-US")

    assert (candidate.tmdb_id, candidate.year) == (9314, 1984)


def test_fake_refuses_unknown_kinds() -> None:
    with pytest.raises(ValueError, match="movie"):
        FakeTmdb({"film": {"x": []}})


async def _serve(
    handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
) -> tuple[web.AppRunner, str]:
    app = web.Application()
    app.router.add_get("/3/search/{kind}", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}/3"


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ("<html>not json</html>", "text/html"),
        ('{"page": 1, "results": ', "application/json"),
        ('{"page": 1, "results": "none"}', "application/json"),
        ("[1, 2, 3]", "application/json"),
    ],
)
async def test_unreadable_answers_are_service_errors(
    session: aiohttp.ClientSession, body: str, content_type: str
) -> None:
    requests = 0

    async def handler(request: web.Request) -> web.StreamResponse:
        nonlocal requests
        requests += 1
        return web.Response(text=body, content_type=content_type)

    runner, base_url = await _serve(handler)
    try:
        client = TmdbClient(session, base_url=base_url, api_key=None, timeout_s=1.0, retries=2)
        with pytest.raises(ServiceError) as caught:
            await client.search("movie", "inception", language="en-US")
    finally:
        await runner.cleanup()

    assert not isinstance(caught.value, ServiceUnavailable)
    assert requests == 1


async def test_without_a_key_the_public_tmdb_is_not_asked(caplog: pytest.LogCaptureFixture) -> None:
    # api.themoviedb.org refuses keyless requests: the movie is saved un-enriched at once
    # instead of after three DNS lookups and retries (and no request leaves the machine).
    async with aiohttp.ClientSession() as session:
        client = TmdbClient(
            session, base_url="https://api.themoviedb.org/3", api_key=None, timeout_s=5
        )
        with (
            caplog.at_level(logging.WARNING),
            pytest.raises(ServiceNotConfigured, match="TMDB_API_KEY"),
        ):
            await client.search("movie", "inception", language="pt-BR")
    assert "tmdb_retry" not in caplog.text


async def test_details_by_id_finds_the_entry_or_none_and_asks_nothing_unconfigured(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "a origem", [INCEPTION_PT])
    client = make_client(api_key="k" * 32)

    found = await client.details("movie", 27205, language="pt-BR")
    missing = await client.details("movie", 4242, language="pt-BR")

    assert found is not None
    assert (found.tmdb_id, found.year) == (27205, 2010)
    assert missing is None
    assert [(r.path, r.status) for r in fake.requests] == [
        ("/3/movie/27205", 200),
        ("/3/movie/4242", 404),
    ]
    keyless = make_client(base_url="https://api.themoviedb.org/3")
    with pytest.raises(ServiceNotConfigured, match="not configured"):
        await keyless.details("movie", 27205, language="pt-BR")


DUNE_WITH_PROVIDERS = {
    "id": 438631,
    "title": "Duna",
    "original_title": "Dune",
    "release_date": "2021-10-21",
    "runtime": 155,
    "genres": ["Ficção científica", "Aventura"],
    "providers": {
        "BR": {"flatrate": ["Max", "Netflix"], "rent": ["Apple TV"], "buy": ["Google Play Filmes"]},
        "US": {"flatrate": ["Max"]},
    },
}
DARK = {
    "id": 70523,
    "name": "Dark",
    "first_air_date": "2017-12-01",
    "episode_run_time": 55,
    "number_of_seasons": 3,
    "genres": ["Drama", "Mistério"],
}


async def test_a_search_answers_in_tmdbs_search_shape_without_what_only_details_have(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "duna", [DUNE_WITH_PROVIDERS])
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.base_url}/search/movie", params={"query": "duna"}) as r:
            [entry] = (await r.json())["results"]
    assert entry["genre_ids"] == [878, 12]  # TMDB's own ids for these genres
    assert not {"runtime", "genres", "providers"} & set(entry)

    [found] = await make_client().search("movie", "duna", language="pt-BR")
    assert found.tmdb_id == 438631


async def test_details_bring_runtime_genres_and_the_providers_in_one_request(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "duna", [DUNE_WITH_PROVIDERS])
    client = make_client()

    details = await client.title_details("movie", 438631, language="pt-BR", now_ms=0)

    assert details is not None
    assert (details.runtime_min, details.genres) == (155, ("Ficção científica", "Aventura"))
    assert details.providers is not None
    brazil = details.providers["BR"]
    assert (brazil.flatrate, brazil.rent, brazil.buy) == (
        ("Max", "Netflix"),
        ("Apple TV",),
        ("Google Play Filmes",),
    )
    assert brazil.link is not None
    assert "438631" in brazil.link
    assert [r.params.get("append_to_response") for r in fake.requests] == ["watch/providers"]
    # the providers came with the details: asking where it streams costs nothing that day
    assert (await client.watch_providers("movie", 438631, now_ms=1_000))["US"].flatrate == ("Max",)
    assert len(fake.requests) == 1


async def test_a_shows_details_have_its_episode_minutes_and_seasons(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("tv", "dark", [DARK])
    details = await make_client().title_details("tv", 70523, language="pt-BR", now_ms=0)
    assert details is not None
    assert (details.runtime_min, details.seasons, details.genres) == (55, 3, ("Drama", "Mistério"))
    assert details.providers == {}


async def test_where_a_title_streams_is_asked_once_a_day(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "duna", [DUNE_WITH_PROVIDERS])
    client = make_client()
    day = 24 * 3600 * 1000

    first = await client.watch_providers("movie", 438631, now_ms=0)
    again = await client.watch_providers("movie", 438631, now_ms=day - 1)
    assert first == again
    assert [r.path for r in fake.requests] == ["/3/movie/438631/watch/providers"]

    await client.watch_providers("movie", 438631, now_ms=day)
    assert len(fake.requests) == 2  # a day later it is asked again


async def test_a_title_tmdb_does_not_know_streams_nowhere(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    assert await make_client().watch_providers("tv", 1, now_ms=0) == {}
    assert await make_client().title_details("movie", 1, language="en-US", now_ms=0) is None


async def test_providers_come_in_tmdbs_display_order_and_bad_entries_are_left_out() -> None:
    from agent.services.tmdb import parse_providers

    body = {
        "id": 1,
        "results": {
            "BR": {
                "link": "https://www.themoviedb.org/movie/1/watch?locale=BR",
                "flatrate": [
                    {"provider_name": "Netflix", "provider_id": 8, "display_priority": 5},
                    {"provider_name": "Max", "provider_id": 1899, "display_priority": 1},
                    {"provider_name": "", "display_priority": 0},
                    "junk",
                ],
                "buy": "junk",
            },
            "not a country": {},
        },
    }
    found = parse_providers(body)
    assert list(found) == ["BR"]
    assert found["BR"].flatrate == ("Max", "Netflix")
    assert found["BR"].buy == ()
    with pytest.raises(ServiceError):
        parse_providers({"id": 1})


async def test_providers_while_tmdb_is_down_are_a_service_error(
    fake: FakeTmdb, make_client: MakeClient
) -> None:
    fake.add("movie", "duna", [DUNE_WITH_PROVIDERS])
    fake.status = 503
    with pytest.raises(ServiceUnavailable):
        await make_client(retries=0).watch_providers("movie", 438631, now_ms=0)
    not_configured = make_client(base_url="https://api.themoviedb.org/3")
    assert not not_configured.configured
    with pytest.raises(ServiceNotConfigured):
        await not_configured.watch_providers("movie", 438631, now_ms=0)
