"""WhatsApp Cloud API with aiohttp only (no unofficial libraries).

Receiving (`/whatsapp/webhook`):
    GET   verification: hub.mode=subscribe and hub.verify_token (constant time) -> the
          hub.challenge as text/plain; anything else 403.
    POST  X-Hub-Signature-256 = "sha256=" + HMAC-SHA256(raw body, WHATSAPP_APP_SECRET),
          checked in constant time BEFORE parsing (401 otherwise); a body that is not
          JSON 400; anything else 200. Then each message on its own, read as
          bot/whatsapp/updates.py says (captions and button taps are text, edits are
          corrections, revokes and system messages are quiet; a malformed message is
          logged and skipped, never the others with it).
          Status callbacks (sent, delivered, read, failed) are counted, not handled.
          Each message is recorded (`wa:<wamid>`, kept 8 days: WhatsApp retries for 7)
          before the 200; turns run in the background, tracked so shutdown waits.

Sending: POST {WHATSAPP_API_BASE_URL}/{version}/{phone_number_id}/messages with the
bearer token: text split at 4,096 characters; choices as reply buttons (<= 3, titles
<= 20 characters) or a list (<= 10 rows, titles <= 24, descriptions <= 72). Nothing
free-form is sent outside the 24-hour window since the user's last inbound message.
Each handled message is marked read with the typing indicator (bot/whatsapp/status.py).
A voice note's audio is fetched in its turn: the media lookup, then the download
(bot/whatsapp/media.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from agent.conversation.access import allows
from agent.deps import Deps
from agent.errors import ServiceUnavailable
from agent.services.outbound import outbound_trace
from agent.services.retrying import GaveUp, Retry, RetryPolicy
from agent.texts import text
from agent.types import Attachment, Channel, Incoming, Language, Reply
from bot.delivery.concurrency import BackgroundTasks
from bot.delivery.lifecycle import Delivery, Job, UpdateLifecycle
from bot.inbound import Ignored, NotJson, Rejected, read_body
from bot.render import ChoiceDataTooLong, encode_choice, owner_of, shorten, split_text
from bot.whatsapp.media import WhatsAppMedia
from bot.whatsapp.status import ReadReceipts
from bot.whatsapp.updates import WaMessage, WaValue, normalize, read_message, values
from config.errors import ConfigError
from config.logging import log_event
from storage.errors import DatabaseUnavailable

log = logging.getLogger("lembra.whatsapp")

SIGNATURE_HEADER = "X-Hub-Signature-256"
TEXT_LIMIT = 4096
INTERACTIVE_BODY_LIMIT = 1024
MAX_BUTTONS = 3
BUTTON_TITLE_LIMIT = 20
MAX_ROWS = 10
ROW_TITLE_LIMIT = 24
ROW_DESCRIPTION_LIMIT = 72
ID_MAX_BYTES = 200  # list row ids (button ids allow 256)
WINDOW_S = 24 * 3600
REENGAGEMENT_ERROR = 131047  # "more than 24 hours have passed since the customer last replied"


def stored_message(raw: Any, name: str | None) -> str:
    """What the lifecycle keeps for a re-drive: the message as it came, and the sender's name.

    `json.dumps` escapes a lone surrogate (`\\ud800`) instead of failing on it.
    """
    return json.dumps({"message": raw, "name": name})


@dataclass(frozen=True)
class WhatsAppOptions:
    timeout_s: float = 10.0
    retry_delays: tuple[float, ...] = (0.5, 1.0, 2.0)  # the retry policy's backoff
    retry: RetryPolicy | None = None  # None: RetryPolicy(delays=retry_delays)

    @property
    def retry_policy(self) -> RetryPolicy:
        return self.retry or RetryPolicy(delays=self.retry_delays)


class _WindowClosed(Exception):
    pass


class _Refused(Exception):
    pass


class _GiveUp(Exception):
    pass


class _AnswerLost(Exception):
    """A send was written in full and its answer timed out: WhatsApp may have delivered it."""


class WhatsAppChannel:
    name: Channel = "whatsapp"
    prefix = "wa"

    def __init__(
        self, deps: Deps, lifecycle: UpdateLifecycle, *, options: WhatsAppOptions | None = None
    ) -> None:
        settings = deps.settings
        secret, verify = settings.whatsapp_app_secret, settings.whatsapp_verify_token
        access, phone = settings.whatsapp_access_token, settings.whatsapp_phone_number_id
        if secret is None or verify is None or access is None or not phone:
            raise ConfigError(
                "WhatsApp needs WHATSAPP_ACCESS_TOKEN, WHATSAPP_APP_SECRET, "
                "WHATSAPP_VERIFY_TOKEN and WHATSAPP_PHONE_NUMBER_ID"
            )
        self.deps = deps
        self.lifecycle = lifecycle
        self.options = options or WhatsAppOptions()
        self._app_secret = secret.get_secret_value().encode()
        self._verify_token = verify.get_secret_value().encode()
        self._auth = {"Authorization": f"Bearer {access.get_secret_value()}"}
        self._phone_number_id = phone
        base = settings.whatsapp_api_base_url.rstrip("/")
        self._endpoint = f"{base}/{settings.whatsapp_api_version}/{self._phone_number_id}"
        self._session: aiohttp.ClientSession | None = None
        self._background = BackgroundTasks()
        self._last_inbound: dict[str, float] = {}
        self._receipts = ReadReceipts(f"{self._endpoint}/messages", self._auth)
        self.media = WhatsAppMedia(  # voice notes: the media lookup, then the download
            f"{base}/{settings.whatsapp_api_version}",
            self._auth,
            self._open_session,
            policy=self.options.retry_policy,
            timeout_s=self.options.timeout_s,
        )
        lifecycle.register(self)

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(
            # sock_read starts once the request is written in full, and fires before the
            # total: its timeout is an answer lost, told apart from a request never sent
            timeout=aiohttp.ClientTimeout(
                total=2 * self.options.timeout_s,
                sock_connect=self.options.timeout_s,
                sock_read=self.options.timeout_s,
            ),
            trace_configs=[outbound_trace(self.deps.metrics, "whatsapp")],
        )

    def _open_session(self) -> aiohttp.ClientSession:
        if self._session is None:
            raise ServiceUnavailable("the WhatsApp channel is not started")
        return self._session

    async def stop(self) -> None:
        """Wait for the turns running in the background, then close the HTTP session."""
        await self._background.wait()
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def idle(self) -> None:
        """Wait until every turn running in the background is finished."""
        await self._background.wait()

    # -- the webhook -----------------------------------------------------------------------

    async def verify(self, request: web.Request) -> web.Response:
        """GET /whatsapp/webhook: Meta's subscription handshake."""
        query = request.query
        token = query.get("hub.verify_token", "").encode()
        challenge = query.get("hub.challenge", "")
        if (
            query.get("hub.mode") == "subscribe"
            and hmac.compare_digest(token, self._verify_token)
            and challenge
        ):
            return web.Response(text=challenge, content_type="text/plain")
        log_event(log, "verification_refused", level=logging.WARNING)
        return web.Response(status=403, text="forbidden")

    async def webhook(self, request: web.Request) -> web.Response:
        """POST /whatsapp/webhook."""
        metrics = self.deps.metrics
        body = await request.read()  # over client_max_size: 413 before anything else
        expected = "sha256=" + hmac.new(self._app_secret, body, hashlib.sha256).hexdigest()
        given = request.headers.get(SIGNATURE_HEADER, "")
        # Header bytes that are not UTF-8 arrive as surrogates: restore them, never raise.
        if not hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode()):
            metrics.updates.labels("whatsapp", "rejected").inc()
            # logged (throttled) by the web app's refusal log: callers set this volume
            return web.Response(status=401, text="bad signature")
        try:
            data = read_body(body)
        except NotJson:
            metrics.updates.labels("whatsapp", "rejected").inc()
            log_event(log, "webhook_rejected", level=logging.WARNING, reason="not_json")
            return web.Response(status=400, text="bad request")
        found = values(data)
        if isinstance(found, Rejected):
            self._not_handled(found)
            return web.Response(text="ok")
        if (busy := self.lifecycle.backlog.full()) is not None:
            return self.lifecycle.backlog.refusal(metrics, "whatsapp", busy)
        try:
            for value in found:
                await self._accept(value)
        except DatabaseUnavailable:
            # WhatsApp redelivers; messages recorded before the failure are deduplicated.
            log_event(log, "webhook_database_unavailable", level=logging.ERROR)
            return web.Response(status=503, text="database unavailable")
        return web.Response(text="ok")

    async def _accept(self, value: WaValue) -> None:
        """Record and queue each message of one change on its own: a bad one costs no other."""
        metrics = self.deps.metrics
        if value.metadata is not None and value.metadata.phone_number_id != self._phone_number_id:
            metrics.updates.labels("whatsapp", "ignored").inc()
            log_event(log, "update_ignored", reason="other_phone_number")
            return
        for status in value.statuses:
            metrics.status_callbacks.labels(status.label).inc()
        names = value.names()
        for raw in value.messages:
            message = read_message(raw)
            name = names.get(message.sender) if isinstance(message, WaMessage) else None
            normalized = normalize(raw, name, files=self.media)
            if isinstance(message, WaMessage):
                self._note_inbound(message)
            if not isinstance(normalized, Incoming):
                self._not_handled(normalized)
                continue
            admission = await self.lifecycle.admit(normalized, stored_message(raw, name))
            if admission in ("process", "notify"):
                await self.submit(self.lifecycle.job(normalized, admission))

    def _not_handled(self, outcome: Ignored | Rejected) -> None:
        """One log line for a message that is ignored or malformed; nothing is sent."""
        if isinstance(outcome, Rejected):
            self.deps.metrics.updates.labels("whatsapp", "malformed").inc()
            log_event(log, "update_rejected", level=logging.WARNING, reason=outcome.reason)
        else:
            self.deps.metrics.updates.labels("whatsapp", "ignored").inc()
            log_event(log, "update_ignored", reason=outcome.reason)

    # -- the lifecycle's channel port ------------------------------------------------------

    def restore(self, payload_json: str) -> Incoming | None:
        try:
            stored = json.loads(payload_json)
        except ValueError:
            raise ValueError("stored message is not JSON") from None
        if not isinstance(stored, dict):
            raise ValueError("stored message is not an object")
        name = stored.get("name") if isinstance(stored.get("name"), str) else None
        message = read_message(stored.get("message"))
        if isinstance(message, WaMessage):
            self._note_inbound(message)
        normalized = normalize(stored.get("message"), name, files=self.media)
        return normalized if isinstance(normalized, Incoming) else None

    async def submit(self, job: Job) -> None:
        self._background.spawn(self._run(job), name="whatsapp_turn")

    async def _run(self, job: Job) -> None:
        incoming = job.incoming
        async with self.lifecycle.serializer.slot(incoming.conversation_id):
            # typing only where a reply follows: not outside the window, not for an edit,
            # which most often corrects nothing and is answered with silence, and never for
            # a sender the bot refuses (nothing tells them their message was read: issue 46)
            if (
                incoming.kind != "edit"
                and self.window_open(incoming.user_id)
                and await allows(self.deps, incoming.user_id)
                and not self.lifecycle.past_deadline  # shutting down: left for the re-drive
            ):
                await self._receipts.begin(self._session, incoming.update_id)
            try:
                await self.lifecycle.process(job, self)
            finally:
                self._receipts.end(incoming.update_id)

    async def typing(self, incoming: Incoming) -> None:
        """Renew the typing indicator shown when the turn began (it lapses after 25 s)."""
        await self._receipts.renew(self._session, incoming.update_id)

    def _note_inbound(self, message: WaMessage) -> None:
        """Track the 24-hour window: the latest inbound time per user seen here.

        A message's own timestamp is a safe lower bound for its sender's last message,
        so a re-drive in another process never sends outside the window.
        """
        user = f"wa:{message.sender}"
        sent_at = message.sent_at_s()
        if sent_at > self._last_inbound.get(user, 0.0):
            self._last_inbound[user] = sent_at
        if len(self._last_inbound) > 50_000:
            cutoff = self._now_s() - WINDOW_S
            self._last_inbound = {u: t for u, t in self._last_inbound.items() if t >= cutoff}

    def _now_s(self) -> float:
        return self.deps.clock.ms() / 1000

    def window_open(self, user_id: str) -> bool:
        return self._now_s() - self._last_inbound.get(user_id, 0.0) < WINDOW_S

    async def deliver(self, incoming: Incoming, reply: Reply) -> Delivery:
        if not self.window_open(incoming.user_id):
            self.deps.metrics.sends.labels("whatsapp", "window_closed").inc()
            return "window_closed"
        return await self._send_reply(incoming, reply)

    async def push(self, incoming: Incoming, reply: Reply, *, template: str | None) -> Delivery:
        """A due reminder; the scheduler judged the window from the stored last message.

        With `template` (outside the window) the approved template is sent with the
        reminder's text as its one body parameter; otherwise the reply itself.
        """
        if template is None:
            return await self._send_reply(incoming, reply)
        language = incoming.language_hint or self.deps.settings.default_language
        content = {
            "type": "template",
            "template": {
                "name": template,
                "language": {"code": "pt_BR" if language == "pt" else "en"},
                "components": [
                    {"type": "body", "parameters": [{"type": "text", "text": reply.text[:1024]}]}
                ],
            },
        }
        try:
            await self._post(self._message(incoming.chat_id, content))
        except (_WindowClosed, _Refused):
            return "failed"
        except _GiveUp:
            return "retry_later"
        return "sent"

    async def _send_reply(self, incoming: Incoming, reply: Reply) -> Delivery:
        language = incoming.language_hint or self.deps.settings.default_language
        messages = render(reply, language, owner=owner_of(incoming.user_id))
        try:
            for message in messages:
                await self._post(self._message(incoming.chat_id, message))
            if reply.attachment is not None:
                media_id = await self._upload(reply.attachment)
                document = {"id": media_id, "filename": reply.attachment.filename}
                await self._post(
                    self._message(incoming.chat_id, {"type": "document", "document": document})
                )
        except _WindowClosed:
            return "window_closed"
        except _Refused:
            return "failed"
        except _GiveUp:
            return "retry_later"
        return "sent" if messages or reply.attachment else "nothing"

    @staticmethod
    def _message(to: str, content: dict[str, Any]) -> dict[str, Any]:
        return {
            "messaging_product": "whatsapp",
            "recipient_type": "individual",
            "to": to,
            **content,
        }

    async def _post(self, body: dict[str, Any]) -> None:
        await self._call(
            lambda s: s.post(f"{self._endpoint}/messages", json=body, headers=self._auth),
            sends_message=True,
        )

    async def _upload(self, attachment: Attachment) -> str:
        def request(session: aiohttp.ClientSession) -> Any:
            form = aiohttp.FormData()
            form.add_field("messaging_product", "whatsapp")
            form.add_field("type", attachment.mime_type)
            form.add_field(
                "file",
                attachment.open(),  # streamed from a long export's file, closed once sent
                filename=attachment.filename,
                content_type=attachment.mime_type,
            )
            return session.post(f"{self._endpoint}/media", data=form, headers=self._auth)

        answer = await self._call(request)
        media_id = answer.get("id")
        if not isinstance(media_id, str):
            raise _Refused("media upload answered without an id")
        return media_id

    async def _call(self, request: Any, *, sends_message: bool = False) -> dict[str, Any]:
        """One Graph API call; 429, 5xx and network errors are retried by the one policy.

        A message whose request was written in full and whose answer timed out is not
        sent again (the Cloud API has no idempotency key: a retry could deliver it
        twice); it is counted `unconfirmed`, as on Telegram (docs/delivery.md).
        """
        if self._session is None:
            raise ServiceUnavailable("the WhatsApp channel is not started")
        session = self._session
        sends = self.deps.metrics.sends

        async def attempt() -> dict[str, Any]:
            try:
                async with request(session) as response:
                    answer = await _json(response)
                    if response.status < 300:
                        return answer
                    error = answer.get("error") if isinstance(answer.get("error"), dict) else {}
                    code = error.get("code") if isinstance(error, dict) else None
                    if code == REENGAGEMENT_ERROR:
                        sends.labels("whatsapp", "window_closed").inc()
                        raise _WindowClosed
                    if response.status != 429 and response.status < 500:
                        sends.labels("whatsapp", "refused").inc()
                        log_event(
                            log,
                            "send_refused",
                            level=logging.ERROR,
                            status=response.status,
                            error_code=code,
                        )
                        raise _Refused(str(code))
                    retry_after = response.headers.get("Retry-After", "")
                    wait_s = float(retry_after) if retry_after.isdigit() else None
                    raise Retry(f"HTTP {response.status}", wait_s=wait_s)
            except aiohttp.SocketTimeoutError:
                if sends_message:
                    raise _AnswerLost from None
                raise Retry("SocketTimeoutError") from None
            except (aiohttp.ClientError, TimeoutError) as exc:
                raise Retry(type(exc).__name__) from None

        def retried(number: int, error: Retry, wait_s: float) -> None:
            sends.labels("whatsapp", "retry").inc()
            log_event(log, "send_retry", attempt=number, reason=error.reason, wait_s=wait_s)

        try:
            answer = await self.options.retry_policy.call(attempt, on_retry=retried)
        except _AnswerLost:
            sends.labels("whatsapp", "unconfirmed").inc()
            log_event(log, "send_unconfirmed", level=logging.WARNING)
            return {}
        except GaveUp:
            sends.labels("whatsapp", "failed").inc()
            raise _GiveUp from None
        sends.labels("whatsapp", "sent").inc()
        return answer


