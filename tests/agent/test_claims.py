"""Model text checked against the turn's facts (DESIGN 9.2): claims, emojis, offers, metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from agent.planning.claims import (
    claimed_effects,
    false_claim,
    offers_to_act,
    without_data_tags,
    without_emojis,
)
from storage import Database
from tests.support.harness import Lembra, open_lembra

BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}


@pytest.mark.parametrize(
    ("message", "effects"),
    [
        ("Pronto! Salvei Inception 😀", {"save"}),
        ("Tudo certo, guardei o link pra você.", {"save"}),
        ("Inception foi salvo na sua lista.", {"save"}),
        ("Anotado.", {"save"}),
        ("I've saved Inception for you.", {"save"}),
        ("Added to your list.", {"save"}),
        ("Feito, apaguei a nota", {"delete"}),
        ("Removi o link.", {"delete"}),
        ("The note was removed.", {"delete"}),
        ("Done, deleted it.", {"delete"}),
        # a promise stores nothing either (the local 1.5B model: "I'll remember that...")
        ("I'll remember that the gym closes at 10pm.", {"save"}),
        ("Vou lembrar disso!", {"save"}),
        ("Vou apagar o filme.", {"delete"}),
        ("Não vou salvar isso.", set()),
        ("I remember you saved Dark.", set()),
        # negated, adjectives and descriptions of what is stored claim nothing
        ("Não salvei nada.", set()),
        ("Nothing was deleted.", set()),
        ("I couldn't save it.", set()),
        ("Você tem 3 filmes salvos.", set()),
        ("Saved movies: Inception", set()),
        ("Inception já está salvo.", set()),
        ("Você salvou Inception (2010); não tenho uma avaliação guardada.", set()),
        ("O filme Inception é de 2010.", set()),
    ],
)
def test_claimed_effects(message: str, effects: set[str]) -> None:
    assert set(claimed_effects(message)) == effects


def test_a_claim_is_false_only_without_its_ledger_event() -> None:
    assert false_claim("Salvei Inception.", []) is not None
    assert false_claim("Salvei Inception.", ["item_saved"]) is None
    assert false_claim("Apaguei tudo.", ["item_saved"]) is not None
    assert false_claim("Apaguei tudo.", ["all_deleted"]) is None
    assert "did not happen" in (false_claim("Saved!", []) or "")


def test_data_fences_echoed_by_a_model_are_removed() -> None:
    assert without_data_tags("Sim: <data>https://bbc.com</data>.</data>") == "Sim: https://bbc.com."
    assert without_data_tags("< /DATA >x<data id=1>") == "x"
    assert without_data_tags("a <b>data</b> e 3 < 4 > 2") == "a <b>data</b> e 3 < 4 > 2"


def test_emojis_are_removed_and_text_kept() -> None:
    assert without_emojis("Inception é ótimo 🎬🍿 nota 8.8") == "Inception é ótimo nota 8.8"
    assert without_emojis("👍🏽 Feito") == "Feito"
    assert without_emojis("sem emoji: «ok»") == "sem emoji: «ok»"


@pytest.mark.parametrize(
    ("message", "offer"),
    [
        ("Quer que eu salve Inception?", True),
        ("Should I save it?", True),
        ("Posso apagar a nota?", True),
        ("Inception é de 2010.", False),
        ("Você pode salvar com «salva X».", False),
    ],
)
def test_offers_to_act(message: str, offer: bool) -> None:
    assert offers_to_act(message) is offer


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db, counting_model=True) as running:
        yield running


def sample(lembra: Lembra, outcome: str) -> float:
    value = lembra.deps.metrics.registry.get_sample_value(
        "lembra_model_text_checks_total", {"outcome": outcome}
    )
    return value or 0.0


async def test_each_check_is_counted_in_metrics(lembra: Lembra) -> None:
    claim = {"action": "RESPOND", "tool": None, "args": None, "belief": BELIEF}
    await lembra.say(
        "salva inception",
        llm=[
            {**claim, "message": "Salvei Inception!"},
            {
                **claim,
                "message": "Ainda não salvei: qual o ano?",
                "belief": {**BELIEF, "guessed": 0.85},
            },
        ],
    )
    reply = await lembra.say(
        "inception é bom?", llm=[{**claim, "message": "É ótimo 🎬. Quer que eu salve?"}]
    )
    echoed = await lembra.say(
        "eu salvei algum link da bbc?",
        llm=[{**claim, "message": "Você tem <data>https://www.bbc.com</data>.</data>"}],
    )

    assert echoed.text == "Você tem https://www.bbc.com."
    assert sample(lembra, "data_tag_removed") == 1
    assert reply.text == "É ótimo. Quer que eu salve?"
    assert reply.meta.state == "AMBIGUOUS"
    assert sample(lembra, "false_claim") == 1
    assert sample(lembra, "emoji_removed") == 1
    assert sample(lembra, "offer_capped") == 1
    assert b"lembra_model_text_checks_total" in lembra.deps.metrics.render()
