"""A loopback TCP relay in front of a database server that a test can cut and restore.

A cut closes every relayed connection and refuses new ones, which is what the driver
sees when the database goes down; restoring lets connections through again. The
server behind it keeps its data, so a test observes an outage and a recovery.
`refuse_writes` drops a connection that sends a write command while reads still pass:
what a full disk looks like from outside (ping answers, every write fails).
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit


class TcpProxy:
    def __init__(self, target_uri: str) -> None:
        parts = urlsplit(target_uri)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 27017)
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.is_cut = False
        self.refuse_writes = False

    async def start(self) -> TcpProxy:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self

    @property
    def uri(self) -> str:
        assert self._server is not None
        port = self._server.sockets[0].getsockname()[1]
        return f"mongodb://127.0.0.1:{port}/?directConnection=true"

    def cut(self) -> None:
        """Drop every open connection and refuse new ones until `restore`."""
        self.is_cut = True
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()

    def restore(self) -> None:
        self.is_cut = False

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.is_cut:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*self._target)
        self._writers |= {writer, up_writer}
        try:
            await asyncio.gather(self._requests(reader, up_writer), _pipe(up_reader, writer))
        finally:
            for end in (writer, up_writer):
                self._writers.discard(end)
                end.close()

    async def _requests(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Relay whole wire messages, dropping the connection on a write when refused."""
        with contextlib.suppress(ConnectionError, OSError, asyncio.IncompleteReadError):
            while True:
                head = await reader.readexactly(4)
                message = head + await reader.readexactly(int.from_bytes(head, "little") - 4)
                if self.refuse_writes and _command(message) in WRITE_COMMANDS:
                    break
                writer.write(message)
                await writer.drain()
        writer.close()


WRITE_COMMANDS = frozenset({"insert", "update", "delete", "findAndModify"})
_OP_MSG = 2013


def _command(message: bytes) -> str:
    """The command name of an OP_MSG (the first key of its body section), else ""."""
    if int.from_bytes(message[12:16], "little") != _OP_MSG or message[20] != 0:
        return ""
    start = 21 + 4 + 1  # header, flags, section kind; then the BSON length and a type byte
    end = message.index(b"\0", start)
    return message[start:end].decode("utf-8", "replace")


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
    writer.close()
