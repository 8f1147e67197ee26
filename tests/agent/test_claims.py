"""Model text never speaks for the runtime (DESIGN 11.2): effects, the list, offers, what is checked."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agent.planning.claims import (
    ClaimFacts,
    Stored,
    judge,
    named_effects,
    offers_to_act,
    read,
)
from agent.planning.textlanguage import foreign_language
from agent.understanding.textnorm import without_data_tags, without_emojis
from storage import Database
from tests.support.harness import Lembra, open_lembra

BELIEF = {"key": "answer.confidence", "guessed": 1.0, "delta": 0}
RESPOND = {"action": "RESPOND", "tool": None, "args": None, "belief": BELIEF}


def facts(*stored: str, user: str = "", noting: bool = False) -> ClaimFacts:
    """Facts as the runtime builds them: "movie:Matrix", "note:comprar pão", "tv:Dark@seen",
    "movie:A Origem=Inception" (an original title), "movie:Heat#1995" (its year)."""
    items = []
    for row in stored:
        kind, _, rest = row.partition(":")
        rest, _, year = rest.partition("#")
        title, _, original = rest.partition("=")
        title, _, state = title.partition("@")
        kind = "tv_show" if kind == "tv" else kind
        stored_year = int(year) if year else None
        items.append(Stored(kind, title, original or None, stored_year, state or None))
    return ClaimFacts(items=tuple(items), user_text=user, noting=noting)


def refused(message: str, language: str = "pt", *stored: str, user: str = "") -> bool:
    return judge(message, facts(*stored, user=user), language).problem is not None


# -- effects: any statement that one happened or will, whatever it names ------------------------


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Pronto! Salvei Inception 😀", "pt"),
        ("Inception foi salvo na sua lista.", "pt"),
        ("Filme Arrival salvo com sucesso!", "pt"),
        ("Coloquei Duna na sua lista de filmes.", "pt"),
        ("Show! Bacurau guardadinho aqui.", "pt"),
        ("Fiz a remoção de Parasita.", "pt"),
        ("Tirei Matrix da lista.", "pt"),
        ("Duna saiu da sua lista.", "pt"),
        ("Vou salvar Matrix.", "pt"),
        ("Já já eu salvo Duna pra você!", "pt"),
        ("Lembrete criado pra sexta às 9h! ⏰", "pt"),
        ("Combinado! Te lembro amanhã às 9h.", "pt"),
        ("Cancelei o lembrete, não vou mais te avisar.", "pt"),
        ("Desfeito! Duna voltou para a sua lista.", "pt"),
        ("Marquei Matrix como visto!", "pt"),
        ("Importei 12 itens da sua lista.", "pt"),
        ("Feito ✅", "pt"),
        ("Tá na mão! 😎", "pt"),
        ("Prontinho! 👍", "pt"),
        ("Jaws has been saved to your list.", "en"),
        ("I went ahead and saved Heat.", "en"),
        ("Your list now includes Heat.", "en"),
        ("I'll add it to your list.", "en"),
        ("Done! I'll remind you tomorrow.", "en"),
        ("Reminder set for 5 PM ✅", "en"),
        ("I've undone your last change.", "en"),
        ("Marked Dune as watched.", "en"),
        ("Heat is gone from your list.", "en"),
        ("Consider it done!", "en"),
        ("You got it! 👍", "en"),
        ("✅", "en"),
        ("I'll remember that the gym closes at 10pm.", "en"),
    ],
)
def test_any_effect_said_done_or_promised_is_refused(message: str, language: str) -> None:
    assert refused(message, language)


def test_an_effect_is_refused_whatever_item_it_names() -> None:
    # a save of a title stored before this turn is still no save of this turn
    assert refused("Guardei Matrix.", "pt", "movie:Matrix")
    assert refused("Pronto! Matrix está na sua lista.", "pt", "movie:Matrix", user="salva matrix")
    assert refused("I deleted Heat.", "en")


@pytest.mark.parametrize(
    ("message", "language", "stored"),
    [
        # a title is found first, as one span: its negation is no negation of the clause
        ("Não Me Abandone Jamais foi salvo!", "pt", ()),
        ("Não me abandone jamais foi salvo na sua lista.", "pt", ("movie:Não Me Abandone Jamais",)),
        ("Don't Look Up was added to your list.", "en", ()),
        ("Don't Look Up was added to your list.", "en", ("movie:Don't Look Up",)),
        ("No Country for Old Men has been saved.", "en", ()),
        # nor are its verbs read as the clause's ("Saved by the Bell")
        ("Consider Saved by the Bell saved.", "en", ()),
    ],
)
def test_titles_are_never_read_as_clauses(message: str, language: str, stored: tuple[str]) -> None:
    assert refused(message, language, *stored)


@pytest.mark.parametrize(
    ("message", "language", "stored"),
    [
        # honest negations, questions, conditions, instructions, what it can do
        ("Não salvei nada ainda.", "pt", ()),
        ("I haven't deleted anything.", "en", ()),
        ("No, nothing was saved.", "en", ()),
        ("Nenhuma alteração foi feita na sua lista.", "pt", ()),
        ("Não apaguei Matrix; ele continua na sua lista.", "pt", ("movie:Matrix",)),
        ("Quando você confirmar, eu removo Duna.", "pt", ("movie:Duna",)),
        ('Reply "yes" and I\'ll remove it.', "en", ("movie:Dune",)),
        ("Once you confirm, I'll delete Dune.", "en", ("movie:Dune",)),
        ("Você quer salvar como filme ou série?", "pt", ()),
        ("Para apagar, diga «apaga» e o nome do item.", "pt", ()),
        ("Tudo o que você salvar fica guardado só pra você.", "pt", ()),
        ("I can save movies, shows, links and notes for you.", "en", ()),
        ("Eu nunca apago nada sem a sua confirmação.", "pt", ()),
        # stories and facts from the model's own knowledge
        ("No final de Matrix, o herói é salvo pelo amigo.", "pt", ()),
        ("The director removed a whole subplot from Heat.", "en", ()),
        ("Firefly foi cancelada depois de uma temporada.", "pt", ()),
        ("That scene was deleted in the theatrical cut.", "en", ()),
        ("Saved by the Bell ran from 1989 to 1993.", "en", ()),
        ("Don't Look Up is a 2021 satire with Leonardo DiCaprio.", "en", ()),
        ("Feito por Christopher Nolan, Interestelar é uma viagem e tanto.", "pt", ()),
        ("Você salvou Matrix em janeiro; depois apagou tudo.", "pt", ()),
        ("Estou pronto para ajudar!", "pt", ()),
        ("Your data is stored securely.", "en", ()),
        ("De nada! 😊", "pt", ()),
        # which of the stored films are Spielberg's, storage cannot tell
        ("Você tem 2 filmes do Spielberg salvos.", "pt", ("movie:Tubarão", "movie:E.T.")),
    ],
)
def test_what_claims_no_effect_passes(message: str, language: str, stored: tuple[str]) -> None:
    assert not refused(message, language, *stored)


def test_a_bare_acknowledgement_claims_what_the_user_asked_for() -> None:
    assert refused("Ok!", "pt", user="salva o filme Duna")
    assert refused("Certo 👍", "pt", user="e aí?")  # a thumbs-up confirms whatever was asked
    assert not refused("Ok.", "pt", user="e agora?")
    assert not refused("Certo.", "pt", user="não, eu quis dizer outra coisa")


def test_a_belief_delta_is_the_one_note_model_text_may_claim() -> None:
    said = "Anotado: você gosta de terror."
    assert judge(said, facts(), "pt").problem is not None
    assert judge(said, facts(noting=True), "pt").problem is None
    assert judge("Noted: you like horror.", facts(noting=True), "en").problem is None
    # the delta notes a taste, not an item
    assert judge("Salvei Matrix.", facts(noting=True), "pt").problem is not None


# -- statements about the list, checked against storage ---------------------------------------


@pytest.mark.parametrize(
    ("message", "language", "stored", "user"),
    [
        ("Sim, Matrix está na sua lista.", "pt", ("movie:Matrix",), ""),
        ("Sim, está na sua lista!", "pt", ("movie:Matrix",), "matrix tá na minha lista?"),
        ("Yes, it's already on your list.", "en", ("movie:Her",), "is her on my list?"),
        ("Not adding it twice: Matrix is already there.", "en", ("movie:Matrix",), "save matrix"),
        ("Você só tem um item: Matrix.", "pt", ("movie:Matrix",), ""),
        ("Your only movie is Dune.", "en", ("movie:Dune", "note:buy milk"), ""),
        ("Você tem 2 filmes e 1 nota.", "pt", ("movie:Matrix", "movie:Duna", "note:x"), ""),
        ("Sua lista tem Ó Paí, Ó e Duna.", "pt", ("movie:Ó Paí, Ó", "movie:Duna"), ""),
        ("Seus filmes: Matrix (1999), Duna (2021).", "pt", ("movie:Matrix", "movie:Duna"), ""),
        ("Sim, Interstellar está na sua lista.", "pt", ("movie:Interestelar=Interstellar",), ""),
        ("Duna não está na sua lista.", "pt", ("movie:Matrix",), ""),
        ("Tubarão não está na sua lista; só Tubarão 2.", "pt", ("movie:Tubarão 2",), ""),
        ("Sua lista está vazia.", "pt", (), ""),
        ("Você não tem notas salvas.", "pt", ("movie:Matrix",), ""),
        ("Sim, Matrix está marcado como visto.", "pt", ("movie:Matrix@seen",), ""),
        (
            "Here are your items:\n- Breaking Bad\n- Heat (1995)",
            "en",
            ("tv:Breaking Bad", "movie:Heat"),
            "",
        ),
    ],
)
def test_true_statements_about_the_list_pass(
    message: str, language: str, stored: tuple[str], user: str
) -> None:
    verdict = judge(message, facts(*stored, user=user), language)
    assert verdict.problem is None
    assert verdict.checked


@pytest.mark.parametrize(
    ("message", "language", "stored", "user"),
    [
        ("Sua lista tem Matrix, Duna e Alien.", "pt", ("movie:Matrix",), ""),
        ("Sim, está na sua lista!", "pt", ("movie:Duna",), "matrix tá lá?"),
        ("Você tem 3 filmes: Matrix, Duna e Alien.", "pt", ("movie:Matrix",), ""),
        ("You have 3 movies saved.", "en", ("movie:Heat", "movie:Ronin"), ""),
        ("Você só tem Matrix.", "pt", ("movie:Matrix", "movie:Duna"), ""),
        (
            "Todos os seus filmes: Matrix e Duna.",
            "pt",
            ("movie:Matrix", "movie:Duna", "movie:Up"),
            "",
        ),
        ("Matrix não está na sua lista.", "pt", ("movie:Matrix",), ""),
        ("Sua lista está vazia.", "pt", ("movie:Matrix",), ""),
        ("Sim, você já viu Matrix.", "pt", ("movie:Matrix@to_see",), ""),
        ("Here's your list:\n1. Matrix\n2. Dune", "en", ("movie:Matrix",), ""),
        ("Sim, Interstellar está na sua lista.", "pt", ("movie:A Origem=Inception",), ""),
    ],
)
def test_false_statements_about_the_list_are_refused(
    message: str, language: str, stored: tuple[str], user: str
) -> None:
    assert judge(message, facts(*stored, user=user), language).problem is not None


# every name a listing gives must be stored; "Dark" is not "Dark Waters", "Jaws 2" not "Jaws"
LISTINGS = [
    ("Aqui vai: 🎬 Matrix, 🎬 {x}, 📝 comprar pão", "pt", ("movie:Matrix", "note:comprar pão"), ""),
    ("Claro! 🎬 Matrix, 🎬 {x}, 📝 comprar pão", "pt", ("movie:Matrix", "note:comprar pão"), ""),
    ("Seus links: https://a.com/x e {x}", "pt", ("link:https://a.com/x",), ""),
    ("Falta ver: Dark, Lost e {x}", "pt", ("tv:Dark", "tv:Lost"), ""),
    (
        "O primeiro é Matrix, depois vêm Duna e {x}.",
        "pt",
        ("movie:Matrix", "movie:Duna"),
        "qual vejo?",
    ),
    ("You have 3 series: Dark, Lost, and {x}.", "en", ("tv:Dark", "tv:Lost"), ""),
    ("1. Heat\n2. Ronin\n3. {x}", "en", ("movie:Heat", "movie:Ronin"), "list"),
    ("Claro! 🎬\n- Matrix\n- {x}", "pt", ("movie:Matrix",), "meus filmes"),
    ("'Matrix', 'Duna' e '{x}'", "pt", ("movie:Matrix", "movie:Duna"), "lista"),
    ("Try Heat or {x}, both on your list.", "en", ("movie:Heat",), "what should I watch?"),
    ("📝 comprar pão\n📝 {x}", "pt", ("note:comprar pão",), "notas?"),
]


@pytest.mark.parametrize(("message", "language", "stored", "user"), LISTINGS)
def test_a_listing_naming_an_item_not_stored_is_refused(
    message: str, language: str, stored: tuple[str], user: str
) -> None:
    extra = "https://c.com/z" if "links" in message else "Fargo"
    assert refused(message.format(x=extra), language, *stored, user=user)
    kept = (*stored, f"{stored[0].partition(':')[0]}:{extra}")  # once it is stored, it passes
    assert not refused(message.format(x=extra), language, *kept, user=user)


@pytest.mark.parametrize(
    ("message", "language", "stored", "user"),
    [
        ("Dark está nas suas séries.", "pt", ("tv:Dark Waters",), "tenho dark?"),
        ("Yes, https://b.com/y is in your links.", "en", ("link:https://a.com/x",), ""),
        ("I can confirm that Ronin is on your list.", "en", ("movie:Heat",), ""),
        ("Matrix não aparece na sua lista.", "pt", ("movie:Matrix",), ""),
        ("Você não tem nenhum vídeo do Nolan.", "pt", ("video:Entrevista com o Nolan",), ""),
        ("Sua lista tá zerada!", "pt", ("movie:Matrix",), ""),
        ("It's completely empty right now.", "en", ("movie:Heat",), "what do I have?"),
        ("There's nothing on your list yet.", "en", ("movie:Heat",), ""),
        ("Yes, The Shining is on your list.", "en", ("movie:O Iluminado",), ""),
        ("Yes, Jaws 2 is saved.", "en", ("movie:Jaws",), "jaws 2?"),
        ("Sua lista tem Duna 2 e Matrix.", "pt", ("movie:Duna", "movie:Matrix"), ""),
    ],
)
def test_near_misses_about_the_list_are_refused(
    message: str, language: str, stored: tuple[str], user: str
) -> None:
    assert refused(message, language, *stored, user=user)


@pytest.mark.parametrize(
    ("message", "language", "stored", "user"),
    [
        ("You have The Shining.", "en", ("movie:O Iluminado=The Shining",), ""),
        ("You don't have any notes about the plumber.", "en", ("note:buy milk",), ""),
        ("Heat e Ronin não estão na sua lista, só Matrix.", "pt", ("movie:Matrix",), ""),
        ("Sim, Dark Waters está nas suas séries.", "pt", ("tv:Dark Waters",), ""),
        ("Yes, Jaws 2 is saved.", "en", ("movie:Jaws 2",), "jaws 2?"),
        (
            "If you liked Heat, try Thief and Collateral, by Michael Mann.",
            "en",
            ("movie:Heat",),
            "",
        ),
        ("Sua lista tá zerada!", "pt", (), ""),
        (
            "Heat, Thief e Collateral são do Michael Mann.",
            "pt",
            ("movie:Heat",),
            "filmes como heat?",
        ),
    ],
)
def test_true_near_misses_pass(message: str, language: str, stored: tuple[str], user: str) -> None:
    assert not refused(message, language, *stored, user=user)


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Voltei atrás, Matrix tá de novo na lista.", "pt"),
        ("Tá refeito!", "pt"),
        ("Vou desfazer a última ação.", "pt"),
        ("Undo complete ↩️", "en"),
        ("Lembrete na agenda pra amanhã às 10h 📅", "pt"),
        ("You'll get a ping tomorrow at 9.", "en"),
        ("Gone 🗑️", "en"),
        ("#1 is gone.", "en"),
        ("Suas notas foram limpas.", "pt"),
        ("Lista esvaziada 🧹", "pt"),
        ("Your list is cleared.", "en"),
        ("Matrix visto ✔️", "pt"),
        ("Heat — seen!", "en"),
        ("Heat checked off.", "en"),
        ("Rating saved.", "en"),
        ("Heat now has a rating of 8.", "en"),
        ("Dark agora é uma série.", "pt"),
        ("Transformei em nota.", "pt"),
        ("Switched #2 to a movie.", "en"),
        ("Retyped as a video.", "en"),
        ("Ano corrigido pra 1995 ✅", "pt"),
        ("Import complete!", "en"),
        ("All 25 rows are in.", "en"),
        ("Synced!", "en"),
        ("Locked in 🔒", "en"),
        ("Heat garantido na lista 🔒", "pt"),
        ("Heat foi pro lixo 🗑️", "pt"),
    ],
)
def test_effects_said_in_slang_or_without_a_verb_are_refused(message: str, language: str) -> None:
    assert refused(message, language, "movie:Heat", "movie:Matrix")


# -- broad mechanisms: contractions, marks, "now", first-person acts, types, quotes ---------


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Alien's in 🎉", "en"),  # a contraction's tail is a word: "Alien 's in"
        ("They're saved.", "en"),
        ("Ran's been added.", "en"),
        ("Notas apagadas 🧹", "pt"),  # a participle after a bare plural type word
        ("Added 4 films to your watchlist!", "en"),  # an effect word before a count
        ("Lembrete pra segunda 8h ✅", "pt"),  # a check mark beside a reminder word
        ("Your movie now reads 'Alien (1979)'.", "en"),  # "now" said of an item's type
        ("Arrastei ela pra pasta Favoritos 📁", "pt"),  # a first-person act into a place
        ("I've pushed it to the top of your list.", "en"),
        ("Dei um 9 pro Alien.", "pt"),
        ("Quer que eu refaça a última ação?", "pt"),  # an offer, never shown as text
        ("The note you just wrote has been erased.", "en"),  # the act after the history
    ],
)
def test_effects_said_by_contractions_marks_and_unknown_verbs_are_refused(
    message: str, language: str
) -> None:
    verdict = judge(message, facts("movie:Alien"), language)
    assert verdict.problem is not None or verdict.offer


@pytest.mark.parametrize(
    ("message", "language", "stored", "user", "true"),
    [
        ("Every item you have is a movie.", "en", ("movie:Heat", "movie:Ran"), "", True),
        ("Every item you have is a movie.", "en", ("movie:Heat", "note:milk"), "", False),
        ("Sua lista só contém links.", "pt", ("link:https://a.com", "note:pão"), "", False),
        ("Ran is your only movie.", "en", ("movie:Ran",), "", True),
        ("Ran is your only movie.", "en", ("movie:Ran", "movie:Heat"), "", False),
        ("Heat's on your list.", "en", ("movie:Heat",), "", True),
        ("Ran is already in your series.", "en", ("movie:Ran",), "", False),
        ("Ran is already in your movies.", "en", ("movie:Ran",), "", True),
        ("Você tem a nota 'ligar pro banco'.", "pt", ("note:pagar luz",), "", False),
        (
            "Nenhum link do Mercado Livre na sua lista.",
            "pt",
            ("link:https://www.mercadolivre.com.br/x",),
            "",
            False,
        ),  # fmt: skip
        ("Sim, Ran está marcado como visto.", "pt", ("movie:Ran",), "", False),
        (
            "Yes, only two: Dark and Lost.",
            "en",
            ("tv:Dark", "tv:Lost", "tv:Ozark"),
            "are dark and lost my only series?",
            False,
        ),  # fmt: skip
        (
            "Yes, only two: Dark and Lost.",
            "en",
            ("tv:Dark", "tv:Lost", "movie:Heat"),
            "are dark and lost my only series?",
            True,
        ),  # fmt: skip
        (
            "You have Ran and Heat, both directed by Akira Kurosawa.",
            "en",
            ("movie:Ran", "movie:Heat"),
            "",
            True,
        ),  # fmt: skip
        ("Tem sim.", "pt", ("movie:Heat",), "tenho Ran?", False),
        ("Tem sim.", "pt", ("movie:Ran",), "tenho Ran?", True),
        ("Right now your list has Ran.", "en", ("movie:Ran",), "", True),
    ],
)
def test_statements_of_type_quotes_and_answers_are_checked(
    message: str, language: str, stored: tuple[str], user: str, true: bool
) -> None:
    assert (judge(message, facts(*stored, user=user), language).problem is None) == true


def test_what_cannot_be_checked_is_told_apart() -> None:
    opinion = judge("Matrix é um clássico da ficção científica.", facts(), "pt")
    listed = judge("Sim, Matrix está na sua lista.", facts("movie:Matrix"), "pt")
    both = judge("Sim, Matrix está na sua lista. É ótimo!", facts("movie:Matrix"), "pt")
    assert (opinion.checked, opinion.unchecked) == (False, True)
    assert (listed.checked, listed.unchecked) == (True, False)
    assert (both.checked, both.unchecked) == (True, True)


@pytest.mark.parametrize(
    ("message", "offer"),
    [
        ("Quer que eu salve Inception?", True),
        ("Should I save it?", True),
        ("Posso apagar a nota?", True),
        ("Posso colocar ele na sua lista, se quiser.", True),
        ("If you want, I can add it to your list.", True),
        ("Would you like Heat on your list?", True),
        ("Quer um lembrete pra isso?", True),
        ("Inception é de 2010.", False),
        ("Você pode salvar com «salva X».", False),
        ("Eu consigo salvar filmes, notas e links.", False),
    ],
)
def test_offers_to_act(message: str, offer: bool) -> None:
    language = "en" if message.startswith(("If", "Should", "Would")) else "pt"
    assert offers_to_act(message, language) is offer


def test_the_handover_reads_named_saves_and_deletions() -> None:
    said = "Nesta sessão salvei Matrix e apaguei Inception; a lista ficou em ordem."
    assert named_effects(said, "pt", ["Inception"]) == [("save", "matrix"), ("delete", "inception")]


@given(st.text(max_size=300), st.sampled_from(["pt", "en"]), st.text(max_size=60))
def test_reading_never_raises(message: str, language: str, user: str) -> None:
    read(message, language)
    judge(message, ClaimFacts(items=(Stored("movie", message[:30]),), user_text=user), language)


def test_data_fences_echoed_by_a_model_are_removed() -> None:
    assert without_data_tags("Sim: <data>https://bbc.com</data>.</data>") == "Sim: https://bbc.com."
    assert without_data_tags("< /DATA >x<data id=1>") == "x"
    assert without_data_tags("a <b>data</b> e 3 < 4 > 2") == "a <b>data</b> e 3 < 4 > 2"


def test_emojis_are_removed_and_text_kept() -> None:
    assert without_emojis("Inception é ótimo 🎬🍿 nota 8.8") == "Inception é ótimo nota 8.8"
    assert without_emojis("👍🏽 Feito") == "Feito"
    assert without_emojis("sem emoji: «ok»") == "sem emoji: «ok»"


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


# -- in a turn -----------------------------------------------------------------------------------


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db, counting_model=True) as running:
        yield running


def sample(lembra: Lembra, outcome: str) -> float:
    value = lembra.deps.metrics.registry.get_sample_value(
        "lembra_model_text_checks_total", {"outcome": outcome}
    )
    return value or 0.0


async def test_a_false_claim_is_asked_again_and_never_sent(lembra: Lembra) -> None:
    reply = await lembra.say(
        "salva inception",
        llm=[
            {**RESPOND, "message": "Salvei Inception!"},
            {
                **RESPOND,
                "message": "Ainda não salvei: qual o ano?",
                "belief": {**BELIEF, "guessed": 0.85},
            },
        ],
    )
    echoed = await lembra.say(
        "o que você acha do link da bbc?",
        llm=[{**RESPOND, "message": "O site <data>https://www.bbc.com</data>.</data> é bom."}],
    )

    assert reply.text.startswith("Ainda não salvei: qual o ano?")
    assert echoed.text == "O site https://www.bbc.com. é bom."
    assert sample(lembra, "false_claim") == 1
    assert sample(lembra, "data_tag_removed") == 1
    assert b"lembra_model_text_checks_total" in lembra.deps.metrics.render()


async def test_an_offer_is_asked_with_options_and_the_answer_goes_back(lembra: Lembra) -> None:
    offered = await lembra.say(
        "inception é bom?", llm=[{**RESPOND, "message": "É ótimo 🎬. Quer que eu salve?"}]
    )
    answered = await lembra.say("1", llm=[{**RESPOND, "message": "Qual o ano do filme?"}])

    assert offered.text.startswith("É ótimo. Quer que eu salve?")
    assert [c.label for c in offered.choices] == ["Sim, pode", "Não, obrigado"]
    assert offered.meta.state == "AMBIGUOUS"
    assert "offer_to_act_asked" in offered.meta.rules_applied
    assert sample(lembra, "offer_asked") == 1
    assert sample(lembra, "emoji_removed") == 1
    # the answer reached the planner as the clarification's result, not as a new message
    request = lembra.reports[-1].requests[0].body["messages"]
    assert "request_clarification" in str(request[-2:])
    assert "Sim, pode" in str(request[-1])
    assert answered.text.startswith("Qual o ano do filme?")


async def test_text_the_runtime_cannot_check_is_never_scored_100(lembra: Lembra) -> None:
    await lembra.say("anota: comprar leite sem lactose")
    opinion = await lembra.say("matrix é bom?", llm=[{**RESPOND, "message": "É um clássico."}])
    opinion_why = await lembra.say("/why")
    # (a bare "leite?" names the note by its word: answered in code with it, issue 41)
    checked = await lembra.say(
        "leite faz bem?",
        llm=[{**RESPOND, "message": "Sua nota comprar leite sem lactose está salva."}],
    )
    checked_why = await lembra.say("/why")

    assert (opinion.meta.state, opinion.meta.score) == ("OK", 90)
    assert "model_text_unchecked" in opinion.meta.rules_applied
    assert "O que não conferi:" in opinion_why.text
    assert (checked.meta.state, checked.meta.score) == ("OK", 100)
    assert "O que conferi:" in checked_why.text
    assert "O que não conferi:" not in checked_why.text


async def test_stored_items_are_found_by_the_words_of_the_claim(lembra: Lembra) -> None:
    # The check reads the items the text can name through the word index (issue 35),
    # not every item: a true claim about a stored note passes, a false one is re-asked.
    await lembra.say("anota: comprar leite sem lactose")
    await lembra.say("anota: ligar pro banco amanhã")

    true = await lembra.say(
        "leite faz bem?",
        llm=[{**RESPOND, "message": "Faz sim. Sua nota comprar leite está salva."}],
    )
    false = await lembra.say(
        "matrix é bom?",
        llm=[
            {**RESPOND, "message": "Matrix está salvo na sua lista."},
            {**RESPOND, "message": "É um clássico da ficção científica."},
        ],
    )

    assert true.text == "Faz sim. Sua nota comprar leite está salva."
    assert false.text.startswith("É um clássico da ficção científica.")  # after one re-ask
    assert "Matrix" not in false.text
    assert sample(lembra, "false_claim") == 1


async def test_counts_in_model_text_are_checked_against_every_item(lembra: Lembra) -> None:
    # The check reads only the items the text can name (issue 35), so "você tem N itens"
    # is judged by the user's stored counts, not by how many items the words found.
    for note in ("comprar pão", "ligar pra tia", "pagar a conta de luz"):
        await lembra.say(f"anota: {note}")

    true = await lembra.say(
        "dá pra fazer tudo isso hoje?", llm=[{**RESPOND, "message": "Você tem 3 itens salvos."}]
    )
    false = await lembra.say(
        "e agora, quantas?",
        llm=[
            {**RESPOND, "message": "Sua lista está vazia."},
            {**RESPOND, "message": "Não sei dizer de cabeça."},
        ],
    )

    assert true.text == "Você tem 3 itens salvos."
    assert false.text.startswith("Não sei dizer de cabeça.")  # after one re-ask
    assert sample(lembra, "false_claim") == 1


# -- issue 42, second round: what is left, picks from the list, topics, titles as names ----------


@pytest.mark.parametrize(
    ("message", "language", "stored"),
    [
        # "only X left": X is every item still to see (of its type)
        ("Só sobrou Alien pra você ver.", "pt", ("movie:Alien", "movie:Duna")),
        ("The only thing left on your watchlist is Heat.", "en", ("movie:Heat", "movie:Ronin")),
        ("Restam apenas Dark e Lost.", "pt", ("tv:Dark", "tv:Lost", "tv:Fargo")),
        ("You've just got Severance remaining.", "en", ("tv:Severance", "tv:Andor")),
        ("Só falta Matrix.", "pt", ("movie:Matrix@seen", "movie:Duna")),
        # a pick "from your list" names the list's items
        ("Pela sua lista, eu começaria por Parasita.", "pt", ("movie:Duna",)),
        ("Among your saved films, Whiplash is the shortest.", "en", ("movie:Heat",)),
        ("Dos filmes que você salvou, o melhor é Coringa.", "pt", ("movie:Duna",)),
        ("Que tal Oppenheimer hoje? Está na sua lista.", "pt", ("movie:Heat",)),
        # absence and emptiness, by the words of the items
        ("Your list doesn't have any videos yet.", "en", ("video:How to bake bread",)),
        ("Nenhum link salvo ainda.", "pt", ("link:https://a.com",)),
        ("Nothing in your notes mentions the dentist.", "en", ("note:Dentist on Tuesday",)),
        ("Não há nada sobre receitas nas suas notas.", "pt", ("note:receita de bolo",)),
        ("I can't find anything about taxes in your list.", "en", ("note:Pay taxes by April",)),
        ("Não encontrei nada sobre cafe nas suas notas.", "pt", ("note:Comprar café",)),
        ("I don't see Heat on your list.", "en", ("movie:Heat",)),
        # titles that open with a possessive or a negation, or hold a comma
        ("Your list has Hello, My Name Is Doris.", "en", ("movie:Heat",)),
        ("Sua lista: Amor, Sublime Amor e Duna.", "pt", ("movie:Duna",)),
        ("Don't Look Up is on your list.", "en", ("movie:Heat",)),
    ],
)
def test_false_statements_of_what_is_left_picked_or_absent_are_refused(
    message: str, language: str, stored: tuple[str]
) -> None:
    assert refused(message, language, *stored)


@pytest.mark.parametrize(
    ("message", "language", "stored"),
    [
        ("Só sobrou Alien pra você ver.", "pt", ("movie:Alien", "movie:Duna@seen")),
        (
            "The only thing left on your watchlist is Heat.",
            "en",
            ("movie:Heat", "movie:Ronin@seen"),
        ),
        ("Pela sua lista, eu começaria por Parasita.", "pt", ("movie:Parasita", "movie:Duna")),
        (
            "Among your saved films, Whiplash is the shortest.",
            "en",
            ("movie:Whiplash", "movie:Heat"),
        ),
        ("Nothing in your notes mentions the dentist.", "en", ("note:buy milk",)),
        ("Não há nada sobre receitas nas suas notas.", "pt", ("note:comprar pão",)),
        ("Sua lista: Amor, Sublime Amor e Duna.", "pt", ("movie:Amor, Sublime Amor", "movie:Duna")),
        ("Don't Look Up is on your list.", "en", ("movie:Don't Look Up",)),
        # outside the list, said as such; who made it; the model's own knowledge; small talk
        ("Se quiser algo diferente, Amélie é uma boa — não está na sua lista.", "pt", ()),
        ("Fora da sua lista, Parasita é uma ótima pedida.", "pt", ("movie:Duna",)),
        ("Na sua lista tem Tubarão, do Spielberg.", "pt", ("movie:Tubarão",)),
        ("Your list has Dune, which Denis Villeneuve directed.", "en", ("movie:Dune",)),
        ("Não sei nada sobre Nolan além dos filmes dele.", "pt", ("note:Nolan",)),
        ("Você salvou Matrix em janeiro; depois apagou tudo.", "pt", ()),
        ("Hmm, difícil escolher entre Duna e Matrix, os dois são ótimos.", "pt", ("movie:Duna",)),
        ("Boa escolha! Parasita ganhou o Oscar de melhor filme.", "pt", ("movie:Parasita",)),
        ("Nothing beats a good thriller on a Friday night.", "en", ()),
        ("Eles removeram várias cenas na versão do cinema.", "pt", ("movie:Duna",)),
        ("Sua nota diz: comprar pão.", "pt", ("note:comprar pão",)),
        ("Of your movies, Matrix is the oldest (1999).", "en", ("movie:Matrix", "movie:Duna")),
    ],
)
def test_true_statements_of_what_is_left_picked_or_absent_pass(
    message: str, language: str, stored: tuple[str]
) -> None:
    assert not refused(message, language, *stored)


async def test_what_is_left_is_checked_against_every_item_still_to_see(lembra: Lembra) -> None:
    # The check reads the items the text can name, and, when it says what is left, every
    # item still to see: "só falta X" is false while another one waits.
    for note in ("comprar pão", "ligar pra tia"):
        await lembra.say(f"anota: {note}")

    false = await lembra.say(
        "qual é mais urgente?",
        llm=[
            {**RESPOND, "message": "Só falta uma nota: comprar pão."},
            {**RESPOND, "message": "Não sei dizer de cabeça."},
        ],
    )
    true = await lembra.say("e a outra?", llm=[{**RESPOND, "message": "Faltam 2 notas."}])

    assert false.text.startswith("Não sei dizer de cabeça.")  # after one re-ask
    assert true.text == "Faltam 2 notas."
    assert sample(lembra, "false_claim") == 1


@pytest.mark.parametrize(
    ("message", "language", "stored", "false"),
    [
        # a title found whole keeps its possessive ("Meu Pai") in a listing
        ("Na sua lista: Eu, Tonya e Meu Pai.", "pt", ("movie:Eu, Tonya", "movie:Meu Pai"), False),
        ("Na sua lista: Eu, Tonya e Meu Pai.", "pt", ("movie:Eu, Tonya",), True),
        # "only one X" is a count, not "every item is an X"
        ("You have only one series: Dark.", "en", ("tv:Dark", "movie:Heat"), False),
        ("You have only one series: Dark.", "en", ("tv:Dark", "tv:Lost"), True),
        ("Você tem só uma nota, comprar pão.", "pt", ("note:comprar pão", "movie:Duna"), False),
        # "not seen yet" said of what the sentence named
        ("Sim! Duna tá na sua lista, e você ainda não viu.", "pt", ("movie:Duna",), False),
        ("Sim! Duna tá na sua lista, e você ainda não viu.", "pt", ("movie:Duna@seen",), True),
        ("You still have Heat and Ronin to watch.", "en", ("movie:Heat", "movie:Ronin@seen"), True),
        # a listing after ":" goes on across ";"
        ("Your notes: call mom; buy milk.", "en", ("note:call mom", "note:buy milk"), False),
        (
            "Your notes: call mom; buy milk; pay rent.",
            "en",
            ("note:call mom", "note:buy milk"),
            True,
        ),
        # "Falta ver X e Y" lists what is left
        ("Falta ver Duna e Alien.", "pt", ("movie:Duna", "movie:Alien", "movie:Up@seen"), False),
        ("Falta ver Duna e Alien.", "pt", ("movie:Duna", "movie:Alien", "movie:Up"), True),
        # counts per type, "one" as a count ("um filme só", "your one unwatched movie")
        ("Você tem cinco filmes e duas séries.", "pt", ("movie:A", "movie:B", "tv:C"), True),
        ("Tem um filme só: Duna.", "pt", ("movie:Duna", "movie:Up"), True),
        ("Tem um filme só: Duna.", "pt", ("movie:Duna", "tv:Up"), False),
        ("Your one unwatched movie is Heat.", "en", ("movie:Heat", "movie:Up"), True),
        ("Your one unwatched movie is Heat.", "en", ("movie:Heat", "movie:Up@seen"), False),
        ("Ronin is all that's left.", "en", ("movie:Ronin", "movie:Heat"), True),
        ("O único filme que falta é Duna.", "pt", ("movie:Duna", "movie:Up@seen"), False),
        # words before ":" describe; the names after it are the items
        (
            "Sua lista tem ficção científica de sobra: Duna e Matrix.",
            "pt",
            ("movie:Duna", "movie:Matrix"),
            False,
        ),
        (
            "Sua lista tem ficção científica de sobra: Duna e Alien.",
            "pt",
            ("movie:Duna", "movie:Matrix"),
            True,
        ),
        # nothing on the list
        ("Nada na sua lista ainda.", "pt", (), False),
        ("Nada na sua lista ainda.", "pt", ("movie:Duna",), True),
        ("Não removi nada da sua lista.", "pt", ("movie:Duna",), False),
    ],
)
def test_listings_counts_and_states_are_read_as_said(
    message: str, language: str, stored: tuple[str], false: bool
) -> None:
    assert refused(message, language, *stored) == false


@pytest.mark.parametrize(
    ("message", "language", "stored", "false"),
    [
        # rules no bench set reaches (an ablation over sets a-g found them unused): kept by test
        ("Alien faz parte da sua lista.", "pt", ("movie:Duna",), True),
        ("Duna faz parte da sua lista.", "pt", ("movie:Duna",), False),
        ("Vou salvá-lo agora.", "pt", (), True),
        ("Ele será removido.", "pt", (), True),
        ("Duna is your only movie.", "en", ("movie:Duna", "note:buy milk"), False),
        ("Duna is your only movie.", "en", ("movie:Duna", "movie:Up"), True),
        ("Tudo o que você salvar fica guardado.", "pt", (), False),
    ],
)
def test_rules_the_bench_sets_do_not_reach_still_hold(
    message: str, language: str, stored: tuple[str], false: bool
) -> None:
    assert refused(message, language, *stored) == false


# -- an item's state said of it (DESIGN 11.5): checked against the item's state ---------------


@pytest.mark.parametrize(
    ("message", "language", "stored"),
    [
        # done said of an item still to see
        ("Sim, Tár aparece como assistido.", "pt", ("movie:Tár", "movie:Up@seen")),
        ("Yup — Tár shows up in your watched movies.", "en", ("movie:Tár", "movie:Up@seen")),
        ("Claro, Severance já tá entre as vistas.", "pt", ("tv:Severance",)),
        # still to see said of an item seen
        ("Nope, Tár is still unwatched.", "en", ("movie:Tár@seen",)),
        ("Não, Tár segue pendente na sua lista.", "pt", ("movie:Tár@seen",)),
        ("Your article Rust Tips is still unread.", "en", ("link:Rust Tips@read",)),
        # a listing headed by a state names items in another state
        ("Filmes que faltam assistir: Tár e Up.", "pt", ("movie:Tár", "movie:Up@seen")),
        (
            "Series you haven't finished watching yet: Severance, Dark.",
            "en",
            ("tv:Severance", "tv:Dark@seen"),
        ),
        ("Vistos até agora: Tár e Up.", "pt", ("movie:Tár", "movie:Up@seen")),
        # a pick said to be unseen
        ("Sugiro Tár: tá na sua lista e ainda não foi visto.", "pt", ("movie:Tár@seen",)),
        ("Tár? Ainda não foi visto.", "pt", ("movie:Tár@seen",)),
        ("What about Up? It's waiting on your list, unwatched.", "en", ("movie:Up@seen",)),
        ("Vai de Up — tá na lista e você ainda não viu.", "pt", ("movie:Up@seen",)),
    ],
)
def test_a_state_the_item_is_not_in_is_refused(
    message: str, language: str, stored: tuple[str, ...]
) -> None:
    assert refused(message, language, *stored)


@pytest.mark.parametrize(
    ("message", "language", "stored"),
    [
        ("Sim, Up aparece como assistido.", "pt", ("movie:Tár", "movie:Up@seen")),
        # a state statement answering a question is no effect, a ✅ beside it neither
        ("Yes, Up is marked as watched ✅", "en", ("movie:Up@seen",)),
        ("Nope, Tár is still unwatched.", "en", ("movie:Tár",)),
        ("Filmes que faltam assistir: Tár.", "pt", ("movie:Tár", "movie:Up@seen")),
        ("Vistos até agora: Up.", "pt", ("movie:Tár", "movie:Up@seen")),
        # a title that opens with an article, picked and said unseen
        (
            "Vai de O Iluminado — tá na lista e você ainda não viu.",
            "pt",
            ("movie:O Iluminado", "movie:Up@seen"),
        ),
        (
            "What about The Fly? It's on your list and you haven't watched it.",
            "en",
            ("movie:The Fly",),
        ),
        ("Sugiro Tár: tá na sua lista e ainda não foi visto.", "pt", ("movie:Tár",)),
        # each item with its own state in one sentence: not read as one state of both
        ("Tár (pendente) e Up (visto).", "pt", ("movie:Tár", "movie:Up@seen")),
        # a done word not said as the item's state: the model's own knowledge
        ("Tár is best watched on a big screen.", "en", ("movie:Tár",)),
        ("Tár é um dos filmes mais assistidos do ano.", "pt", ("movie:Tár",)),
        ("Severance deve ser vista em ordem.", "pt", ("tv:Severance",)),
        # a count after a header is a count, whatever the words after it
        (
            "Aqui vai a conta: 3 filmes, vistos e não vistos juntos.",
            "pt",
            ("movie:Tár", "movie:Up@seen", "movie:Alien"),
        ),
    ],
)
def test_a_state_the_item_is_in_passes(
    message: str, language: str, stored: tuple[str, ...]
) -> None:
    assert not refused(message, language, *stored)


def test_a_count_after_a_header_is_checked() -> None:
    assert refused(
        "Aqui vai a conta: 2 filmes, vistos e não vistos juntos.",
        "pt",
        "movie:Tár",
        "movie:Up@seen",
        "movie:Alien",
    )


# -- issue 42, third round: the state of the list as a whole ------------------------------------

WATCHING = ("movie:Heat@seen", "movie:Ronin", "movie:Alien", "tv:Dark@seen", "tv:Fargo")
ALL_SEEN = ("movie:Heat@seen", "movie:Ronin@seen", "tv:Dark@seen")


@pytest.mark.parametrize(
    ("message", "language", "stored", "false"),
    [
        # "that's all" after a listing: the listing names every item of it
        ("Seus filmes:\n- Heat\n- Ronin\n\nSó isso!", "pt", WATCHING, True),
        ("Seus filmes:\n- Heat\n- Ronin\n- Alien\n\nSó isso!", "pt", WATCHING, False),
        ("Your movies:\n1. Heat\n2. Alien\n\nThat's it.", "en", WATCHING, True),
        ("Your movies:\n1. Heat\n2. Alien\n3. Ronin\n\nThat's all!", "en", WATCHING, False),
        ("Pra ver: Ronin. É isso!", "pt", WATCHING, True),
        ("Still to watch: Ronin and Fargo. That's everything!", "en", WATCHING, True),
        ("Still to watch: Ronin, Alien and Fargo. That's everything!", "en", WATCHING, False),
        ("Pra ver: Ronin, Alien e Fargo. É isso!", "pt", WATCHING, False),
        # everything seen, nothing left, none seen
        ("You've watched all your movies!", "en", WATCHING, True),
        ("You've watched all your movies!", "en", ALL_SEEN, False),
        ("Você já assistiu tudo que salvou!", "pt", WATCHING, True),
        ("Você já assistiu tudo que salvou!", "pt", ALL_SEEN, False),
        ("Nothing left to watch, you're all caught up!", "en", WATCHING, True),
        ("Nothing left to watch, you're all caught up!", "en", ALL_SEEN, False),
        ("Não falta nada pra ver!", "pt", WATCHING, True),
        ("All your shows are unwatched.", "en", WATCHING, True),
        ("All your shows are unwatched.", "en", ("tv:Dark", "tv:Fargo", "movie:Heat@seen"), False),
        ("You haven't watched any of your movies yet.", "en", WATCHING, True),
        ("You haven't watched any of your shows yet.", "en", ("tv:Dark", "movie:Heat@seen"), False),
        ("Não marquei nada como visto por enquanto.", "pt", WATCHING, False),
        # how many are seen
        ("You've seen 2 of your movies.", "en", WATCHING, True),
        ("You've seen one of your movies.", "en", WATCHING, False),
        ("Você já viu 3 filmes.", "pt", WATCHING, True),
        ("Você já viu dois títulos: Heat e Dark.", "pt", WATCHING, False),
        # a pick said to be unseen
        ("Da sua lista, recomendo Heat, que você ainda não viu.", "pt", WATCHING, True),
        ("Da sua lista, recomendo Ronin, que você ainda não viu.", "pt", WATCHING, False),
        ("From your list, try Heat — you haven't watched it and it's great.", "en", WATCHING, True),
        (
            "From your list, try Alien — you haven't watched it and it's great.",
            "en",
            WATCHING,
            False,
        ),
        # named items, and what the speaker did, are no state of the whole list
        ("Ronin and Alien are both still unwatched.", "en", WATCHING, False),
        ("Se você já viu todos os seus filmes, posso sugerir outros.", "pt", WATCHING, False),
    ],
)
def test_the_state_of_the_whole_list_is_checked(
    message: str, language: str, stored: tuple[str, ...], false: bool
) -> None:
    assert refused(message, language, *stored) == false


async def test_a_seen_count_is_checked_against_every_item_still_to_see(lembra: Lembra) -> None:
    # Only the items a text names are read, so "you've seen all of them" is judged by the
    # items still to see, read when the text speaks of states.
    for title in ("Heat", "Ronin"):
        await lembra.say(f"anota: {title}")

    false = await lembra.say(
        "já li tudo?",
        llm=[
            {**RESPOND, "message": "Você já leu todas as suas notas!"},
            {**RESPOND, "message": "Não sei dizer de cabeça."},
        ],
    )

    assert false.text.startswith("Não sei dizer de cabeça.")  # after one re-ask
    assert sample(lembra, "false_claim") == 1


@pytest.mark.parametrize(
    ("message", "language", "stored", "user", "false"),
    [
        # a short answer before a title ends there: the title is no part of "ainda não"
        ("Ainda não! Ronin tá na sua lista pra ver.", "pt", WATCHING, "já vi ronin?", False),
        ("Not yet! Alien is still on your watchlist.", "en", WATCHING, "did i see alien", False),
        ("Nope! Fargo is still on your list to watch.", "en", WATCHING, "did i see fargo", False),
        # "marked as not watched": the negation after the verb
        ("It's still marked as not watched.", "en", WATCHING, "did i watch ronin", False),
        ("It's still marked as not watched.", "en", WATCHING, "did i watch heat", True),
        # "Já viu sim!", "Salvou sim!": yes, the user did; not an effect
        ("Já assistiu sim!", "pt", WATCHING, "já vi heat?", False),
        ("Já assistiu sim!", "pt", WATCHING, "já vi ronin?", True),
        ("Salvou sim! Está como Heat.", "pt", WATCHING, "salvei heat?", False),
        ("Tem sim, salvo como Fargo, e ainda não visto.", "pt", WATCHING, "tenho fargo?", False),
        ("Falta sim! Ronin ainda tá pra ver.", "pt", WATCHING, "falta ver ronin?", False),
        # the type the user asked about is no title
        ("Nenhuma nota salva! Só filmes por aqui.", "pt", ALL_SEEN, "tenho nota salva?", False),
        # a count said alone
        ("Dois filmes no total.", "pt", WATCHING, "quantos filmes?", True),
        ("Três filmes no total.", "pt", WATCHING, "quantos filmes?", False),
        ("Three shows in total, watched or not.", "en", WATCHING, "count my shows", True),
        ("Two shows in total, watched or not.", "en", WATCHING, "count my shows", False),
    ],
)
def test_short_answers_about_what_the_user_named(
    message: str, language: str, stored: tuple[str, ...], user: str, false: bool
) -> None:
    assert refused(message, language, *stored, user=user) == false


@pytest.mark.parametrize(
    ("message", "language", "stored", "false"),
    [
        # "nada de X", "no X saved": X is not on the list
        ("Nada de Ronin por aqui.", "pt", WATCHING, True),
        ("Nada de Duna por aqui.", "pt", WATCHING, False),
        ("Nope, no Fargo saved.", "en", WATCHING, True),
        ("Nope, no Lost saved.", "en", WATCHING, False),
        # nothing saved yet; not "nothing was saved" (this turn)
        ("Nothing saved yet!", "en", WATCHING, True),
        ("Nothing saved yet!", "en", (), False),
        ("Não achei Duna; nada foi salvo.", "pt", WATCHING, False),
        # a state said first, of the names after it
        ("Dos que você ainda não viu, sugiro Heat.", "pt", WATCHING, True),
        ("Dos que você ainda não viu, sugiro Alien.", "pt", WATCHING, False),
        ("Among the ones you haven't watched, try Dark.", "en", WATCHING, True),
        ("Among the ones you haven't watched, try Fargo.", "en", WATCHING, False),
        # an emoji between two sentences ends the first
        ("Segunda-feira é difícil 😩 Força aí!", "pt", WATCHING, False),
        ("Rainy days are the worst 🌧️ Stay dry out there!", "en", WATCHING, False),
    ],
)
def test_absence_by_nothing_and_states_said_first(
    message: str, language: str, stored: tuple[str, ...], false: bool
) -> None:
    assert refused(message, language, *stored) == false


@pytest.mark.parametrize(
    ("message", "language", "stored", "user", "false"),
    [
        # "(não) tem X na sua lista": the place after the object
        ("Não tem esse filme na sua lista.", "pt", WATCHING, "tenho ronin?", True),
        ("Não tem esse filme na sua lista.", "pt", WATCHING, "tenho duna?", False),
        ("Tem Ronin na sua lista, sim.", "pt", WATCHING, "", False),
        ("Tem Duna na sua lista, sim.", "pt", WATCHING, "", True),
        # a statement before a dash is no part of the question after it
        ("Alien isn't on your list — should I look it up?", "en", WATCHING, "", True),
        ("Dune isn't on your list — should I look it up?", "en", WATCHING, "", False),
        # "Your shows:" names every show, each one a show
        ("Suas séries:\n- Dark\n- Fargo", "pt", WATCHING, "", False),
        ("Suas séries:\n- Dark", "pt", WATCHING, "", True),
        ("Your shows: Dark, Fargo and Heat.", "en", WATCHING, "", True),
        ("Some of your movies: Heat and Alien.", "en", WATCHING, "", False),
    ],
)
def test_places_dashes_and_headers(
    message: str, language: str, stored: tuple[str, ...], user: str, false: bool
) -> None:
    assert refused(message, language, *stored, user=user) == false


# -- the blind wave-10 classes (issue 42), in phrasings of our own ------------------------------


@pytest.mark.parametrize(
    ("message", "language", "stored", "user", "true"),
    [
        # a list entry's state is that item's state, not a mark
        ("- Heat (still unwatched)\n- Ronin (watched)", "en", ("movie:Heat", "movie:Ronin@seen"), "", True),
        ("- Heat (still unwatched)\n- Ronin (watched)", "en", ("movie:Heat@seen", "movie:Ronin@seen"), "", False),
        ("Seus filmes:\n🍿 Coringa — já visto\n🍿 Her — pra ver", "pt", ("movie:Coringa@seen", "movie:Her"), "", True),
        ("Seus filmes:\n🍿 Coringa — já visto\n🍿 Her — pra ver", "pt", ("movie:Coringa", "movie:Her"), "", False),
        # a breakdown line is a count of its type
        ("Resumo:\n• Séries: 2\n• Notas: 1", "pt", ("tv:Dark", "tv:Lost", "note:pão"), "", True),
        ("Resumo:\n• Séries: 3\n• Notas: 1", "pt", ("tv:Dark", "tv:Lost", "note:pão"), "", False),
        ("Breakdown:\n- Links — 4", "en", ("link:a", "link:b"), "", False),
        # counts of seen items, a count after a copula
        ("Two shows marked as seen so far.", "en", ("tv:Dark@seen", "tv:Lost"), "", False),
        ("Two shows marked as seen so far.", "en", ("tv:Dark@seen", "tv:Lost@seen"), "", True),
        ("Até agora são quatro filmes.", "pt", ("movie:Heat", "movie:Ran"), "", False),
        # "you saved X", "you haven't saved X"
        ("Nope, you haven't saved Ronin.", "en", ("movie:Ronin",), "", False),
        ("Você salvou Ronin, sim.", "pt", ("movie:Heat",), "", False),
        # one of your shows, said of what was named before
        ("Vai de Dark! É uma das suas séries.", "pt", ("tv:Lost",), "", False),
        ("Vai de Dark! É uma das suas séries.", "pt", ("tv:Dark",), "", True),
        ("Try Dark. It's one of your shows you haven't seen yet.", "en", ("tv:Dark@seen",), "", False),
        # an item's state said after its name, "No results for X"
        ("Lost is still waiting on your list.", "en", ("tv:Lost@seen",), "", False),
        ("From your list: Lost! Still unwatched and pretty tense.", "en", ("tv:Lost@seen",), "", False),
        ('Sem resultados para "Ronin" na sua lista.', "pt", ("movie:Ronin",), "", False),
        # effects said without the usual verbs
        ("Every alarm is off now.", "en", (), "", False),
        ("You'll get a nudge on Friday.", "en", (), "", False),
        ("Ronin's rating changed to 9.", "en", ("movie:Ronin",), "", False),
        ("Hoje: 2 filmes salvos.", "pt", ("movie:Heat", "movie:Ran"), "", True),
        # listings said complete, emptiness, an item said unseen is said kept
        ("That's everything: just Heat 🎬", "en", ("movie:Heat", "movie:Ran"), "", False),
        ("That's everything: just Heat 🎬", "en", ("movie:Heat",), "", True),
        ("Your full list of shows: Dark and Lost — nothing else.", "en", ("tv:Dark", "tv:Lost"), "", True),
        ("Your full list of shows: Dark and Lost — nothing else.", "en", ("tv:Dark", "tv:Lost", "tv:Fargo"), "", False),
        ("Nada aqui ainda! Me manda um filme.", "pt", ("movie:Heat",), "", False),
        ("Encontrei: **Ronin** (1998) — filme, ainda não visto", "pt", ("movie:Heat",), "", False),
        ("Encontrei: **Ronin** (1998) — filme, ainda não visto", "pt", ("movie:Ronin",), "", True),
        # the number after the seeing is the count seen; what is left, of the type asked about
        ("Dos seus 3 filmes você viu 2: Heat e Ran.", "pt", ("movie:Heat@seen", "movie:Ran@seen", "movie:Up"), "", True),
        ("Dos seus 3 filmes você viu 1.", "pt", ("movie:Heat@seen", "movie:Ran@seen", "movie:Up"), "", False),
        ("Só falta Up.", "pt", ("movie:Heat@seen", "movie:Up", "tv:Dark"), "quais filmes faltam?", True),
        ("Só falta Up.", "pt", ("movie:Heat", "movie:Up", "tv:Dark"), "quais filmes faltam?", False),
    ],
)  # fmt: skip
def test_wave10_states_counts_and_effects(
    message: str, language: str, stored: tuple[str, ...], user: str, true: bool
) -> None:
    assert (judge(message, facts(*stored, user=user), language).problem is None) == true


@pytest.mark.parametrize(
    ("message", "language", "stored", "true"),
    [
        # a heading that names the kept items of a type heads a listing, checked against storage
        ("**Filmes salvos:**\n- Heat\n- Ronin", "pt", ("movie:Heat", "movie:Ronin", "note:pagar luz"), True),
        ("**Filmes salvos:**\n- Heat\n- Ronin", "pt", ("movie:Heat",), False),
        ("Tudo aqui 👇\n- Heat ✅\n- Ronin", "pt", ("movie:Heat@seen", "movie:Ronin"), True),
        # titles are read whole: "...", "é" inside them, "São Paulo" is no list
        ("Sim, Eu Nunca... está na sua lista.", "pt", ("tv:Eu Nunca...",), True),
        ("Sim, A Mãe é Boa está na sua lista.", "pt", ("movie:A Mãe é Boa",), True),
        ("Lisbon is an hour behind Rome, so it's 9 PM there.", "en", (), True),
        ("Nada de Ronin por aqui.", "pt", ("movie:Heat",), True),
        ("Nada de Ronin por aqui.", "pt", ("movie:Ronin",), False),
        # "já foi visto" is a state; "o que você tem salvo" says which, not that
        ("Sim, Ronin (1998) está na sua lista e já foi visto.", "pt", ("movie:Ronin@seen",), True),
        ("Olhando o que você tem salvo, eu começaria por Heat.", "pt", ("movie:Heat",), True),
        ("Just Heat, that's your only movie.", "en", ("movie:Heat", "note:buy milk"), True),
        ("Just Heat, that's your only movie.", "en", ("movie:Heat", "movie:Ran"), False),
        # counts and states said bare
        ("Zero links por aqui 🙂", "pt", ("link:Promo de fone",), False),
        ("There's one movie on your list.", "en", ("movie:Heat", "movie:Ronin"), False),
        ("There's one movie on your list.", "en", ("movie:Heat", "note:buy milk"), True),
        ("Todas as suas notas estão concluídas.", "pt", ("note:pagar luz", "note:pão@done"), False),
        ("Nenhum vídeo salvo, só filmes.", "pt", ("video:Aula 1", "movie:Heat"), False),
        # effects: a reminder moved or cancelled, a deletion said with a count
        ("Okay, I won't remind you about the dentist.", "en", (), False),
        ("Não vou mais te lembrar do boleto.", "pt", (), False),
        ("Lembrete movido pra sexta.", "pt", (), False),
        ("Passei o lembrete pra segunda às 8h.", "pt", (), False),
        ("Postponed to Monday at 10.", "en", (), False),
        ("Seus 2 vídeos foram apagados.", "pt", ("video:Aula 1", "video:Aula 2"), False),
        ("Rename undone.", "en", ("note:wifi",), False),
        ("I canceled your dentist reminder.", "en", (), False),  # US spelling
        ("I cancelled your dentist reminder.", "en", (), False),
    ],
)  # fmt: skip
def test_wave11_titles_headings_and_bare_counts(
    message: str, language: str, stored: tuple[str, ...], true: bool
) -> None:
    assert (judge(message, facts(*stored), language).problem is None) == true


@pytest.mark.parametrize(
    ("message", "language", "stored", "true"),
    [
        # a count said by who counts it, or before an offer in the same question
        ("I count three shows.", "en", ("tv:Dark", "tv:Lost"), False),
        ("I count two shows.", "en", ("tv:Dark", "tv:Lost"), True),
        ("Você tem 3 filmes guardados, quer ver quais?", "pt", ("movie:Heat",), False),
        ("Você tem 1 filme guardado, quer ver qual?", "pt", ("movie:Heat",), True),
        ("Faltam 2 pendentes (filmes e séries).", "pt", ("movie:Heat", "tv:Dark", "movie:Up"), False),
        ("Faltam 3 pendentes (filmes e séries).", "pt", ("movie:Heat", "tv:Dark", "movie:Up"), True),
        # absence said with "there"/"aqui", a name called
        ("Sorry, Ronin is not there.", "en", ("movie:Ronin",), False),
        ("Sorry, Ronin is not there.", "en", ("movie:Heat",), True),
        ("Não tem Ronin aqui.", "pt", ("movie:Ronin",), False),
        ("Nothing called Ronin on your list.", "en", ("movie:Ronin",), False),
        # a pick from what is still to see; the queue
        ("Dos seus pendentes, vai de Heat!", "pt", ("movie:Heat@seen", "movie:Up"), False),
        ("Dos seus pendentes, vai de Up!", "pt", ("movie:Heat@seen", "movie:Up"), True),
        ("Your queue:\n- Up", "en", ("movie:Heat@seen", "movie:Up"), True),
        # a heading without a colon over entries; seen entries must be stored
        ("Seus filmes 👇\n- Heat\n- Ronin", "pt", ("movie:Heat",), False),
        ("Seus filmes 👇\n- Heat", "pt", ("movie:Heat",), True),
        ("Watched ✅\n- Heat\n- Ronin", "en", ("movie:Heat@seen",), False),
        # effects said as a card or a farewell
        ("⏰ Reminder: dentist\n📅 Friday 9am", "en", (), False),
        ("Tchau Ronin 👋", "pt", ("movie:Ronin",), False),
        ("Seu lembrete de sexta tá ativo.", "pt", (), False),
    ],
)  # fmt: skip
def test_wave12_counts_absence_picks_and_cards(
    message: str, language: str, stored: tuple[str, ...], true: bool
) -> None:
    assert (judge(message, facts(*stored), language).problem is None) == true


@pytest.mark.parametrize(
    ("message", "language", "stored", "user", "true"),
    [
        # a year said of a stored title, its translated title too
        ("Ronin, o que você guardou, saiu em 2001.", "pt", ("movie:Ronin#1998",), "", False),
        ("Ronin, o que você guardou, saiu em 1998.", "pt", ("movie:Ronin#1998",), "", True),
        ("Your copy of The Host dates from 2013.", "en", ("movie:O Hospedeiro=The Host#2006",), "", False),
        ("Your copy of The Host dates from 2006.", "en", ("movie:O Hospedeiro=The Host#2006",), "", True),
        # a note said open or done, a link said still to read, named by one of the user's words
        ("Nope, that one is still open.", "en", ("note:renew the passport@done",), "passport note finished?", False),
        ("Ainda tá em aberto, sim.", "pt", ("note:trocar o pneu@done",), "a nota do pneu ta feita?", False),
        ("It's still marked to read.", "en", ("link:Zig allocators guide@read",), "did i read the zig guide", False),
        # every item of one type, said without a verb or with "only" after the type
        ("Só filmes mesmo, mais nada.", "pt", ("movie:Heat", "note:pão"), "só tenho filme?", False),
        ("Só filmes mesmo, mais nada.", "pt", ("movie:Heat", "movie:Up"), "só tenho filme?", True),
        ("Yep, your list is shows only.", "en", ("tv:Dark", "link:x.com"), "", False),
        ("Yep, your list is shows only.", "en", ("tv:Dark", "tv:Lost"), "", True),
        ("Só séries, notas e um link.", "pt", ("tv:Dark", "note:pão", "link:x.com"), "", True),
        # absence by a translated title, with no place named
        ("Não localizei Parasite, foi mal.", "pt", ("movie:Parasita=Parasite",), "tem parasite?", False),
        ("Couldn't find Coco in your saved movies.", "en", ("movie:Coco",), "", False),
        # counts in words, and a narrowed count no more than the items of its type
        ("Quatro séries e nenhum filme.", "pt", ("tv:Dark", "movie:Heat"), "", False),
        ("Uma série e nenhum filme.", "pt", ("tv:Dark",), "", True),
        ("You've got 2 videos from that channel.", "en", ("video:lofi mix",), "", False),
        ("Você tem uma nota salva.", "pt", (), "", False),
        # a reminder given its time is one set; a stored one stated is not
        ("Fechado: lembrete toda segunda às 8h pra academia.", "pt", (), "", False),
        ("Reminder's in for Monday at 7 pm, dentist.", "en", (), "", False),
        ("Você tem um lembrete amanhã às 10h.", "pt", (), "", True),
        # what the others are, an entry's done state, a film "ever made"
        ("Só resta Up! Os outros você já viu.", "pt", ("movie:Up", "movie:Heat@seen"), "o que falta ver", True),
        ("1. renew the passport (done)\n2. buy stamps", "en", ("note:renew the passport@done", "note:buy stamps"), "my notes", True),
        ("1. renew the passport (done)\n2. buy stamps", "en", ("note:renew the passport", "note:buy stamps"), "my notes", False),
        ("É uma das maiores séries já feitas.", "pt", ("tv:Dark",), "", True),
        # "tá como feita" states the note's state, checked against it; "já tá feito!" is an act
        ("Sim, a do pneu consta como concluída.", "pt", ("note:trocar o pneu@done",), "a do pneu ta feita?", True),
        ("Sim, a do pneu consta como concluída.", "pt", ("note:trocar o pneu",), "a do pneu ta feita?", False),
        ("Pedido anotado e já está feito! ✅", "pt", (), "anota o pneu", False),
    ],
)  # fmt: skip
def test_wave13_years_states_only_counts_and_reminders(
    message: str, language: str, stored: tuple[str, ...], user: str, true: bool
) -> None:
    assert (judge(message, facts(*stored, user=user), language).problem is None) == true


# -- a reply read with the user's question (issue 42) ------------------------------------------


@pytest.mark.parametrize(
    ("message", "language", "stored", "user"),
    [
        # a yes/no opening answers for the item the question named
        ("Não tem, não 😔", "pt", ("movie:Tropa de Elite", "tv:Dark"), "tenho tropa de elite?"),
        ("Nope, not there.", "en", ("movie:Arrival", "tv:Dark"), "do i have arrival"),
        ("Tem sim!", "pt", ("movie:Tropa de Elite",), "tenho bacurau?"),
        ("Yes, it is 😊", "en", ("movie:Arrival",), "is dune on my list?"),
        ("Ainda não 👀", "pt", ("movie:Arrival@seen",), "ja vi arrival?"),
        ("Yep, you have!", "en", ("movie:Arrival",), "have i watched arrival?"),
        ("Não, só o primeiro.", "pt", ("movie:Alien", "movie:Aliens"), "tenho aliens?"),
        # to "is my list empty?", a yes says it is
        ("Sim, tá tudo zerado por enquanto.", "pt", ("note:pagar luz",), "minha lista tá vazia?"),
        ("Yeah, nothing yet.", "en", ("movie:Heat",), "is my list empty?"),
        # names alone answer what was asked: still to see, seen, every one of a type
        ("Arrival and Heat.", "en", ("movie:Arrival", "movie:Heat@seen"), "what's left to watch?"),
        ("Só Heat 🙂", "pt", ("movie:Heat", "movie:Up"), "quantos filmes eu tenho?"),
        ("Heat e Up.", "pt", ("movie:Heat@seen", "movie:Up"), "quais filmes eu ja vi?"),
        ("Sobraram os três!", "pt", ("tv:Dark", "tv:Lost@seen", "tv:Fargo"), "falta ver quantas?"),
        # a state said before names is said of every one; an unknown word a clause is about
        (
            "Você já assistiu Heat, Up e Ronin.",
            "pt",
            ("movie:Heat@seen", "movie:Up@seen", "movie:Ronin"),
            "",
        ),
        (
            "You've watched Heat, Up and Ronin.",
            "en",
            ("movie:Heat@seen", "movie:Up@seen", "movie:Ronin"),
            "",
        ),
        ("Sure! Arrival is still waiting for you 🍿", "en", (), "anything to watch?"),
        # a title's head before its subtitle is not missing; "in total" names nothing
        (
            "Não achei Shogun na sua lista 🤔",
            "pt",
            ("tv:Shogun: A Gloriosa Saga",),
            "tenho shogun?",
        ),
        (
            "5 movies in total.",
            "en",
            ("movie:Heat", "movie:Up", "tv:Dark"),
            "how many do i have in total",
        ),
        # a film said to be a show, or a show a film
        (
            "Da sua lista, o filme Dark ainda não foi visto.",
            "pt",
            ("tv:Dark", "movie:Heat"),
            "algum filme?",
        ),
        ("Try your show Heat tonight!", "en", ("movie:Heat",), "anything to watch?"),
        # "sem ver", a slang negation
        ("Vai de Heat, vc n viu ainda", "pt", ("movie:Heat@seen",), "algo pra ver"),
        ("Tá lá na lista sem ver: Heat.", "pt", ("movie:Heat@seen",), "o que eu vejo"),
    ],
)
def test_a_reply_is_checked_against_the_question_it_answers(
    message: str, language: str, stored: tuple[str, ...], user: str
) -> None:
    assert refused(message, language, *stored, user=user)


@pytest.mark.parametrize(
    ("message", "language", "stored", "user"),
    [
        ("Não tem, não 😔", "pt", ("movie:Arrival",), "tenho tropa de elite?"),
        ("Tem sim!", "pt", ("movie:Bacurau",), "tenho bacurau?"),
        (
            "Nope — only Alien and Aliens.",
            "en",
            ("movie:Alien", "movie:Aliens"),
            "is alien 3 saved?",
        ),
        ("Ainda não 👀", "pt", ("movie:Arrival",), "ja vi arrival?"),
        ("Tem, e você já viu ✅", "pt", ("movie:Bacurau@seen",), "tenho bacurau?"),
        ("Sim — Dark, marcada como vista ✅", "pt", ("tv:Dark@seen",), "dark ta ai?"),
        ("Sim, tá tudo zerado por enquanto.", "pt", (), "minha lista tá vazia?"),
        ("Arrival and Heat.", "en", ("movie:Arrival", "movie:Heat"), "what's left to watch?"),
        ("Só Heat 🙂", "pt", ("movie:Heat",), "quantos filmes eu tenho?"),
        (
            "Heat, que você já viu, e Ronin, que ainda falta.",
            "pt",
            ("movie:Heat@seen", "movie:Ronin"),
            "",
        ),
        (
            "Você já assistiu Heat, Up e Ronin.",
            "pt",
            ("movie:Heat@seen", "movie:Up@seen", "movie:Ronin@seen"),
            "",
        ),
        (
            "A série Dark tá na sua lista, e o filme Heat também.",
            "pt",
            ("tv:Dark", "movie:Heat"),
            "",
        ),
        # a question about several items is not answered for one
        (
            "Sim: Heat e Ronin, os dois dele.",
            "pt",
            ("movie:Heat", "movie:Ronin"),
            "tenho filmes do michael mann?",
        ),
        # a recommendation named alone is no listing
        ("Arrival.", "en", ("movie:Heat",), "what should i watch tonight?"),
        # titles with commas, slashes and dots, entries opened by any emoji
        (
            "Two: Crazy, Stupid, Love / Tick, Tick... Boom!",
            "en",
            ("movie:Crazy, Stupid, Love", "movie:Tick, Tick... Boom!"),
            "which are unwatched?",
        ),
        (
            "Everything:\n▶️ Lofi beats\n⏰ Call mom",
            "en",
            ("video:Lofi beats", "note:Call mom"),
            "what do i have",
        ),
        (
            "Falta Heat (filme) e Dark (série).",
            "pt",
            ("movie:Heat", "tv:Dark", "tv:Lost@seen"),
            "o que falta ver",
        ),
        (
            "Do, Ré, Mi, Fá, Sol, Lá, Si.",
            "pt",
            ("video:Aula de violão",),
            "quais as notas musicais",
        ),
        ("Também nenhum link. Sua lista tá vaziinha.", "pt", (), "e links?"),
    ],
)
def test_a_true_answer_to_the_question_passes(
    message: str, language: str, stored: tuple[str, ...], user: str
) -> None:
    assert not refused(message, language, *stored, user=user)


@pytest.mark.parametrize(
    ("message", "language"),
    [
        ("Heat sorted 📌", "en"),
        ("Arrival na lista ✓", "pt"),
        ("The dentist note deleted 🗑️", "en"),
        ("Finalizei a nota do dentista ✅", "pt"),
        ("Dark's off your watchlist now", "en"),
        ("Ok — pinging you at 18:30 about the gym.", "en"),
    ],
)
def test_terse_effect_claims_are_refused(message: str, language: str) -> None:
    assert refused(message, language, "movie:Heat", "note:dentista")


@given(st.text(max_size=200), st.text(max_size=80), st.sampled_from(["pt", "en"]))
def test_reading_a_reply_with_its_question_never_raises(
    message: str, user: str, language: str
) -> None:
    stored = (Stored("movie", user[:20]), Stored("note", message[:20], state="done"))
    for question in (user, f"{user}?", f"tenho {user}?", f"ja vi {user}?", f"what's left {user}"):
        judge(message, ClaimFacts(items=stored, user_text=question), language)
