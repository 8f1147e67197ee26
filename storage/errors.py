"""Storage errors: every pymongo failure is translated here, nowhere else.

StorageError             the database refused or failed an operation
├── DatabaseUnavailable  it cannot be reached now (callers answer "try again")
├── DuplicateKey         a unique index refused a write (dedup, lease, ledger seq)
└── EmbeddedServerError  the embedded server could not start (the message says how to fix it)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pymongo import errors as mongo_errors

from config.errors import LembraError


class StorageError(LembraError):
    """The database refused or failed an operation."""


class DatabaseUnavailable(StorageError):
    """The database cannot be reached right now; retrying later may work."""


class DuplicateKey(StorageError):
    """A unique index refused the write."""


class EmbeddedServerError(StorageError):
    """The embedded MongoDB-compatible server could not be started or reached."""


@contextmanager
def translated(operation: str) -> Iterator[None]:
    """Turn pymongo exceptions raised inside the block into storage errors."""
    try:
        yield
    except mongo_errors.DuplicateKeyError as exc:
        raise DuplicateKey(f"{operation}: duplicate key") from exc
    except mongo_errors.BulkWriteError as exc:
        codes = {err.get("code") for err in exc.details.get("writeErrors", [])}
        if codes == {11000}:
            raise DuplicateKey(f"{operation}: duplicate key") from exc
        raise StorageError(f"{operation}: bulk write failed") from exc
    except (
        mongo_errors.ConnectionFailure,
        mongo_errors.ServerSelectionTimeoutError,
        mongo_errors.NetworkTimeout,
        mongo_errors.ExecutionTimeout,
        mongo_errors.WTimeoutError,
    ) as exc:
        raise DatabaseUnavailable(f"{operation}: database unavailable") from exc
    except mongo_errors.PyMongoError as exc:
        raise StorageError(f"{operation}: {type(exc).__name__}") from exc
    except OSError as exc:
        raise DatabaseUnavailable(f"{operation}: database unavailable") from exc
