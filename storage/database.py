"""The database handle: one pymongo client, one repository per collection (DESIGN 4)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient

from config.logging import log_event
from storage.allowed import AllowedUsersRepo
from storage.beliefs import BeliefsRepo
from storage.chatqueue import ChatQueueRepo
from storage.collection import Collection, Observer
from storage.constitutions import ConstitutionsRepo
from storage.embedded import EmbeddedServer
from storage.errors import DatabaseUnavailable, StorageError, translated
from storage.faults import FaultPoints
from storage.items import ItemsRepo
from storage.leases import LeasesRepo
from storage.ledger import LedgerRepo
from storage.memories import MemoriesRepo
from storage.messages import MessagesRepo
from storage.pending import PendingRepo
from storage.reminders import RemindersRepo
from storage.schema import upgrade
from storage.signing import (
    LedgerSigner,
    adoption_path,
    key_path,
    load_signer,
    read_adoption,
    write_adoption,
)
from storage.snapshots import SnapshotsRepo
from storage.summaries import SummariesRepo
from storage.supervisor import Supervision, supervise
from storage.updates import UpdatesRepo
from storage.usage import UsageRepo
from storage.users import UsersRepo
from storage.wordindex import WordIndex, WordSource

COLLECTIONS = (
    "users",
    "items",
    "messages",
    "summaries",
    "pending_actions",
    "ledger",
    "beliefs",
    "usage",
    "processed_updates",
    "leases",
    "constitutions",
    "reminders",
    "undo_snapshots",
    "memories",
    "allowed_users",
)
# Rebuilt from the collections above, so never backed up or copied: cleared instead.
DERIVED = ("word_index",)
CATCH_UP_LEASE = "job:word-index"  # one process catches the word index up at a time
CATCH_UP_TTL_MS = 60_000
CATCH_UP_RETRY_S = (1.0, 30.0)  # the first wait after a failure or a busy lease, and the longest
log = logging.getLogger("lembra.storage.database")


class Database:
    """All repositories over one database; built once at start-up and passed down."""

    def __init__(
        self,
        client: AsyncMongoClient[dict[str, Any]],
        name: str,
        *,
        observer: Observer | None = None,
        signer: LedgerSigner | None = None,
        words: WordSource | None = None,
    ) -> None:
        self.client = client
        self.name = name
        raw = client[name]
        # tests stop the process right after a chosen write (issue 15: kill -9 between steps)
        self.faults = FaultPoints()
        # the embedded server's supervisor; ends with EmbeddedServerError when it gives up
        self.supervisor: asyncio.Task[None] | None = None
        # the word index's catch-up, running while the process serves (issue 47)
        self.indexer: asyncio.Task[None] | None = None
        self._raw = raw
        self._observer = observer

        def coll(collection: str) -> Collection:
            return Collection(raw[collection], observer=observer, faults=self.faults)

        self.users = UsersRepo(coll("users"))
        # without a word function items are written unindexed and lookups read them all
        self.word_index = WordIndex(coll("word_index"), words)
        self.items = ItemsRepo(coll("items"), self.word_index)
        self.summaries = SummariesRepo(coll("summaries"))
        self.messages = MessagesRepo(coll("messages"), coll("summaries"), self.users)
        self.pending = PendingRepo(coll("users"), coll("pending_actions"))
        self.ledger = LedgerRepo(coll("ledger"), signer=signer)
        self.beliefs = BeliefsRepo(coll("beliefs"))
        self.usage = UsageRepo(coll("usage"))
        self.updates = UpdatesRepo(coll("processed_updates"))
        self.leases = LeasesRepo(coll("leases"))
        self.constitutions = ConstitutionsRepo(coll("constitutions"))
        self.chat_queue = ChatQueueRepo(coll("processed_updates"))  # per-chat arrival order
        self.reminders = RemindersRepo(coll("reminders"))
        self.snapshots = SnapshotsRepo(coll("undo_snapshots"))
        self.memories = MemoriesRepo(coll("memories"))  # model memory (issue 12)
        self.allowed = AllowedUsersRepo(coll("allowed_users"))  # approved senders (DESIGN 11.6)

    async def ensure_indexes(self) -> None:
        for repo in (
            self.users,
            self.items,
            self.summaries,
            self.messages,
            self.pending,
            self.ledger,
            self.beliefs,
            self.usage,
            self.updates,
            self.leases,
            self.constitutions,
            self.chat_queue,
            self.reminders,
            self.snapshots,
            self.memories,
            self.allowed,
            self.word_index,
        ):
            await repo.ensure_indexes()

    def collections(self) -> dict[str, Collection]:
        """Every collection of DESIGN 4 by name, for whole-database work (backup, migrations)."""
        return {name: self._collection(name) for name in COLLECTIONS}

    def derived(self) -> dict[str, Collection]:
        """The collections rebuilt from the others (DERIVED): cleared where the others are replaced."""
        return {name: self._collection(name) for name in DERIVED}

    def _collection(self, name: str) -> Collection:
        return Collection(self._raw[name], observer=self._observer, faults=self.faults)

    async def catch_up_index(self) -> None:
        """Catch the word index up while serving: one process at a time, retried until done.

        The process holding the lease indexes (the users with the most items first); any
        other waits for it to finish, or takes over once its lease runs out. Lookups stay
        complete meanwhile (storage/wordindex.py).
        """
        owner = f"index:{uuid.uuid4().hex[:12]}"
        wait, longest = CATCH_UP_RETRY_S
        while True:
            try:
                if await self._catch_up_once(owner):
                    return
            except StorageError as exc:
                log_event(
                    log, "search index catch-up failed", level=logging.WARNING, error=str(exc)
                )
            await asyncio.sleep(wait)
            wait = min(wait * 2, longest)

    async def _catch_up_once(self, owner: str) -> bool:
        """Catch up under the lease; True once the index is ready (here or by another process)."""
        if not await self.items.prepare_index():
            return True
        now_ms = int(time.time() * 1000)
        if not await self.leases.acquire(
            CATCH_UP_LEASE, owner, ttl_ms=CATCH_UP_TTL_MS, now_ms=now_ms
        ):
            return False
        renewed = time.monotonic()

        async def heartbeat() -> None:
            nonlocal renewed
            if time.monotonic() - renewed >= CATCH_UP_TTL_MS / 4000:
                now = int(time.time() * 1000)
                await self.leases.renew(CATCH_UP_LEASE, owner, ttl_ms=CATCH_UP_TTL_MS, now_ms=now)
                renewed = time.monotonic()

        try:
            users, total = await self.users.by_items()
            await self.items.catch_up(users=users, total=total, heartbeat=heartbeat)
        finally:
            with contextlib.suppress(StorageError):
                await self.leases.release(CATCH_UP_LEASE, owner)
        return True

    async def ping(self) -> None:
        """Raise DatabaseUnavailable unless the server answers."""
        with translated("ping"):
            await self.client.admin.command("ping")

    async def replica_set(self) -> str | None:
        """The replica set's name, or None for a standalone server."""
        with translated("hello"):
            hello = await self.client.admin.command("hello")
        name = hello.get("setName")
        return str(name) if name else None

    async def drop(self) -> None:
        """Drop the whole database (tests and replays only)."""
        with translated("drop_database"):
            await self.client.drop_database(self.name)

    async def close(self) -> None:
        await self.client.close()


