"""Caveats that name the cause (DESIGN 9.2): TMDB not configured vs unavailable now.

Each cause has its own user text and a WARNING log line; an operator error (no key)
never tells the user to try again. (The model's causes are in the transcripts
model_key_rejected_operator_error, model_500_three_times_unavailable and
model_timeout_try_again.)
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from agent.texts import text
from storage import Database
from tests.support.harness import Lembra, open_lembra

RETRY_WORDS = ("tente de novo", "try again", "instantes")


@pytest.fixture
async def unconfigured(db: Database) -> AsyncIterator[Lembra]:
    # the public TMDB host with no key: the client knows TMDB would refuse, and asks nothing
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as running:
        yield running


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


async def test_tmdb_not_configured_says_so_and_saves_without_details(
    unconfigured: Lembra, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)

    reply = await unconfigured.say("salva o filme inception")

    assert text("caveat_tmdb_not_configured", "pt") in reply.text
    assert "TMDB_API_KEY" in reply.text
    assert not any(word in reply.text.lower() for word in RETRY_WORDS)
    assert reply.meta.state == "PARTIAL"
    assert [i.title for i in await unconfigured.items()] == ["inception"]
    # one warning line per save, naming the cause (issue 45: there were two)
    assert warnings(caplog) == ["tmdb_caveat"]
    (caveat,) = [r for r in caplog.records if r.getMessage() == "tmdb_caveat"]
    assert "not_configured" in str(vars(caveat))


async def test_a_lookup_without_tmdb_configured_never_says_try_again(
    unconfigured: Lembra,
) -> None:
    reply = await unconfigured.say("filme inception")

    assert "TMDB_API_KEY" in reply.text
    assert not any(word in reply.text.lower() for word in RETRY_WORDS)
    assert await unconfigured.items() == []
    # a typed title alone, with nothing to look it up in, is offered as written (issue 41)
    assert "inception" in reply.text
    await unconfigured.say("sim")
    assert [(i.type, i.title) for i in await unconfigured.items()] == [("movie", "inception")]


async def test_tmdb_unavailable_now_is_a_different_caveat(
    lembra: Lembra, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    lembra.tmdb.status = 503

    reply = await lembra.say("salva o filme inception")

    assert text("caveat_tmdb_unavailable", "pt") in reply.text
    assert "TMDB_API_KEY" not in reply.text
    assert reply.meta.state == "PARTIAL"
    assert any("tmdb_unavailable" in m for m in warnings(caplog))
