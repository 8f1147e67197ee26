"""The autouse guard (tests/conftest.py): no test reaches past loopback."""

from __future__ import annotations

import socket

import aiohttp
import pytest

from tests.support.netguard import NonLoopbackConnection


def test_a_plain_socket_to_a_remote_address_fails_the_test() -> None:
    with pytest.raises(NonLoopbackConnection, match="192.0.2.1"):
        socket.create_connection(("192.0.2.1", 443), timeout=1)
    with socket.socket(socket.AF_INET6) as sock, pytest.raises(NonLoopbackConnection):
        sock.connect_ex(("2001:db8::1", 443, 0, 0))


def test_resolving_a_public_name_fails_the_test() -> None:
    with pytest.raises(NonLoopbackConnection, match="api.telegram.org"):
        socket.getaddrinfo("api.telegram.org", 443)


async def test_an_http_client_cannot_reach_a_remote_host() -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(NonLoopbackConnection):
            await session.get("http://192.0.2.1/", timeout=aiohttp.ClientTimeout(total=5))
        with pytest.raises(NonLoopbackConnection):
            await session.get(
                "https://api.themoviedb.org/3", timeout=aiohttp.ClientTimeout(total=5)
            )


def test_loopback_stays_open() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
    assert socket.getaddrinfo("localhost", 80)
