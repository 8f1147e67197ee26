"""`/export [json|md|csv]`: the user's data as one attached file, written as it is read.

JSON is everything (items, messages, beliefs, reminders, and the assistant's notes and
bookmarks in `memories`) and is what `/import` reads back; Markdown is the items and reminders to read; CSV is the items, one a row, with
cells that a spreadsheet would run as a formula defused.

Items and messages are read a page at a time and written to a file as they come, each
page rendered off the event loop (issue 47): memory holds one page, whatever the list.
A small export is then read back and attached as bytes; a long one (`IN_PARTS` items or
more) is answered first ("preparando seu arquivo...") and sent from its file after.
"""

from __future__ import annotations

import asyncio
import csv
import json
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, TextIO

from agent.deps import Deps
from agent.texts import DONE_MARK, text, type_heading
from agent.types import Attachment, Language, Progress
from storage.documents import ITEM_TYPES, ItemDoc, MessageDoc, ReminderDoc, UserDoc

ExportFormat = Literal["json", "md", "csv"]
FORMAT_WORDS: dict[str, ExportFormat] = {
    "": "json",
    "json": "json",
    "md": "md",
    "markdown": "md",
    "csv": "csv",
}
CSV_COLUMNS = (
    "id",
    "type",
    "title",
    "year",
    "tmdb_id",
    "url",
    "description",
    "content",
    "saved_at",
    "state",  # DESIGN 11.5: to_see, seen, to_read, read, open, done
    "rating",
    "seen_at",  # when it was marked seen (read, done)
)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_KINDS: dict[ExportFormat, tuple[str, str]] = {
    "json": ("json", "application/json"),
    "md": ("md", "text/markdown"),
    "csv": ("csv", "text/csv"),
}
IN_PARTS: Final = 1_000  # items from which the file follows a first reply
PAGE: Final = 500  # items or messages read, rendered and written at once
KEEP_OUTGOING_S: Final = 24 * 3600  # a file not sent by then is removed at the next export


@dataclass(frozen=True, slots=True)
class Exported:
    attachment: Attachment
    items: int
    messages: int


def export_format(args: str) -> ExportFormat | None:
    """The format `/export <args>` asks for (JSON when none); None for an unknown word."""
    words = args.lower().split()
    return FORMAT_WORDS.get(words[0].lstrip(".") if words else "")


def in_parts(user: UserDoc) -> bool:
    """Whether the user's export is long enough to be announced before it is sent."""
    return sum(int(n) for n in user.counts.values()) >= IN_PARTS


async def export_file(
    deps: Deps,
    user: UserDoc,
    fmt: ExportFormat,
    *,
    now_ms: int,
    language: Language,
    progress: Progress | None = None,
    to_file: bool = False,
) -> Exported:
    """The export, written to a file page by page: kept there (`to_file`) or read back as bytes."""
    extension, mime_type = _KINDS[fmt]
    filename = f"lembra-export-{user.id.replace(':', '-')}.{extension}"
    folder = outgoing(deps.settings.data_dir)
    path = folder / f"{uuid.uuid4().hex[:12]}-{filename}"
    expected = sum(int(n) for n in user.counts.values())
    report = _Reporter(progress, expected)
    try:
        with path.open("w", encoding="utf-8", newline="") as out:
            if fmt == "json":
                items, messages = await _write_json(deps, user, out, now_ms, report)
            elif fmt == "csv":
                items, messages = await _write_csv(deps, user, out, report), 0
            else:
                items, messages = await _write_markdown(deps, user, out, language, report), 0
        if to_file:
            return Exported(Attachment(filename, mime_type, path=path), items, messages)
        data = await asyncio.to_thread(path.read_bytes)
        path.unlink(missing_ok=True)
        return Exported(Attachment(filename, mime_type, data), items, messages)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def outgoing(data_dir: Path) -> Path:
    """Where export files wait to be sent; files left there a day are removed."""
    folder = data_dir / "exports" / "outgoing"
    folder.mkdir(parents=True, exist_ok=True)
    cutoff = time.time() - KEEP_OUTGOING_S
    for old in folder.iterdir():
        try:
            if old.stat().st_mtime < cutoff:
                old.unlink()
        except OSError:
            continue  # removed by another process meanwhile
    return folder


