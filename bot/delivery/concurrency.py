"""In-process concurrency of the channels: per-chat slots, and tasks awaited at shutdown."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field


class ChatSerializer:
    """Per-chat order with chats in parallel: one lock per chat, one global bound.

    Locks exist only while a chat has work queued or running. The chat lock is taken
    before the global slot, so a burst in one chat never holds slots other chats need.
    """

    def __init__(self, max_concurrent: int) -> None:
        self._slots = asyncio.Semaphore(max_concurrent)
        self._chats: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def slot(self, key: str | None) -> AsyncIterator[None]:
        if key is None:
            async with self._slots:
                yield
            return
        entry = self._chats.get(key)
        if entry is None:
            entry = self._chats[key] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock, self._slots:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._chats[key]

    def queued(self, key: str) -> int:
        """How many jobs of chat `key` are queued or running here (0 when none)."""
        entry = self._chats.get(key)
        return entry[1][0] if entry is not None else 0


@dataclass
class BackgroundTasks:
    """Tasks the web app must wait for at shutdown (WhatsApp turns run after the 200)."""

    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def spawn(self, coro: Awaitable[None], *, name: str) -> None:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def __len__(self) -> int:
        return len(self._tasks)
