"""The only place that talks to the model: langchain-openai's ChatOpenAI, with our transport rules.

Rules (DESIGN 3.1), applied here and nowhere else:

- a request that times out is not retried within the turn -> `PlannerTimeout`;
- HTTP 429, 5xx and connection failures are retried at most `retries` times,
  waiting what `Retry-After` asks or a short backoff -> `PlannerUnavailable` when
  they keep failing, or at once when `Retry-After` asks for more than 10 s (a turn
  cannot wait that long, and an earlier retry would only be refused again);
- HTTP 400 (and 413/422) -> `PlannerRejected`, never retried;
- 401/403 -> `PlannerUnavailable` saying the credentials were refused.

These are transport retries: they never use the planner's retry budget. The
openai SDK's own retries are off (`max_retries=0`) so that these rules are the
only ones. The function is offered with `tool_choice="required"` but never in
strict mode (a free-form `args` object is not a strict schema), and nothing
relies on the server honouring either: the planner validates every answer.

Checked against the installed openai 3.x and langchain-openai 1.7: errors keep
the openai types (langchain re-raises subclasses of `openai.RateLimitError`,
`openai.APITimeoutError`, ...); the HTTP response, and so `Retry-After`, is on
`exc.response.headers`; a timeout is `openai.APITimeoutError`, a dropped
connection `openai.APIConnectionError`; a call whose `arguments` are not JSON
lands in `AIMessage.invalid_tool_calls`. Arguments that are JSON but not an
object would make langchain raise a pydantic error (a list, number or string) or
read as `{}` (null, [], 0, false); such calls are moved to `invalid_tool_calls`
here instead, so bad model output stays data and says what was wrong.
"""

from __future__ import annotations

import asyncio
import copy
import email.utils
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal
from urllib.parse import urlsplit

import openai
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, InvalidToolCall
from langchain_core.messages.tool import invalid_tool_call
from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from agent.errors import (
    PlannerError,
    PlannerKeyRejected,
    PlannerRejected,
    PlannerTimeout,
    PlannerUnavailable,
)
from agent.planning.answer import ModelAnswer
from agent.planning.reading import cached_tokens, is_plan_request, read_answer
from agent.planning.shaping import narrowed, response_format, with_handles, without_facts
from agent.planning.wire import as_sent
from agent.tokens import TokenCounter, compact_json
from config.logging import log_event

logger = logging.getLogger(__name__)

RETRY_AFTER_CAP_S = 10.0
BACKOFF_BASE_S = 0.5
OPENAI_HOST = "openai.com"
NO_API_KEY = "not-needed"  # local OpenAI-compatible servers ignore the key, the SDK wants one
# A valid step nests 3 levels (step, args, a value); anything this deep is not one, and
# deeper still would exhaust the interpreter's recursion in every later json/pydantic pass.
MAX_ARGUMENT_DEPTH = 32
_REJECTED_STATUSES = frozenset({400, 413, 422})
_CREDENTIAL_STATUSES = frozenset({401, 403})
OutputMode = Literal["tools", "json_schema"]
# OpenAI's reasoning models refuse sampling penalties; every other server reads them.
_NO_PENALTY_MODELS = ("o1", "o3", "o4", "gpt-5")
_JSON_TYPE_NAMES = {
    list: "an array",
    str: "a string",
    int: "a number",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
}


