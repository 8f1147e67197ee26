"""`LLM_OUTPUT_MODE=auto` probes a server once a day, not at every start (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from agent.assembly import open_deps
from agent.clock import FakeClock
from agent.planning.modecache import FILE_NAME, KEEP_MS, cache_key, read_mode, write_mode
from bot.fakes.scripted_model import ScriptedModelServer
from storage import Database
from tests.support.live import START, make_settings, shared_counter

ACCEPTED = {"raw": '{"ok": true}'}


async def start(
    db: Database, server: ScriptedModelServer, data_dir: Path, clock: FakeClock, **script: Any
) -> tuple[str, int]:
    """Open the dependencies as `lembra chat` does: (the mode used, requests the server got)."""
    config = make_settings(
        server.base_url, "http://127.0.0.1:9", llm_output_mode="auto", data_dir=data_dir
    )
    server.begin_turn(script.get("outputs", []), script.get("errors", []))
    async with open_deps(config, db=db, clock=clock, counter=shared_counter()) as deps:
        assert deps.model is not None
        mode = deps.model.output_mode
    return mode, server.end_turn().llm_calls


async def test_the_probe_result_is_kept_for_a_day_per_server_and_model(
    db: Database, tmp_path: Path
) -> None:
    clock = FakeClock(START)
    async with ScriptedModelServer(counter=shared_counter()) as server:
        assert await start(db, server, tmp_path, clock, outputs=[ACCEPTED]) == ("json_schema", 1)
        clock.advance(3_600)
        # the next start that day asks the server nothing
        assert await start(db, server, tmp_path, clock) == ("json_schema", 0)
        clock.advance(KEEP_MS // 1000)  # a day after the probe: asked again
        assert await start(db, server, tmp_path, clock, errors=[{"status": 400}]) == ("tools", 1)
    kept = json.loads((tmp_path / FILE_NAME).read_text())
    assert list(kept) == [cache_key(server.base_url, "test-scripted")]
    assert "test-not-a-secret" not in (tmp_path / FILE_NAME).read_text()  # no API key in it


async def test_a_probe_that_got_no_answer_is_not_kept(db: Database, tmp_path: Path) -> None:
    clock = FakeClock(START)
    async with ScriptedModelServer(counter=shared_counter()) as server:
        # a 5xx says nothing about what the server takes: tools for now, asked again next start
        assert await start(db, server, tmp_path, clock, errors=[{"status": 503}]) == ("tools", 1)
        assert await start(db, server, tmp_path, clock, outputs=[ACCEPTED]) == ("json_schema", 1)


def test_entries_are_per_server_and_model_and_expire(tmp_path: Path) -> None:
    path = tmp_path / "deep" / FILE_NAME
    local = cache_key("http://127.0.0.1:8099/v1/", "qwen")
    assert local == cache_key("http://127.0.0.1:8099/v1", "qwen")
    assert write_mode(path, local, "json_schema", now_ms=1_000)
    assert write_mode(path, cache_key(None, "gpt-4o-mini"), "tools", now_ms=2_000)
    assert read_mode(path, local, now_ms=1_000 + KEEP_MS - 1) == "json_schema"
    assert read_mode(path, local, now_ms=1_000 + KEEP_MS) is None
    assert read_mode(path, local, now_ms=500) is None  # the clock went back: not trusted
    assert read_mode(path, cache_key(None, "gpt-4o-mini"), now_ms=3_000) == "tools"
    assert read_mode(path, cache_key("http://127.0.0.1:8099/v1", "other"), now_ms=3_000) is None


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=20), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None)
@given(
    content=st.one_of(
        st.binary(max_size=200),
        _JSON.map(lambda v: json.dumps(v).encode()),
        st.dictionaries(
            st.just("http://x qwen"),
            st.fixed_dictionaries({"mode": _JSON, "at_ms": _JSON}),
        ).map(lambda v: json.dumps(v).encode()),
    )
)
def test_whatever_the_file_holds_reading_it_never_raises(content: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / FILE_NAME
        path.write_bytes(content)
        assert read_mode(path, "http://x qwen", now_ms=10**12) in (None, "tools", "json_schema")
        assert write_mode(path, "http://x qwen", "tools", now_ms=10**12)  # and it is repaired
        assert read_mode(path, "http://x qwen", now_ms=10**12) == "tools"
