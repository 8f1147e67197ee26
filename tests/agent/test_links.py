"""LinkFetcher against a local web site over loopback, and the address classifier.

The autouse loopback guard (tests/conftest.py) fails any attempt to resolve or connect
to a non-loopback address, so a test that expects LinkRefused for a redirect to
10.0.0.1 or 169.254.169.254 would fail with NonLoopbackConnection instead if the
fetcher had tried to connect there.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from agent.errors import ServiceError, ServiceUnavailable
from agent.services.links import LinkFetcher, LinkRefused, PageInfo, classify_address, is_fetchable
from storage.embedded import free_port
from tests.support.pages import PageServer


@pytest.fixture
async def pages() -> AsyncIterator[PageServer]:
    server = PageServer()
    await server.start()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
async def fetcher() -> AsyncIterator[LinkFetcher]:
    async with LinkFetcher(timeout_s=5.0, max_bytes=64_000, allow_loopback=True) as link_fetcher:
        yield link_fetcher


async def test_title_description_and_site_name_are_extracted(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    info = await fetcher.fetch(pages.url("/article"))

    assert info == PageInfo(
        url=pages.url("/article"),
        title="Lembra & the art of memory",
        description="A page about remembering things.",
        site_name="Example Site",
        content_type="text/html",
    )


async def test_title_tag_is_used_without_open_graph(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    info = await fetcher.fetch(pages.url("/plain"))

    assert (info.title, info.description, info.site_name) == (
        "Only a title",
        "Only a description",
        None,
    )


async def test_malformed_markup_keeps_what_was_read(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    info = await fetcher.fetch(pages.url("/broken-markup"))

    assert (info.title, info.description) == ("Broken but titled", "Before the break")


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("/latin1", "Ação e reação"),  # charset in the Content-Type header
        ("/meta-charset", "Café “quoted”"),  # charset only in <meta charset>
    ],
)
async def test_declared_charset_is_honoured(
    pages: PageServer, fetcher: LinkFetcher, path: str, title: str
) -> None:
    assert (await fetcher.fetch(pages.url(path))).title == title


async def test_undeclared_charset_falls_back_to_utf8_without_failing(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    assert (await fetcher.fetch(pages.url("/no-charset"))).title == "Olá"


async def test_body_past_the_size_cap_is_not_read(pages: PageServer, fetcher: LinkFetcher) -> None:
    info = await fetcher.fetch(pages.url("/huge"))

    assert info.title is None  # the <title> sits after 2 MB; the cap is 64 kB


async def test_endless_body_stops_at_the_cap(pages: PageServer, fetcher: LinkFetcher) -> None:
    # The server never ends this body: only a reader that stops at max_bytes gets an answer.
    info = await fetcher.fetch(pages.url("/endless"))

    assert info.title == "Endless page"


async def test_slow_body_times_out_as_unavailable(pages: PageServer) -> None:
    async with LinkFetcher(timeout_s=0.2, max_bytes=64_000, allow_loopback=True) as fetcher:
        with pytest.raises(ServiceUnavailable, match="too long"):
            await fetcher.fetch(pages.url("/slow"))


async def test_non_html_is_not_parsed(pages: PageServer, fetcher: LinkFetcher) -> None:
    info = await fetcher.fetch(pages.url("/file.pdf"))

    assert (info.title, info.description, info.content_type) == (None, None, "application/pdf")


@pytest.mark.parametrize("status", [400, 403, 404, 410])
async def test_client_errors_are_service_errors(
    pages: PageServer, fetcher: LinkFetcher, status: int
) -> None:
    with pytest.raises(ServiceError, match=f"HTTP {status}") as caught:
        await fetcher.fetch(pages.url(f"/status/{status}"))

    assert not isinstance(caught.value, ServiceUnavailable | LinkRefused)


@pytest.mark.parametrize("status", [500, 502, 503])
async def test_server_errors_are_unavailable(
    pages: PageServer, fetcher: LinkFetcher, status: int
) -> None:
    with pytest.raises(ServiceUnavailable, match=f"HTTP {status}"):
        await fetcher.fetch(pages.url(f"/status/{status}"))


async def test_unreachable_server_is_unavailable(fetcher: LinkFetcher) -> None:
    with pytest.raises(ServiceUnavailable):
        await fetcher.fetch(f"http://127.0.0.1:{free_port()}/")


async def test_redirect_chain_is_followed_hop_by_hop(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    info = await fetcher.fetch(pages.url("/redirect/3"))

    assert (info.url, info.title) == (pages.url("/plain"), "Only a title")
    assert pages.hits == ["/redirect/3", "/redirect/2", "/redirect/1", "/plain"]


async def test_relative_redirect_is_resolved_and_fragment_dropped(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    info = await fetcher.fetch(pages.url("/relative-redirect"))

    assert info.url == pages.url("/article")


@pytest.mark.parametrize("path", ["/to-private", "/to-metadata"])
async def test_redirect_to_an_internal_address_is_refused_without_connecting(
    pages: PageServer, fetcher: LinkFetcher, path: str
) -> None:
    with pytest.raises(LinkRefused, match="not fetched"):
        await fetcher.fetch(pages.url(path))

    assert pages.hits == [path]


@pytest.mark.parametrize(
    ("path", "reason"),
    [("/to-ftp", "only http and https"), ("/to-credentials", "user name or password")],
)
async def test_redirect_to_a_bad_scheme_or_credentials_is_refused(
    pages: PageServer, fetcher: LinkFetcher, path: str, reason: str
) -> None:
    with pytest.raises(LinkRefused, match=reason):
        await fetcher.fetch(pages.url(path))


async def test_redirect_without_location_is_a_service_error(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    with pytest.raises(ServiceError, match="without a destination"):
        await fetcher.fetch(pages.url("/no-location"))


async def test_too_many_redirects_are_refused(pages: PageServer) -> None:
    async with LinkFetcher(
        timeout_s=5.0, max_bytes=64_000, allow_loopback=True, max_redirects=2
    ) as fetcher:
        with pytest.raises(LinkRefused, match="more than 2 times"):
            await fetcher.fetch(pages.url("/redirect/3"))

    assert pages.hits == ["/redirect/3", "/redirect/2", "/redirect/1"]


async def test_redirect_loop_is_refused(pages: PageServer, fetcher: LinkFetcher) -> None:
    with pytest.raises(LinkRefused, match="more than 5 times"):
        await fetcher.fetch(pages.url("/loop"))

    assert pages.hits == ["/loop"] * 6


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
async def test_loopback_pages_are_refused_unless_allowed(pages: PageServer, host: str) -> None:
    url = pages.url("/article").replace("127.0.0.1", host)
    async with LinkFetcher(timeout_s=5.0, max_bytes=64_000) as fetcher:
        with pytest.raises(LinkRefused, match="loopback"):
            await fetcher.fetch(url)

    assert pages.hits == []


async def test_host_name_is_resolved_and_fetched_when_its_addresses_are_allowed(
    pages: PageServer, fetcher: LinkFetcher
) -> None:
    url = pages.url("/plain").replace("127.0.0.1", "localhost")

    assert (await fetcher.fetch(url)).title == "Only a title"


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://example.com/file", "only http and https"),
        ("javascript:alert(1)", "only http and https"),
        ("http://user:pw@127.0.0.1/", "user name or password"),
        ("http://10.0.0.1/", "private"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://[::ffff:10.0.0.1]/", "private"),
        ("http://100.64.0.1/", "carrier-grade NAT"),
        ("http://0.0.0.0:80/", "unspecified"),
        ("http://2130706433/", "valid web address"),  # 127.0.0.1 in legacy decimal form
        ("http:///nohost", "no host"),
    ],
)
async def test_bad_addresses_are_refused_before_any_connection(
    fetcher: LinkFetcher, url: str, reason: str
) -> None:
    with pytest.raises(LinkRefused, match=reason):
        await fetcher.fetch(url)


async def test_fetch_before_start_is_a_programming_error() -> None:
    fetcher = LinkFetcher(timeout_s=1.0, max_bytes=1_024)

    with pytest.raises(RuntimeError, match="start"):
        await fetcher.fetch("http://127.0.0.1/")


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("8.8.8.8", "public"),
        ("93.184.216.34", "public"),
        ("2606:4700:4700::1111", "public"),
        ("10.0.0.1", "private"),
        ("172.16.5.4", "private"),
        ("192.168.1.1", "private"),
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("0.0.0.0", "unspecified"),
        ("169.254.169.254", "link_local"),
        ("100.64.0.1", "shared"),
        ("100.127.255.254", "shared"),
        ("224.0.0.1", "multicast"),
        ("239.255.255.250", "multicast"),
        ("255.255.255.255", "reserved"),
        ("240.0.0.1", "reserved"),
        ("192.0.2.1", "reserved"),  # documentation range
        ("198.18.0.1", "reserved"),  # benchmarking range
        ("::", "unspecified"),
        ("::1", "loopback"),
        ("[::1]", "loopback"),
        ("fe80::1", "link_local"),
        ("fe80::1%eth0", "link_local"),
        ("fc00::1", "private"),
        ("fd12:3456:789a::1", "private"),
        ("fec0::1", "private"),
        ("ff02::1", "multicast"),
        ("2001:db8::1", "reserved"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved"),  # Teredo
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:169.254.169.254", "link_local"),
        ("::ffff:8.8.8.8", "public"),
        ("2002:0a00:0001::", "private"),  # 6to4 around 10.0.0.1
        ("2002:7f00:0001::1", "loopback"),  # 6to4 around 127.0.0.1
        ("2002:0808:0808::1", "public"),  # 6to4 around 8.8.8.8
        ("64:ff9b::a00:1", "private"),  # NAT64 around 10.0.0.1
        ("64:ff9b::7f00:1", "loopback"),  # NAT64 around 127.0.0.1
        ("64:ff9b::808:808", "public"),  # NAT64 around 8.8.8.8
        ("64:ff9b:1::1", "private"),  # local-use NAT64
    ],
)
def test_address_classifier(address: str, expected: str) -> None:
    assert classify_address(address) == expected


def test_only_public_addresses_are_fetchable_and_loopback_only_when_allowed() -> None:
    assert is_fetchable("public")
    assert not is_fetchable("loopback")
    assert is_fetchable("loopback", allow_loopback=True)
    assert not is_fetchable("private", allow_loopback=True)
    assert not is_fetchable("link_local", allow_loopback=True)


def test_classifier_rejects_host_names() -> None:
    with pytest.raises(ValueError, match="does not appear to be"):
        classify_address("example.com")
