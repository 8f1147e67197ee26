"""URL helpers: accept a user's link, normalize it for dedup, spot videos, find links in text.

Nothing here touches the network: whether an address may be fetched is decided by
agent.services.links at fetch time.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass
from typing import Final
from urllib.parse import SplitResult, parse_qsl, quote, urlencode, urlsplit, urlunsplit

MAX_URL_CHARS = 2_048

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*):(.*)$", re.DOTALL)
# "example.com:8080/x" looks like scheme "example.com"; a port after the colon says it is a host.
_PORT_AFTER_COLON = re.compile(r"^\d+(?:[/?#]|$)")
_CONTROL_OR_SPACE = re.compile(r"[\x00-\x20\x7f-\x9f\s]")
_HOST_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Characters a path keeps as they are; anything else (e.g. "ü") is percent-encoded.
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"
_PERCENT_ESCAPE = re.compile(r"%[0-9a-fA-F]{2}")
# Schemes named as such in the refusal; any other "word:...@host" is read as credentials.
_OTHER_SCHEMES = frozenset(
    "javascript vbscript data file ftp ftps sftp ssh git mailto tel sms about blob chrome "
    "ws wss gopher magnet intent content view-source".split()
)

# Query parameters that only track where a click came from; dropped by normalize_url.
_TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "twclid",
        "igshid",
        "igsh",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "si",
        "ref_src",
        "ref_url",
    }
)
_TRACKING_PREFIXES = ("utm_",)
# `feature` is tracking only with these values (YouTube's share links); other values may matter.
_TRACKING_FEATURE_VALUES = frozenset(
    {"share", "shared", "youtu.be", "emb_title", "em-share_video_user"}
)


class InvalidUrl(ValueError):
    """A link we cannot accept. `code` names the reason for localized replies:
    credentials, scheme, too_long or invalid; the message explains it in English."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class ParsedUrl:
    url: str
    coerced: bool  # True when "https://" was added to a scheme-less address


def parse_user_url(raw: str) -> ParsedUrl:
    """Accept an http(s) URL or a scheme-less address ("example.com/x"), else raise InvalidUrl."""
    text = raw.strip()
    if not text:
        raise InvalidUrl("the link is empty")
    if len(text) > MAX_URL_CHARS:
        raise InvalidUrl(f"the link is longer than {MAX_URL_CHARS} characters", code="too_long")
    if _CONTROL_OR_SPACE.search(text):
        raise InvalidUrl("the link contains spaces or control characters")

    coerced = False
    match = _SCHEME.match(text)
    if match and not _PORT_AFTER_COLON.match(match.group(2)):
        scheme, rest = match.group(1).lower(), match.group(2)
        if scheme not in _DEFAULT_PORTS:
            if scheme not in _OTHER_SCHEMES and "@" in rest.split("/", 1)[0]:
                raise InvalidUrl(
                    "links with a user name or password are not accepted", code="credentials"
                )
            raise InvalidUrl(
                f"only http and https links are supported, not {scheme}:", code="scheme"
            )
        url = text
    else:
        url = "https:" + text if text.startswith("//") else "https://" + text
        coerced = True

    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise InvalidUrl("the link has an invalid host") from exc
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise InvalidUrl("links with a user name or password are not accepted", code="credentials")
    host = _host_of(parts)
    try:
        parts.port  # noqa: B018 - urlsplit validates the port lazily
    except ValueError as exc:
        raise InvalidUrl("the link has an invalid port") from exc
    ascii_host = _ascii_host(host)
    # A scheme-less word like "notes.txt" is only a link when its host looks like a domain.
    if coerced and "." not in ascii_host.strip(".") and not _is_ip_literal(host):
        raise InvalidUrl("this does not look like a web address")
    return ParsedUrl(url=url, coerced=coerced)


