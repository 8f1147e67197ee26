"""Voice notes for runtime tests: real OGG/Opus bytes, announced as a channel would, downloads counted.

The bytes are a valid OGG/Opus stream of silence (decoders read its true length); what
the fake transcription server "hears" in it is scripted on the server.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agent.types import Audio, Channel, Incoming, Language
from bot.fakes.transcription import silent_voice_note
from tests.support.harness import ALICE


@dataclass
class VoiceNote:
    """One voice note. `announced=False` sends no duration (as WhatsApp does)."""

    seconds: float = 3.0
    announced: bool = True
    mime_type: str = "audio/ogg"
    size: int | None = None  # announced size; the real one when None
    max_bytes: int | None = None
    fails_with: Exception | None = None  # what the download raises
    downloads: int = 0
    limits: list[int] = field(default_factory=list)  # the byte limit each download was given

    def __post_init__(self) -> None:
        self.data = silent_voice_note(self.seconds)

    async def fetch(self, limit: int) -> bytes:
        self.downloads += 1
        self.limits.append(limit)
        if self.fails_with is not None:
            raise self.fails_with
        return self.data

    def incoming(
        self,
        *,
        user: str = ALICE,
        update_id: str | None = None,
        language_hint: Language | None = None,
    ) -> Incoming:
        prefix = user.split(":", 1)[0]
        channels: dict[str, Channel] = {"tg": "telegram", "wa": "whatsapp"}
        return Incoming(
            channel=channels.get(prefix, "console"),
            chat_id=user.split(":", 1)[1],
            user_id=user,
            kind="voice",
            update_id=update_id,
            language_hint=language_hint,
            audio=Audio(
                mime_type=self.mime_type,
                fetch=self.fetch,
                seconds=self.seconds if self.announced else None,
                size=self.size if self.size is not None else len(self.data),
                max_bytes=self.max_bytes,
            ),
        )
