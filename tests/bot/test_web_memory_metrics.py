"""Memory and context metrics (DESIGN 3.6-3.8) as `GET /metrics` of the web app exports them."""

from __future__ import annotations

from typing import Any

from agent.conversation.runtime import Runtime
from agent.types import Incoming, Reply
from tests.support.fake_telegram import message_update


async def test_frame_narrative_and_handover_metrics_reach_the_endpoint(harness: Any) -> None:
    runtimes: list[Runtime] = []

    async def handle(incoming: Incoming) -> Reply:
        return await runtimes[0].handle(incoming)

    async with harness(handler=handle) as h:
        runtimes.append(Runtime(h.deps))  # the real runtime, as `lembra serve` wires it
        await h.post_update(message_update(5550201, "anota: comprar pão", update_id=1))
        await h.idle()
        await h.post_update(message_update(5550201, "/end", update_id=2))
        await h.idle()
        assert await h.metric("lembra_frame_build_seconds_count") == 1
        assert await h.metric("lembra_narrative_tokens_count") == 1
        assert await h.metric("lembra_narrative_tokens_sum") > 0
        assert await h.metric("lembra_handovers_written_total", writer="deterministic") == 1
        text = await (await h.client.get("/metrics")).text()
    for name in (
        "lembra_frame_sections_compressed_total",
        "lembra_sanity_check_discrepancies_total",
        "lembra_consolidation_runs_total",
        "lembra_frame_degraded_total",
    ):
        assert f"# TYPE {name} counter" in text, name