async def _json(response: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        data = await response.json(content_type=None)
    except (ValueError, aiohttp.ContentTypeError):
        return {}
    return data if isinstance(data, dict) else {}


def render(reply: Reply, language: Language, *, owner: str) -> list[dict[str, Any]]:
    """The message bodies (without recipient) that carry `reply`, in order; buttons bound to `owner`."""
    parts = split_text(reply.text, TEXT_LIMIT)
    interactive = _interactive(reply, parts, language, owner)
    messages: list[dict[str, Any]] = [
        {"type": "text", "text": {"preview_url": False, "body": part}} for part in parts
    ]
    if interactive is not None:
        messages.append({"type": "interactive", "interactive": interactive})
    return messages


def _interactive(
    reply: Reply, parts: list[str], language: Language, owner: str
) -> dict[str, Any] | None:
    """Buttons (<= 3 short labels) or a list for the choices; takes the body from `parts`."""
    if not reply.choices:
        return None
    try:
        ids = [
            encode_choice(reply.choice_token, c.index, owner=owner, max_bytes=ID_MAX_BYTES)
            for c in reply.choices
        ]
    except ChoiceDataTooLong:
        log_event(log, "buttons_dropped", level=logging.WARNING, reason="id_too_long")
        return None
    # The interactive body is limited: the last text part rides on it when it fits.
    if parts and len(parts[-1]) <= INTERACTIVE_BODY_LIMIT:
        body = parts.pop()
    else:
        body = text("choose_option", language)
    labels = [" ".join(c.label.split()) or str(c.index + 1) for c in reply.choices]
    if len(labels) <= MAX_BUTTONS and all(len(label) <= BUTTON_TITLE_LIMIT for label in labels):
        buttons = [
            {"type": "reply", "reply": {"id": id_, "title": label}}
            for id_, label in zip(ids, labels, strict=True)
        ]
        return {"type": "button", "body": {"text": body}, "action": {"buttons": buttons}}
    if len(labels) > MAX_ROWS:
        # The text lists every option; the rest can be picked by typing their number.
        log_event(log, "list_truncated", choices=len(labels))
    rows = []
    for id_, label in list(zip(ids, labels, strict=True))[:MAX_ROWS]:
        row: dict[str, str] = {"id": id_, "title": shorten(label, ROW_TITLE_LIMIT)}
        if len(label) > ROW_TITLE_LIMIT:
            row["description"] = shorten(label, ROW_DESCRIPTION_LIMIT)
        rows.append(row)
    return {
        "type": "list",
        "body": {"text": body},
        "action": {
            "button": shorten(text("choices_button", language), BUTTON_TITLE_LIMIT),
            "sections": [{"rows": rows}],
        },
    }
