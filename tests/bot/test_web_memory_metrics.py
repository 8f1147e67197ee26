"""Memory and context metrics (DESIGN 3.6-3.8) as `GET /metrics` of the web app exports them."""

from __future__ import annotations

from typing import Any

from agent.conversation.runtime import Runtime
from agent.types import Incoming, Reply
from bot.fakes.scripted_model import ScriptedModelServer
from tests.support.fake_telegram import message_update
from tests.support.live import call


async def test_frame_narrative_and_handover_metrics_reach_the_endpoint(harness: Any) -> None:
    """A model turn builds the frame (the offline rules read only the message, no frame)."""
    runtimes: list[Runtime] = []

    async def handle(incoming: Incoming) -> Reply:
        return await runtimes[0].handle(incoming)

    async with ScriptedModelServer() as model:
        settings = {"openai_base_url": model.base_url, "openai_api_key": "test-not-a-secret"}
        async with harness(handler=handle, llm_model="test-scripted", **settings) as h:
            runtimes.append(Runtime(h.deps))  # the real runtime, as `lembra serve` wires it
            model.begin_turn([call("save_note", content="comprar pão")])
            await h.post_update(message_update(5550201, "anota: comprar pão", update_id=1))
            await h.idle()
            assert model.end_turn().requests  # the save was planned by the model
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
