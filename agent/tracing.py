"""LangChain/LangSmith tracing: off inside the process unless `LLM_TRACING=langsmith` (DESIGN 10.5).

langchain traces every model call to LangSmith as soon as `LANGSMITH_TRACING=true` (or
`LANGCHAIN_TRACING_V2=true`) is in the environment, which is common on a machine where
someone also develops with LangChain. A trace holds the whole request, so the users'
messages would leave the machine. Lembra therefore decides itself, at start: tracing is
switched off for the process unless its own setting asks for it by name, and then the
start-up says where message text goes.
"""

from __future__ import annotations

import logging
import os

from config.logging import log_event
from config.settings import Settings

logger = logging.getLogger(__name__)

DEFAULT_ENDPOINT = "https://api.smith.langchain.com"
# LangChain's retired v1 tracer: with one of these set and v2 tracing off, langchain
# refuses every call (RuntimeError), so they go with the rest of the tracing switches.
_V1_SWITCHES = ("LANGCHAIN_TRACING", "LANGCHAIN_HANDLER")


def apply_tracing(settings: Settings) -> bool:
    """Switch LangSmith tracing on or off for this process by LLM_TRACING; return whether it is on.

    Only model calls run through langchain's callbacks: without a model nothing is
    traced, and langsmith (0.15 s to import) is not loaded.
    """
    if not settings.model_configured:
        return False
    import langsmith
    from langsmith.utils import get_env_var

    if settings.llm_tracing != "langsmith":
        langsmith.configure(enabled=False)
        for name in _V1_SWITCHES:
            os.environ.pop(name, None)
        return False
    langsmith.configure(enabled=True)
    log_event(
        logger,
        "llm_tracing_on",
        level=logging.WARNING,
        note="LLM_TRACING=langsmith: every model request, with the users' message text, "
        "is sent to the tracing service",
        endpoint=get_env_var("ENDPOINT") or DEFAULT_ENDPOINT,
    )
    return True
