"""The numbers of an `Estimate`, read from the user's items (agent/trust/estimates.py).

Similar items are those the item's own name finds by the delete rules (`find_named`
at `DELETE_CUTOFF`), itself left out: what a person could mistake for the target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agent.tools.finding import DELETE_CUTOFF, find_named
from agent.trust.estimates import Estimate
from storage import Database
from storage.documents import ItemDoc

NAME_CHARS = 120  # a long note is named by its start


def name_of(item: ItemDoc) -> str:
    """The words a person would name `item` by."""
    return (item.title or item.content or item.url or "")[:NAME_CHARS]


async def similar_count(
    db: Database,
    user_id: str,
    name: str,
    *,
    leaving_out: frozenset[str] = frozenset(),
    type_counts: Mapping[str, int] | None = None,
) -> int:
    """How many of the user's items `name` names, those in `leaving_out` not counted."""
    if not name.strip():
        return 0
    hits = await find_named(db, user_id, name, DELETE_CUTOFF, type_counts=type_counts)
    return sum(1 for _, item in hits if item.id not in leaving_out)


async def of_targets(
    db: Database,
    user_id: str,
    targets: Sequence[tuple[float, ItemDoc]],
    *,
    reversible: bool,
    type_counts: Mapping[str, int] | None = None,
) -> Estimate:
    """The estimate of an effect on `targets` (score, item), each found by its own name."""
    ids = frozenset(item.id for _, item in targets)
    similar = 0
    for _, item in targets:
        similar = max(
            similar,
            await similar_count(
                db, user_id, name_of(item), leaving_out=ids, type_counts=type_counts
            ),
        )
    return Estimate(
        tuple(round(score) for score, _ in targets), int(reversible), similar_kept=similar
    )