class ModelTransport:
    """Sends one chat request to an OpenAI-compatible server under the transport rules."""

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key: str | None,
        model: str,
        timeout_s: float,
        max_tokens: int,
        counter: TokenCounter,
        retries: int = 2,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        output_mode: OutputMode = "tools",
        output_schema: Mapping[str, Any] | None = None,
        planner_max_tokens: int | None = None,
        frequency_penalty: float = 0.0,
        presence_penalty: float = 0.0,
        temperature: float = 0.0,  # the planner is deterministic; the dreamer is not (DESIGN 3.8)
    ) -> None:
        if timeout_s <= 0 or max_tokens <= 0 or retries < 0:
            raise ValueError("timeout_s and max_tokens must be positive, retries not negative")
        if output_mode == "json_schema" and output_schema is None:
            raise ValueError("json_schema output needs the step's schema")
        self.model = model
        self.timeout_s = timeout_s
        self.retries = retries
        self.max_tokens = max_tokens
        self.planner_max_tokens = planner_max_tokens or max_tokens  # a planning step's cap
        self.output_mode: OutputMode = output_mode
        self.probe_conclusive = False  # whether the last `auto` probe got a real answer
        self._schema = output_schema
        self._base_url = base_url
        self._penalties = {
            name: value
            for name, value in (
                ("frequency_penalty", frequency_penalty),
                ("presence_penalty", presence_penalty),
            )
            if value and not model.startswith(_NO_PENALTY_MODELS)
        }
        self._counter = counter
        self._sleep = sleep
        # Our own HTTP client, closed by `aclose`: langchain's default one is cached
        # per process and would outlive the event loop it was first used on.
        self._http = openai.DefaultAsyncHttpxClient(timeout=timeout_s)
        self._chat = _PlannerChatOpenAI(
            model=model,
            base_url=base_url,
            api_key=SecretStr(api_key or NO_API_KEY),
            temperature=temperature,
            timeout=timeout_s,
            max_retries=0,
            use_responses_api=False,
            http_async_client=self._http,
        )

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._http.aclose()

    def count_prompt(
        self, messages: Sequence[BaseMessage], *, tools: Sequence[Mapping[str, Any]]
    ) -> int:
        """Prompt tokens of the request `complete` would send (DESIGN 3.9), counted offline."""
        # langchain's own conversion, so the count is of the messages really sent
        # (its public convert_to_openai_messages differs: "" for null content, names);
        # private, so pinned by tests/agent/test_langchain_payload.py
        sent = as_sent(messages) if self._structured(tools) else list(messages)
        wire = self._chat._get_request_payload(sent)["messages"]
        return self._counter.count_request(wire, [] if self._structured(tools) else tools)

    async def complete(
        self,
        messages: Sequence[BaseMessage],
        *,
        tools: Sequence[Mapping[str, Any]],
        max_tokens: int | None = None,
        only: frozenset[str] | None = None,
        unstated: frozenset[str] = frozenset(),
        facts: Mapping[str, frozenset[str]] | None = None,
        handles: Sequence[str] | None = None,
    ) -> ModelAnswer:
        """One model answer, retrying 429/5xx/connection failures; raises a PlannerError.

        `only` cuts the tools the json_schema output may name, and `unstated` the optional
        facts it may carry (`facts`: each tool's fact arguments; the prompt is unchanged);
        function calling ignores them, since its tool list is part of the cached prompt.

        A `plan` request is read as DESIGN 9.1 says: a call written in the content is
        taken as the call; a cut or looping answer carries the problem the model is told.
        """
        if not tools:
            raise ValueError("the planner always offers its function: `tools` must not be empty")
        cap = max_tokens or self.max_tokens
        structured = self._structured(tools)
        extra: dict[str, Any] = {}
        if structured:
            assert self._schema is not None
            schema = self._schema if only is None else narrowed(self._schema, only)
            if handles is not None:  # an item is named by a handle the situation showed
                schema = with_handles(schema, handles)
            extra["response_format"] = response_format(without_facts(schema, unstated, facts or {}))
        options = {**self._penalties, **output_cap(self._base_url, cap, extra_body=extra)}
        runnable = (
            self._chat.bind(**options)
            if structured
            else self._chat.bind_tools(
                [dict(tool) for tool in tools], tool_choice="required", **options
            )
        )
        counter = [0]
        sent = as_sent(messages) if structured else messages
        try:
            answer = await self._complete(runnable, sent, tools, counter)
        except PlannerError as exc:
            exc.attempts = counter[0]  # every request counts, errored ones included
            raise
        return read_answer(answer, cap=cap) if is_plan_request(tools) else answer

    async def choose_output_mode(self) -> OutputMode:
        """Settle `auto`: json_schema when the server accepts a strict `response_format`, else tools."""
        probe: dict[str, Any] = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
        probe |= {"required": ["ok"], "additionalProperties": False}
        options = output_cap(
            self._base_url, 8, extra_body={"response_format": response_format(probe)}
        )
        try:
            async with asyncio.timeout(self.timeout_s):
                await self._chat.bind(**options).ainvoke([HumanMessage(content="ok?")])
        except (TimeoutError, openai.OpenAIError, ValueError, KeyError, TypeError) as exc:
            self._log("model_output_mode_probe_failed", 1, reason=type(exc).__name__)
            self.output_mode = "tools"
            # only a refusal says what the server takes; a timeout or a 5xx says nothing
            self.probe_conclusive = (
                isinstance(exc, openai.APIStatusError) and 400 <= (exc.status_code) < 500
            )
        else:
            self.output_mode = "json_schema" if self.can_use_json_schema else "tools"
            self.probe_conclusive = True
        log_event(logger, "model_output_mode", model=self.model, mode=self.output_mode)
        return self.output_mode

    @property
    def base_url(self) -> str | None:
        """The server's base URL (None: OpenAI's)."""
        return self._base_url

    @property
    def can_use_json_schema(self) -> bool:
        """Whether this transport has a step schema to ask for (json_schema output)."""
        return self._schema is not None

    def _structured(self, tools: Sequence[Mapping[str, Any]]) -> bool:
        return self.output_mode == "json_schema" and is_plan_request(tools)

    async def _complete(
        self,
        runnable: Any,
        messages: Sequence[BaseMessage],
        tools: Sequence[Mapping[str, Any]],
        counter: list[int],
    ) -> ModelAnswer:
        attempts = 0
        while True:
            attempts += 1
            counter[0] = attempts
            started = time.monotonic()
            try:
                async with asyncio.timeout(self.timeout_s):
                    result = await runnable.ainvoke(list(messages))
            except (TimeoutError, openai.APITimeoutError) as exc:
                self._log("model_request_failed", attempts, reason="timeout")
                log_event(logger, "model_timeout", level=logging.WARNING, model=self.model)
                raise PlannerTimeout(
                    f"the model did not answer within {self.timeout_s:g} s"
                ) from exc
            except openai.APIStatusError as exc:
                delay = self._retry_delay(exc, attempts)
                await self._sleep(delay)
                continue
            except openai.APIConnectionError as exc:
                self._log("model_request_failed", attempts, reason="connection")
                if attempts > self.retries:
                    log_event(logger, "model_unreachable", level=logging.WARNING, model=self.model)
                    raise PlannerUnavailable(
                        f"could not reach the model server after {attempts} attempts"
                    ) from exc
                await self._sleep(_backoff(attempts))
                continue
            except openai.OpenAIError as exc:
                raise PlannerUnavailable(f"the model client failed: {type(exc).__name__}") from exc
            except (ValueError, KeyError, TypeError, RecursionError) as exc:
                # What langchain raises when a 200 answer is not a chat completion
                # (no `choices`, an `error` object, an HTML page); not retried.
                raise PlannerUnavailable(
                    f"the model server's answer is not a chat completion ({type(exc).__name__})"
                ) from exc
            latency = time.monotonic() - started
            break
        if not isinstance(result, AIMessage):
            raise PlannerUnavailable(
                f"the model client returned {type(result).__name__}, not AIMessage"
            )
        prompt_tokens, completion_tokens = self._usage(result, messages, tools)
        self._log("model_request_done", attempts, latency_s=round(latency, 3))
        return ModelAnswer(
            result,
            prompt_tokens,
            completion_tokens,
            latency,
            attempts,
            cached_tokens=cached_tokens(result),
        )

    def _retry_delay(self, exc: openai.APIStatusError, attempts: int) -> float:
        """How long to wait before retrying `exc`, or raise the PlannerError it maps to."""
        status = exc.status_code
        self._log("model_request_failed", attempts, status=status)
        if status in _REJECTED_STATUSES:
            raise PlannerRejected(
                f"the model server refused the request (HTTP {status}, {exc.code or exc.type or 'no code'})"
            ) from exc
        if status in _CREDENTIAL_STATUSES:
            log_event(logger, "model_key_rejected", level=logging.WARNING, status=status)
            raise PlannerKeyRejected(
                f"the model server refused the credentials (HTTP {status}); check OPENAI_API_KEY"
            ) from exc
        if status == 404:  # the likeliest local-model mistake: said once per request, loudly
            log_event(
                logger,
                "model_not_found",
                level=logging.WARNING,
                model=self.model,
                note="HTTP 404: OPENAI_BASE_URL likely needs /v1, or LLM_MODEL is not served by "
                "that server (`lembra check` says which)",
            )
        if status != 429 and status < 500:
            raise PlannerUnavailable(f"the model server answered HTTP {status}") from exc
        if attempts > self.retries:
            raise PlannerUnavailable(
                f"the model server kept failing (HTTP {status}) after {attempts} attempts"
            ) from exc
        asked = retry_after_s(exc.response.headers)
        if asked is None:
            return _backoff(attempts)
        if asked > RETRY_AFTER_CAP_S:
            # Retrying sooner than asked would only be refused again: the user is told now.
            raise PlannerUnavailable(
                f"the model server asked to wait {asked:g} s (HTTP {status}); "
                f"more than the {RETRY_AFTER_CAP_S:g} s a turn may wait"
            ) from exc
        return asked

    def _usage(
        self,
        message: AIMessage,
        messages: Sequence[BaseMessage],
        tools: Sequence[Mapping[str, Any]],
    ) -> tuple[int, int]:
        usage = message.usage_metadata
        if usage is not None and usage.get("input_tokens"):
            return usage["input_tokens"], usage.get("output_tokens", 0)
        output = (
            message.content if isinstance(message.content, str) else compact_json(message.content)
        )
        for call in message.tool_calls:
            output += compact_json(call["args"])
        for bad in message.invalid_tool_calls:
            output += bad.get("args") or ""
        return self.count_prompt(messages, tools=tools), self._counter.count_text(output)

    def _log(self, event: str, attempts: int, **fields: Any) -> None:
        log_event(logger, event, model=self.model, attempt=attempts, **fields)


