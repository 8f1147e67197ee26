"""The `auto` output mode kept per server and model, for a day, in a file under DATA_DIR (issue 28).

`LLM_OUTPUT_MODE=auto` asks the server once whether it takes a strict `response_format`
(agent/planning/transport.py). On a small local model that probe is a request like any
other, so every `lembra chat` start paid for it. Its answer is kept in
`DATA_DIR/model-output-modes.json` by (server, model) with the time it was found, and
reused for a day; an older, missing or unreadable entry means probing again. The file
holds no secret: base URLs and model names only (an API key never goes in it).
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from config.logging import log_event

if TYPE_CHECKING:  # the transport loads the OpenAI client
    from agent.planning.transport import ModelTransport

logger = logging.getLogger(__name__)

FILE_NAME = "model-output-modes.json"
KEEP_MS = 86_400_000  # a day
OPENAI_DEFAULT_URL = "https://api.openai.com/v1"
_MODES = ("tools", "json_schema")
Mode = Literal["tools", "json_schema"]


def cache_key(base_url: str | None, model: str) -> str:
    """Which server and model an entry is for (trailing slashes do not make another server)."""
    return f"{(base_url or OPENAI_DEFAULT_URL).rstrip('/')} {model}"


def read_mode(path: Path, key: str, *, now_ms: int) -> Mode | None:
    """The kept mode for `key` if found less than a day ago, else None (whatever the file holds)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # missing, unreadable, not JSON (UnicodeDecodeError included)
        return None
    entry = raw.get(key) if isinstance(raw, dict) else None
    if not isinstance(entry, dict):
        return None
    mode, at = entry.get("mode"), entry.get("at_ms")
    if mode not in _MODES or not isinstance(at, int) or isinstance(at, bool):
        return None
    if not 0 <= now_ms - at < KEEP_MS:  # expired, or found "in the future" (a clock moved back)
        return None
    return cast(Mode, mode)


def write_mode(path: Path, key: str, mode: Mode, *, now_ms: int) -> bool:
    """Keep `mode` for `key` (other entries stay); False when the file cannot be written."""
    entries: dict[str, Any] = {}
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(raw, dict):
            entries = raw
    except (OSError, ValueError):
        pass
    entries[key] = {"mode": mode, "at_ms": now_ms}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # written whole, then renamed: a concurrent start never reads half a file
        fd, tmp = tempfile.mkstemp(prefix=".modes-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(entries, handle, ensure_ascii=False, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError as exc:
        log_event(
            logger, "model_output_mode_not_kept", level=logging.WARNING, reason=type(exc).__name__
        )
        return False
    return True


async def settle_output_mode(model: ModelTransport, data_dir: Path, *, now_ms: int) -> Mode:
    """Settle `auto` for `model`: the mode kept for its server and model, else a probe (kept)."""
    path = data_dir / FILE_NAME
    key = cache_key(model.base_url, model.model)
    kept = read_mode(path, key, now_ms=now_ms)
    if kept is not None:
        model.output_mode = kept if kept == "tools" or model.can_use_json_schema else "tools"
        log_event(logger, "model_output_mode", model=model.model, mode=model.output_mode, kept=True)
        return model.output_mode
    mode = await model.choose_output_mode()
    if model.probe_conclusive:  # a timeout or an unreachable server is asked again next start
        write_mode(path, key, mode, now_ms=now_ms)
    return mode
