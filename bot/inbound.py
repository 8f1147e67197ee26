"""What both channels' normalizers share: reading a webhook body, cleaning the text in it,
the two ways an update is not handled, and the language a platform's hints give.

A well-signed update is never answered with an error because of what is in it (DESIGN
10.4): the platform would deliver it again and hold back the bot's later updates. So a
normalizer never raises. It returns an `Incoming`, `Ignored` (a kind the bot does not
handle: acknowledged, one log line) or `Rejected` (fields of the wrong type: acknowledged,
logged once as `update_rejected` with the field and the problem, never the value).

Payloads are validated with pydantic models of only the fields the code reads, so a
field added or changed elsewhere in a platform's shape cannot refuse an update. Fields
that only decorate a message (a name, a language code, a link's URL) are read leniently:
a wrong type there reads as absent instead of refusing the message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError, WrapValidator
from pydantic_core import PydanticUseDefault

from agent.boundedjson import TooDeep, check_depth
from agent.errors import ServiceUnavailable
from agent.types import Fetch, Language
from agent.understanding.textnorm import without_surrogates

T = TypeVar("T")

# Calling codes of the countries where Portuguese is an official language: a WhatsApp
# number says where its owner lives, which is a hint (never more) of the language.
PORTUGUESE_CALLING_CODES = ("55", "351", "244", "258", "238", "245", "239", "670", "853")


@dataclass(frozen=True, slots=True)
class Ignored:
    """Acknowledged and not handled: a kind the bot does not answer (service message, status...)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Rejected:
    """Acknowledged and dropped: a field the code reads has the wrong shape (no value, ever)."""

    reason: str


class FileSource(Protocol):
    """Where a channel's files come from: the download of one file id, done only when called."""

    def fetcher(self, file_id: str) -> Fetch:
        """The function that downloads `file_id` (nothing is fetched until it is called)."""
        ...


class NoFiles:
    """A normalizer with no channel behind it (benches, property tests): nothing downloads."""

    def fetcher(self, file_id: str) -> Fetch:
        async def fetch(limit: int) -> bytes:
            raise ServiceUnavailable("no channel to download files from")

        return fetch


NO_FILES = NoFiles()


class NotJson(ValueError):
    """The body is not a JSON document at all (the only body a webhook answers with 400)."""


TOO_DEEP = Rejected("body: nested too deep")


def read_body(body: bytes) -> Any:
    """The JSON value of a webhook body; NotJson when it is not JSON (or not UTF-8).

    A body nested deeper than the guard allows reads as `TOO_DEEP`: it may be JSON, just
    not an update anyone sends, so it is rejected with a 200 like any other malformed one.
    """
    try:
        check_depth(body)  # before parsing: json recurses per level (RecursionError)
    except TooDeep:
        return TOO_DEEP
    try:
        return json.loads(body.decode("utf-8"), parse_int=_integer)
    except (UnicodeDecodeError, ValueError):
        raise NotJson("not a JSON body") from None


def _integer(digits: str) -> int | float:
    """A JSON integer; one too long for Python's int() (over 4,300 digits) reads as a float."""
    return int(digits) if len(digits) <= 4000 else float(digits)


def clean(text: str) -> str:
    """`text` with every lone surrogate (`"\\ud800"` from a JSON escape) replaced by U+FFFD.

    Python keeps such code points from `json.loads`; nothing downstream can encode them
    (UTF-8, UTF-16, BSON), so they are replaced once, at the edge.
    """
    return without_surrogates(text)


def _lenient(value: Any, handler: Callable[[Any], Any]) -> Any:
    try:
        return handler(value)
    except ValidationError:
        raise PydanticUseDefault() from None


def _kept(value: Any, handler: Callable[[Any], Any]) -> Any:
    """A list with the elements that do not validate left out (a non-list: empty)."""
    if not isinstance(value, list):
        raise PydanticUseDefault()
    kept = []
    for element in value:
        try:
            kept.extend(handler([element]))
        except ValidationError:
            continue
    return kept


# A string read from a payload: lone surrogates replaced.
Text = Annotated[str, AfterValidator(clean)]
# A decorating field: the wrong type reads as the field's default.
Lenient = WrapValidator(_lenient)
# A list of decorating elements: the ones of the wrong shape are left out.
Kept = WrapValidator(_kept)


class Payload(BaseModel):
    """A platform payload: only the fields the code reads; others are ignored."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


def problem(exc: ValidationError) -> str:
    """`message.text: string_type`: where and what, never the value itself."""
    first = exc.errors(include_input=False, include_url=False, include_context=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    return f"{where}: {first['type']}"


def validated(model: type[T], data: Any) -> T | Rejected:
    """`data` as `model`, or Rejected naming the first field that is wrong."""
    try:
        return model.model_validate(data)  # type: ignore[attr-defined, no-any-return]
    except ValidationError as exc:
        return Rejected(problem(exc))


def language_hint(code: str | None) -> Language | None:
    """A platform's language code as a hint: "pt-br" -> pt, "en-GB" -> en, anything else None.

    None is not Portuguese: the message's own words decide, then DEFAULT_LANGUAGE.
    """
    code = (code or "").strip().lower()
    if code.startswith("pt"):
        return "pt"
    if code.startswith("en"):
        return "en"
    return None


def phone_language(number: str) -> Language | None:
    """pt for a number in a Portuguese-speaking country, else None (the words decide)."""
    digits = number.lstrip("+")
    return "pt" if digits.startswith(PORTUGUESE_CALLING_CODES) else None
