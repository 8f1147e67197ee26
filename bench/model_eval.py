"""Everyday messages through `Runtime.handle` against a real model: does the planner do the job?

Runs labelled PT and EN messages (saves of each type, questions about what is saved,
searches, single deletes, small talk, thanks, mixed) in order, one conversation per
language, against whatever OPENAI_BASE_URL names, on a fresh embedded database. A
message succeeds when it has the right effect and no other: the item it asked to save
and nothing else, one item fewer for a delete (the confirmation is answered "sim"/"yes"
in code), no change for anything else, and never a FAIL reply; questions must name
what they ask about. Prints, per category: task success, invalid outputs, model calls
per message and per model-routed message, prompt and cached tokens, p50/p95 turn
latency; then stored facts (title words, year, tmdb_id) that appear in no message, and
how often grounding (DESIGN 9.6) kept, dropped or re-asked a tool argument.

    OPENAI_BASE_URL=http://127.0.0.1:8099/v1 OPENAI_API_KEY=local \\
      LLM_MODEL=qwen2.5-coder-1.5b-instruct-q4_k_m LLM_PROFILE=small \\
      .venv/bin/python bench/model_eval.py [--only CATEGORY,...] [--every N] [--json]

Never part of the test pass/fail (it needs a model server and takes minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# the repo root before bench/, whose storage.py would shadow the storage package
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agent.assembly import open_deps  # noqa: E402
from agent.conversation.runtime import Runtime  # noqa: E402
from agent.types import Incoming, Reply  # noqa: E402
from config.settings import load_settings  # noqa: E402


@dataclass(frozen=True)
class Case:
    text: str
    category: str
    saves: str | None = None  # the item type it must add
    deletes: bool = False  # it must remove exactly one item
    mentions: tuple[str, ...] = ()  # what the reply must name (case-insensitive)
    reminds: bool = False  # it must set exactly one reminder (and save no item)


PT = [
    Case("anota: comprar leite e pão amanhã", "save_note", saves="note"),
    Case("anota que a senha do wifi da casa da praia está na geladeira", "save_note", saves="note"),
    # a reminder request since reminders exist (DESIGN 9.3), answered in code
    Case("lembrete pra mim: a consulta do dentista é dia 12", "reminder", reminds=True),
    Case("anota: consulta do dentista, levar os exames", "save_note", saves="note"),
    Case("salva o filme Interestelar", "save_movie", saves="movie"),
    Case("quero guardar o filme Cidade de Deus", "save_movie", saves="movie"),
    Case("salva o filme Parasita de 2019", "save_movie", saves="movie"),
    Case("salva a série Dark", "save_tv", saves="tv_show"),
    Case("guarda a série Breaking Bad pra eu ver depois", "save_tv", saves="tv_show"),
    Case("salva esse link https://www.bbc.com/portuguese", "save_link", saves="link"),
    Case("guarda https://docs.python.org/3/tutorial/", "save_link", saves="link"),
    Case(
        "salva esse vídeo https://www.youtube.com/watch?v=dQw4w9WgXcQ", "save_video", saves="video"
    ),
    Case("qual filme eu salvei?", "question", mentions=("Interestelar",)),
    Case("quais séries eu tenho salvas?", "question", mentions=("Dark",)),
    Case("quais notas eu tenho?", "question", mentions=("leite",)),
    Case("eu salvei algum link da bbc?", "question", mentions=("bbc",)),
    Case("procura dentista", "search", mentions=("dentista",)),
    Case("busca breaking bad nos meus itens", "search", mentions=("Breaking Bad",)),
    Case("procura python", "search", mentions=("python",)),
    Case("apaga a nota do wifi", "delete", deletes=True),
    Case("remove o filme Cidade de Deus", "delete", deletes=True),
    Case("oi, tudo bem?", "smalltalk"),
    Case("bom dia!", "smalltalk"),
    Case("haha muito bom", "smalltalk"),
    Case("você é muito útil", "smalltalk"),
    Case("obrigado", "thanks"),
    Case("valeu!", "thanks"),
    Case("muito obrigada pela ajuda", "thanks"),
    Case("oi! anota: pagar o condomínio até sexta", "mixed", saves="note"),
    Case("valeu, e salva também o filme Central do Brasil", "mixed", saves="movie"),
    Case("o que é https://www.wikipedia.org?", "mixed"),
    Case("tem alguma série na minha lista?", "question", mentions=("Breaking Bad",)),
    Case("anota: ligar pra minha mãe no domingo", "save_note", saves="note"),
]
EN = [
    Case("note: buy batteries for the remote", "save_note", saves="note"),
    Case("remember that the gym closes at 10pm on Fridays", "save_note", saves="note"),
    Case("save a note: renew my passport in March", "save_note", saves="note"),
    Case("save the movie Inception", "save_movie", saves="movie"),
    Case("add the movie The Godfather to my list", "save_movie", saves="movie"),
    Case("save the movie Arrival from 2016", "save_movie", saves="movie"),
    Case("save the show Severance", "save_tv", saves="tv_show"),
    Case("save the TV series The Office", "save_tv", saves="tv_show"),
    Case("save this link https://news.ycombinator.com", "save_link", saves="link"),
    Case("keep https://en.wikipedia.org/wiki/Alan_Turing", "save_link", saves="link"),
    Case("save this video https://youtu.be/9bZkp7q19f0", "save_video", saves="video"),
    Case("what movies did I save?", "question", mentions=("Inception",)),
    Case("which shows do I have saved?", "question", mentions=("Severance",)),
    Case("what notes do I have?", "question", mentions=("batteries",)),
    Case("did I save anything about Turing?", "question", mentions=("Turing",)),
    Case("find passport", "search", mentions=("passport",)),
    Case("search my stuff for the office", "search", mentions=("Office",)),
    Case("look for gym", "search", mentions=("gym",)),
    Case("delete the note about the gym", "delete", deletes=True),
    Case("remove the movie The Godfather", "delete", deletes=True),
    Case("hi, how are you?", "smalltalk"),
    Case("good morning!", "smalltalk"),
    Case("lol nice", "smalltalk"),
    Case("you are great", "smalltalk"),
    Case("thanks", "thanks"),
    Case("thank you so much!", "thanks"),
    Case("cheers, appreciate it", "thanks"),
    Case("hey! note: water the plants on Sunday", "mixed", saves="note"),
    Case("thanks, and also save the movie Amélie", "mixed", saves="movie"),
    Case("what is https://www.python.org?", "mixed"),
    Case("do I have any TV show saved?", "question", mentions=("Severance",)),
    Case("note: call the bank about the card", "save_note", saves="note"),
]
CONFIRM = {"pt": "sim", "en": "yes"}


@dataclass
class Result:
    case: Case
    language: str
    ok: bool
    why: str
    calls: int
    invalid: float
    prompt: float
    cached: float
    seconds: float
    turn_index: int


@dataclass
class Totals:
    results: list[Result] = field(default_factory=list)


def _fold(text: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c)
    )


def _counter(runtime: Runtime, name: str, **labels: str) -> float:
    value = runtime.deps.metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value


async def _items(runtime: Runtime, user: str) -> list[Any]:
    return await runtime.deps.db.items.newest(user, 500)


async def _say(runtime: Runtime, user: str, text: str) -> Reply:
    chat = user.split(":", 1)[1]
    return await runtime.handle(Incoming(channel="console", chat_id=chat, user_id=user, text=text))


def _judge(
    case: Case, reply: Reply, added: list[Any], removed: int, reminders: int = 0
) -> tuple[bool, str]:
    if reply.meta.state == "FAIL":
        return False, "FAIL reply"
    if case.reminds:
        if reminders != 1 or added or removed:
            return False, f"reminders {reminders}, saved {len(added)}, removed {removed}"
    elif reminders:
        return False, f"unasked effect: {reminders} reminder(s) set"
    elif case.saves is not None:
        kinds = [i.type for i in added]
        if kinds != [case.saves] or removed:
            return False, f"saved {kinds or 'nothing'}, removed {removed}"
    elif case.deletes:
        if removed != 1 or added:
            return False, f"removed {removed}, saved {len(added)}"
    elif added or removed:
        return False, f"unasked effect: saved {len(added)}, removed {removed}"
    folded = _fold(reply.text)
    missing = [m for m in case.mentions if _fold(m) not in folded]
    if missing:
        return False, f"reply does not name {missing}"
    return True, ""


async def run_case(runtime: Runtime, user: str, language: str, case: Case, index: int) -> Result:
    before = {i.id for i in await _items(runtime, user)}
    reminders0 = len(await runtime.deps.db.reminders.for_user(user))
    invalid0 = _counter(runtime, "lembra_planner_outputs_total", verdict="invalid")
    prompt0 = _counter(runtime, "lembra_tokens_total", kind="prompt")
    cached0 = _counter(runtime, "lembra_tokens_total", kind="cached")
    started = time.perf_counter()
    reply = await _say(runtime, user, case.text)
    seconds = time.perf_counter() - started
    calls = reply.meta.llm_calls
    if case.deletes and reply.choices:  # the runtime's own confirmation, answered in code
        confirm = await _say(runtime, user, CONFIRM[language])
        calls += confirm.meta.llm_calls
    after = await _items(runtime, user)
    added = [i for i in after if i.id not in before]
    removed = len(before - {i.id for i in after})
    reminders = len(await runtime.deps.db.reminders.for_user(user)) - reminders0
    ok, why = _judge(case, reply, added, removed, reminders)
    return Result(
        case,
        language,
        ok,
        why,
        calls,
        _counter(runtime, "lembra_planner_outputs_total", verdict="invalid") - invalid0,
        _counter(runtime, "lembra_tokens_total", kind="prompt") - prompt0,
        _counter(runtime, "lembra_tokens_total", kind="cached") - cached0,
        seconds,
        index,
    )


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summarize(results: list[Result]) -> list[dict[str, Any]]:
    groups: dict[str, list[Result]] = defaultdict(list)
    for result in results:
        groups[result.case.category].append(result)
    groups["ALL"] = list(results)
    rows = []
    for category, group in groups.items():
        routed = [r for r in group if r.calls]
        later = [r for r in group if r.turn_index > 0]
        prompt_later = sum(r.prompt for r in later)
        rows.append(
            {
                "category": category,
                "messages": len(group),
                "success": sum(r.ok for r in group) / len(group),
                "invalid_per_msg": sum(r.invalid for r in group) / len(group),
                "calls_per_msg": sum(r.calls for r in group) / len(group),
                "calls_per_routed": sum(r.calls for r in routed) / len(routed) if routed else 0.0,
                "prompt_tokens": int(sum(r.prompt for r in group)),
                "cached_tokens": int(sum(r.cached for r in group)),
                "cached_share_from_turn_2": (
                    sum(r.cached for r in later) / prompt_later if prompt_later else 0.0
                ),
                "p50_s": statistics.median([r.seconds for r in group]),
                "p95_s": _pct([r.seconds for r in group], 0.95),
            }
        )
    return rows


def ungrounded_facts(items: list[Any], messages: list[str]) -> list[str]:
    """Stored title words, years and tmdb ids found in no message (no other source here)."""
    said = _fold(" ".join(messages))
    found = []
    for item in items:
        title = getattr(item, "title", None) or ""
        if getattr(item, "enriched", False):
            continue  # its title, year and id came from TMDB or the fetched page (a source)
        strays = [w for w in _fold(title).split() if len(w) > 2 and w not in said]
        if strays:
            found.append(f"{item.type} title {title!r}: {strays} not in any message")
        year = getattr(item, "year", None)
        if year is not None and str(year) not in said:
            found.append(f"{item.type} {title!r}: year {year} not in any message")
        if getattr(item, "tmdb_id", None) is not None:
            found.append(f"{item.type} {title!r}: tmdb_id {item.tmdb_id} with no TMDB source")
    return found


def grounding_report(runtime: Runtime, routed: int) -> list[str]:
    """How often grounding (DESIGN 9.6) dropped a fact or re-asked the model, by field."""
    counts: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for metric in runtime.deps.metrics.grounding.collect():
        for sample in metric.samples:
            if sample.name.endswith("_total"):
                where = f"{sample.labels['tool']}.{sample.labels['field']}"
                counts[sample.labels["verdict"]][where] += sample.value
    lines = []
    for verdict in ("grounded", "dropped", "reasked"):
        total = sum(counts[verdict].values())
        detail = ", ".join(f"{k} {v:.0f}" for k, v in sorted(counts[verdict].items()))
        rate = total / routed if routed else 0.0
        lines.append(
            f"  {verdict:8} {total:4.0f} ({rate:.2f} per model-routed message){': ' if detail else ''}{detail}"
        )
    return lines


async def main(args: argparse.Namespace) -> None:
    only = set(args.only.split(",")) if args.only else None
    plan = [
        (lang, case)
        for lang, cases in (("pt", PT), ("en", EN))
        for case in cases[:: args.every]
        if only is None or case.category in only
    ]
    with tempfile.TemporaryDirectory(prefix="lembra-eval-") as data_dir:
        settings = load_settings(
            data_dir=Path(data_dir),
            mongodb_uri=None,
            user_daily_token_quota=100_000_000,
            global_daily_token_cap=1_000_000_000,
            tmdb_api_key=None,
        )
        async with open_deps(settings) as deps:
            runtime = Runtime(deps)
            mode = deps.model.output_mode if deps.model else "offline"
            print(
                f"model {deps.model_name} · output mode {mode} · {len(plan)} messages", flush=True
            )
            results: list[Result] = []
            seen: dict[str, int] = defaultdict(int)
            for lang, case in plan:
                user = f"cli:eval-{lang}"
                result = await run_case(runtime, user, lang, case, seen[lang])
                seen[lang] += 1
                results.append(result)
                mark = "ok " if result.ok else "BAD"
                print(
                    f"{mark} [{case.category:10}] {result.seconds:6.1f}s calls={result.calls} "
                    f"inv={result.invalid:.0f} prompt={result.prompt:.0f} cached={result.cached:.0f} "
                    f"{case.text!r} {result.why}",
                    flush=True,
                )
            items = [*await _items(runtime, "cli:eval-pt"), *await _items(runtime, "cli:eval-en")]
            grounding = grounding_report(runtime, sum(1 for r in results if r.calls > 0))
    rows = summarize(results)
    if args.json:
        print(json.dumps(rows, indent=1))
    header = (
        f"{'category':12} {'n':>3} {'success':>8} {'inv/msg':>8} {'calls/msg':>9} "
        f"{'calls/routed':>12} {'prompt':>8} {'cached':>8} {'cache%2+':>8} {'p50 s':>7} {'p95 s':>7}"
    )
    print(header)
    for row in rows:
        print(
            f"{row['category']:12} {row['messages']:>3} {row['success']:>8.0%} "
            f"{row['invalid_per_msg']:>8.2f} {row['calls_per_msg']:>9.2f} "
            f"{row['calls_per_routed']:>12.2f} {row['prompt_tokens']:>8} {row['cached_tokens']:>8} "
            f"{row['cached_share_from_turn_2']:>8.0%} {row['p50_s']:>7.1f} {row['p95_s']:>7.1f}"
        )
    strays = ungrounded_facts(items, [case.text for _, case in plan])
    print(f"stored facts found in no message ({len(strays)}):")
    for line in strays:
        print("  " + line)
    print("grounding of tool arguments (kept / dropped before the tool ran / re-asked):")
    for line in grounding:
        print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", help="comma-separated categories to run")
    parser.add_argument("--every", type=int, default=1, help="run every Nth message (a subset)")
    parser.add_argument("--json", action="store_true", help="also print the table as JSON")
    asyncio.run(main(parser.parse_args()))
