"""`/import`: items from Lembra's own JSON export or from a plain list (one URL or title a
line), shown as a preview and saved only after "sim" (a pending confirmation).

Every entry goes through the one function that stores items, so dedup keys hold: what
the user already has, or what appears twice, is counted and skipped. A title that is
not a link is kept as a note: a bare line says nothing reliable about being a film.
An export's `memories` (the assistant's facts and bookmarks) come back through the
`remember` and `bookmark` tools, each bookmark pointing at its item as imported.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from agent.conversation import pending as pendings
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, items_word, plural, text
from agent.tools.base import Remembered, Saved, ToolContext
from agent.tools.remembering import BookmarkArgs, RememberArgs, bookmark, remember
from agent.tools.saving import dedup_key, store_item
from agent.types import Reply
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.urls import InvalidUrl, is_video_url, parse_user_url
from storage.documents import DONE_STATE, ITEM_TYPES, ItemType

EXPORT_FORMAT = "lembra-export/1"
MAX_ENTRIES = 500
_COMMAND = re.compile(r"^\s*/import(?:@\w+)?", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•]\s+|\d{1,4}[.)]\s+)")


@dataclass(frozen=True, slots=True)
class ImportRead:
    entries: tuple[pendings.ImportEntry, ...]
    invalid: int  # lines or records that could not become an item
    memories: tuple[pendings.ImportMemory, ...] = ()


def import_body(message: str) -> str:
    """What follows `/import` in the message (newlines kept)."""
    return _COMMAND.sub("", message, count=1).strip()


def read_import(raw: str) -> ImportRead | str:
    """The entries in `raw`, or the text key saying why nothing can be imported."""
    if not raw.strip():
        return "import_usage"
    if raw.lstrip().startswith("{"):
        read = _read_export(raw)
    else:
        read = _read_lines(raw)
    if isinstance(read, str):
        return read
    if len(read.entries) > MAX_ENTRIES:
        return "import_too_many"
    if not read.entries and not read.memories:
        return "import_nothing_valid"
    return read


def _read_export(raw: str) -> ImportRead | str:
    try:
        document = json.loads(raw)
    except ValueError:
        return "import_bad_json"
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        return "import_not_export"
    records = document.get("items")
    if not isinstance(records, list):
        return "import_not_export"
    entries, invalid = [], 0
    for record in records:
        entry = _entry_from_record(record)
        if entry is None:
            invalid += 1
        else:
            entries.append(entry)
    memories = []
    kept = document.get("memories")  # exports before issue 30 have none
    for record in kept if isinstance(kept, list) else []:
        memory = _memory_from_record(record)
        if memory is None:
            invalid += 1
        else:
            memories.append(memory)
    return ImportRead(_unique(entries), invalid, tuple(memories))


def _memory_from_record(record: Any) -> pendings.ImportMemory | None:
    if not isinstance(record, dict):
        return None
    item_ref = record.get("item_id")
    try:
        memory = pendings.ImportMemory.model_validate(
            {
                "kind": record.get("kind"),
                "text": clean_text(str(record.get("text") or "")),
                "item_ref": item_ref if isinstance(item_ref, str) else None,
                "event": record.get("event"),
                "pinned": record.get("pinned") is True,
            }
        )
    except ValidationError:
        return None
    if memory.kind == "bookmark" and (memory.item_ref is None) == (memory.event is None):
        return None  # a bookmark marks exactly one item or one moment
    return memory


def _entry_from_record(record: Any) -> pendings.ImportEntry | None:
    if not isinstance(record, dict) or record.get("type") not in ITEM_TYPES:
        return None
    fields = (
        *("type", "title", "year", "tmdb_id", "url", "description", "content", "overview"),
        *("rating", "runtime_min", "seasons"),
    )
    source_id = record.get("_id")
    try:
        entry = pendings.ImportEntry.model_validate(
            {k: record.get(k) for k in fields}
            | {"source_id": source_id if isinstance(source_id, str) else None}
            | _state_of(record)
        )
    except ValidationError:
        return None
    if entry.type in ("link", "video"):
        try:
            return entry.model_copy(update={"url": parse_user_url(entry.url or "").url})
        except InvalidUrl:
            return None
    if entry.type == "note" and not clean_text(entry.content or ""):
        return None
    if entry.type in ("movie", "tv_show") and not (entry.title or "").strip():
        return None
    return entry


def _state_of(record: dict[str, Any]) -> dict[str, Any]:
    """An exported item's state (DESIGN 11.5), seen date and genres, as an entry takes them.

    A done state of any type ("seen" on a link) is its type's done one; anything else, or
    none (an export from before states), its first. A seen date is the JSON's
    `state_at_ms` or the CSV's `seen_at` ("2026-01-05 13:00 UTC").
    """
    item_type = record["type"]
    done = record.get("state") in DONE_STATE.values()
    state = DONE_STATE[item_type] if done else None
    at = record.get("state_at_ms")
    if not isinstance(at, int) or isinstance(at, bool):
        at = _seen_at(record.get("seen_at"))
    genres = record.get("genres")
    kept = [g for g in genres if isinstance(g, str)][:8] if isinstance(genres, list) else []
    return {
        "state": state,
        "state_at_ms": at if done else None,
        "genres": tuple(g.strip()[:40] for g in kept if g.strip()),
    } | ({} if done else {"rating": None})


def _seen_at(value: Any) -> int | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.strptime(value.strip(), "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int(when.timestamp() * 1000)


def _read_lines(raw: str) -> ImportRead:
    entries = []
    for line in raw.splitlines():
        words = clean_text(_BULLET.sub("", line.strip()))
        if not words:
            continue
        entries.append(_entry_from_line(words))
    return ImportRead(_unique(entries), 0)


def _entry_from_line(line: str) -> pendings.ImportEntry:
    if " " not in line:
        try:
            url = parse_user_url(line).url
        except InvalidUrl:
            pass
        else:
            kind: ItemType = "video" if is_video_url(url) else "link"
            return pendings.ImportEntry(type=kind, url=url)
    return pendings.ImportEntry(type="note", content=line)


def _key(entry: pendings.ImportEntry) -> str:
    return dedup_key(
        entry.type,
        title=entry.title,
        year=entry.year,
        tmdb_id=entry.tmdb_id,
        url=entry.url,
        content=entry.content,
    )


def _unique(entries: list[pendings.ImportEntry]) -> tuple[pendings.ImportEntry, ...]:
    seen: dict[str, pendings.ImportEntry] = {}
    for entry in entries:
        seen.setdefault(_key(entry), entry)
    return tuple(seen.values())


def read_records(records: list[Any]) -> ImportRead | str:
    """Items given as an export's records (a CSV export's rows): checked as the JSON's are."""
    entries = [_entry_from_record(record) for record in records]
    read = ImportRead(_unique([e for e in entries if e is not None]), entries.count(None))
    if len(read.entries) > MAX_ENTRIES:
        return "import_too_many"
    return read if read.entries else "import_nothing_valid"


