"""A short-lived per-process cache of the frame's slow-changing sections (DESIGN 3.7).

The last handovers with their sanity check and the constitution change only when the
user's state does, but cost several reads (the sanity check reads items and ledger
events). They are kept per user and conversation under a state version (item sequence
and counts, handover number, this process's head of the system ledger stream, where
constitutions are recorded) for a short TTL, which also bounds what another worker's
writes (or an edited item a model-written handover names) can leave stale. Hits and
misses are counted.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from storage.documents import ConstitutionDoc

MAX_ENTRIES = 10_000

Version = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class SlowSections:
    """What the frame takes from the cache: read-only after it is built."""

    memory: dict[str, Any]  # handovers, baseline, model memory: never mutated once cached
    constitution: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Entry:
    version: Version
    stored_at_ms: int
    sections: SlowSections


class FrameCache:
    """Slow frame sections by (user, conversation), valid for one state version and `ttl_ms`."""

    def __init__(self, ttl_ms: int, *, max_entries: int = MAX_ENTRIES) -> None:
        self.ttl_ms = ttl_ms
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple[str, str], _Entry] = OrderedDict()

    def get(
        self, user_id: str, conversation_id: str, version: Version, now_ms: int
    ) -> SlowSections | None:
        key = (user_id, conversation_id)
        entry = self._entries.get(key)
        if entry is None:
            return None
        if entry.version != version or not 0 <= now_ms - entry.stored_at_ms < self.ttl_ms:
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return entry.sections

    def put(
        self,
        user_id: str,
        conversation_id: str,
        version: Version,
        now_ms: int,
        sections: SlowSections,
    ) -> None:
        if self.ttl_ms <= 0:
            return
        key = (user_id, conversation_id)
        self._entries[key] = _Entry(version, now_ms, sections)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)


class ConstitutionMemo:
    """The constitution in force, kept for the risk policy's thresholds (issue 26).

    Valid while this process's head of the system ledger stream is unchanged (every new
    version is recorded there) and for `ttl_ms`, which bounds how long another worker's
    edit can go unseen, as for the frame's slow sections. One entry: one constitution.
    """

    def __init__(self) -> None:
        self._entry: tuple[object, int, ConstitutionDoc] | None = None

    def get(self, version: object, now_ms: int, ttl_ms: int) -> ConstitutionDoc | None:
        entry = self._entry
        if entry is None or entry[0] != version or now_ms - entry[1] >= ttl_ms:
            return None
        return entry[2]

    def put(self, version: object, now_ms: int, doc: ConstitutionDoc) -> None:
        self._entry = (version, now_ms, doc)
