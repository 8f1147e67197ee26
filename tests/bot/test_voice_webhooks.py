"""Voice notes and documents through the real webhooks (issue 29, DESIGN 10.3).

The web app of `lembra serve` with the real runtime (offline planner) behind it; the
fake Bot API and Cloud API on loopback serve the files (getFile and the file base; the
media lookup and its download with the bearer token), and the fake OpenAI-compatible
transcription server hears them. What is checked is what a user and an operator see:
the reply, what the platform was asked for, what the database holds.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from agent.conversation.runtime import Runtime
from agent.types import Incoming, Reply
from bot.fakes.transcription import FakeTranscriptionServer, silent_voice_note
from tests.bot.conftest import Harness
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import (
    callback_update,
    document_update,
    message_update,
    voice_update,
)

CHAT = 5550101
PHONE = "5511999990101"
KEY = "test-transcribe-key"
OFFLINE = {"openai_api_key": None, "openai_base_url": None, "tmdb_api_key": None}
NOTE = silent_voice_note(3)


@pytest.fixture
async def ears() -> AsyncIterator[FakeTranscriptionServer]:
    async with FakeTranscriptionServer(api_key=KEY) as server:
        yield server


@pytest.fixture
def lembra(harness: Any, ears: FakeTranscriptionServer) -> Callable[..., Any]:
    """`async with lembra() as h:` both webhooks, the real runtime, transcription configured."""

    @asynccontextmanager
    async def make(**overrides: Any) -> AsyncIterator[Harness]:
        runtimes: list[Runtime] = []

        async def handle(incoming: Incoming) -> Reply:
            return await runtimes[0].handle(incoming)

        settings = OFFLINE | {
            "transcribe_base_url": ears.base_url,
            "transcribe_api_key": KEY,
            "transcribe_max_seconds": 60,
        }
        async with harness(handler=handle, **(settings | overrides)) as h:
            runtimes.append(Runtime(h.deps))
            yield h

    return make


async def contents(h: Harness, user: str) -> list[str | None]:
    return [i.content or i.url for i in await h.db.items.list_for(user)]


async def said(h: Harness, user: str) -> list[str]:
    """What the user's messages stored say (the transcript, never the audio)."""
    return [m.content for m in await h.db.messages.last(user, user, 50) if m.role == "human"]


def buttons(h: Harness, chat: int) -> list[dict[str, Any]]:
    markup = h.tg.sent(chat_id=chat)[-1].params["reply_markup"]
    return [button for row in markup["inline_keyboard"] for button in row]


# -- heard ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "mime_type", "sent_as"),
    [
        ("voice", "audio/ogg", ("voice.ogg", "audio/ogg")),
        ("audio", "audio/mpeg", ("voice.mp3", "audio/mpeg")),
        ("video_note", None, ("voice.mp4", "video/mp4")),  # Telegram names no type for these
    ],
)
async def test_a_telegram_voice_note_is_fetched_heard_and_saved(
    lembra: Any, ears: FakeTranscriptionServer, key: str, mime_type: str | None, sent_as: Any
) -> None:
    async with lembra() as h:
        h.tg.add_file("AwACAgEAAxkBAAIBQ2voice", NOTE, path="voice/file_7.oga")
        ears.hear("Anota: comprar leite.")

        update = voice_update(
            CHAT, "AwACAgEAAxkBAAIBQ2voice", seconds=3, size=len(NOTE), mime_type=mime_type, key=key
        )
        assert (await h.post_update(update)).status == 200
        await h.idle()

        [reply] = h.tg.texts(CHAT)
        assert reply.startswith("🎤 «Anota: comprar leite»\n\n")
        assert await contents(h, f"tg:{CHAT}") == ["comprar leite"]
        assert await said(h, f"tg:{CHAT}") == ["Anota: comprar leite"]
        [asked] = h.tg.attempts("getFile")
        assert asked.params["file_id"] == "AwACAgEAAxkBAAIBQ2voice"
        assert h.tg.downloads == ["voice/file_7.oga"]
        [heard] = ears.requests
        assert (heard.filename, heard.content_type, heard.size) == (*sent_as, len(NOTE))
        assert heard.language == "pt"


