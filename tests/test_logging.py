"""Structured logging: one JSON object a line, no secrets, no message text."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest
from pydantic import BaseModel, ValidationError

from config.errors import ConfigError
from config.logging import log_event, setup_logging

USER_TEXT = "salva meu segredo 4417"
TOKEN = "123456:AAE-bot-token-never-logged"


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    root = logging.getLogger()
    level = root.level
    setup_logging("DEBUG", stream=stream)
    try:
        yield stream
    finally:
        root.setLevel(level)
        for handler in list(root.handlers):
            if getattr(handler, "_lembra", False):
                root.removeHandler(handler)


def records(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_each_event_is_one_json_line_with_content_and_secrets_withheld(
    logs: io.StringIO,
) -> None:
    log = logging.getLogger("lembra.test")
    log_event(
        log,
        "turn_done",
        user_id="tg:1",
        text=USER_TEXT,
        query=USER_TEXT,
        bot_token=TOKEN,
        webhook_secret=TOKEN,
        state="OK",
    )
    log_event(log, "two\nlines", level=logging.WARNING)
    [first, second] = records(logs)
    assert first["event"] == "turn_done"
    assert first["level"] == "info"
    assert (first["user_id"], first["state"]) == ("tg:1", "OK")
    assert USER_TEXT not in logs.getvalue()
    assert TOKEN not in logs.getvalue()
    assert second["event"] == "two\nlines"  # still one line on the wire


class Note(BaseModel):
    year: int


def failing_turn() -> None:
    try:
        Note.model_validate({"year": USER_TEXT})  # pydantic quotes the input in its message
    except ValidationError as exc:
        raise RuntimeError(f"POST https://api.telegram.org/bot{TOKEN}/sendMessage") from exc


def test_a_logged_traceback_keeps_types_and_frames_but_not_foreign_messages(
    logs: io.StringIO,
) -> None:
    log = logging.getLogger("lembra.test")
    try:
        failing_turn()
    except RuntimeError:
        log_event(log, "turn_failed", level=logging.ERROR, exc_info=True)
    [record] = records(logs)
    assert record["error_type"] == "RuntimeError"
    trace = str(record["traceback"])
    assert "in failing_turn" in trace
    assert "pydantic_core._pydantic_core.ValidationError" in trace
    assert USER_TEXT not in logs.getvalue()
    assert TOKEN not in logs.getvalue()


def test_lembras_own_error_messages_are_kept(logs: io.StringIO) -> None:
    try:
        raise ConfigError("TELEGRAM_BOT_TOKEN is required for `lembra telegram`")
    except ConfigError:
        log_event(logging.getLogger("lembra.test"), "start_failed", exc_info=True)
    [record] = records(logs)
    assert "TELEGRAM_BOT_TOKEN is required" in str(record["traceback"])


async def test_a_model_request_logs_no_line_of_the_http_client(logs: io.StringIO) -> None:
    """Issue 45: `serve` printed an INFO `HTTP Request: POST ...` per model request (the
    openai SDK's client is httpx2, which logs under its own name)."""
    from langchain_core.messages import HumanMessage

    from agent.planning.schema import planner_function_schema
    from agent.planning.transport import ModelTransport
    from agent.tokens import TokenCounter
    from bot.fakes.scripted_model import ScriptedModelServer

    noop = {"action": "NOOP", "tool": None, "args": None, "message": None}
    noop["belief"] = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}
    async with ScriptedModelServer() as server:
        server.begin_turn([noop])
        transport = ModelTransport(
            base_url=server.base_url,
            api_key="k",
            model="m",
            timeout_s=5,
            max_tokens=50,
            counter=TokenCounter(backend="approximate"),
        )
        await transport.complete([HumanMessage("oi")], tools=[planner_function_schema()])
        await transport.aclose()

    loggers = {str(r["logger"]) for r in records(logs)}
    assert "agent.planning.transport" in loggers
    assert not {name for name in loggers if name.startswith(("httpx", "httpcore", "openai"))}
