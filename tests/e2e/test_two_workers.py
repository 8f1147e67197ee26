"""Two real `lembra serve` processes against one database server (DESIGN section 5).

Each test starts the workers as `python -m bot serve` subprocesses with MONGODB_URI
pointing at the shared in-memory nx-27017 server and TELEGRAM_API_BASE_URL at a fake
Bot API running in this test process, then talks to them over HTTP only.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from storage import Database
from storage.database import make_client
from storage.documents import ReminderDoc
from storage.embedded import free_port
from tests.support import fake_whatsapp as wa
from tests.support.fake_telegram import TOKEN, FakeTelegram, callback_update, message_update
from tests.support.fake_whatsapp import FakeWhatsApp
from tests.support.servers import RunningServer

SECRET = "two-workers-secret"


@dataclass
class Worker:
    url: str
    proc: asyncio.subprocess.Process
    log: Path

    async def post(self, session: aiohttp.ClientSession, update: dict[str, Any]) -> int:
        async with session.post(
            f"{self.url}/telegram/webhook",
            json=update,
            headers={"X-Telegram-Bot-Api-Secret-Token": SECRET},
        ) as response:
            return response.status

    async def post_whatsapp(self, session: aiohttp.ClientSession, payload: dict[str, Any]) -> int:
        body = wa.encode(payload)
        async with session.post(
            f"{self.url}/whatsapp/webhook",
            data=body,
            headers={"X-Hub-Signature-256": wa.sign(body), "Content-Type": "application/json"},
        ) as response:
            return response.status

    async def metric(self, session: aiohttp.ClientSession, sample: str) -> float:
        async with session.get(f"{self.url}/metrics") as response:
            for line in (await response.text()).splitlines():
                if line.startswith(sample + " "):
                    return float(line.split()[-1])
        return 0.0

    async def stop(self) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.proc.wait(), timeout=30)


@dataclass
class Cluster:
    db: Database
    tg: FakeTelegram
    wa: FakeWhatsApp
    start: Callable[..., Awaitable[list[Worker]]]  # (count, extra env=None)


@pytest.fixture
async def fake_tg() -> AsyncIterator[FakeTelegram]:
    fake = await FakeTelegram().start()
    yield fake
    await fake.close()


@pytest.fixture
async def fake_wa() -> AsyncIterator[FakeWhatsApp]:
    fake = await FakeWhatsApp().start()
    yield fake
    await fake.close()


# Settings the workers must not inherit from the machine running the tests.
_FOREIGN = ("TELEGRAM_", "WHATSAPP_", "OPENAI_", "LLM_", "TMDB_", "MONGODB_", "ADMIN_")


@pytest.fixture
async def cluster(
    nx_server: RunningServer, fake_tg: FakeTelegram, fake_wa: FakeWhatsApp, tmp_path: Path
) -> AsyncIterator[Cluster]:
    db_name = f"t_{uuid.uuid4().hex[:12]}"
    db = Database(make_client(nx_server.uri), db_name)
    await db.ensure_indexes()
    workers: list[Worker] = []
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(_FOREIGN)}

    async def start(count: int, extra: Mapping[str, str] | None = None) -> list[Worker]:
        started = []
        for n in range(count):
            port = free_port()
            log = tmp_path / f"worker{n}.log"
            env = (
                base_env
                | {
                    "MONGODB_URI": nx_server.uri,
                    "MONGODB_DB": db_name,
                    "HOST": "127.0.0.1",
                    "PORT": str(port),
                    "TELEGRAM_BOT_TOKEN": TOKEN,
                    "TELEGRAM_WEBHOOK_SECRET": SECRET,
                    "TELEGRAM_API_BASE_URL": fake_tg.base_url,
                    "WHATSAPP_ACCESS_TOKEN": wa.ACCESS_TOKEN,
                    "WHATSAPP_APP_SECRET": wa.APP_SECRET,
                    "WHATSAPP_VERIFY_TOKEN": wa.VERIFY_TOKEN,
                    "WHATSAPP_PHONE_NUMBER_ID": wa.PHONE_NUMBER_ID,
                    "WHATSAPP_API_BASE_URL": fake_wa.base_url,
                    "WHATSAPP_API_VERSION": wa.VERSION,
                    "DATA_DIR": str(tmp_path / "data"),
                    "LOG_LEVEL": "INFO",
                }
                | dict(extra or {})
            )
            with log.open("wb") as sink:
                proc = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    "serve",
                    env=env,
                    cwd=tmp_path,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=sink,
                    stderr=sink,
                )
            worker = Worker(f"http://127.0.0.1:{port}", proc, log)
            workers.append(worker)
            started.append(worker)
        async with aiohttp.ClientSession() as session:
            for worker in started:
                await _until_healthy(session, worker)
        return started

    try:
        yield Cluster(db, fake_tg, fake_wa, start)
    finally:
        for worker in workers:
            if worker.proc.returncode is None:
                await worker.stop()
        await db.drop()
        await db.close()


async def _until_healthy(session: aiohttp.ClientSession, worker: Worker) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if worker.proc.returncode is not None:
            raise AssertionError(f"worker exited: {worker.log.read_text()[-2000:]}")
        try:
            async with session.get(f"{worker.url}/healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"worker never became healthy: {worker.log.read_text()[-2000:]}")


async def _until_done(db: Database, update_ids: list[str], *, timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        records = [await db.updates.get(u) for u in update_ids]
        if all(r is not None and r.status == "done" for r in records):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("updates not finished in time")


async def test_the_same_update_posted_to_both_is_handled_once(cluster: Cluster) -> None:
    first, second = await cluster.start(2)
    chat = 6660001
    update = message_update(chat, "oi")
    async with aiohttp.ClientSession() as session:
        statuses = await asyncio.gather(first.post(session, update), second.post(session, update))
        assert statuses == [200, 200]
        await _until_done(cluster.db, [f"tg:{update['update_id']}"])
        await cluster.tg.wait_for(lambda: len(cluster.tg.texts(chat)) == 1)

        received = duplicated = 0.0
        for worker in (first, second):
            received += await worker.metric(
                session, 'lembra_updates_total{channel="telegram",outcome="received"}'
            )
            duplicated += await worker.metric(
                session, 'lembra_updates_total{channel="telegram",outcome="duplicated"}'
            )
    assert (received, duplicated) == (1, 1)
    assert len(cluster.tg.texts(chat)) == 1
    record = await cluster.db.updates.get(f"tg:{update['update_id']}")
    assert record is not None
    assert record.status == "done"
    assert json.loads(record.reply_json or "null")["text"] == cluster.tg.texts(chat)[0]


async def test_one_chat_is_never_handled_by_both_at_once_while_chats_run_in_parallel(
    cluster: Cluster,
) -> None:
    first, second = await cluster.start(2)
    tg, db = cluster.tg, cluster.db
    chat, other = 6660002, 6660003
    holders: list[str | None] = []

    async def note_holder(chat_id: int) -> None:
        if chat_id == chat:
            key = f"chat:tg:{chat}"
            holders.append(await db.leases.holder(key, now_ms=int(time.time() * 1000)))

    async with aiohttp.ClientSession() as session:
        # Different chats proceed together: two sends are in flight at the same time.
        tg.gate(2)
        await first.post(session, message_update(chat, "oi"))
        await first.post(session, message_update(other, "oi"))
        await tg.wait_for(lambda: len(tg.texts(chat)) == 1 and len(tg.texts(other)) == 1)
        assert tg.gate_opened

        # One chat spread over both workers: never two of its turns at once.
        tg.on_send = note_holder
        tg.hold_sends_s = 0.05
        updates = [message_update(chat, f"m{n}") for n in range(12)]
        statuses = await asyncio.gather(
            *((first if n % 2 else second).post(session, u) for n, u in enumerate(updates))
        )
        assert statuses == [200] * 12
        await _until_done(db, [f"tg:{u['update_id']}" for u in updates])

    assert len(tg.texts(chat)) == 13
    assert tg.max_in_flight[chat] == 1
    assert len(holders) == 12
    assert None not in holders
    # Not "both took turns": the lease holder also runs the chat's updates queued in the
    # other (arrival order, issue 15), so one of them may run them all.


async def test_the_redrive_runs_in_one_process_only(cluster: Cluster) -> None:
    # What crashed workers left: updates recorded `received` two minutes ago.
    stale = [message_update(6660100 + n, "oi") for n in range(6)]
    old_ms = int(time.time() * 1000) - 120_000
    for update in stale:
        await cluster.db.updates.record(
            f"tg:{update['update_id']}", json.dumps(update), now_ms=old_ms
        )
    first, second = await cluster.start(2)
    await _until_done(cluster.db, [f"tg:{u['update_id']}" for u in stale])

    assert sorted(c.chat_id or 0 for c in cluster.tg.sent()) == [6660100 + n for n in range(6)]
    sample = 'lembra_updates_total{channel="telegram",outcome="redriven"}'
    async with aiohttp.ClientSession() as session:
        redriven = sorted(
            [await first.metric(session, sample), await second.metric(session, sample)]
        )
    assert redriven == [0, 6]
    leader = await cluster.db.leases.holder("job:redrive", now_ms=int(time.time() * 1000))
    assert leader is not None


async def test_sigterm_finishes_the_turn_in_flight_then_exits(cluster: Cluster) -> None:
    (worker,) = await cluster.start(1)
    chat = 6660200
    sending = asyncio.Event()

    async def hold(chat_id: int) -> None:
        sending.set()

    cluster.tg.on_send = hold
    cluster.tg.hold_sends_s = 1.0
    update = message_update(chat, "oi")
    async with aiohttp.ClientSession() as session:
        assert await worker.post(session, update) == 200
    await asyncio.wait_for(sending.wait(), timeout=10)

    code = await worker.stop()  # SIGTERM while the reply is on its way

    assert code == 0  # SIGTERM is the normal stop: a clean shutdown exits 0
    assert len(cluster.tg.texts(chat)) == 1
    record = await cluster.db.updates.get(f"tg:{update['update_id']}")
    assert record is not None
    assert record.status == "done"
    assert '"event": "channels_stopped"' in worker.log.read_text()


async def test_a_telegram_conversation_spread_over_both_workers_runs_the_real_runtime(
    cluster: Cluster,
) -> None:
    first, second = await cluster.start(2)
    tg, chat = cluster.tg, 6660300

    async with aiohttp.ClientSession() as session:

        async def say(worker: Worker, update: dict[str, Any]) -> str:
            before = len(tg.texts(chat))
            assert await worker.post(session, update) == 200
            await tg.wait_for(lambda: len(tg.texts(chat)) > before, timeout_s=20)
            return tg.texts(chat)[-1]

        assert "comprar leite" in await say(first, message_update(chat, "anota: comprar leite"))
        assert "comprar leite" in await say(second, message_update(chat, "lista"))
        preview = await say(first, message_update(chat, "apaga tudo"))
        assert "1 item" in preview
        (buttons,) = tg.sent(chat_id=chat)[-1].params["reply_markup"]["inline_keyboard"]
        assert [b["text"] for b in buttons] == ["Sim", "Não"]
        assert await cluster.db.items.list_for(f"tg:{chat}") != []  # nothing deleted yet

        done = await say(second, callback_update(chat, buttons[0]["callback_data"]))
        assert "Apaguei 1 item" in done
        assert await say(first, message_update(chat, "lista")) == "Você ainda não salvou nada."

    assert await cluster.db.items.list_for(f"tg:{chat}") == []
    assert len(tg.sent("answerCallbackQuery")) == 1
    for worker in (first, second):
        assert '"job_failed"' not in worker.log.read_text()
        # no model configured: each worker said at start that the offline planner plans
        assert "the offline rule-based planner is active" in worker.log.read_text()


async def test_a_whatsapp_conversation_runs_the_real_runtime(cluster: Cluster) -> None:
    first, second = await cluster.start(2)
    phone = "5511988887777"
    fake = cluster.wa

    async with aiohttp.ClientSession() as session:

        async def say(worker: Worker, content: dict[str, Any]) -> dict[str, Any]:
            before = len(fake.sent_to(phone))
            assert await worker.post_whatsapp(session, wa.message_payload(phone, content)) == 200
            await fake.wait_for(lambda: len(fake.sent_to(phone)) > before, timeout_s=20)
            return fake.sent_to(phone)[-1]

        saved = await say(first, wa.text_content("anota: comprar pão"))
        assert "comprar pão" in saved["text"]["body"]
        confirm = await say(second, wa.text_content("apaga tudo"))
        assert confirm["type"] == "interactive"
        buttons = confirm["interactive"]["action"]["buttons"]
        assert [b["reply"]["title"] for b in buttons] == ["Sim", "Não"]

        done = await say(first, wa.button_reply_content(buttons[0]["reply"]["id"]))
        assert "Apaguei 1 item" in done["text"]["body"]

    assert await cluster.db.items.list_for(f"wa:{phone}") == []


async def test_each_chat_keeps_its_order_when_its_messages_alternate_between_workers(
    cluster: Cluster,
) -> None:
    """Failed on main before issue 15 (20 of 20 chats out of order, e.g. [0,2,1,3]):
    each worker handled its own queue, so the one that kept the chat's lease ran all of
    its messages first. Now the lease holder handles the chat's queue in arrival order."""
    first, second = await cluster.start(2)
    tg = cluster.tg
    tg.hold_sends_s = 0.03  # a turn takes a while: the next message arrives meanwhile
    chats = [6660400 + n for n in range(20)]
    per_chat = 4

    async def converse(session: aiohttp.ClientSession, chat: int) -> list[str]:
        ids = []
        for n in range(per_chat):  # strictly in sequence: the next only after the 200
            update = message_update(chat, f"anota: pedido {n}")
            assert await (second if n % 2 else first).post(session, update) == 200
            ids.append(f"tg:{update['update_id']}")
        return ids

    async with aiohttp.ClientSession() as session:
        ids = await asyncio.gather(*(converse(session, chat) for chat in chats))
    await _until_done(cluster.db, [i for chat_ids in ids for i in chat_ids], timeout_s=60)

    def order(chat: int) -> list[int]:
        return [int(t.split("pedido ")[1][0]) for t in tg.texts(chat) if "pedido " in t]

    out_of_order = {chat: order(chat) for chat in chats if order(chat) != list(range(per_chat))}
    assert out_of_order == {}


