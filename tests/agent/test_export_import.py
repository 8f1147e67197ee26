"""`/export` as JSON, Markdown and CSV; `/import` of an export or a plain list, previewed and
confirmed, respecting dedup keys; the console writing the export file."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.conversation.exporting import CSV_COLUMNS
from bot.cli.console import run_console
from storage import Database
from storage.documents import ItemDoc, MemoryDoc
from tests.support.bulk import stored_notes
from tests.support.harness import ALICE, Lembra, open_lembra

BOB = "cli:bob"
SAVES = ("anota: comprar leite", "anota: =SUM(A1:A9)", "salva https://example.com/artigo")


@pytest.fixture
async def lembra(db: Database, tmp_path: Path) -> AsyncIterator[Lembra]:
    async with open_lembra(db, data_dir=tmp_path) as running:
        for message in SAVES:
            await running.say(message)
        yield running


def _fields(items: list) -> set[tuple]:
    return {(i.type, i.title, i.url, i.content) for i in items}


async def test_export_md_lists_items_by_type_with_links(lembra: Lembra) -> None:
    reply = await lembra.say("/export md")

    assert reply.attachment is not None
    assert (reply.attachment.filename, reply.attachment.mime_type) == (
        "lembra-export-cli-alice.md",
        "text/markdown",
    )
    doc = reply.attachment.data.decode()
    assert "## Notas (2)" in doc
    assert "- comprar leite" in doc
    assert "## Links (1)" in doc
    assert "(<https://example.com/artigo>)" in doc


async def test_export_csv_has_one_row_per_item_and_defuses_formulas(lembra: Lembra) -> None:
    reply = await lembra.say("/export csv")

    assert reply.attachment is not None
    assert reply.attachment.mime_type == "text/csv"
    rows = list(csv.reader(io.StringIO(reply.attachment.data.decode())))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert len(rows) == 1 + len(SAVES)
    contents = {row[CSV_COLUMNS.index("content")] for row in rows[1:]}
    assert "'=SUM(A1:A9)" in contents  # a spreadsheet shows it, never runs it
    assert "comprar leite" in contents


async def test_an_unknown_export_format_is_named_and_nothing_is_attached(lembra: Lembra) -> None:
    reply = await lembra.say("/export pdf")

    assert reply.attachment is None
    assert "/export md" in reply.text


async def test_a_json_export_imports_into_another_account_once(lembra: Lembra) -> None:
    export = await lembra.say("/export")
    assert export.attachment is not None
    document = json.loads(export.attachment.data)
    # a message holds at most 4,000 characters: the export's items, without its messages
    raw = json.dumps({"format": document["format"], "items": document["items"]})

    preview = await lembra.say(f"/import {raw}", user=BOB)

    assert preview.choice_kind == "confirm", preview.text
    assert preview.text.startswith("Importar 3 itens? (2 notas, 1 link)")
    assert await lembra.items(BOB) == []  # nothing before "sim"

    done = await lembra.press(0, token=preview.choice_token, user=BOB)

    assert "Importei 3 itens." in done.text
    assert _fields(await lembra.items(BOB)) == _fields(await lembra.items(ALICE))
    assert (await lembra.event_types(BOB)).count("item_saved") == 3

    again = await lembra.say(f"/import {raw}", user=BOB)

    assert again.choice_kind == "none"
    assert "Nada a importar: tudo já estava na sua lista (3 itens)." in again.text
    assert len(await lembra.items(BOB)) == 3


async def test_a_plain_list_previews_new_entries_and_no_keeps_everything(lembra: Lembra) -> None:
    listing = (
        "/import\n- https://youtu.be/dQw4w9WgXcQ\n2. Duna\nhttps://example.com/artigo\n"
        "https://example.com/novo\nhttps://example.com/novo\n\n"
    )
    preview = await lembra.say(listing)

    # the repeated line counts once; what alice already has is skipped
    assert preview.text.splitlines()[:2] == [
        "Importar 3 itens? (1 nota, 1 vídeo, 1 link)",
        "Já na sua lista (ficam como estão): 1 item.",
    ]
    kept = await lembra.say("não")

    assert kept.text == "Ok, nada foi importado."
    assert len(await lembra.items()) == len(SAVES)

    preview = await lembra.say(listing)
    await lembra.say("sim")

    items = await lembra.items()
    assert len(items) == len(SAVES) + 3
    assert {"https://youtu.be/dQw4w9WgXcQ", "https://example.com/novo"} <= {i.url for i in items}
    assert "Duna" in {i.content for i in items}


@pytest.mark.parametrize(
    ("message", "answer"),
    [
        ("/import", "Envie /import seguido de uma lista"),
        ("/import {not json", "Não consegui ler esse JSON"),
        ('/import {"format": "other/1", "items": []}', "não é uma exportação do Lembra"),
        ('/import {"format": "lembra-export/1", "items": [{"type": "x"}]}', "nenhum item"),
    ],
)
async def test_bad_imports_say_why_and_change_nothing(
    lembra: Lembra, message: str, answer: str
) -> None:
    reply = await lembra.say(message)

    assert answer in reply.text
    assert reply.choice_kind == "none"
    assert await lembra.pending() is None
    assert len(await lembra.items()) == len(SAVES)


async def test_the_console_writes_the_export_and_prints_its_path(
    lembra: Lembra, tmp_path: Path
) -> None:
    out = io.StringIO()
    await run_console(
        lembra.runtime,
        user="alice",
        show_meta=False,
        stdin=io.StringIO("/export csv\n"),
        stdout=out,
    )

    written = tmp_path / "exports" / "lembra-export-cli-alice.csv"
    assert f"-> {written.resolve()}]" in out.getvalue()
    assert written.read_text().startswith(",".join(CSV_COLUMNS))
    assert json.dumps(str(tmp_path)) not in written.read_text()


def _memories(memories: list[MemoryDoc], items: list[ItemDoc]) -> list[tuple[object, ...]]:
    """What a user would see of each memory: kind, words, pin, and the label it points at."""
    labels = {i.id: (i.type, i.title, i.url, i.content) for i in items}
    return [(m.kind, m.text, m.event, m.pinned, labels.get(m.item_id or "")) for m in memories]


async def test_export_forget_import_round_trip_keeps_every_item_and_memory(
    lembra: Lembra,
) -> None:
    """Failed before issue 30: /export left out the assistant's notes and bookmarks."""
    now = lembra.clock.ms()
    link = next(i for i in await lembra.items() if i.type == "link")
    for n, (kind, words, item_id, event, pinned) in enumerate(
        [
            ("fact", "prefere filmes legendados", None, None, False),
            ("bookmark", "ler com calma no domingo", link.id, None, True),
            ("bookmark", "o dia da mudança", None, "conversa sobre a mudança", False),
        ]
    ):
        await lembra.db.memories.add(
            MemoryDoc(
                _id=f"m{n}",
                user_id=ALICE,
                kind=kind,  # type: ignore[arg-type]
                text=words,
                item_id=item_id,
                event=event,
                pinned=pinned,
                seq=n + 1,
                created_at_ms=now,
            )
        )
    items_before = _fields(await lembra.items())
    memories_before = _memories(await lembra.db.memories.list_for(ALICE), await lembra.items())

    export = await lembra.say("/export")
    assert export.attachment is not None
    document = json.loads(export.attachment.data)
    assert len(document["memories"]) == 3
    await lembra.say("/forget")
    await lembra.say("sim")
    assert await lembra.items() == []
    assert await lembra.db.memories.list_for(ALICE) == []

    # a message holds at most 4,000 characters: the export without its messages
    raw = json.dumps({k: v for k, v in document.items() if k != "messages"})
    preview = await lembra.say(f"/import {raw}")
    assert preview.text.splitlines()[:2] == [
        "Importar 3 itens? (2 notas, 1 link)",
        "E 3 anotações do assistente sobre você (fatos e marcadores).",
    ]
    done = await lembra.say("sim")

    assert done.text == "✅ Importei 3 itens. E 3 anotações do assistente."
    items = await lembra.items()
    assert _fields(items) == items_before
    assert _memories(await lembra.db.memories.list_for(ALICE), items) == memories_before
    types = await lembra.event_types()
    types = types[len(types) - types[::-1].index("user_forgotten") :]  # since the /forget
    assert (types.count("item_saved"), types.count("memory_noted")) == (3, 1)
    assert types.count("bookmark_set") == 2

    again = await lembra.say(f"/import {raw}")
    assert "tudo já estava na sua lista (3 itens)" in again.text


