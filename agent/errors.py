"""The agent's error tree (rooted at config.errors.LembraError).

    LembraError
    ├── ConfigError
    ├── StorageError ─ DatabaseUnavailable, DuplicateKey, EmbeddedServerError
    └── AgentError
        ├── ServiceError         an outside HTTP service failed (TMDB, a linked page)
        │   ├── ServiceUnavailable   timeout, 5xx, connection refused: "retry later"
        │   ├── ServiceNotConfigured no key, or the key refused: the operator's to fix
        │   └── FileTooLarge         a file a user sent is larger than we take: not downloaded
        ├── PlannerError         the model could not be used for this turn
        │   ├── PlannerTimeout       the request timed out (not retried within the turn)
        │   ├── PlannerUnavailable   429/5xx/connection after the transport retries
        │   │   └── PlannerKeyRejected   the credentials refused (401/403): the operator's to fix
        │   └── PlannerRejected      the server refused the request (HTTP 400: invalid or too large)
        └── QuotaExceeded        the user's or the global daily token budget is spent

Model output that fails validation is not an exception: it is data (a refusal sent
back to the model), see agent/planner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from config.errors import LembraError

ErrorCategory = Literal["validation", "not_found", "conflict", "unavailable", "forbidden", "limit"]
Remediation = Literal["retry", "rephrase", "choose", "none", "contact_admin"]


@dataclass(frozen=True, slots=True)
class ToolFailure:
    """A structured error: `{code, category, message, remediation}` (DESIGN 3.2)."""

    code: str
    category: ErrorCategory
    message: str
    remediation: Remediation = "none"
    reason: str = ""  # a short code the runtime localizes (e.g. "credentials", "private")

    def to_json(self) -> dict[str, str]:
        return {
            "code": self.code,
            "category": self.category,
            "message": self.message,
            "remediation": self.remediation,
        }


class AgentError(LembraError):
    """Base of runtime, planner, tool and service failures."""


class ServiceError(AgentError):
    """An outside service answered with something we cannot use."""


class ServiceUnavailable(ServiceError):
    """An outside service timed out, refused the connection or answered 5xx."""


class ServiceNotConfigured(ServiceError):
    """An outside service has no key configured, or refused it: retrying cannot help."""


class FileTooLarge(ServiceError):
    """A file a user sent is larger than the caller takes: not downloaded, or not further."""


class PlannerError(AgentError):
    """The model could not be used for this turn."""

    attempts: int = 1  # HTTP requests made before giving up (set by the transport)


class PlannerTimeout(PlannerError):
    pass


class PlannerUnavailable(PlannerError):
    pass


class PlannerRejected(PlannerError):
    pass


class PlannerKeyRejected(PlannerUnavailable):
    """The model server refused the credentials (HTTP 401/403): an operator error."""


class QuotaExceeded(AgentError):
    def __init__(self, scope: Literal["user", "global"]) -> None:
        super().__init__(f"{scope} daily token quota exceeded")
        self.scope = scope
