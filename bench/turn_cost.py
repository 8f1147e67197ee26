"""What a model turn costs the server, read from llama-server's own `--metrics` counters.

One everyday conversation (12 messages, 10 of them planned by the model) goes through
`Runtime.handle` against whatever OPENAI_BASE_URL names. Before and after each message
the server's Prometheus counters are read (`/metrics` beside `/v1`):

- `llamacpp:prompt_tokens_total`: prompt tokens the server evaluated (not served
  from its KV cache), the part a CPU pays for;
- `llamacpp:prompt_tokens_cached_total`: prompt tokens reused from the cache;
- `llamacpp:tokens_predicted_total`: tokens generated;
- `llamacpp:prompt_seconds_total`, `llamacpp:tokens_predicted_seconds_total`: the
  time those took, from which this run's rates (tokens/s) are measured.

It prints one line per message, then the figures per model request from the 2nd
message on (the 1st pays for the cold cache): evaluated prompt tokens (mean, and
first/last), generated tokens (mean), requests per model-routed message, and what
those tokens cost at this machine's measured rates and at the issue's (76 prompt, 24.5
generated tokens/s). Tokens are machine-independent;
seconds are not (other processes share the cores), so quote them only with the rates.
It also reports what start-up cost the server: the requests made while the
dependencies were opened (the `auto` output-mode probe, unless a fresh result for
this server and model is kept under DATA_DIR: pass `--data-dir` twice to see it).

A server shared with other clients evaluates again whatever their requests pushed out of
its cache, so its counters overstate what this conversation costs. The requests also go
through a recording proxy on loopback, and each is replayed through the server's own
chat template and tokenizer (`/apply-template`, `/tokenize`: no generation): what a
server serving only this conversation would evaluate (its prompt less the prefix it
shares with the previous prompt and answer) is printed beside the counters
(`lone_client_*`), and the generated tokens are the answers' own `usage`.

    llama-server ... --metrics        # ../shared/tools/local-model/start.sh DIR --metrics
    OPENAI_BASE_URL=http://127.0.0.1:8098/v1 OPENAI_API_KEY=local \\
      LLM_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m LLM_PROFILE=small \\
      .venv/bin/python bench/turn_cost.py [--language pt|en|mixed] [--rounds N] [--fresh-runtime]
        [--data-dir DIR] [--json]

`--language mixed` plays the Portuguese conversation with one English message in it;
`--fresh-runtime` builds the dependencies and the runtime again for every message (the
database kept), as one `lembra chat` per message does.

Never part of the test pass/fail (it needs a model server and takes minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

# the repo root before bench/, whose storage.py would shadow the storage package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.types import Incoming  # noqa: E402
from config.settings import load_settings  # noqa: E402

CONVERSATIONS = {
    "pt": [
        "anota: comprar leite e pão amanhã",
        "salva o filme Interestelar",
        "guarda https://docs.python.org/3/tutorial/",
        "salva a série Dark",
        "obrigado",
        "anota que a senha do wifi está na geladeira",
        "procura python",
        "salva esse vídeo https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "salva o filme Parasita de 2019",
        "apaga a nota do wifi",
        "sim",
        "anota: ligar pra minha mãe no domingo",
    ],
    # one English message among Portuguese ones (issue 41): switching language must not
    # make the server evaluate the whole history again
    "mixed": [
        "anota: comprar leite e pão amanhã",
        "salva o filme Interestelar",
        "guarda https://docs.python.org/3/tutorial/",
        "salva a série Dark",
        "obrigado",
        "save the movie Arrival",
        "anota que a senha do wifi está na geladeira",
        "procura python",
        "salva esse vídeo https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "salva o filme Parasita de 2019",
        "apaga a nota do wifi",
        "sim",
    ],
    "en": [
        "note: buy batteries for the remote",
        "save the movie Inception",
        "save this link https://news.ycombinator.com",
        "save the show Severance",
        "thanks",
        "remember that the gym closes at 10pm on Fridays",
        "find passport",
        "save this video https://youtu.be/9bZkp7q19f0",
        "save the movie Arrival from 2016",
        "delete the note about the gym",
        "yes",
        "note: call the bank about the card",
    ],
}
# The issue's measured rates on the 2-core machine (issue 28), so runs compare without the
# noise of a shared CPU: tokens are machine-independent, these seconds are not.
ISSUE_PROMPT_RATE = 76.0
ISSUE_GENERATED_RATE = 24.5
COUNTERS = {
    "evaluated": "llamacpp:prompt_tokens_total",
    "cached": "llamacpp:prompt_tokens_cached_total",
    "generated": "llamacpp:tokens_predicted_total",
    "prompt_s": "llamacpp:prompt_seconds_total",
    "generated_s": "llamacpp:tokens_predicted_seconds_total",
}


@dataclass(frozen=True)
class Step:
    index: int
    text: str
    requests: int
    evaluated: float
    cached: float
    generated: float
    prompt_s: float
    generated_s: float
    wall_s: float
    state: str
    lone_evaluated: int = 0  # as a server serving only this conversation would count them
    lone_generated: int = 0


def metrics_url(base_url: str) -> str:
    """llama-server's `/metrics`, beside its `/v1`."""
    root = base_url.rstrip("/")
    return (root[: -len("/v1")] if root.endswith("/v1") else root) + "/metrics"


