"""Backups: every collection as gzip-compressed MongoDB Extended JSON lines, and back.

An archive is one header line, one line per document (`{"c": collection, "d": doc}`,
canonical Extended JSON so every BSON type survives) and one trailer line with the
count and digest of each collection; a file without its trailer is refused. The header
records the ledger's signing key by its public half (`signing.public_key`) with the
signed record of where signing began, never the private key (storage/signing.py). The
same code reads the embedded server and MongoDB, so an archive taken from either
restores into either.

There are no multi-document snapshots in the portable subset (SUBSET.md), so a
backup is made consistent by checking: the collections are written, then digested
again, and the pass is repeated until nothing changed in between.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import os
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from bson import json_util
from bson.json_util import CANONICAL_JSON_OPTIONS, RELAXED_JSON_OPTIONS

from storage.collection import Collection, Doc
from storage.errors import StorageError

FORMAT = "lembra-backup"
FORMAT_VERSION = 1
BATCH = 500
CONSISTENT_ATTEMPTS = 5
_LOAD_OPTIONS = CANONICAL_JSON_OPTIONS.with_options(tz_aware=True, tzinfo=UTC)


class ArchiveError(StorageError):
    """An archive cannot be written, read or restored; the message says why."""


@dataclass(frozen=True, slots=True)
class CollectionDigest:
    """How many documents a collection holds and a digest of their content, order-free."""

    count: int
    sha256: str

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "sha256": self.sha256}


@dataclass(frozen=True, slots=True)
class Header:
    """The first line of an archive: what it is and where it came from."""

    schema_version: int
    created_at: str
    lembra_version: str
    collections: tuple[str, ...]
    # {"public_key": hex, "fingerprint": ..., "adoption": {"heads", "sig"} | None}; None in
    # archives made before issue 30, or from a database with no key
    signing: dict[str, Any] | None = None

    @property
    def public_key(self) -> str | None:
        key = (self.signing or {}).get("public_key")
        return key if isinstance(key, str) else None

    @property
    def adoption(self) -> dict[str, Any] | None:
        record = (self.signing or {}).get("adoption")
        return record if isinstance(record, dict) else None


@dataclass(slots=True)
class _Digester:
    """Hash each document alone and combine the sorted hashes, so server order never matters."""

    hashes: list[bytes] = field(default_factory=list)

    def add(self, doc: Doc) -> None:
        # relaxed JSON with sorted keys: equal content, equal digest, whichever server
        # returned it (one stores a small int64 as int32, another keeps key order)
        text = json_util.dumps(doc, json_options=RELAXED_JSON_OPTIONS, sort_keys=True)
        self.hashes.append(hashlib.sha256(text.encode()).digest())

    def result(self) -> CollectionDigest:
        combined = hashlib.sha256(b"".join(sorted(self.hashes)))
        return CollectionDigest(len(self.hashes), combined.hexdigest())


async def scan(coll: Collection, *, batch: int = BATCH) -> AsyncIterator[Doc]:
    """Every document of `coll` in `_id` order, one bounded page at a time."""
    last: Any = None
    while True:
        flt = {} if last is None else {"_id": {"$gt": last}}
        page = await coll.find(flt, sort=[("_id", 1)], limit=batch)
        for doc in page:
            yield doc
        if len(page) < batch:
            return
        last = page[-1]["_id"]


async def digest(coll: Collection) -> CollectionDigest:
    """The count and content digest of one collection."""
    digester = _Digester()
    async for doc in scan(coll):
        digester.add(doc)
    return digester.result()


async def digests(collections: Mapping[str, Collection]) -> dict[str, CollectionDigest]:
    """The count and content digest of every collection, by name."""
    return {name: await digest(coll) for name, coll in collections.items()}


def _header_line(header: Header) -> str:
    return json.dumps(
        {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "schema_version": header.schema_version,
            "created_at": header.created_at,
            "lembra_version": header.lembra_version,
            "collections": list(header.collections),
            **({"signing": header.signing} if header.signing is not None else {}),
        }
    )


async def _write_pass(
    out: TextIO, collections: Mapping[str, Collection], header: Header
) -> dict[str, CollectionDigest]:
    out.write(_header_line(header) + "\n")
    written: dict[str, CollectionDigest] = {}
    for name, coll in collections.items():
        digester = _Digester()
        async for doc in scan(coll):
            digester.add(doc)
            body = json_util.dumps(doc, json_options=CANONICAL_JSON_OPTIONS)
            out.write(f'{{"c": {json.dumps(name)}, "d": {body}}}\n')
        written[name] = digester.result()
    trailer = {name: d.to_json() for name, d in written.items()}
    out.write(json.dumps({"end": trailer}) + "\n")
    return written


async def write_archive(
    path: Path,
    collections: Mapping[str, Collection],
    *,
    schema_version: int,
    lembra_version: str,
    signing: dict[str, Any] | None = None,
    attempts: int = CONSISTENT_ATTEMPTS,
) -> dict[str, CollectionDigest]:
    """Write a consistent archive of `collections` to `path` (atomically) and return its digests.

    Raises ArchiveError when the database kept changing during every attempt.
    """
    tmp = path.with_name(f".{path.name}.partial")
    header = Header(
        schema_version=schema_version,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        lembra_version=lembra_version,
        collections=tuple(collections),
        signing=signing,
    )
    try:
        for attempt in range(attempts):
            with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=6) as out:
                written = await _write_pass(out, collections, header)
            if await digests(collections) == written:
                os.replace(tmp, path)
                return written
            await asyncio.sleep(0.2 * (attempt + 1))  # let a burst of writes pass
    except OSError as exc:
        raise ArchiveError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    raise ArchiveError(
        f"the database kept changing during {attempts} attempts; retry, or stop "
        "`lembra serve` for the moment of the backup"
    )


@dataclass(frozen=True, slots=True)
class Archive:
    """A read archive: its header, its documents by collection and the trailer's digests."""

    header: Header
    documents: dict[str, list[Doc]]
    expected: dict[str, CollectionDigest]


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as src:
            yield from enumerate(src, start=1)
    except FileNotFoundError:
        raise ArchiveError(f"cannot read {path}: no such file") from None
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise ArchiveError(f"cannot read {path}: not a Lembra backup ({exc})") from None


