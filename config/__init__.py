"""Settings, the root error type and logging setup shared by every package."""

from config.errors import ConfigError, LembraError
from config.settings import Settings, load_settings

__all__ = ["ConfigError", "LembraError", "Settings", "load_settings"]
