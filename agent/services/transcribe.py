"""Speech to text behind one small interface: `Transcriber.transcribe(audio) -> text`.

    HttpTranscriber   any OpenAI-compatible `POST {base}/audio/transcriptions` (OpenAI,
                      speaches / faster-whisper-server, LocalAI, vLLM): multipart `file`,
                      `model`, `language`, `response_format=json`
    LocalTranscriber  faster-whisper in this process (`pip install 'lembra[voice]'`) on a
                      CTranslate2 model directory; off the event loop, one at a time

Errors are translated here and nowhere else: a timeout, a refused connection, 429 or
5xx become ServiceUnavailable (trying again later can help); refused credentials or a
model that cannot be loaded become ServiceNotConfigured (the operator's to fix);
audio the backend cannot read, or an answer we cannot read, become ServiceError.
Neither the audio, the transcript nor the key is ever logged.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import aiohttp

from agent.errors import ServiceError, ServiceNotConfigured, ServiceUnavailable
from agent.understanding.textnorm import without_surrogates
from config.logging import log_event
from config.settings import Settings

logger = logging.getLogger(__name__)

Backend = Literal["http", "local"]
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_BACKOFF_S = 0.25
# Whisper and OpenAI read the container from the file name's extension: a voice note's
# MIME type picks it (Telegram and WhatsApp voice notes are OGG/Opus).
EXTENSIONS: dict[str, str] = {
    "audio/ogg": "ogg",
    "audio/opus": "ogg",
    "audio/oga": "ogg",
    "audio/mpeg": "mp3",
    "audio/mp3": "mp3",
    "audio/mpeg3": "mp3",  # seen in Telegram `audio` objects
    "audio/x-mpeg-3": "mp3",
    "audio/mp4": "m4a",
    "audio/m4a": "m4a",
    "audio/x-m4a": "m4a",
    "audio/aac": "m4a",
    "audio/wav": "wav",
    "audio/x-wav": "wav",
    "audio/wave": "wav",
    "audio/webm": "webm",
    "audio/flac": "flac",
    "audio/x-flac": "flac",
    "video/mp4": "mp4",
    "video/webm": "webm",
}


# `type/subtype` as RFC 9110 spells a media type: tokens only (no space, CR, LF or quote)
_MEDIA_TYPE = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+/[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def media_type(mime_type: str) -> str:
    """The `type/subtype` a sender's MIME type begins with, lower-cased ("" when it has none).

    Parameters and anything after the first character a media type cannot hold (a CR/LF
    that would start a header of its own) are dropped: only this goes in a request.
    """
    found = _MEDIA_TYPE.match(mime_type.strip())
    return found.group(0).lower() if found else ""


def extension_for(mime_type: str) -> str | None:
    """The file extension transcription servers expect for `mime_type` (None: unsupported)."""
    return EXTENSIONS.get(media_type(mime_type))


@dataclass(frozen=True, slots=True)
class Heard:
    """What a backend heard: the text, and the audio's duration when the backend measured it."""

    text: str
    seconds: float | None = None


class Transcriber(Protocol):
    """One speech-to-text backend."""

    backend: Backend

    async def transcribe(self, audio: bytes, *, mime_type: str, language: str) -> Heard:
        """The words spoken in `audio`; `language` ("pt", "en") is a hint, not a filter."""
        ...

    async def aclose(self) -> None:
        """Release what the backend holds."""
        ...


