"""What a json_schema planning request sends: each step as the model wrote it (issue 28).

A prefix-caching server (llama.cpp's slot cache, vLLM, OpenAI) reuses a request's
longest prefix shared with the one before. In `json_schema` output the model writes
its step as content; sent back as a native `tool_calls` message, the chat template
re-serializes it (other key order, other spacing), so from the previous turn's step on
nothing was served from the cache. Here, on the way out, and only for the wire:

- an `ai` step the model wrote as text (`STEP_TEXT`) is sent as that text, byte for
  byte, without `tool_calls`;
- the runtime's answer to it is sent as a user message (`Result: ...`) during its own
  turn, and left out once the turn is over (`SETTLED`): the reply that followed says
  what happened, and the item ids the model may need are in the situation (the shelf,
  the item last named);
- everything else (runtime-made calls, tools-mode answers) keeps its native pairing.

The messages the runtime keeps (grounding, the ledger, /why) are not touched.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

STEP_TEXT = "step_text"  # AIMessage.additional_kwargs: the step as the model wrote it
SETTLED = "settled"  # ToolMessage.additional_kwargs: a result from an earlier turn


def as_sent(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """`messages` as a json_schema planning request sends them (module docstring)."""
    out: list[BaseMessage] = []
    verbatim: set[str] = set()  # the call ids of steps sent as their text
    for message in messages:
        if isinstance(message, AIMessage) and message.tool_calls:
            text = message.additional_kwargs.get(STEP_TEXT)
            if isinstance(text, str) and text:
                out.append(AIMessage(content=text))
                verbatim.update(str(call.get("id")) for call in message.tool_calls)
                continue
        if isinstance(message, ToolMessage) and message.tool_call_id in verbatim:
            if not message.additional_kwargs.get(SETTLED):
                content = message.content if isinstance(message.content, str) else ""
                out.append(HumanMessage(content=f"Result: {content}"))
            continue
        out.append(message)
    return out
