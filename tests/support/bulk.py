"""Many items for one user, stored whole in a few round trips (bulk work at thousands, issue 47)."""

from __future__ import annotations

import uuid

from storage import Database
from storage.documents import ItemDoc


async def stored_notes(db: Database, user_id: str, count: int) -> list[ItemDoc]:
    """`count` notes stored whole (as an import of long ago left them), counted on the user."""
    user = await db.users.get(user_id)
    assert user is not None
    first = user.item_seq + 1
    notes = [
        ItemDoc(
            _id=uuid.uuid4().hex,
            user_id=user_id,
            seq=n,
            type="note",
            content=f"nota número {n} — «ação»",
            dedup_key=f"note:{n}",
            created_at_ms=1_767_600_000_000 + n,
            updated_at_ms=1_767_600_000_000 + n,
        )
        for n in range(first, first + count)
    ]
    await db.collections()["items"].insert_many([i.to_doc() for i in notes])
    counts = dict(user.counts)
    counts["note"] = int(counts.get("note", 0)) + count
    await db.users.set_counts(user_id, counts)
    await db.users.update(user_id, {"item_seq": first + count - 1})
    return notes