def retry_after_s(headers: Mapping[str, str]) -> float | None:
    """Seconds a 429/5xx answer asks us to wait: `retry-after-ms`, else `Retry-After` (seconds or date)."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    # An HTTP date: measure it against the answer's own Date header, not our clock.
    try:
        until = email.utils.parsedate_to_datetime(value)
        sent = email.utils.parsedate_to_datetime(headers.get("date", ""))
    except (TypeError, ValueError):
        return None
    return max(0.0, (until - sent).total_seconds())


def output_cap(
    base_url: str | None, max_tokens: int, *, extra_body: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ChatOpenAI arguments that cap the answer at `max_tokens`, in the field the server reads.

    OpenAI deprecated `max_tokens` for `max_completion_tokens` (its reasoning models
    refuse the old name), and langchain-openai always renames the field to the new
    one; Ollama's OpenAI-compatible endpoint reads only `max_tokens` and silently
    ignores the other, and older llama.cpp servers do the same. So OpenAI itself
    gets `max_completion_tokens`; any other server gets `max_tokens`, sent through
    `extra_body` so that langchain leaves its name alone (never both: OpenAI refuses
    a request that sets both).
    """
    extra = dict(extra_body or {})
    if is_openai(base_url):
        return {"max_completion_tokens": max_tokens} | ({"extra_body": extra} if extra else {})
    return {"extra_body": {"max_tokens": max_tokens, **extra}}