def normalize_url(url: str) -> str:
    """The dedup form of a link: same page, same string (see the module rules below).

    Lowercase scheme and host (IDNA-encoded), no default port, credentials or fragment,
    tracking parameters dropped, the rest sorted and re-encoded, the path percent-encoded
    with upper-case escapes and no trailing "/" (the root stays "/").
    YouTube video links of every shape become https://www.youtube.com/watch?v=ID.
    Raises InvalidUrl for what parse_user_url refuses.
    """
    parts = urlsplit(parse_user_url(url).url)
    scheme = parts.scheme.lower()
    host = _ascii_host(_host_of(parts)).rstrip(".")
    video_id = _youtube_id(host, parts)
    if video_id is not None:
        return f"https://www.youtube.com/watch?v={quote(video_id, safe='')}"

    netloc = f"[{host}]" if ":" in host else host
    port = parts.port
    if port is not None and port != _DEFAULT_PORTS.get(scheme):
        netloc = f"{netloc}:{port}"
    path = (
        _PERCENT_ESCAPE.sub(
            lambda m: m.group(0).upper(), quote(parts.path, safe=_PATH_SAFE)
        ).rstrip("/")
        or "/"
    )
    pairs = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if not _is_tracking(key, value)
    ]
    query = urlencode(sorted(pairs), quote_via=quote, safe="/:@,;!$'()*~")
    return urlunsplit((scheme, netloc, path, query, ""))


def is_video_url(url: str) -> bool:
    """Whether a link points at one video, to be saved as `video` rather than `link`.

    Recognised: YouTube (watch?v=, youtu.be/, /shorts/, /live/, /embed/, m. and music.
    subdomains, youtube-nocookie.com/embed/), Vimeo (vimeo.com/<digits>,
    player.vimeo.com/video/<digits>), Dailymotion (/video/<id>, dai.ly/<id>), Twitch
    (/videos/<digits>, clips.twitch.tv/<slug>, /<channel>/clip/<slug>) and TikTok
    (/@user/video/<digits>). Anything else, or an invalid link, is not a video.
    """
    try:
        parts = urlsplit(parse_user_url(url).url)
        host = _ascii_host(_host_of(parts))
    except InvalidUrl:
        return False
    if _youtube_id(host, parts) is not None:
        return True
    host = _strip_prefixes(host, ("www.", "m."))
    segments = [segment for segment in parts.path.split("/") if segment]
    if host == "vimeo.com":
        return bool(segments) and segments[-1].isdigit()
    if host == "player.vimeo.com":
        return len(segments) >= 2 and segments[0] == "video" and segments[1].isdigit()
    if host == "dailymotion.com":
        return len(segments) >= 2 and segments[0] == "video"
    if host == "dai.ly":
        return len(segments) == 1
    if host == "twitch.tv":
        return (len(segments) >= 2 and segments[0] == "videos" and segments[1].isdigit()) or (
            len(segments) >= 3 and segments[1] == "clip"
        )
    if host == "clips.twitch.tv":
        return len(segments) == 1
    if host == "tiktok.com":
        return (
            len(segments) >= 3
            and segments[0].startswith("@")
            and segments[1] == "video"
            and segments[2].isdigit()
        )
    return False


# A scheme URL, or a bare domain with a TLD; never the domain of an e-mail address.
_URL_IN_TEXT = re.compile(
    r"""
    (?<![\w@./:-])
    (?:
        https?://[^\s<>"'`]+
      |
        (?:[^\W_](?:[\w-]{0,61}[^\W_])?\.)+
        (?P<tld>[^\W\d_]{2,63})
        (?![\w@-])
        (?::\d{1,5})?
        (?P<rest>[/?#][^\s<>"'`]*)?
    )
    """,
    re.VERBOSE | re.IGNORECASE,
)
# Bare domains count as links only with a common TLD, a "www." or a path, so "arquivo.txt" does not.
_COMMON_TLDS = frozenset(
    """
    com net org edu gov mil int info biz io co me tv ly be gl gd ai app dev page site online
    xyz blog news wiki link live video music club shop store tech cloud art fm am to
    br pt us uk ca au de fr es it nl eu jp cn ru in mx ar cl ch se no fi dk pl cz ie nz za
    """.split()
)
_TRAILING_PUNCTUATION = ".,;:!?'\"»…*_"
_BRACKETS = {")": "(", "]": "[", "}": "{"}


def extract_urls(text: str) -> list[str]:
    """Links in free text, in order and without repeats, as written (no scheme is added)."""
    found: list[str] = []
    for match in _URL_IN_TEXT.finditer(text):
        candidate = _strip_trailing(match.group(0))
        tld = match.group("tld")
        if tld is not None and not (
            tld.lower() in _COMMON_TLDS
            or candidate.lower().startswith("www.")
            or match.group("rest")
        ):
            continue
        if not candidate or candidate in found:
            continue
        try:
            parse_user_url(candidate)
        except InvalidUrl:
            continue
        found.append(candidate)
    return found


