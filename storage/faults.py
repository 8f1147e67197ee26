"""Named points right after each database write where a test can stop everything, as a kill -9 would.

The hook runs after the server acknowledged the write: raising `Killed` (a
`BaseException`, so no `except Exception` handler catches it) leaves the database
exactly as a process killed at that instant would, and nothing after it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


class Killed(BaseException):  # noqa: N818 - it names what happened to the process
    """The process is gone at this point; nothing after it runs."""


@dataclass
class FaultPoints:
    """The one hook of a `Database`; None (the default) costs one attribute read a write."""

    hook: Callable[[str], None] | None = None

    def after_write(self, point: str) -> None:
        """Call the hook with `point` (`"<collection>.<operation>"`), if one is set."""
        if self.hook is not None:
            self.hook(point)