async def read_counters(session: aiohttp.ClientSession, url: str) -> dict[str, float]:
    async with session.get(url) as response:
        if response.status != 200:
            raise SystemExit(
                f"{url} answered HTTP {response.status}: start llama-server with --metrics"
            )
        body = await response.text()
    values: dict[str, float] = {}
    for line in body.splitlines():
        if line.startswith("#") or " " not in line:
            continue
        name, _, value = line.partition(" ")
        values[name] = float(value)
    missing = [name for name in COUNTERS.values() if name not in values]
    if missing:
        raise SystemExit(f"{url} lacks {missing}: is this llama-server with --metrics?")
    return {key: values[name] for key, name in COUNTERS.items()}


def _delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {key: after[key] - before[key] for key in COUNTERS}


class Recorder:
    """A loopback proxy in front of the model server that keeps every chat request and answer."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.exchanges: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> str:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None))
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        path = self.upstream.split("://", 1)[1].partition("/")[2]
        return f"http://127.0.0.1:{port}/{path}".rstrip("/")

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        assert self._session is not None
        body = await request.read()
        root = self.upstream.split("://", 1)
        target = f"{root[0]}://{root[1].partition('/')[0]}{request.path_qs}"
        headers = {k: v for k, v in request.headers.items() if k.lower() not in ("host",)}
        async with self._session.request(
            request.method, target, data=body, headers=headers
        ) as answer:
            payload = await answer.read()
            if request.path.endswith("/chat/completions") and answer.status == 200:
                self.exchanges.append((json.loads(body), json.loads(payload)))
            return web.Response(
                body=payload,
                status=answer.status,
                content_type=answer.content_type,
            )


async def lone_client(
    session: aiohttp.ClientSession,
    root: str,
    exchanges: list[tuple[dict[str, Any], dict[str, Any]]],
) -> list[tuple[int, int]]:
    """(evaluated, generated) of each exchange, as a server serving only them would count them."""

    async def tokens(text: str) -> list[int]:
        async with session.post(f"{root}/tokenize", json={"content": text}) as response:
            return list((await response.json())["tokens"])

    cache: list[int] = []
    out: list[tuple[int, int]] = []
    for body, answer in exchanges:
        async with session.post(
            f"{root}/apply-template", json={"messages": body["messages"]}
        ) as response:
            prompt = await tokens((await response.json())["prompt"])
        shared = 0
        for a, b in zip(prompt, cache, strict=False):
            if a != b:
                break
            shared += 1
        message = (answer.get("choices") or [{}])[0].get("message") or {}
        written = await tokens(str(message.get("content") or ""))
        generated = int((answer.get("usage") or {}).get("completion_tokens") or len(written))
        out.append((max(len(prompt) - shared, 1), generated))
        cache = prompt + written
    return out


def summarize(steps: list[Step], startup: dict[str, float]) -> dict[str, float | int | str]:
    later = [s for s in steps if s.index > 0 and s.requests]
    requests = sum(s.requests for s in later)
    evaluated = sum(s.evaluated for s in later)
    generated = sum(s.generated for s in later)
    prompt_s = sum(s.prompt_s for s in steps)
    generated_s = sum(s.generated_s for s in steps)
    prompt_rate = sum(s.evaluated for s in steps) / prompt_s if prompt_s else 0.0
    gen_rate = sum(s.generated for s in steps) / generated_s if generated_s else 0.0
    per_eval = evaluated / requests if requests else 0.0
    per_gen = generated / requests if requests else 0.0
    first = steps[0]
    return {
        "requests_from_message_2": requests,
        "routed_messages_from_message_2": len(later),
        "requests_per_routed_message": requests / len(later) if later else 0.0,
        "evaluated_prompt_per_request": round(per_eval, 1),
        "evaluated_prompt_min": min((s.evaluated / s.requests for s in later), default=0),
        "evaluated_prompt_max": max((s.evaluated / s.requests for s in later), default=0),
        "cached_prompt_per_request": round(sum(s.cached for s in later) / requests, 1)
        if requests
        else 0.0,
        "generated_per_request": round(per_gen, 1),
        "prompt_tokens_per_s": round(prompt_rate, 1),
        "generated_tokens_per_s": round(gen_rate, 1),
        "seconds_at_measured_rates": round(
            (per_eval / prompt_rate if prompt_rate else 0.0)
            + (per_gen / gen_rate if gen_rate else 0.0),
            1,
        ),
        "seconds_at_issue_rates": round(
            per_eval / ISSUE_PROMPT_RATE + per_gen / ISSUE_GENERATED_RATE, 1
        ),
        "wall_median_s": round(statistics.median([s.wall_s for s in later]), 1) if later else 0.0,
        "first_message_evaluated": first.evaluated,
        "first_message_generated": first.generated,
        "first_message_requests": first.requests,
        "startup_evaluated": startup["evaluated"],
        "startup_generated": startup["generated"],
        "lone_client_evaluated_per_request": round(
            sum(s.lone_evaluated for s in later) / requests, 1
        )
        if requests
        else 0.0,
        "lone_client_evaluated_min": min((s.lone_evaluated / s.requests for s in later), default=0),
        "lone_client_evaluated_max": max((s.lone_evaluated / s.requests for s in later), default=0),
        "lone_client_generated_per_request": round(
            sum(s.lone_generated for s in later) / requests, 1
        )
        if requests
        else 0.0,
    }


async def main(args: argparse.Namespace) -> None:
    base_url = os.environ.get("OPENAI_BASE_URL")
    if not base_url:
        raise SystemExit("set OPENAI_BASE_URL to a llama-server started with --metrics")
    url = args.metrics_url or metrics_url(base_url)
    if args.rounds < 1:
        raise SystemExit("--rounds must be 1 or more")
    texts = CONVERSATIONS[args.language] * args.rounds
    recorder = Recorder(base_url)
    proxied = await recorder.start()
    root = url.removesuffix("/metrics")
    with tempfile.TemporaryDirectory(prefix="lembra-turn-cost-") as scratch:
        data_dir = Path(args.data_dir) if args.data_dir else Path(scratch)
        data_dir.mkdir(parents=True, exist_ok=True)
        settings = load_settings(
            data_dir=data_dir,
            mongodb_uri=None,
            user_daily_token_quota=100_000_000,
            global_daily_token_cap=1_000_000_000,
            tmdb_api_key=None,
            openai_base_url=proxied,
            # a shared server queues requests: wait for the answer rather than fall back
            llm_timeout_seconds=args.timeout,
        )
        user = f"cli:turn-cost-{int(time.time())}"  # a new conversation, even in a kept DATA_DIR
        steps: list[Step] = []
        async with aiohttp.ClientSession() as session:
            opened = await read_counters(session, url)
            async with open_deps(settings) as deps:
                startup = _delta(await read_counters(session, url), opened)
                kept = Runtime(deps)
                mode = deps.model.output_mode if deps.model else "offline"
                print(
                    f"model {deps.model_name} · output mode {mode} · history "
                    f"{settings.llm_history_messages} · start-up: {startup['evaluated']:.0f} "
                    f"prompt tokens evaluated, {startup['generated']:.0f} generated",
                    flush=True,
                )
                for index, message in enumerate(texts):
                    before = await read_counters(session, url)
                    recorded = len(recorder.exchanges)
                    started = time.perf_counter()
                    incoming = Incoming(
                        channel="console",
                        chat_id=user.split(":", 1)[1],
                        user_id=user,
                        text=message,
                    )
                    if args.fresh_runtime:  # nothing kept in process between messages
                        async with open_deps(settings, db=deps.db) as again:
                            reply = await Runtime(again).handle(incoming)
                    else:
                        reply = await kept.handle(incoming)
                    wall = time.perf_counter() - started
                    used = _delta(await read_counters(session, url), before)
                    lone = await lone_client(
                        session, root, recorder.exchanges[max(recorded - 1, 0) :]
                    )
                    lone = lone[1:] if recorded else lone  # the one before: only its cache
                    step = Step(
                        index,
                        message,
                        reply.meta.llm_calls,
                        used["evaluated"],
                        used["cached"],
                        used["generated"],
                        used["prompt_s"],
                        used["generated_s"],
                        wall,
                        reply.meta.state,
                        sum(e for e, _ in lone),
                        sum(g for _, g in lone),
                    )
                    steps.append(step)
                    print(
                        f"{index + 1:2} requests={step.requests} evaluated={step.evaluated:5.0f} "
                        f"(lone {step.lone_evaluated:4d}) cached={step.cached:5.0f} "
                        f"generated={step.generated:4.0f} (lone {step.lone_generated:3d}) "
                        f"wall={wall:5.1f}s {step.state:9} {message!r}",
                        flush=True,
                    )
    await recorder.close()
    summary = summarize(steps, startup)
    if args.json:
        print(json.dumps({"summary": summary, "steps": [asdict(s) for s in steps]}, indent=1))
    print("per model request, from the 2nd message on:")
    for key, value in summary.items():
        print(f"  {key:34} {value}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--language", choices=sorted(CONVERSATIONS), default="pt")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="play the conversation this many times in a row, in one conversation: a longer "
        "one, where the history's block drops are paid (default 1: the issue's 12 messages)",
    )
    parser.add_argument(
        "--fresh-runtime",
        action="store_true",
        help="build the dependencies and runtime again for every message (the database kept), "
        "as one `lembra chat` per message does",
    )
    parser.add_argument("--data-dir", help="keep DATA_DIR here (default: a fresh temporary one)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="seconds a model request may wait (a shared server queues them; default 600)",
    )
    parser.add_argument("--metrics-url", help="default: OPENAI_BASE_URL without /v1, + /metrics")
    parser.add_argument("--json", action="store_true", help="also print every step as JSON")
    asyncio.run(main(parser.parse_args()))
