"""`turn_done`: one content-free line per turn, what an operator greps first (issue 31)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from agent.types import Incoming
from config.logging import setup_logging
from storage import Database
from tests.support.live import call, live_runtime

SECRET = "segredo azul 4417"
FIELDS = {
    "label",
    "tools",
    "state",
    "score",
    "model_calls",
    "prompt_size",
    "round_trips",
    "ms",
}


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """What `lembra serve` would write (its JSON handler), at DEBUG."""
    stream = io.StringIO()
    root = logging.getLogger()
    level = root.level
    setup_logging("DEBUG", stream=stream)
    try:
        yield stream
    finally:
        root.setLevel(level)
        for handler in [h for h in root.handlers if getattr(h, "_lembra", False)]:
            root.removeHandler(handler)


def turn_lines(stream: io.StringIO) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    return [line for line in lines if line["event"] == "turn_done"]


async def test_a_planned_save_logs_one_line_with_its_costs_and_no_text(
    db: Database, logs: io.StringIO
) -> None:
    async with live_runtime(db) as live:
        reply, _ = await live.say(f"anota: {SECRET}", llm=[call("save_note", content=SECRET)])
        await live.say("lista")

    [planned, listed] = turn_lines(logs)
    assert FIELDS <= planned.keys()
    assert planned["level"] == "debug"  # the console's turns: shown when someone debugs
    assert planned["label"] == "llm"
    assert planned["tools"] == "save_note"
    assert (planned["state"], planned["score"]) == (reply.meta.state, reply.meta.score)
    assert planned["model_calls"] == 1
    assert planned["prompt_size"] == reply.meta.tokens > 0
    assert planned["round_trips"] >= 4  # the user read, the save's effect, the turn's messages
    assert planned["ms"] > 0
    assert (listed["label"], listed["tools"], listed["model_calls"], listed["prompt_size"]) == (
        "list_all",
        "-",
        0,
        0,
    )
    assert "segredo" not in logs.getvalue()
    assert "4417" not in logs.getvalue()


async def test_a_served_channel_logs_its_turn_at_info(db: Database, logs: io.StringIO) -> None:
    async with live_runtime(db) as live:
        await live.runtime.handle(
            Incoming(channel="telegram", chat_id="42", user_id="tg:42", text="lista")
        )

    [line] = turn_lines(logs)
    assert line["level"] == "info"
    assert line["channel"] == "telegram"
    assert line["model_calls"] == 0
    assert line["round_trips"] >= 1
