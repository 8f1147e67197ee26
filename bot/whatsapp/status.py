"""WhatsApp read receipts and the typing indicator: one Cloud API call marks a message read
and shows "typing…" until the reply is sent or 25 seconds pass.

Best effort: one attempt with a short timeout, never retried (a late indicator after
the reply would show typing for nothing), failures logged and otherwise ignored.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import aiohttp

from config.logging import log_event

log = logging.getLogger("lembra.whatsapp")

RECEIPT_TIMEOUT_S = 3.0
# WhatsApp drops the indicator after 25 s: a slow turn renews it a little before.
TYPING_RENEW_S = 20.0


def read_and_typing(wamid: str) -> dict[str, Any]:
    """The body that marks `wamid` read and shows the typing indicator."""
    return {
        "messaging_product": "whatsapp",
        "status": "read",
        "message_id": wamid,
        "typing_indicator": {"type": "text"},
    }


class ReadReceipts:
    """Marks each handled message read (typing shown), renewing the indicator on slow turns."""

    def __init__(self, url: str, auth: dict[str, str]) -> None:
        self._url = url
        self._auth = auth
        self._shown_at: dict[str, float] = {}

    async def begin(self, session: aiohttp.ClientSession | None, update_id: str | None) -> None:
        """Mark the message read and show typing, at the start of its turn."""
        wamid = _wamid(update_id)
        if session is None or wamid is None:
            return
        self._shown_at[wamid] = time.monotonic()
        await self._post(session, wamid)

    async def renew(self, session: aiohttp.ClientSession | None, update_id: str | None) -> None:
        """Show typing again when the last indicator is about to lapse."""
        wamid = _wamid(update_id)
        shown = self._shown_at.get(wamid or "")
        if session is None or wamid is None or shown is None:
            return
        if time.monotonic() - shown >= TYPING_RENEW_S:
            self._shown_at[wamid] = time.monotonic()
            await self._post(session, wamid)

    def end(self, update_id: str | None) -> None:
        """Forget the message once its turn is over."""
        self._shown_at.pop(_wamid(update_id) or "", None)

    async def _post(self, session: aiohttp.ClientSession, wamid: str) -> None:
        timeout = aiohttp.ClientTimeout(total=RECEIPT_TIMEOUT_S)
        try:
            async with session.post(
                self._url, json=read_and_typing(wamid), headers=self._auth, timeout=timeout
            ) as response:
                if response.status >= 300:
                    log_event(log, "read_receipt_refused", status=response.status)
        except (aiohttp.ClientError, TimeoutError) as exc:
            log_event(log, "read_receipt_failed", error_type=type(exc).__name__)


def _wamid(update_id: str | None) -> str | None:
    if update_id is None or not update_id.startswith("wa:") or len(update_id) <= 3:
        return None
    return update_id[3:]