async def test_a_long_export_is_announced_then_written_a_page_at_a_time(
    lembra: Lembra, db: Database, tmp_path: Path
) -> None:
    """Issue 47: the whole list is never held; the user hears at once that the file is coming."""
    await stored_notes(db, ALICE, 1_200)

    reply = await lembra.say("/export")

    assert reply.text.startswith("Preparando seu arquivo... (1203 itens)")
    assert reply.attachment is None
    assert reply.follow_up is not None
    seen: list[tuple[int, int]] = []
    second = await reply.follow_up(lambda done, of: seen.append((done, of)))
    assert second.text.startswith("Seus dados: 1203 itens,")
    assert second.attachment is not None
    assert second.attachment.path is not None
    assert second.attachment.path.parent == tmp_path / "exports" / "outgoing"
    assert seen == [(500, 1_203), (1_000, 1_203), (1_203, 1_203)]  # one report a page
    raw = second.attachment.read().decode()
    document = json.loads(raw)
    # written piece by piece, it reads exactly as the whole document dumped at once would
    assert raw == json.dumps(document, ensure_ascii=False, indent=2)
    assert [i["seq"] for i in document["items"]] == list(range(1, 1_204))
    assert document["items"][-1]["content"] == "nota número 1203 — «ação»"
    assert "words" not in document["items"][0]  # the index's words are not the user's data


async def test_the_console_shows_a_long_exports_progress_then_its_file(
    lembra: Lembra, db: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    await stored_notes(db, ALICE, 1_200)
    out = io.StringIO()

    await run_console(
        lembra.runtime, user="alice", show_meta=False, stdin=io.StringIO("/export md\n"), stdout=out
    )

    printed = out.getvalue().splitlines()
    assert printed[0].startswith("Preparando seu arquivo...")
    written = tmp_path / "exports" / "lembra-export-cli-alice.md"
    assert printed[-1].endswith(f"-> {written.resolve()}]")
    progress = capsys.readouterr().err.splitlines()
    assert progress[-1] == "exportando: 1203 de 1203 itens (100%)"
    document = written.read_text()
    assert "## Notas (1202)" in document
    assert "- nota número 1203 — «ação»" in document
    assert list((tmp_path / "exports" / "outgoing").iterdir()) == []  # moved, not copied
