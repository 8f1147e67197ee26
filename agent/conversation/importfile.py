"""A file sent to `/import` (a Telegram document): checked, downloaded, read, then previewed.

    not .json/.txt/.csv (by name or type)     a clear reply; nothing downloaded
    announced larger than MAX_FILE_BYTES      a clear reply; nothing downloaded
    larger as it streams / download failed    a clear reply ("send it again" only when it can help)
    not text (a binary, a damaged file)       a clear reply
    .json                                     Lembra's export, read as `/import` reads it
    .csv with the header `/export csv` writes its rows read as the export's records
    any other .csv (`,`, `;` or tabs)         one entry a row: its first link, else its first cell
    .txt                                      one link or title a line

Reading (decoding, parsing) runs off the event loop, and stops where `/import` stops
(past its item limit): a 1.5 MB file never stalls other chats (bench/imports.py).
Then `/import`'s preview (agent/conversation/importing.py): nothing is saved before "sim".
The file itself is never stored, and neither its name nor its content is logged.
"""

from __future__ import annotations

import asyncio
import codecs
import csv
import io
import itertools
import logging
import re
from collections.abc import Iterator
from typing import Any, Literal

from agent.conversation import importing
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.errors import FileTooLarge, ServiceError, ServiceUnavailable
from agent.texts import text
from agent.types import Document, Reply
from agent.understanding.urls import InvalidUrl, parse_user_url
from config.logging import log_event

log = logging.getLogger("lembra.import")

MAX_FILE_MB = 2
MAX_FILE_BYTES = MAX_FILE_MB * 1024 * 1024  # a 500-item export with overviews fits
FileKind = Literal["json", "csv", "txt"]
FILE_KINDS: tuple[FileKind, ...] = ("json", "csv", "txt")
_CSV_MIME_TYPES = frozenset({"text/csv", "text/comma-separated-values", "text/x-csv"})
# `/export csv`'s columns that say a file is Lembra's own export
_EXPORT_HEADER = frozenset({"type", "title", "url", "content"})
# a first row made only of these is a generic list's header, not an entry
_HEADER_WORDS = frozenset(
    {"title", "titulo", "título", "name", "nome", "url", "link", "links", "type", "tipo", "note"}
)
# the control characters (category Cc) text files do not hold: a binary's bytes
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # the cells `/export csv` defused with a '


async def preview(deps: Deps, turn: Turn, document: Document) -> Reply:
    """What `/import` would add from `document`, held for a "sim"; or why nothing can be."""
    lang = turn.language
    kind = file_kind(document)
    if kind is None:
        return _refused(turn, "type", text("import_file_type", lang))
    limit = (
        MAX_FILE_BYTES if document.max_bytes is None else min(MAX_FILE_BYTES, document.max_bytes)
    )
    too_large = text("import_file_too_large", lang, limit=MAX_FILE_MB)
    if document.size is not None and document.size > limit:
        return _refused(turn, "too_large", too_large)
    try:
        data = await document.fetch(limit)
    except FileTooLarge:
        return _refused(turn, "too_large", too_large)
    except ServiceUnavailable:
        return _refused(turn, "unavailable", text("import_file_unavailable", lang))
    except ServiceError:
        return _refused(turn, "download_refused", text("import_file_unreadable", lang))
    # decoding and reading a file of up to 2 MB takes long enough to stall every other chat:
    # it runs off the event loop (issue 46), bounded in what it reads (importing.py)
    read = await asyncio.to_thread(read_document, kind, data)
    if read == "import_file_unreadable":
        return _refused(turn, "not_text", text("import_file_unreadable", lang))
    return await importing.preview_read(deps, turn, read)


def read_document(kind: FileKind, data: bytes) -> importing.ImportRead | str:
    """A downloaded file's entries, or the text key saying why nothing can be imported."""
    content = decoded(data)
    if content is None:
        return "import_file_unreadable"
    read = read_file(kind, content)
    if read in ("import_usage", "import_nothing_valid") and not content.strip():
        return "import_file_empty"
    return read


def file_kind(document: Document) -> FileKind | None:
    """How the file is read: by its name's extension, else by its type; None when not importable."""
    if not document.importable:
        return None
    for kind in FILE_KINDS:
        if document.suffix == f".{kind}":
            return kind
    mime = document.mime_type.split(";", 1)[0].strip().lower()
    if mime == "application/json":
        return "json"
    return "csv" if mime in _CSV_MIME_TYPES else "txt"


def decoded(data: bytes) -> str | None:
    """The file's text (UTF-8, UTF-16 with its mark, or Windows-1252), None when it is not text."""
    try:
        if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            content = data.decode("utf-16")
        else:
            try:
                content = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                content = data.decode("cp1252")  # Excel's CSVs on Windows
    except UnicodeDecodeError:
        return None
    if _CONTROL.search(content):
        return None  # a binary file that happened to decode
    return content


def read_file(kind: FileKind, content: str) -> importing.ImportRead | str:
    """The entries of a file's text, or the text key saying why nothing can be imported."""
    if kind == "json" and content.strip() and not content.lstrip().startswith("{"):
        return "import_not_export"
    if kind != "csv":
        return importing.read_import(content)
    rows = _csv_rows(content)
    try:
        first = next(rows, None)
        if first is None:
            return "import_nothing_valid"
        header = [cell.strip().lower() for cell in first]
        if _EXPORT_HEADER <= set(header):
            return importing.read_records(_record(header, row) for row in rows)
        if not all(cell in _HEADER_WORDS for cell in header if cell):
            rows = itertools.chain([first], rows)  # no header: the first row is an entry
        return importing.read_lines(_row_line(row) for row in rows)
    except csv.Error as exc:
        # a cell over the csv module's field limit (128 kB) is far over an item's
        return "import_cell_too_long" if "field larger" in str(exc) else "import_file_unreadable"


def _csv_rows(content: str) -> Iterator[list[str]]:
    """The non-empty rows, read lazily: reading stops where the import does (too many items)."""
    try:
        dialect: Any = csv.Sniffer().sniff(content[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # one column, or nothing to tell by: commas
    return (row for row in csv.reader(io.StringIO(content), dialect) if any(c.strip() for c in row))


def _record(header: list[str], row: list[str]) -> dict[str, Any]:
    """One `/export csv` row as the JSON export's record (empty cells absent, defusing undone)."""
    record: dict[str, Any] = {}
    for name, cell in zip(header, row, strict=False):
        value = cell[1:] if cell.startswith("'") and cell[1:].startswith(_FORMULA_STARTS) else cell
        if value.strip():
            record["_id" if name == "id" else name] = value.strip()
    return record


def _row_line(row: list[str]) -> str:
    """A generic list's row as one line: its first link, else its first non-empty cell."""
    cells = [" ".join(cell.split()) for cell in row if cell.strip()]
    for cell in cells:
        try:
            return parse_user_url(cell).url
        except InvalidUrl:
            continue
    return cells[0] if cells else ""


def _refused(turn: Turn, reason: str, body: str) -> Reply:
    log_event(log, "import_file_refused", reason=reason, user_id=turn.user_id)
    return finish(turn, body, kind="deterministic")
