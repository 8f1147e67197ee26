"""`/import`: items from Lembra's own JSON export or from a plain list (one URL or title a
line), shown as a preview and saved only after "sim" (a pending confirmation).

Every entry goes through the one function that stores items, so dedup keys hold: what
the user already has, or what appears twice, is counted and skipped. A title that is
not a link is kept as a note: a bare line says nothing reliable about being a film.
An export's `memories` (the assistant's facts and bookmarks) come back through the
`remember` and `bookmark` tools, each bookmark pointing at its item as imported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import ValidationError

from agent import boundedjson
from agent.conversation import pending as pendings
from agent.conversation.reminding import import_reminder
from agent.conversation.replies import finish
from agent.conversation.turn import Turn
from agent.deps import Deps
from agent.texts import OK_MARK, items_word, plural, text
from agent.tools.base import Remembered, Saved, ToolContext
from agent.tools.remembering import (
    MAX_BOOKMARKS,
    MAX_FACTS,
    BookmarkArgs,
    RememberArgs,
    bookmark,
    remember,
)
from agent.tools.saving import NewItem, dedup_key, store_items
from agent.types import Language, Reply
from agent.understanding.reminders.rules import read_rrule
from agent.understanding.textnorm import clean_text, fold
from agent.understanding.urls import InvalidUrl, is_video_url, parse_user_url
from storage.documents import DONE_STATE, ITEM_TYPES, ItemType

EXPORT_FORMAT = "lembra-export/1"
MAX_ENTRIES = 500
MAX_JSON_DEPTH = 16  # an export nests 4 levels: anything deeper is not one
LINE_LIMIT = 4000  # the characters an item's text holds (a message's limit too)
# the limit each refusal names (issue 46: a bound refused says which)
LIMITS = {
    "import_too_many": MAX_ENTRIES,
    "import_too_deep": MAX_JSON_DEPTH,
    "import_all_too_long": LINE_LIMIT,
    "import_cell_too_long": LINE_LIMIT,
}
_COMMAND = re.compile(r"^\s*/import(?:@\w+)?", re.IGNORECASE)
_BULLET = re.compile(r"^(?:[-*•]\s+|\d{1,4}[.)]\s+)")


@dataclass(frozen=True, slots=True)
class ImportRead:
    entries: tuple[pendings.ImportEntry, ...]
    invalid: int  # lines or records that could not become an item
    memories: tuple[pendings.ImportMemory, ...] = ()
    too_long: int = 0  # lines longer than LINE_LIMIT, left out
    reminders: tuple[pendings.ImportReminder, ...] = ()


class _Entries:
    """Entries as they are read, deduplicated; stops the reading once past MAX_ENTRIES."""

    def __init__(self) -> None:
        self.kept: dict[str, pendings.ImportEntry] = {}
        self.invalid = 0
        self.too_long = 0

    def add(self, entry: pendings.ImportEntry | None) -> bool:
        """Keep `entry` (None: an invalid one); False once there are too many to import."""
        if entry is None:
            self.invalid += 1
        else:
            self.kept.setdefault(_key(entry), entry)
        return len(self.kept) <= MAX_ENTRIES

    def read(
        self,
        memories: tuple[pendings.ImportMemory, ...] = (),
        reminders: tuple[pendings.ImportReminder, ...] = (),
    ) -> ImportRead | str:
        if self.too_long and not self.kept and not memories and not reminders:
            return "import_all_too_long"
        if not self.kept and not memories and not reminders:
            return "import_nothing_valid"
        return ImportRead(
            tuple(self.kept.values()), self.invalid, memories, self.too_long, reminders
        )


def import_body(message: str) -> str:
    """What follows `/import` in the message (newlines kept)."""
    return _COMMAND.sub("", message, count=1).strip()


def read_import(raw: str) -> ImportRead | str:
    """The entries in `raw`, or the text key saying why nothing can be imported.

    Bounded on what is read (issue 46): JSON nesting (MAX_JSON_DEPTH), line length
    (LINE_LIMIT: longer lines are left out and counted), items (reading stops past
    MAX_ENTRIES). Never raises.
    """
    if not raw.strip():
        return "import_usage"
    if raw.lstrip().startswith("{"):
        return _read_export(raw)
    return read_lines(raw.splitlines())


def _read_export(raw: str) -> ImportRead | str:
    try:
        document = boundedjson.loads(raw, max_depth=MAX_JSON_DEPTH)
    except boundedjson.TooDeep:
        return "import_too_deep"
    except ValueError:
        return "import_bad_json"
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        return "import_not_export"
    records = document.get("items")
    if not isinstance(records, list):
        return "import_not_export"
    entries = _Entries()
    for record in records:
        if not entries.add(_entry_from_record(record)):
            return "import_too_many"
    memories = []
    kept = document.get("memories")  # exports before issue 30 have none
    for record in kept if isinstance(kept, list) else []:
        memory = _memory_from_record(record)
        if memory is None:
            entries.invalid += 1
        else:
            memories.append(memory)
    reminders = []
    open_ones = document.get("reminders")  # an export's reminders, repeating ones with their rule
    for record in open_ones if isinstance(open_ones, list) else []:
        reminder = _reminder_from_record(record)
        if reminder is not None:
            reminders.append(reminder)
    return entries.read(tuple(memories), tuple(reminders))


def _reminder_from_record(record: Any) -> pendings.ImportReminder | None:
    """An open reminder of an export (scheduled, with a rule that `read_rrule` accepts)."""
    if not isinstance(record, dict) or record.get("state") not in ("scheduled", "sending"):
        return None
    try:
        reminder = pendings.ImportReminder.model_validate(
            {k: record.get(k) for k in pendings.ImportReminder.model_fields}
            | {"text": clean_text(str(record.get("text") or ""))[:300]}
        )
        zone = ZoneInfo(reminder.timezone)
        if reminder.start_local is not None:
            datetime.fromisoformat(reminder.start_local)
    except (ValidationError, ValueError, KeyError):
        return None
    if reminder.rule is not None and read_rrule(reminder.rule, zone) is None:
        return None
    return reminder


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
        *("rating", "comment", "runtime_min", "seasons"),
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
    } | ({} if done else {"rating": None, "comment": None})


def _seen_at(value: Any) -> int | None:
    if not isinstance(value, str):
        return None
    try:
        when = datetime.strptime(value.strip(), "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int(when.timestamp() * 1000)


def read_lines(lines: Iterable[str]) -> ImportRead | str:
    """One link or title a line (a list typed, a .txt, a .csv's rows), read until too many."""
    entries = _Entries()
    for line in lines:
        words = clean_text(_BULLET.sub("", line.strip()))
        if not words:
            continue
        if len(words) > LINE_LIMIT:
            entries.too_long += 1
            continue
        if not entries.add(_entry_from_line(words)):
            return "import_too_many"
    return entries.read()


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


def read_records(records: Iterable[Any]) -> ImportRead | str:
    """Items given as an export's records (a CSV export's rows): checked as the JSON's are."""
    entries = _Entries()
    for record in records:
        if not entries.add(_entry_from_record(record)):
            return "import_too_many"
    return entries.read()


async def preview(deps: Deps, turn: Turn, message: str) -> Reply:
    """Say what `/import` would add and hold it for a "sim"; nothing is saved yet."""
    return await preview_read(deps, turn, read_import(import_body(message)))


async def preview_read(deps: Deps, turn: Turn, read: ImportRead | str) -> Reply:
    """The preview of what was read (or the reply saying why nothing can be imported)."""
    lang = turn.language
    if isinstance(read, str):
        body = text(read, lang, limit=LIMITS.get(read, MAX_ENTRIES))
        return finish(turn, body, kind="deterministic")
    have = await deps.db.items.by_dedup(turn.user_id, [_key(e) for e in read.entries])
    new = [e for e in read.entries if _key(e) not in have]
    known = len(read.entries) - len(new)
    memories, over = await _new_memories(deps, turn, read.memories)
    reminders = await _new_reminders(deps, turn, read.reminders)
    if not new and not memories and not reminders:
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
    if over:
        body += "\n" + _memories_over(over, lang)
    if reminders:
        body += "\n" + text("import_reminders", lang, count=len(reminders))
    if known:
        body += "\n" + text("import_known", lang, known=plural(known, "item", lang))
    if read.invalid:
        body += "\n" + text("import_invalid", lang, invalid=plural(read.invalid, "record", lang))
    if read.too_long:
        lines = plural(read.too_long, "line", lang)
        body += "\n" + text("import_lines_too_long", lang, limit=LINE_LIMIT, lines=lines)
    # a bookmark's item is matched by its export id, so the items it may point at go too
    pending = pendings.ConfirmImport(
        entries=list(read.entries), memories=memories, reminders=reminders
    )
    return await pendings.ask_to_confirm(deps, turn, pending, body)


def _memories_over(over: int, lang: Language) -> str:
    return text(
        "import_memories_over",
        lang,
        facts=MAX_FACTS,
        bookmarks=MAX_BOOKMARKS,
        over=plural(over, "memory", lang),
    )


async def _new_memories(
    deps: Deps, turn: Turn, memories: tuple[pendings.ImportMemory, ...]
) -> tuple[list[pendings.ImportMemory], int]:
    """The memories the user does not have yet (the same kind and words) that fit, and how many
    do not: facts and bookmarks each up to the room their cap leaves (the newest kept), so an
    import never pushes out what the user has, and the reply says what is left out."""
    if not memories:
        return [], 0
    stored = await deps.db.memories.list_for(turn.user_id)
    have = {(m.kind, fold(m.text)) for m in stored}
    fresh = [m for m in memories if (m.kind, fold(m.text)) not in have]
    kept: list[pendings.ImportMemory] = []
    for kind, cap in (("fact", MAX_FACTS), ("bookmark", MAX_BOOKMARKS)):
        room = max(0, cap - sum(m.kind == kind for m in stored))
        of_kind = [m for m in fresh if m.kind == kind]
        kept += of_kind[len(of_kind) - room :] if room else []
    return kept, len(fresh) - len(kept)


async def _new_reminders(
    deps: Deps, turn: Turn, reminders: tuple[pendings.ImportReminder, ...]
) -> list[pendings.ImportReminder]:
    """The reminders still to come that the user does not have (the same words and rule)."""
    if not reminders:
        return []
    have = {(fold(r.text), r.rule) for r in await deps.db.reminders.open_for(turn.user_id)}
    return [
        r
        for r in reminders
        if (fold(r.text), r.rule) not in have and (r.rule or r.due_at_ms > turn.now_ms)
    ]


async def _restore_reminders(
    deps: Deps, turn: Turn, reminders: list[pendings.ImportReminder]
) -> int:
    """Schedule each imported reminder again: a repeating one at its next occurrence."""
    restored = 0
    for reminder in reminders:
        restored += await import_reminder(deps, turn, reminder)
    return restored


async def confirm(deps: Deps, turn: Turn, current: pendings.ConfirmImport) -> Reply:
    """Save the previewed entries (the pending action is already cleared), in batches."""
    ctx = ToolContext(deps, turn, wants_save=True)
    new = [
        NewItem(
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
                    ("comment", entry.comment),
                )
                if v
            },
            learn=False,  # hundreds of titles: no TMDB request each
        )
        for entry in current.entries
    ]
    added = 0
    imported: dict[str, str] = {}  # export id -> the item's id here
    for entry, outcome in zip(current.entries, await store_items(ctx, new), strict=True):
        added += isinstance(outcome, Saved) and outcome.created
        if isinstance(outcome, Saved) and entry.source_id:
            imported[entry.source_id] = outcome.item.id
    noted = await _restore_memories(ctx, current.memories, imported)
    scheduled = await _restore_reminders(deps, turn, current.reminders)
    if added or noted or scheduled:
        turn.tools_executed.append("import")
    lang = turn.language
    done = text("import_done", lang, count=added, items=items_word(added, lang))
    if noted:
        done += " " + text("import_memories_done", lang, memories=plural(noted, "memory", lang))
    if scheduled:
        done += " " + text("import_reminders_done", lang, count=scheduled)
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
        # a re-drive finds what its first run noted: counted as that run counted it
        noted += isinstance(outcome, Remembered) and (outcome.created or ctx.turn.redriven)
    return noted
