"""A fake WhatsApp Cloud API (Graph API) on loopback, plus real-shaped webhook payloads.

Records `POST /<version>/<phone_number_id>/messages` (and `/media` uploads), checks
the bearer token, and can be told to fail the next sends (5xx, 429, or a Graph
error code such as 131047, "outside the 24-hour window"). Serves media users sent as
the Cloud API does: `GET /<version>/<media-id>` answers its `url`, `mime_type` and
`file_size`, and that URL (as lookaside.fbsbx.com) gives the bytes only to the bearer
token; `add_media` puts one there. `GET /<version>/<phone-number-id>` answers the
number's node (`display_phone_number`, `verified_name`) to the bearer token.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

ACCESS_TOKEN = "wa-access-token"
APP_SECRET = "wa-app-secret"
VERIFY_TOKEN = "wa-verify-token"
PHONE_NUMBER_ID = "109876543210"
VERSION = "v21.0"


@dataclass
class StoredMedia:
    media_id: str
    data: bytes
    mime_type: str
    announced_size: int | None  # what the lookup says (None: the real size)


@dataclass
class _Fault:
    status: int
    code: int
    retry_after: int | None


class FakeWhatsApp:
    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.attempts = 0
        self.media: list[tuple[str, str, bytes]] = []
        self.refuse_receipts = False
        self.stored_media: dict[str, StoredMedia] = {}
        self.lookups: list[tuple[str, bool]] = []  # (media id, bearer token right)
        self.downloads: list[tuple[str, bool]] = []  # (media id, bearer token right)
        self.download_faults: list[int] = []  # statuses the next downloads answer
        self.media_base_url: str | None = None  # where lookups point downloads (None: here)
        self._faults: list[_Fault] = []
        self._stalls: list[float] = []
        self._ids = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self) -> FakeWhatsApp:
        app = web.Application()
        app.router.add_post("/{version}/{phone}/messages", self._message)
        app.router.add_post("/{version}/{phone}/media", self._media)
        app.router.add_get("/whatsapp_business/attachments/", self._download)
        app.router.add_get("/{version}/{media_id}", self._lookup)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def fail(
        self, status: int, *, code: int = 131000, retry_after: int | None = None, times: int = 1
    ) -> None:
        for _ in range(times):
            self._faults.append(_Fault(status, code, retry_after))

    def stall(self, *, after_s: float, times: int = 1) -> None:
        """Accept the next `times` sends, then hold their answers for `after_s` (the answer is lost)."""
        self._stalls.extend([after_s] * times)

    def add_media(
        self, media_id: str, data: bytes, *, mime_type: str = "audio/ogg", size: int | None = None
    ) -> StoredMedia:
        """Keep media a user sent; `size` makes the lookup announce another size than the real one."""
        stored = StoredMedia(media_id, data, mime_type, size)
        self.stored_media[media_id] = stored
        return stored

    def receipts(self) -> list[dict[str, Any]]:
        """Read receipts (each with its typing indicator), in order."""
        return [m for m in self.messages if m.get("status") == "read"]

    def sent_to(self, to: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m.get("to") == to]

    def bodies(self, to: str) -> list[str]:
        """The visible text of each message sent to `to` (text body or interactive body)."""
        out = []
        for m in self.sent_to(to):
            if m["type"] == "text":
                out.append(m["text"]["body"])
            elif m["type"] == "interactive":
                out.append(m["interactive"]["body"]["text"])
        return out

    async def wait_for(self, predicate: Callable[[], bool], *, timeout_s: float = 10.0) -> None:
        async with asyncio.timeout(timeout_s):
            async with self._changed:
                await self._changed.wait_for(predicate)

    def _authorized(self, request: web.Request) -> web.Response | None:
        ok_path = (
            request.match_info["version"] == VERSION
            and request.match_info["phone"] == PHONE_NUMBER_ID
        )
        if request.headers.get("Authorization") != f"Bearer {ACCESS_TOKEN}" or not ok_path:
            return _graph_error(401, 190, "Invalid OAuth access token")
        return None

    async def _message(self, request: web.Request) -> web.Response:
        try:
            refused = self._authorized(request)
            if refused is not None:
                return refused
            body = await request.json()
            if body.get("status") == "read":  # a read receipt (with typing indicator)
                if self.refuse_receipts:
                    return _graph_error(500, 131000, "fault")
                self.messages.append(body)
                return web.json_response({"success": True})
            # faults and attempts are for sends: receipts have their own switch above
            self.attempts += 1
            if self._faults:
                fault = self._faults.pop(0)
                headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after else None
                return _graph_error(fault.status, fault.code, "fault", headers=headers)
            self.messages.append(body)
            if self._stalls:  # delivered, and the client gives up waiting for the answer
                await asyncio.sleep(self._stalls.pop(0))
            return web.json_response(
                {
                    "messaging_product": "whatsapp",
                    "contacts": [{"input": body.get("to"), "wa_id": body.get("to")}],
                    "messages": [{"id": f"wamid.out.{next(self._ids)}"}],
                }
            )
        finally:
            async with self._changed:
                self._changed.notify_all()

    def _bearer(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bearer {ACCESS_TOKEN}"

    async def _lookup(self, request: web.Request) -> web.Response:
        media_id = request.match_info["media_id"]
        if media_id == PHONE_NUMBER_ID:
            return self._phone_number(request)
        self.lookups.append((media_id, self._bearer(request)))
        if not self._bearer(request):
            return _graph_error(401, 190, "Invalid OAuth access token")
        stored = self.stored_media.get(media_id)
        if request.match_info["version"] != VERSION or stored is None:
            return _graph_error(400, 100, "Unsupported get request")
        size = stored.announced_size if stored.announced_size is not None else len(stored.data)
        return web.json_response(
            {
                "messaging_product": "whatsapp",
                "url": f"{self.media_base_url or self.base_url}"
                f"/whatsapp_business/attachments/?mid={media_id}&ext=1",
                "mime_type": stored.mime_type,
                "sha256": hashlib.sha256(stored.data).hexdigest(),
                "file_size": size,
                "id": media_id,
            }
        )

    def _phone_number(self, request: web.Request) -> web.Response:
        """`GET /<version>/<phone-number-id>`: the number's node, as the Graph API answers it."""
        if not self._bearer(request):
            return _graph_error(401, 190, "Invalid OAuth access token - Cannot parse access token")
        if request.match_info["version"] != VERSION:
            return _graph_error(400, 100, "Unsupported get request.")
        node = {
            "verified_name": "Lembra Test",
            "code_verification_status": "VERIFIED",
            "display_phone_number": "+55 11 90000-0000",
            "quality_rating": "GREEN",
            "id": PHONE_NUMBER_ID,
        }
        wanted = request.query.get("fields")
        if wanted:  # the Graph API answers the fields asked for, and the id
            node = {k: v for k, v in node.items() if k in wanted.split(",") or k == "id"}
        return web.json_response(node)

    async def _download(self, request: web.Request) -> web.Response:
        media_id = request.query.get("mid", "")
        self.downloads.append((media_id, self._bearer(request)))
        try:
            if not self._bearer(request):
                return web.Response(status=401)  # lookaside answers without a body
            if self.download_faults:
                return web.Response(status=self.download_faults.pop(0))
            stored = self.stored_media.get(media_id)
            if stored is None:
                return web.Response(status=404)
            return web.Response(body=stored.data, content_type=stored.mime_type.split(";")[0])
        finally:
            async with self._changed:
                self._changed.notify_all()

    async def _media(self, request: web.Request) -> web.Response:
        refused = self._authorized(request)
        if refused is not None:
            return refused
        form = await request.post()
        upload = form["file"]
        assert isinstance(upload, web.FileField)
        self.media.append((upload.filename, str(form["type"]), upload.file.read()))
        return web.json_response({"id": f"media-{next(self._ids)}"})


