"""`update_item` (DESIGN 9.4): the planner corrects an item of the user's own, recorded as `item_updated`."""

from __future__ import annotations

from typing import Any

from storage import Database
from tests.support.harness import open_lembra, seed

BOB = "cli:bob"


def plan(item_id: str, **fields: Any) -> dict[str, Any]:
    return {
        "action": "CALL_TOOL",
        "tool": "update_item",
        "args": {"item_id": item_id, **fields},
        "message": None,
        "belief": {"key": "answer.confidence", "guessed": 0.9, "delta": 0},
    }


async def test_a_note_is_corrected_and_another_users_item_is_not(db: Database) -> None:
    await seed(db, ["anota: comprar leite"])
    await seed(db, ["anota: segredo do bob"], user=BOB)
    async with open_lembra(db, counting_model=True) as lembra:
        (note,) = await lembra.items()
        reply = await lembra.say(
            "corrige a nota para comprar leite integral",
            llm=[plan(note.id, content="comprar leite integral")],
        )
        assert "Atualizado: comprar leite integral" in reply.text
        (after,) = await lembra.items()
        assert after.content == "comprar leite integral"
        assert after.id == note.id
        assert after.dedup_key == note.dedup_key
        assert after.updated_at_ms == lembra.clock.ms()
        event = (await lembra.events())[-1]
        assert event.type == "item_updated"
        assert event.payload["fields"] == ["content"]
        assert "leite" not in str(event.payload)

        (bobs,) = await lembra.items(BOB)
        await lembra.say(
            "corrige a nota para segredo do bob aberto",
            llm=[plan(bobs.id, content="segredo do bob aberto")] * 3,
        )
        assert (await lembra.items(BOB))[0].content == "segredo do bob"
        assert "item_updated" not in await lembra.event_types(BOB)


# -- what models send (issue 26) ------------------------------------------------------------------


async def test_a_notes_title_is_its_text(db: Database) -> None:
    await seed(db, ["anota: comprar leite"])
    async with open_lembra(db, counting_model=True) as lembra:
        (note,) = await lembra.items()
        reply = await lembra.say(
            "muda essa nota para comprar leite sem lactose",
            llm=[plan(note.id, title="comprar leite sem lactose")],
        )
        assert reply.text == "✅ Atualizado: comprar leite sem lactose"
        assert (await lembra.items())[0].content == "comprar leite sem lactose"


async def test_the_year_sent_as_a_title_is_the_year(db: Database) -> None:
    await seed(db, ["salva o filme the matrix"])
    async with open_lembra(db, counting_model=True) as lembra:
        (movie,) = await lembra.items()
        await lembra.say("na verdade o ano é 2021", llm=[plan(movie.id, title="2021")])
        (after,) = await lembra.items()
        assert (after.title, after.year) == ("The Matrix", 2021)
        # "na verdade é o de 2021" keeps working as the model sends it
        await lembra.say("na verdade é o de 2020", llm=[plan(movie.id, year=2020)])
        assert (await lembra.items())[0].year == 2020


async def test_a_refused_edit_is_said_in_the_users_language_without_field_names(
    db: Database,
) -> None:
    await seed(db, ["anota: comprar leite"])
    async with open_lembra(db, counting_model=True) as lembra:
        (note,) = await lembra.items()
        pt = await lembra.say("muda o ano da nota para 2021", llm=[plan(note.id, year=2021)])
        en = await lembra.say("change the note's year to 2021", llm=[plan(note.id, year=2021)])
        odd = await lembra.say("muda o ano da nota para 21", llm=[plan(note.id, year=21)])
    assert pt.text == "Não foi possível: só filmes e séries têm ano; esse item não tem."
    assert en.text == "That did not work: only movies and shows have a year; that item has none."
    for reply in (pt, en, odd):
        for internal in ("content", "title", "note has", "update_item", "1870"):
            assert internal not in reply.text
    assert (await lembra.items())[0].content == "comprar leite"


# -- an edit's new values are the user's words in this message (issue 41) ---------------------


async def test_a_new_title_not_in_the_message_is_never_set(db: Database) -> None:
    await seed(db, ["salva o filme o auto da compadecida"])
    async with open_lembra(db, counting_model=True) as lembra:
        (movie,) = await lembra.items()
        await lembra.say("me lembra amanhã às 9h de ver um ótimo filme")  # words said before
        reply = await lembra.say(
            "kkkkk esse filme da compadecida é mt bom",
            llm=[plan(movie.id, title="ótimo filme!")] * 3,
        )
        after = next(i for i in await lembra.items() if i.id == movie.id)
        assert "item_updated" not in await lembra.event_types()
    assert after.title == movie.title, reply.text
    assert "Atualizado" not in reply.text, reply.text


async def test_a_title_one_typo_from_the_users_word_is_set_as_the_user_wrote_it(
    db: Database,
) -> None:
    await seed(db, ["salva o filme interstelar"])
    async with open_lembra(db, counting_model=True) as lembra:
        (movie,) = await lembra.items()
        reply = await lembra.say(
            "escrevi errado kkk o nome certo é interestelar",
            llm=[plan(movie.id, title="Interstelar")],
        )
        (after,) = await lembra.items()
    assert after.title == "interestelar"
    assert "interestelar" in reply.text
