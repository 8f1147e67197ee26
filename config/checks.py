"""What a setting's value must look like, and the one line a bad value gets (issue 34).

The checks run as pydantic validators of `Settings`, so every command refuses a bad
value at start, before opening anything: one line per bad variable naming it, what
is wrong with the value and a correct example, and `lembra` exits with status 2.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails

NAMESPACES = ("tg", "wa", "cli")
IDS_EXAMPLE = "tg:123456789,wa:5511999990000"
# A correct value for the settings whose default shows none (the others show their default).
EXAMPLES = {
    "admin_user_ids": IDS_EXAMPLE,
    "allowed_user_ids": IDS_EXAMPLE,
    "openai_base_url": "http://127.0.0.1:11434/v1",
    "telegram_webhook_url": "https://bot.example.com/telegram/webhook",
    "telegram_file_base_url": "https://api.telegram.org/file/bot",
    "transcribe_base_url": "http://127.0.0.1:8000/v1",
    "transcribe_model_dir": "/srv/lembra/whisper-base",
}
# Telegram user ids are positive integers; WhatsApp ids are phone numbers in digits.
_ID = re.compile(r"^(?:tg:[1-9]\d{0,19}|wa:[1-9]\d{5,19}|cli:[^\s,:]+)$")
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})
_USERINFO = re.compile(r"(?<=://)[^/@\s]*@")  # "user:password@" in a URL


def namespaced_ids(value: str) -> str:
    """`value` when every comma-separated id is namespaced (`tg:123`, `wa:5511...`, `cli:alice`)."""
    for part in (p.strip() for p in value.split(",")):
        if part and not _ID.match(part):
            raise ValueError(_id_problem(part))
    return value


def id_set(value: str) -> frozenset[str]:
    """The ids of a comma-separated list, trimmed, empty entries dropped."""
    return frozenset(part.strip() for part in value.split(",") if part.strip())


def _id_problem(part: str) -> str:
    namespace, sep, local = part.partition(":")
    if not sep:
        if part.isdigit():
            return (
                f"{part} has no namespace, so it matches nobody: write tg:{part} for a "
                f"Telegram user or wa:{part} for a WhatsApp number"
            )
        return f"{part!r} is not a namespaced id (tg:<Telegram user id>, wa:<phone digits>)"
    if namespace not in NAMESPACES:
        return f"{part!r} has an unknown namespace {namespace!r}: use tg:, wa: or cli:"
    if namespace == "cli":
        return f"{part!r}: a console id is cli: and a name without spaces, commas or colons"
    kind = "a Telegram user id" if namespace == "tg" else "a WhatsApp number"
    return f"{part!r}: {kind} after {namespace}: is digits only (got {local!r})"


def is_loopback_host(host: str) -> bool:
    """Whether `host` names this machine (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_url(value: str, *, https_outside_loopback: bool = False) -> str:
    """`value` when it is an absolute http(s) URL with a host (and https unless on loopback)."""
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not 0-65535
    except ValueError as exc:
        raise ValueError(f"not a URL ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("not an http:// or https:// URL with a host name")
    if https_outside_loopback and parts.scheme != "https" and not is_loopback_host(parts.hostname):
        raise ValueError(
            "must be an https URL (plain http only on loopback): the platform "
            "refuses to deliver to http"
        )
    return value.strip()


def describe_errors(errors: list[ErrorDetails], fields: Mapping[str, FieldInfo]) -> str:
    """One line per bad variable: its name, the value (never a secret's), the problem, an example."""
    lines: list[str] = []
    for err in errors:
        name = ".".join(str(p) for p in err["loc"])
        message = str(err["msg"]).removeprefix("Value error, ")
        if not name:  # a check across settings: its message names them and gives the example
            lines.append(message)
            continue
        field = fields.get(name)
        variable = name.upper()
        shown = _shown(field, err.get("input"))
        line = f"{variable}{'=' + shown if shown else ''}: {message[:1].lower()}{message[1:]}"
        example = EXAMPLES.get(name) or _example(field)
        if example is not None:
            line += f" (for example {variable}={example})"
        if line not in lines:
            lines.append(line)
    return "\n".join(lines)


def _shown(field: FieldInfo | None, value: Any) -> str:
    """The bad value as given, unless the field holds a secret or the value is not a plain one."""
    if field is None or "SecretStr" in repr(field.annotation) or isinstance(value, SecretStr):
        return ""
    if isinstance(value, str | int | float):
        return repr(_USERINFO.sub("***@", str(value)))[:80]  # a URL's password stays out
    return ""


def _example(field: FieldInfo | None) -> str | None:
    if field is None:
        return None
    extra = field.json_schema_extra
    if isinstance(extra, dict) and isinstance(extra.get("example"), str):
        return str(extra["example"])
    if field.default in (None, "") or isinstance(field.default, SecretStr):
        return None
    return str(field.default)