def _graph_error(
    status: int, code: int, message: str, *, headers: dict[str, str] | None = None
) -> web.Response:
    body = {"error": {"message": message, "type": "OAuthException", "code": code}}
    return web.json_response(body, status=status, headers=headers)


# -- real-shaped webhook payloads ---------------------------------------------------------

_wamids = itertools.count(1)


def sign(body: bytes, secret: str = APP_SECRET) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def new_wamid() -> str:
    return f"wamid.HBgNNTUxMTk5OTk5MDAwMBUCABIYFjNFQjA{next(_wamids):06d}"


def envelope(value: dict[str, Any], *, phone_number_id: str = PHONE_NUMBER_ID) -> dict[str, Any]:
    return {
        "object": "whatsapp_business_account",
        "entry": [
            {
                "id": "102290129340398",
                "changes": [
                    {
                        "field": "messages",
                        "value": {
                            "messaging_product": "whatsapp",
                            "metadata": {
                                "display_phone_number": "15550783881",
                                "phone_number_id": phone_number_id,
                            },
                            **value,
                        },
                    }
                ],
            }
        ],
    }


def message_payload(
    phone: str,
    content: dict[str, Any],
    *,
    wamid: str | None = None,
    timestamp: int | None = None,
    name: str = "Ana",
    phone_number_id: str = PHONE_NUMBER_ID,
) -> dict[str, Any]:
    """A `messages` webhook with one message; `content` holds `type` and its object."""
    message = {
        "from": phone,
        "id": wamid or new_wamid(),
        "timestamp": str(timestamp if timestamp is not None else int(time.time())),
        **content,
    }
    return envelope(
        {"contacts": [{"profile": {"name": name}, "wa_id": phone}], "messages": [message]},
        phone_number_id=phone_number_id,
    )


def text_content(body: str) -> dict[str, Any]:
    return {"type": "text", "text": {"body": body}}


def button_reply_content(reply_id: str, title: str = "Sim") -> dict[str, Any]:
    return {
        "type": "interactive",
        "interactive": {"type": "button_reply", "button_reply": {"id": reply_id, "title": title}},
    }


def list_reply_content(reply_id: str, title: str = "Inception (2010)") -> dict[str, Any]:
    return {
        "type": "interactive",
        "interactive": {
            "type": "list_reply",
            "list_reply": {"id": reply_id, "title": title, "description": ""},
        },
    }


def image_content() -> dict[str, Any]:
    return {
        "type": "image",
        "image": {"mime_type": "image/jpeg", "sha256": "abc", "id": "1234567890"},
    }


def audio_content(
    media_id: str, *, mime_type: str = "audio/ogg; codecs=opus", voice: bool = True
) -> dict[str, Any]:
    """A voice note (`voice`) or an audio file as the webhook announces it: no length, no size."""
    return {
        "type": "audio",
        "audio": {
            "mime_type": mime_type,
            "sha256": "m04pFf2ERdaopTyFkGPA0+bX3i+YY2dYgVFwOgDLSDI=",
            "id": media_id,
            "voice": voice,
        },
    }


def status_payload(status: str, *, recipient: str = "5511999990000") -> dict[str, Any]:
    return envelope(
        {
            "statuses": [
                {
                    "id": new_wamid(),
                    "status": status,
                    "timestamp": str(int(time.time())),
                    "recipient_id": recipient,
                }
            ]
        }
    )


def encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload).encode()
