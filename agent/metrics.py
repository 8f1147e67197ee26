"""Process metrics in one prometheus registry per process (exported by `GET /metrics`).

Built once with the dependencies and passed down: no module-level collectors.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.exposition import generate_latest

from config.version import lembra_version

_DB_BUCKETS = (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2)
_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)


@dataclass
class Metrics:
    registry: CollectorRegistry = field(
        default_factory=lambda: CollectorRegistry(auto_describe=True)
    )

    def __post_init__(self) -> None:
        r = self.registry
        # Channels and the update lifecycle (DESIGN section 5).
        self.updates = Counter(
            "lembra_updates_total",
            "Platform updates by channel and outcome (received, processed, duplicated, rejected, redriven, ignored)",
            ["channel", "outcome"],
            registry=r,
        )
        self.status_callbacks = Counter(
            "lembra_whatsapp_status_callbacks_total",
            "WhatsApp status callbacks",
            ["status"],
            registry=r,
        )
        self.sends = Counter(
            "lembra_messages_sent_total",
            "Messages sent to platforms by outcome",
            ["channel", "outcome"],
            registry=r,
        )
        self.rate_limited = Counter(
            "lembra_rate_limited_total", "Incoming messages dropped by the rate limiter", registry=r
        )
        self.turn_seconds = Histogram(
            "lembra_turn_seconds",
            "Time to handle one message",
            ["kind"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        # Runtime and planner (DESIGN 3.1, 3.4).
        self.turns = Counter("lembra_turns_total", "Turns by intent label", ["intent"], registry=r)
        self.model_calls_avoided = Counter(
            "lembra_model_calls_avoided_total", "Turns answered with no model call", registry=r
        )
        self.model_calls = Counter(
            "lembra_model_calls_total", "Model requests by outcome", ["outcome"], registry=r
        )
        self.model_latency = Histogram(
            "lembra_model_latency_seconds",
            "Model request latency",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.tokens = Counter(
            "lembra_tokens_total",
            "Model tokens by kind (prompt, completion, cached)",
            ["kind"],
            registry=r,
        )
        self.states = Counter(
            "lembra_confidence_state_total", "Replies by confidence state", ["state"], registry=r
        )
        self.planner_outputs = Counter(
            "lembra_planner_outputs_total",
            "Planner outputs by verdict (accepted, invalid, belief_refused, violation)",
            ["verdict"],
            registry=r,
        )
        self.planner_steps = Counter(
            "lembra_planner_steps_total",
            "Planning steps by result (first_try, recovered, failed)",
            ["result"],
            registry=r,
        )
        self.calibration_error = Histogram(
            "lembra_belief_calibration_abs_error",
            "|guessed - real| of first-attempt belief guesses",
            buckets=(0.01, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0),
            registry=r,
        )
        self.quota_exceeded = Counter(
            "lembra_quota_exceeded_total", "Turns refused over quota", ["scope"], registry=r
        )
        # Memory and context (DESIGN 3.6-3.8).
        self.frame_build_seconds = Histogram(
            "lembra_frame_build_seconds",
            "Context frame build time",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.narrative_tokens = Histogram(
            "lembra_narrative_tokens",
            "Tokens of the narrative sent to the model",
            buckets=(100, 200, 400, 800, 1200, 1700, 2500, 4000),
            registry=r,
        )
        self.sections_compressed = Counter(
            "lembra_frame_sections_compressed_total",
            "Frame sections compressed to fit the budget",
            ["section"],
            registry=r,
        )
        self.frame_degraded = Counter(
            "lembra_frame_degraded_total",
            "Frames that fell back to the minimal narrative",
            registry=r,
        )
        self.sanity_discrepancies = Counter(
            "lembra_sanity_check_discrepancies_total",
            "Handover claims contradicted by stored facts (each handover counted once)",
            registry=r,
        )
        self._handovers_counted: dict[str, None] = {}
        self.handovers = Counter(
            "lembra_handovers_written_total", "Session handovers written", ["writer"], registry=r
        )
        self.consolidations = Counter(
            "lembra_consolidation_runs_total", "Consolidation runs", ["trigger"], registry=r
        )
        self.in_flight = Gauge("lembra_turns_in_flight", "Turns being handled now", registry=r)
        self.model_text = Counter(
            "lembra_model_text_checks_total",
            "Model text caught before sending (false_claim, wrong_language, emoji_removed, "
            "data_tag_removed, offer_asked)",
            ["outcome"],
            registry=r,
        )
        self.effects_recovered = Counter(
            "lembra_effects_recovered_total",
            "Interrupted effects (save, delete, delete_all) finished before a turn",
            ["op"],
            registry=r,
        )
        self.frame_cache = Counter(
            "lembra_frame_cache_total",
            "Context frames whose slow sections came from the cache (hit) or were read (miss)",
            ["result"],
            registry=r,
        )
        # Grounding of tool arguments (DESIGN 9.6).
        self.grounding = Counter(
            "lembra_grounding_total",
            "Tool-call arguments by tool, field and verdict (grounded, dropped, reasked)",
            ["tool", "field", "verdict"],
            registry=r,
        )
        # The first hour (issue 34): who may use the bot, and turns served without the model.
        self.senders_refused = Counter(
            "lembra_senders_refused_total",
            "Messages from senders outside ALLOWED_USER_IDS (replied: the day's one refusal; silent)",
            ["outcome"],
            registry=r,
        )
        self.model_fallbacks = Counter(
            "lembra_model_fallbacks_total",
            "Turns the offline planner served because the model failed (timeout, unavailable, "
            "key_rejected), by whether it could serve them (served, unserved)",
            ["reason", "outcome"],
            registry=r,
        )
        # Voice notes (DESIGN 10.3).
        self.transcriptions = Counter(
            "lembra_transcriptions_total",
            "Voice notes by backend (http, local, none) and outcome (ok, empty, reused, too_long, too_large, unsupported, unconfigured, unavailable, failed)",
            ["backend", "outcome"],
            registry=r,
        )
        self.transcribed_seconds = Counter(
            "lembra_transcribed_audio_seconds_total",
            "Seconds of audio sent to a transcription backend",
            ["backend"],
            registry=r,
        )
        self.transcription_seconds = Histogram(
            "lembra_transcription_seconds",
            "Time one transcription took (download excluded)",
            ["backend"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )

        # Operations (issue 16): the process, the build, database and outbound round trips.
        ProcessCollector(registry=r)  # process_cpu_seconds_total, process_resident_memory_bytes...
        PlatformCollector(registry=r)  # python_info
        Info("lembra_build", "The running build", registry=r).info({"version": lembra_version()})
        self.db_seconds = Histogram(
            "lembra_db_round_trip_seconds",
            "Database round trips by collection and operation",
            ["collection", "operation"],
            buckets=_DB_BUCKETS,
            registry=r,
        )
        self.outbound = Histogram(
            "lembra_outbound_request_seconds",
            "Outbound HTTP requests by service (telegram, whatsapp, tmdb, model) and status",
            ["service", "status"],
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        # What each model request cost the server (issue 28): the prompt tokens it had to
        # evaluate (not served from its prefix cache) and the tokens it generated, by model.
        self.model_request_tokens = Histogram(
            "lembra_model_request_tokens",
            "Tokens per model request by model and kind (evaluated: prompt not from the server's cache; generated)",
            ["model", "kind"],
            buckets=(25, 50, 100, 150, 200, 300, 500, 1000, 2000, 4000, 8000),
            registry=r,
        )
        self.content_calls = Counter(
            "lembra_planner_content_calls_total",
            "Planner calls read from an answer's content (DESIGN 9.1) by form (bare, fenced, tagged)",
            ["form"],
            registry=r,
        )

    def observe_db(self, collection: str, operation: str, seconds: float) -> None:
        """Record one database round trip (the storage layer's observer)."""
        self.db_seconds.labels(collection, operation).observe(seconds)

    def observe_outbound(self, service: str, status: str, seconds: float) -> None:
        """Record one outbound request: the HTTP status, or the error's class name."""
        self.outbound.labels(service, status).observe(seconds)

    def observe_model_request(
        self, model: str, *, prompt: int, cached: int, generated: int
    ) -> None:
        """Record one model request's evaluated prompt tokens and generated tokens."""
        self.model_request_tokens.labels(model, "evaluated").observe(max(0, prompt - cached))
        self.model_request_tokens.labels(model, "generated").observe(generated)

    def render(self) -> bytes:
        """The Prometheus text exposition of every metric."""
        return generate_latest(self.registry)

    def count_discrepancies(self, handover_id: str, found: int) -> None:
        """Count a handover's discrepancies the first time this process checks it.

        The last handover is re-checked on every model turn until the next one is
        written; counting each check would multiply one false claim by the turns.
        """
        if found <= 0 or handover_id in self._handovers_counted:
            return
        if len(self._handovers_counted) >= 10_000:  # bounded: forget the oldest
            self._handovers_counted.pop(next(iter(self._handovers_counted)))
        self._handovers_counted[handover_id] = None
        self.sanity_discrepancies.inc(found)