def is_openai(base_url: str | None) -> bool:
    """Whether `base_url` is OpenAI's own API (None: the client's default, OpenAI)."""
    host = (urlsplit(base_url).hostname or "") if base_url else OPENAI_HOST
    return host == OPENAI_HOST or host.endswith("." + OPENAI_HOST)


def _backoff(attempts: int) -> float:
    return float(min(BACKOFF_BASE_S * 2 ** (attempts - 1), RETRY_AFTER_CAP_S))


class _PlannerChatOpenAI(ChatOpenAI):
    """ChatOpenAI that keeps a call with non-object JSON arguments as an invalid tool call.

    langchain parses `arguments` with json.loads and raises a pydantic error when the
    result is a list, number or string; the model's bad output must reach the planner
    as data instead (it is answered with an error and retried).
    """

    def _create_chat_result(
        self,
        response: dict[str, Any] | openai.BaseModel,
        generation_info: dict[str, Any] | None = None,
    ) -> ChatResult:
        if isinstance(response, openai.BaseModel):
            data: Any = response.model_dump(warnings=False)
        elif isinstance(response, dict):
            data = copy.deepcopy(response)
        else:
            return super()._create_chat_result(response, generation_info)
        quarantined = [_quarantine_bad_calls(choice) for choice in data.get("choices") or []]
        if not any(quarantined):
            return super()._create_chat_result(response, generation_info)
        result = super()._create_chat_result(data, generation_info)
        for generation, bad_calls in zip(result.generations, quarantined, strict=False):
            if isinstance(generation.message, AIMessage):
                generation.message.invalid_tool_calls.extend(bad_calls)
        return result


