"""Files users send on Telegram: `getFile`, then the download from the file base.

    getFile(file_id) ─> {file_path, file_size} ─> larger than the caller takes: FileTooLarge
                     └─> "file is too big" (over the Bot API's 20 MB): FileTooLarge
    GET {TELEGRAM_FILE_BASE_URL}<token>/<file_path> ─> bot/downloads.py (bounded, retried)

PTB builds the file URL from the file base (`Bot.base_file_url`), so a local Bot API
server and the tests' fake serve files the way api.telegram.org does. Both calls go
through the one retry policy; the URL is never logged (it holds the token).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import aiohttp
from telegram import Bot, File
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from agent.errors import FileTooLarge, ServiceError, ServiceUnavailable
from agent.services.retrying import GaveUp, Retry, RetryPolicy
from agent.types import Fetch
from bot.downloads import download
from bot.telegram.send import retry_after_s
from config.logging import log_event

log = logging.getLogger("lembra.telegram")


class TelegramFiles:
    """The channel's `FileSource`: what `fetch` does for a file id, when a turn calls it.

    Args:
        bot: the channel's bot (its API and file base).
        session: the open HTTP session downloads use; raises ServiceUnavailable when the
            channel is not started.
    """

    def __init__(
        self,
        bot: Callable[[], Bot],
        session: Callable[[], aiohttp.ClientSession],
        *,
        policy: RetryPolicy,
        timeout_s: float,
    ) -> None:
        self._bot = bot
        self._session = session
        self._policy = policy
        self._timeout_s = timeout_s

    def fetcher(self, file_id: str) -> Fetch:
        return partial(self.fetch, file_id)

    async def fetch(self, file_id: str, limit: int) -> bytes:
        """The file's bytes, at most `limit` (FileTooLarge beyond, told by getFile when it can)."""
        found = await self._get_file(file_id)
        if found.file_size is not None and found.file_size > limit:
            raise FileTooLarge(f"the file has {found.file_size} bytes (at most {limit} are taken)")
        url = found.file_path or ""
        if not url.startswith(("http://", "https://")):
            # a local Bot API server in --local mode answers a path on its own disk
            raise ServiceError("getFile answered no downloadable path")
        return await download(
            self._session(),
            url,
            limit=limit,
            policy=self._policy,
            service="telegram",
            timeout_s=self._timeout_s,
        )

    async def _get_file(self, file_id: str) -> File:
        async def attempt() -> File:
            try:
                return await self._bot().get_file(file_id)
            except RetryAfter as exc:
                raise Retry("HTTP 429", wait_s=retry_after_s(exc) + 0.1) from None
            except BadRequest as exc:  # before NetworkError, its base class
                if "too big" in exc.message.lower():
                    raise FileTooLarge("over the Bot API's download limit") from None
                log_event(log, "get_file_refused", level=logging.WARNING, reason="bad_request")
                raise ServiceError("Telegram refused getFile") from None
            except Forbidden:
                raise ServiceError("Telegram refused getFile") from None
            except NetworkError as exc:  # 5xx, timeouts, connection errors
                raise Retry(type(exc).__name__) from None
            except TelegramError as exc:
                raise ServiceError(f"getFile failed ({type(exc).__name__})") from None

        def retried(number: int, error: Retry, wait_s: float) -> None:
            log_event(log, "get_file_retry", attempt=number, reason=error.reason)

        try:
            return await self._policy.call(attempt, on_retry=retried)
        except GaveUp as exc:
            log_event(log, "get_file_failed", level=logging.WARNING, reason=exc.reason)
            raise ServiceUnavailable("Telegram's getFile is unavailable") from None
