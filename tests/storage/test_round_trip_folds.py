"""Storage behind the issue-16 round-trip cuts, on every backend: the reminder hint and list_all."""

from __future__ import annotations

from storage import Database
from storage.documents import NO_REMINDERS, ItemDoc

NOW = 1_767_225_600_000
USER = "tg:1"


async def _raw_user_without_hint(db: Database) -> None:
    """A user stored before the hint existed (the field is missing, not null)."""
    await db.users.ensure(USER, language="pt", timezone="UTC", now_ms=NOW)
    raw = db.client[db.name]["users"]
    doc = await raw.find_one({"_id": USER})
    doc.pop("reminder_hint_ms")
    await raw.replace_one({"_id": USER}, doc)


async def hint(db: Database) -> int | None:
    user = await db.users.get(USER)
    assert user is not None
    return user.reminder_hint_ms


async def test_a_new_user_has_no_open_reminder_and_a_reminder_lowers_the_hint(
    any_db: Database,
) -> None:
    await any_db.users.ensure(USER, language="pt", timezone="UTC", now_ms=NOW)
    assert await hint(any_db) == NO_REMINDERS
    await any_db.users.lower_reminder_hint(USER, NOW + 60_000)
    await any_db.users.lower_reminder_hint(USER, NOW + 120_000)  # later: the sooner one stays
    assert await hint(any_db) == NOW + 60_000


async def test_a_look_cannot_settle_over_a_reminder_added_meanwhile(any_db: Database) -> None:
    await any_db.users.ensure(USER, language="pt", timezone="UTC", now_ms=NOW)
    seen = await hint(any_db)
    await any_db.users.lower_reminder_hint(USER, NOW)  # set by another chat after the look read
    assert not await any_db.users.settle_reminder_hint(USER, seen, NOW + 999)
    assert await hint(any_db) == NOW


async def test_an_unknown_hint_reads_as_missing_and_a_racing_reminder_makes_it_look(
    any_db: Database,
) -> None:
    await _raw_user_without_hint(any_db)
    assert await hint(any_db) is None
    await any_db.users.lower_reminder_hint(USER, NOW + 5)
    assert await hint(any_db) == 0  # "look now": the look that began before cannot settle it
    assert not await any_db.users.settle_reminder_hint(USER, None, NO_REMINDERS)
    assert await any_db.users.settle_reminder_hint(USER, 0, NO_REMINDERS)
    assert await hint(any_db) == NO_REMINDERS


async def test_a_missing_hint_settles_once_read(any_db: Database) -> None:
    await _raw_user_without_hint(any_db)
    assert await any_db.users.settle_reminder_hint(USER, None, NOW + 7)
    assert await hint(any_db) == NOW + 7


async def test_newest_by_type_takes_each_type_from_one_read(any_db: Database) -> None:
    types = ["note"] * 12 + ["movie"] * 3 + ["link"] * 20
    docs = [
        ItemDoc(
            _id=f"i{n}",
            user_id=USER if n != 5 else "tg:other",
            seq=n,
            type=t,  # type: ignore[arg-type]
            title=f"T{n}",
            dedup_key=f"k{n}",
            created_at_ms=NOW,
            updated_at_ms=NOW,
        ).to_doc()
        for n, t in enumerate(types, 1)
    ]
    await any_db.client[any_db.name]["items"].insert_many(docs)
    newest = await any_db.items.newest_by_type(USER, ["note", "movie", "link", "video"], 10)
    assert newest["video"] == []
    assert [i.seq for i in newest["movie"]] == [15, 14, 13]
    assert [i.seq for i in newest["note"]] == [12, 11, 10, 9, 8, 7, 6, 4, 3, 2]  # 5 is not theirs
    assert [i.seq for i in newest["link"]] == list(range(35, 25, -1))
