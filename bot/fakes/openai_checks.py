"""What the real Chat Completions API refuses before answering, as the scripted server checks it.

A malformed body, an unsupported role, a `tool` message that answers no pending call,
an assistant `tool_calls` message whose ids are not all answered right after it:
each is an HTTP 400 with OpenAI's wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

RejectionCode = Literal[
    "invalid_request",
    "unpaired_tool_message",
    "unanswered_tool_calls",
    "context_length_exceeded",
]
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


@dataclass(frozen=True, slots=True)
class Rejection:
    code: RejectionCode
    message: str
    param: str | None = None


def check_body(body: Any) -> Rejection | None:
    """Refuse what the real API refuses before looking at the conversation."""

    def invalid(message: str, param: str | None = None) -> Rejection:
        return Rejection("invalid_request", message, param)

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


def check_tool_pairing(messages: list[dict[str, Any]]) -> Rejection | None:
    """Every call answered right after its assistant message; every tool message answers one."""
    calls: list[str] = []  # ids of the open assistant message's calls
    answered: set[str] = set()
    for position, message in enumerate(messages):
        if message["role"] == "tool":
            call_id = message["tool_call_id"]
            if not calls:
                return Rejection(
                    "unpaired_tool_message",
                    "Invalid parameter: messages with role 'tool' must be a response to a preceding "
                    "message with 'tool_calls'.",
                    f"messages[{position}].role",
                )
            if call_id not in calls or call_id in answered:
                return Rejection(
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


def _unanswered(calls: list[str], answered: set[str], position: int) -> Rejection | None:
    missing = [call_id for call_id in calls if call_id not in answered]
    if not missing:
        return None
    return Rejection(
        "unanswered_tool_calls",
        "An assistant message with 'tool_calls' must be followed by tool messages responding to "
        f"each 'tool_call_id'. The following tool_call_ids did not have response messages: "
        f"{', '.join(missing)}",
        f"messages[{position}]",
    )