class _Reporter:
    """Tells a channel's `Progress` how many items were written of how many."""

    def __init__(self, progress: Progress | None, expected: int) -> None:
        self._progress, self._expected, self.done = progress, expected, 0

    def add(self, count: int) -> None:
        self.done += count
        if self._progress is not None:
            self._progress(self.done, max(self.done, self._expected))


async def _item_pages(deps: Deps, user: UserDoc) -> Any:
    async for docs in deps.db.items.pages(user.id, page=PAGE, by_seq=True):
        yield docs


async def _off_loop(work: Callable[[], int]) -> int:
    return await asyncio.to_thread(work)


# -- JSON ---------------------------------------------------------------------------------


def _json(value: object, indent: str) -> str:
    """`value` as `json.dumps(document, indent=2)` writes it at this depth."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


class _JsonDocument:
    """One JSON object written key by key, lists element by element (as `indent=2` would)."""

    def __init__(self, out: TextIO) -> None:
        self._out, self._keys, self._listed = out, 0, 0

    def value(self, key: str, value: object) -> None:
        self._key(key)
        self._out.write(_json(value, "  "))

    def open_list(self, key: str) -> None:
        self._key(key)
        self._out.write("[")
        self._listed = 0

    def elements(self, values: Iterable[object]) -> int:
        written = 0
        for value in values:
            self._out.write(("\n" if self._listed == 0 else ",\n") + "    " + _json(value, "    "))
            self._listed += 1
            written += 1
        return written

    def close_list(self) -> None:
        self._out.write("\n  ]" if self._listed else "]")

    def close(self) -> None:
        self._out.write("\n}" if self._keys else "{}")

    def _key(self, key: str) -> None:
        self._out.write(("{\n" if self._keys == 0 else ",\n") + "  " + json.dumps(key) + ": ")
        self._keys += 1


async def _write_json(
    deps: Deps, user: UserDoc, out: TextIO, now_ms: int, report: _Reporter
) -> tuple[int, int]:
    db = deps.db
    document = _JsonDocument(out)
    document.value("format", "lembra-export/1")
    document.value("exported_at_ms", now_ms)
    document.value("user", user.model_dump(by_alias=True))
    document.open_list("items")
    items = 0
    async for docs in _item_pages(deps, user):

        def items_page(docs: list[dict[str, Any]] = docs) -> int:
            dumped = (_exported(ItemDoc.model_validate(d)) for d in docs)
            return document.elements(dumped)

        written = await _off_loop(items_page)
        items += written
        report.add(written)
    document.close_list()
    document.open_list("messages")
    messages = 0
    for conversation in await db.summaries.conversations(user.id):
        conv_id = str(conversation["_id"]).removeprefix("conv:")
        last = await db.messages.last_seq(user.id, conv_id)
        for first in range(1, last + 1, PAGE):
            page = await db.messages.range(user.id, conv_id, first, first + PAGE - 1)

            def messages_page(page: list[MessageDoc] = page) -> int:
                dumped = (m.model_dump(by_alias=True, exclude={"meta_json"}) for m in page)
                return document.elements(dumped)

            messages += await _off_loop(messages_page)
    document.close_list()
    document.value("beliefs", await db.beliefs.all(user.id))
    reminders = await db.reminders.for_user(user.id)
    document.value("reminders", [r.model_dump(by_alias=True) for r in reminders])
    memories = await db.memories.list_for(user.id)
    document.value("memories", [m.model_dump(by_alias=True) for m in memories])
    document.close()
    return items, messages


# -- CSV ----------------------------------------------------------------------------------


async def _write_csv(deps: Deps, user: UserDoc, out: TextIO, report: _Reporter) -> int:
    """One row per item under a header; formula-looking cells get a leading quote."""
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    items = 0
    async for docs in _item_pages(deps, user):

        def rows(docs: list[dict[str, Any]] = docs) -> int:
            for doc in docs:
                writer.writerow(csv_row(ItemDoc.model_validate(doc)))
            return len(docs)

        written = await _off_loop(rows)
        items += written
        report.add(written)
    return items


def csv_row(item: ItemDoc) -> list[str]:
    row = (
        item.id,
        item.type,
        item.title,
        item.year,
        item.tmdb_id,
        item.url,
        item.description,
        item.content,
        _iso(item.created_at_ms),
        item.current_state,
        item.rating,
        _iso(item.state_at_ms) if item.done and item.state_at_ms else None,
    )
    return [_cell(value) for value in row]


def _cell(value: object) -> str:
    if value is None:
        return ""
    text = str(value)
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


# -- Markdown -----------------------------------------------------------------------------


async def _write_markdown(
    deps: Deps, user: UserDoc, out: TextIO, language: Language, report: _Reporter
) -> int:
    """Items by type, then open reminders: each type's lines kept in a temporary file first."""
    sections = {t: tempfile.TemporaryFile("w+", encoding="utf-8") for t in ITEM_TYPES}
    counts = dict.fromkeys(ITEM_TYPES, 0)
    try:
        async for docs in _item_pages(deps, user):

            def lines(docs: list[dict[str, Any]] = docs) -> int:
                for doc in docs:
                    item = ItemDoc.model_validate(doc)
                    sections[item.type].write(f"\n- {_md_item(item, language)}")
                    counts[item.type] += 1
                return len(docs)

            report.add(await _off_loop(lines))
        out.write("# Lembra")
        for item_type, section in sections.items():
            if counts[item_type]:
                heading = type_heading(item_type, language)
                out.write(f"\n\n## {heading} ({counts[item_type]})\n")
                section.seek(0)
                await asyncio.to_thread(shutil.copyfileobj, section, out)
    finally:
        for section in sections.values():
            section.close()
    reminders = await deps.db.reminders.for_user(user.id)
    out.write(_md_reminders(reminders, language) + "\n")
    return sum(counts.values())


