"""Every tool (DESIGN 3.2, 11.1), each with a pydantic argument model, an outcome, a risk level and a kind."""

from __future__ import annotations

from agent.tools.asking import ASK_TOOLS
from agent.tools.base import Tool, ToolArgs
from agent.tools.editing import EDIT_TOOLS
from agent.tools.enrich import ENRICH_TOOLS
from agent.tools.finding import FINDING_TOOLS
from agent.tools.listing import LIST_TOOLS
from agent.tools.marking import MARK_TOOLS
from agent.tools.reasoning import REASONING_TOOLS
from agent.tools.remembering import MEMORY_TOOLS
from agent.tools.reminders import REMINDER_TOOLS
from agent.tools.saving import SAVE_TOOLS
from agent.tools.several import SEVERAL_TOOLS
from agent.tools.simulating import SIMULATE_TOOLS
from agent.tools.suggesting import SUGGEST_TOOLS
from agent.tools.watching import WATCH_TOOLS


def registry() -> dict[str, Tool[ToolArgs]]:
    """Every tool by name."""
    return {
        tool.name: tool
        for tool in (
            *SAVE_TOOLS,
            *SEVERAL_TOOLS,
            *ENRICH_TOOLS,
            *FINDING_TOOLS,
            *LIST_TOOLS,
            *EDIT_TOOLS,
            *MEMORY_TOOLS,
            *ASK_TOOLS,
            *SIMULATE_TOOLS,
            *REASONING_TOOLS,
            *REMINDER_TOOLS,
            *MARK_TOOLS,  # DESIGN 11.1: the watchlist
            *WATCH_TOOLS,
            *SUGGEST_TOOLS,
        )
    }
