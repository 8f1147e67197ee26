"""A file sent to `/import` (issue 29): what each kind of file becomes, through `Runtime.handle`.

The webhook path (getFile, the download, the buttons) is in tests/bot/test_voice_webhooks.py;
here, the reading: Lembra's own exports come back whole, lists from spreadsheets and
editors read as a person means them, and a file that is not one says so.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.conversation.importfile import read_document
from agent.conversation.importing import MAX_ENTRIES
from agent.texts import text
from agent.types import Document, Incoming, Reply
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra

BOB = "cli:bob"


@pytest.fixture
async def lembra(db: Database, tmp_path: Path) -> AsyncIterator[Lembra]:
    async with open_lembra(db, data_dir=tmp_path) as running:
        yield running


class SentFile:
    """A document a user sent; downloads counted."""

    def __init__(self, data: bytes, name: str, mime_type: str = "") -> None:
        self.data, self.name, self.mime_type = data, name, mime_type
        self.downloads = 0

    async def fetch(self, limit: int) -> bytes:
        self.downloads += 1
        return self.data

    def incoming(self, user: str = BOB) -> Incoming:
        document = Document(self.name, self.mime_type, fetch=self.fetch, size=len(self.data))
        return Incoming(
            channel="console",  # the runtime reads a document the same from any channel
            chat_id=user.split(":", 1)[1],
            user_id=user,
            text=f"/import {self.name}",
            document=document,
        )


async def send(lembra: Lembra, sent: SentFile, user: str = BOB) -> Reply:
    return await lembra.handle(sent.incoming(user))


async def test_a_csv_export_comes_back_whole_into_another_account(lembra: Lembra) -> None:
    for message in ("anota: =SUM(A1:A9)", "salva https://example.com/artigo", "anota: pão"):
        await lembra.say(message)
    export = await lembra.say("/export csv")
    assert export.attachment is not None

    preview = await send(lembra, SentFile(export.attachment.data, "lembra-export.csv", "text/csv"))
    assert preview.text.startswith("Importar 3 itens? (2 notas, 1 link)")
    done = await lembra.press(0, token=preview.choice_token, user=BOB)

    assert done.text == "✅ Importei 3 itens."
    fields = {(i.type, i.url, i.content) for i in await lembra.items(BOB)}
    assert fields == {
        ("note", None, "=SUM(A1:A9)"),  # the spreadsheet's defusing quote undone
        ("link", "https://example.com/artigo", None),
        ("note", None, "pão"),
    }


async def test_a_json_export_file_brings_items_back_without_the_4000_character_limit(
    lembra: Lembra,
) -> None:
    items = [
        {"type": "note", "content": f"tarefa número {n} com um texto comprido"} for n in range(80)
    ]
    data = json.dumps({"format": "lembra-export/1", "items": items}).encode()
    assert len(data) > 4000  # more than one message could carry

    preview = await send(lembra, SentFile(data, "backup.json"))

    assert preview.text.startswith("Importar 80 itens? (80 notas)")
    assert preview.choice_kind == "confirm"


@pytest.mark.parametrize(
    ("data", "name", "expected"),
    [
        (
            "título;link\nDuna;https://example.com/duna\nComprar pão;\n".encode(),
            "lista.csv",
            "Importar 2 itens? (1 nota, 1 link)",
        ),
        ("Duna\nhttps://example.com/duna\n".encode("utf-16"), "lista.txt", "Importar 2 itens?"),
        ("Açaí\nCoração\n".encode("cp1252"), "lista.txt", "Importar 2 itens? (2 notas)"),
        (b"", "lista.txt", "Esse arquivo est\u00e1 vazio; nada foi importado."),
        (b"[1, 2, 3]", "backup.json", "Esse JSON não é uma exportação do Lembra"),
    ],
    ids=["semicolon-csv-with-header", "utf-16", "windows-1252", "empty", "json-not-export"],
)
async def test_each_kind_of_list_reads_as_a_person_means_it(
    lembra: Lembra, data: bytes, name: str, expected: str
) -> None:
    reply = await send(lembra, SentFile(data, name))

    assert reply.text.startswith(expected), reply.text


async def test_the_stored_message_names_the_file_and_never_holds_its_content(
    lembra: Lembra,
) -> None:
    await send(lembra, SentFile(b"segredo do cofre\n", "lista.txt"))

    human = [m.content for m in await lembra.messages(BOB) if m.role == "human"]
    assert human == ["/import lista.txt"]


async def test_a_file_typed_as_text_without_an_extension_is_read(lembra: Lembra) -> None:
    sent = SentFile(b"Duna\n", "minha lista", "text/plain")

    reply = await send(lembra, sent)

    assert reply.text.startswith("Importar 1 item?")
    assert sent.downloads == 1


@settings(max_examples=200, deadline=None)
@given(
    data=st.binary(max_size=300),
    kind=st.sampled_from(["json", "csv", "txt"]),
)
def test_any_bytes_are_read_or_refused_with_a_reason(data: bytes, kind: Any) -> None:
    _read_or_refused(read_document(kind, data))


@settings(max_examples=100, deadline=None)
@given(
    depth=st.integers(0, 3000),
    line=st.integers(0, 6000),
    rows=st.integers(0, 700),
    noise=st.text(max_size=40),
    kind=st.sampled_from(["json", "csv", "txt"]),
)
def test_hostile_shapes_are_read_or_refused_with_a_reason(
    depth: int, line: int, rows: int, noise: str, kind: Any
) -> None:
    """Issue 46: nesting, overlong lines and too many rows are bounds, never an exception."""
    nested = '{"format": "lembra-export/1", "items": [' + "[" * depth + "]" * depth + "]}"
    body = nested if kind == "json" else "x" * line + "\n" + "\n".join(f"r{n}" for n in range(rows))
    _read_or_refused(read_document(kind, (body + noise).encode("utf-8", "surrogatepass")))


def _read_or_refused(read: Any) -> None:
    if isinstance(read, str):  # a reason the user is told, from the catalog
        assert text(read, "pt", limit=500).strip()
    else:
        assert read.entries or read.memories
        assert len(read.entries) <= MAX_ENTRIES


async def test_nothing_is_imported_before_sim(lembra: Lembra) -> None:
    preview = await send(lembra, SentFile(b"Duna\nhttps://example.com/x\n", "l.txt"), user=ALICE)

    assert preview.choice_kind == "confirm"
    assert await lembra.items(ALICE) == []
