"""What `lembra check`, `serve`'s start and its `/healthz` and `/readyz` learn of each service.

One probe per configured service, each one small request, each result one line that
names the setting to change (DESIGN 11.6):

- telegram: getMe, then getWebhookInfo against TELEGRAM_WEBHOOK_URL (URL, pending
  updates, last error, allowed updates);
- whatsapp: the phone number read with the access token (`GET /<version>/<id>`);
- model: one chat completion of a few tokens; a 404 or 400 is explained with what the
  server's `/models` lists (OPENAI_BASE_URL without `/v1`, LLM_MODEL not served), a
  401/403 is the key;
- tmdb: `GET /authentication` with the key;
- transcription: the server's `/models` with its key (or the local model folder).

A failure that means the bot cannot receive or answer (`blocks_ready`: the webhook not
set to TELEGRAM_WEBHOOK_URL, a model refused for its configuration) makes `/readyz`
answer 503; every other failure only makes `/healthz` say `degraded`. Keys and tokens
are never printed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import aiohttp

from agent.errors import ServiceError, ServiceNotConfigured, ServiceUnavailable
from agent.services.tmdb import TmdbClient, TmdbNotFound
from bot.telegram.setup import BotState, bot_state
from bot.telegram.updates import ALLOWED_UPDATES
from config.errors import ConfigError
from config.settings import OPENAI_API_BASE, Settings

State = Literal["ok", "fail", "off"]

PROBE_TIMEOUT_S = 10.0
MODELS_SHOWN = 8  # model ids named when LLM_MODEL is not among them
_PUBLIC_TMDB = "api.themoviedb.org"
_MARKS: dict[State, str] = {"ok": "ok  ", "fail": "FAIL", "off": "off "}


@dataclass(frozen=True, slots=True)
class Probe:
    service: str
    state: State
    detail: str  # one line; on failure it names the setting to change
    blocks_ready: bool = False  # the bot cannot receive or answer while this fails

    @property
    def ok(self) -> bool:
        return self.state != "fail"

    def line(self) -> str:
        """`lembra check`'s line: `ok   telegram: ...`, `FAIL model: ...`, `off  tmdb: ...`."""
        return f"{_MARKS[self.state]} {self.service}: {self.detail}"


def _ok(service: str, detail: str) -> Probe:
    return Probe(service, "ok", detail)


def _off(service: str, detail: str) -> Probe:
    return Probe(service, "off", detail)


def _fail(service: str, detail: str, *, blocks_ready: bool = False) -> Probe:
    return Probe(service, "fail", detail, blocks_ready)


async def run_probes(settings: Settings, *, serving: bool) -> list[Probe]:
    """Every service's probe, at once, each bounded by PROBE_TIMEOUT_S.

    `serving`: for `lembra serve`, where a Telegram bot without its webhook receives nothing
    (`lembra check` also stands for `telegram --polling`, where no webhook is right).
    """
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_S)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        probes: list[tuple[str, Callable[[], Awaitable[Probe]]]] = [
            ("telegram", lambda: probe_telegram(settings, serving=serving)),
            ("whatsapp", lambda: probe_whatsapp(settings, session)),
            ("model", lambda: probe_model(settings, session)),
            ("tmdb", lambda: probe_tmdb(settings, session)),
            ("transcription", lambda: probe_transcription(settings, session)),
        ]
        return list(await asyncio.gather(*(_bounded(name, run) for name, run in probes)))


async def _bounded(service: str, run: Callable[[], Awaitable[Probe]]) -> Probe:
    try:
        async with asyncio.timeout(PROBE_TIMEOUT_S + 5):
            return await run()
    except TimeoutError:
        return _fail(service, f"no answer within {PROBE_TIMEOUT_S + 5:g} s")


# -- Telegram ---------------------------------------------------------------------------------


