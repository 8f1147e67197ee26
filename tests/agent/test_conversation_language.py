"""One English message among Portuguese ones changes nothing a server has cached (issue 41).

The remembered part of a request (before the history) and the situations are told in the
conversation's language (its history's first message's); a message in another language
gets one line in its situation saying which language to write in, and its reply is in it.
"""

from __future__ import annotations

from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import call

NO_TMDB = "https://api.themoviedb.org/3"


async def test_switching_language_keeps_the_remembered_part_and_asks_for_the_language(
    db: Database,
) -> None:
    async with open_lembra(
        db, counting_model=True, tmdb_base_url=NO_TMDB, llm_output_mode="json_schema"
    ) as lembra:
        await lembra.say("anota: comprar leite", llm=[call("save_note", content="comprar leite")])
        await lembra.say("salva o filme Duna", llm=[call("enrich_movie", title="Duna")])
        english = await lembra.say(
            "save the movie Arrival", llm=[call("enrich_movie", title="Arrival")]
        )
        await lembra.say("salva a série Dark", llm=[call("enrich_tv_show", title="Dark")])
        bodies = [r.body["messages"] for r in lembra.requests]
    remembered = [messages[1]["content"] for messages in bodies]
    assert len(set(remembered)) == 1  # the same part 2 on every request
    assert "Portuguese" in remembered[0]
    situations = [messages[-2]["content"] for messages in bodies]
    assert "Nesta mensagem, escreva em inglês." in situations[2]
    assert not any("escreva em" in s for s in (situations[1], situations[3]))
    # each request extends the one before it: the server's cache keeps the whole prefix
    for before, after in zip(bodies, bodies[1:], strict=False):
        assert after[: len(before) - 1] == before[:-1]
    assert english.text.startswith("✅ Saved: Arrival")  # the reply in the message's language
