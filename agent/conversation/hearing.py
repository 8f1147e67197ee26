"""Voice notes in a turn (DESIGN 10.3): heard first, then handled as if typed.

    voice Incoming ─> transcript kept on its update record? ─> reuse it (a re-drive)
                  └─> no backend ─> the fixed reply (admins: the settings to set)
                  └─> announced too long or too large, unknown format ─> a clear reply,
                        nothing downloaded (what is announced only ever refuses)
                  └─> download (at most MAX_BYTES_PER_SECOND a second of the limit)
                        ─> an OGG note's length counted on its packets (off the loop):
                           over the limit, or not countable ─> a clear reply
                        ─> transcribe (user's language as the hint) ─> keep on record
    transcript ─> the same turn a typed message gets ─> reply prefixed `🎤 «transcript»`

The audio is never stored: its bytes live only for the transcription call. The
transcript is the user's message (stored, shown, forgotten like a typed one). It is
kept on the `processed_updates` record while the update is `received`, so a re-driven
update is never transcribed twice and its effects, deduplicated by update id, cannot
differ from the first run's.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Literal

from agent.deps import Deps
from agent.errors import FileTooLarge, ServiceError, ServiceNotConfigured, ServiceUnavailable
from agent.services.audiolength import UNREADABLE, ogg_seconds
from agent.services.transcribe import extension_for
from agent.texts import text
from agent.texts.voice import HEARD_MARK
from agent.types import Audio, Incoming, Language, Reply, ReplyMeta
from agent.understanding.textnorm import clean_text
from config.logging import log_event

log = logging.getLogger("lembra.voice")

Outcome = Literal[
    "ok",
    "empty",
    "reused",
    "too_long",
    "too_large",
    "unsupported",
    "unconfigured",
    "unavailable",
    "failed",
]
# 256 kbit/s: above any voice codec. A file larger than this many bytes per second of
# the limit is too long whatever its format says, and is not downloaded.
MAX_BYTES_PER_SECOND = 32_000
SHOWN_CHARS = 600  # of the transcript in the reply's first line


async def voice_turn(
    deps: Deps, incoming: Incoming, handle_text: Callable[[Incoming], Awaitable[Reply]]
) -> Reply:
    """Hear the voice note, then answer its transcript as the typed message it stands for."""
    language = await _language(deps, incoming)
    heard = await hear(deps, incoming, language)
    if isinstance(heard, Reply):
        return heard
    reply = await handle_text(replace(incoming, kind="text", text=heard, audio=None))
    return replace(reply, text=f"{heard_line(heard)}\n\n{reply.text}")


def heard_line(transcript: str) -> str:
    """`🎤 «what was heard»`: the first line of a voice note's reply."""
    shown = " ".join(transcript.split())
    if len(shown) > SHOWN_CHARS:
        shown = shown[: SHOWN_CHARS - 1].rstrip() + "…"
    return f"{HEARD_MARK} «{shown}»"


async def hear(deps: Deps, incoming: Incoming, language: Language) -> str | Reply:
    """The transcript of a voice note, or the reply that says why there is none."""
    transcriber = deps.transcriber
    backend = transcriber.backend if transcriber is not None else "none"
    kept = await _kept(deps, incoming)
    if kept is not None:
        _count(deps, backend, "reused")
        return kept or _refused(deps, backend, "empty", text("voice_empty", language))
    audio = incoming.audio
    if transcriber is None or audio is None:
        return _not_configured(deps, incoming, language)
    limit = deps.settings.transcribe_max_seconds
    refusal = _over_limits(audio, limit, language)
    if refusal is not None:
        outcome, body = refusal
        return _refused(deps, backend, outcome, body)
    try:
        data = await audio.fetch(_byte_limit(audio, limit))
    except FileTooLarge:  # the platform's lookup told its size (WhatsApp), or it streamed on
        return _refused(deps, backend, "too_large", text("voice_too_large", language))
    except ServiceUnavailable:
        log_event(log, "voice_download_failed", level=logging.WARNING, retryable=True)
        return _refused(deps, backend, "unavailable", text("voice_unavailable", language))
    except ServiceError:
        log_event(log, "voice_download_failed", level=logging.WARNING, retryable=False)
        return _refused(deps, backend, "failed", text("voice_unreadable", language))
    if len(data) > limit * MAX_BYTES_PER_SECOND:
        return _refused(deps, backend, "too_large", text("voice_too_large", language))
    # measured on the bytes received: what was announced only ever refused early
    seconds = await asyncio.to_thread(ogg_seconds, data, stop_after_s=limit)
    if seconds is UNREADABLE:
        log_event(log, "voice_length_unreadable", level=logging.WARNING)
        return _refused(deps, backend, "failed", text("voice_unreadable", language))
    if isinstance(seconds, float) and seconds > limit:
        return _refused(deps, backend, "too_long", text("voice_over_limit", language, limit=limit))
    started = time.perf_counter()
    try:
        heard = await transcriber.transcribe(data, mime_type=audio.mime_type, language=language)
    except ServiceUnavailable:
        return _refused(deps, backend, "unavailable", text("voice_unavailable", language))
    except ServiceNotConfigured:
        log_event(log, "voice_backend_broken", level=logging.ERROR, backend=backend)
        return _refused(deps, backend, "failed", text("voice_broken", language))
    except ServiceError:
        return _refused(deps, backend, "failed", text("voice_unreadable", language))
    metrics = deps.metrics
    metrics.transcription_seconds.labels(backend).observe(time.perf_counter() - started)
    length = seconds if isinstance(seconds, float) else heard.seconds
    if length is not None:
        metrics.transcribed_seconds.labels(backend).inc(length)
    transcript = spoken(heard.text)
    if incoming.update_id is not None:
        await deps.db.updates.keep_transcript(incoming.update_id, transcript)
    if not transcript:
        return _refused(deps, backend, "empty", text("voice_empty", language))
    _count(deps, backend, "ok")
    return transcript


