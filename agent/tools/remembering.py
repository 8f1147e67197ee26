"""Model memory (issue 12): `remember` notes a fact about the user, `bookmark` marks an item or a moment.

Both are the assistant's own notes, kept in `memories` apart from the user's items.
A user keeps at most `MAX_BOOKMARKS` bookmarks: a new one drops the oldest unpinned
one, and when all are pinned the call fails and says how to make room. Facts are
capped too (the frame carries them), the oldest dropped first. Ledger payloads hold
ids and digests only (DESIGN 9.5).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from agent.conversation.replies import item_label
from agent.errors import ToolFailure
from agent.tools.base import Failed, Outcome, Remembered, Tool, ToolArgs, ToolContext, UnknownItem
from agent.trust.ledgering import append_event, digest
from agent.understanding.textnorm import clean_text, fold
from storage.documents import MemoryDoc

MAX_BOOKMARKS = 10  # seed 002
MAX_FACTS = 30  # enough for a person's preferences; the frame shows them within its budget


class RememberArgs(ToolArgs):
    fact: str = Field(min_length=1, max_length=300)


class BookmarkArgs(ToolArgs):
    item_id: str | None = Field(default=None, min_length=1, max_length=64)
    event: str | None = Field(default=None, min_length=1, max_length=200)
    note: str = Field(min_length=1, max_length=300)
    pinned: bool = False

    @model_validator(mode="after")
    def _one_target(self) -> BookmarkArgs:
        if (self.item_id is None) == (self.event is None):
            raise ValueError("give exactly one of item_id (an item) or event (a moment)")
        return self


def _next_seq(kept: list[MemoryDoc]) -> int:
    return max((m.seq for m in kept), default=0) + 1


def _oldest_unpinned(kept: list[MemoryDoc]) -> MemoryDoc | None:
    return next((m for m in kept if not m.pinned), None)


async def remember(ctx: ToolContext, args: RememberArgs) -> Outcome:
    deps, turn = ctx.deps, ctx.turn
    fact = clean_text(args.fact)
    kept = await deps.db.memories.list_for(turn.user_id, "fact")
    same = next((m for m in kept if fold(m.text) == fold(fact)), None)
    if same is not None:
        return Remembered(same, False, same.text)
    dropped = kept[0] if len(kept) >= MAX_FACTS else None
    if dropped is not None:
        await deps.db.memories.delete(turn.user_id, dropped.id)
    memory = MemoryDoc(
        _id=deps.db.memories.new_id(),
        user_id=turn.user_id,
        kind="fact",
        text=fact,
        seq=_next_seq(kept),
        created_at_ms=turn.now_ms,
    )
    await deps.db.memories.add(memory)
    payload = {
        "memory_id": memory.id,
        "digest": digest(fact),
        "dropped": dropped.id if dropped else None,
    }
    await append_event(deps, turn, "memory_noted", payload)
    return Remembered(memory, True, fact, dropped)


async def bookmark(ctx: ToolContext, args: BookmarkArgs) -> Outcome:
    deps, turn = ctx.deps, ctx.turn
    label = clean_text(args.event or "")
    if args.item_id is not None:
        item = await deps.db.items.get(turn.user_id, args.item_id)
        if item is None:
            return UnknownItem(args.item_id)
        label = item_label(item)
    kept = await deps.db.memories.list_for(turn.user_id, "bookmark")
    same = next((m for m in kept if args.item_id and m.item_id == args.item_id), None)
    if same is not None:
        return Remembered(same, False, label)
    dropped = None
    if len(kept) >= MAX_BOOKMARKS:
        dropped = _oldest_unpinned(kept)
        if dropped is None:
            return Failed(
                ToolFailure(
                    "BOOKMARKS_FULL",
                    "limit",
                    f"all {MAX_BOOKMARKS} bookmarks are pinned: the user removes one with /memory",
                    "none",
                    reason="bookmarks_full",
                )
            )
        await deps.db.memories.delete(turn.user_id, dropped.id)
    memory = MemoryDoc(
        _id=deps.db.memories.new_id(),
        user_id=turn.user_id,
        kind="bookmark",
        text=clean_text(args.note),
        item_id=args.item_id,
        event=clean_text(args.event) if args.event else None,
        pinned=args.pinned,
        seq=_next_seq(kept),
        created_at_ms=turn.now_ms,
    )
    await deps.db.memories.add(memory)
    payload = {
        "memory_id": memory.id,
        "item_id": args.item_id,
        "event_digest": digest(memory.event) if memory.event else None,
        "note_digest": digest(memory.text),
        "pinned": memory.pinned,
        "dropped": dropped.id if dropped else None,
    }
    await append_event(deps, turn, "bookmark_set", payload)
    return Remembered(memory, True, label, dropped)


MEMORY_TOOLS: tuple[Tool[ToolArgs], ...] = (
    Tool(
        "remember",
        RememberArgs,
        "low",
        "Keep a lasting fact about the user that they told you (a preference, a habit), in "
        "their words; not for things to save (use the save tools).",
        remember,
        {"fact": "prefere filmes legendados"},
        kind="note",
    ),
    Tool(
        "bookmark",
        BookmarkArgs,
        "low",
        f"Mark one of the user's items (item_id) or a moment of the conversation (event) with a "
        f"short note, when the user asks to keep it in mind; at most {MAX_BOOKMARKS}, the oldest "
        "unpinned one is dropped.",
        bookmark,
        {"item_id": "<id of the item>", "note": "ver com a Ana no sábado"},
        kind="mark",
    ),
)
