"""Belief calibration and the belief line (DESIGN 3.5): what `lembra stats` and `--show-meta` show.

Calibration is the mean |guessed - real| and the share within the margin, per model,
over first attempts only; `lembra stats` shows it for every model that planned here.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

from bot.cli.console import run_console
from storage import Database
from tests.support.live import ALICE, live_runtime
from tests.support.proc import run_lembra
from tests.support.servers import RunningServer


def note(content: str, *, key: str = "answer.confidence", guessed: float, delta: float = 0) -> Any:
    return {
        "action": "CALL_TOOL",
        "tool": "save_note",
        "args": {"content": content},
        "message": None,
        "belief": {"key": key, "guessed": guessed, "delta": delta},
    }


async def test_lembra_stats_shows_calibration_per_model_over_first_attempts(
    db: Database, nx_server: RunningServer, tmp_path: Path
) -> None:
    async with live_runtime(db, llm_model="model-a") as live:
        # first attempt exact (|1.0 - 1.0| = 0); the resend is not a first attempt
        await live.say("anota: leite", llm=[note("leite", guessed=1.0)])
        # first attempt off by 0.5 (outside the margin), then resent within it
        await live.say("anota: pão", llm=[note("pão", guessed=0.5), note("pão", guessed=0.85)])
    async with live_runtime(db, llm_model="model-b") as live:
        await live.say("anota: café", llm=[note("café", guessed=0.9)])

    # The operator runs `lembra stats` with no model configured at all.
    env = {"MONGODB_URI": nx_server.uri, "MONGODB_DB": db.name, "DATA_DIR": str(tmp_path)}
    result = await asyncio.to_thread(run_lembra, ["stats"], env=env, cwd=tmp_path)

    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        "calibration (model-a): mean |guess-real| 0.250, within margin 50% over 2 first attempts"
        in lines
    )
    assert (
        "calibration (model-b): mean |guess-real| 0.100, within margin 100% over 1 first attempts"
        in lines
    )


async def test_show_meta_prints_the_guess_and_the_delta_applied(db: Database) -> None:
    async with live_runtime(db) as live:
        await db.users.ensure(
            ALICE, language="pt", timezone="America/Sao_Paulo", now_ms=live.clock.ms()
        )
        await db.beliefs.set(ALICE, "pref.verbosity", 0.72, now_ms=live.clock.ms())
        live.model.begin_turn(
            [
                # outside the margin: refused with the real value, which asks for an adjustment
                note("leite", key="pref.verbosity", guessed=0.4),
                note("leite", key="pref.verbosity", guessed=0.72, delta=0.05),
            ]
        )
        out = io.StringIO()
        await run_console(
            live.runtime,
            user="alice",
            show_meta=True,
            stdin=io.StringIO("anota: leite\n"),
            stdout=out,
        )
        live.model.end_turn()
        live.model.begin_turn([note("pão", key="pref.verbosity", guessed=0.77)])
        english = io.StringIO()
        await run_console(
            live.runtime,
            user="alice",
            show_meta=True,
            stdin=io.StringIO("/lang en\nanota: pão\n"),
            stdout=english,
        )
        assert live.model.end_turn().problems() == []
        stored = await db.beliefs.get(ALICE, "pref.verbosity")

    meta = out.getvalue().splitlines()[-1]
    assert meta.endswith("Palpite atual: 0.72 · Delta aplicado: +0.05")
    assert abs((stored or 0) - 0.77) < 1e-9
    assert (
        english.getvalue().splitlines()[-1].endswith("Current guess: 0.77 · Delta applied: +0.00")
    )