async def preview(deps: Deps, turn: Turn, message: str) -> Reply:
    """Say what `/import` would add and hold it for a "sim"; nothing is saved yet."""
    return await preview_read(deps, turn, read_import(import_body(message)))


async def preview_read(deps: Deps, turn: Turn, read: ImportRead | str) -> Reply:
    """The preview of what was read (or the reply saying why nothing can be imported)."""
    lang = turn.language
    if isinstance(read, str):
        return finish(turn, text(read, lang, limit=MAX_ENTRIES), kind="deterministic")
    new = [
        e for e in read.entries if await deps.db.items.find_by_dedup(turn.user_id, _key(e)) is None
    ]
    known = len(read.entries) - len(new)
    memories = await _new_memories(deps, turn, read.memories)
    if not new and not memories:
        return finish(
            turn,
            text("import_nothing_new", lang, known=plural(known, "item", lang)),
            kind="deterministic",
        )
    if new:
        counts = {t: sum(e.type == t for e in new) for t in ITEM_TYPES}
        breakdown = ", ".join(plural(n, t, lang) for t, n in counts.items() if n)  # "1 link"
        body = text("import_preview", lang, count=len(new), items=items_word(len(new), lang))
        body += f" ({breakdown})"
    else:
        body = text("import_preview_memories", lang, memories=plural(len(memories), "memory", lang))
    if new and memories:
        body += "\n" + text("import_memories", lang, memories=plural(len(memories), "memory", lang))
    if known:
        body += "\n" + text("import_known", lang, known=plural(known, "item", lang))
    if read.invalid:
        body += "\n" + text("import_invalid", lang, invalid=plural(read.invalid, "record", lang))
    # a bookmark's item is matched by its export id, so the items it may point at go too
    pending = pendings.ConfirmImport(entries=list(read.entries), memories=memories)
    return await pendings.ask_to_confirm(deps, turn, pending, body)


