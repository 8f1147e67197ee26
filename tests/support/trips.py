"""Watching the database's round trips from a test, as an operator sees them.

The storage observer is what `/metrics` turns into `lembra_db_round_trip_seconds`;
`Trips` records each round trip by collection and operation.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from storage import Database
from tests.conftest import open_test_db
from tests.support.servers import RunningServer


class Trips:
    """Every round trip the database saw, by collection and operation."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def __call__(self, collection: str, operation: str, seconds: float) -> None:
        self.seen.append((collection, operation))

    def on(self, collection: str) -> list[str]:
        return [op for coll, op in self.seen if coll == collection]


@pytest.fixture
async def trips() -> Trips:
    return Trips()


@pytest.fixture
async def watched_db(nx_server: RunningServer, trips: Trips) -> AsyncIterator[Database]:
    db = await open_test_db(nx_server.uri, observer=trips)
    try:
        yield db
    finally:
        await db.drop()
        await db.close()
