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
from agent.tools.matching import TYPE_WORDS
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


async def test_stored_items_are_found_by_the_words_of_the_claim(lembra: Lembra) -> None:
    # The check reads the items the text can name through the word index (issue 35),
    # not every item: a true claim about a stored note passes, a false one is re-asked.
    claim = {"action": "RESPOND", "tool": None, "args": None, "belief": BELIEF}
    await lembra.say("anota: comprar leite sem lactose")
    await lembra.say("anota: ligar pro banco amanhã")

    true = await lembra.say(
        "leite faz bem?", llm=[{**claim, "message": "Faz sim. Sua nota comprar leite está salva."}]
    )
    false = await lembra.say(
        "matrix é bom?",
        llm=[
            {**claim, "message": "Matrix está salvo na sua lista."},
            {**claim, "message": "É um clássico da ficção científica."},
        ],
    )

    assert true.text == "Faz sim. Sua nota comprar leite está salva."
    assert false.text.startswith("É um clássico da ficção científica.")  # after one re-ask
    assert "Matrix" not in false.text
    assert sample(lembra, "false_claim") == 1


# -- issue 27, set C: general reading rules (bench/claim_corpus_c.py found each one missing) --


def facts(
    stored: tuple[str, ...] = (),
    events: tuple[str, ...] = (),
    user: str = "",
    kinds: dict[str, str] | None = None,
) -> ClaimFacts:
    """Facts as the runtime builds them; `kinds` gives an item its type ("movie", "note")."""
    kinds = kinds or {}
    items = tuple(
        named_item(t, [*fold(t).split(), *TYPE_WORDS.get(kinds.get(t, ""), ())]) for t in stored
    )
    return ClaimFacts(events=frozenset(events), items=items, user_text=user)


SAVED = ("item_saved",)
DELETED = ("item_deleted",)


