"""Structured logging: one JSON object a line, never secrets or message text.

Call `log_event(logger, "event_name", field=value, ...)`. Fields whose names suggest
secrets or user content are replaced by a marker before formatting, so a careless
call site cannot leak them. Tracebacks keep exception types and frames but only the
messages of Lembra's own errors: a library's message can quote user text (pydantic's
`input_value`) or a URL carrying a bot token.

`LOG_FORMAT` picks the form (DESIGN 10.4): `json` for machines (`lembra serve`'s
default), `text` for a person at a terminal (every other command's default): one short
line per warning or error, `lembra: warning: tmdb unavailable (status 503)`, the same
fields scrubbed the same way, no traceback.
"""

from __future__ import annotations

import json
import logging
import sys
import time
import traceback
from types import TracebackType
from typing import Any, Literal

from config.errors import LembraError

_REDACTED = "[redacted]"
_SENSITIVE_PARTS = ("token", "secret", "password", "authorization", "api_key", "apikey")
_CONTENT_KEYS = frozenset({"text", "content", "message", "body", "title", "query", "reply", "args"})
_FIELDS_ATTR = "lembra_fields"


def _is_sensitive(key: str) -> bool:
    lowered = key.lower()
    if lowered in _CONTENT_KEYS:
        return True
    return any(part in lowered for part in _SENSITIVE_PARTS)


def _chain(exc: BaseException) -> list[BaseException]:
    """`exc` and the exceptions it was raised from or during, oldest first."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ or (
            None if current.__suppress_context__ else current.__context__
        )
    return chain[::-1]


def safe_traceback(exc: BaseException, tb: TracebackType | None = None) -> str:
    """A traceback whose foreign exception messages are withheld (see the module docstring)."""
    lines: list[str] = []
    for n, error in enumerate(_chain(exc)):
        if n:
            lines.append("The above exception led to:")
        lines.append("Traceback (most recent call last):")
        frames = traceback.extract_tb(
            tb if error is exc and tb is not None else error.__traceback__
        )
        for frame in frames:
            lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
            if frame.line:
                lines.append(f"    {frame.line}")
        kind = type(error)
        name = (
            kind.__qualname__
            if kind.__module__ == "builtins"
            else f"{kind.__module__}.{kind.__qualname__}"
        )
        message = str(error) if isinstance(error, LembraError) else "[message withheld]"
        lines.append(f"{name}: {message}")
    return "\n".join(lines)


def scrub(fields: dict[str, Any]) -> dict[str, Any]:
    """Return `fields` with sensitive or content-bearing values replaced."""
    return {key: (_REDACTED if _is_sensitive(key) else value) for key, value in fields.items()}


class JsonFormatter(logging.Formatter):
    """Format a record as one JSON line: ts, level, logger, event and scrubbed fields."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        payload.update(scrub(getattr(record, _FIELDS_ATTR, {})))
        if record.exc_info and record.exc_info[0] is not None:
            payload["error_type"] = record.exc_info[0].__name__
            payload["traceback"] = safe_traceback(record.exc_info[1], record.exc_info[2])
        return json.dumps(payload, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Format a record as one line for a person: `lembra: warning: event words (field value)`."""

    def format(self, record: logging.LogRecord) -> str:
        fields = scrub(getattr(record, _FIELDS_ATTR, {}))
        details = ", ".join(
            f"{key.replace('_', ' ')} {value}" for key, value in fields.items() if value is not None
        )
        line = f"lembra: {record.levelname.lower()}: {record.getMessage().replace('_', ' ')}"
        if details:
            line += f" ({details})"
        if record.exc_info and record.exc_info[0] is not None:
            line += f" [{record.exc_info[0].__name__}]"
        return " ".join(line.split())  # one line, whatever a field held


LogFormat = Literal["json", "text"]


def setup_logging(level: str = "INFO", *, stream: Any = None, form: LogFormat = "json") -> None:
    """Route every logger through one handler on stderr, JSON or text lines (idempotent)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_lembra", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if form == "json" else TextFormatter())
    handler._lembra = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    # Third-party libraries log request URLs, which can carry bot tokens, and a line per
    # request besides (the openai SDK's client is httpx2, a fork logging under its own name).
    noisy = ("httpx", "httpcore", "httpx2", "httpcore2", "openai", "telegram", "aiohttp.access")
    for name in (*noisy, "pymongo"):
        logging.getLogger(name).setLevel(logging.WARNING)


def log_event(
    logger: logging.Logger,
    event: str,
    *,
    level: int = logging.INFO,
    exc_info: bool | BaseException = False,
    **fields: Any,
) -> None:
    """Log `event` with structured `fields` (scrubbed when formatted).

    `exc_info`: True for the exception being handled, or an exception object (one a
    framework hands over outside its `except`, as PTB's error handlers get it).
    """
    if logger.isEnabledFor(level):
        logger.log(level, event, exc_info=exc_info, extra={_FIELDS_ATTR: fields})
