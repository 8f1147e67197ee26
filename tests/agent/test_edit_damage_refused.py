"""An edit by the model never damages an item (issue 41): the new text keeps the item's
words but those the message changes, and a year is never a title. A damaging call is sent
back to the model saying why; a rewrite said in full in the message goes through."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.planning.grounding import damaged
from agent.tools.editing import UpdateItemArgs
from storage import Database
from storage.documents import ItemDoc
from tests.support.live import ALICE, call, live_runtime

LIST = "lista da feira: tomate, alface, cebola e ovos"


async def test_a_text_dropping_words_the_message_never_named_is_sent_back(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say(f"anota: {LIST}", llm=[call("save_note", content=LIST)])
        (note,) = await db.items.list_for(ALICE, limit=5)
        reply, report = await live.say(
            "pode por batata junto nessa lista",
            llm=[
                call("update_item", item_id=note.id, content="tomate, alface e batata"),
                call("update_item", item_id=note.id, content=f"{LIST}, batata"),
            ],
        )
        told = [
            m["content"] for m in report.requests[-1].body["messages"] if m.get("role") == "tool"
        ]
        (kept,) = await db.items.list_for(ALICE, limit=5)

    assert any("drops words of the item" in t and "'cebola'" in t for t in told)
    assert kept.content == f"{LIST}, batata"
    assert "batata" in reply.text


async def test_a_year_sent_as_a_title_is_refused(db: Database) -> None:
    async with live_runtime(db) as live:
        await live.say("salva o filme Rio Escuro", llm=[call("save_movie", title="Rio Escuro")])
        (film,) = await db.items.list_for(ALICE, limit=5)
        await live.say(
            "hmm acho que é 2011, não 2010",
            llm=[call("update_item", item_id=film.id, title="2011 não 2010")] * 3,
        )
        (kept,) = await db.items.list_for(ALICE, limit=5)

    assert kept.title == "Rio Escuro"


def _item(kind: str, text: str) -> ItemDoc:
    return ItemDoc(
        _id="i1",
        user_id=ALICE,
        seq=1,
        type=kind,  # type: ignore[arg-type]
        title=None if kind == "note" else text,
        content=text if kind == "note" else None,
        dedup_key="k",
        created_at_ms=0,
        updated_at_ms=0,
    )


def test_what_the_message_names_may_go_and_a_rewrite_in_full_goes_through() -> None:
    note = _item("note", LIST)
    swapped = UpdateItemArgs(item_id="i1", content="lista da feira: tomate, rúcula, cebola e ovos")
    assert damaged(swapped, note, "troca a alface por rúcula") is None
    rewrite = UpdateItemArgs(item_id="i1", content="comprar pão amanhã")
    assert damaged(rewrite, note, "muda a nota da feira pra: comprar pão amanhã") is None
    film = _item("movie", "1917")
    assert damaged(UpdateItemArgs(item_id="i1", title="1918"), film, "o nome é 1918") is None


@given(st.text(max_size=60), st.text(max_size=60), st.text(max_size=60))
def test_the_damage_check_never_raises(new: str, old: str, message: str) -> None:
    for kind in ("note", "movie"):
        text = new.strip()  # the argument model strips: whitespace alone is no text
        args = UpdateItemArgs(item_id="i1", content=text or "x", title=text or None)
        damaged(args, _item(kind, old or "x"), message)


def test_a_swap_answered_with_only_its_new_words_is_damage() -> None:
    # the 1.5B model answered "troca o leite por leite de aveia" with the note "leite de aveia"
    note = _item("note", "mercado: leite, ovos, pão e café")
    only_new = UpdateItemArgs(item_id="i1", content="leite de aveia")
    assert damaged(only_new, note, "na lista do mercado troca o leite por leite de aveia")
    added = UpdateItemArgs(item_id="i1", content="banana")
    assert damaged(added, note, "add banana to it")
    whole = UpdateItemArgs(item_id="i1", content="mercado: leite de aveia, ovos, pão e café")
    assert damaged(whole, note, "troca o leite por leite de aveia") is None
