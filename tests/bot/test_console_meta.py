"""`lembra chat --show-meta` (DESIGN 3.4, 3.5): every reply is followed by its meta line."""

from __future__ import annotations

import io

from bot.cli.console import run_console
from storage import Database
from tests.support.live import call, live_runtime

INCEPTION = {
    "movie": {"inception": [{"id": 27205, "title": "Inception", "release_date": "2010-07-15"}]}
}


async def test_the_meta_line_shows_state_score_rules_caveats_and_belief(db: Database) -> None:
    async with live_runtime(db, tmdb=INCEPTION) as live:
        live.tmdb.status = 503
        live.model.begin_turn([call("enrich_movie", title="inception")])
        out = io.StringIO()
        await run_console(
            live.runtime,
            user="alice",
            show_meta=True,
            stdin=io.StringIO("salva inception\n"),
            stdout=out,
        )
        assert live.model.end_turn().problems() == []

    reply, meta = out.getvalue().rstrip("\n").rsplit("\n", 1)
    assert "Salvo: inception" in reply
    assert meta.startswith("[PARTIAL · score 85 · tools enrich_movie · llm_calls 1] rules: ")
    rules = meta.split(" rules: ", 1)[1].split(" | ", 1)[0].split(", ")
    assert "dedup" in rules
    assert " | caveats: TMDB indisponível agora: salvo sem detalhes" in meta
    assert meta.endswith(" | Palpite atual: 1.00 · Delta aplicado: +0.00")
