"""Small talk through the real runtime offline (issue 11 goals), as figures.

Sends the small-talk corpus of tests/agent/smalltalk_corpus.tsv through `Runtime.handle()`
with no model (the embedded database in memory, the fake TMDB on loopback), in one
conversation, PT and EN lines alternating, and prints: lines saved, deletes, the share
of English lines answered in English (and Portuguese in Portuguese), the share answered
in code (no planner), model calls and the time per turn.

Goals (issue 11): <= 2% saved, 0 deletes, >= 95% of English lines answered in English.
Run: `.venv/bin/python bench/smalltalk.py`.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.agent.test_smalltalk import answered_in, interleaved, load_corpus  # noqa: E402
from tests.conftest import open_test_db  # noqa: E402
from tests.support.harness import open_lembra  # noqa: E402
from tests.support.servers import start_nx  # noqa: E402

IN_CODE = ("smalltalk", "greeting", "confirm", "deny", "cancel", "list_all", "help")


async def main() -> None:
    server = start_nx()
    try:
        db = await open_test_db(server.uri)
        rows = interleaved(load_corpus())
        same = {"pt": [0, 0], "en": [0, 0]}
        in_code = model_calls = 0
        times: list[float] = []
        async with open_lembra(db) as lembra:
            for line, language in rows:
                started = time.perf_counter()
                reply = await lembra.say(line)
                times.append((time.perf_counter() - started) * 1000)
                same[language][0] += answered_in(reply.text, language)  # type: ignore[arg-type]
                same[language][1] += 1
                in_code += reply.meta.intent in IN_CODE
                model_calls += reply.meta.llm_calls
            saved = len(await lembra.items())
            events = await lembra.event_types()
        await db.drop()
        await db.close()
    finally:
        server.close()
    deletes = sum(1 for e in events if e in ("item_deleted", "all_deleted"))
    print(f"lines: {len(rows)} (pt {same['pt'][1]}, en {same['en'][1]})")
    print(
        f"saved: {saved} ({saved / len(rows):.1%}); deletes: {deletes}; model calls: {model_calls}"
    )
    print(
        f"English answered in English: {same['en'][0]}/{same['en'][1]} ({same['en'][0] / same['en'][1]:.1%})"
    )
    print(
        f"Portuguese answered in Portuguese: {same['pt'][0]}/{same['pt'][1]} ({same['pt'][0] / same['pt'][1]:.1%})"
    )
    print(f"answered in code (no planner): {in_code / len(rows):.1%}")
    print(
        f"turn ms: p50 {statistics.median(times):.1f}, p99 {sorted(times)[int(len(times) * 0.99)]:.1f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
