"""Planner-path figures with the scripted model server answering instantly (issue 4).

Run from the repo root: `.venv/bin/python bench/planner.py [--turns N]`. It prints:

1. The runtime's own overhead per model turn: `Runtime.handle()` wall time minus the
   time spent inside the model request (the transport's measured latency of the
   request, i.e. the langchain/openai client call and the loopback round trip to a
   server that answers at once). Measured over `--turns` (default 300) model turns of
   one user on the embedded database (nx-27017 in memory), after 20 warm-up turns, in a
   rotation of save_note, search_items, enrich_movie (a clear TMDB candidate, saved or
   already saved) and save_link. The overhead includes classification, history
   loading, prompt building and token counting, validation, the tool, confidence and
   persistence.

2. Model calls per message over the transcript suite (tests/transcripts). Each turn is
   grouped by what the classifier makes of its text: `deterministic` when it is not an
   `llm` label and the transcript scripts no model output for it (answered in code),
   else by the planner intent (save, search, delete, other). Files whose point is to
   inject faults (invalid_*, belief_*, model_*, quota_*: refused outputs, transport
   errors, quotas) are shown apart, since their extra calls are the behaviour under
   test. Goal: <= 1.1 on save/search flows, 0 on deterministic turns.

3. The share of messages answered with no model call at all in two mixes, run through
   the real runtime, each message scripted with the model output it should need:

   - `everyday` (24 messages, one user's active day): 11 requests the model plans
     (5 saves by title, 1 note, 1 link, 2 searches, 1 delete by description and an
     "obrigado", which also reaches the model) and 13 answered in code: the 2 choices
     that follow ambiguous titles ("1", a year), the delete's "sim", 4 lists ("lista
     tudo", "lista meus filmes", "quais séries eu salvei?", /list), "oi", "ajuda",
     /why, "apaga tudo" declined with "não", and a stray "ok". Assumption: a user
     browses and confirms about as often as they ask for something new.
   - `save-heavy` (11 messages, a user who only feeds Lembra): 8 saves, the 2 choices
     that follow ambiguous titles, one "lista tudo". A worst case for the share.

   The share is mostly a property of the mix; what this run checks is that every
   message the mix expects in code really was answered in code (a leak to the model
   would show as a model call and an "unexpected" line).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.assembly import open_deps  # noqa: E402
from agent.clock import FakeClock  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.tokens import TokenCounter  # noqa: E402
from agent.types import Incoming, Reply  # noqa: E402
from agent.understanding.intent import IntentClassifier  # noqa: E402
from bot.cli.replay import load_transcript, replay_files  # noqa: E402
from bot.fakes.scripted_model import ScriptedModelServer  # noqa: E402
from bot.fakes.tmdb import FakeTmdb  # noqa: E402
from config.settings import Settings  # noqa: E402
from storage import Database  # noqa: E402
from storage.database import make_client  # noqa: E402
from storage.embedded import EmbeddedServer  # noqa: E402

TRANSCRIPTS = ROOT / "tests" / "transcripts"
FAULT_PREFIXES = ("invalid_", "belief_", "model_", "quota_")
WARMUP = 20
TIMEZONE = "America/Sao_Paulo"
UNLIMITED = 10**12
TMDB = {
    "movie": {
        "inception": [
            {"id": 27205, "title": "Inception", "release_date": "2010-07-15"},
            {"id": 1000001, "title": "Inception", "release_date": "2014-01-01"},
        ],
        "duna": [
            {"id": 841, "title": "Duna", "release_date": "1984-12-14"},
            {"id": 438631, "title": "Duna", "release_date": "2021-09-15"},
        ],
        "a origem": [{"id": 27205, "title": "A Origem", "release_date": "2010-07-15"}],
        "parasita": [{"id": 496243, "title": "Parasita", "release_date": "2019-05-30"}],
        "interestelar": [{"id": 157336, "title": "Interestelar", "release_date": "2014-11-05"}],
    },
    "tv": {"dark": [{"id": 70523, "name": "Dark", "first_air_date": "2017-12-01"}]},
}


def step(tool: str | None, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """One scripted planner output (CALL_TOOL, or NOOP when `tool` is None)."""
    return {
        "action": "CALL_TOOL" if tool else "NOOP",
        "tool": tool,
        "args": args if tool else None,
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": 1.0, "delta": 0},
    }


Message = tuple[str, list[dict[str, Any]]]  # text, the model outputs it should need

EVERYDAY: list[Message] = [
    ("oi", []),
    ("salva inception", [step("enrich_movie", {"title": "inception"})]),
    ("1", []),
    ("anota: comprar leite amanhã", [step("save_note", {"content": "comprar leite amanhã"})]),
    ("salva a série dark", [step("enrich_tv_show", {"title": "dark"})]),
    ("lista tudo", []),
    (
        "guarda https://example.com/receita-de-pao",
        [step("save_link", {"url": "https://example.com/receita-de-pao"})],
    ),
    ("salva duna", [step("enrich_movie", {"title": "duna"})]),
    ("2021", []),
    ("procura leite", [step("search_items", {"query": "leite"})]),
    ("lista meus filmes", []),
    ("salva o filme a origem", [step("enrich_movie", {"title": "a origem"})]),
    ("/why", []),
    ("tem algo sobre pão?", [step("search_items", {"query": "pão"})]),
    ("apaga a nota do leite", [step("delete_item", {"query": "leite"})]),
    ("sim", []),
    ("quais séries eu salvei?", []),
    ("obrigado", [step(None)]),
    ("ajuda", []),
    ("salva parasita", [step("enrich_movie", {"title": "parasita"})]),
    ("apaga tudo", []),
    ("não", []),
    ("ok", []),
    ("/list", []),
]

SAVE_HEAVY: list[Message] = [
    ("salva inception", [step("enrich_movie", {"title": "inception"})]),
    ("1", []),
    ("salva a série dark", [step("enrich_tv_show", {"title": "dark"})]),
    ("anota: comprar leite amanhã", [step("save_note", {"content": "comprar leite amanhã"})]),
    ("salva duna", [step("enrich_movie", {"title": "duna"})]),
    ("2021", []),
    (
        "guarda https://example.com/receita-de-pao",
        [step("save_link", {"url": "https://example.com/receita-de-pao"})],
    ),
    ("salva parasita", [step("enrich_movie", {"title": "parasita"})]),
    ("salva interestelar", [step("enrich_movie", {"title": "interestelar"})]),
    (
        "anota: levar o carro na revisão",
        [step("save_note", {"content": "levar o carro na revisão"})],
    ),
    ("lista tudo", []),
]


def settings_for(model_url: str, tmdb_url: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        openai_base_url=model_url,
        openai_api_key="bench-not-a-secret",
        llm_model="bench-scripted",
        tmdb_base_url=tmdb_url,
        default_language="pt",
        default_timezone=TIMEZONE,
        user_daily_token_quota=UNLIMITED,
        admin_daily_token_quota=UNLIMITED,
        global_daily_token_cap=UNLIMITED,
        admin_user_ids="",
    )


@dataclass
class World:
    runtime: Runtime
    model: ScriptedModelServer
    clock: FakeClock

    def model_seconds(self) -> float:
        """Seconds spent inside answered model requests so far (the transport's own measure)."""
        value = self.runtime.deps.metrics.registry.get_sample_value(
            "lembra_model_latency_seconds_sum"
        )
        return value or 0.0

    async def say(
        self, user: str, text: str, outputs: Sequence[dict[str, Any]]
    ) -> tuple[Reply, list[str]]:
        """The reply, and what the scripted server found wrong (unused or missing outputs)."""
        self.clock.advance(5)
        self.model.begin_turn(outputs)
        incoming = Incoming(channel="console", chat_id=user, user_id=f"cli:{user}", text=text)
        try:
            reply = await self.runtime.handle(incoming)
        finally:
            problems = self.model.end_turn().problems()
        return reply, problems


@asynccontextmanager
async def open_world(uri: str, counter: TokenCounter) -> AsyncIterator[World]:
    db = Database(make_client(uri), f"bench_{uuid.uuid4().hex[:8]}")
    await db.ensure_indexes()
    clock = FakeClock(datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo(TIMEZONE)))
    model = ScriptedModelServer(counter=counter)
    tmdb = FakeTmdb(TMDB)
    try:
        settings = settings_for(await model.start(), await tmdb.start())
        async with open_deps(settings, db=db, clock=clock, counter=counter) as deps:
            yield World(Runtime(deps), model, clock)
    finally:
        await model.close()
        await tmdb.close()
        await db.drop()
        await db.close()


