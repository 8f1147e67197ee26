"""`lembra telegram --set-webhook` and `--polling` against the fake Bot API."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from agent.assembly import open_deps
from agent.clock import FakeClock
from agent.conversation import commands
from agent.conversation.runtime import Runtime
from agent.errors import ServiceUnavailable
from agent.tokens import TokenCounter
from bot.delivery.jobs import JobTimes
from bot.delivery.lifecycle import UpdateLifecycle
from bot.telegram.channel import run_polling
from storage import Database
from tests.bot.conftest import FAST, WEBHOOK_SECRET, channel_settings
from tests.support.fake_telegram import TOKEN, FakeTelegram, callback_update, message_update
from tests.support.scripted_runtime import ScriptedRuntime

WEBHOOK_URL = "https://bot.example.com/telegram/webhook"


async def _lembra(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "WHATSAPP_"))}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=clean | {"DATA_DIR": str(cwd / "data")} | env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


def _env(fake: FakeTelegram, **extra: str) -> dict[str, str]:
    return {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "TELEGRAM_WEBHOOK_URL": WEBHOOK_URL,
        "ADMIN_USER_IDS": "tg:111,wa:5511999990000,tg:222",
    } | extra


async def test_set_webhook_registers_the_url_secret_and_command_menus(
    fake_tg: FakeTelegram, tmp_path: Path
) -> None:
    code, out, err = await _lembra(
        ["telegram", "--set-webhook", "--drop-pending-updates"], _env(fake_tg), tmp_path
    )
    assert code == 0, err
    assert WEBHOOK_URL in err  # a status line: stderr
    assert WEBHOOK_SECRET not in out + err

    (webhook,) = fake_tg.sent("setWebhook")
    assert webhook.params["url"] == WEBHOOK_URL
    assert webhook.params["secret_token"] == WEBHOOK_SECRET
    assert webhook.params["allowed_updates"] == ["message", "edited_message", "callback_query"]
    assert webhook.params["drop_pending_updates"] == "true"

    menus = {
        (
            c.params["scope"]["type"],
            c.params["scope"].get("chat_id"),
            c.params.get("language_code"),
        ): [cmd["command"] for cmd in c.params["commands"]]
        for c in fake_tg.sent("setMyCommands")
    }
    user = ["start", "help", "list", "search", "undo", "remind", "lembretes", "tz", "pais", "lang"]
    user += ["export", "import", "memory", "why", "id", "cancel", "end", "delete_all", "forget"]
    admin = user + ["stats", "users", "quota", "ledger", "dream", "constitution", "allow", "deny"]
    assert set(admin) - set(user) == commands.ADMIN_COMMANDS  # the menu shows every admin command
    assert menus == {
        ("default", None, None): user,
        ("default", None, "pt"): user,
        ("default", None, "en"): user,
        ("chat", 111, None): admin,
        ("chat", 111, "pt"): admin,
        ("chat", 111, "en"): admin,
        ("chat", 222, None): admin,
        ("chat", 222, "pt"): admin,
        ("chat", 222, "en"): admin,
    }
    english = next(
        c for c in fake_tg.sent("setMyCommands") if c.params.get("language_code") == "en"
    )
    assert english.params["commands"][0] == {
        "command": "start",
        "description": "Start and privacy notice",
    }


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TELEGRAM_WEBHOOK_URL": ""}, "TELEGRAM_WEBHOOK_URL is required"),
        ({"TELEGRAM_WEBHOOK_URL": "http://bot.example.com/t"}, "must be an https URL"),
        ({"TELEGRAM_WEBHOOK_URL": "https://bot.example.com:8080/t"}, "443, 80, 88 or 8443"),
        ({"TELEGRAM_WEBHOOK_SECRET": "has spaces!"}, "TELEGRAM_WEBHOOK_SECRET must be"),
        ({"TELEGRAM_BOT_TOKEN": ""}, "TELEGRAM_BOT_TOKEN is required"),
    ],
)
async def test_set_webhook_explains_what_is_missing(
    fake_tg: FakeTelegram, tmp_path: Path, env: dict[str, str], message: str
) -> None:
    settings_env = _env(fake_tg) | env
    code, _, err = await _lembra(
        ["telegram", "--set-webhook"], {k: v for k, v in settings_env.items() if v}, tmp_path
    )
    assert code == 2
    assert message in err
    assert fake_tg.sent("setWebhook") == []


async def test_set_webhook_reports_a_refused_token(fake_tg: FakeTelegram, tmp_path: Path) -> None:
    code, _, err = await _lembra(
        ["telegram", "--set-webhook"], _env(fake_tg, TELEGRAM_BOT_TOKEN="999:other"), tmp_path
    )
    assert code == 2
    assert "TELEGRAM_BOT_TOKEN was rejected" in err


async def test_polling_handles_updates_with_the_same_handlers(
    db: Database, fake_tg: FakeTelegram, counter: TokenCounter
) -> None:
    runtime = ScriptedRuntime()
    chat = 5550301
    first = message_update(chat, "escolhe")
    async with open_deps(channel_settings(fake_tg, None), db=db, counter=counter) as deps:
        lifecycle = UpdateLifecycle(deps, runtime.handle, tuning=FAST.tuning)
        ready = asyncio.Event()
        polling = asyncio.create_task(
            run_polling(
                deps, lifecycle, options=FAST.telegram, ready=ready, drop_pending_updates=True
            )
        )
        try:
            await asyncio.wait_for(ready.wait(), timeout=10)
            fake_tg.push_update(first)
            await fake_tg.wait_for(lambda: len(fake_tg.texts(chat)) == 1)
            fake_tg.push_update(callback_update(chat, "c:pk1:1"))
            fake_tg.push_update(message_update(chat, None, extra={"new_chat_title": "x"}))
            await fake_tg.wait_for(lambda: len(fake_tg.texts(chat)) == 2)
        finally:
            polling.cancel()
            with pytest.raises(asyncio.CancelledError):
                await polling

    assert fake_tg.texts(chat) == [
        "Qual deles?\n1. Inception (2010)\n2. Inception (2014)",
        "escolheu 1 (pk1)",
    ]
    assert [i.kind for i in runtime.seen] == ["text", "choice"]
    assert fake_tg.sent("deleteWebhook")[0].params["drop_pending_updates"] == "true"
    assert len(fake_tg.sent("answerCallbackQuery")) == 1
    record = await db.updates.get(f"tg:{first['update_id']}")
    assert record is not None
    assert record.status == "done"


async def test_polling_runs_the_background_jobs_a_due_reminder_is_sent_once(
    db: Database, fake_tg: FakeTelegram, counter: TokenCounter
) -> None:
    """Failed before issue 30: polling confirmed reminders and never sent them."""
    chat = 5550302
    clock = FakeClock(datetime.now(UTC))
    settings = channel_settings(fake_tg, None, openai_api_key=None, openai_base_url=None)
    async with open_deps(settings, db=db, counter=counter, clock=clock) as deps:
        lifecycle = UpdateLifecycle(deps, Runtime(deps).handle, tuning=FAST.tuning)
        ready = asyncio.Event()
        jobs = JobTimes(background_every_s=0.05, reminders_every_s=0.05)
        polling = asyncio.create_task(run_polling(deps, lifecycle, ready=ready, jobs=jobs))
        try:
            await asyncio.wait_for(ready.wait(), timeout=10)
            fake_tg.push_update(
                message_update(chat, "me lembra daqui a 10 minutos de ligar pra Ana")
            )
            await fake_tg.wait_for(lambda: len(fake_tg.texts(chat)) == 1)
            assert "Vou te lembrar" in fake_tg.texts(chat)[0]

            clock.advance(10 * 60)
            await fake_tg.wait_for(lambda: len(fake_tg.texts(chat)) == 2)
            await asyncio.sleep(0.3)  # six more passes of the job: nothing is sent twice
        finally:
            polling.cancel()
            with pytest.raises(asyncio.CancelledError):
                await polling

    pushed = fake_tg.texts(chat)[1:]
    assert len(pushed) == 1
    assert "ligar pra Ana" in pushed[0]
    (reminder,) = await db.reminders.for_user(f"tg:{chat}")
    assert reminder.state == "sent"


async def test_a_failed_polling_start_leaves_no_client_session_open(
    db: Database, fake_tg: FakeTelegram, counter: TokenCounter
) -> None:
    """Issue 45: getMe failing (the Bot API down) left PTB's sessions to the garbage
    collector, which printed "Unclosed client session" errors after the command's own."""
    fake_tg.fail("getMe", 502, "Bad Gateway", times=1)
    unclosed: list[str] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: unclosed.append(str(context.get("message"))))
    try:
        async with open_deps(channel_settings(fake_tg, None), db=db, counter=counter) as deps:
            lifecycle = UpdateLifecycle(deps, ScriptedRuntime().handle, tuning=FAST.tuning)
            with pytest.raises(ServiceUnavailable, match="cannot reach the Telegram Bot API"):
                await run_polling(deps, lifecycle, options=FAST.telegram)
        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert [m for m in unclosed if "Unclosed" in m] == []
