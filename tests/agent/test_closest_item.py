"""The closest item wins (issue 26): an exact title before a longer one, ties become a choice.

Scoring and ranking only (agent/tools/matching.py, agent/tools/finding.py): what finds the
candidates is not at stake here, so the same rules hold whatever index finds them.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.tools.finding import score_item
from agent.tools.matching import closeness, host_pieces
from storage import Database
from storage.documents import ITEM_TYPES, ItemDoc, ItemType
from tests.support.harness import open_lembra, seed
from tests.support.live import call


async def test_an_exact_title_comes_before_a_longer_one(db: Database) -> None:
    # "Toy Story" is the older one: recency alone would put "Toy Story 2" first
    await seed(db, ["anota: Toy Story", "anota: Toy Story 2", "anota: Toy Story 3"])
    async with open_lembra(db, counting_model=True) as lembra:
        found = await lembra.say("procura toy story")
        preview = await lembra.say(
            "apaga o toy story", llm=[call("delete_item", query="o toy story")]
        )
        assert found.text.splitlines()[:2] == ["Encontrei 3:", "1. Toy Story"]
        assert preview.text.startswith("Apagar Toy Story?")


async def test_same_score_ties_become_a_choice(db: Database) -> None:
    await seed(db, ["anota: Toy Story 2", "anota: Toy Story 3"])
    async with open_lembra(db, counting_model=True) as lembra:
        choice = await lembra.say("apaga o toy story", llm=[call("delete_item", query="toy story")])
        assert choice.text.splitlines()[0] == "Qual devo apagar?"
        assert {c.label for c in choice.choices} == {"Toy Story 2", "Toy Story 3"}
        assert choice.meta.state == "AMBIGUOUS"
        assert len(await lembra.items()) == 2


async def test_a_name_that_says_the_items_type_names_the_item(db: Database) -> None:
    """A small model copies the user's "a nota do wifi" into its query: the word naming the
    item's own type names it, so the note is found, and only notes are named that way."""
    await seed(
        db,
        [
            "anota: a senha do wifi da casa da praia está na geladeira",
            "anota: comprar leite",
            "salva o link https://wifi.example.com/guia",
        ],
    )
    async with open_lembra(db, counting_model=True) as lembra:
        preview = await lembra.say(
            "apaga a nota do wifi", llm=[call("delete_item", query="nota do wifi")]
        )
        assert preview.text.startswith("Apagar a senha do wifi da casa da praia")
        assert (await lembra.say("sim")).text.startswith("✅ Apagado: a senha do wifi")
        assert len(await lembra.items()) == 2
        # the type word alone still names nothing in particular
        vague = await lembra.say("apaga a nota", llm=[call("delete_item", query="nota")])
        assert not vague.text.startswith("Apagar comprar leite?")


async def test_a_type_word_makes_a_match_close_never_exact(db: Database) -> None:
    """ "apaga o filme bom" with the movies "Bom" and "Bom demais pra ver": "Bom" is the
    closest (the type word names it), yet not a word-for-word match, so the preview says it
    chose; before, the type word made it an exact, sure thing."""
    await seed(db, ["salva o filme Bom demais pra ver", "salva o filme Bom"])
    async with open_lembra(db, counting_model=True) as lembra:
        reply = await lembra.say("apaga o filme bom", llm=[call("delete_item", query="filme bom")])
        assert reply.text.startswith("Apagar Bom?")
        assert "Escolhi o item mais parecido com «filme bom»" in reply.text
        assert len(await lembra.items()) == 2


@given(
    item_type=st.sampled_from(ITEM_TYPES),
    title=st.text(max_size=30),
    query=st.text(max_size=30) | st.sampled_from(["nota", "o filme", "nota do wifi", "a série"]),
)
def test_scoring_any_name_against_any_item_never_raises(
    item_type: ItemType, title: str, query: str
) -> None:
    """A model's delete query is outside input: any text scores within 0-100, never raises."""
    item = ItemDoc(
        _id="i" * 32,
        user_id="u",
        seq=1,
        type=item_type,
        title=title or None,
        content=title or "x",
        dedup_key="k",
        created_at_ms=0,
        updated_at_ms=0,
    )
    assert 0 <= score_item(item, query) <= 100
    assert closeness(item, query) >= 0


async def test_a_link_is_named_by_the_words_its_site_joins(db: Database) -> None:
    await seed(
        db,
        ["https://www.mercadolivre.com.br/ofertas", "https://www.tastyrecipes.com/pie"],
    )
    async with open_lembra(db, counting_model=True) as lembra:
        found = await lembra.say("find the recipes link")
        preview = await lembra.say(
            "apaga o do mercado livre", llm=[call("delete_item", query="mercado livre")]
        )
        assert found.text.splitlines() == ["Found 1:", "1. https://www.tastyrecipes.com/pie"]
        assert preview.text.startswith("Apagar https://www.mercadolivre.com.br/ofertas?")


@given(st.text(max_size=80))
def test_reading_any_link_for_its_site_words_never_raises(url: str) -> None:
    pieces = host_pieces(url)
    assert all(len(piece) >= 3 for piece in pieces)
