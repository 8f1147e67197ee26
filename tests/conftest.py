"""Shared fixtures: the loopback guard, database servers and a fresh database per test."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import settings

from agent.tools.candidates import word_source
from storage import Database
from storage.database import make_client
from tests.support.netguard import loopback_only
from tests.support.servers import RunningServer, start_nx, start_secantus

REAL_MONGODB_URI = os.environ.get("LEMBRA_TEST_MONGODB_URI")

# Property tests assert what a reader does, never how fast: Hypothesis's default 200 ms deadline
# per example fails on a busy shared machine (speed lives in bench/).
settings.register_profile("lembra", deadline=None)
settings.load_profile("lembra")


@pytest.fixture(autouse=True)
def _loopback_only() -> Iterator[None]:
    with loopback_only():
        yield


@pytest.fixture(scope="session")
def nx_server() -> Iterator[RunningServer]:
    server = start_nx()
    yield server
    server.close()


@pytest.fixture(scope="session")
def secantus_server() -> Iterator[RunningServer]:
    server = start_secantus()
    yield server
    server.close()


async def open_test_db(uri: str, **options: Any) -> Database:
    """A fresh database on `uri` (`options`: the Database's own, e.g. `observer`, `signer`).

    Items are indexed by the agent's word function, as `open_storage` does it.
    """
    options.setdefault("words", word_source())
    db = Database(make_client(uri, timeout_ms=5_000), f"t_{uuid.uuid4().hex[:12]}", **options)
    await db.ensure_indexes()
    await db.items.catch_up()
    return db


@pytest.fixture
async def db(nx_server: RunningServer) -> AsyncIterator[Database]:
    """A fresh database on the shared in-memory embedded server."""
    database = await open_test_db(nx_server.uri)
    try:
        yield database
    finally:
        await database.drop()
        await database.close()


BACKENDS = ["nx-27017", "secantusdb"] + (["mongodb"] if REAL_MONGODB_URI else [])


@pytest.fixture(params=BACKENDS)
async def any_db(request: pytest.FixtureRequest) -> AsyncIterator[Database]:
    """A fresh database on each available backend (the storage contract runs on all)."""
    if request.param == "mongodb":
        uri = REAL_MONGODB_URI
        assert uri is not None
    elif request.param == "secantusdb":
        uri = request.getfixturevalue("secantus_server").uri
    else:
        uri = request.getfixturevalue("nx_server").uri
    database = await open_test_db(uri)
    try:
        yield database
    finally:
        await database.drop()
        await database.close()