def make_client(uri: str, *, timeout_ms: int = 5_000) -> AsyncMongoClient[dict[str, Any]]:
    return AsyncMongoClient(
        uri,
        appname="lembra",
        serverSelectionTimeoutMS=timeout_ms,
        connectTimeoutMS=timeout_ms,
        socketTimeoutMS=max(timeout_ms * 2, 10_000),
    )


@dataclass(frozen=True)
class StorageConfig:
    """What `open_storage` needs; built from Settings by the caller."""

    uri: str | None
    db_name: str
    data_dir: Path
    embedded_port: int = 0
    embedded_start_timeout_s: float = 20.0
    embedded_memory: bool = False
    signing_key_file: Path | None = None  # LEDGER_SIGNING_KEY_FILE; else DATA_DIR's
    # False where a missing key must stay missing (`ledger verify` then checks no signatures)
    create_signing_key: bool = True
    embedded_max_restarts: int = 5
    # the agent's word function: items are indexed by it, and the index caught up at start
    search_words: WordSource | None = None


def _hosts(uri: str) -> str:
    """The host list of a MongoDB URI, without credentials or options."""
    rest = uri.split("://", 1)[-1]
    return rest.split("/", 1)[0].split("?", 1)[0].rpartition("@")[2]


def _unreachable(uri: str, *, embedded_log: Path | None) -> str:
    if embedded_log is not None:
        return (
            f"the embedded database at {_hosts(uri)} stopped answering: see "
            f"{embedded_log}, or set MONGODB_URI to use a MongoDB server"
        )
    return (
        f"cannot reach the database at {_hosts(uri)} (MONGODB_URI): check that the server "
        "is running and reachable, or unset MONGODB_URI to use the embedded database"
    )