@pytest.mark.parametrize(
    ("message", "language", "stored", "events"),
    [
        # a "?" or "!" inside a title ends no sentence when the text goes on
        pytest.param(
            "Localizei Que Horas Ela Volta? na sua lista de filmes.",
            "pt",
            (),
            (),
            id="title-mark",
        ),
        pytest.param(
            "Tirei Que Horas Ela Volta? da sua lista agora.",
            "pt",
            ("Que Horas Ela Volta?",),
            SAVED,
            id="title-mark-delete",
        ),
        # the capitalised run before "(1999)" is a title, even of common words
        pytest.param("Up (2009) is already there.", "en", ("Jaws",), (), id="title-year"),
        pytest.param(
            "Certo! Guardei Que Horas Ela Volta? (2015) pra você.",
            "pt",
            ("Duna",),
            (),
            id="title-year-mark",
        ),
        # capitalised words inside a sentence name something
        pytest.param(
            "O título Ainda Estou Aqui foi salvo na sua lista.",
            "pt",
            ("Duna",),
            SAVED,
            id="capitalised-name",
        ),
        # small words between capitalised ones are part of the name, never a negation
        pytest.param(
            "Brilho Eterno de uma Mente sem Lembranças foi adicionado à sua lista.",
            "pt",
            (),
            (),
            id="name-inner-words",
        ),
        # a tag question still states
        pytest.param("Guardei Aquarius na sua lista, ok?", "pt", (), (), id="tag-question"),
        # a claim naming nothing is about the list its ":" opens
        pytest.param(
            "Adicionei estes títulos:\n- Duna\n- Aquarius",
            "pt",
            ("Duna",),
            SAVED,
            id="list-entries",
        ),
        pytest.param(
            "I've added these:\n- Up (2009)\n- Heat", "en", ("Up",), SAVED, id="list-entries-en"
        ),
        # ... or about what an earlier clause named
        pytest.param(
            "Ótima pedida! Cidade de Deus é imperdível. Coloquei na sua lista.",
            "pt",
            ("Duna",),
            SAVED,
            id="antecedent-copula",
        ),
        pytest.param(
            "Sim, você adicionou Central do Brasil — ele continua na sua lista.",
            "pt",
            ("Duna",),
            SAVED,
            id="antecedent-history",
        ),
        pytest.param("Inception? Guardado!", "pt", (), SAVED, id="antecedent-echo"),
        # what the list lacks is checked too: by whole title
        pytest.param("Você não tem Matrix na sua lista.", "pt", ("Matrix",), (), id="absent"),
        pytest.param("Não achei Matrix na sua lista.", "pt", ("Matrix",), (), id="absent-found"),
        pytest.param(
            "You do not have Once Upon a Time in the West on your list.",
            "en",
            ("Once Upon a Time in the West",),
            (),
            id="absent-long-negation",
        ),
        # how many, and none
        pytest.param("Por enquanto sua lista está vazia.", "pt", ("Duna",), (), id="empty"),
        pytest.param("You haven't saved anything yet.", "en", ("Duna",), (), id="empty-history"),
        pytest.param("There's nothing in your list.", "en", ("Duna",), (), id="empty-impersonal"),
        pytest.param("Você tem 5 itens salvos.", "pt", ("Duna",), (), id="count"),
        pytest.param("Agora sua lista tem 3 itens.", "pt", ("Duna",), SAVED, id="count-after-save"),
        # a delete of the whole list leaves nothing
        pytest.param("Apaguei todas as suas coisas.", "pt", ("Duna",), DELETED, id="whole-list"),
        pytest.param("Esvaziei sua lista.", "pt", ("Duna",), DELETED, id="whole-list-esvaziar"),
        # "Encontrei X na sua lista" says the list holds X
        pytest.param(
            "I found Get Out (2017) in your list.", "en", ("Duna",), (), id="found-in-list"
        ),
        pytest.param(
            "Achei 2 títulos na sua lista: Duna e Aquarius.",
            "pt",
            ("Duna",),
            (),
            id="found-colon",
        ),
        # a title and the list with no verb
        pytest.param("Ok! Aquarius (2016) na sua lista.", "pt", (), (), id="verbless"),
        pytest.param(
            "Sua lista: Matrix, Duna e Tubarão.", "pt", ("Matrix", "Duna"), (), id="listing"
        ),
        pytest.param(
            "Your list has Knives Out and Gone Girl.", "en", ("Gone Girl",), (), id="two-titles"
        ),
        # in progress, periphrases
        pytest.param("Adicionando Aquarius à sua lista agora...", "pt", (), (), id="gerund"),
        pytest.param("Adding Whiplash to your list right now.", "en", (), (), id="gerund-en"),
        pytest.param("Cuidei de adicionar Aquarius na sua lista.", "pt", (), (), id="periphrasis"),
        # a noting verb backs an item only with an item's event; notes on the user need theirs
        pytest.param(
            "Deixei Cidade de Deus guardado pra você.",
            "pt",
            ("Duna",),
            SAVED,
            id="noting-item",
        ),
        pytest.param(
            "Adicionei Heat e anotei que você adora comédias.",
            "pt",
            ("Heat",),
            SAVED,
            id="noting-user",
        ),
        # a field of an item changes only with item_updated
        pytest.param(
            "Certo, mudei o ano de Tubarão para 1975.",
            "pt",
            ("Tubarão",),
            ("belief_updated",),
            id="update-field",
        ),
        pytest.param("O ano de Us agora é 2019.", "pt", (), (), id="update-field-now"),
        # an item said gone while it is stored
        pytest.param("Whiplash is no longer on your list.", "en", ("Whiplash",), (), id="gone"),
        pytest.param(
            "Alright, Home Alone (1990) is off your list.",
            "en",
            ("Home Alone",),
            (),
            id="gone-off",
        ),
        pytest.param("Tubarão já era.", "pt", ("Tubarão",), (), id="gone-ja-era"),
        pytest.param(
            "I've taken The Good, the Bad and the Ugly off your list.",
            "en",
            (),
            (),
            id="far-particle",
        ),
        # states without a place word next to the verb
        pytest.param(
            "Guardado! Parasita tá te aguardando na lista.",
            "pt",
            ("Duna",),
            SAVED,
            id="state-gerund",
        ),
        pytest.param("Yep, it's in there.", "en", (), (), id="in-there"),
        pytest.param(
            "Done, Searching (2018) is in your films now.",
            "en",
            ("Duna",),
            SAVED,
            id="possessive-kind-place",
        ),
        # a save claim needs a save this turn, even of a stored title (DESIGN 9.2)
        pytest.param("Guardei Matrix.", "pt", ("Matrix",), (), id="save-without-event"),
    ],
)
def test_set_c_false_claims_are_refused(
    message: str, language: str, stored: tuple[str, ...], events: tuple[str, ...]
) -> None:
    assert judge(message, facts(stored, events), language) is not None


