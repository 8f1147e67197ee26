"""The normalizers' file branches (issue 29) never raise and never download, whatever the fields.

Telegram `voice`, `audio`, `video_note` and `document`, and WhatsApp `audio`, start from a
real-shaped message; arbitrary JSON values (lone surrogates, numbers, objects, lists,
null) replace or remove the fields the code reads. The outcome is always an Incoming,
Ignored or Rejected; an Incoming carries only storable text, a voice note its `Audio`,
a document `/import` with its `Document`; and nothing is fetched while reading.
"""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent.types import Audio, Document, Fetch, Incoming
from bot.inbound import Ignored, Rejected
from bot.telegram import updates as tg
from bot.whatsapp import updates as wa
from tests.bot.test_normalizers import DELETE, _apply, json_values, surrogate_texts

replacement = st.one_of(json_values, st.just(DELETE))


class NoDownloads:
    """A file source that fails the test if anything is fetched while normalizing."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def fetcher(self, file_id: str) -> Fetch:
        self.asked.append(file_id)

        async def fetch(limit: int) -> bytes:
            raise AssertionError("a normalizer never downloads")

        return fetch


TG_FILES: dict[str, dict[str, Any]] = {
    "voice": {
        "file_id": "AwACAgEAAxkBAAIB",
        "file_unique_id": "AgAD",
        "duration": 4,
        "mime_type": "audio/ogg",
        "file_size": 4321,
    },
    "audio": {
        "file_id": "CQACAgEAAxkBAAIC",
        "file_unique_id": "AgAE",
        "duration": 123,
        "mime_type": "audio/mpeg",
        "file_size": 12345678,
        "file_name": "música.mp3",
    },
    "video_note": {
        "file_id": "DQACAgEAAxkBAAID",
        "file_unique_id": "AgAF",
        "length": 240,
        "duration": 9,
        "file_size": 99000,
    },
    "document": {
        "file_id": "BQACAgEAAxkBAAIE",
        "file_unique_id": "AgAG",
        "file_name": "lista.txt",
        "mime_type": "text/plain",
        "file_size": 2048,
    },
}
TG_FIELDS = ("file_id", "duration", "mime_type", "file_size", "file_name")
TG_FILE_PATHS = [
    ("message", "caption"),
    *[("message", key) for key in TG_FILES],
    *[("message", key, name) for key in TG_FILES for name in TG_FIELDS],
]


def _tg_message(key: str, caption: bool) -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": 10,
        "date": 1_700_000_000,
        "chat": {"id": 5550001, "type": "private"},
        "from": {"id": 5550001, "is_bot": False, "first_name": "Ana", "language_code": "pt-br"},
        key: copy.deepcopy(TG_FILES[key]),
    }
    if caption:
        message["caption"] = "anota: boleto"
    return {"update_id": 7, "message": message}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, Audio | Document | Incoming):
        return [s for f in fields(value) for s in _strings(getattr(value, f.name))]
    return []


def _checked(outcome: Incoming | Ignored | Rejected) -> None:
    assert isinstance(outcome, Incoming | Ignored | Rejected)
    if not isinstance(outcome, Incoming):
        return
    for value in _strings(outcome):
        value.encode("utf-8")  # storable and sendable: no lone surrogate
    if outcome.kind == "voice":
        audio = outcome.audio
        assert audio is not None
        assert callable(audio.fetch)
        assert audio.seconds is None or isinstance(audio.seconds, float)
        assert audio.size is None or isinstance(audio.size, int)
    if outcome.document is not None:
        assert outcome.kind == "text"
        assert (outcome.text or "").startswith("/import")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(sorted(TG_FILES)),
    caption=st.booleans(),
    changes=st.dictionaries(st.sampled_from(TG_FILE_PATHS), replacement, max_size=4),
    strings=st.dictionaries(st.sampled_from(TG_FILE_PATHS), surrogate_texts, max_size=3),
)
def test_telegram_file_messages_never_raise_and_never_download(
    key: str, caption: bool, changes: dict[Any, Any], strings: dict[Any, Any]
) -> None:
    files = NoDownloads()
    update = _apply(_apply(_tg_message(key, caption), strings), changes)

    read = tg.normalize(update, allow_groups=False, files=files)

    _checked(read.outcome)
    if isinstance(read.outcome, Incoming) and read.outcome.kind == "voice":
        assert files.asked
        assert all(isinstance(f, str) and f for f in files.asked)


def test_the_real_shapes_become_what_the_runtime_checks() -> None:
    voice = tg.normalize(_tg_message("voice", False), allow_groups=False).outcome
    note = tg.normalize(_tg_message("video_note", False), allow_groups=False).outcome
    listed = tg.normalize(_tg_message("document", True), allow_groups=False).outcome
    captioned = _tg_message("document", True)
    captioned["message"]["document"]["file_name"] = "boleto.pdf"
    boleto = tg.normalize(captioned, allow_groups=False).outcome

    assert isinstance(voice, Incoming)
    assert voice.audio is not None
    assert (voice.kind, voice.audio.mime_type, voice.audio.seconds, voice.audio.size) == (
        "voice",
        "audio/ogg",
        4.0,
        4321,
    )
    assert voice.audio.max_bytes == 20 * 1024 * 1024  # the Bot API's download limit
    assert isinstance(note, Incoming)
    assert note.audio is not None
    assert note.audio.mime_type == "video/mp4"  # Telegram names no type for round videos
    assert isinstance(listed, Incoming)
    assert listed.document is not None
    assert listed.text == "/import lista.txt"  # a list to import: its caption is not the message
    assert isinstance(boleto, Incoming)
    assert (boleto.kind, boleto.text, boleto.document) == ("text", "anota: boleto", None)


WA_AUDIO: dict[str, Any] = {
    "from": "5511999990000",
    "id": "wamid.voice",
    "timestamp": "1700000000",
    "type": "audio",
    "audio": {
        "mime_type": "audio/ogg; codecs=opus",
        "sha256": "m04pFf2ERdaopTyFkGPA0+bX3i+YY2dYgVFwOgDLSDI=",
        "id": "1234567890987654321",
        "voice": True,
    },
}
WA_PATHS = [
    ("type",),
    ("audio",),
    *[("audio", key) for key in ("mime_type", "id", "voice")],
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    changes=st.dictionaries(st.sampled_from(WA_PATHS), replacement, max_size=3),
    strings=st.dictionaries(
        st.sampled_from([("audio", "mime_type"), ("audio", "id")]), surrogate_texts, max_size=2
    ),
)
def test_whatsapp_audio_never_raises_and_never_downloads(
    changes: dict[Any, Any], strings: dict[Any, Any]
) -> None:
    files = NoDownloads()
    raw = _apply(_apply(copy.deepcopy(WA_AUDIO), strings), changes)

    outcome = wa.normalize(raw, "Ana", files=files)

    _checked(outcome)


def test_a_whatsapp_voice_note_announces_its_type_and_nothing_else() -> None:
    outcome = wa.normalize(copy.deepcopy(WA_AUDIO), "Ana")

    assert isinstance(outcome, Incoming)
    assert outcome.audio is not None
    assert (outcome.kind, outcome.update_id) == ("voice", "wa:wamid.voice")
    audio = outcome.audio
    assert (audio.mime_type, audio.seconds, audio.size) == ("audio/ogg; codecs=opus", None, None)
