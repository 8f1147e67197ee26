"""Print what grounding (DESIGN 9.6) costs per tool call: median and p99, in milliseconds.

Each measured call is what a planning step pays: reading the turn's sources (the user's
message first; the verbatim history the model sees, 20 messages with tool results and
replies, only when the message does not back every fact) and judging one call's
arguments, metrics included. Printed for all calls and split by where the facts were. TMDB confirmation by id is a network
request to the source and is not part of the check (it is asked only for an id nothing
else backs). Target: median <= 0.2 ms. Run from the repo root:
`.venv/bin/python bench/grounding.py [--rounds N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402

from agent.memory.tiers import VERBATIM_MESSAGES  # noqa: E402
from agent.metrics import Metrics  # noqa: E402
from agent.planning.grounding import Grounder  # noqa: E402
from agent.tools.base import ToolArgs  # noqa: E402
from agent.tools.enrich import EnrichMovieArgs  # noqa: E402
from agent.tools.saving import SaveMovieArgs, SaveNoteArgs, SaveVideoArgs  # noqa: E402

TITLES = ["interestelar", "a origem", "o poderoso chefão", "cidade de deus", "breaking bad"]
VIDEO = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


@dataclass
class _Deps:
    """Only what the check reads: metrics (TMDB is never asked in these calls)."""

    metrics: Metrics
    tmdb: object = None


def history(turns: int, rng: random.Random) -> list[BaseMessage]:
    messages: list[BaseMessage] = []
    for i in range(turns):
        title = rng.choice(TITLES)
        call_id = f"c{i}"
        messages.append(HumanMessage(content=f"salva o filme {title} por favor, é muito bom"))
        messages.append(
            AIMessage(
                content="",
                tool_calls=[
                    {
                        "name": "plan",
                        "args": {"action": "CALL_TOOL", "tool": "enrich_movie"},
                        "id": call_id,
                        "type": "tool_call",
                    }
                ],
            )
        )
        payload = {"status": "saved", "label": f"<data>{title.title()} ({2000 + i})</data>"}
        messages.append(
            ToolMessage(content=json.dumps(payload), tool_call_id=call_id, name="enrich_movie")
        )
        messages.append(AIMessage(content=f"✅ Salvo: {title.title()} ({2000 + i})."))
    return messages


CALLS: list[tuple[str, str, ToolArgs]] = [
    (
        "salva o filme interestelar de 2014",
        "save_movie",
        SaveMovieArgs(title="Interestelar", year=2014),
    ),
    ("salva o filme interestelar", "save_movie", SaveMovieArgs(title="Interestelar", year=1984)),
    (f"guarda esse vídeo {VIDEO}", "save_video", SaveVideoArgs(url=VIDEO, title="Never gonna")),
    ("me lembra de comprar leite amanhã", "save_note", SaveNoteArgs(content="comprar leite")),
    ("procura o filme a origem", "enrich_movie", EnrichMovieArgs(title="A Origem")),
    ("salva o filme interestelar", "save_movie", SaveMovieArgs(title="Interstellar")),
]


async def measure(rounds: int) -> dict[str, list[float]]:
    rng = random.Random(17)
    deps = _Deps(Metrics())
    conversation = history(VERBATIM_MESSAGES // 4, rng)  # 4 messages a turn
    timings: dict[str, list[float]] = {"message": [], "history": []}
    for _ in range(rounds):
        for text, tool, args in CALLS:
            messages = [*conversation, HumanMessage(content=text)]
            start = time.perf_counter()
            grounder = Grounder(deps, text, "pt", messages)  # type: ignore[arg-type]
            checked = await grounder.check(tool, args)
            grounder.settle(tool)
            elapsed = (time.perf_counter() - start) * 1000
            in_message = all(verdict == "grounded" for _, verdict in checked.fields)
            timings["message" if in_message else "history"].append(elapsed)
    return timings


def _figures(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)]
    return f"median {statistics.median(ordered):.3f} ms, p99 {p99:.3f} ms ({len(ordered)} calls)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    rounds = parser.parse_args().rounds
    timings = asyncio.run(measure(rounds))
    print(f"grounding check per tool call, {VERBATIM_MESSAGES}-message history + the message:")
    print(f"  all calls:                     {_figures(timings['message'] + timings['history'])}")
    print(f"  every fact in the message:     {_figures(timings['message'])}")
    print(f"  a fact dropped or re-asked:    {_figures(timings['history'])}")
    print("  target: median <= 0.2 ms per call")


if __name__ == "__main__":
    main()
