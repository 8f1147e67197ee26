"""Help and replies in plain words (issue 34): every capability in the help, no internal names,
every duration from its setting."""

from __future__ import annotations

import re

import pytest

from agent.conversation.helping import help_text
from agent.types import Language
from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import call, live_runtime

INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\b(?:OK|PARTIAL|AMBIGUOUS|FAIL)\b|Risco \d|Risk \d")


@pytest.mark.parametrize(
    ("message", "language", "names"),
    [
        (
            "ajuda",
            "pt",
            ["«me lembra", "«meus lembretes»", "«desfaz»", "«é uma série»", "/tz", "/import"],
        ),
        ("/help", "pt", ["«procura", "«apaga tudo»", "/export", "/why", "/lang", "/forget"]),
        ("help", "en", ["«remind me", "«undo»", "«it's a show»", "/tz", "/import", "/export"]),
    ],
)
async def test_help_names_every_capability_with_an_example(
    db: Database, message: str, language: Language, names: list[str]
) -> None:
    async with open_lembra(db) as lembra:
        reply = await lembra.say(message, language_hint=language)

    for name in names:
        assert name in reply.text
    assert "voz" not in reply.text  # transcription is not configured
    assert "voice" not in reply.text
    assert reply.meta.llm_calls == 0


@pytest.mark.parametrize("setting", ["transcribe_base_url", "transcribe_model_dir"])
async def test_help_names_voice_notes_only_when_transcription_is_configured(
    db: Database, setting: str
) -> None:
    async with open_lembra(db) as lembra:
        voiced = lembra.settings.model_copy(update={setting: "configured"})
        lines = help_text(voiced, "pt").splitlines()

    assert lines[-2].startswith("• voz: mande uma mensagem de voz")
    assert lines[-1].startswith("Comandos:")


@pytest.mark.parametrize(
    ("ttl", "said"), [(120, "2 minutos"), (300, "5 minutos"), (60, "um minuto")]
)
async def test_a_preview_says_how_long_it_waits_from_pending_ttl_seconds(
    db: Database, ttl: int, said: str
) -> None:
    async with open_lembra(db, pending_ttl_seconds=ttl) as lembra:
        await lembra.say("anota: comprar leite")
        one = await lembra.say("apaga a nota comprar leite")
        everything = await lembra.say("apaga tudo")

    assert f"(sim/não, expira em {said})" in one.text
    assert f"(sim/não, expira em {said})" in everything.text


async def test_why_and_previews_show_no_internal_names(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("salva o filme Duna", llm=[call("save_movie", title="Duna")])
        saved_why, _ = await live.say("/why")
        preview, _ = await live.say("apaga o duna", llm=[call("delete_item", query="duna")])
        refused, _ = await live.say(
            "anota: comprar leite", llm=[call("save_note", content="x", user_id="cli:bob")] * 3
        )
        refused_why, _ = await live.say("/why")

    for reply in (saved_why, preview, refused_why):
        assert not INTERNAL.findall(reply.text), reply.text
    assert "Impedi:" in refused_why.text
    assert refused.meta.state == "FAIL"
