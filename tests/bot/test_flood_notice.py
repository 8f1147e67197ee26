"""The flood notice says the rate-limit window it depends on (issue 34: durations from settings)."""

from __future__ import annotations

from typing import Any

from tests.support.fake_telegram import message_update

CHAT = 5550901


async def test_the_flood_notice_says_the_rate_limit_window(harness: Any) -> None:
    async with harness(rate_limit_messages=1, rate_limit_window_seconds=300) as h:
        for n in range(2):
            assert (await h.post_update(message_update(CHAT, f"m{n}"))).status == 200
        await h.idle()

        assert h.tg.texts(CHAT)[-1].endswith("Vou ignorar as próximas por 5 minutos.")
