"""The shelf (DESIGN 10.1, issue 26): what the user was just shown, numbered, and the
positions and references that resolve against it in code.

A model is configured (the counting server, with no scripted output): any model call a
turn made would be recorded, and these turns must make none. The database is watched,
so the round trips of a position are counted as an operator would see them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.conversation.shelf import expand_ids
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra, seed
from tests.support.live import call
from tests.support.trips import Trips

NOTES = ["anota: dentista quinta às 15h", "anota: pagar o IPVA", "anota: comprar leite"]


@pytest.fixture
async def lembra(watched_db: Database) -> AsyncIterator[Lembra]:
    await seed(watched_db, NOTES)
    async with open_lembra(watched_db, counting_model=True) as running:
        yield running


async def contents(lembra: Lembra) -> list[str]:
    return [i.content or i.title or i.url or "" for i in await lembra.items()]


async def test_a_position_from_a_list_is_previewed_then_deleted_on_sim(
    lembra: Lembra, trips: Trips
) -> None:
    await lembra.say("apaga o último")  # the first preview reads the constitution in force
    await lembra.say("não")
    listed = await lembra.say("lista minhas notas")
    assert listed.text.splitlines()[1:] == [
        "1. dentista quinta às 15h",
        "2. pagar o IPVA",
        "3. comprar leite",
    ]
    trips.seen.clear()
    preview = await lembra.say("apaga a segunda")
    resolving = list(trips.seen)
    assert preview.text.startswith("Apagar pagar o IPVA?")
    assert preview.meta.state == "OK"
    done = await lembra.say("sim")

    assert "Apagado: pagar o IPVA" in done.text
    assert await contents(lembra) == ["dentista quinta às 15h", "comprar leite"]
    assert lembra.model_calls == 0
    # the user read, the pending action (with the shelf's new focus), the messages
    assert len(resolving) <= 3, resolving
    assert ("items", "find") not in resolving


async def test_lista_tudo_is_numbered_and_its_numbers_are_the_shelf(
    lembra: Lembra, watched_db: Database
) -> None:
    await seed(watched_db, ["salva o link https://example.com/receita"])
    listed = await lembra.say("lista tudo")
    lines = listed.text.splitlines()
    assert lines[3:6] == ["1. comprar leite", "2. pagar o IPVA", "3. dentista quinta às 15h"]
    assert "4. https://example.com/receita" in lines
    shown = await lembra.say("mostra o 4")
    assert shown.text.startswith("4. https://example.com/receita")
    assert "(link)" in shown.text
    gone = await lembra.say("apaga o 9")
    assert gone.text == "A lista tinha 4 itens: não há esse número."
    assert lembra.model_calls == 0


async def test_the_last_one_and_ordinals_count_in_the_order_shown(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    assert (await lembra.say("apaga o último")).text.startswith("Apagar comprar leite?")
    await lembra.say("não")
    assert (await lembra.say("remove the first one")).text.startswith(
        "Delete dentista quinta às 15h?"
    )
    await lembra.say("no")
    assert len(await lembra.items()) == 3
    assert lembra.model_calls == 0


async def test_esse_is_the_item_the_last_reply_named_alone(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    shown = await lembra.say("mostra o 2")
    assert shown.text.startswith("2. pagar o IPVA")
    assert (await lembra.say("apaga esse")).text.startswith("Apagar pagar o IPVA?")
    await lembra.say("sim")
    saved = await lembra.say(
        "salva o filme Duna", llm=[call("enrich_movie", title="Duna")]
    )  # one planned turn
    assert "Duna" in saved.text
    assert (await lembra.say("delete it")).text.startswith("Delete Duna?")
    assert lembra.model_calls == 1


async def test_an_explicit_edit_by_position_changes_the_text(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    edited = await lembra.say("muda o 2 para pagar o IPVA até sexta")
    assert edited.text == "✅ Atualizado: pagar o IPVA até sexta"
    assert await contents(lembra) == [
        "dentista quinta às 15h",
        "pagar o IPVA até sexta",
        "comprar leite",
    ]
    assert "item_updated" in await lembra.event_types()
    no_year = await lembra.say("muda o ano do 1 para 2021")
    assert no_year.text == "Só filmes e séries têm ano; esse item não tem."
    assert lembra.model_calls == 0


async def test_a_bookmark_by_position_keeps_the_users_words(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    marked = await lembra.say("marca o 1 pra levar os exames")
    assert marked.text.startswith("✅")
    assert "dentista quinta às 15h" in marked.text
    memory = await lembra.say("/memory")
    assert "levar os exames" in memory.text
    assert lembra.model_calls == 0


async def test_a_position_with_nothing_listed_says_so(lembra: Lembra) -> None:
    reply = await lembra.say("apaga o 2")
    assert reply.text.startswith("Não tenho uma lista recente")
    assert len(await lembra.items()) == 3
    # "o último" with nothing listed is the last one saved
    assert (await lembra.say("apaga o último")).text.startswith("Apagar comprar leite?")
    assert lembra.model_calls == 0


async def test_the_shelf_lasts_the_session_not_two_minutes(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    lembra.clock.advance(10 * 60)  # the session is still open: 10 minutes, not 2
    assert (await lembra.say("mostra o 3")).text.startswith("3. comprar leite")
    lembra.clock.advance(31 * 60)  # idle: the session closes (its handover), its shelf with it
    assert (await lembra.say("apaga o 3")).text.startswith("Não tenho uma lista recente")
    assert len(await lembra.items()) == 3


async def test_a_search_result_is_the_shelf_and_what_was_it_shows_it(lembra: Lembra) -> None:
    found = await lembra.say("procura IPVA")
    assert found.text.splitlines() == ["Encontrei 1:", "1. pagar o IPVA"]
    again = await lembra.say("what was it?")
    assert again.text.startswith("1. pagar o IPVA")
    assert (await lembra.say("apaga o 1")).text.startswith("Apagar pagar o IPVA?")
    assert lembra.model_calls == 0


async def test_the_planner_sees_the_shelf_with_numbers_and_handles(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    (second,) = [i for i in await lembra.items() if i.content == "pagar o IPVA"]
    # the situation shows 8 of the id's 32 digits (a full id is 32 prompt tokens for a
    # small model's tokenizer); the model's step names the item by that handle
    preview = await lembra.say(
        "apaga a nota que fala de imposto",
        llm=[call("delete_item", item_id=second.id[:8])],
    )
    system = [m for m in lembra.requests[-1].body["messages"] if m["role"] == "system"]
    situation = "\n".join(str(m["content"]) for m in system)
    assert f"2. [{second.id[:8]}] pagar o IPVA" in situation
    assert second.id not in situation
    assert "Última lista vista: <data>1. [" in situation
    assert preview.text.startswith("Apagar pagar o IPVA?")
    assert (await lembra.say("sim")).text.startswith("✅ Apagado: pagar o IPVA")
    assert "pagar o IPVA" not in [i.content for i in await lembra.items()]


async def test_a_handle_that_is_not_on_the_shelf_names_no_item(lembra: Lembra) -> None:
    await lembra.say("lista minhas notas")
    reply = await lembra.say(
        "apaga a nota que fala de imposto",
        llm=[call("delete_item", item_id="0123abcd")],
    )
    assert reply.text.startswith("Não encontrei esse item entre os seus. Nada foi alterado.")
    assert len(await lembra.items()) == 3


async def test_a_position_of_another_conversation_is_not_this_ones(
    lembra: Lembra, watched_db: Database
) -> None:
    await seed(watched_db, ["anota: do bob"], user="cli:bob")
    await lembra.say("lista minhas notas")
    reply = await lembra.say("apaga o 1", user="cli:bob")
    assert reply.text.startswith("Não tenho uma lista recente")
    assert [i.content for i in await lembra.items("cli:bob")] == ["do bob"]
    assert len(await lembra.items(ALICE)) == 3


FULL = "a5a95dd665c64cf997531673e0e0cd89"
OTHER = "6c0c445c0000000000000000000000aa"


def test_a_handle_of_one_shelf_item_becomes_its_id_nested_or_not() -> None:
    ids = frozenset({FULL, OTHER})
    assert expand_ids({"item_id": "a5a95dd6"}, ids) == {"item_id": FULL}
    nested = {"tool": "delete_item", "args": {"item_id": "A5A95DD6"}}
    assert expand_ids(nested, ids) == {"tool": "delete_item", "args": {"item_id": FULL}}
    assert expand_ids({"item_id": FULL}, ids) == {"item_id": FULL}  # a full id as it is
    assert expand_ids({"item_id": "0123abcd"}, ids) == {"item_id": "0123abcd"}  # unknown
    twins = frozenset({FULL, "a5a95dd6" + "f" * 24})
    assert expand_ids({"item_id": "a5a95dd6"}, twins) == {"item_id": "a5a95dd6"}  # ambiguous


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["item_id", "args", "x"]) | st.text(max_size=6), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@given(json_values)
def test_expanding_handles_never_raises_whatever_the_model_wrote(value: object) -> None:
    expand_ids(value, frozenset({FULL, OTHER}))