async def test_a_whatsapp_audio_is_looked_up_downloaded_with_the_token_and_heard(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    async with lembra() as h:
        h.wa.add_media("1234567890987654321", NOTE, mime_type="audio/ogg; codecs=opus")
        ears.hear("Me lembra amanhã às 9 de ligar pro banco.")

        payload = wa.message_payload(PHONE, wa.audio_content("1234567890987654321"))
        assert (await h.post_whatsapp(payload)).status == 200
        await h.idle()

        [reply] = h.wa.bodies(PHONE)
        assert reply.startswith("🎤 «Me lembra amanhã às 9 de ligar pro banco»\n\n")
        assert "ligar pro banco" in reply.split("\n\n", 1)[1]
        [reminder] = await h.db.reminders.open_for(f"wa:{PHONE}")
        assert reminder.text == "ligar pro banco"
        assert h.wa.lookups == [("1234567890987654321", True)]
        assert h.wa.downloads == [("1234567890987654321", True)]
        assert [(r.filename, r.size) for r in ears.requests] == [("voice.ogg", len(NOTE))]


# -- refused before the download -----------------------------------------------------------------


async def test_a_note_announced_too_long_is_answered_and_never_downloaded(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    async with lembra() as h:
        h.tg.add_file("long-note", silent_voice_note(300))
        await h.post_update(voice_update(CHAT, "long-note", seconds=300))
        await h.idle()

        assert h.tg.texts(CHAT) == [
            "Esse áudio tem 300 s e eu transcrevo até 60 s. "
            "Mande um áudio mais curto ou escreva a mensagem."
        ]
        assert (h.tg.attempts("getFile"), h.tg.downloads, ears.requests) == ([], [], [])
        assert await said(h, f"tg:{CHAT}") == []


@pytest.mark.parametrize(
    ("announced", "stored"),
    [(30 * 1024 * 1024, None), (None, 25 * 1024 * 1024)],
    ids=["announced-in-the-update", "told-by-getFile"],
)
async def test_a_telegram_file_over_the_bot_apis_limit_is_never_downloaded(
    lembra: Any, ears: FakeTranscriptionServer, announced: int | None, stored: int | None
) -> None:
    async with lembra() as h:
        h.tg.add_file("big-note", NOTE, size=stored)
        await h.post_update(voice_update(CHAT, "big-note", seconds=None, size=announced))
        await h.idle()

        assert h.tg.texts(CHAT) == [
            "Esse arquivo de áudio é grande demais para eu baixar. "
            "Mande um áudio mais curto ou escreva a mensagem."
        ]
        assert (h.tg.downloads, ears.requests) == ([], [])


async def test_a_whatsapp_audio_too_large_by_its_lookup_is_never_downloaded(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    async with lembra() as h:
        h.wa.add_media("5550000000001", NOTE, size=15 * 1024 * 1024)
        await h.post_whatsapp(wa.message_payload(PHONE, wa.audio_content("5550000000001")))
        await h.idle()

        assert h.wa.bodies(PHONE) == [
            "Esse arquivo de áudio é grande demais para eu baixar. "
            "Mande um áudio mais curto ou escreva a mensagem."
        ]
        assert (len(h.wa.lookups), h.wa.downloads, ears.requests) == (1, [], [])


async def test_an_audio_format_no_backend_reads_is_answered_in_english_and_not_fetched(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    async with lembra() as h:
        update = voice_update(
            CHAT, "wma-file", key="audio", mime_type="audio/x-ms-wma", language="en"
        )
        await h.post_update(update)
        await h.idle()

        assert h.tg.texts(CHAT) == [
            "I can't read that audio format. Send a voice message or type it."
        ]
        assert (h.tg.attempts("getFile"), ears.requests) == ([], [])


# -- lengths measured on the bytes received (issue 46) ---------------------------------------

OVER = "Esse áudio passa de 60 s, o máximo que eu transcrevo. Mande um áudio mais curto ou escreva a mensagem."


@pytest.mark.parametrize(
    ("announced", "forged"),
    [(2, None), (None, "last"), (2, "every")],
    ids=["announced-2s", "last-page-claims-2s", "every-page-and-announced-2s"],
)
async def test_a_telegram_note_that_lies_about_its_length_is_measured_and_refused(
    lembra: Any, ears: FakeTranscriptionServer, announced: int | None, forged: Any
) -> None:
    """Issue 46 rows 1-2: a 3,000 s note announced as 2 s, or whose OGG granules claim 2 s,
    was transcribed. Its packets are counted: it is refused, and nothing is transcribed."""
    note = silent_voice_note(3000, claims=2 if forged else None, forged=forged or "last")
    async with lembra() as h:
        h.tg.add_file("liar", note)
        ears.hear("anota: três mil segundos")
        await h.post_update(voice_update(CHAT, "liar", seconds=announced, size=len(note)))
        await h.idle()

        assert h.tg.texts(CHAT) == [OVER]
        assert ears.requests == []
        assert await said(h, f"tg:{CHAT}") == []


async def test_a_whatsapp_note_whose_last_page_lies_is_refused(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    """Issue 46 row 2, on WhatsApp (which announces no length)."""
    async with lembra() as h:
        h.wa.add_media("5550000000046", silent_voice_note(3000, claims=2))
        ears.hear("anota: três mil segundos")
        await h.post_whatsapp(wa.message_payload(PHONE, wa.audio_content("5550000000046")))
        await h.idle()

        assert h.wa.bodies(PHONE) == [OVER]
        assert ears.requests == []


async def test_a_short_note_announced_as_short_is_still_heard(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    """The measure passes what is true: 59 s under a 60 s limit, announced or not."""
    note = silent_voice_note(59)
    async with lembra() as h:
        h.tg.add_file("true-note", note)
        ears.hear("anota: quase um minuto")
        await h.post_update(voice_update(CHAT, "true-note", seconds=None, size=len(note)))
        await h.idle()

        assert h.tg.texts(CHAT)[0].startswith("🎤 «anota: quase um minuto»")
        assert [r.size for r in ears.requests] == [len(note)]


async def test_an_ogg_whose_packets_cannot_be_counted_is_refused_clearly(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    """An OGG file of a codec that is not Opus or Vorbis: its length cannot be told."""
    data = b"OggS" + bytes(200)
    async with lembra() as h:
        h.tg.add_file("odd", data)
        ears.hear("nunca")
        await h.post_update(voice_update(CHAT, "odd", seconds=1, size=len(data)))
        await h.idle()

        assert h.tg.texts(CHAT) == [
            "Não consegui entender esse arquivo de áudio. Escreva a mensagem, por favor."
        ]
        assert ears.requests == []


@pytest.mark.parametrize("channel", ["telegram", "whatsapp"])
async def test_a_mime_type_with_a_line_break_is_cleaned_and_the_note_heard(
    lembra: Any, ears: FakeTranscriptionServer, channel: str
) -> None:
    """Issue 46 row 7: `audio/ogg\r\nX: y` made the turn fail ("try again")."""
    forged = "audio/ogg\r\nX-Injected: y"
    async with lembra() as h:
        ears.hear("anota: tipo estranho")
        if channel == "telegram":
            h.tg.add_file("crlf", NOTE)
            await h.post_update(voice_update(CHAT, "crlf", mime_type=forged))
        else:
            h.wa.add_media("5550000000047", NOTE)
            payload = wa.message_payload(PHONE, wa.audio_content("5550000000047", mime_type=forged))
            await h.post_whatsapp(payload)
        await h.idle()

        replies = h.tg.texts(CHAT) if channel == "telegram" else h.wa.bodies(PHONE)
        assert replies[0].startswith("🎤 «anota: tipo estranho»")
        [heard] = ears.requests
        assert heard.content_type == "audio/ogg"


async def test_a_transcript_with_a_lone_surrogate_is_cleaned_and_answered(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    """Issue 46 row 8: the STT server answering `"\ud800"` made the turn fail ("try again")."""
    async with lembra() as h:
        h.tg.add_file("odd-words", NOTE)
        ears.hear("anota: caf\ud800 com leite")
        await h.post_update(voice_update(CHAT, "odd-words"))
        await h.idle()

        [reply] = h.tg.texts(CHAT)
        assert reply.startswith("🎤 «anota: caf\ufffd com leite»")
        assert await contents(h, f"tg:{CHAT}") == ["caf\ufffd com leite"]


# -- failures ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        ("backend_down", "Não consegui transcrever o áudio agora. Tente de novo em instantes."),
        ("download_down", "Não consegui transcrever o áudio agora. Tente de novo em instantes."),
        (
            "unknown_file",
            "Não consegui entender esse arquivo de áudio. Escreva a mensagem, por favor.",
        ),
    ],
    ids=["backend-down", "download-down", "unknown-file"],
)
async def test_a_failure_gets_a_clear_reply_and_leaves_nothing(
    lembra: Any, ears: FakeTranscriptionServer, failure: str, expected: str
) -> None:
    async with lembra() as h:
        if failure != "unknown_file":
            h.tg.add_file("note-1", NOTE)
        if failure == "backend_down":
            ears.status = 503
        if failure == "download_down":
            h.tg.download_faults = [503] * 4  # every try the retry policy allows
        ears.hear("anota: nunca ouvido")

        await h.post_update(voice_update(CHAT, "note-1"))
        await h.idle()

        assert h.tg.texts(CHAT) == [expected]
        assert await contents(h, f"tg:{CHAT}") == []
        assert await said(h, f"tg:{CHAT}") == []


# -- once -------------------------------------------------------------------------------------


async def test_a_redelivered_voice_note_is_downloaded_heard_and_saved_once(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    async with lembra() as h:
        h.tg.add_file("note-2", NOTE, path="voice/file_9.oga")
        ears.hear("anota: pagar o condomínio")
        ears.delay_s = 0.3  # Telegram redelivers while the note is being heard
        update = voice_update(CHAT, "note-2")

        await h.post_update(update)
        await h.tg.wait_for(lambda: h.tg.downloads != [])
        assert (await h.post_update(update)).status == 200
        await h.idle()
        assert (await h.post_update(update)).status == 200  # and once more, after the reply
        await h.idle()

        assert len(h.tg.texts(CHAT)) == 1
        assert (len(h.tg.attempts("getFile")), h.tg.downloads) == (1, ["voice/file_9.oga"])
        assert len(ears.requests) == 1
        assert await contents(h, f"tg:{CHAT}") == ["pagar o condomínio"]
        events = await h.db.ledger.events(f"tg:{CHAT}")
        assert [e.type for e in events].count("item_saved") == 1


async def test_a_spoken_apaga_tudo_still_waits_for_the_button(
    lembra: Any, ears: FakeTranscriptionServer
) -> None:
    async with lembra() as h:
        for words in ("anota: comprar leite", "anota: comprar pão"):
            await h.post_update(message_update(CHAT, words))
            await h.idle()
        h.tg.add_file("note-3", NOTE)
        ears.hear("Apaga tudo.")

        await h.post_update(voice_update(CHAT, "note-3"))
        await h.idle()

        preview = h.tg.texts(CHAT)[-1]
        assert preview.startswith("🎤 «Apaga tudo»\n\nIsto apagará 2 itens")
        assert len(await contents(h, f"tg:{CHAT}")) == 2
        yes = buttons(h, CHAT)[0]
        await h.post_update(callback_update(CHAT, yes["callback_data"]))
        await h.idle()

        assert h.tg.texts(CHAT)[-1].startswith("✅ Apaguei 2 itens")
        assert await contents(h, f"tg:{CHAT}") == []


# -- documents to /import ----------------------------------------------------------------------


async def test_a_telegram_document_goes_to_imports_preview_and_sim_saves_it(
    lembra: Any,
) -> None:
    listing = "Assistir Duna\nhttps://example.com/receita-de-pao\n- comprar lâmpadas\n".encode()
    async with lembra() as h:
        h.tg.add_file("doc-1", listing, path="documents/file_3.txt")

        await h.post_update(
            document_update(CHAT, "doc-1", file_name="lista.txt", size=len(listing))
        )
        await h.idle()

        preview = h.tg.texts(CHAT)[-1]
        assert preview.startswith("Importar 3 itens? (2 notas, 1 link)")
        assert h.tg.downloads == ["documents/file_3.txt"]
        assert await contents(h, f"tg:{CHAT}") == []  # nothing before "sim"
        assert await said(h, f"tg:{CHAT}") == ["/import lista.txt"]  # not the file's content
        await h.post_update(callback_update(CHAT, buttons(h, CHAT)[0]["callback_data"]))
        await h.idle()

        assert h.tg.texts(CHAT)[-1] == "✅ Importei 3 itens."
        assert sorted(await contents(h, f"tg:{CHAT}")) == [
            "Assistir Duna",
            "comprar lâmpadas",
            "https://example.com/receita-de-pao",
        ]


@pytest.mark.parametrize(
    ("name", "data", "announced", "expected", "downloaded"),
    [
        (
            "backup.json",
            b'{"format": "lembra-export/1", "items": [',
            None,
            "Não consegui ler esse JSON; nada foi importado.",
            True,
        ),
        (
            "lista.txt",
            b"%PDF-1.7\n\x00\x01\x02\xff binary",
            None,
            "Não consegui ler esse arquivo: ele não é um texto (.json, .txt ou .csv) "
            "ou está corrompido. Nada foi importado.",
            True,
        ),
        (
            "lista.txt",
            b"a\n",
            3 * 1024 * 1024,
            "Esse arquivo é grande demais para importar (até 2 MB). "
            "Divida em partes e mande de novo; nada foi importado.",
            False,
        ),
        (
            "boleto.pdf",
            b"%PDF-1.7",
            None,
            "Esse tipo de arquivo eu não importo. Mande a exportação .json do Lembra "
            "ou uma lista .txt ou .csv (um título ou link por linha).",
            False,
        ),
    ],
    ids=["broken-json", "binary", "too-large", "not-a-list"],
)
async def test_a_document_that_cannot_be_imported_gets_a_clear_reply(
    lembra: Any, name: str, data: bytes, announced: int | None, expected: str, downloaded: bool
) -> None:
    async with lembra() as h:
        h.tg.add_file("doc-2", data)
        await h.post_update(document_update(CHAT, "doc-2", file_name=name, size=announced))
        await h.idle()

        assert h.tg.texts(CHAT) == [expected]
        assert bool(h.tg.downloads) is downloaded
        assert await h.db.users.get(f"tg:{CHAT}") is None or not await contents(h, f"tg:{CHAT}")


async def test_a_captioned_document_of_another_kind_is_read_by_its_caption(lembra: Any) -> None:
    async with lembra() as h:
        update = document_update(
            CHAT,
            "doc-3",
            file_name="boleto.pdf",
            mime_type="application/pdf",
            caption="anota: boleto vence dia 10",
        )
        await h.post_update(update)
        await h.idle()

        assert await contents(h, f"tg:{CHAT}") == ["boleto vence dia 10"]
        assert h.tg.attempts("getFile") == []