async def probe_telegram(settings: Settings, *, serving: bool) -> Probe:
    if not settings.telegram_configured:
        return _off("telegram", "TELEGRAM_BOT_TOKEN is not set")
    try:
        state = await bot_state(settings)
    except ConfigError as exc:
        return _fail("telegram", str(exc))
    except ServiceUnavailable as exc:
        return _fail("telegram", str(exc))
    return _webhook_verdict(settings, state, serving=serving)


def _webhook_verdict(settings: Settings, state: BotState, *, serving: bool) -> Probe:
    wanted = settings.telegram_webhook_url
    facts = f"@{state.username}; {_webhook_facts(state)}"
    fix = "run `lembra telegram --set-webhook`"
    if not state.webhook_url:
        if wanted:
            return _fail(
                "telegram",
                f"{facts}: no webhook is set, so Telegram delivers nothing; {fix} "
                f"(TELEGRAM_WEBHOOK_URL={wanted})",
                blocks_ready=True,
            )
        if serving:
            return _fail(
                "telegram",
                f"{facts}: no webhook is set, so `serve` receives nothing; set "
                "TELEGRAM_WEBHOOK_URL, then run `lembra telegram --set-webhook` "
                "(or use `lembra telegram --polling`)",
                blocks_ready=True,
            )
        return _ok("telegram", f"{facts} (right for `lembra telegram --polling` only)")
    if wanted and state.webhook_url != wanted:
        return _fail(
            "telegram",
            f"{facts}: the webhook is not TELEGRAM_WEBHOOK_URL={wanted}; {fix}",
            blocks_ready=True,
        )
    missing = [
        u for u in ALLOWED_UPDATES if state.allowed_updates and u not in state.allowed_updates
    ]
    if missing:
        return _fail(
            "telegram",
            f"{facts}: the webhook leaves out {', '.join(missing)} (Lembra reads them); {fix}",
        )
    if not wanted:
        return _ok("telegram", f"{facts} (TELEGRAM_WEBHOOK_URL unset: not compared)")
    return _ok("telegram", facts)


def _webhook_facts(state: BotState) -> str:
    url = state.webhook_url or "(none)"
    return f"webhook {url}, {state.pending} pending, last error: {state.last_error or 'none'}"


# -- WhatsApp ---------------------------------------------------------------------------------


async def probe_whatsapp(settings: Settings, session: aiohttp.ClientSession) -> Probe:
    if not settings.whatsapp_configured:
        return _off("whatsapp", "the WHATSAPP_ settings are not set")
    assert settings.whatsapp_access_token is not None
    token = settings.whatsapp_access_token.get_secret_value()
    number = settings.whatsapp_phone_number_id
    base = settings.whatsapp_api_base_url.rstrip("/")
    url = f"{base}/{settings.whatsapp_api_version}/{number}"
    params = {"fields": "display_phone_number,verified_name"}
    try:
        async with session.get(
            url, params=params, headers={"Authorization": f"Bearer {token}"}
        ) as response:
            status, body = response.status, await _json(response)
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        return _fail("whatsapp", f"cannot reach WHATSAPP_API_BASE_URL={base} ({_why(exc)})")
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    if status == 200 and isinstance(body, dict):
        shown = body.get("display_phone_number") or number
        name = body.get("verified_name")
        return _ok("whatsapp", f"number {shown}" + (f" ({name})" if name else ""))
    if status == 401 or code == 190:
        return _fail(
            "whatsapp",
            f"the Cloud API refused WHATSAPP_ACCESS_TOKEN (HTTP {status}, code {code}): "
            "it expired or was revoked; set a new (system user) token",
        )
    if code == 100 or status in (400, 404):
        return _fail(
            "whatsapp",
            f"WHATSAPP_PHONE_NUMBER_ID={number} is not a number this token can read "
            f"(HTTP {status}); check WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_API_VERSION",
        )
    return _fail("whatsapp", f"the Cloud API answered HTTP {status}; try again later")


# -- the model --------------------------------------------------------------------------------


