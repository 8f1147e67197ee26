"""The shelf: what `lista tudo` shows and the delete-all preview names, kept on the user document.

Labels only (agent/conversation/listing.py reads and shows them), under a key made
of the counters every change to the items moves: `item_seq`, `items_v` and `counts`.
A shelf whose key is not the user's current one is never shown. A save extends the
shelf in the same round trip that finishes it (agent/trust/effects.py): the new key
is the one the user document has after that save alone, so if anything else changed
the items meanwhile the keys differ and the next list reads the items again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent.conversation.replies import item_label
from storage.documents import ITEM_TYPES, ItemDoc, UserDoc

LIST_PER_TYPE = 10
PREVIEW_EXAMPLES = 3  # the delete-all preview names this many of the oldest items
SHELF_FORMAT = 1  # part of the key: labels change with it


@dataclass(frozen=True, slots=True)
class Shelf:
    newest: dict[str, list[str]]  # type -> labels of its newest items, newest first
    oldest: list[str]  # labels of the user's first items, in creation order

    def stored(self, key: str) -> dict[str, Any]:
        """The shelf as `users.shelf` holds it, valid for `key`."""
        return {"key": key, "newest": self.newest, "oldest": self.oldest}


def shelf_key(user: UserDoc) -> str:
    counts = ",".join(str(int(user.counts.get(t, 0))) for t in ITEM_TYPES)
    return f"{SHELF_FORMAT}:{user.item_seq}:{user.items_v}:{counts}"


def kept_shelf(user: UserDoc) -> Shelf | None:
    """The shelf on the user document, when it still shows the items as they are."""
    raw = user.shelf
    if not raw or raw.get("key") != shelf_key(user):
        return None
    return Shelf(newest=dict(raw["newest"]), oldest=list(raw["oldest"]))


def after_save(user: UserDoc, item: ItemDoc) -> tuple[dict[str, Any], str] | None:
    """The shelf once `item` (numbered by this save) is saved, and the key it replaces.

    None when `user` (as the turn read it) has no current shelf to extend.
    """
    kept = kept_shelf(user)
    if kept is None:
        return None
    counts = {t: int(user.counts.get(t, 0)) for t in ITEM_TYPES}
    counts[item.type] += 1
    after = user.model_copy(
        update={"item_seq": item.seq, "items_v": user.items_v + 1, "counts": counts}
    )
    label = item_label(item)
    extended = Shelf(
        newest={**kept.newest, item.type: [label, *kept.newest.get(item.type, [])][:LIST_PER_TYPE]},
        oldest=kept.oldest if len(kept.oldest) >= PREVIEW_EXAMPLES else [*kept.oldest, label],
    )
    return extended.stored(shelf_key(after)), shelf_key(user)
