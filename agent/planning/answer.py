"""What one model request returned, apart from the transport so that importing it
does not load the OpenAI client (tens of MB) in processes that never call a model."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.messages import AIMessage


@dataclass(frozen=True, slots=True)
class ModelAnswer:
    message: AIMessage  # tool_calls parsed; unparseable calls in invalid_tool_calls
    prompt_tokens: int  # from the server's usage, else our count of the request
    completion_tokens: int
    latency_s: float  # of the request that answered
    attempts: int  # HTTP requests made: 1 + transport retries
    cached_tokens: int = 0  # prompt tokens the server reused from its prefix cache
    content_form: str | None = (
        None  # bare / fenced / tagged: the call came in `content` (DESIGN 9.1)
    )
    problem: str | None = None  # why the answer is invalid before parsing (cut, looping, bad JSON)