async def _new_memories(
    deps: Deps, turn: Turn, memories: tuple[pendings.ImportMemory, ...]
) -> list[pendings.ImportMemory]:
    """The memories the user does not have yet (the same kind and words)."""
    if not memories:
        return []
    have = {(m.kind, fold(m.text)) for m in await deps.db.memories.list_for(turn.user_id)}
    return [m for m in memories if (m.kind, fold(m.text)) not in have]


async def confirm(deps: Deps, turn: Turn, current: pendings.ConfirmImport) -> Reply:
    """Save the previewed entries (the pending action is already cleared)."""
    ctx = ToolContext(deps, turn, wants_save=True)
    added = 0
    imported: dict[str, str] = {}  # export id -> the item's id here
    for entry in current.entries:
        outcome = await store_item(
            ctx,
            entry.type,
            title=entry.title,
            year=entry.year,
            tmdb_id=entry.tmdb_id,
            url=entry.url,
            description=entry.description,
            content=entry.content,
            overview=entry.overview,
            state=entry.state,
            state_at_ms=entry.state_at_ms,
            rating=entry.rating,
            details={
                k: v
                for k, v in (
                    ("runtime_min", entry.runtime_min),
                    ("genres", list(entry.genres)),
                    ("seasons", entry.seasons),
                )
                if v
            },
            learn=False,  # hundreds of titles: no TMDB request each
        )
        added += isinstance(outcome, Saved) and outcome.created
        if isinstance(outcome, Saved) and entry.source_id:
            imported[entry.source_id] = outcome.item.id
    noted = await _restore_memories(ctx, current.memories, imported)
    if added or noted:
        turn.tools_executed.append("import")
    lang = turn.language
    done = text("import_done", lang, count=added, items=items_word(added, lang))
    if noted:
        done += " " + text("import_memories_done", lang, memories=plural(noted, "memory", lang))
    return finish(turn, f"{OK_MARK} {done}", kind="effect")


async def _restore_memories(
    ctx: ToolContext, memories: list[pendings.ImportMemory], imported: dict[str, str]
) -> int:
    """Note each fact and set each bookmark again through their tools; return how many are new."""
    noted = 0
    for memory in memories:
        if memory.kind == "fact":
            outcome = await remember(ctx, RememberArgs(fact=memory.text))
        else:
            item_id = imported.get(memory.item_ref) if memory.item_ref else None
            if memory.item_ref and item_id is None:
                continue  # its item was not in the import
            args = BookmarkArgs(
                item_id=item_id, event=memory.event, note=memory.text, pinned=memory.pinned
            )
            outcome = await bookmark(ctx, args)
        noted += isinstance(outcome, Remembered) and outcome.created
    return noted
