"""Stored messages to langchain-core messages, never producing a sequence the API rejects.

An `ai` record with tool calls becomes `AIMessage(tool_calls=...)` followed by one
`ToolMessage` per call only when every call has a non-empty id and its result is
present right after it; otherwise the whole group falls back to plain text. Tool
records with no partner (their call is not in the window, or a second answer to
the same call) become plain text too: nothing is dropped, nothing is left unpaired.

Stored text is data whatever its role: a reply quotes page titles and notes, so the
text of every `human`, `ai` and plain-text record enters the prompt inside a data
block (DESIGN 3.7). Tool results are the runtime's JSON, whose labels are fenced.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from agent.memory import situation as situations
from agent.planning.wire import SETTLED, STEP_TEXT
from agent.understanding.datafence import fence
from storage.documents import MessageDoc

CORRECTION = "runtime_correction"
GIST_CHARS = 200


def _args(args_json: str) -> dict[str, Any]:
    try:
        value = json.loads(args_json)
    except ValueError:
        return {"unparsed": args_json[:200]}
    return value if isinstance(value, dict) else {"value": value}


def _text(content: str) -> str:
    """Stored text as the prompt shows it: fenced, except nothing at all."""
    return fence(content) if content else ""


def _plain(record: MessageDoc) -> BaseMessage:
    if record.role == "human" or (record.role == "system" and record.name == CORRECTION):
        return HumanMessage(content=_text(record.content))
    if record.role == "tool":
        return AIMessage(content=f"[{record.name or 'tool'} result] {_text(record.content)}")
    if record.tool_calls:
        calls = "; ".join(f"{call.name}({call.args_json})" for call in record.tool_calls)
        return AIMessage(
            content=_text(record.content + "\n" if record.content else "")
            + f"[called {_text(calls)}]"
        )
    return AIMessage(content=_text(record.content))


def gist(reply: str) -> str:
    """A reply as the model's history shows it: its first line, at most `GIST_CHARS`.

    What the rest says is for the user (a confirmation's estimate and assessment, a
    caveat, the lines of a list), and what the model needs of it the situation carries
    (the list shown, the item in focus, what is pending); a delete preview was 130 prompt
    tokens to the next request, its first line 25.
    """
    first, _, rest = reply.strip().partition("\n")
    if len(first) > GIST_CHARS:
        return first[: GIST_CHARS - 1].rstrip() + "…"
    return first + (" […]" if rest.strip() else "")


def asked_back_on(records: Sequence[MessageDoc]) -> str:
    """The user's last message, when the turn it began ran no tool and its reply asked a
    question ("Which year is the Jaws you mean?"); "" otherwise."""
    turn: list[MessageDoc] = []
    for record in reversed(records):
        turn.append(record)
        if record.role == "human":
            break
    else:
        return ""
    asked = turn[0].role == "ai" and "?" in turn[0].content
    acted = any(
        _args(call.args_json).get("action", "CALL_TOOL") == "CALL_TOOL"
        for r in turn
        for call in r.tool_calls
    )
    return turn[-1].content if asked and not acted else ""


def situation_before(records: Sequence[MessageDoc]) -> tuple[situations.Part, ...] | None:
    """The parts of the last situation `records` show (json_schema history), or None when
    they show none told by parts: the next situation then tells everything."""
    for record in reversed(records):
        if record.role == "human" and record.situation is not None:
            return situations.from_record(record.situation_parts)
    return None


def to_messages(records: Sequence[MessageDoc], *, verbatim: bool = False) -> list[BaseMessage]:
    """Convert stored records (oldest first) into a valid chat sequence.

    `verbatim` (json_schema output, issue 28): each planned message shows again as its
    request showed it, so a prefix-caching server serves it from its cache: the
    situation before it, the message itself (the user's own words, unfenced as when
    they were new), the step as the model wrote it (`STEP_TEXT`); the results of those
    steps are marked `SETTLED` (agent/planning/wire.py leaves them out of the request).
    Each situation tells what changed since the one before it, the first one everything
    (agent/memory/situation.py), and a reply shows its first line (`gist`).
    """
    out: list[BaseMessage] = []
    before: tuple[situations.Part, ...] | None = None  # the last situation shown
    i = 0
    while i < len(records):
        record = records[i]
        if verbatim and record.role == "human" and record.situation is not None:
            parts = situations.from_record(record.situation_parts)
            # the first of a window tells everything again (what it changed from is gone)
            told = record.situation if parts is None else situations.tell(parts, before)
            before = parts
            out.append(SystemMessage(content=told))
            out.append(HumanMessage(content=record.content))
            i += 1
            continue
        if verbatim and record.role == "ai" and not record.tool_calls:
            out.append(AIMessage(content=_text(gist(record.content))))
            i += 1
            continue
        if record.role == "ai" and record.tool_calls:
            ids = [call.id for call in record.tool_calls]
            j = i + 1
            results: dict[str, MessageDoc] = {}
            while j < len(records) and records[j].role == "tool":
                if records[j].tool_call_id in ids and records[j].tool_call_id not in results:
                    results[str(records[j].tool_call_id)] = records[j]
                j += 1
            if ids and all(ids) and len(set(ids)) == len(ids) and set(results) == set(ids):
                written = record.step_text if verbatim else None
                out.append(
                    AIMessage(
                        content=_text(record.content),
                        additional_kwargs={STEP_TEXT: written} if written else {},
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
                        content=results[cid].content,
                        tool_call_id=cid,
                        name=results[cid].name,
                        additional_kwargs={SETTLED: True} if written else {},
                    )
                    for cid in ids
                )
                paired = {id(r) for r in results.values()}
                # after the answers, so the call and its results stay adjacent
                out.extend(
                    _plain(records[k]) for k in range(i + 1, j) if id(records[k]) not in paired
                )
            else:
                out.append(_plain(record))
                out.extend(_plain(records[k]) for k in range(i + 1, j))
            i = j
            continue
        out.append(_plain(record))  # includes a tool result whose call is outside the window
        i += 1
    return out
