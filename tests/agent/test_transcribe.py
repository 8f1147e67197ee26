"""The transcription backends (agent/services/transcribe.py) and the OGG length probe.

The HTTP client runs against the fake OpenAI-compatible server on loopback. The local
backend's guards (never a download, one transcription at a time, off the event loop)
are checked with a stand-in for the faster-whisper model object; the real model runs in
tests/e2e/test_voice_real.py where it is installed.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.errors import ServiceError, ServiceNotConfigured, ServiceUnavailable
from agent.services.audiolength import UNREADABLE, ogg_seconds, opus_samples, vorbis_long_modes
from agent.services.transcribe import (
    HttpTranscriber,
    LocalTranscriber,
    _text_of,
    build_transcriber,
    extension_for,
    media_type,
)
from bot.fakes.transcription import FakeTranscriptionServer, silent_voice_note
from config.settings import load_settings


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client:
        yield client


@pytest.fixture
async def ears() -> AsyncIterator[FakeTranscriptionServer]:
    async with FakeTranscriptionServer() as server:
        yield server


def http(session: aiohttp.ClientSession, base_url: str, **options: Any) -> HttpTranscriber:
    values: dict[str, Any] = {"api_key": None, "model": "whisper-1", "timeout_s": 5.0}
    values.update(options)
    return HttpTranscriber(session, base_url=base_url, **values)


# -- the OpenAI-compatible client --------------------------------------------------------------


async def test_the_client_sends_the_form_openai_documents(
    session: aiohttp.ClientSession, ears: FakeTranscriptionServer
) -> None:
    ears.hear("  salva inception  ")
    audio = silent_voice_note(2)

    heard = await http(session, ears.base_url).transcribe(
        audio, mime_type="audio/ogg; codecs=opus", language="pt"
    )

    assert heard.text == "salva inception"
    [request] = ears.requests
    assert (request.model, request.language, request.response_format) == ("whisper-1", "pt", "json")
    assert request.filename == "voice.ogg"
    assert request.size == len(audio)


@pytest.mark.parametrize(
    ("mime", "extension"),
    [
        ("audio/ogg", "ogg"),
        ("audio/mpeg", "mp3"),
        ("audio/mp4", "m4a"),
        ("audio/aac", "m4a"),
        ("video/mp4", "mp4"),
        ("audio/wav", "wav"),
        ("AUDIO/OGG; codecs=opus", "ogg"),
    ],
)
async def test_each_platform_format_gets_the_extension_the_server_reads(
    session: aiohttp.ClientSession, ears: FakeTranscriptionServer, mime: str, extension: str
) -> None:
    ears.hear("ok")

    await http(session, ears.base_url).transcribe(b"x" * 64, mime_type=mime, language="en")

    assert extension_for(mime) == extension
    assert ears.requests[0].filename == f"voice.{extension}"
    assert ears.requests[0].status == 200  # the fake refuses what OpenAI refuses


async def test_an_unknown_format_is_refused_without_a_request(
    session: aiohttp.ClientSession, ears: FakeTranscriptionServer
) -> None:
    with pytest.raises(ServiceError, match="cannot be transcribed"):
        await http(session, ears.base_url).transcribe(b"x", mime_type="audio/amr", language="pt")

    assert ears.requests == []


async def test_a_server_answering_plain_text_is_read(session: aiohttp.ClientSession) -> None:
    async def plain(_: web.Request) -> web.Response:
        return web.Response(text="lista tudo\n")

    app = web.Application()
    app.router.add_post("/v1/audio/transcriptions", plain)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/v1"
        heard = await http(session, url).transcribe(b"x", mime_type="audio/ogg", language="pt")
    finally:
        await runner.cleanup()

    assert heard.text == "lista tudo"


async def test_a_slow_server_is_given_up_on_as_unavailable(
    session: aiohttp.ClientSession, ears: FakeTranscriptionServer
) -> None:
    ears.delay_s = 5.0
    ears.hear("tarde demais")

    with pytest.raises(ServiceUnavailable, match="timeout"):
        await http(session, ears.base_url, timeout_s=0.2).transcribe(
            b"x", mime_type="audio/ogg", language="pt"
        )


async def test_a_refused_connection_is_unavailable(session: aiohttp.ClientSession) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    with pytest.raises(ServiceUnavailable, match="connection error"):
        await http(session, f"http://127.0.0.1:{port}/v1").transcribe(
            b"x", mime_type="audio/ogg", language="pt"
        )


async def test_a_server_without_the_endpoint_is_the_operators_to_fix(
    session: aiohttp.ClientSession, ears: FakeTranscriptionServer
) -> None:
    with pytest.raises(ServiceNotConfigured, match="TRANSCRIBE_BASE_URL"):
        await http(session, ears.base_url + "/nowhere").transcribe(
            b"x", mime_type="audio/ogg", language="pt"
        )


async def test_one_busy_answer_is_retried(
    session: aiohttp.ClientSession, ears: FakeTranscriptionServer
) -> None:
    ears.fail_next(503)
    ears.hear("lista tudo")

    heard = await http(session, ears.base_url).transcribe(
        b"x", mime_type="audio/ogg", language="pt"
    )

    assert heard.text == "lista tudo"
    assert [r.status for r in ears.requests] == [503, 200]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=100).map(str.encode))
def test_any_answer_body_is_a_text_or_a_service_error(body: bytes) -> None:
    try:
        assert isinstance(_text_of(body), str)
    except ServiceError:
        pass


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=8,
    )
)
def test_any_json_answer_is_a_text_or_a_service_error(value: Any) -> None:
    try:
        found = _text_of(json.dumps({"text": value}).encode())
    except ServiceError:
        assert not isinstance(value, str)
    else:
        assert found == value.strip()


# -- choosing the backend (DESIGN 10.3) ----------------------------------------------------------


def _settings(**values: Any) -> Any:
    base: dict[str, Any] = {"_env_file": None, "openai_api_key": None, "openai_base_url": None}
    base.update(values)
    return load_settings(**base)


@pytest.mark.parametrize(
    ("values", "url", "key"),
    [
        ({"transcribe_base_url": "http://127.0.0.1:9/v1"}, "http://127.0.0.1:9/v1", None),
        (
            {"transcribe_base_url": "http://127.0.0.1:9/v1", "openai_api_key": "sk-llm"},
            "http://127.0.0.1:9/v1",
            None,  # the model's key is never sent to another server
        ),
        ({"openai_api_key": "sk-llm"}, "https://api.openai.com/v1", "sk-llm"),
        (
            {"openai_api_key": "sk-llm", "transcribe_api_key": "sk-voice"},
            "https://api.openai.com/v1",
            "sk-voice",
        ),
        (
            {"openai_api_key": "local", "openai_base_url": "http://127.0.0.1:8/v1"},
            None,  # a local model is no reason to send voice notes to OpenAI
            None,
        ),
    ],
    ids=["base-url", "base-url-keeps-llm-key", "openai", "openai-own-key", "local-llm-no-voice"],
)
async def test_the_settings_choose_the_server_and_its_key(
    session: aiohttp.ClientSession, values: dict[str, Any], url: str | None, key: str | None
) -> None:
    chosen = _settings(**values)

    transcriber = build_transcriber(chosen, session)

    if url is None:
        assert transcriber is None
        assert not chosen.transcription_configured
        return
    assert isinstance(transcriber, HttpTranscriber)
    assert transcriber._url == url + "/audio/transcriptions"
    assert transcriber._api_key == key


# -- the local faster-whisper backend ------------------------------------------------------------


class _StandInModel:
    """Stands in for faster_whisper.WhisperModel: records overlap and which thread ran it."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release
        self.running = 0
        self.most = 0
        self.threads: set[int] = set()
        self.lock = threading.Lock()

    def transcribe(self, audio: Any, **options: Any) -> tuple[list[Any], Any]:
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        self.threads.add(threading.get_ident())
        self.release.wait(5)
        with self.lock:
            self.running -= 1
        words = [SimpleNamespace(text=" lista"), SimpleNamespace(text=" tudo")]
        return words, SimpleNamespace(duration=2.5)


async def test_the_local_model_runs_off_the_loop_one_transcription_at_a_time(
    tmp_path: Path,
) -> None:
    (tmp_path / "model.bin").write_bytes(b"weights")
    release = threading.Event()
    model = _StandInModel(release)
    loaded: list[tuple[Path, int]] = []

    def load(path: Path, threads: int) -> _StandInModel:
        loaded.append((path, threads))
        return model

    local = LocalTranscriber(tmp_path, threads=2, fit_window=False, loader=load)
    jobs = [
        asyncio.create_task(local.transcribe(b"x", mime_type="audio/ogg", language="pt"))
        for _ in range(3)
    ]
    ticks = 0
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:  # the loop keeps turning while the model works
        await asyncio.sleep(0.01)
        ticks += 1
    release.set()
    heard = await asyncio.gather(*jobs)

    assert ticks >= 10
    assert [h.text for h in heard] == ["lista tudo"] * 3
    assert heard[0].seconds == 2.5
    assert model.most == 1  # one at a time per process
    assert threading.get_ident() not in model.threads
    assert loaded == [(tmp_path, 2)]  # loaded once, on first use


async def test_a_folder_without_a_model_is_never_handed_to_the_library(tmp_path: Path) -> None:
    """faster-whisper would take an unknown path for a hub name and download it."""
    loads: list[Path] = []
    local = LocalTranscriber(tmp_path / "missing", loader=lambda p, t: loads.append(p))

    with pytest.raises(ServiceNotConfigured, match="TRANSCRIBE_MODEL_DIR"):
        await local.transcribe(b"x", mime_type="audio/ogg", language="pt")

    assert loads == []


async def test_a_model_that_cannot_load_is_the_operators_to_fix(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"not a model")

    def broken(path: Path, threads: int) -> Any:
        raise RuntimeError("Unable to open file 'model.bin'")

    local = LocalTranscriber(tmp_path, loader=broken)

    with pytest.raises(ServiceNotConfigured, match="cannot be loaded"):
        await local.transcribe(b"x", mime_type="audio/ogg", language="pt")


async def test_audio_the_library_cannot_decode_is_unreadable(tmp_path: Path) -> None:
    (tmp_path / "model.bin").write_bytes(b"weights")

    class Choking:
        def transcribe(self, audio: Any, **options: Any) -> Any:
            raise ValueError("Invalid data found when processing input")

    local = LocalTranscriber(tmp_path, fit_window=False, loader=lambda p, t: Choking())

    with pytest.raises(ServiceError, match="could not be decoded") as caught:
        await local.transcribe(b"junk", mime_type="audio/ogg", language="pt")
    assert not isinstance(caught.value, ServiceNotConfigured | ServiceUnavailable)


# -- the OGG length probe ------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [0.02, 1.0, 2.5, 59.98, 121.0])
def test_an_ogg_opus_notes_length_is_read_from_its_pages(seconds: float) -> None:
    assert ogg_seconds(silent_voice_note(seconds)) == pytest.approx(seconds, abs=0.02)


@pytest.mark.parametrize("forged", ["last", "every"])
def test_granule_positions_that_lie_do_not_shorten_a_note(forged: Any) -> None:
    """Issue 46 row 2: the old probe read the last page's granule only (2 s here)."""
    note = silent_voice_note(300, claims=2, forged=forged)
    assert ogg_seconds(note) == pytest.approx(300, abs=0.02)


def test_counting_stops_once_past_the_limit() -> None:
    found = ogg_seconds(silent_voice_note(3000), stop_after_s=60)
    assert isinstance(found, float)
    assert 60 < found < 62


def test_pages_are_read_past_junk_and_past_a_page_whose_crc_fails() -> None:
    """A bogus page whose body would swallow real pages hides none of them from the count."""
    note = silent_voice_note(30, claims=2, forged="every")  # only the packets tell the truth
    boundary = [n for n in range(len(note)) if note.startswith(b"OggS", n)][3]
    bogus = b"OggS\x00\x00" + bytes(20) + b"\x01" + bytes([255])  # claims 255 bytes; bad CRC
    found = ogg_seconds(note[:boundary] + b"junk" + bogus + note[boundary:])
    assert found == pytest.approx(30, abs=0.02)


@pytest.mark.parametrize(
    ("packet", "samples"),
    [
        (bytes([0xF8, 0xFF, 0xFE]), 960),  # CELT 20 ms, one frame
        (bytes([(16 << 3) | 0]), 120),  # CELT 2.5 ms
        (bytes([(3 << 3) | 1, 0, 0]), 5760),  # SILK 60 ms, two frames
        (bytes([(27 << 3) | 3, 48]), 5760),  # CELT 20 ms x 48 frames: capped at 120 ms
        (bytes([(18 << 3) | 3, 6]), 2880),  # CELT 10 ms x 6 frames
        (b"", 120),  # no byte: a lost packet, counted as the shortest frame
    ],
)
def test_an_opus_packet_counts_what_its_toc_says(packet: bytes, samples: int) -> None:
    assert opus_samples(packet) == samples


def _vorbis_setup(flags: list[bool]) -> bytes:
    """The tail of a Vorbis setup header: some codebook bits, the mode count, the modes, framing."""
    bits = [1, 0, 1, 1, 0, 0, 1, 0] * 5  # what precedes the modes (not read)
    bits += [(len(flags) - 1) >> n & 1 for n in range(6)]
    for flag in flags:
        bits += [int(flag)] + [0] * 32 + [0] * 8  # block flag, window, transform, mapping 0
    bits.append(1)  # framing
    value = sum(bit << n for n, bit in enumerate(bits))
    return b"\x05vorbis" + value.to_bytes((len(bits) + 7) // 8, "little")


@pytest.mark.parametrize("flags", [[False, True], [True], [False, False, True, True]])
def test_the_vorbis_modes_are_read_back_from_the_setup_headers_end(flags: list[bool]) -> None:
    assert vorbis_long_modes(_vorbis_setup(flags)) == tuple(flags)


def test_a_vorbis_notes_length_is_counted_from_its_block_sizes() -> None:
    ident = b"\x01vorbis" + bytes(4) + b"\x01" + (16_000).to_bytes(4, "little") + bytes(12)
    ident += bytes([0xB8, 0x01])  # short 256, long 2048; framing
    comment = b"\x03vorbis" + bytes(8) + b"\x01"
    # mode 1 (long) packets: type bit 0, then the mode number in 1 bit
    audio = [bytes([0b10]) + bytes(10)] * 100
    note = _ogg_stream([ident, comment, _vorbis_setup([False, True]), *audio], granule=16)
    # 99 packets after the first, each a quarter of two long blocks: 99 x 1024 samples
    assert ogg_seconds(note) == pytest.approx(99 * 1024 / 16_000)


def _ogg_stream(packets: list[bytes], *, granule: int) -> bytes:
    from bot.fakes.transcription import _ogg_page

    pages = [_ogg_page([p], granule=0 if n < 3 else granule, seq=n) for n, p in enumerate(packets)]
    return b"".join(pages)


def test_what_is_not_ogg_has_no_length_and_odd_ogg_is_unreadable() -> None:
    assert ogg_seconds(b"ID3\x03\x00 an mp3") is None
    assert ogg_seconds(b"") is None
    assert ogg_seconds(b"OggS") is UNREADABLE
    assert ogg_seconds(b"OggS" + bytes(200)) is UNREADABLE
    other_stream = silent_voice_note(1).replace(b"BMEL", b"XXXX")  # another serial number
    assert ogg_seconds(silent_voice_note(1) + other_stream) is UNREADABLE


def _length_or_none(found: object) -> bool:
    return found is None or found is UNREADABLE or (isinstance(found, float) and found >= 0)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_a_length_or_none(data: bytes) -> None:
    assert _length_or_none(ogg_seconds(data))
    assert _length_or_none(ogg_seconds(b"OggS" + data))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2000), st.integers(0, 255), st.integers(0, 2000))
def test_a_damaged_or_cut_note_gives_a_length_or_none(at: int, byte: int, cut: int) -> None:
    note = bytearray(silent_voice_note(3))
    note[at % len(note)] = byte
    found = ogg_seconds(bytes(note[: max(0, len(note) - cut)]))
    assert _length_or_none(found)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_mime_type_reads_as_a_type_no_header_can_be_made_of(raw: str) -> None:
    """Issue 46 row 7: `audio/ogg\\r\\nX: y` reached the multipart header and failed the turn."""
    found = media_type(raw)
    assert found == "" or ("/" in found and found.isascii() and found == found.lower())
    assert not any(c in found for c in '\r\n\t ;,"')


def test_a_mime_type_keeps_what_precedes_a_line_break() -> None:
    assert media_type("audio/ogg\r\nX-Injected: y") == "audio/ogg"
    assert media_type(" Audio/OGG; codecs=opus") == "audio/ogg"
    assert media_type("\r\naudio/ogg") == "audio/ogg"
    assert media_type("ogg") == ""