class HttpTranscriber:
    """An OpenAI-compatible transcription endpoint. The session belongs to the caller."""

    backend: Backend = "http"

    def __init__(
        self,
        session: aiohttp.ClientSession,
        *,
        base_url: str,
        api_key: str | None,
        model: str,
        timeout_s: float,
        retries: int = 1,
    ) -> None:
        self._session = session
        self._url = base_url.rstrip("/") + "/audio/transcriptions"
        self._api_key = api_key or None
        self._model = model
        self._timeout = aiohttp.ClientTimeout(total=timeout_s)
        self._retries = retries

    async def transcribe(self, audio: bytes, *, mime_type: str, language: str) -> Heard:
        extension = extension_for(mime_type)
        if extension is None:
            raise ServiceError(f"audio of type {mime_type!r} cannot be transcribed")
        headers = {"Accept": "application/json"}
        if self._api_key is not None:
            headers["Authorization"] = f"Bearer {self._api_key}"
        reason = "no answer"
        for attempt in range(self._retries + 1):
            if attempt:
                await asyncio.sleep(_BACKOFF_S * attempt)
            form = aiohttp.FormData()  # a FormData is consumed by one request
            form.add_field(
                "file", audio, filename=f"voice.{extension}", content_type=media_type(mime_type)
            )
            form.add_field("model", self._model)
            form.add_field("language", language)
            form.add_field("response_format", "json")
            try:
                async with self._session.post(
                    self._url, data=form, headers=headers, timeout=self._timeout
                ) as response:
                    status = response.status
                    body = await response.read()
            except TimeoutError:
                reason = "timeout"
                break  # a slow server stays slow: the user is told to try again later
            except (aiohttp.ClientError, OSError) as exc:
                reason = f"connection error ({type(exc).__name__})"
                continue
            if status in _RETRY_STATUSES:
                reason = f"HTTP {status}"
                continue
            if status in (401, 403):
                log_event(logger, "transcribe_key_rejected", level=logging.WARNING, status=status)
                raise ServiceNotConfigured(
                    f"the transcription server refused the credentials (HTTP {status}); "
                    "check TRANSCRIBE_API_KEY"
                )
            if status == 404:
                raise ServiceNotConfigured(
                    "the transcription server has no /audio/transcriptions (HTTP 404); "
                    "check TRANSCRIBE_BASE_URL and TRANSCRIBE_MODEL"
                )
            if status != 200:
                log_event(logger, "transcribe_refused", level=logging.WARNING, status=status)
                raise ServiceError(f"the transcription server refused the audio (HTTP {status})")
            return Heard(text=_text_of(body))
        log_event(logger, "transcribe_unavailable", level=logging.WARNING, reason=reason)
        raise ServiceUnavailable(f"the transcription server is unavailable ({reason})")

    async def aclose(self) -> None:
        return None


def _text_of(body: bytes) -> str:
    """The transcript of a `json` answer (`{"text": ...}`); a plain-text answer is taken whole."""
    try:
        raw = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ServiceError("the transcription server answered with unreadable bytes") from exc
    try:
        data: Any = json.loads(raw)
    except ValueError:
        return raw.strip()  # a server that ignores response_format=json answers text
    if isinstance(data, dict) and isinstance(data.get("text"), str):
        return without_surrogates(str(data["text"])).strip()  # a JSON escape can hold one
    raise ServiceError("the transcription server answered without a text")


ModelLoader = Callable[[Path, int], Any]


def _load_faster_whisper(model_dir: Path, threads: int) -> Any:
    """A faster-whisper model from `model_dir` only: never a download from a model hub."""
    try:
        from faster_whisper import WhisperModel
    except ImportError as exc:
        raise ServiceNotConfigured(
            "TRANSCRIBE_MODEL_DIR needs the voice extra: pip install 'lembra[voice]'"
        ) from exc
    return WhisperModel(
        str(model_dir),
        device="cpu",
        compute_type="int8",
        cpu_threads=threads,
        local_files_only=True,
    )


class LocalTranscriber:
    """faster-whisper in this process: loaded on first use, one transcription at a time.

    Decoding is a beam search of 5 at temperature 0 with no fallback to sampling, so a
    voice note costs a bounded amount of compute on a small machine. Whisper's encoder always reads a 30-second
    window, which makes a 3-second note cost as much as a 30-second one; a note that fits
    is encoded in a window fitted to it instead (`fit_window`, `_fitted`), and decoded
    the library's way when that answer looks wrong (bench/voice.py measures both).
    """

    backend: Backend = "local"

    def __init__(
        self,
        model_dir: Path,
        *,
        threads: int | None = None,
        beam_size: int = 5,
        fit_window: bool = True,
        min_window_s: float = 6.0,
        loader: ModelLoader = _load_faster_whisper,
    ) -> None:
        self._dir = model_dir
        self._threads = threads or min(4, os.cpu_count() or 1)
        self._beam_size = beam_size
        self._fit_window = fit_window
        self._min_window_s = min_window_s
        self._loader = loader
        self._model: Any = None
        self._lock = asyncio.Lock()  # one at a time per process: the cores are shared

    async def transcribe(self, audio: bytes, *, mime_type: str, language: str) -> Heard:
        async with self._lock:
            return await asyncio.to_thread(self._run, audio, language)

    def _run(self, audio: bytes, language: str) -> Heard:
        model = self._loaded()
        try:
            return self._hear(model, audio, language)
        except Exception as exc:  # PyAV's and CTranslate2's errors: the audio cannot be read
            log_event(logger, "transcribe_audio_unreadable", level=logging.WARNING)
            raise ServiceError("the audio could not be decoded") from exc

    def _loaded(self) -> Any:
        if self._model is None:
            if not (self._dir / "model.bin").is_file():  # never let a name reach a model hub
                raise ServiceNotConfigured(
                    f"no Whisper model in {self._dir} (TRANSCRIBE_MODEL_DIR)"
                )
            try:
                self._model = self._loader(self._dir, self._threads)
            except ServiceError:
                raise
            except Exception as exc:  # the library's own errors: the model cannot be used
                log_event(logger, "transcribe_model_unusable", level=logging.ERROR, exc_info=True)
                raise ServiceNotConfigured(
                    f"the Whisper model in {self._dir} cannot be loaded"
                ) from exc
        return self._model

    def _hear(self, model: Any, audio: bytes, language: str) -> Heard:
        source: Any = io.BytesIO(audio)
        if self._fit_window:
            from faster_whisper.audio import decode_audio

            source = decode_audio(source, sampling_rate=_RATE)
            seconds = len(source) / _RATE
            if seconds <= FIT_UP_TO_S:
                window_s = max(self._min_window_s, seconds + _ROOM_S)
                fitted = _fitted(model, source, seconds, window_s, language, self._beam_size)
                if fitted is not None:
                    return Heard(text=fitted, seconds=seconds)
        segments, info = model.transcribe(
            source,
            language=language,
            beam_size=self._beam_size,
            temperature=0.0,
            condition_on_previous_text=False,
            without_timestamps=True,
        )
        words = "".join(segment.text for segment in segments)
        duration = getattr(info, "duration", None)
        return Heard(
            text=words.strip(),
            seconds=float(duration) if isinstance(duration, int | float) else None,
        )

    async def aclose(self) -> None:
        self._model = None


