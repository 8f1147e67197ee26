"""The version of the installed `lembra` package, for `--version`, logs and metrics."""

from __future__ import annotations

from functools import cache
from importlib.metadata import PackageNotFoundError, version

UNKNOWN = "0+unknown"


@cache
def lembra_version() -> str:
    """Return the installed distribution's version, or `0+unknown` when run from a bare tree."""
    try:
        return version("lembra")
    except PackageNotFoundError:
        return UNKNOWN
