"""A fake Telegram Bot API on loopback, so PTB's real request code runs in tests.

Speaks the Bot API's wire format (`POST /bot<token>/<method>`, form or multipart
parameters, `{"ok": ..., "result" | "error_code", "description", "parameters"}`)
for the methods Lembra uses (setWebhook and deleteWebhook change what getWebhookInfo
says, setMyCommands what getMyCommands answers, as on Telegram), serves files as api.telegram.org does (`getFile`, then
`GET /file/bot<token>/<file_path>`; `add_file` puts one there; over 20 MB getFile
answers "file is too big"), records every call, and can be told to misbehave:
answer an error (429 with retry_after, 403 blocked, 5xx), hold a request and then
drop it (a timeout), hold every send a while (to observe concurrency), or wait for
several sends to be in flight at once (to prove chats run in parallel).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

TOKEN = "123456:TEST-token"
GET_FILE_MAX_BYTES = 20 * 1024 * 1024  # what the cloud Bot API lets bots download
BOT_USER = {
    "id": 123456,
    "is_bot": True,
    "first_name": "Lembra",
    "username": "lembra_test_bot",
    "can_join_groups": True,
    "can_read_all_group_messages": False,
    "supports_inline_queries": False,
}
_JSON_FIELDS = frozenset(
    {
        "reply_markup",
        "commands",
        "scope",
        "allowed_updates",
        "chat_id",
        "offset",
        "timeout",
        "link_preview_options",
        "message_id",
    }
)


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    status: int = 200
    at: float = field(default_factory=time.monotonic)
    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)

    @property
    def chat_id(self) -> int | None:
        value = self.params.get("chat_id")
        return value if isinstance(value, int) else None

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass
class StoredFile:
    """A file users sent, as the Bot API keeps it."""

    file_id: str
    data: bytes
    path: str
    announced_size: int | None  # what getFile says (None: the real size)


@dataclass
class _Fault:
    status: int
    description: str
    retry_after: int | None
    delay_s: float


class FakeTelegram:
    def __init__(self, token: str = TOKEN) -> None:
        self.token = token
        self.calls: list[Call] = []
        self.answered: Counter[str] = Counter()  # successful calls per method (cheap to poll)
        self.hold_sends_s = 0.0
        self.on_send: Callable[[int], Awaitable[None]] | None = None
        self.max_in_flight: dict[int, int] = defaultdict(int)
        self.gate_opened = False
        self._faults: dict[str, list[_Fault]] = defaultdict(list)
        self._blocked: set[int] = set()
        self._in_flight: dict[int, int] = defaultdict(int)
        self._gate: tuple[int, float] | None = None
        self._gate_event = asyncio.Event()
        self._updates: list[dict[str, Any]] = []
        self._changed = asyncio.Condition()
        # what getWebhookInfo answers; tests set pending updates and the last error
        self.webhook_info: dict[str, Any] = {
            "url": "",
            "has_custom_certificate": False,
            "pending_update_count": 0,
        }
        # the command menus set, by (scope type, chat id, language code)
        self.menus: dict[tuple[str, int | None, str], list[dict[str, str]]] = {}
        self._message_ids = itertools.count(1)
        self.files: dict[str, StoredFile] = {}
        self.downloads: list[str] = []  # file paths downloaded, in order (answered 200)
        self.download_faults: list[int] = []  # statuses the next downloads answer
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self, *, port: int = 0) -> FakeTelegram:
        app = web.Application()
        app.router.add_post("/bot{token}/{method}", self._handle)
        app.router.add_get("/bot{token}/{method}", self._handle)
        app.router.add_get("/file/bot{token}/{path:.+}", self._download)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        """What TELEGRAM_API_BASE_URL should be (PTB appends the token)."""
        return f"http://127.0.0.1:{self.port}/bot"

    def add_file(
        self, file_id: str, data: bytes, *, path: str | None = None, size: int | None = None
    ) -> StoredFile:
        """Keep a file users sent; `size` makes getFile announce another size than the real one."""
        stored = StoredFile(file_id, data, path or f"files/file_{len(self.files)}.bin", size)
        self.files[file_id] = stored
        return stored

    # -- steering --------------------------------------------------------------------------

    def fail(
        self,
        method: str,
        status: int,
        description: str = "Internal Server Error",
        *,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next `times` calls of `method` with this error."""
        for _ in range(times):
            self._faults[method].append(_Fault(status, description, retry_after, 0.0))

    def drop(self, method: str, *, after_s: float, times: int = 1) -> None:
        """Hold the next `times` calls of `method` for `after_s`, then drop the connection."""
        for _ in range(times):
            self._faults[method].append(_Fault(0, "", None, after_s))

    def block(self, chat_id: int) -> None:
        """The user of `chat_id` blocked the bot: sends answer 403."""
        self._blocked.add(chat_id)

    def gate(self, count: int, *, timeout_s: float = 10.0) -> None:
        """Hold sends until `count` of them are in flight together (or `timeout_s` passes)."""
        self._gate = (count, timeout_s)
        self.gate_opened = False
        self._gate_event = asyncio.Event()

    def push_update(self, update: dict[str, Any]) -> None:
        """Queue an update for getUpdates (polling)."""
        self._updates.append(update)
        asyncio.get_running_loop().create_task(self._notify())

    # -- observing -------------------------------------------------------------------------

    def sent(self, method: str = "sendMessage", chat_id: int | None = None) -> list[Call]:
        """Calls of `method` that were answered with success."""
        return [
            c
            for c in self.calls
            if c.method == method and c.ok and (chat_id is None or c.chat_id == chat_id)
        ]

    def texts(self, chat_id: int | None = None) -> list[str]:
        return [str(c.params.get("text", "")) for c in self.sent("sendMessage", chat_id)]

    def attempts(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    async def wait_for(self, predicate: Callable[[], bool], *, timeout_s: float = 10.0) -> None:
        """Wait until `predicate()` holds; fail the test after `timeout_s`."""
        async with asyncio.timeout(timeout_s):
            async with self._changed:
                await self._changed.wait_for(predicate)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # -- the Bot API -----------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        method = request.match_info["method"]
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        params, files = await _parameters(request)
        call = Call(method, params, files=files)
        self.calls.append(call)
        await self._notify()  # `attempts` waiters see a call that hangs (`drop`) at once
        try:
            response = await self._answer(call)
            if call.ok:
                self.answered[method] += 1
            return response
        finally:
            await self._notify()

    async def _answer(self, call: Call) -> web.StreamResponse:
        faults = self._faults.get(call.method)
        if faults:
            fault = faults.pop(0)
            if fault.delay_s:
                call.status = 0  # never answered: the client times out
                await asyncio.sleep(fault.delay_s)
                raise asyncio.CancelledError  # aiohttp closes the connection without a reply
            call.status = fault.status
            return _error(fault.status, fault.description, retry_after=fault.retry_after)
        if call.method in ("sendMessage", "sendDocument"):
            return await self._send(call)
        if call.method == "getFile":
            return self._get_file(call)
        result = self._result(call)
        if result is None:
            call.status = 404
            return _error(404, "Not Found")
        if isinstance(result, Awaitable):
            result = await result
        return web.json_response({"ok": True, "result": result})

    async def _send(self, call: Call) -> web.StreamResponse:
        chat_id = call.chat_id or 0
        if chat_id in self._blocked:
            call.status = 403
            return _error(403, "Forbidden: bot was blocked by the user")
        self._in_flight[chat_id] += 1
        self.max_in_flight[chat_id] = max(self.max_in_flight[chat_id], self._in_flight[chat_id])
        try:
            if self.on_send is not None:
                await self.on_send(chat_id)
            await self._pass_gate()
            if self.hold_sends_s:
                await asyncio.sleep(self.hold_sends_s)
        finally:
            self._in_flight[chat_id] -= 1
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": chat_id, "type": "private" if chat_id > 0 else "group"},
        }
        if call.method == "sendMessage":
            message["text"] = call.params.get("text", "")
        else:
            name = next(iter(call.files.values()), ("file", b""))[0]
            message["document"] = {"file_id": "doc-1", "file_unique_id": "u-1", "file_name": name}
        return web.json_response({"ok": True, "result": message})

    async def _pass_gate(self) -> None:
        if self._gate is None:
            return
        count, timeout_s = self._gate
        if sum(self._in_flight.values()) >= count:
            self.gate_opened = True
            self._gate_event.set()
            self._gate = None
            return
        try:
            async with asyncio.timeout(timeout_s):
                await self._gate_event.wait()
        except TimeoutError:
            self._gate = None

    def _get_file(self, call: Call) -> web.Response:
        stored = self.files.get(str(call.params.get("file_id", "")))
        if stored is None:
            call.status = 400
            return _error(400, "Bad Request: invalid file_id")
        size = stored.announced_size if stored.announced_size is not None else len(stored.data)
        if size > GET_FILE_MAX_BYTES:
            call.status = 400
            return _error(400, "Bad Request: file is too big")
        file = {
            "file_id": stored.file_id,
            "file_unique_id": f"u-{stored.file_id[-8:]}",
            "file_size": size,
            "file_path": stored.path,
        }
        return web.json_response({"ok": True, "result": file})

    async def _download(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["token"] != self.token:
            return _error(404, "Not Found")
        path = request.match_info["path"]
        stored = next((f for f in self.files.values() if f.path == path), None)
        try:
            if self.download_faults:
                return web.Response(status=self.download_faults.pop(0))
            if stored is None:
                return _error(404, "Not Found")
            self.downloads.append(path)
            return web.Response(body=stored.data, content_type="application/octet-stream")
        finally:
            await self._notify()

    def _result(self, call: Call) -> Any:
        if call.method == "getMe":
            return BOT_USER
        if call.method == "setWebhook":  # what getWebhookInfo says from now on, as Telegram does
            self.webhook_info["url"] = str(call.params.get("url", ""))
            self.webhook_info["allowed_updates"] = call.params.get("allowed_updates") or []
            self.webhook_info["max_connections"] = int(call.params.get("max_connections") or 40)
            return True
        if call.method == "deleteWebhook":
            self.webhook_info["url"] = ""
            return True
        if call.method == "setMyCommands":
            self.menus[_menu_key(call.params)] = list(call.params.get("commands") or [])
            return True
        if call.method == "getMyCommands":
            return self.menus.get(_menu_key(call.params), [])
        if call.method in (
            "sendChatAction",
            "answerCallbackQuery",
            "editMessageText",
            "editMessageReplyMarkup",
        ):
            return True
        if call.method == "getWebhookInfo":
            return self.webhook_info
        if call.method == "getUpdates":
            return self._get_updates(call.params)
        return None

    async def _get_updates(self, params: dict[str, Any]) -> list[dict[str, Any]]:
        offset = int(params.get("offset") or 0)
        wait_s = min(float(params.get("timeout") or 0), 0.5)
        deadline = time.monotonic() + wait_s
        while True:
            ready = [u for u in self._updates if u["update_id"] >= offset]
            if ready or time.monotonic() >= deadline:
                return ready
            await asyncio.sleep(0.02)


async def _parameters(request: web.Request) -> tuple[dict[str, Any], dict[str, tuple[str, bytes]]]:
    params: dict[str, Any] = {}
    files: dict[str, tuple[str, bytes]] = {}
    if request.content_type == "application/json":
        params = dict(await request.json())
        return params, files
    form = await request.post()
    for key, value in form.items():
        if isinstance(value, web.FileField):
            files[key] = (value.filename, value.file.read())
        elif key in _JSON_FIELDS:
            try:
                params[key] = json.loads(value)
            except ValueError:
                params[key] = value
        else:
            params[key] = value
    return params, files


def _menu_key(params: dict[str, Any]) -> tuple[str, int | None, str]:
    scope = params.get("scope") or {"type": "default"}
    chat = scope.get("chat_id")
    return (
        str(scope.get("type")),
        chat if isinstance(chat, int) else None,
        str(params.get("language_code") or ""),
    )


def _error(status: int, description: str, *, retry_after: int | None = None) -> web.Response:
    body: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return web.json_response(body, status=status)


# -- real-shaped updates ------------------------------------------------------------------

_update_ids = itertools.count(700_000_001)


def user(user_id: int, *, language: str = "pt-br", first_name: str = "Ana") -> dict[str, Any]:
    return {
        "id": user_id,
        "is_bot": False,
        "first_name": first_name,
        "language_code": language,
    }


def private_chat(chat_id: int) -> dict[str, Any]:
    return {"id": chat_id, "type": "private", "first_name": "Ana"}


def message_update(
    chat_id: int,
    text: str | None = "oi",
    *,
    update_id: int | None = None,
    from_id: int | None = None,
    chat: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
    language: str = "pt-br",
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "message_id": 10,
        "date": int(time.time()),
        "chat": chat or private_chat(chat_id),
        "from": user(from_id or chat_id, language=language),
    }
    if text is not None:
        message["text"] = text
    message.update(extra or {})
    return {"update_id": update_id or next(_update_ids), "message": message}


def callback_update(
    chat_id: int,
    data: str,
    *,
    update_id: int | None = None,
    language: str = "pt-br",
    message_text: str = "Qual?",
    buttons: list[list[tuple[str, str]]] | None = None,
) -> dict[str, Any]:
    """A button press; `buttons` ((label, data) rows) is the keyboard the message carried."""
    update = {
        "update_id": update_id or next(_update_ids),
        "callback_query": {
            "id": f"cbq-{next(_update_ids)}",
            "from": user(chat_id, language=language),
            "chat_instance": "ci-1",
            "data": data,
            "message": {
                "message_id": 11,
                "date": int(time.time()),
                "chat": private_chat(chat_id),
                "from": BOT_USER,
                "text": message_text,
            },
        },
    }
    if buttons is not None:
        keyboard = [[{"text": t, "callback_data": d} for t, d in row] for row in buttons]
        update["callback_query"]["message"]["reply_markup"] = {"inline_keyboard": keyboard}
    return update


def voice_update(
    chat_id: int,
    file_id: str,
    *,
    seconds: float | None = 3,
    size: int | None = None,
    mime_type: str | None = "audio/ogg",
    key: str = "voice",
    update_id: int | None = None,
    language: str = "pt-br",
) -> dict[str, Any]:
    """A voice note (or `audio`, `video_note`) as Telegram announces it; None leaves a field out."""
    part: dict[str, Any] = {"file_id": file_id, "file_unique_id": f"u-{file_id[-8:]}"}
    for name, value in (("duration", seconds), ("file_size", size), ("mime_type", mime_type)):
        if value is not None:
            part[name] = value
    return message_update(chat_id, None, update_id=update_id, extra={key: part}, language=language)


def document_update(
    chat_id: int,
    file_id: str,
    *,
    file_name: str = "lista.txt",
    mime_type: str = "text/plain",
    size: int | None = None,
    caption: str | None = None,
    update_id: int | None = None,
    language: str = "pt-br",
) -> dict[str, Any]:
    """A document as Telegram announces it."""
    document: dict[str, Any] = {
        "file_id": file_id,
        "file_unique_id": f"u-{file_id[-8:]}",
        "file_name": file_name,
        "mime_type": mime_type,
    }
    if size is not None:
        document["file_size"] = size
    extra: dict[str, Any] = {"document": document}
    if caption is not None:
        extra["caption"] = caption
    return message_update(chat_id, None, update_id=update_id, extra=extra, language=language)


def next_update_id() -> int:
    return next(_update_ids)