async def _stop_indexing(database: Database) -> None:
    """Stop the catch-up where it is: the next start takes it up from there."""
    task, database.indexer = database.indexer, None
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _stop_supervising(database: Database) -> None:
    task, database.supervisor = database.supervisor, None
    if task is None:
        return
    if task.done():
        if not task.cancelled():
            task.exception()  # seen by whoever awaited it (`lembra serve`); never "unretrieved"
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


@asynccontextmanager
async def open_storage(
    config: StorageConfig, *, observer: Observer | None = None
) -> AsyncIterator[Database]:
    """Connect (starting the embedded server when no URI is given), ensure indexes, yield."""
    server: EmbeddedServer | None = None
    uri = config.uri
    if uri is None:
        server = EmbeddedServer(
            config.data_dir,
            port=config.embedded_port,
            start_timeout_s=config.embedded_start_timeout_s,
            memory=config.embedded_memory,
        )
        uri = server.start()
    try:
        key_file = key_path(config.data_dir, config.signing_key_file)
        signer = load_signer(key_file, create=config.create_signing_key)
        database = Database(
            make_client(uri),
            config.db_name,
            observer=observer,
            signer=signer,
            words=config.search_words,
        )
        try:
            try:
                await database.ensure_indexes()
            except DatabaseUnavailable:
                log = config.data_dir / "embedded.log" if server is not None else None
                raise DatabaseUnavailable(_unreachable(uri, embedded_log=log)) from None
            await upgrade(database.collections(), now_ms=int(time.time() * 1000))
            if signer is not None:
                await _adopt(database, signer, adoption_path(key_file), config)
            if await database.items.prepare_index():  # served meanwhile (issue 47)
                database.indexer = asyncio.create_task(
                    database.catch_up_index(), name="word-index-catch-up"
                )
            if server is not None and not server.memory:
                policy = Supervision(max_restarts=config.embedded_max_restarts)
                database.supervisor = asyncio.create_task(
                    supervise(server, policy), name="embedded-supervisor"
                )
            yield database
        finally:
            await _stop_indexing(database)
            await _stop_supervising(database)
            await database.close()
    finally:
        if server is not None:
            server.stop()


async def _adopt(
    database: Database, signer: LedgerSigner, path: Path, config: StorageConfig
) -> None:
    """Load where signing began; the first time, record every stream's head as that point.

    Events written before the key existed stay valid unsigned (their hash chain still
    holds); every later event must carry a signature.
    """
    heads = read_adoption(path, signer)
    if heads is None and config.create_signing_key:
        current = {h.stream: h.seq for h in await database.ledger.heads()}
        heads = write_adoption(path, signer, current)
    database.ledger.unsigned_until = heads or {}