def spoken(transcript: str) -> str:
    """The transcript as the user's message: cleaned, without the full stop Whisper closes with.

    Speech has no punctuation of its own; a closing "." would end up in notes and titles.
    A "?" or "!" stays: "sim?" is a question, not the confirmation a deletion needs.
    """
    cleaned = clean_text(transcript)
    if cleaned.endswith(".") and not cleaned.endswith(".."):
        cleaned = cleaned[:-1].rstrip()
    return cleaned


def _over_limits(audio: Audio, limit: int, language: Language) -> tuple[Outcome, str] | None:
    """Why the announced note cannot be transcribed (before downloading it), or None."""
    seconds = _known(audio.seconds)
    if seconds is not None and seconds > limit:
        return "too_long", _too_long(seconds, limit, language)
    if audio.size is not None and (
        audio.size > limit * MAX_BYTES_PER_SECOND
        or (audio.max_bytes is not None and audio.size > audio.max_bytes)
    ):
        return "too_large", text("voice_too_large", language)
    if extension_for(audio.mime_type) is None:
        return "unsupported", text("voice_unsupported_format", language)
    return None


def _byte_limit(audio: Audio, limit: int) -> int:
    """The most bytes worth downloading: what the length limit can take, and the platform allows."""
    most = limit * MAX_BYTES_PER_SECOND
    return max(0, min(most, audio.max_bytes)) if audio.max_bytes is not None else most


def _known(seconds: float | None) -> float | None:
    """An announced length, or None when it says nothing (absent, negative, not finite)."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return None
    return float(seconds)


def _too_long(seconds: float, limit: int, language: Language) -> str:
    return text("voice_too_long", language, seconds=round(seconds), limit=limit)


async def _kept(deps: Deps, incoming: Incoming) -> str | None:
    """The transcript kept on this update's record by an earlier run, if any."""
    if incoming.update_id is None:
        return None
    record = await deps.db.updates.get(incoming.update_id)
    return record.transcript if record is not None else None


async def _language(deps: Deps, incoming: Incoming) -> Language:
    """The user's language: the transcription's hint and the language of a refusal."""
    user = await deps.db.users.get(incoming.user_id)
    if user is not None:
        return user.language
    return incoming.language_hint or deps.settings.default_language


def _not_configured(deps: Deps, incoming: Incoming, language: Language) -> Reply:
    log_event(
        log,
        "voice_not_configured",
        settings="TRANSCRIBE_BASE_URL or TRANSCRIBE_MODEL_DIR",
        user_id=incoming.user_id,
    )
    _count(deps, "none", "unconfigured")
    body = text("unsupported_media", language)
    if deps.is_admin(incoming.user_id):
        body += "\n" + text("voice_not_configured_admin", language)
    return Reply(text=body, meta=ReplyMeta(intent="voice", rules_applied=("voice_unconfigured",)))


def _refused(deps: Deps, backend: str, outcome: Outcome, body: str) -> Reply:
    """A voice note that became no message: its reply, and nothing stored."""
    _count(deps, backend, outcome)
    return Reply(
        text=body,
        meta=ReplyMeta(state="FAIL", score=0, intent="voice", rules_applied=(f"voice_{outcome}",)),
    )


def _count(deps: Deps, backend: str, outcome: Outcome) -> None:
    deps.metrics.transcriptions.labels(backend, outcome).inc()