_RATE = 16_000  # Whisper's sampling rate
_FRAMES_PER_S = 100  # mel frames a second of audio
FIT_UP_TO_S = 27.0  # notes up to this long are encoded in a fitted window
# Room left after the speech: with 1 s the base model loops on short notes, with 3 s it
# hears as well as with the full window (bench/voice.py).
_ROOM_S = 3.0
_TOKENS_PER_S = 10  # more than speech ever needs: a cap on a looping decode
_LOOPING = 2.4  # the library's compression-ratio threshold for repeated text
_NO_SPEECH, _UNSURE = 0.6, -1.0  # the library's silence rule (no_speech_prob, avg log prob)


def _fitted(
    model: Any, samples: Any, seconds: float, window_s: float, language: str, beam_size: int
) -> str | None:
    """The transcript decoded from a window fitted to the note; None to decode it in full.

    Uses faster-whisper's own feature extractor, tokenizer and CTranslate2 model, as its
    `transcribe` does for one 30-second window, with fewer frames given to the encoder.
    """
    import ctranslate2
    import numpy as np
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import get_compression_ratio, get_suppressed_tokens

    features = model.feature_extractor(samples)
    frames = min(3000, 2 * math.ceil(window_s * _FRAMES_PER_S / 2))
    window = features[:, :frames]
    if window.shape[1] < frames:
        window = np.pad(window, ((0, 0), (0, frames - window.shape[1])))
    encoded = ctranslate2.StorageView.from_array(
        np.ascontiguousarray(window[np.newaxis], dtype=np.float32)
    )
    tokenizer = Tokenizer(
        model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=language
    )
    prompt = [*tokenizer.sot_sequence, tokenizer.no_timestamps]
    result = model.model.generate(
        encoded,
        [prompt],
        beam_size=beam_size,
        max_length=min(model.max_length, len(prompt) + 20 + int(seconds * _TOKENS_PER_S)),
        return_scores=True,
        return_no_speech_prob=True,
        suppress_blank=True,
        suppress_tokens=list(get_suppressed_tokens(tokenizer, (-1,)) or ()),
    )[0]
    tokens = [token for token in result.sequences_ids[0] if token < tokenizer.eot]
    average = result.scores[0] * len(tokens) / (len(tokens) + 1)
    if result.no_speech_prob > _NO_SPEECH and average < _UNSURE:
        return ""  # silence, as the library would skip it
    text = str(tokenizer.decode(tokens)).strip()
    if get_compression_ratio(text) > _LOOPING:
        return None  # a loop: the full window decides
    return text


def build_transcriber(settings: Settings, session: aiohttp.ClientSession) -> Transcriber | None:
    """The backend the settings name (DESIGN 10.3), or None when voice notes are not configured."""
    match settings.transcription_backend:
        case "http":
            return HttpTranscriber(
                session,
                base_url=settings.transcribe_url,
                api_key=settings.transcribe_key,
                model=settings.transcribe_model,
                timeout_s=settings.transcribe_timeout_seconds,
            )
        case "local":
            assert settings.transcribe_model_dir is not None
            return LocalTranscriber(settings.transcribe_model_dir)
        case None:
            return None