def _md_reminders(reminders: list[ReminderDoc], language: Language) -> str:
    open_ones = [r for r in reminders if r.state == "scheduled"]
    if not open_ones:
        return ""
    heading = "Lembretes" if language == "pt" else "Reminders"
    lines = ["", f"## {heading} ({len(open_ones)})", ""]
    lines += [f"- {_iso(r.due_at_ms)} {_md_escape(r.text)}" for r in open_ones]
    return "\n" + "\n".join(lines)


def _exported(item: ItemDoc) -> dict[str, object]:
    """An item as the JSON export holds it: its state written out (an item stored before
    states has its type's first), without what only this database needs."""
    record = item.model_dump(by_alias=True, exclude={"done_key", "watch", "words", "words_v"})
    record["state"] = item.current_state
    return record


def _md_item(item: ItemDoc, language: Language) -> str:
    if item.type == "note":
        label = _md_escape(item.content or "")
    else:
        label = _md_escape(item.title or item.url or "")
        if item.year:
            label += f" ({item.year})"
        if item.url:
            label = f"[{label}](<{item.url}>)"
    if not item.done:
        return label
    done = f" — {DONE_MARK} {text(f'state_{item.current_state}', language)}"  # DESIGN 11.5
    if item.state_at_ms:
        done += f" {_iso(item.state_at_ms)[:10]}"
    if item.rating is not None:
        done += f" · {item.rating}/10"
    return label + done


def _md_escape(value: str) -> str:
    """One line, with Markdown's link and emphasis characters taken literally."""
    flat = " ".join(value.split())
    return "".join(f"\\{c}" if c in "\\`*_[]<>#|" else c for c in flat)


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
