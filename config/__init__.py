"""Settings, the root error type and logging setup shared by every package.

`Settings` and `load_settings` are loaded on first use, so importing `config.version` or
`config.errors` (what `lembra --version` needs) does not load pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from config.errors import ConfigError, LembraError

if TYPE_CHECKING:
    from config.settings import Settings, load_settings

__all__ = ["ConfigError", "LembraError", "Settings", "load_settings"]


def __getattr__(name: str) -> Any:
    if name in ("Settings", "load_settings"):
        from config import settings

        return getattr(settings, name)
    raise AttributeError(f"module 'config' has no attribute {name!r}")
