"""ALLOWED_USER_IDS over both channels (DESIGN 10.5): the real runtime behind the real web app.

A sender outside the list gets one polite refusal a day and nothing of theirs is kept
beyond the update's dedup record (and a chat lease, which holds no content); no model request is made for them. Admins and the
listed ids are served as usual.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from agent.texts import text
from agent.types import Language
from bot.fakes.scripted_model import ScriptedModelServer
from storage.embedded import free_port
from tests.bot.conftest import WEBHOOK_SECRET, Harness
from tests.bot.test_channel_commands import real_runtime
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import TOKEN, message_update
from tests.support.proc import run_lembra

STRANGER, FRIEND, ADMIN = 5550801, 5550802, 5550803
STRANGER_PHONE, FRIEND_PHONE = "5511900001111", "5511900002222"
# Collections that may hold nothing at all of a refused sender.
EVERYTHING_ELSE = (
    "users",
    "items",
    "messages",
    "summaries",
    "ledger",
    "usage",
    "reminders",
    "memories",
    "beliefs",
    "undo_snapshots",
)
# A chat's delivery lease (bot/delivery/chatlease.py) names the chat and nothing else; it is
# delivery machinery like the dedup record, given back in place and swept ten minutes later.


def pairing_code(refusal: str) -> str:
    """The code a refusal gave (`ABCD-EFGH`)."""
    found = re.search(r"\b([A-Z0-9]{4}-[A-Z0-9]{4})\b", refusal)
    assert found is not None, refusal
    return found.group(1)


def refusal_with_code(refusal: str, user_id: str, language: Language = "pt") -> str:
    """The refusal text as the catalog has it, with the code this one gave."""
    return text("not_allowed_code", language, user_id=user_id, code=pairing_code(refusal))


async def _stored_about(h: Harness, sender: str) -> dict[str, list[Any]]:
    """Every document outside processed_updates that mentions `sender` (by id)."""
    found: dict[str, list[Any]] = {}
    raw = h.db.client[h.db.name]
    for name in EVERYTHING_ELSE:
        docs = await raw[name].find({}).to_list(None)
        hits = [d for d in docs if sender in json.dumps(d, default=str)]
        if hits:
            found[name] = hits
    return found


async def _tg(h: Harness, chat: int, message: str) -> None:
    assert (await h.post_update(message_update(chat, message))).status == 200
    await h.idle()


async def _wa(h: Harness, phone: str, message: str) -> None:
    payload = wa.message_payload(phone, wa.text_content(message))
    assert (await h.post_whatsapp(payload)).status == 200
    await h.idle()


async def test_a_telegram_sender_outside_the_list_gets_one_refusal_and_nothing_is_kept(
    harness: Any,
) -> None:
    async with ScriptedModelServer() as model:  # configured, so any model call would show
        settings = {
            "openai_base_url": model.base_url,
            "openai_api_key": "test-not-a-secret",
            "allowed_user_ids": f"tg:{FRIEND},wa:{FRIEND_PHONE}",
            "admin_user_ids": f"tg:{ADMIN}",
        }
        async with real_runtime(harness)(**settings) as h:
            for message in ("anota: comprar leite", "oi?", "/start"):
                await _tg(h, STRANGER, message)
            await _tg(h, FRIEND, "lista tudo")
            await _tg(h, ADMIN, "ajuda")

            (refusal,) = h.tg.texts(STRANGER)
            assert refusal == refusal_with_code(refusal, f"tg:{STRANGER}")
            assert h.tg.texts(FRIEND) == [text("list_empty", "pt")]
            (helped,) = h.tg.texts(ADMIN)  # admins are always allowed
            assert "/export" in helped
            assert model.requests == []
            assert await _stored_about(h, f"tg:{STRANGER}") == {}
            records = await h.db.client[h.db.name]["processed_updates"].find({}).to_list(None)
            mine = [r for r in records if r.get("user_id") == f"tg:{STRANGER}"]
            assert len(mine) == 3
            assert [r["status"] for r in mine] == ["done"] * 3
            assert "comprar leite" not in json.dumps(mine, default=str)
            assert sum(1 for r in mine if r.get("refused_day")) == 1
            assert await h.metric("lembra_senders_refused_total", outcome="replied") == 1
            assert await h.metric("lembra_senders_refused_total", outcome="silent") == 2


async def test_a_whatsapp_sender_outside_the_list_gets_one_refusal_and_nothing_is_kept(
    harness: Any,
) -> None:
    async with real_runtime(harness)(allowed_user_ids=f"wa:{FRIEND_PHONE}") as h:
        await _wa(h, STRANGER_PHONE, "salva inception")
        await _wa(h, STRANGER_PHONE, "lista tudo")
        await _wa(h, FRIEND_PHONE, "anota: comprar leite")

        (refusal,) = h.wa.bodies(STRANGER_PHONE)
        assert refusal == refusal_with_code(refusal, f"wa:{STRANGER_PHONE}")
        assert await _stored_about(h, f"wa:{STRANGER_PHONE}") == {}
        assert [i.content for i in await h.db.items.list_for(f"wa:{FRIEND_PHONE}")] == [
            "comprar leite"
        ]


async def test_without_a_list_everyone_is_served(harness: Any) -> None:
    async with real_runtime(harness)() as h:
        await _tg(h, STRANGER, "anota: comprar leite")

        assert h.tg.texts(STRANGER)[-1].startswith("✅")
        assert await h.db.users.get(f"tg:{STRANGER}") is not None


def test_serve_with_a_model_and_no_list_warns_once_at_start(tmp_path: Path) -> None:
    # (with a list, or with no model, there is no warning: tests/agent/test_access.py)
    data = tmp_path / "data"
    data.write_text("")  # not a folder: `serve` stops right after its start-up checks
    env = {
        "DATA_DIR": str(data),
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "TELEGRAM_API_BASE_URL": f"http://127.0.0.1:{free_port()}/bot",  # never reached
        "OPENAI_BASE_URL": f"http://127.0.0.1:{free_port()}/v1",  # never called
        "LOG_LEVEL": "INFO",
    }
    done = run_lembra(["serve"], env=env, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "lembra: error: DATA_DIR" in done.stderr
    assert done.stderr.count('"event": "bot_open_to_everyone"') == 1


async def test_a_refused_sender_who_floods_gets_no_flood_notice_either(harness: Any) -> None:
    # the flood notice is sent by the channel layer before the runtime's check: a refused
    # sender must still get at most one message from the bot a day
    limits = {"rate_limit_messages": 1, "rate_limit_window_seconds": 300}
    async with real_runtime(harness)(allowed_user_ids=f"tg:{FRIEND}", **limits) as h:
        for n in range(3):
            assert (await h.post_update(message_update(STRANGER, f"m{n}"))).status == 200
        await h.idle()

        (refusal,) = h.tg.texts(STRANGER)
        assert refusal == refusal_with_code(refusal, f"tg:{STRANGER}")