async def probe_model(settings: Settings, session: aiohttp.ClientSession) -> Probe:
    if not settings.model_configured:
        return _off(
            "model",
            "no model configured: the offline rule-based planner answers "
            "(set OPENAI_API_KEY or OPENAI_BASE_URL)",
        )
    base = (settings.openai_base_url or OPENAI_API_BASE).rstrip("/")
    shown = _shown_url(base)
    headers = _bearer(
        settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    )
    model = settings.llm_model
    cap = "max_completion_tokens" if _is_openai(base) else "max_tokens"
    body = {"model": model, "messages": [{"role": "user", "content": "Say OK."}], cap: 16}
    try:
        async with session.post(f"{base}/chat/completions", json=body, headers=headers) as response:
            status, answer = response.status, await _json(response)
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        return _fail(
            "model",
            f"cannot reach OPENAI_BASE_URL={shown} ({_why(exc)}); the offline planner answers "
            "meanwhile",
        )
    if status == 200:
        if isinstance(answer, dict) and isinstance(answer.get("choices"), list):
            return _ok("model", f"LLM_MODEL={model} answers at {shown}")
        return _fail(
            "model",
            f"{shown}/chat/completions answered something that is not a chat completion: "
            "OPENAI_BASE_URL is not an OpenAI-compatible API (it usually ends in /v1)",
            blocks_ready=True,
        )
    message = error_message(answer)
    if status in (401, 403):
        return _fail(
            "model",
            # the server's own words are left out: some echo part of the key
            f"the server at {shown} refused OPENAI_API_KEY (HTTP {status}); set a valid key",
            blocks_ready=True,
        )
    if status in (400, 404, 422):
        return await _model_not_found(session, base, headers, model, status, message)
    if status == 429:
        return _fail(
            "model",
            f"the server at {shown} refuses for now (HTTP 429{message}): rate limit or quota "
            "of the account behind OPENAI_API_KEY",
        )
    return _fail("model", f"the server at {shown} answered HTTP {status}{message}; try again later")


async def _model_not_found(
    session: aiohttp.ClientSession,
    base: str,
    headers: dict[str, str],
    model: str,
    status: int,
    message: str,
) -> Probe:
    """Why a chat completion was refused: LLM_MODEL not among `/models`, or `/v1` missing."""
    shown = _shown_url(base)
    served = await _served_models(session, base, headers)
    if served is not None and model not in served:
        offered = ", ".join(served[:MODELS_SHOWN]) + (" ..." if len(served) > MODELS_SHOWN else "")
        return _fail(
            "model",
            f"LLM_MODEL={model} is not served by {shown} (HTTP {status}{message}); it serves: "
            f"{offered or '(nothing)'}; set LLM_MODEL to one of them",
            blocks_ready=True,
        )
    path = urlsplit(base).path.rstrip("/")
    if (
        not path.endswith("/v1")
        and await _served_models(session, base + "/v1", headers) is not None
    ):
        return _fail(
            "model",
            f"{shown}/chat/completions answered HTTP {status}; OPENAI_BASE_URL needs /v1: "
            f"set OPENAI_BASE_URL={shown}/v1",
            blocks_ready=True,
        )
    return _fail(
        "model",
        f"{shown}/chat/completions answered HTTP {status}{message}: OPENAI_BASE_URL likely "
        f"needs /v1 (it is {shown}), or LLM_MODEL={model} is not served by that server",
        blocks_ready=True,
    )


async def _served_models(
    session: aiohttp.ClientSession, base: str, headers: dict[str, str]
) -> list[str] | None:
    """The ids `GET <base>/models` lists, or None when it lists nothing readable."""
    try:
        async with session.get(f"{base}/models", headers=headers) as response:
            if response.status != 200:
                return None
            body = await _json(response)
    except (aiohttp.ClientError, OSError, TimeoutError):
        return None
    return model_ids(body)


def model_ids(body: Any) -> list[str] | None:
    """The ids of an OpenAI-shaped model list (`{"data": [{"id": ...}]}`), or None."""
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list):
        return None
    return [str(m["id"])[:100] for m in data if isinstance(m, dict) and "id" in m]


# -- TMDB -------------------------------------------------------------------------------------


