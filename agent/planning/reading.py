"""Reading what real models send (DESIGN 9.1): a call written in `content`, cut and looping outputs.

Small and local models often answer with the call as text instead of `tool_calls`.
Exactly one JSON object that is the whole content -- bare, in one ``` or ```json
fence, or inside <tool_call>...</tool_call> -- is the `plan` call when it is
`{"name": "plan", "arguments": X}` (X an object or a JSON string of one) or the
PlannerResponse itself, and X validates. Anything else stays an invalid output;
the reason returned here is what the model is told.
"""

from __future__ import annotations

import dataclasses
import json
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessage
from pydantic import ValidationError

from agent.planning.answer import ModelAnswer
from agent.planning.schema import PLANNER_FUNCTION_NAME, PlannerResponse
from agent.planning.wire import STEP_TEXT

ContentForm = Literal["bare", "fenced", "tagged"]
REPEATED_LINES = 8  # one line this many times in a row is a loop, not an answer
_FENCED = re.compile(r"```(?:json)?[ \t]*\n?(?P<body>.*?)\n?[ \t]*```", re.DOTALL | re.IGNORECASE)
_TAGGED = re.compile(r"<tool_call>(?P<body>.*?)</tool_call>", re.DOTALL)


@dataclass(frozen=True, slots=True)
class ContentCall:
    """A valid `plan` call found in an answer's content."""

    form: ContentForm
    arguments: dict[str, Any]  # a PlannerResponse object, as the model wrote it


@dataclass(frozen=True, slots=True)
class NotACall:
    """Content that holds no usable call, and why (None: plain prose, the usual message)."""

    reason: str | None


def read_content_call(content: str) -> ContentCall | NotACall:
    """The `plan` call the whole of `content` holds, or why it holds none."""
    text = content.strip()
    form, body = _unwrap(text)
    if form is None:
        return NotACall(None)
    try:
        value = json.loads(body, strict=False)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":
            return NotACall("more than one JSON object: answer with exactly one `plan` call")
        return NotACall(None) if form == "bare" else NotACall(f"the JSON is not valid: {exc.msg}")
    except (ValueError, RecursionError):
        return NotACall("the JSON cannot be read")
    if not isinstance(value, dict):
        return NotACall(None) if form == "bare" else NotACall("the JSON must be one object")
    arguments = _arguments(value)
    if isinstance(arguments, str):
        return NotACall(arguments)
    try:
        PlannerResponse.model_validate(arguments)
    except ValidationError as exc:
        return NotACall("the JSON is not a valid step: " + _first_errors(exc))
    return ContentCall(form, arguments)


def repeated_line(content: str) -> str | None:
    """The line `content` repeats REPEATED_LINES or more times in a row (blank lines skipped), or None."""
    previous, run = None, 0
    for raw in content.splitlines():
        line = raw.strip()
        if not line:
            continue
        run = run + 1 if line == previous else 1
        previous = line
        if run >= REPEATED_LINES:
            return line
    return None


def ran_away(message: AIMessage) -> bool:
    """Whether `message` was cut at the token cap or repeats one line: a re-ask of such an
    answer costs a whole cap again, for a model that lost its way once already."""
    content = message.content if isinstance(message.content, str) else ""
    cut = message.response_metadata.get("finish_reason") == "length"
    return cut or repeated_line(content) is not None


def read_answer(answer: ModelAnswer, *, cap: int) -> ModelAnswer:
    """A `plan` answer read as DESIGN 9.1 says: content calls taken, cut or looping answers marked."""
    message = answer.message
    content = message.content if isinstance(message.content, str) else ""
    if message.response_metadata.get("finish_reason") == "length":
        problem = f"your answer was cut at the {cap}-token cap: answer with one short `plan` call"
        return dataclasses.replace(answer, problem=problem)
    looping = repeated_line(content)
    if looping is not None:
        problem = "your answer repeats one line over and over: answer with one `plan` call only"
        return dataclasses.replace(answer, problem=problem)
    if message.tool_calls or message.invalid_tool_calls or not content.strip():
        return answer
    read = read_content_call(content)
    if not isinstance(read, ContentCall):
        return dataclasses.replace(answer, problem=read.reason)
    call_id = f"call_{uuid.uuid4().hex[:24]}"
    native = AIMessage(
        content="",
        tool_calls=[
            {
                "name": PLANNER_FUNCTION_NAME,
                "args": read.arguments,
                "id": call_id,
                "type": "tool_call",
            }
        ],
        # the step as written: the history shows it again so, not re-serialized, and a
        # prefix-caching server keeps it cached (wire.py)
        additional_kwargs={STEP_TEXT: content},
        response_metadata=message.response_metadata,
        usage_metadata=message.usage_metadata,
        id=message.id,
    )
    return dataclasses.replace(answer, message=native, content_form=read.form)


def is_plan_request(tools: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the request offers only the planner's function (a planning step, not a handover)."""
    if len(tools) != 1:
        return False
    function = tools[0].get("function")
    return isinstance(function, Mapping) and function.get("name") == PLANNER_FUNCTION_NAME


def cached_tokens(message: AIMessage) -> int:
    """Prompt tokens the server served from its cache (`usage.prompt_tokens_details.cached_tokens`)."""
    usage_metadata: Mapping[str, Any] = message.usage_metadata or {}
    details = usage_metadata.get("input_token_details") or {}
    cached = details.get("cache_read")
    if cached is None:  # langchain versions that do not map it: read the raw usage
        usage = message.response_metadata.get("token_usage") or {}
        cached = (usage.get("prompt_tokens_details") or {}).get("cached_tokens")
    return cached if isinstance(cached, int) and cached > 0 else 0


def _unwrap(text: str) -> tuple[ContentForm | None, str]:
    """Which accepted form `text` is, and the JSON inside it; (None, "") when none."""
    tagged = _TAGGED.fullmatch(text)
    if tagged and "<tool_call>" not in tagged["body"]:
        return "tagged", tagged["body"]
    fenced = _FENCED.fullmatch(text)
    if fenced and "```" not in fenced["body"]:
        return "fenced", fenced["body"]
    if text.startswith("{") and text.endswith("}"):
        return "bare", text
    return None, ""


def _arguments(value: dict[str, Any]) -> dict[str, Any] | str:
    """The step a call object carries (itself, or its `arguments`), or why there is none."""
    if "name" not in value and "arguments" not in value:
        return value
    if set(value) - {"name", "arguments"}:
        return "a call object has only `name` and `arguments`"
    if value.get("name") != PLANNER_FUNCTION_NAME:
        return f"unknown function: the only function is `{PLANNER_FUNCTION_NAME}`"
    arguments = value.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments, strict=False)
        except (ValueError, RecursionError):
            return "`arguments` is a string that is not a JSON object"
    if not isinstance(arguments, dict):
        return "`arguments` must be a JSON object"
    return arguments


def _first_errors(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors(include_input=False, include_url=False)[:3]:
        location = ".".join(str(p) for p in error["loc"]) or "output"
        parts.append(f"{location}: {error['msg']}")
    return "; ".join(parts)[:300]
