"""URL helpers: what a user's link becomes, its dedup form, video detection, links in text."""

from __future__ import annotations

import pytest

from agent.understanding.urls import (
    InvalidUrl,
    ParsedUrl,
    extract_urls,
    is_video_url,
    normalize_url,
    parse_user_url,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("https://example.com/x", ParsedUrl("https://example.com/x", coerced=False)),
        ("http://example.com", ParsedUrl("http://example.com", coerced=False)),
        ("  https://example.com/x  ", ParsedUrl("https://example.com/x", coerced=False)),
        ("HTTPS://Example.com/", ParsedUrl("HTTPS://Example.com/", coerced=False)),
        ("example.com/x", ParsedUrl("https://example.com/x", coerced=True)),
        (
            "www.youtube.com/watch?v=dQw4w9WgXcQ",
            ParsedUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ", coerced=True),
        ),
        ("//example.com/a", ParsedUrl("https://example.com/a", coerced=True)),
        ("example.com:8080/x", ParsedUrl("https://example.com:8080/x", coerced=True)),
        ("http://10.0.0.1/admin", ParsedUrl("http://10.0.0.1/admin", coerced=False)),
        ("http://[::1]:8080/", ParsedUrl("http://[::1]:8080/", coerced=False)),
        ("127.0.0.1:8080/x", ParsedUrl("https://127.0.0.1:8080/x", coerced=True)),
        ("https://café.com.br/ação", ParsedUrl("https://café.com.br/ação", coerced=False)),
    ],
)
def test_parse_accepts_web_links(raw: str, expected: ParsedUrl) -> None:
    assert parse_user_url(raw) == expected


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("javascript:alert(1)", "only http and https"),
        ("JavaScript:alert(1)", "only http and https"),
        ("data:text/html,<script>alert(1)</script>", "only http and https"),
        ("file:///etc/passwd", "only http and https"),
        ("ftp://example.com/file", "only http and https"),
        ("mailto:ana@example.com", "only http and https"),
        ("http://user:pass@example.com", "user name or password"),
        ("https://user@example.com/", "user name or password"),
        ("user:pass@example.com", "user name or password"),
        ("http://", "no host"),
        ("http:///path", "no host"),
        ("http:/example.com", "no host"),
        ("https://exa mple.com", "spaces or control characters"),
        ("https://example.com/\x00", "spaces or control characters"),
        ("https://example.com/a\tb", "spaces or control characters"),
        ("https://example.com/" + "a" * 2_100, "longer than 2048"),
        ("", "empty"),
        ("   ", "empty"),
        ("http://example.com:99999/", "invalid port"),
        ("http://example.com:abc/", "invalid port"),
        ("http://a..b/", "invalid host"),
        ("https://-bad-.com/", "invalid host"),
        ("http://[::1/", "invalid host"),
        ("inception", "does not look like a web address"),
    ],
)
def test_parse_refuses_with_a_clear_reason(raw: str, reason: str) -> None:
    with pytest.raises(InvalidUrl, match=reason):
        parse_user_url(raw)


def test_invalid_url_is_a_value_error() -> None:
    assert issubclass(InvalidUrl, ValueError)


