"""`/export [json|md|csv]`: the user's data as one attached file.

JSON is everything (items, messages, beliefs, reminders, and the assistant's notes and
bookmarks in `memories`) and is what `/import` reads back; Markdown is the items and reminders to read; CSV is the items, one a row, with
cells that a spreadsheet would run as a formula defused.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from typing import Literal

from agent.deps import Deps
from agent.texts import DONE_MARK, text, type_heading
from agent.types import Attachment, Language
from storage.documents import ITEM_TYPES, ItemDoc, ReminderDoc, UserDoc

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


def export_format(args: str) -> ExportFormat | None:
    """The format `/export <args>` asks for (JSON when none); None for an unknown word."""
    words = args.lower().split()
    return FORMAT_WORDS.get(words[0].lstrip(".") if words else "")


async def export_file(
    deps: Deps, user: UserDoc, fmt: ExportFormat, *, now_ms: int, language: Language
) -> tuple[Attachment, int, int]:
    """The export attachment, with how many items and messages it holds."""
    db = deps.db
    items = await db.items.list_for(user.id)
    reminders = await db.reminders.for_user(user.id)
    name = f"lembra-export-{user.id.replace(':', '-')}"
    if fmt == "md":
        data = markdown(items, reminders, language).encode()
        return Attachment(f"{name}.md", "text/markdown", data), len(items), 0
    if fmt == "csv":
        return Attachment(f"{name}.csv", "text/csv", items_csv(items).encode()), len(items), 0
    messages = []
    for conversation in await db.summaries.conversations(user.id):
        conv_id = str(conversation["_id"]).removeprefix("conv:")
        last = await db.messages.last_seq(user.id, conv_id)
        messages += await db.messages.range(user.id, conv_id, 1, last)
    document = {
        "format": "lembra-export/1",
        "exported_at_ms": now_ms,
        "user": user.model_dump(by_alias=True),
        "items": [_exported(i) for i in items],
        "messages": [m.model_dump(by_alias=True, exclude={"meta_json"}) for m in messages],
        "beliefs": await db.beliefs.all(user.id),
        "reminders": [r.model_dump(by_alias=True) for r in reminders],
        "memories": [m.model_dump(by_alias=True) for m in await db.memories.list_for(user.id)],
    }
    data = json.dumps(document, ensure_ascii=False, indent=2).encode()
    return Attachment(f"{name}.json", "application/json", data), len(items), len(messages)


def _exported(item: ItemDoc) -> dict[str, object]:
    """An item as the JSON export holds it: its state written out (an item stored before
    states has its type's first), without what only this database needs."""
    record = item.model_dump(by_alias=True, exclude={"done_key", "watch", "words", "words_v"})
    record["state"] = item.current_state
    return record


def markdown(items: list[ItemDoc], reminders: list[ReminderDoc], language: Language) -> str:
    """Items by type, then open reminders, as a Markdown document."""
    lines = ["# Lembra"]
    for item_type in ITEM_TYPES:
        of_type = [i for i in items if i.type == item_type]
        if of_type:
            lines += ["", f"## {type_heading(item_type, language)} ({len(of_type)})", ""]
            lines += [f"- {_md_item(i, language)}" for i in of_type]
    open_ones = [r for r in reminders if r.state == "scheduled"]
    if open_ones:
        heading = "Lembretes" if language == "pt" else "Reminders"
        lines += ["", f"## {heading} ({len(open_ones)})", ""]
        lines += [f"- {_iso(r.due_at_ms)} {_md_escape(r.text)}" for r in open_ones]
    return "\n".join(lines) + "\n"


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


def items_csv(items: list[ItemDoc]) -> str:
    """One row per item under a header; formula-looking cells get a leading quote."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for item in items:
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
        writer.writerow([_cell(value) for value in row])
    return out.getvalue()


def _cell(value: object) -> str:
    if value is None:
        return ""
    text = str(value)
    return f"'{text}" if text.startswith(_FORMULA_STARTS) else text


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
