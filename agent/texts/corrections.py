"""Corrections by editing a message (DESIGN 10.5); the reply starts with `EDIT_MARK`."""

from __future__ import annotations

from agent.types import Language

TEXTS: dict[str, dict[Language, str]] = {
    "edit_corrected": {"pt": "Corrigi: {label}", "en": "Fixed: {label}"},
}
