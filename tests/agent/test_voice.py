"""Voice notes through `Runtime.handle` (issue 29, DESIGN 10.3), against the fake transcription
server on loopback, so the real multipart client runs.

What a user notices: the transcript is their message (same effects, same confirmations),
the reply begins with `🎤 «…»`, a note that cannot be heard gets a clear reply in their
language, nothing is downloaded that cannot be used, and nothing of the audio is stored.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any, get_args

import pytest
from bson import Binary
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.conversation.hearing import Outcome, _over_limits
from agent.errors import FileTooLarge, ServiceError, ServiceUnavailable
from agent.types import Audio, Language
from bot.fakes.transcription import FakeTranscriptionServer
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra, seed
from tests.support.voice import VoiceNote

KEY = "test-transcribe-key"


@pytest.fixture
async def ears() -> AsyncIterator[FakeTranscriptionServer]:
    async with FakeTranscriptionServer(api_key=KEY) as server:
        yield server


@pytest.fixture
async def lembra(db: Database, ears: FakeTranscriptionServer) -> AsyncIterator[Lembra]:
    async with open_lembra(
        db,
        transcribe_base_url=ears.base_url,
        transcribe_api_key=KEY,
        transcribe_model="whisper-large-v3-turbo",
        transcribe_max_seconds=60,
    ) as running:
        yield running


def sample(lembra: Lembra, name: str, **labels: str) -> float:
    return lembra.deps.metrics.registry.get_sample_value(name, labels) or 0.0


# -- heard: the transcript is the message ------------------------------------------------------


async def test_a_voice_note_is_sent_as_openai_reads_it_with_the_users_language_as_hint(
    lembra: Lembra, ears: FakeTranscriptionServer
) -> None:
    ears.hear("Anota: comprar leite.")
    note = VoiceNote(seconds=4)

    reply = await lembra.handle(note.incoming())

    assert reply.text.startswith("🎤 «Anota: comprar leite»\n\n")  # no closing stop
    [request] = ears.requests
    assert request.status == 200
    assert request.authorized  # TRANSCRIBE_API_KEY as the bearer token
    assert request.model == "whisper-large-v3-turbo"  # TRANSCRIBE_MODEL
    assert request.language == "pt"  # the user's language (pt by default)
    assert (request.filename, request.content_type) == ("voice.ogg", "audio/ogg")
    assert request.size == len(note.data)
    assert [i.content for i in await lembra.items()] == ["comprar leite"]


async def test_an_english_users_note_is_hinted_english_and_answered_in_english(
    lembra: Lembra, ears: FakeTranscriptionServer
) -> None:
    await seed(lembra.db, ["/lang en"])
    ears.hear("Remind me in 10 minutes to call the bank.")

    reply = await lembra.handle(VoiceNote().incoming())

    assert ears.requests[0].language == "en"
    assert reply.text.startswith("🎤 «Remind me in 10 minutes to call the bank»\n\n")
    assert "call the bank" in reply.text
    assert "10:10" in reply.text
    reminders = await lembra.db.reminders.open_for(ALICE)
    assert [r.text for r in reminders] == ["call the bank"]


async def test_the_transcript_is_stored_as_the_typed_message_and_forget_erases_it(
    lembra: Lembra, ears: FakeTranscriptionServer, db: Database
) -> None:
    ears.hear("anota: senha do wifi na geladeira")
    note = VoiceNote(seconds=5)

    await lembra.handle(note.incoming())

    human = [m.content for m in await lembra.messages() if m.role == "human"]
    assert human == ["anota: senha do wifi na geladeira"]
    assert not await documents_holding_audio(db, note.data)

    await lembra.say("/forget")
    await lembra.say("sim")

    assert await lembra.messages() == []
    assert not await documents_mentioning(db, "senha do wifi")


async def test_a_spoken_apaga_tudo_still_waits_for_sim(
    lembra: Lembra, ears: FakeTranscriptionServer
) -> None:
    await seed(lembra.db, ["anota: comprar leite", "anota: comprar pão"])
    ears.hear("Apaga tudo.")

    preview = await lembra.handle(VoiceNote().incoming())

    assert preview.text.startswith("🎤 «Apaga tudo»\n\nIsto apagará 2 itens")
    assert preview.choice_kind == "confirm"
    assert len(await lembra.items()) == 2
    assert await lembra.pending() is not None

    ears.hear("Sim?")  # a question is not the plain yes a deletion needs, spoken or typed
    asked = await lembra.handle(VoiceNote().incoming())
    assert asked.text.startswith("🎤 «Sim?»")
    assert len(await lembra.items()) == 2

    ears.hear("Sim.")
    done = await lembra.handle(VoiceNote().incoming())
    assert done.text.startswith("🎤 «Sim»\n\n✅ Apaguei 2 itens")
    assert await lembra.items() == []


async def test_a_redriven_voice_note_reuses_the_kept_transcript(
    lembra: Lembra, ears: FakeTranscriptionServer, db: Database
) -> None:
    """A process died after hearing it: the re-drive neither downloads nor transcribes again."""
    update = "tg:9001"
    now_ms = int(time.time() * 1000)  # the records' TTL index counts in real time
    await db.updates.record(update, "{}", now_ms=now_ms, user_id="tg:42")
    ears.hear("anota: pagar o condomínio")
    note = VoiceNote(seconds=3)

    first = await lembra.handle(note.incoming(user="tg:42", update_id=update))
    record = await db.updates.get(update)
    assert record is not None
    assert record.transcript == "anota: pagar o condomínio"
    again = await lembra.handle(note.incoming(user="tg:42", update_id=update))

    assert (note.downloads, len(ears.requests)) == (1, 1)
    assert again.text.startswith("🎤 «anota: pagar o condomínio»")
    assert first.text.split("\n\n")[0] == again.text.split("\n\n")[0]
    assert [i.content for i in await lembra.items("tg:42")] == ["pagar o condomínio"]
    assert sample(lembra, "lembra_transcriptions_total", backend="http", outcome="reused") == 1

    await db.updates.mark_done(update, None, now_ms=now_ms)
    done = await db.updates.get(update)
    assert done is not None
    assert done.transcript is None  # it leaves with the payload


async def test_heard_notes_are_counted_with_their_seconds(
    lembra: Lembra, ears: FakeTranscriptionServer
) -> None:
    ears.hear("lista tudo")

    await lembra.handle(VoiceNote(seconds=7).incoming())

    assert sample(lembra, "lembra_transcriptions_total", backend="http", outcome="ok") == 1
    assert sample(lembra, "lembra_transcribed_audio_seconds_total", backend="http") == 7
    assert sample(lembra, "lembra_transcription_seconds_count", backend="http") == 1


# -- not heard: a clear reply, nothing downloaded that cannot be used ---------------------------


async def test_a_note_announced_too_long_is_refused_without_downloading_it(
    lembra: Lembra, ears: FakeTranscriptionServer, db: Database
) -> None:
    note = VoiceNote(seconds=61)

    reply = await lembra.handle(note.incoming())

    assert reply.text == (
        "Esse áudio tem 61 s e eu transcrevo até 60 s. "
        "Mande um áudio mais curto ou escreva a mensagem."
    )
    assert reply.meta.state == "FAIL"
    assert (note.downloads, ears.requests) == (0, [])
    assert await lembra.messages() == []
    assert sample(lembra, "lembra_transcriptions_total", backend="http", outcome="too_long") == 1


async def test_a_whatsapp_note_with_no_announced_length_is_measured_before_transcribing(
    lembra: Lembra, ears: FakeTranscriptionServer
) -> None:
    note = VoiceNote(seconds=90, announced=False)

    reply = await lembra.handle(note.incoming(user="wa:5511999990000"))

    assert reply.text.startswith("Esse áudio passa de 60 s, o máximo que eu transcrevo.")
    assert (note.downloads, ears.requests) == (1, [])


@pytest.mark.parametrize(
    ("announced", "limit"),
    [(10_000_000, None), (500_000, 400_000)],
    ids=["over-the-bytes-a-minute-needs", "over-the-platforms-limit"],
)
async def test_a_file_announced_too_large_is_not_downloaded(
    lembra: Lembra, ears: FakeTranscriptionServer, announced: int, limit: int | None
) -> None:
    note = VoiceNote(seconds=10, size=announced, max_bytes=limit)

    reply = await lembra.handle(note.incoming())

    assert reply.text.startswith("Esse arquivo de áudio é grande demais para eu baixar.")
    assert (note.downloads, ears.requests) == (0, [])


async def test_an_audio_format_no_server_reads_is_not_downloaded(
    lembra: Lembra, ears: FakeTranscriptionServer
) -> None:
    note = VoiceNote(mime_type="audio/x-ms-wma")

    reply = await lembra.handle(note.incoming())

    assert (
        reply.text == "Não consigo ler esse formato de áudio. Mande uma mensagem de voz ou escreva."
    )
    assert (note.downloads, ears.requests) == (0, [])


@pytest.mark.parametrize(
    ("max_bytes", "limit"), [(None, 60 * 32_000), (1_000_000, 1_000_000)], ids=["ours", "platform"]
)
async def test_a_download_is_bounded_and_a_file_found_larger_is_refused(
    lembra: Lembra, ears: FakeTranscriptionServer, max_bytes: int | None, limit: int
) -> None:
    """WhatsApp tells a size only in its media lookup: the download itself refuses it."""
    note = VoiceNote(announced=False, max_bytes=max_bytes, fails_with=FileTooLarge("lookup"))

    reply = await lembra.handle(note.incoming(user="wa:5511999990000"))

    assert note.limits == [limit]  # 60 s at 32 kB/s, or less when the platform allows less
    assert reply.text.startswith("Esse arquivo de áudio é grande demais para eu baixar.")
    assert ears.requests == []
    assert sample(lembra, "lembra_transcriptions_total", backend="http", outcome="too_large") == 1


@pytest.mark.parametrize(
    ("failure", "expected", "try_again"),
    [
        (ServiceUnavailable("timeout"), "Não consegui transcrever o áudio agora.", True),
        (ServiceError("HTTP 404"), "Não consegui entender esse arquivo de áudio.", False),
    ],
    ids=["download-unavailable", "download-refused"],
)
async def test_a_failed_download_says_whether_trying_again_helps(
    lembra: Lembra,
    ears: FakeTranscriptionServer,
    failure: Exception,
    expected: str,
    try_again: bool,
) -> None:
    reply = await lembra.handle(VoiceNote(fails_with=failure).incoming())

    assert reply.text.startswith(expected)
    assert ("Tente de novo" in reply.text) is try_again
    assert ears.requests == []
    assert await lembra.messages() == []


@pytest.mark.parametrize(
    ("status", "expected", "try_again"),
    [
        (503, "Não consegui transcrever o áudio agora. Tente de novo em instantes.", True),
        (429, "Não consegui transcrever o áudio agora. Tente de novo em instantes.", True),
        (400, "Não consegui entender esse arquivo de áudio. Escreva a mensagem, por favor.", False),
        (
            401,
            "A transcrição de áudios não está funcionando agora. Por enquanto, escreva a mensagem.",
            False,
        ),
    ],
)
async def test_a_failing_backend_gets_a_clear_reply_and_nothing_else(
    lembra: Lembra, ears: FakeTranscriptionServer, status: int, expected: str, try_again: bool
) -> None:
    ears.status = status

    reply = await lembra.handle(VoiceNote().incoming())

    assert reply.text == expected
    assert ("Tente de novo" in reply.text) is try_again
    assert reply.meta.llm_calls == 0
    assert await lembra.messages() == []
    assert await lembra.items() == []
    retried = status in (429, 503)
    assert len(ears.requests) == (2 if retried else 1)


async def test_a_wrong_key_is_refused_by_the_server_and_said_plainly(
    db: Database, ears: FakeTranscriptionServer
) -> None:
    async with open_lembra(
        db, transcribe_base_url=ears.base_url, transcribe_api_key="not-the-key"
    ) as wrong:
        ears.hear("lista tudo")
        reply = await wrong.handle(VoiceNote().incoming())

    assert [r.authorized for r in ears.requests] == [False]
    assert reply.text.startswith("A transcrição de áudios não está funcionando agora.")


async def test_silence_gets_asked_again(lembra: Lembra, ears: FakeTranscriptionServer) -> None:
    ears.hear("  ")

    reply = await lembra.handle(VoiceNote().incoming())

    assert reply.text == "Não ouvi nenhuma fala nesse áudio. Grave de novo ou escreva a mensagem."
    assert await lembra.messages() == []


async def test_with_no_backend_the_fixed_reply_stays_and_admins_are_told_what_to_set(
    db: Database,
) -> None:
    note = VoiceNote()
    async with open_lembra(db, admin_user_ids="tg:1") as plain:
        assert plain.deps.transcriber is None
        user_reply = await plain.handle(note.incoming(user="tg:2"))
        admin_reply = await plain.handle(note.incoming(user="tg:1"))

    assert user_reply.text == "Por enquanto eu só entendo mensagens de texto."
    assert admin_reply.text.startswith("Por enquanto eu só entendo mensagens de texto.\n")
    assert "TRANSCRIBE_BASE_URL" in admin_reply.text
    assert "TRANSCRIBE_MODEL_DIR" in admin_reply.text
    assert note.downloads == 0


# -- helpers -------------------------------------------------------------------------------------


async def _all_documents(db: Database) -> list[dict[str, Any]]:
    raw = db.client[db.name]
    found: list[dict[str, Any]] = []
    for name in await raw.list_collection_names():
        found += await raw[name].find({}).to_list(None)
    return found


def _values(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [v for item in value.values() for v in _values(item)]
    if isinstance(value, list):
        return [v for item in value for v in _values(item)]
    return [value]


async def documents_holding_audio(db: Database, audio: bytes) -> list[dict[str, Any]]:
    """Documents with any binary value, or a string long enough to hold the audio encoded."""
    return [
        doc
        for doc in await _all_documents(db)
        if any(
            isinstance(v, bytes | Binary) or (isinstance(v, str) and len(v) >= len(audio))
            for v in _values(doc)
        )
    ]


async def documents_mentioning(db: Database, words: str) -> list[dict[str, Any]]:
    return [
        doc
        for doc in await _all_documents(db)
        if any(isinstance(v, str) and words in v for v in _values(doc))
    ]


@settings(max_examples=300, deadline=None)
@given(
    seconds=st.none() | st.floats(allow_nan=True, allow_infinity=True),
    size=st.none() | st.integers(min_value=-(2**63), max_value=2**63),
    max_bytes=st.none() | st.integers(min_value=-(2**31), max_value=2**40),
    mime=st.text(max_size=40),
    language=st.sampled_from(["pt", "en"]),
)
def test_any_announced_note_is_either_refused_with_a_reply_or_let_through(
    seconds: float | None, size: int | None, max_bytes: int | None, mime: str, language: Language
) -> None:
    async def fetch(limit: int) -> bytes:
        raise AssertionError("never downloaded here")

    audio = Audio(mime_type=mime, fetch=fetch, seconds=seconds, size=size, max_bytes=max_bytes)

    found = _over_limits(audio, 120, language)

    assert found is None or (found[0] in get_args(Outcome) and found[1].strip())