async def test_reminders_are_sent_once_each_when_a_worker_is_killed_mid_delivery(
    cluster: Cluster,
) -> None:
    """DESIGN 9.3: the sender dies after claiming and sending, before marking it sent."""
    fast = {"REMINDER_RECLAIM_S": "1", "REMINDERS_EVERY_S": "0.2"}
    workers = await cluster.start(2, fast)
    tg, db = cluster.tg, cluster.db
    tg.drop("sendMessage", after_s=30)  # the first push hangs; its worker is killed meanwhile
    chats = [6660500 + n for n in range(6)]
    due_ms = int(time.time() * 1000) - 1000
    for n, chat in enumerate(chats):
        await db.reminders.add(_due_reminder(f"rem{n}", chat, f"tomar remédio {n}", due_ms))

    await tg.wait_for(lambda: len(tg.attempts("sendMessage")) == 1, timeout_s=20)
    (hung,) = tg.attempts("sendMessage")
    hung_chat = int(hung.chat_id or 0)
    claimed = await db.reminders.get(f"tg:{hung_chat}", f"rem{chats.index(hung_chat)}")
    assert claimed is not None
    assert claimed.state == "sending"
    (victim,) = [w for w in workers if f":{w.proc.pid}:" in (claimed.claimed_by or "")]
    victim.proc.send_signal(signal.SIGKILL)
    assert await victim.proc.wait() == -signal.SIGKILL

    final = await _until_all_sent(db, chats)
    for n, chat in enumerate(chats):  # 0 lost, 0 duplicated
        (delivered,) = tg.texts(chat)
        assert f"tomar remédio {n}" in delivered
    assert len(tg.attempts("sendMessage")) == len(chats) + 1  # the hung one, once more
    retried = final[chats.index(hung_chat)]
    assert retried is not None
    assert retried.attempts == 2
    assert retried.claimed_by != claimed.claimed_by
    (survivor,) = [w for w in workers if w is not victim]
    assert '"job_failed"' not in survivor.log.read_text()


def _due_reminder(reminder_id: str, chat: int, what: str, due_ms: int) -> ReminderDoc:
    return ReminderDoc(
        _id=reminder_id,
        user_id=f"tg:{chat}",
        channel="telegram",
        chat_id=str(chat),
        text=what,
        timezone="America/Sao_Paulo",
        due_at_ms=due_ms,
        wake_at_ms=due_ms,
        created_at_ms=due_ms,
        updated_at_ms=due_ms,
    )


async def _until_all_sent(db: Database, chats: list[int]) -> list[ReminderDoc]:
    """The reminders `rem<n>` of `chats`, once every one of them is marked sent."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = [await db.reminders.get(f"tg:{chat}", f"rem{n}") for n, chat in enumerate(chats)]
        if all(r is not None and r.state == "sent" for r in found):
            return [r for r in found if r is not None]
        await asyncio.sleep(0.1)
    raise AssertionError("reminders not all sent in time")
