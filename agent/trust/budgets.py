"""Prompt budgets by session kind (issue 12): chat, admin and background requests each have their own."""

from __future__ import annotations

from typing import Literal, assert_never

from config.settings import Settings

SessionKind = Literal["chat", "admin", "background"]


def prompt_budget(settings: Settings, kind: SessionKind) -> int:
    """The most tokens a request of this session kind may send (DESIGN 3.9's prompt budget)."""
    match kind:
        case "chat":
            return settings.prompt_token_budget
        case "admin":
            return settings.prompt_budget_admin
        case "background":
            return settings.prompt_budget_background
        case _:
            assert_never(kind)
