"""`ajuda` / `/help` (issue 34): every capability with one example, in the user's language.

A capability that depends on a setting is listed only when it is configured. A
greeting ("oi") gets a short introduction pointing at the help: the whole help in
every greeting would also sit in the model's verbatim history, costing ~200 prompt
tokens per greeting on each later request. `/start` (first contact) gets the help
and the privacy note.
"""

from __future__ import annotations

from agent.texts import text
from agent.texts.menu import commands_line
from agent.types import Language
from config.settings import Settings


def voice_enabled(settings: Settings) -> bool:
    """Whether voice notes are transcribed (DESIGN 10.3; OpenAI's by default too: docs/voice.md)."""
    return settings.transcription_configured


def help_text(settings: Settings, language: Language) -> str:
    """The help: what Lembra does with an example each, then the commands (its last line,
    from the table the chat menus are built from)."""
    lines = text("help", language).split("\n")
    if voice_enabled(settings):
        lines.append(text("help_voice", language))
    lines.append(commands_line(language))
    return "\n".join(lines)


def help_reply(settings: Settings, language: Language, action: str, message: str) -> str:
    """What the `greeting` and `help` labels answer (`/start` is a greeting too)."""
    if message.strip().lower().startswith("/start"):
        return help_text(settings, language) + "\n\n" + text("privacy", language)
    if action == "greeting":
        return text("greeting", language)
    return help_text(settings, language)
