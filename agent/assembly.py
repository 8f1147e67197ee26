"""Where `Deps` is put together: storage, clients, the model transport and its tool schema.

The composition root: it imports the tools, the planner and the services to build them,
and none of those import it (agent/deps.py stays a leaf they all may import).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager, suppress
from typing import TYPE_CHECKING

import aiohttp

from agent.clock import Clock, SystemClock
from agent.deps import Deps
from agent.metrics import Metrics
from agent.services.links import LinkFetcher
from agent.services.outbound import outbound_trace
from agent.services.tmdb import TmdbClient
from agent.services.transcribe import Transcriber, build_transcriber
from agent.tokens import TokenCounter
from agent.tools.candidates import word_source
from agent.tracing import apply_tracing
from config.settings import Settings
from storage import Database, StorageConfig, open_storage
from storage.errors import StorageError

if TYPE_CHECKING:  # imported when a model is built: openai and langchain are slow to load
    from agent.planning.transport import ModelTransport


DRAIN_S = 20.0  # how long leaving waits for effects finishing off their turn


def storage_config(settings: Settings) -> StorageConfig:
    return StorageConfig(
        uri=settings.mongodb_uri.get_secret_value() if settings.mongodb_uri else None,
        db_name=settings.mongodb_db,
        data_dir=settings.data_dir,
        embedded_port=settings.embedded_db_port,
        embedded_start_timeout_s=settings.embedded_db_start_timeout_seconds,
        signing_key_file=settings.ledger_signing_key_file,
        embedded_max_restarts=settings.embedded_db_max_restarts,
        search_words=word_source(),
    )


def build_model(
    settings: Settings, counter: TokenCounter, *, temperature: float = 0.0
) -> ModelTransport | None:
    if not settings.model_configured:
        return None
    from agent.planning.structured import output_schema
    from agent.planning.transport import ModelTransport, is_openai
    from agent.tools import registry

    return ModelTransport(
        output_mode="json_schema" if settings.llm_output_mode == "json_schema" else "tools",
        # OpenAI's strict mode takes an object at the root, every other server the union
        output_schema=output_schema(registry().values(), flat=is_openai(settings.openai_base_url)),
        planner_max_tokens=settings.llm_planner_max_tokens,
        frequency_penalty=settings.llm_frequency_penalty,
        presence_penalty=settings.llm_presence_penalty,
        base_url=settings.openai_base_url,
        api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        model=settings.llm_model,
        timeout_s=settings.llm_timeout_seconds,
        max_tokens=settings.llm_max_tokens,
        counter=counter,
        retries=settings.llm_transport_retries,
        temperature=temperature,
    )


@asynccontextmanager
async def open_deps(
    settings: Settings,
    *,
    db: Database | None = None,
    clock: Clock | None = None,
    counter: TokenCounter | None = None,
    metrics: Metrics | None = None,
) -> AsyncIterator[Deps]:
    """Build every client once; close them (and stop the embedded database) on exit."""
    async with AsyncExitStack() as stack:
        metrics = metrics or Metrics()
        if db is None:
            db = await stack.enter_async_context(
                open_storage(storage_config(settings), observer=metrics.observe_db)
            )
        session = aiohttp.ClientSession(trace_configs=[outbound_trace(metrics, "tmdb")])
        stack.push_async_callback(session.close)
        tmdb = TmdbClient(
            session,
            base_url=settings.tmdb_base_url,
            api_key=settings.tmdb_api_key.get_secret_value() if settings.tmdb_api_key else None,
            timeout_s=settings.tmdb_timeout_seconds,
        )
        links = LinkFetcher(
            timeout_s=settings.link_fetch_timeout_seconds,
            max_bytes=settings.link_fetch_max_bytes,
            allow_loopback=settings.link_fetch_allow_loopback,
        )
        await links.start()
        stack.push_async_callback(links.close)
        transcriber: Transcriber | None = None
        if settings.transcription_configured:
            voice = aiohttp.ClientSession(trace_configs=[outbound_trace(metrics, "transcribe")])
            stack.push_async_callback(voice.close)
            transcriber = build_transcriber(settings, voice)
            if transcriber is not None:
                stack.push_async_callback(transcriber.aclose)
        counter = counter or TokenCounter()
        apply_tracing(settings)  # before any model call: LLM_TRACING alone lets traces out
        clock = clock or SystemClock()
        model = build_model(settings, counter)
        if model is not None:
            counter.load()  # at start, not in the first user's turn; without a model it never loads
            stack.push_async_callback(model.aclose)
            if settings.llm_output_mode == "auto":
                from agent.planning.modecache import settle_output_mode

                # kept per server and model for a day: a start does not probe again (issue 28)
                await settle_output_mode(model, settings.data_dir, now_ms=clock.ms())
        deps = Deps(
            settings=settings,
            db=db,
            tmdb=tmdb,
            links=links,
            counter=counter,
            model=model,
            clock=clock,
            metrics=metrics,
            transcriber=transcriber,
        )
        try:
            yield deps
        finally:
            # a delete-all finishing off its turn: given a while, else left to the next start
            await deps.inflight.drain(DRAIN_S)
            with suppress(StorageError):  # statistics only: a database already gone loses them
                await deps.tally.flush(db.usage)  # the counters summed since the last write
