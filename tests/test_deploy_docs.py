"""docs/deploy.md says what the code does (issue 45: it had drifted in five places)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from agent.texts.menu import ADMIN_COMMANDS, USER_COMMANDS
from bot.telegram.updates import ALLOWED_UPDATES

DEPLOY = (Path(__file__).resolve().parents[1] / "docs" / "deploy.md").read_text(encoding="utf-8")


def _commands_after(marker: str) -> list[str]:
    """The `/a /b ...` span that follows `marker` in docs/deploy.md."""
    found = re.search(re.escape(marker) + r"[^`]*`([^`]+)`", DEPLOY)
    assert found is not None, marker
    return found.group(1).split()


def test_the_allowed_updates_it_documents_are_the_ones_registered() -> None:
    found = re.search(r"`allowed_updates=(\[[^\]]*\])`", DEPLOY)
    assert found is not None
    assert json.loads(found.group(1)) == list(ALLOWED_UPDATES)


def test_the_menus_it_documents_are_the_ones_set() -> None:
    assert _commands_after("user commands, for everyone:") == [f"/{c.name}" for c in USER_COMMANDS]
    assert _commands_after("admin's private chat only:") == [f"/{c.name}" for c in ADMIN_COMMANDS]


def test_it_describes_readiness_the_degraded_state_edits_and_no_fixed_python() -> None:
    assert "/readyz" in DEPLOY
    assert '"status": "degraded"' in DEPLOY
    assert "EDIT_WINDOW_SECONDS" in DEPLOY
    assert "python3.11" not in DEPLOY
