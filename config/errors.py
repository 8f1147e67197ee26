"""The root of Lembra's error tree.

    LembraError                      anything Lembra raises on purpose
    ├── ConfigError                  a setting is missing or invalid for the chosen command
    ├── storage.errors.StorageError  the database failed (see storage/errors.py)
    └── agent.errors.AgentError      runtime, planner, tool and channel failures (agent/errors.py)

Third-party exceptions are translated into this tree at the adapter that called the
library, so a user never sees a driver traceback and callers can branch on type.
"""


class LembraError(Exception):
    """Base class of every error Lembra raises on purpose."""


class ConfigError(LembraError):
    """A required setting is missing or a value is invalid; the message names it."""
