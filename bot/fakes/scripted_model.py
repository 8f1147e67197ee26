"""A scripted OpenAI-compatible Chat Completions server on loopback (DESIGN 6, `lembra replay`).

Each request is answered with the next scripted output of the current turn, so the
real client code (langchain-openai over the openai SDK) runs end to end:

- a planner object (any other mapping) becomes an assistant message with one
  `tool_calls` entry calling the request's function (`tools[0]`, else "plan") with
  the object's compact JSON as `arguments`;
- `{raw: TEXT}` becomes a plain assistant message with that content and no call;
- `{raw_arguments: TEXT}` becomes a call whose `arguments` string is TEXT verbatim
  (for invalid JSON; not part of the transcript format);
- `finish_reason: length` beside `raw` or a planner object: the answer was cut at the cap;
- a request with `response_format: json_schema` gets a planner object as the content
  (no call), after checking that the schema is strict (else HTTP 400) and that the
  object conforms to it (else a `schema_mismatch` failure: no such server could answer it).
  Null fields a schema has no place for are left out first (`{message: null}` on a
  tool call, `{year: null}` among optional arguments): the same step, written as a
  constraining server would have it written.

Usage reports `prompt_tokens_details.cached_tokens` as a prefix-caching server
does (llama.cpp): the tokens of the leading messages equal to the previous request's,
followed by the answer it got when that was content (what the server generated stays
in its cache).

Scripted errors are served first, one per request, consuming no output:
`{status: 500}` (any 4xx/5xx), `{status: 429, retry_after: 1}`, `{delay: S}` (hold
the request S seconds, then close the connection without answering).

Like the real API, the server answers HTTP 400 to a `tool` message that does not
answer a pending call of the assistant message before it, to an assistant
`tool_calls` message whose ids are not all answered right after it, to a prompt
over `context_size` tokens (counted by `TokenCounter.count_request`) and to a
malformed body. Those, and running out of outputs, are recorded as protocol
failures of the turn. Given `models`, it lists them at `GET /v1/models` and answers a
request for any other model with OpenAI's 404 `model_not_found`; `v1_only` serves
nothing outside `/v1`, as Ollama and vLLM do.
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
from bot.fakes.openai_checks import Rejection as _Rejection
from bot.fakes.openai_checks import check_body as _check_body
from bot.fakes.openai_checks import check_tool_pairing as _check_tool_pairing
from bot.fakes.structured import conformed, mismatch, strict_problem, structured_schema

Outcome = Literal["answered", "error", "dropped", "rejected", "out_of_outputs"]
FailureCode = Literal[
    "out_of_outputs",
    "invalid_request",
    "unpaired_tool_message",
    "unanswered_tool_calls",
    "context_length_exceeded",
    "schema_mismatch",
]

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
    cached_tokens: int = 0  # what the answer reported as served from the prefix cache


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


@dataclass
class _Turn:
    outputs: deque[Mapping[str, Any]] = field(default_factory=deque)
    errors: deque[Mapping[str, Any]] = field(default_factory=deque)
    requests: list[RecordedRequest] = field(default_factory=list)
    failures: list[ProtocolFailure] = field(default_factory=list)
    scripted: bool = False


class ScriptedModelServer:
    """An OpenAI-compatible `/v1/chat/completions` answering from a per-turn script."""

    def __init__(
        self,
        *,
        context_size: int = 16_000,
        counter: TokenCounter | None = None,
        models: Sequence[str] | None = None,
        v1_only: bool = False,
    ) -> None:
        self.context_size = context_size
        # `GET /v1/models` lists these; when given, a request for another model gets the 404
        # `model_not_found` OpenAI answers (None: every model is served, none listed)
        self.models = tuple(models) if models is not None else None
        # like Ollama and vLLM: nothing outside /v1 (a base URL without it gets 404s)
        self.v1_only = v1_only
        self.counter = counter if counter is not None else TokenCounter()
        self.requests: list[RecordedRequest] = []
        self._turn = _Turn()
        self._calls = 0
        self._previous: tuple[list[Any], Any] = ([], None)  # last answered messages and tools
        self._runner: web.AppRunner | None = None
        self._closing = asyncio.Event()
        self.base_url = ""

    async def start(self) -> str:
        """Listen on a free loopback port; return the base URL ending in /v1."""
        if self._runner is not None:
            raise RuntimeError("the scripted model server is already started")
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._handle)
        app.router.add_get("/v1/models", self._models)
        if not self.v1_only:
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

    async def _models(self, request: web.Request) -> web.StreamResponse:
        """`GET /v1/models` in OpenAI's list shape (404 when the server was given no list)."""
        if self.models is None:
            return _error_response(404, "Not found", error_type="invalid_request_error")
        data = [
            {"id": m, "object": "model", "created": 0, "owned_by": "scripted"} for m in self.models
        ]
        return web.json_response({"object": "list", "data": data})

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        # No await from here until the request is recorded, so concurrent
        # requests get distinct indexes and consume the script in arrival order.
        index = len(self.requests)
        body = _parse_json(raw)
        prompt_tokens = self._count(body)
        turn = self._turn

        def record(outcome: Outcome, status: int | None, cached: int = 0) -> None:
            entry = RecordedRequest(index, body, prompt_tokens, outcome, status, cached)
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

        wanted = body.get("model") if isinstance(body, dict) else None
        if self.models is not None and wanted not in self.models:
            record("error", 404)
            return _error_response(
                404,
                f"The model `{wanted}` does not exist or you do not have access to it.",
                code="model_not_found",
            )
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

        cached = self._cached(body)
        record("answered", 200, cached)
        output = turn.outputs.popleft()
        schema = structured_schema(body)
        if schema is not None and not {"raw", "raw_arguments"} & set(output):
            # a step scripted with its unused fields as null is served as the schema has it
            output = {**conformed(_planner_object(output), schema), **_scripting(output)}
            problem = mismatch(_planner_object(output), schema)
            if problem is not None:
                turn.failures.append(ProtocolFailure(index, "schema_mismatch", problem))
        completion = self._completion(body, output, prompt_tokens or 0, cached)
        answer = completion["choices"][0]["message"]
        if answer.get("content") is not None and not answer.get("tool_calls"):
            # a server's cache holds what it generated too: a next request that shows
            # this answer again, as it was written, is served it from the cache
            messages, tools = self._previous
            self._previous = (
                [*messages, {"role": "assistant", "content": answer["content"]}],
                tools,
            )
        return web.json_response(completion)

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
        schema = structured_schema(body)
        problem = strict_problem(schema) if schema is not None else None
        if problem is not None:
            return _Rejection("invalid_request", problem, "response_format")
        if prompt_tokens is not None and prompt_tokens > self.context_size:
            return _Rejection(
                "context_length_exceeded",
                f"This model's maximum context length is {self.context_size} tokens. However, your "
                f"messages resulted in {prompt_tokens} tokens. Please reduce the length of the messages.",
                "messages",
            )
        return None

    def _completion(
        self, body: dict[str, Any], output: Mapping[str, Any], prompt_tokens: int, cached: int
    ) -> dict[str, Any]:
        self._calls += 1
        if "raw" in output:
            content: str | None = str(output["raw"])
            tool_calls = None
            completion_text = content
        elif structured_schema(body) is not None and "raw_arguments" not in output:
            content = compact_json(_planner_object(output))
            tool_calls = None
            completion_text = content
        else:
            arguments = (
                str(output["raw_arguments"])
                if set(output) == {"raw_arguments"}
                else compact_json(_planner_object(output))
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
        completion_tokens = self.counter.count_text(completion_text or "")
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
                    "finish_reason": output.get("finish_reason")
                    or ("tool_calls" if tool_calls else "stop"),
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
                "prompt_tokens_details": {"cached_tokens": cached},
            },
            "system_fingerprint": None,
        }

    def _cached(self, body: dict[str, Any]) -> int:
        """Tokens of the leading messages this request shares with the previous one (same tools)."""
        messages, tools = body["messages"], body.get("tools")
        before, before_tools = self._previous
        self._previous = (messages, tools)
        if tools != before_tools:
            return 0
        shared = 0
        while shared < min(len(messages), len(before)) and messages[shared] == before[shared]:
            shared += 1
        return self.counter.count_request(messages[:shared], tools) if shared else 0


def _planner_object(output: Mapping[str, Any]) -> dict[str, Any]:
    """A scripted planner object without the scripting keys."""
    return {key: value for key, value in output.items() if key != "finish_reason"}


def _scripting(output: Mapping[str, Any]) -> dict[str, Any]:
    """The scripting keys of a scripted output."""
    return {key: value for key, value in output.items() if key == "finish_reason"}


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
    if output.get("finish_reason", "length") not in ("length", "stop"):
        raise ValueError(f"scripted output {position}: `finish_reason` must be length or stop")
    for key in ("raw", "raw_arguments"):
        others = set(output) - {key, "finish_reason"}
        if key in output and (others or not isinstance(output[key], str)):
            raise ValueError(
                f"scripted output {position}: `{key}` must be the only key (beside "
                "`finish_reason`), with a string"
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
