"""Fixtures shared by the agent tests that watch the database's round trips."""

from tests.support.trips import trips, watched_db

__all__ = ["trips", "watched_db"]
