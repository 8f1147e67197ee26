"""A fake OpenAI-compatible transcription server on loopback, for tests and `lembra replay`.

`POST /v1/audio/transcriptions` is read as OpenAI reads it: a multipart form with a
`file` whose name's extension gives the format, a `model`, an optional ISO-639-1
`language` and `response_format` (json, text, verbose_json); a missing part, an
unsupported format or a bad language is a 400 in OpenAI's error shape, more than
25 MB a 413, a missing or wrong bearer token (when the fake has a key) a 401. So the
real client code runs against it. It cannot hear: what it answers is scripted with
`hear(text)`, one text per request in order; `fail_next` queues failures first, and a
`status` other than 200 is answered to every request (a server that is down).
`GET /v1/models` lists `models` (whisper-1), as OpenAI lists its own.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

from aiohttp import web

FORMATS = ("flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm")
MAX_BYTES = 25 * 1024 * 1024
RESPONSE_FORMATS = ("json", "text", "verbose_json")


@dataclass(frozen=True)
class RecordedTranscription:
    """One request the fake received: its form fields, never the audio bytes or the key."""

    model: str
    language: str | None
    filename: str
    content_type: str
    size: int
    response_format: str
    authorized: bool
    status: int  # what the fake answered


class FakeTranscriptionServer:
    """Answer transcription requests with scripted texts. `start()` returns the base URL."""

    def __init__(self, *, api_key: str | None = None) -> None:
        self.api_key = api_key
        self.models: list[str] = ["whisper-1"]  # what GET /v1/models lists
        self.requests: list[RecordedTranscription] = []
        self.delay_s = 0.0
        self.status = 200
        self.base_url = ""  # set by start()
        self._texts: deque[str] = deque()
        self._failures: deque[int] = deque()
        self._runner: web.AppRunner | None = None
        self._closing: asyncio.Event | None = None

    def hear(self, *texts: str) -> None:
        """Answer the next requests with these transcripts, in order."""
        self._texts.extend(texts)

    def fail_next(self, status: int, *, times: int = 1) -> None:
        """Answer the next `times` requests with `status` before the scripted texts."""
        self._failures.extend([status] * times)

    @property
    def unheard(self) -> int:
        """Scripted texts no request has consumed yet."""
        return len(self._texts)

    def clear(self) -> None:
        """Drop what is scripted and not yet served; answer 200 again."""
        self._texts.clear()
        self._failures.clear()
        self.status = 200

    async def start(self) -> str:
        """Listen on a free loopback port; return the base URL (http://127.0.0.1:PORT/v1)."""
        if self._runner is not None:
            raise RuntimeError("FakeTranscriptionServer is already started")
        app = web.Application(client_max_size=MAX_BYTES + 1024 * 1024)
        app.router.add_post("/v1/audio/transcriptions", self._transcribe)
        app.router.add_get("/v1/models", self._models)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        self._closing = asyncio.Event()
        self.base_url = f"http://127.0.0.1:{runner.addresses[0][1]}/v1"
        return self.base_url

    async def close(self) -> None:
        if self._runner is not None:
            if self._closing is not None:
                self._closing.set()
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def __aenter__(self) -> FakeTranscriptionServer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def _models(self, request: web.Request) -> web.StreamResponse:
        """`GET /v1/models`: the models served, in OpenAI's list shape (the key checked)."""
        if (
            self.api_key is not None
            and request.headers.get("Authorization") != f"Bearer {self.api_key}"
        ):
            return _error(401, "Incorrect API key provided.")
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "fake"} for m in self.models]
        return web.json_response({"object": "list", "data": data})

    async def _transcribe(self, request: web.Request) -> web.StreamResponse:
        if self.delay_s > 0 and self._closing is not None:
            try:
                await asyncio.wait_for(self._closing.wait(), timeout=self.delay_s)
            except TimeoutError:
                pass
        authorized = (
            self.api_key is None or request.headers.get("Authorization") == f"Bearer {self.api_key}"
        )
        try:
            form = await request.post()
        except ValueError:
            return self._refuse(request, 400, "Could not parse multipart form", authorized)
        upload = form.get("file")
        fields = {
            key: value for key, value in form.items() if isinstance(value, str) and key != "file"
        }
        filename = upload.filename if isinstance(upload, web.FileField) else ""
        data = upload.file.read() if isinstance(upload, web.FileField) else b""
        record = RecordedTranscription(
            model=fields.get("model", ""),
            language=fields.get("language"),
            filename=filename,
            content_type=upload.content_type if isinstance(upload, web.FileField) else "",
            size=len(data),
            response_format=fields.get("response_format", "json"),
            authorized=authorized,
            status=200,
        )
        problem = _problem(record, uploaded=isinstance(upload, web.FileField))
        if not authorized:
            problem = (401, "Incorrect API key provided.")
        if problem is None and (self._failures or self.status != 200):
            status = self._failures.popleft() if self._failures else self.status
            problem = (status, f"HTTP {status}")
        if problem is None and not self._texts:
            problem = (500, "the fake transcription server has no transcript scripted")
        if problem is not None:
            status, message = problem
            self.requests.append(replace(record, status=status))
            return _error(status, message)
        heard = self._texts.popleft()
        self.requests.append(record)
        if record.response_format == "text":
            return web.Response(text=heard + "\n", content_type="text/plain")
        body: dict[str, Any] = {"text": heard}
        if record.response_format == "verbose_json":
            body |= {"task": "transcribe", "language": record.language or "", "segments": []}
        return web.json_response(body)

    def _refuse(
        self, request: web.Request, status: int, message: str, authorized: bool
    ) -> web.Response:
        self.requests.append(
            RecordedTranscription("", None, "", request.content_type, 0, "", authorized, status)
        )
        return _error(status, message)