@pytest.mark.parametrize(
    ("message", "language", "stored", "events"),
    [
        pytest.param(
            "Localizei Que Horas Ela Volta? na sua lista de filmes.",
            "pt",
            ("Que Horas Ela Volta?",),
            (),
            id="title-mark",
        ),
        pytest.param(
            "Corra! já está guardado na sua lista.", "pt", ("Corra!",), (), id="title-mark-bang"
        ),
        pytest.param(
            "Adicionei estes títulos:\n- Duna\n- Aquarius",
            "pt",
            ("Duna", "Aquarius"),
            SAVED,
            id="list-entries",
        ),
        pytest.param(
            "Nice choice! Parasite is brilliant. I put it on your list.",
            "en",
            ("Parasite",),
            SAVED,
            id="antecedent",
        ),
        pytest.param(
            "Boa! Tubarão é excelente. Ele já está guardado na sua lista.",
            "pt",
            ("Tubarão",),
            (),
            id="antecedent-state",
        ),
        pytest.param(
            "Não removi Tubarão (1975): ele continua na sua lista.",
            "pt",
            ("Tubarão",),
            (),
            id="antecedent-negated",
        ),
        pytest.param("Apagado: lembrete antigo.", "pt", (), DELETED, id="colon-target"),
        pytest.param(
            "Tubarão não está na sua lista; só Tubarão 2.",
            "pt",
            ("Tubarão 2",),
            (),
            id="absent-by-whole-title",
        ),
        pytest.param(
            "Removi Tubarão; Tubarão 2 continua salvo.",
            "pt",
            ("Tubarão 2",),
            DELETED,
            id="deleted-by-whole-title",
        ),
        pytest.param("Your list is empty.", "en", (), (), id="empty"),
        pytest.param("Nada foi apagado.", "pt", ("Duna",), (), id="nothing-this-turn"),
        pytest.param("Sua lista tem 2 itens.", "pt", ("Duna", "Up"), (), id="count"),
        pytest.param(
            "Você tem 2 filmes do Spielberg salvos.",
            "pt",
            ("Tubarão",),
            (),
            id="narrowed-count",
        ),
        pytest.param("Apaguei todas as suas coisas.", "pt", (), DELETED, id="whole-list"),
        pytest.param("Excluído da sua lista.", "pt", ("Duna",), DELETED, id="removed-from-list"),
        pytest.param(
            "Achei Tubarão (1975) no catálogo. É este?", "pt", (), (), id="found-elsewhere"
        ),
        pytest.param(
            "Achei 2 títulos na sua lista: Tubarão e Tubarão 2.",
            "pt",
            ("Tubarão", "Tubarão 2"),
            (),
            id="found-colon",
        ),
        pytest.param(
            "Na sua lista consta o filme Tubarão.", "pt", ("Tubarão",), (), id="place-first"
        ),
        pytest.param(
            "Anotei que você detesta filmes de terror.",
            "pt",
            (),
            ("belief_updated",),
            id="noted-about-user",
        ),
        pytest.param(
            "Saving Private Ryan is not on your list yet.", "en", (), (), id="gerund-title"
        ),
        pytest.param("It has been deleted.", "en", ("It",), DELETED, id="pronoun-title"),
        pytest.param(
            "Apagado ✅ Sua lista agora tem Tubarão e Duna.",
            "pt",
            ("Tubarão", "Duna"),
            DELETED,
            id="emoji-ends-sentence",
        ),
        pytest.param(
            "Salvo pelo Gongo é divertido! Se quiser, eu guardo.",
            "pt",
            (),
            (),
            id="copula-name",
        ),
        pytest.param(
            "Qualquer coisa que você salvar fica só com você.", "pt", (), (), id="generic-subject"
        ),
        pytest.param("Eu salvo filmes, séries e notas pra você.", "pt", (), (), id="capability"),
        pytest.param(
            "Eu removo tudo se você disser «sim».",
            "pt",
            ("Duna",),
            (),
            id="conditional-promise",
        ),
        pytest.param(
            "I deleted nothing; Jaws is still saved.",
            "en",
            ("Jaws",),
            (),
            id="nothing-object",
        ),
        pytest.param("A cena final foi gravada no Rio.", "pt", (), (), id="story-place"),
        pytest.param(
            "That scene was deleted in the theatrical cut.", "en", (), (), id="story-place-en"
        ),
        pytest.param(
            "Oppenheimer foi removido do streaming, mas continua na sua lista.",
            "pt",
            ("Oppenheimer",),
            (),
            id="removed-elsewhere",
        ),
        pytest.param(
            "In Total Recall, a man has his memories erased.",
            "en",
            (),
            (),
            id="causative",
        ),
        pytest.param(
            "Tubarão? Está salvo desde a semana passada.", "pt", ("Tubarão",), (), id="time-words"
        ),
        pytest.param(
            "Barbie não está aqui; sua lista tem só Oppenheimer.",
            "pt",
            ("Oppenheimer",),
            (),
            id="so-is-only",
        ),
    ],
)
def test_set_c_true_statements_pass(
    message: str, language: str, stored: tuple[str, ...], events: tuple[str, ...]
) -> None:
    assert judge(message, facts(stored, events), language) is None


