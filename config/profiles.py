"""Model profiles: defaults for a size of model, applied to the settings a profile leaves unset.

`LLM_PROFILE=small` is for 1-3B models served locally (llama.cpp, Ollama, vLLM on
a few CPU cores): a short prompt (so the first request of a conversation costs
seconds, not minutes, at ~50 prompt tokens/s), a short verbatim history, a short
plan, and constrained output where the server has it. Anything set explicitly wins.

The history starts a session at 6 messages and grows, append-only, to 48 before it
drops back to 6 (issue 28): between drops the server's prefix cache keeps it, so
what a request costs is the last turn, not the history; the budget leaves it room.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Profile = Literal["default", "small"]

SMALL: Mapping[str, Any] = {
    "prompt_token_budget": 4_500,
    "narrative_token_budget": 400,
    "llm_history_messages": 6,
    "llm_history_max_messages": 48,
    "llm_planner_max_tokens": 200,
    "llm_output_mode": "auto",
    "llm_timeout_seconds": 60.0,
}


def apply_profile(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` with the chosen profile's defaults filled in where nothing was set."""
    merged = dict(values)
    profile = str(merged.get("llm_profile") or "default").strip().lower()
    if profile == "small":
        for name, default in SMALL.items():
            if merged.get(name) in (None, ""):
                merged[name] = default
    return merged
