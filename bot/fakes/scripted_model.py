"""A scripted OpenAI-compatible Chat Completions server on loopback (DESIGN 6, `lembra replay`).

Each request is answered with the next scripted output of the current turn, so the
real client code (langchain-openai over the openai SDK) runs end to end:

- a planner object (any other mapping) becomes an assistant message with one
  `tool_calls` entry calling the request's function (`tools[0]`, else "plan") with
  the object's compact JSON as `arguments`;
- `{raw: TEXT}` becomes a plain assistant message with that content and no call;
- `{raw_arguments: TEXT}` becomes a call whose `arguments` string is TEXT verbatim
  (for invalid JSON; not part of the transcript format).

Scripted errors are served first, one per request, consuming no output:
`{status: 500}` (any 4xx/5xx), `{status: 429, retry_after: 1}`, `{delay: S}` (hold
the request S seconds, then close the connection without answering).

Like the real API, the server answers HTTP 400 to a `tool` message that does not
answer a pending call of the assistant message before it, to an assistant
`tool_calls` message whose ids are not all answered right after it, to a prompt
over `context_size` tokens (counted by `TokenCounter.count_request`) and to a
malformed body. Those, and running out of outputs, are recorded as protocol
failures of the turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import socket
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import web

from agent.planning.schema import PLANNER_FUNCTION_NAME
from agent.tokens import TokenCounter, compact_json

Outcome = Literal["answered", "error", "dropped", "rejected", "out_of_outputs"]
FailureCode = Literal[
    "out_of_outputs",
    "invalid_request",
    "unpaired_tool_message",
    "unanswered_tool_calls",
    "context_length_exceeded",
]

_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "invalid_request_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_exceeded",
}
OUT_OF_OUTPUTS = "model server ran out of scripted outputs in this turn"


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """One request the server received, with what it answered."""

    index: int  # 0-based over the server's life
    body: Any  # parsed JSON, or None when the body was not JSON
    prompt_tokens: int | None  # None when the body had no countable messages
    outcome: Outcome
    status: int | None  # HTTP status answered; None when the connection was dropped


@dataclass(frozen=True, slots=True)
class ProtocolFailure:
    """Something a real API would refuse, or a script that did not fit the requests."""

    request_index: int
    code: FailureCode
    message: str


@dataclass(frozen=True, slots=True)
class ScriptedTurnReport:
    """What happened between `begin_turn` (or the previous `end_turn`) and `end_turn`."""

    requests: tuple[RecordedRequest, ...]
    unconsumed_outputs: tuple[Mapping[str, Any], ...]
    unserved_errors: tuple[Mapping[str, Any], ...]
    failures: tuple[ProtocolFailure, ...]

    @property
    def llm_calls(self) -> int:
        """Requests received, errored ones included."""
        return len(self.requests)

    @property
    def prompt_tokens(self) -> tuple[int | None, ...]:
        return tuple(request.prompt_tokens for request in self.requests)

    @property
    def max_prompt_tokens(self) -> int | None:
        counted = [n for n in self.prompt_tokens if n is not None]
        return max(counted) if counted else None

    def problems(self) -> list[str]:
        """Why a transcript using this turn must fail; empty when the script fit exactly."""
        found = [f"request {f.request_index}: {f.code}: {f.message}" for f in self.failures]
        if self.unconsumed_outputs:
            found.append(f"{len(self.unconsumed_outputs)} scripted output(s) left unconsumed")
        if self.unserved_errors:
            found.append(f"{len(self.unserved_errors)} scripted error(s) never served")
        return found


@dataclass(frozen=True, slots=True)
class _Rejection:
    code: FailureCode
    message: str
    param: str | None = None


@dataclass
class _Turn:
    outputs: deque[Mapping[str, Any]] = field(default_factory=deque)
    errors: deque[Mapping[str, Any]] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    failures: list[ProtocolFailure] = field(default_factory=list)
    scripted: bool = False


class ScriptedModelServer:
    """An OpenAI-compatible `/v1/chat/completions` answering from a per-turn script."""

    def __init__(self, *, context_size: int = 16_000, counter: TokenCounter | None = None) -> None:
        self.context_size = context_size
        self.counter = counter if counter is not None else TokenCounter()
        self.requests: list[RecordedRequest] = []
        self._turn = _Turn()
        self._calls = 0
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self.base_url = ""

    async def start(self) -> str:
        """Listen on a free loopback port; return the base URL ending in /v1."""
        if self._runner is not None:
            raise RuntimeError("the scripted model server is already started")
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        app.router.add_post("/chat/completions", self._handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        await web.SockSite(runner, sock).start()
        self._runner = runner
        self.base_url = f"http://127.0.0.1:{port}/v1"
        return self.base_url

    async def close(self) -> None:
        """Stop listening; requests being held by a `delay` are dropped at once."""
        self._closing.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> ScriptedModelServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def begin_turn(
        self, outputs: Sequence[Mapping[str, Any]], errors: Sequence[Mapping[str, Any]] = ()
    ) -> None:
        """Script the next requests: `errors` first, one per request, then `outputs` in order."""
        if self._turn.scripted:
            raise RuntimeError("begin_turn called twice without end_turn")
        for position, output in enumerate(outputs):
            check_output(position, output)
        for position, error in enumerate(errors):
            check_error(position, error)
        self._turn.outputs = deque(outputs)
        self._turn.errors = deque(errors)
        self._turn.scripted = True

    def end_turn(self) -> ScriptedTurnReport:
        """Report every request since the previous `end_turn`, and what was left of the script."""
        turn, self._turn = self._turn, _Turn()
        return ScriptedTurnReport(
            requests=tuple(turn.requests),
            unconsumed_outputs=tuple(turn.outputs),
            unserved_errors=tuple(turn.errors),
            failures=tuple(turn.failures),
        )

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        # No await from here until the request is recorded, so concurrent
        # requests get distinct indexes and consume the script in arrival order.
        index = len(self.requests)
        body = _parse_json(raw)
        prompt_tokens = self._count(body)
        turn = self._turn

        def record(outcome: Outcome, status: int | None) -> None:
            entry = RecordedRequest(index, body, prompt_tokens, outcome, status)
            self.requests.append(entry)
            turn.requests.append(entry)

        if turn.errors:
            error = turn.errors.popleft()
            if "delay" in error:
                record("dropped", None)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._closing.wait(), timeout=float(error["delay"]))
                if request.transport is not None:
                    request.transport.close()
                return web.Response(status=500)  # never reaches the closed connection
            status = int(error["status"])
            record("error", status)
            return _scripted_error(status, error.get("retry_after"))

        rejection = self._check(body, prompt_tokens)
        if rejection is not None:
            record("rejected", 400)
            turn.failures.append(ProtocolFailure(index, rejection.code, rejection.message))
            code = rejection.code if rejection.code == "context_length_exceeded" else None
            return _error_response(400, rejection.message, code=code, param=rejection.param)

        if not turn.outputs:
            record("out_of_outputs", 500)
            turn.failures.append(ProtocolFailure(index, "out_of_outputs", OUT_OF_OUTPUTS))
            return _error_response(500, OUT_OF_OUTPUTS, error_type="server_error")

        record("answered", 200)
        return web.json_response(self._completion(body, turn.outputs.popleft(), prompt_tokens or 0))

    def _count(self, body: Any) -> int | None:
        if not isinstance(body, dict):
            return None
        messages, tools = body.get("messages"), body.get("tools")
        if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
            return None
        if tools is not None and not isinstance(tools, list):
            return None
        return self.counter.count_request(messages, tools)

    def _check(self, body: Any, prompt_tokens: int | None) -> _Rejection | None:
        rejection = _check_body(body)
        if rejection is not None:
            return rejection
        rejection = _check_tool_pairing(body["messages"])
        if rejection is not None:
            return rejection
        if prompt_tokens is not None and prompt_tokens > self.context_size:
            return _Rejection(
                "context_length_exceeded",
                f"This model's maximum context length is {self.context_size} tokens. However, your "
                f"messages resulted in {prompt_tokens} tokens. Please reduce the length of the messages.",
                "messages",
            )
        return None

    def _completion(
        self, body: dict[str, Any], output: Mapping[str, Any], prompt_tokens: int
    ) -> dict[str, Any]:
        self._calls += 1
        if set(output) == {"raw"}:
            content: str | None = str(output["raw"])
            tool_calls = None
            completion_text = content
        else:
            arguments = (
                str(output["raw_arguments"])
                if set(output) == {"raw_arguments"}
                else compact_json(output)
            )
            content = None
            tool_calls = [
                {
                    "id": f"call_{self._calls}",
                    "type": "function",
                    "function": {"name": _function_name(body), "arguments": arguments},
                }
            ]
            completion_text = arguments
        completion_tokens = self.counter.count_text(completion_text)
        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
        if tool_calls is not None:
            message["tool_calls"] = tool_calls
        return {
            "id": f"chatcmpl-scripted-{self._calls}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "logprobs": None,
                    "finish_reason": "tool_calls" if tool_calls else "stop",
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
            "system_fingerprint": None,
        }


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None


def _function_name(body: Mapping[str, Any]) -> str:
    tools = body.get("tools")
    if isinstance(tools, list) and tools and isinstance(tools[0], dict):
        function = tools[0].get("function")
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            return str(function["name"])
    return PLANNER_FUNCTION_NAME


def check_output(position: int, output: Any) -> None:
    """Refuse a scripted output the server could not serve (ValueError naming its position)."""
    if not isinstance(output, Mapping) or not output:
        raise ValueError(f"scripted output {position} must be a non-empty mapping, got {output!r}")
    for key in ("raw", "raw_arguments"):
        if key in output and (set(output) != {key} or not isinstance(output[key], str)):
            raise ValueError(
                f"scripted output {position}: `{key}` must be the only key, with a string"
            )


def check_error(position: int, error: Any) -> None:
    """Refuse a scripted error the server could not serve (ValueError naming its position)."""
    if not isinstance(error, Mapping):
        raise ValueError(f"scripted error {position} must be a mapping, got {error!r}")
    if set(error) == {"delay"}:
        delay = error["delay"]
        if isinstance(delay, bool) or not isinstance(delay, int | float) or not 0 <= delay <= 600:
            raise ValueError(f"scripted error {position}: `delay` must be seconds in 0..600")
        return
    status = error.get("status")
    if not set(error) <= {"status", "retry_after"} or isinstance(status, bool):
        raise ValueError(
            f"scripted error {position} must be {{status: N}}, {{status: 429, retry_after: S}} "
            f"or {{delay: S}}, got {dict(error)!r}"
        )
    if not isinstance(status, int) or not 400 <= status <= 599:
        raise ValueError(
            f"scripted error {position}: `status` must be an HTTP error status 400..599"
        )
    retry_after = error.get("retry_after")
    if retry_after is not None and (
        isinstance(retry_after, bool) or not isinstance(retry_after, int | float) or retry_after < 0
    ):
        raise ValueError(f"scripted error {position}: `retry_after` must be seconds >= 0")


def _check_body(body: Any) -> _Rejection | None:
    """Refuse what the real API refuses before looking at the conversation."""

    def invalid(message: str, param: str | None = None) -> _Rejection:
        return _Rejection("invalid_request", message, param)

    if not isinstance(body, dict):
        return invalid("We could not parse the JSON body of your request.")
    if not isinstance(body.get("model"), str) or not body["model"]:
        return invalid("you must provide a model parameter", "model")
    if body.get("stream"):
        return invalid("this scripted server does not stream; send stream=false", "stream")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return invalid("'messages' must be a non-empty array", "messages")
    tools = body.get("tools")
    if tools is not None and not _valid_tools(tools):
        return invalid(
            "'tools' must be an array of {type: 'function', function: {name, ...}}", "tools"
        )
    for position, message in enumerate(messages):
        problem = _message_problem(message)
        if problem is not None:
            return invalid(f"Invalid 'messages[{position}]': {problem}", f"messages[{position}]")
    return None


def _valid_tools(tools: Any) -> bool:
    return isinstance(tools, list) and all(
        isinstance(tool, dict)
        and tool.get("type") == "function"
        and isinstance(tool.get("function"), dict)
        and isinstance(tool["function"].get("name"), str)
        for tool in tools
    )


def _message_problem(message: Any) -> str | None:
    if not isinstance(message, dict):
        return "expected an object"
    role = message.get("role")
    if role not in _ROLES:
        return f"unsupported role {role!r}; expected one of {sorted(_ROLES)}"
    content = message.get("content")
    if content is not None and not isinstance(content, str | list):
        return "'content' must be a string or an array of parts"
    if role == "assistant":
        tool_calls = message.get("tool_calls")
        if tool_calls is not None and not _valid_tool_calls(tool_calls):
            return "'tool_calls' must be a non-empty array of {id, type: 'function', function: {name, arguments}}"
        if content is None and not tool_calls:
            return "an assistant message needs 'content' or 'tool_calls'"
        return None
    if content is None:
        return f"a {role} message needs 'content'"
    if role == "tool" and not isinstance(message.get("tool_call_id"), str):
        return "a tool message needs a string 'tool_call_id'"
    return None


def _valid_tool_calls(tool_calls: Any) -> bool:
    return (
        isinstance(tool_calls, list)
        and bool(tool_calls)
        and all(
            isinstance(call, dict)
            and isinstance(call.get("id"), str)
            and call.get("type") == "function"
            and isinstance(call.get("function"), dict)
            and isinstance(call["function"].get("name"), str)
            and isinstance(call["function"].get("arguments"), str)
            for call in tool_calls
        )
    )


def _check_tool_pairing(messages: list[dict[str, Any]]) -> _Rejection | None:
    """Every call answered right after its assistant message; every tool message answers one."""
    calls: list[str] = []  # ids of the open assistant message's calls
    answered: set[str] = set()
    for position, message in enumerate(messages):
        if message["role"] == "tool":
            call_id = message["tool_call_id"]
            if not calls:
                return _Rejection(
                    "unpaired_tool_message",
                    "Invalid parameter: messages with role 'tool' must be a response to a preceding "
                    "message with 'tool_calls'.",
                    f"messages[{position}].role",
                )
            if call_id not in calls or call_id in answered:
                return _Rejection(
                    "unpaired_tool_message",
                    f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in 'tool_calls' of "
                    "previous message.",
                    f"messages[{position}].tool_call_id",
                )
            answered.add(call_id)
            continue
        rejection = _unanswered(calls, answered, position)
        if rejection is not None:
            return rejection
        calls = [call["id"] for call in message.get("tool_calls") or []]
        answered = set()
    return _unanswered(calls, answered, len(messages))


def _unanswered(calls: list[str], answered: set[str], position: int) -> _Rejection | None:
    missing = [call_id for call_id in calls if call_id not in answered]
    if not missing:
        return None
    return _Rejection(
        "unanswered_tool_calls",
        "An assistant message with 'tool_calls' must be followed by tool messages responding to "
        f"each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        f"{', '.join(missing)}",
        f"messages[{position}]",
    )


def _scripted_error(status: int, retry_after: float | None) -> web.Response:
    headers: dict[str, str] = {}
    if retry_after is not None:
        headers["Retry-After"] = str(math.ceil(retry_after))
        headers["retry-after-ms"] = str(round(retry_after * 1000))
    if status == 429:
        message = "Rate limit reached for requests. Please try again later."
    elif status >= 500:
        message = "The server had an error while processing your request. Sorry about that!"
    else:
        message = f"Scripted HTTP {status} error."
    code = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(status)
    return _error_response(status, message, code=code, headers=headers)


def _error_response(
    status: int,
    message: str,
    *,
    error_type: str | None = None,
    code: str | None = None,
    param: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> web.Response:
    """An error in OpenAI's JSON shape: `{"error": {message, type, param, code}}`."""
    kind = error_type or _ERROR_TYPES.get(
        status, "server_error" if status >= 500 else "invalid_request_error"
    )
    payload = {"error": {"message": message, "type": kind, "param": param, "code": code}}
    return web.json_response(payload, status=status, headers=dict(headers or {}))