def _problem(record: RecordedTranscription, *, uploaded: bool) -> tuple[int, str] | None:
    """What OpenAI answers this request with instead of a transcript, if anything."""
    if not uploaded:
        return 400, "you must provide a file"
    if not record.model:
        return 400, "you must provide a model parameter"
    extension = record.filename.rsplit(".", 1)[-1].lower() if "." in record.filename else ""
    if extension not in FORMATS:
        return 400, f"Invalid file format. Supported formats: {list(FORMATS)}"
    if record.size > MAX_BYTES:
        return 413, "Maximum content size limit (26214400) exceeded"
    if record.language is not None and not (
        len(record.language) == 2 and record.language.isalpha() and record.language.islower()
    ):
        return 400, "Invalid language: use an ISO-639-1 code such as 'en'"
    if record.response_format not in RESPONSE_FORMATS:
        return 400, f"response_format must be one of {list(RESPONSE_FORMATS)}"
    return None


def _error(status: int, message: str) -> web.Response:
    return web.json_response(
        {"error": {"message": message, "type": "invalid_request_error", "param": None}},
        status=status,
    )


# -- voice notes to send it -----------------------------------------------------------------

_OPUS_SILENCE = b"\xf8\xff\xfe"  # one 20 ms Opus frame (CELT, fullband) that decodes to silence
_FRAME_SAMPLES = 960  # 20 ms at 48 kHz, the rate Opus granule positions count in
_PRE_SKIP = 312


def silent_voice_note(
    seconds: float, *, claims: float | None = None, forged: Literal["last", "every"] = "last"
) -> bytes:
    """A valid OGG/Opus voice note of `seconds` of silence, as Telegram and WhatsApp send them.

    Real decoders read it (so its length is real); the fake's answer is scripted anyway.
    With `claims`, the granule positions lie (issue 46): the last page's, or every page's
    scaled down, say the note lasts `claims` seconds while its packets hold `seconds`.
    """
    frames = max(1, round(seconds * 50))
    scale = 1.0 if claims is None else claims / (frames / 50)
    head = b"OpusHead" + bytes([1, 1]) + _PRE_SKIP.to_bytes(2, "little")
    head += (48_000).to_bytes(4, "little") + b"\x00\x00\x00"
    tags = b"OpusTags" + (6).to_bytes(4, "little") + b"lembra" + (0).to_bytes(4, "little")
    pages = [_ogg_page([head], granule=0, seq=0, flags=0x02), _ogg_page([tags], granule=0, seq=1)]
    per_page = 50  # one second of frames a page
    for seq, start in enumerate(range(0, frames, per_page), start=2):
        count = min(per_page, frames - start)
        last = start + count >= frames
        granule = (start + count) * _FRAME_SAMPLES
        if claims is not None and (forged == "every" or last):
            granule = round(granule * scale)
        pages.append(
            _ogg_page(
                [_OPUS_SILENCE] * count,
                granule=_PRE_SKIP + granule,
                seq=seq,
                flags=0x04 if last else 0,
            )
        )
    return b"".join(pages)


def _ogg_page(packets: list[bytes], *, granule: int, seq: int, flags: int = 0) -> bytes:
    lacing = b"".join(bytes([255] * (len(p) // 255) + [len(p) % 255]) for p in packets)
    header = (
        b"OggS"
        + bytes([0, flags])
        + granule.to_bytes(8, "little", signed=True)
        + (0x4C454D42).to_bytes(4, "little")  # the stream's serial number
        + seq.to_bytes(4, "little")
        + b"\x00\x00\x00\x00"  # the CRC, computed over the page with these bytes zero
        + bytes([len(lacing)])
        + lacing
    )
    page = header + b"".join(packets)
    return page[:22] + _ogg_crc(page).to_bytes(4, "little") + page[26:]


def _ogg_crc(data: bytes) -> int:
    table = _crc_table()
    crc = 0
    for byte in data:
        crc = ((crc << 8) & 0xFFFFFFFF) ^ table[(crc >> 24) ^ byte]
    return crc


@cache
def _crc_table() -> tuple[int, ...]:
    """Ogg's CRC-32 (polynomial 0x04C11DB7, unreflected, initial value 0), by byte."""
    table = []
    for n in range(256):
        crc = n << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
        table.append(crc & 0xFFFFFFFF)
    return tuple(table)