def rotation(i: int) -> Message:
    match i % 4:
        case 0:
            return f"anota: tarefa {i}", [step("save_note", {"content": f"tarefa {i}"})]
        case 1:
            return f"procura tarefa {i - 1}", [step("search_items", {"query": f"tarefa {i - 1}"})]
        case 2:
            return "salva o filme a origem", [step("enrich_movie", {"title": "a origem"})]
        case _:
            return f"guarda https://example.com/{i}", [
                step("save_link", {"url": f"https://example.com/{i}"})
            ]


def percentile(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


async def bench_overhead(uri: str, counter: TokenCounter, turns: int) -> None:
    overheads: list[float] = []
    totals: list[float] = []
    async with open_world(uri, counter) as world:
        for i in range(WARMUP + turns):
            text, outputs = rotation(i)
            before = world.model_seconds()
            started = time.perf_counter()
            reply, problems = await world.say("bench", text, outputs)
            elapsed = time.perf_counter() - started
            inside_model = world.model_seconds() - before
            if reply.meta.llm_calls != 1 or problems:
                raise SystemExit(f"turn {i} ({text!r}) did not make exactly one model call")
            if i >= WARMUP:
                overheads.append((elapsed - inside_model) * 1e3)
                totals.append(elapsed * 1e3)
    print(f"1. Runtime overhead per model turn ({turns} turns after {WARMUP} warm-up, embedded DB)")
    print(
        f"   overhead (handle - model request): p50 {statistics.median(overheads):.1f} ms, "
        f"p99 {percentile(overheads, 0.99):.1f} ms, mean {statistics.fmean(overheads):.1f} ms"
    )
    print(
        f"   whole handle() for comparison:     p50 {statistics.median(totals):.1f} ms, "
        f"p99 {percentile(totals, 0.99):.1f} ms"
    )


def turn_group(classifier: IntentClassifier, text: str | None, scripted: bool) -> str:
    if text is None:
        return "deterministic"  # a button press
    intent = classifier.classify(text)
    if intent.action == "llm":
        return str(intent.entities.get("intent", "other"))
    return "other" if scripted else "deterministic"


async def bench_transcripts(uri: str, counter: TokenCounter) -> None:
    files = sorted(TRANSCRIPTS.glob("*.yaml"))
    reports: list[str] = []
    status = await replay_files(
        [str(f) for f in files], emit=reports.append, server_uri=uri, counter=counter
    )
    classifier = IntentClassifier()
    calls: dict[tuple[bool, str], list[int]] = defaultdict(list)
    for path, line in zip(files, reports, strict=True):
        report = json.loads(line)
        spec = load_transcript(path)
        fault = path.name.startswith(FAULT_PREFIXES)
        for turn, result in zip(spec.turns, report["turns"], strict=True):
            group = turn_group(classifier, turn.user, bool(turn.llm or turn.llm_errors))
            calls[(fault, group)].append(result["llm_calls"])
    print(f"\n2. Model calls per message over the transcript suite ({len(files)} files)")
    if status != 0:
        print("   (warning: some transcripts failed; figures are from what ran)")
    print(f"   {'group':<22}{'ordinary files':>22}{'fault-injection files':>26}")
    for group in ("deterministic", "save", "search", "save+search", "delete", "other"):
        cells = []
        for fault in (False, True):
            if group == "save+search":
                values = calls[(fault, "save")] + calls[(fault, "search")]
            else:
                values = calls[(fault, group)]
            cells.append(
                f"{sum(values) / len(values):.2f} ({sum(values)}/{len(values)})" if values else "-"
            )
        print(f"   {group:<22}{cells[0]:>22}{cells[1]:>26}")


async def bench_mix(uri: str, counter: TokenCounter, name: str, mix: Sequence[Message]) -> None:
    users = 4
    answered_in_code = 0
    model_calls = 0
    unexpected: list[str] = []
    async with open_world(uri, counter) as world:
        for u in range(users):
            for text, outputs in mix:
                reply, problems = await world.say(f"{name}{u}", text, outputs)
                model_calls += reply.meta.llm_calls
                answered_in_code += reply.meta.llm_calls == 0
                if problems:
                    unexpected.append(f"{text!r}: {problems}")
    total = users * len(mix)
    print(
        f"   {name:<11} {len(mix):>2} messages x {users} users: "
        f"{answered_in_code / total:.0%} with no model call, "
        f"{model_calls / total:.2f} model calls per message"
    )
    for line in unexpected[:5]:
        print(f"      unexpected: {line}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=300, help="model turns timed (default 300)")
    args = parser.parse_args()
    # The transcripts make TMDB and the model fail on purpose: keep their warnings out.
    logging.basicConfig(level=logging.ERROR)
    counter = TokenCounter()
    server = EmbeddedServer(Path("."), memory=True)
    uri = server.start()
    try:
        await bench_overhead(uri, counter, args.turns)
        await bench_transcripts(uri, counter)
        print("\n3. Share of messages answered with no model call (realistic mixes)")
        await bench_mix(uri, counter, "everyday", EVERYDAY)
        await bench_mix(uri, counter, "save-heavy", SAVE_HEAVY)
    finally:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
