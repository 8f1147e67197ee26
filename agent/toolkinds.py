"""What a tool declares of itself: its risk level (`Risk`), what it does (`Kind`) and the
outside service it cannot work without (`Service`).

A leaf: it imports nothing from agent/, so the risk policy (agent/trust/risk.py), the
planning paths (agent/tools/paths.py) and the tools themselves (agent/tools/base.py)
share these literals without importing one another.
"""

from __future__ import annotations

from typing import Literal

Risk = Literal["low", "read", "high", "critical"]
# What a tool does, which decides the paths that offer it (agent/tools/paths.py):
# save (adds items), lookup (asks an outside source; saves only when the message asked to),
# read (the user's own things), change (an item, a reminder, a state: undoable), delete,
# ask (a question back), note (the assistant's memory), mark (a bookmark), check (a dry
# run of an effect), meta (a note for /why).
Kind = Literal["save", "lookup", "read", "change", "delete", "ask", "note", "mark", "check", "meta"]
# An outside service a tool cannot do its job without: not configured, the tool is not
# offered to the model (agent/tools/paths.py `runnable`).
Service = Literal["tmdb"]