def _quarantine_bad_calls(choice: Any) -> list[InvalidToolCall]:
    """Remove the calls langchain cannot hold from a raw choice; return them as invalid calls."""
    message = choice.get("message") if isinstance(choice, dict) else None
    calls = message.get("tool_calls") if isinstance(message, dict) else None
    if not isinstance(message, dict) or not isinstance(calls, list):
        return []
    kept: list[Any] = []
    bad: list[InvalidToolCall] = []
    for call in calls:
        problem = _argument_problem(call)
        if problem is None:
            kept.append(call)
            continue
        function = call.get("function") if isinstance(call, dict) else None
        function = function if isinstance(function, dict) else {}
        arguments = function.get("arguments")
        bad.append(
            invalid_tool_call(
                name=function.get("name") if isinstance(function.get("name"), str) else None,
                args=arguments if isinstance(arguments, str) else None,
                id=call.get("id") if isinstance(call, dict) else None,
                error=problem,
            )
        )
    message["tool_calls"] = kept or None
    return bad


def _argument_problem(call: Any) -> str | None:
    """Why a raw tool call's arguments are not a JSON object langchain can hold, or None."""
    if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
        return "the tool call has no function"
    arguments = call["function"].get("arguments")
    if not arguments:
        return None  # langchain reads a missing or empty string as {}
    if not isinstance(arguments, str):
        return "the function arguments are not a string"
    too_deep = f"the function arguments are nested more than {MAX_ARGUMENT_DEPTH} levels deep"
    try:
        value = json.loads(arguments, strict=False)
    except json.JSONDecodeError:
        return None  # langchain reports invalid JSON itself
    except ValueError:  # an integer past Python's digit limit: langchain would raise it
        return "the function arguments hold a number too long to read"
    except RecursionError:
        return too_deep
    if not isinstance(value, dict):
        return f"the function arguments must be a JSON object, got {_JSON_TYPE_NAMES[type(value)]}"
    return too_deep if _nesting(value) > MAX_ARGUMENT_DEPTH else None


def _nesting(value: Any) -> int:
    """How deeply `value` nests objects and arrays (without recursing: it may be very deep)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict):
            children: Any = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest
