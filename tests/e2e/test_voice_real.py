"""Real speech through the local faster-whisper backend and the whole runtime (issue 29).

espeak-ng speaks English messages; the clips are encoded as OGG/Opus voice notes and
go through `Runtime.handle` with TRANSCRIBE_MODEL_DIR, the way a Telegram voice note
does. Runs only where the model folder (LEMBRA_WHISPER_DIR, default
~/.cache/lembra-whisper-base), the voice extra and espeak-ng are all present: a fresh
CI machine has none of them, so this is never in `make test`'s critical path.
"""

from __future__ import annotations

import importlib.util
import io
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Database
from tests.support.harness import Lembra, open_lembra
from tests.support.voice import VoiceNote

MODEL_DIR = Path(
    os.environ.get("LEMBRA_WHISPER_DIR", Path.home() / ".cache" / "lembra-whisper-base")
)

pytestmark = pytest.mark.skipif(
    not (MODEL_DIR / "model.bin").is_file()
    or importlib.util.find_spec("faster_whisper") is None
    or shutil.which("espeak-ng") is None,
    reason="needs the local Whisper model folder, `lembra[voice]` and espeak-ng",
)


def spoken_note(words: str) -> bytes:
    """`words` read by espeak-ng (US English, 150 words a minute) as an OGG/Opus voice note."""
    import av

    with tempfile.NamedTemporaryFile(suffix=".wav") as wav:
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", wav.name, words], check=True)
        out_buffer = io.BytesIO()
        with av.open(wav.name) as source, av.open(out_buffer, "w", format="ogg") as out:
            stream = out.add_stream("libopus", rate=48_000)
            resampler = av.AudioResampler(format="s16", layout="mono", rate=48_000)
            for frame in [*source.decode(audio=0), None]:
                for resampled in resampler.resample(frame):
                    for packet in stream.encode(resampled):
                        out.mux(packet)
            for packet in stream.encode(None):
                out.mux(packet)
    return out_buffer.getvalue()


class SpokenNote(VoiceNote):
    def __init__(self, words: str) -> None:
        super().__init__(announced=False)  # measured from the file, as for WhatsApp
        self.data = spoken_note(words)


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db, transcribe_model_dir=str(MODEL_DIR)) as running:
        assert running.deps.transcriber is not None
        assert running.deps.transcriber.backend == "local"
        await running.say("/lang en")
        yield running


async def test_a_spoken_delete_everything_is_heard_and_still_waits_for_yes(lembra: Lembra) -> None:
    await lembra.say("note: buy milk")
    note = SpokenNote("Delete everything.")

    reply = await lembra.handle(note.incoming())

    heard, _, body = reply.text.partition("\n\n")
    assert heard.startswith("🎤 «")
    assert "delete everything" in heard.lower()
    assert body.startswith("This will delete 1 item")
    assert len(await lembra.items()) == 1
    assert await lembra.pending() is not None


async def test_a_spoken_list_request_lists_without_a_model(lembra: Lembra) -> None:
    await lembra.say("note: buy milk")

    reply = await lembra.handle(SpokenNote("List everything.").incoming())

    assert reply.text.startswith("🎤 «")
    assert "buy milk" in reply.text
    assert reply.meta.llm_calls == 0
