"""bench/sessions.py's multi-turn sessions (issue 26), run with the scripted model.

The scripted server answers a model-routed turn only with the session's ideal planner
output, so a turn that should have been answered in code (a position, a question, several
items) and reached the model fails here. Every session must end with exactly its items,
every reply must fit, and nothing may change that a turn did not ask for.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from storage import Database

BENCH = Path(__file__).resolve().parents[2] / "bench" / "sessions.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("lembra_bench_sessions", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


async def test_every_session_passes_with_the_scripted_model(db: Database, tmp_path: Path) -> None:
    # TMDB not configured, as a first set-up has it (tests/agent/test_several_items.py
    # covers the titles TMDB joins back)
    bench = _bench()
    results = []
    async with bench.running("scripted", "none", tmp_path, db=db) as running:
        for session in bench.SESSIONS:
            results.append(await running.run(session))

    assert len(results) >= 40
    assert {s.language for s in bench.SESSIONS} == {"pt", "en"}
    failed = {
        r.session.name: [t.why for t in r.turns if not t.fits] + [r.items_why]
        for r in results
        if not r.passed
    }
    assert failed == {}
    turns = [t for r in results for t in r.turns]
    assert [t.text for t in turns if t.unasked] == []
    routed = [t for t in turns if t.calls]
    assert sum(t.calls for t in routed) / len(routed) <= 1.2