def _strip_trailing(candidate: str) -> str:
    """Drop sentence punctuation and unbalanced closing brackets from the end of a match."""
    while candidate:
        last = candidate[-1]
        if last in _TRAILING_PUNCTUATION:
            candidate = candidate[:-1]
        elif last in _BRACKETS and candidate.count(last) > candidate.count(_BRACKETS[last]):
            candidate = candidate[:-1]
        else:
            break
    return candidate


def _host_of(parts: SplitResult) -> str:
    host = parts.hostname
    if not host:
        raise InvalidUrl("the link has no host")
    return host


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def _ascii_host(host: str) -> str:
    """The lowercase ASCII (IDNA) form of a host; IP literals pass through."""
    host = host.lower()
    if _is_ip_literal(host):
        return host
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError as exc:
        raise InvalidUrl("the link has an invalid host name") from exc
    labels = ascii_host.rstrip(".").split(".")
    if not all(_HOST_LABEL.match(label) for label in labels):
        raise InvalidUrl("the link has an invalid host name")
    return ascii_host


def _strip_prefixes(host: str, prefixes: tuple[str, ...]) -> str:
    for prefix in prefixes:
        if host.startswith(prefix):
            return host[len(prefix) :]
    return host


def _is_tracking(key: str, value: str) -> bool:
    lowered = key.lower()
    if lowered in _TRACKING_PARAMS or lowered.startswith(_TRACKING_PREFIXES):
        return True
    return lowered == "feature" and value.lower() in _TRACKING_FEATURE_VALUES


def _youtube_id(host: str, parts: SplitResult) -> str | None:
    """The video id of a YouTube video link, or None."""
    segments = [segment for segment in parts.path.split("/") if segment]
    if host == "youtu.be":
        return segments[0] if len(segments) == 1 else None
    bare = _strip_prefixes(host, ("www.", "m.", "music."))
    if bare == "youtube-nocookie.com":
        return segments[1] if len(segments) == 2 and segments[0] == "embed" else None
    if bare != "youtube.com":
        return None
    if segments == ["watch"]:
        ids = [value for key, value in parse_qsl(parts.query) if key == "v" and value]
        return ids[0] if ids else None
    if len(segments) == 2 and segments[0] in {"shorts", "live", "embed"}:
        return segments[1]
    return None


# Words around a link that say nothing of what it is about: the request, pointers, the kind
# of page, "too"; what is left ("sobre como plantar manjericão", "about sourdough starters")
# is the link's description (issue 41)
_LINK_FRAME_WORDS: Final = frozenset(
    """salva salvar salve guarda guardar guarde anota anotar anote adiciona adicionar adicione
    bota botar bote poe coloca coloque manda registra add save store keep put stash bookmark
    jot note down here aqui ai isso isto esse essa este esta aquele aquela o a os as um uma
    the a an this that these those my meu minha one ones e and tb tbm tambem too also pra
    para mim me for please pls pfv por favor link links site sites pagina page artigo
    artigos article articles post materia reportagem texto video videos tutorial blog
    sobre de do da dos das about on of com with novo nova new outro outra another ai ae la
    ok valeu obrigado thanks thx ler ver assistir depois later read watch mais tarde""".split()
)
_LINK_WORD: Final = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_MAX_ABOUT_CHARS: Final = 300


def said_about_link(text: str) -> str | None:
    """What a message holding exactly one link says the link is about ("guarda esse link
    sobre como plantar manjericão em vaso <url>" -> "como plantar manjericão em vaso"), or
    None when it holds several links or says nothing of it ("and this one <url>")."""
    links = extract_urls(text[:2_000])
    if len(links) != 1:
        return None
    before, _, after = text[:2_000].partition(links[0])
    said = [s for s in (_without_frame(before), _without_frame(after)) if s]
    if len(said) != 1:  # words on both sides: which are about the link is not certain
        return None
    return said[0][:_MAX_ABOUT_CHARS].strip() or None


def _without_frame(part: str) -> str:
    """`part` without the frame words at its edges ("" when nothing else is in it)."""
    words = list(_LINK_WORD.finditer(part))

    def frame(match: re.Match[str]) -> bool:
        folded = _fold_word(match.group())
        return folded in _LINK_FRAME_WORDS or folded.isdigit()

    start, end = 0, len(words)
    while start < end and frame(words[start]):
        start += 1
    while end > start and frame(words[end - 1]):
        end -= 1
    return part[words[start].start() : words[end - 1].end()] if start < end else ""


def _fold_word(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