@pytest.mark.parametrize(
    ("url", "normalized"),
    [
        ("HTTP://Example.COM:80/a/?utm_source=x&b=2&a=1#frag", "http://example.com/a?a=1&b=2"),
        ("https://example.com", "https://example.com/"),
        ("https://example.com/", "https://example.com/"),
        ("https://example.com:443/x/?", "https://example.com/x"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://example.com:443/x", "http://example.com:443/x"),
        ("https://example.com/Path/Case", "https://example.com/Path/Case"),
        ("example.com/x", "https://example.com/x"),
        ("https://EXAMPLE.com./path//", "https://example.com/path"),
        (
            "https://example.com/p?fbclid=1&gclid=2&utm_medium=social&UTM_Campaign=c&keep=1",
            "https://example.com/p?keep=1",
        ),
        ("https://example.com/p?feature=share&x=1", "https://example.com/p?x=1"),
        ("https://example.com/p?feature=search", "https://example.com/p?feature=search"),
        (
            "https://example.com/a?c=x+y&b=hello%20world",
            "https://example.com/a?b=hello%20world&c=x%20y",
        ),
        ("https://example.com/a?z=1&a=2&a=1", "https://example.com/a?a=1&a=2&z=1"),
        ("https://café.com/ü", "https://xn--caf-dma.com/%C3%BC"),
        ("https://example.com/%c3%bc", "https://example.com/%C3%BC"),
        ("http://[::1]:80/", "http://[::1]/"),
        # Every shape of the same YouTube video is one item.
        ("https://youtu.be/dQw4w9WgXcQ?si=abc", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        (
            "https://m.youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
        ("youtube.com/shorts/dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        (
            "http://www.youtube.com/watch?v=dQw4w9WgXcQ#t=10",
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        ),
    ],
)
def test_normalize_for_dedup(url: str, normalized: str) -> None:
    assert normalize_url(url) == normalized


def test_normalize_refuses_what_parse_refuses() -> None:
    with pytest.raises(InvalidUrl):
        normalize_url("javascript:alert(1)")


@pytest.mark.parametrize(
    ("url", "video"),
    [
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", True),
        ("www.youtube.com/watch?v=dQw4w9WgXcQ", True),
        ("https://youtu.be/dQw4w9WgXcQ", True),
        ("https://www.youtube.com/shorts/abc123", True),
        ("https://m.youtube.com/watch?v=abc", True),
        ("https://music.youtube.com/watch?v=abc", True),
        ("https://www.youtube.com/embed/abc", True),
        ("https://www.youtube.com/live/abc", True),
        ("https://www.youtube-nocookie.com/embed/abc", True),
        ("https://vimeo.com/123456789", True),
        ("https://player.vimeo.com/video/123456789", True),
        ("https://www.dailymotion.com/video/x7tgad0", True),
        ("https://dai.ly/x7tgad0", True),
        ("https://www.twitch.tv/videos/123456", True),
        ("https://clips.twitch.tv/FunnySlug", True),
        ("https://www.twitch.tv/channel/clip/FunnySlug", True),
        ("https://www.tiktok.com/@someone/video/7234567890", True),
        ("https://www.youtube.com/", False),
        ("https://www.youtube.com/watch", False),
        ("https://www.youtube.com/@channel", False),
        ("https://vimeo.com/about", False),
        ("https://www.twitch.tv/channel", False),
        ("https://www.tiktok.com/@someone", False),
        ("https://example.com/video/1", False),
        ("https://notyoutube.com/watch?v=abc", False),
        ("javascript:alert(1)", False),
        ("not a url", False),
    ],
)
def test_is_video_url(url: str, video: bool) -> None:
    assert is_video_url(url) is video


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        ("salva youtube.com/watch?v=abc pra ver depois", ["youtube.com/watch?v=abc"]),
        ("guarda https://example.com/artigo, por favor", ["https://example.com/artigo"]),
        ("olha isso: https://example.com/a.", ["https://example.com/a"]),
        ("(veja https://example.com/x)", ["https://example.com/x"]),
        (
            "https://en.wikipedia.org/wiki/Inception_(film)!",
            ["https://en.wikipedia.org/wiki/Inception_(film)"],
        ),
        ("link <https://example.com/q?a=1&b=2>", ["https://example.com/q?a=1&b=2"]),
        (
            "vê www.globo.com e g1.globo.com/economia?x=1.",
            ["www.globo.com", "g1.globo.com/economia?x=1"],
        ),
        ("dois: https://a.com/1 e https://b.com/2", ["https://a.com/1", "https://b.com/2"]),
        ("repetido https://a.com/1 https://a.com/1", ["https://a.com/1"]),
        ("site.com.br", ["site.com.br"]),
        ("HTTPS://EXAMPLE.COM/X", ["HTTPS://EXAMPLE.COM/X"]),
        # Not links: e-mail addresses, file names, abbreviations, numbers, bad schemes.
        ("manda pro ana@gmail.com", []),
        ("abre o arquivo notas.txt e o script.py", []),
        ("e.g. i.e. Sr.Silva", []),
        ("inception 2010 nota 9.5", []),
        ("javascript:alert(1)", []),
        ("", []),
    ],
)
def test_extract_urls(text: str, urls: list[str]) -> None:
    assert extract_urls(text) == urls


def test_extracted_urls_parse() -> None:
    [url] = extract_urls("salva youtube.com/watch?v=abc pra ver depois")

    assert parse_user_url(url) == ParsedUrl("https://youtube.com/watch?v=abc", coerced=True)
    assert is_video_url(url)
