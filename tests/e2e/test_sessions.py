"""bench/sessions.py's multi-turn sessions (issue 26), run with the scripted model.

The scripted server answers a model-routed turn only with the session's ideal planner
output, so a turn that should have been answered in code (a position, a question, several
items) and reached the model fails here. Every session must end with exactly its items,
every reply must fit, and nothing may change that a turn did not ask for.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

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


HELD_OUT_SHAPED = {
    "tmdb": {"movie": {"duna": [{"id": 438631, "title": "Duna", "release_date": "2021-10-21"}]}},
    "sessions": [
        {
            "name": "pt-ok",
            "language": "pt",
            "categories": ["loader"],
            "turns": [
                {"say": "anota: comprar leite", "effect": "save"},
                {"say": "salva os filmes Duna e Matrix", "effect": "save", "expect": ["duna"]},
                {"say": "me lembra amanhã às 8h de pagar a luz", "effect": "remind"},
                {"say": "quantos filmes eu tenho?", "effect": "none", "expect": ["2 filmes"]},
            ],
            "items": ["note:leite", "movie:duna:2021:to_see", "movie:matrix::to_see"],
            "reminders": [{"about": "pagar luz", "next": "2026-01-06 08:00", "repeats": False}],
        },
        {
            "name": "pt-unasked-and-wrong-end",
            "language": "pt",
            "categories": ["loader"],
            "turns": [
                {"say": "anota: comprar pão", "effect": "none"},
                {"say": "me lembra amanhã às 9h de ligar", "effect": "mark"},
            ],
            "items": ["tv:dark"],
            "reminders": [],
        },
    ],
}


async def test_a_held_out_shaped_file_is_read_and_judged(db: Database, tmp_path: Path) -> None:
    bench = _bench()
    path = tmp_path / "held_out_shaped.json"
    path.write_text(json.dumps(HELD_OUT_SHAPED), encoding="utf-8")
    loaded = bench.load_sessions(path)
    assert loaded.tmdb is not None
    assert "duna" in loaded.tmdb["movie"]
    first = loaded.sessions[0]
    assert first.reminders == (bench.ReminderSpec("pagar luz", "2026-01-06 08:00", False),)
    assert bench.item_spec("tv:dark") == ("tv_show", {"dark"}, None, None)
    assert bench.item_spec("movie:duna::seen") == ("movie", {"duna"}, None, "seen")
    results = []
    async with bench.running("offline", "fake", tmp_path, db=db, catalogue=loaded.tmdb) as running:
        for session in loaded.sessions:
            results.append(await running.run(session))
    good, bad = results
    assert good.passed, [t.why for t in good.turns] + [good.items_why]
    assert [t.unasked for t in bad.turns] == ["added 1", "reminders 1"]
    assert not bad.passed
    assert "missing tv:dark" in bad.items_why
    with pytest.raises(ValueError, match="unknown effect"):
        bench.parse_sessions({"sessions": [{"name": "x", "turns": [{"say": "a", "effect": "x"}]}]})
