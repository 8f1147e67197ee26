"""Prompt tokens per model call over a 1,000-turn conversation, next to the full transcript.

Drives 1,000 turns through the real runtime (embedded nx-27017 in memory, the real
ModelTransport over HTTP to the scripted model server, the fake TMDB) and, at turns
50, 200, 500 and 1,000, prints the prompt tokens of that turn's model call, as the
scripted server counted the request it received, next to a baseline counted the same
way (TokenCounter.count_request): the same request with the whole stored history in
place of the memory tiers, i.e. the system prompt, every message so far as native
messages, and the new message.

Goals (issue 5): turn 1,000 <= 1.1x turn 50; the turn-1,000 prompt >= 20x smaller
than the full transcript. The turns cycle through notes, movies (re-saving some),
searches, "lista tudo" and greetings; the measured turns all call the model.
With `--dream-every N`, a consolidation (no model) runs after every N turns, so the
measured prompts also carry the baseline and the synthesized periods (issue 31).
Run: `.venv/bin/python bench/tokens.py [--turns N] [--dream-every N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from langchain_openai.chat_models.base import _convert_message_to_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.clock import FakeClock  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.memory.consolidation import consolidate  # noqa: E402
from agent.memory.history import to_messages  # noqa: E402
from agent.tokens import TokenCounter  # noqa: E402
from agent.types import Incoming  # noqa: E402
from bot.fakes.scripted_model import ScriptedModelServer  # noqa: E402
from bot.fakes.tmdb import FakeTmdb  # noqa: E402
from config.settings import Settings  # noqa: E402
from storage import Database  # noqa: E402
from storage.database import make_client  # noqa: E402
from storage.embedded import EmbeddedServer  # noqa: E402

USER = "cli:bench"
ZONE = "America/Sao_Paulo"
CHECKPOINTS = (50, 200, 500, 1_000)
BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}
MOVIES = [("Alien", 1979), ("Heat", 1995), ("Fargo", 1996), ("Roma", 2018), ("Up", 2009)]
UNLIMITED = 10**12


def step(tool: str, **args: Any) -> dict[str, Any]:
    return {"action": "CALL_TOOL", "tool": tool, "args": args, "message": None, "belief": BELIEF}


def turn(n: int) -> tuple[str, list[dict[str, Any]]]:
    """Message `n` (1-based) and the model's scripted outputs for it."""
    match n % 5:
        case 0:
            text = f"ideia número {n} para o projeto da casa"
            return f"anota: {text}", [step("save_note", content=text)]
        case 1:
            title, year = MOVIES[(n // 5) % len(MOVIES)]
            return f"salva o filme {title} de {year}", [step("save_movie", title=title, year=year)]
        case 2:
            # a plain search is answered from storage, in code (issue 26): no model output
            return f"procura a ideia {n - 2} nas minhas notas", []
        case 3:
            return "lista tudo", []
        case _:
            return "oi", []


def settings(model_url: str, tmdb_url: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        openai_base_url=model_url,
        openai_api_key="bench-not-a-secret",
        llm_model="bench-scripted",
        tmdb_base_url=tmdb_url,
        tmdb_api_key=None,
        default_language="pt",
        default_timezone=ZONE,
        user_daily_token_quota=UNLIMITED,
        admin_daily_token_quota=UNLIMITED,
        global_daily_token_cap=UNLIMITED,
        admin_user_ids="",
        background_llm=False,
    )


def full_transcript_tokens(
    counter: TokenCounter, body: dict[str, Any], history: list[Any], text: str
) -> int:
    """The request of `body` with every stored message in place of the window it sent."""
    sent = body["messages"]
    history_wire = [_convert_message_to_dict(m) for m in to_messages(history)]
    messages = [sent[0], *history_wire, {"role": "user", "content": text}]
    return counter.count_request(messages, body.get("tools"))


async def run(turns: int, dream_every: int = 0) -> None:
    counter = TokenCounter()
    server = EmbeddedServer(Path("."), memory=True)
    uri = server.start()
    db = Database(make_client(uri), f"bench_tokens_{uuid.uuid4().hex[:8]}")
    clock = FakeClock(datetime(2026, 1, 5, 10, 0, tzinfo=ZoneInfo(ZONE)))
    model = ScriptedModelServer(context_size=1_000_000, counter=counter)
    tmdb = FakeTmdb()
    rows: list[tuple[int, int, int]] = []
    timings: list[float] = []
    try:
        await db.ensure_indexes()
        config = settings(await model.start(), await tmdb.start())
        async with open_deps(config, db=db, clock=clock, counter=counter) as deps:
            runtime = Runtime(deps)
            for n in range(1, turns + 1):
                text, outputs = turn(n)
                model.begin_turn(outputs)
                clock.advance(10)
                started = time.perf_counter()
                history = await db.messages.range(USER, USER, 1, 10**9) if n in CHECKPOINTS else []
                t0 = time.perf_counter()
                await runtime.handle(
                    Incoming(channel="console", chat_id="bench", user_id=USER, text=text)
                )
                timings.append(time.perf_counter() - t0)
                report = model.end_turn()
                if report.problems():
                    raise SystemExit(f"turn {n}: {report.problems()}")
                if dream_every and n % dream_every == 0:
                    await consolidate(deps, USER, trigger="bench", use_model=False)
                if n in CHECKPOINTS:
                    request = report.requests[0]
                    assert request.prompt_tokens is not None
                    full = full_transcript_tokens(counter, request.body, history, text)
                    rows.append((n, request.prompt_tokens, full))
                    print(
                        f"  turn {n:>5}: {request.prompt_tokens:>6} prompt tokens "
                        f"(full transcript {full:>8}) "
                        f"[{(time.perf_counter() - started):.2f} s incl. baseline]",
                        file=sys.stderr,
                    )
    finally:
        await model.close()
        await tmdb.close()
        await db.drop()
        await db.close()
        server.stop()
    report_rows(rows, timings, counter)


def report_rows(
    rows: list[tuple[int, int, int]], timings: list[float], counter: TokenCounter
) -> None:
    print(f"prompt tokens per model call ({counter.backend} cl100k), {len(timings)} turns")
    print(f"{'turn':>6} {'prompt':>8} {'full transcript':>16} {'smaller by':>11}")
    for n, prompt, full in rows:
        print(f"{n:>6} {prompt:>8} {full:>16} {full / prompt:>10.1f}x")
    by_turn = {n: (prompt, full) for n, prompt, full in rows}
    if 50 in by_turn and max(by_turn) > 50:
        last = max(by_turn)
        ratio = by_turn[last][0] / by_turn[50][0]
        smaller = by_turn[last][1] / by_turn[last][0]
        print(
            f"turn {last} / turn 50 = {ratio:.3f} (goal <= 1.1: {'met' if ratio <= 1.1 else 'MISSED'}); "
            f"full transcript / prompt at turn {last} = {smaller:.1f}x "
            f"(goal >= 20x: {'met' if smaller >= 20 else 'MISSED'})"
        )
    ordered = sorted(timings)
    print(
        f"runtime per turn: median {ordered[len(ordered) // 2] * 1e3:.0f} ms, "
        f"p95 {ordered[int(len(ordered) * 0.95)] * 1e3:.0f} ms, "
        f"mean {sum(timings) / len(timings) * 1e3:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1_000)
    parser.add_argument("--dream-every", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(run(args.turns, args.dream_every))


if __name__ == "__main__":
    main()