def _parse_header(path: Path, line: str) -> Header:
    try:
        raw = json.loads(line)
    except ValueError:
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ArchiveError(f"{path} is not a Lembra backup (line 1 is not its header)")
    if raw.get("format_version") != FORMAT_VERSION:
        raise ArchiveError(
            f"{path} is backup format {raw.get('format_version')}; this Lembra reads "
            f"format {FORMAT_VERSION}: use the Lembra version that wrote it "
            f"({raw.get('lembra_version')})"
        )
    return Header(
        schema_version=int(raw["schema_version"]),
        created_at=str(raw["created_at"]),
        lembra_version=str(raw["lembra_version"]),
        collections=tuple(raw["collections"]),
        signing=raw["signing"] if isinstance(raw.get("signing"), dict) else None,
    )


def read_archive(path: Path) -> Archive:
    """Read and check a whole archive: header, every line, and the trailer's counts and digests."""
    header: Header | None = None
    documents: dict[str, list[Doc]] = {}
    expected: dict[str, CollectionDigest] | None = None
    for number, line in _lines(path):
        if header is None:
            header = _parse_header(path, line)
            documents = {name: [] for name in header.collections}
            continue
        if expected is not None:
            raise ArchiveError(f"{path}, line {number}: data after the end line")
        try:
            record = json_util.loads(line, json_options=_LOAD_OPTIONS)
        except ValueError as exc:
            raise ArchiveError(f"{path}, line {number}: not Extended JSON ({exc})") from None
        if isinstance(record, dict) and isinstance(record.get("end"), dict):
            expected = {
                name: CollectionDigest(int(d["count"]), str(d["sha256"]))
                for name, d in record["end"].items()
            }
        elif isinstance(record, dict) and record.get("c") in documents:
            documents[record["c"]].append(record["d"])
        else:
            raise ArchiveError(f"{path}, line {number}: not a document of a listed collection")
    if header is None:
        raise ArchiveError(f"{path} is empty")
    if expected is None:
        raise ArchiveError(f"{path} is truncated: its end line is missing")
    _check(path, documents, expected)
    return Archive(header, documents, expected)


def _check(
    path: Path, documents: Mapping[str, list[Doc]], expected: Mapping[str, CollectionDigest]
) -> None:
    for name, docs in documents.items():
        digester = _Digester()
        for doc in docs:
            digester.add(doc)
        if digester.result() != expected.get(name):
            raise ArchiveError(f"{path}: collection {name} does not match its recorded digest")


async def first_documents(
    collections: Mapping[str, Collection], *, ignore_ids: Mapping[str, str] | None = None
) -> list[str]:
    """The names of the collections that hold a document (other than `ignore_ids[name]`)."""
    ignore = ignore_ids or {}
    found: list[str] = []
    for name, coll in collections.items():
        page = await coll.find({}, projection={"_id": 1}, limit=2)
        if any(doc["_id"] != ignore.get(name) for doc in page):
            found.append(name)
    return found


async def load_documents(
    collections: Mapping[str, Collection], documents: Mapping[str, list[Doc]]
) -> None:
    """Insert the archive's documents, collection by collection, in ordered batches."""
    for name, docs in documents.items():
        coll = collections.get(name)
        if coll is None:
            raise ArchiveError(f"the archive has a collection this Lembra does not know: {name}")
        for start in range(0, len(docs), BATCH):
            await coll.insert_many(docs[start : start + BATCH])


async def clear(collections: Mapping[str, Collection]) -> None:
    """Delete every document of every collection (indexes stay)."""
    for coll in collections.values():
        await coll.delete_many({})
