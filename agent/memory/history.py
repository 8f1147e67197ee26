"""Stored messages to langchain-core messages, never producing a sequence the API rejects.

An `ai` record with tool calls becomes `AIMessage(tool_calls=...)` followed by one
`ToolMessage` per call only when every call's result is present right after it;
otherwise the whole group falls back to plain text. Tool results whose call is not
in the window become plain text too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from storage.documents import MessageDoc

CORRECTION = "runtime_correction"


def _args(args_json: str) -> dict[str, Any]:
    try:
        value = json.loads(args_json)
    except ValueError:
        return {"unparsed": args_json[:200]}
    return value if isinstance(value, dict) else {"value": value}


def _plain(record: MessageDoc) -> BaseMessage:
    if record.role == "human" or (record.role == "system" and record.name == CORRECTION):
        return HumanMessage(content=record.content)
    if record.role == "tool":
        return AIMessage(content=f"[{record.name or 'tool'} result] {record.content}")
    if record.tool_calls:
        calls = "; ".join(f"{call.name}({call.args_json})" for call in record.tool_calls)
        return AIMessage(
            content=(record.content + "\n" if record.content else "") + f"[called {calls}]"
        )
    return AIMessage(content=record.content)


def to_messages(records: Sequence[MessageDoc]) -> list[BaseMessage]:
    """Convert stored records (oldest first) into a valid chat sequence."""
    out: list[BaseMessage] = []
    i = 0
    while i < len(records):
        record = records[i]
        if record.role == "ai" and record.tool_calls:
            ids = [call.id for call in record.tool_calls]
            j = i + 1
            results: dict[str, MessageDoc] = {}
            while j < len(records) and records[j].role == "tool":
                if records[j].tool_call_id in ids and records[j].tool_call_id not in results:
                    results[str(records[j].tool_call_id)] = records[j]
                j += 1
            if ids and len(set(ids)) == len(ids) and set(results) == set(ids):
                out.append(
                    AIMessage(
                        content=record.content,
                        tool_calls=[
                            {
                                "name": call.name,
                                "args": _args(call.args_json),
                                "id": call.id,
                                "type": "tool_call",
                            }
                            for call in record.tool_calls
                        ],
                    )
                )
                out.extend(
                    ToolMessage(
                        content=results[cid].content, tool_call_id=cid, name=results[cid].name
                    )
                    for cid in ids
                )
            else:
                out.append(_plain(record))
                out.extend(_plain(records[k]) for k in range(i + 1, j))
            i = j
            continue
        out.append(_plain(record))  # includes a tool result whose call is outside the window
        i += 1
    return out
