"""Bad input (issue 3): each gets a clear reply, nothing crashes, nothing unintended is stored."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra, seed


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


@pytest.fixture
async def counting(db: Database) -> AsyncIterator[Lembra]:
    """A Lembra whose model is the counting server (scripted with nothing)."""
    async with open_lembra(db, counting_model=True) as running:
        yield running
        assert running.model_calls == 0


async def stored_documents(db: Database) -> dict[str, int]:
    """How many documents each user-data collection holds."""
    raw = db.client[db.name]
    names = ("users", "items", "messages", "summaries", "pending_actions", "ledger", "usage")
    return {name: len(await raw[name].find({}).to_list(None)) for name in names}


# -- refused before anything is written -----------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    ["", "   ", "\n\t \n", "\x00\x00", "\u202e\u200f", "\u200b", "\ufeff \u2060", "\u200d"],
)
async def test_an_empty_message_is_refused_before_any_write(
    counting: Lembra, db: Database, message: str
) -> None:
    reply = await counting.say(message)

    assert reply.text.startswith("Mensagem vazia.")
    assert "ajuda" in reply.text
    assert set((await stored_documents(db)).values()) == {0}  # no user, no message, nothing


async def test_a_20000_character_message_is_refused_before_any_model_call_or_write(
    counting: Lembra, db: Database
) -> None:
    limit = counting.settings.max_message_chars

    reply = await counting.say("salva " + "x" * 19_994)

    assert reply.text == (
        f"Mensagem longa demais (20000 caracteres; o limite é {limit}). "
        "Nada foi salvo: envie um texto menor."
    )
    assert set((await stored_documents(db)).values()) == {0}


async def test_an_oversized_message_from_a_known_user_changes_nothing(
    counting: Lembra, db: Database
) -> None:
    await seed(db, ["anota: comprar leite"])
    counting.clock.advance(60)
    before = await stored_documents(db)
    user_before = await counting.user()

    reply = await counting.say("anota: " + "y" * 20_000)

    assert "Nada foi salvo" in reply.text
    assert await stored_documents(db) == before
    assert await counting.user() == user_before  # not even last seen moved


async def test_an_english_speaker_is_refused_in_english(counting: Lembra) -> None:
    reply = await counting.say("z" * 20_000, language_hint="en")

    assert reply.text.startswith("Message too long (20000 characters; the limit is 4000).")


async def test_a_message_at_the_limit_is_accepted(lembra: Lembra) -> None:
    limit = lembra.settings.max_message_chars
    message = "anota: " + "a" * (limit - len("anota: "))

    reply = await lembra.say(message)

    assert reply.text.startswith("✅ Salvo:")
    [item] = await lembra.items()
    assert item.content == "a" * (limit - len("anota: "))


# -- control characters -------------------------------------------------------------------------


async def test_null_bytes_are_removed_from_what_is_stored(lembra: Lembra) -> None:
    reply = await lembra.say("anota: leite\x00 em pó\x00")

    assert reply.text == "✅ Salvo: leite em pó."
    [item] = await lembra.items()
    assert item.content == "leite em pó"
    assert all("\x00" not in m.content for m in await lembra.messages())


async def test_right_to_left_marks_are_removed_from_titles_notes_and_history(
    lembra: Lembra,
) -> None:
    await lembra.say("salva o filme \u202ethe matrix\u202c")
    await lembra.say("anota: \u202egpj.exe\u202c comprar pão")

    items = await lembra.items()
    assert [(i.type, i.title or i.content) for i in items] == [
        ("movie", "The Matrix"),
        ("note", "gpj.exe comprar pão"),
    ]
    stored = json.dumps(
        [i.model_dump() for i in items] + [m.model_dump() for m in await lembra.messages()]
    )
    assert "\\u202e" not in stored
    assert "\\u202c" not in stored


# -- emoji ----------------------------------------------------------------------------------------


async def test_a_thumbs_up_with_nothing_pending_is_a_stray_confirmation(lembra: Lembra) -> None:
    reply = await lembra.say("👍")

    assert reply.text == "Não há nada pendente para confirmar."
    assert await lembra.items() == []


async def test_emoji_only_text_is_small_talk_and_saves_nothing(lembra: Lembra) -> None:
    # DESIGN 9.2: emoji-only is small talk, answered in code; nothing is saved unasked
    reply = await lembra.say("🎬🍿")

    assert reply.meta.intent == "smalltalk"
    assert reply.meta.llm_calls == 0
    assert await lembra.items() == []


async def test_emoji_notes_asked_for_are_kept_and_different_notes(lembra: Lembra) -> None:
    first = await lembra.say("anota: 🎬")
    second = await lembra.say("anota: 🍿")
    again = await lembra.say("anota: 🎬")

    assert (first.text, second.text) == ("✅ Salvo: 🎬.", "✅ Salvo: 🍿.")
    assert again.text == "Já estava salvo: 🎬."
    assert [i.content for i in await lembra.items()] == ["🎬", "🍿"]


async def test_invisible_characters_are_not_stored(lembra: Lembra) -> None:
    await lembra.say("anota: com\u200bprar\ufeff leite")

    [item] = await lembra.items()
    assert item.content == "comprar leite"


# -- links we do not take ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        (
            "salva https://ana:s3nha@example.com/privado",
            "links com usuário ou senha não são aceitos",
        ),
        ("guarda esse link http://ana@example.com/", "links com usuário ou senha não são aceitos"),
        ("salva javascript:alert(document.cookie)", "só aceito links http e https"),
        ("salva ftp://example.com/arquivo", "só aceito links http e https"),
    ],
)
async def test_a_link_we_do_not_take_is_refused_with_the_reason_and_not_stored(
    lembra: Lembra, db: Database, message: str, reason: str
) -> None:
    reply = await lembra.say(message)

    assert reply.text == f"Endereço inválido: {reason}."
    assert "s3nha" not in reply.text
    assert await lembra.items() == []
    assert await lembra.event_types() == []
    assert set((await lembra.known_user()).counts.values()) == {0}


# -- operator-looking and dotted text is data ---------------------------------------------------


async def test_dollar_and_dotted_text_is_stored_and_found_as_plain_data(
    lembra: Lembra, db: Database
) -> None:
    await seed(db, ["anota: comprar leite"], user="cli:bob")
    note = 'anota: {"$where": "sleep(1000)", "a.b": {"$gt": ""}}'

    movie = await lembra.say("salva o filme $where")
    saved = await lembra.say(note)

    assert movie.text.startswith("✅ Salvo: $where.")
    assert saved.text.startswith("✅ Salvo:")
    items = await lembra.items()
    assert [(i.type, i.title or i.content) for i in items] == [
        ("movie", "$where"),
        ("note", '{"$where": "sleep(1000)", "a.b": {"$gt": ""}}'),
    ]

    found = await lembra.say("procura $where")
    assert found.text.splitlines()[0] == "Encontrei 2:"

    preview = await lembra.say("apaga $where")
    assert preview.text.startswith("Apagar $where?")
    await lembra.say("sim")

    assert [i.type for i in await lembra.items()] == ["note"]
    assert [i.content for i in await lembra.items("cli:bob")] == ["comprar leite"]
    user = await lembra.known_user()
    assert user.counts["note"] == 1
    assert user.counts["movie"] == 0
    assert (await db.ledger.verify(ALICE)).ok
