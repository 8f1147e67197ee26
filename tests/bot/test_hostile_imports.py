"""Imports that attacked every chat (issue 46 rows 4-6, the memories cap, saving in batches).

Through the web app of `lembra serve` with the real runtime (offline planner): a typed
`/import`, or a document the fake Bot API serves (getFile, then the download). What is
checked is what the user is told, what the other chats get meanwhile and what the
database keeps.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from agent.conversation import importfile
from agent.tools.remembering import MAX_FACTS
from agent.trust.audit import audit_user
from tests.bot.conftest import Harness
from tests.bot.test_channel_commands import real_runtime, say
from tests.support.fake_telegram import callback_update, document_update, message_update

ANA, BIA = 5554701, 5554702


def nested_export(levels: int) -> str:
    """An export whose first item is `levels` lists deep (the campaign's 1,000)."""
    return '{"format": "lembra-export/1", "items": [' + "[" * levels + "]" * levels + "]}"


async def send_file(h: Harness, chat: int, name: str, data: bytes) -> None:
    file_id = f"doc-{chat}-{len(h.tg.files)}"
    h.tg.add_file(file_id, data)
    await h.post_update(document_update(chat, file_id, file_name=name, size=len(data)))


async def press_yes(h: Harness, chat: int) -> None:
    markup = h.tg.sent(chat_id=chat)[-1].params["reply_markup"]
    await h.post_update(callback_update(chat, markup["inline_keyboard"][0][0]["callback_data"]))
    await h.idle()


# -- row 4: JSON nested 1,000 deep ------------------------------------------------------------

TOO_DEEP = (
    "Esse JSON tem mais de 16 níveis de aninhamento, e uma exportação do Lembra tem poucos; "
    "nada foi importado."
)


async def test_a_typed_import_nested_a_thousand_deep_is_refused_naming_the_limit(
    harness: Any,
) -> None:
    """Issue 46 row 4: "Não consegui processar agora. Tente de novo…" (a RecursionError)."""
    typed = "/import " + nested_export(1000)
    assert len(typed) < 4000  # a message, within the message limit
    async with real_runtime(harness)() as h:
        assert await say(h, ANA, typed) == TOO_DEEP


async def test_a_json_file_nested_a_thousand_deep_is_refused_naming_the_limit(
    harness: Any,
) -> None:
    async with real_runtime(harness)() as h:
        await send_file(h, ANA, "backup.json", nested_export(1000).encode())
        await h.idle()
        assert h.tg.texts(ANA) == [TOO_DEEP]


# -- row 5: one line over 4,000 characters --------------------------------------------------


async def test_a_txt_with_one_line_over_the_limit_imports_the_rest_and_says_so(
    harness: Any,
) -> None:
    """Issue 46 row 5: the same "try again" (a validation error), nothing imported."""
    listing = "comprar leite\n" + "x" * 4500 + "\nhttps://example.com/receita\n"
    async with real_runtime(harness)() as h:
        await send_file(h, ANA, "lista.txt", listing.encode())
        await h.idle()
        preview = h.tg.texts(ANA)[-1]
        assert preview.startswith("Importar 2 itens? (1 nota, 1 link)")
        assert "Ficam de fora por passar de 4000 caracteres: 1 linha." in preview

        await press_yes(h, ANA)

        assert h.tg.texts(ANA)[-1] == "✅ Importei 2 itens."
        assert len(await h.db.items.list_for(f"tg:{ANA}")) == 2


async def test_a_file_of_only_overlong_lines_is_refused_naming_the_limit(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await send_file(h, ANA, "lista.txt", ("y" * 5000 + "\n").encode())
        await h.idle()
        assert h.tg.texts(ANA) == [
            "Todas as linhas passam de 4000 caracteres, o máximo de um item; nada foi importado."
        ]


# -- row 6: a 1.5 MB csv must not stop the other chats ----------------------------------------


def big_csv() -> bytes:
    rows = [f"Filme {n};https://example.com/f/{n};visto em {n % 28 + 1}/03" for n in range(30_000)]
    data = ("titulo;link;nota\n" + "\n".join(rows) + "\n").encode()
    assert len(data) > 1_500_000
    return data


async def test_while_a_large_csv_is_read_another_chat_is_answered_and_healthz_too(
    harness: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 46 row 6: reading a 1.5 MB .csv stalled every chat and /healthz for 6.8 s.

    The reading is held (in whatever thread runs it) until Bia's turn has been answered:
    were it on the event loop, holding it would hold every chat, and Bia's answer could
    only come after Ana's. (The stall itself is measured by bench/imports.py.)
    """
    entered, release = threading.Event(), threading.Event()
    read = importfile.read_document

    def held(kind: Any, data: bytes) -> Any:
        entered.set()
        release.wait(15)
        return read(kind, data)

    monkeypatch.setattr(importfile, "read_document", held)
    async with real_runtime(harness)() as h:
        await send_file(h, ANA, "filmes.csv", big_csv())
        assert await asyncio.to_thread(entered.wait, 15)

        await h.post_update(message_update(BIA, "anota: comprar pão"))
        await h.tg.wait_for(lambda: bool(h.tg.texts(BIA)))
        health = await h.client.get("/healthz")
        answered_first = h.tg.texts(ANA) == []
        release.set()
        await h.idle()

        assert answered_first  # Bia was answered while Ana's file was being read
        assert health.status == 200
        assert h.tg.texts(BIA)[0].startswith("✅")
        assert h.tg.texts(ANA) == ["São mais de 500 itens; importe em partes. Nada foi importado."]


# -- imported memories have a cap the reply states -------------------------------------------


async def test_three_thousand_imported_facts_keep_thirty_and_the_reply_says_so(
    harness: Any,
) -> None:
    """Issue 46 partial: 3,000 facts took 36 s and the bot said "3000 anotações" but kept 30."""
    memories = [{"kind": "fact", "text": f"fato número {n}"} for n in range(3000)]
    export = {"format": "lembra-export/1", "items": [], "memories": memories}
    async with real_runtime(harness)() as h:
        await send_file(h, ANA, "backup.json", json.dumps(export).encode())
        await h.idle()
        preview = h.tg.texts(ANA)[-1]
        assert preview.startswith("Importar 30 anotações do assistente sobre você")
        assert "ficam de fora: 2970 anotações do assistente" in preview

        await press_yes(h, ANA)

        assert h.tg.texts(ANA)[-1] == "✅ Importei 0 itens. E 30 anotações do assistente."
        kept = await h.db.memories.list_for(f"tg:{ANA}")
        assert len(kept) == MAX_FACTS
        assert {m.text for m in kept} == {f"fato número {n}" for n in range(2970, 3000)}


# -- saved in batches, recorded item by item --------------------------------------------------


async def test_five_hundred_imported_items_are_each_numbered_recorded_and_counted(
    harness: Any,
) -> None:
    lines = "\n".join(f"leite {n:03d}" for n in range(500)).encode()
    async with real_runtime(harness)() as h:
        await say(h, ANA, "anota: leite 007")  # already there: left as it is
        await send_file(h, ANA, "notas.txt", lines)
        await h.idle()
        assert h.tg.texts(ANA)[-1].startswith("Importar 499 itens? (499 notas)")

        await press_yes(h, ANA)

        assert h.tg.texts(ANA)[-1] == "✅ Importei 499 itens."
        items = await h.db.items.list_for(f"tg:{ANA}")
        assert len(items) == 500
        assert [i.seq for i in items] == list(range(1, 501))
        saved = [e for e in await h.db.ledger.events(f"tg:{ANA}") if e.type == "item_saved"]
        assert sorted(e.payload["item_id"] for e in saved) == sorted(i.id for i in items)
        user = await h.db.users.get(f"tg:{ANA}")
        assert user is not None
        assert user.counts["note"] == 500
        assert (await audit_user(h.deps, f"tg:{ANA}")).ok
        assert "leite 321" in await say(h, ANA, "procura leite 321")  # indexed by its words