def test_counts_and_emptiness_follow_the_items_kinds() -> None:
    typed = {"Duna": "movie", "comprar pão": "note"}
    both = ("Duna", "comprar pão")
    assert judge("Você tem 1 filme salvo.", facts(both, kinds=typed)) is None
    assert judge("Você tem 2 filmes salvos.", facts(both, kinds=typed)) is not None
    assert judge("Você ainda não tem notas salvas.", facts(("Duna",), kinds=typed)) is None
    assert judge("Você ainda não tem notas salvas.", facts(both, kinds=typed)) is not None
    # only the notes were deleted: the film left does not make "todas as notas" false
    assert judge("Apaguei todas as suas notas.", facts(("Duna",), DELETED, kinds=typed)) is None
    assert judge("Apaguei todas as suas notas.", facts(both, DELETED, kinds=typed)) is not None


@pytest.mark.parametrize(
    ("message", "language", "user", "stored", "events", "false"),
    [
        ("Prontinho.", "pt", "guarda o filme Duna", (), (), True),
        ("Prontinho.", "pt", "guarda o filme Duna", ("Duna",), SAVED, False),
        ("Certo, feito.", "pt", "adiciona o filme Aquarius", (), (), True),
        ("Feitinho 👍", "pt", "remove o Tubarão", ("Tubarão",), (), True),
        ("Feitinho 👍", "pt", "remove o Tubarão", (), DELETED, False),
        ("Finished!", "en", "add Inception", (), (), True),
        ("Sorted, it's deleted.", "en", "remove Whiplash", ("Whiplash",), (), True),
        # nothing was asked to be saved or deleted: a bare "Pronto!" claims nothing
        ("Pronto, aqui estão seus filmes.", "pt", "mostra meus filmes", ("Duna",), (), False),
        ("All good!", "en", "thank you", (), (), False),
    ],
)
def test_a_bare_done_claims_what_the_user_asked_for(
    message: str,
    language: str,
    user: str,
    stored: tuple[str, ...],
    events: tuple[str, ...],
    false: bool,
) -> None:
    assert (judge(message, facts(stored, events, user=user), language) is not None) is false


def test_a_title_marked_done_needs_an_effect_this_turn() -> None:
    assert judge("Jaws: done ✔️", facts(("Heat",)), "en") is not None
    assert judge("Jaws: done ✔️", facts(("Jaws",), SAVED), "en") is None
    assert judge("All set: I found Amélie among your items.", facts(("Amélie",)), "en") is None


def test_an_offer_without_its_verb_is_capped() -> None:
    assert offers_to_act("Would you like Heat on your list?", "en")
    assert judge("Would you like Heat on your list?", facts(), "en") is None


def test_the_events_alone_judge_when_the_items_are_unknown() -> None:
    assert false_claim("Coloquei Inception na lista.", ["item_saved"]) is None
    assert false_claim("Coloquei Inception na lista.", ["item_deleted"]) is not None


async def test_counts_in_model_text_are_checked_against_every_item(lembra: Lembra) -> None:
    # The check reads only the items the text can name (issue 35), so "você tem N itens"
    # is judged by the user's stored counts, not by how many items the words found.
    claim = {"action": "RESPOND", "tool": None, "args": None, "belief": BELIEF}
    for note in ("comprar pão", "ligar pra tia", "pagar a conta de luz"):
        await lembra.say(f"anota: {note}")

    true = await lembra.say(
        "dá pra fazer tudo isso hoje?", llm=[{**claim, "message": "Você tem 3 itens salvos."}]
    )
    false = await lembra.say(
        "e agora, quantas?",
        llm=[
            {**claim, "message": "Sua lista está vazia."},
            {**claim, "message": "Não sei dizer de cabeça."},
        ],
    )

    assert true.text == "Você tem 3 itens salvos."
    assert false.text.startswith("Não sei dizer de cabeça.")  # after one re-ask
    assert sample(lembra, "false_claim") == 1