async def probe_tmdb(settings: Settings, session: aiohttp.ClientSession) -> Probe:
    key = settings.tmdb_api_key.get_secret_value() if settings.tmdb_api_key else None
    if key is None and _PUBLIC_TMDB in settings.tmdb_base_url:
        return _off("tmdb", "TMDB_API_KEY is not set: movies and shows are saved as written")
    client = TmdbClient(
        session, base_url=settings.tmdb_base_url, api_key=key, timeout_s=5.0, retries=0
    )
    shown = _shown_url(settings.tmdb_base_url)
    try:
        await client.authentication()
    except ServiceNotConfigured:
        return _fail("tmdb", "TMDB refused TMDB_API_KEY; set a valid v3 key or v4 read token")
    except TmdbNotFound:
        return _fail(
            "tmdb", f"TMDB_BASE_URL={shown} is not TMDB's API (HTTP 404 at /authentication)"
        )
    except ServiceUnavailable as exc:
        return _fail("tmdb", f"cannot reach TMDB_BASE_URL={shown}: {exc}")
    except ServiceError as exc:
        return _fail("tmdb", f"TMDB_BASE_URL={shown}: {exc}")
    return _ok("tmdb", f"the key is accepted at {shown}")


# -- transcription ----------------------------------------------------------------------------


async def probe_transcription(settings: Settings, session: aiohttp.ClientSession) -> Probe:
    backend = settings.transcription_backend
    if backend is None:
        return _off("transcription", "voice notes get the fixed reply (docs/voice.md)")
    if backend == "local":
        return _ok(
            "transcription",
            f"faster-whisper on TRANSCRIBE_MODEL_DIR={settings.transcribe_model_dir}",
        )
    base = settings.transcribe_url.rstrip("/")
    shown = _shown_url(base)
    headers = _bearer(settings.transcribe_key)
    model = settings.transcribe_model
    try:
        async with session.get(f"{base}/models", headers=headers) as response:
            status, body = response.status, await _json(response)
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        return _fail("transcription", f"cannot reach TRANSCRIBE_BASE_URL={shown} ({_why(exc)})")
    key_name = "TRANSCRIBE_API_KEY" if settings.transcribe_api_key else "OPENAI_API_KEY"
    if status in (401, 403):
        return _fail(
            "transcription",
            f"the server at {shown} refused {key_name} (HTTP {status}); set a valid key",
        )
    served = model_ids(body) if status == 200 else None
    if served is not None:
        if model in served:
            return _ok("transcription", f"TRANSCRIBE_MODEL={model} is served at {shown}")
        return _fail(
            "transcription",
            f"TRANSCRIBE_MODEL={model} is not served by {shown}; it serves: "
            f"{', '.join(served[:MODELS_SHOWN]) or '(nothing)'}",
        )
    # a server without a model list still may transcribe: reachable is all that is known
    return _ok("transcription", f"{shown} answers (HTTP {status} at /models: no model list)")


# -- helpers ----------------------------------------------------------------------------------


def _bearer(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


def _is_openai(base: str) -> bool:
    host = urlsplit(base).hostname or ""
    return host == "api.openai.com" or host.endswith(".api.openai.com")


def _shown_url(url: str) -> str:
    """`url` without credentials, query or fragment (nothing secret is printed)."""
    parts = urlsplit(url.rstrip("/"))
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


async def _json(response: aiohttp.ClientResponse) -> Any:
    try:
        return json.loads(await response.read())
    except (ValueError, UnicodeDecodeError):
        return None


def error_message(body: Any) -> str:
    """`: <the server's error message>` from an OpenAI-shaped error, or ""."""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    if not isinstance(message, str) or not message.strip():
        return ""
    return ": " + " ".join(message.split())[:160]


def _why(exc: BaseException) -> str:
    return "timed out" if isinstance(exc, TimeoutError) else type(exc).__name__


def failing(probes: Sequence[Probe]) -> list[Probe]:
    return [p for p in probes if not p.ok]
