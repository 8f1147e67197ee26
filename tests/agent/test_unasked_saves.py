"""A save runs only where the message asks for one (issue 41): the program, not the model, is
in control. A model that saves on small talk ("kkkk não posso perder") gets its save turned
into a question the user's plain yes takes; nothing is stored before it. A message that does
ask (a save verb, even with one typo, after "oh and") still saves at once."""

from __future__ import annotations

from storage import Database
from tests.support.harness import open_lembra
from tests.support.live import call

NO_TMDB = "https://api.themoviedb.org/3"


async def test_a_save_on_small_talk_is_asked_not_done(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        asked = await lembra.say(
            "kkkk nao posso perder", llm=[call("save_note", content="Não posso perder")]
        )
        assert await lembra.items() == []  # nothing stored by the model's choice
        assert asked.meta.state == "AMBIGUOUS"
        assert "Não salvei nada" in asked.text
        assert "Não posso perder" in asked.text
        kept = await lembra.say("sim")
        items = await lembra.items()
    assert [(i.type, i.content) for i in items] == [("note", "Não posso perder")]
    assert kept.meta.llm_calls == 0


async def test_an_offer_lapses_when_the_next_message_is_something_else(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say(
            "kkkk maratona de filme nacional no fds",
            llm=[call("save_movie", title="maratona de filme nacional")],
        )
        await lembra.say("salva o filme Bacurau", llm=[call("save_movie", title="Bacurau")])
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [("movie", "Bacurau")]


async def test_several_saves_on_a_message_that_asks_none_are_asked_too(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        asked = await lembra.say(
            "haha those two are great",
            llm=[call("save_items", items=[{"type": "note", "content": "those two are great"}])],
        )
        assert await lembra.items() == []
    assert "Nothing was saved" in asked.text


async def test_a_save_verb_with_a_typo_or_after_oh_and_still_saves(db: Database) -> None:
    async with open_lembra(db, counting_model=True, tmdb_base_url=NO_TMDB) as lembra:
        await lembra.say(
            "slava o filme tropa de elite 2", llm=[call("save_movie", title="tropa de elite 2")]
        )
        await lembra.say("oh and add mindhunter", llm=[call("save_tv_show", title="mindhunter")])
        items = await lembra.items()
    assert [(i.type, i.title) for i in items] == [
        ("movie", "tropa de elite 2"),
        ("tv_show", "mindhunter"),
    ]
