"""Model text checked against the turn's facts (DESIGN 9.2): claims, emojis, offers, metrics."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.planning.claims import (
    ClaimFacts,
    claimed_effects,
    false_claim,
    judge,
    named_item,
    offers_to_act,
    read_claims,
    without_data_tags,
    without_emojis,
)
from agent.planning.textlanguage import foreign_language
from agent.understanding.morphology import verb_forms
from agent.understanding.textnorm import fold
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
        ("Inception já está salvo.", set()),  # a statement about the list, checked in storage
        ("Você salvou Inception (2010); não tenho uma avaliação guardada.", set()),
        ("O filme Inception é de 2010.", set()),
    ],
)
def test_claimed_effects(message: str, effects: set[str]) -> None:
    assert set(claimed_effects(message)) == effects


@pytest.mark.parametrize(
    ("message", "language"),
    [
        # the audit's let-through claims (issue 27), with nothing saved and an empty list
        ("Filme Arrival salvo com sucesso!", "pt"),
        ("O filme foi adicionado à sua lista.", "pt"),
        ("Tubarão está guardado ✅", "pt"),
        ("Matrix está salvo na sua lista.", "pt"),
        ("Coloquei Duna na sua lista de filmes.", "pt"),
        ("Jaws has been saved to your list.", "en"),
        ("Done - Jaws is now stored.", "en"),
        ("Your movie was added.", "en"),
        ("Matrix is in your list.", "en"),
        ("Pus Duna na lista.", "pt"),
        ("Tirei Matrix da lista.", "pt"),
        ("Show! Bacurau guardadinho aqui.", "pt"),
        ("Fiz a remoção de Parasita.", "pt"),
        ("I went ahead and saved Heat.", "en"),
        ("Your list now includes Heat.", "en"),
    ],
)
def test_false_claims_by_meaning_are_refused(message: str, language: str) -> None:
    facts = ClaimFacts(items=(named_item("Tubarão" if "Tirei" in message else "Up", ["up"]),))
    if "Tirei" in message or "remoção" in message:
        facts = ClaimFacts(
            items=(named_item("Matrix", ["matrix"]), named_item("Parasita", ["parasita"]))
        )
    assert judge(message, facts, language) is not None


@pytest.mark.parametrize(
    ("message", "language", "stored", "events"),
    [
        ("Matrix está salvo na sua lista.", "pt", ["Matrix"], []),
        ("Sim, Matrix (1999) já está na sua lista.", "pt", ["Matrix"], []),
        ("Matrix is in your list.", "en", ["Matrix"], []),
        ("Salvei Matrix.", "pt", ["Matrix"], ["item_saved"]),
        ("Apaguei Matrix.", "pt", [], ["item_deleted"]),
        # seed 000: a note about the user is backed by the belief delta of the turn
        ("Anotado: você gosta de terror.", "pt", [], ["belief_updated"]),
        ("Noted: you like horror.", "en", [], ["memory_noted"]),
        # a title that looks like a verb is a title once stored
        ("Saved by the Bell is in your list.", "en", ["Saved by the Bell"], []),
        ("Ainda Estou Aqui está na sua lista.", "pt", ["Ainda Estou Aqui"], []),
        # negations, questions, descriptions and the user's history claim nothing false
        ("Duna não está na sua lista.", "pt", ["Matrix"], []),
        ("Você salvou Matrix em janeiro; depois apagou tudo.", "pt", [], []),
        ("No final de Matrix, o herói é salvo pelo amigo.", "pt", [], []),
        ("The director removed a whole subplot from Heat.", "en", [], []),
        ("Apagar Matrix tiraria 1 item; eu pediria confirmação.", "pt", ["Matrix"], []),
    ],
)
def test_true_statements_pass(
    message: str, language: str, stored: list[str], events: list[str]
) -> None:
    items = tuple(named_item(t, fold(t).split()) for t in stored)
    facts = ClaimFacts(events=frozenset(events), items=items)
    assert judge(message, facts, language) is None


def test_every_inflection_comes_from_the_lemma() -> None:
    for word in ("salvei", "salvou", "salvo", "salvas", "salvarei", "coloquei", "apaguei"):
        assert verb_forms(word), word
    for word in ("removi", "removido", "excluí", "excluídas", "inseri", "insira", "pus", "posto"):
        assert verb_forms(fold(word)), word
    for word in ("saved", "stored", "dropped", "kept", "written", "took", "removing", "popped"):
        assert verb_forms(word), word
    assert {v.form for v in verb_forms("salve")} == {"subjunctive"}
    assert not verb_forms("salvador")
    assert not verb_forms("nota")


@given(st.text(max_size=300), st.sampled_from(["pt", "en"]))
def test_reading_never_raises(message: str, language: str) -> None:
    read_claims(message, language, titles=[message[:20]])
    judge(message, ClaimFacts(items=(named_item(message[:30], message.split()),)), language)


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
        ("Deseja que eu salve Matrix?", True),
        ("Quer salvar na sua lista?", True),
        ("Posso colocar ele na sua lista, se quiser.", True),
        ("If you want, I can add it to your list.", True),
    ],
)
def test_offers_to_act(message: str, offer: bool) -> None:
    language = "en" if message.startswith(("If", "Should")) else "pt"
    assert offers_to_act(message, language) is offer


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
        "o que você acha do link da bbc?",
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


@given(st.text(max_size=300), st.sampled_from(["pt", "en"]), st.text(max_size=60))
def test_the_language_check_never_raises(message: str, language: str, user_text: str) -> None:
    foreign_language(message, language, titles=[message[:15]], user_text=user_text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("message", "language", "foreign"),
    [
        ("Qual é o título do documentário?", "en", "pt"),
        ("It is from 2010 and it won two awards.", "pt", "en"),
        ("Sim, The Office está na sua lista.", "pt", None),
        ("Cidade de Deus is not in your list yet.", "en", None),
        ("Você disse «I love this movie».", "pt", None),
        ("Ok!", "pt", None),
    ],
)
def test_model_text_in_another_language_is_found(
    message: str, language: str, foreign: str | None
) -> None:
    titles = ["The Office"]
    assert foreign_language(message, language, titles=titles) == foreign  # type: ignore[arg-type]
