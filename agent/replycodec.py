"""The reply codec: a reply as kept on its `processed_updates` record (a send to retry) or on
the user document (a turn's answer a re-drive repeats), and back.

An attachment in memory is kept as base64; one written to a file (a long export) by its
path, re-sendable while the file is there.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

from agent.types import Attachment, Choice, Reply


def reply_to_json(reply: Reply | None, *, with_data: bool) -> str:
    """The reply as JSON; attachment bytes only when the reply must be re-sent."""
    if reply is None:
        return "null"
    attachment = None
    if reply.attachment is not None:
        attachment = {
            "filename": reply.attachment.filename,
            "mime_type": reply.attachment.mime_type,
            "size": reply.attachment.size,
        }
        if with_data and reply.attachment.path is not None:
            attachment["path"] = str(reply.attachment.path)
        elif with_data:
            attachment["data_b64"] = base64.b64encode(reply.attachment.data).decode()
    return json.dumps(
        {
            "text": reply.text,
            "choices": [[c.index, c.label] for c in reply.choices],
            "choice_kind": reply.choice_kind,
            "choice_token": reply.choice_token,
            "silent": reply.silent,
            "state": reply.meta.state,
            "attachment": attachment,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def reply_from_json(raw: str) -> Reply | None:
    """Rebuild a kept reply (None when it is not a complete, re-sendable reply)."""
    try:
        data = json.loads(raw)
        if not isinstance(data, dict):
            return None
        attachment = None
        if data.get("attachment"):
            spec = data["attachment"]
            if "path" in spec and Path(spec["path"]).is_file():
                attachment = Attachment(
                    spec["filename"], spec["mime_type"], path=Path(spec["path"])
                )
            elif "data_b64" in spec:
                attachment = Attachment(
                    spec["filename"], spec["mime_type"], base64.b64decode(spec["data_b64"])
                )
            else:
                return None
        return Reply(
            text=str(data["text"]),
            choices=tuple(Choice(int(i), str(label)) for i, label in data["choices"]),
            choice_kind=data["choice_kind"],
            choice_token=data["choice_token"],
            silent=bool(data["silent"]),
            attachment=attachment,
        )
    except (ValueError, KeyError, TypeError):
        return None
