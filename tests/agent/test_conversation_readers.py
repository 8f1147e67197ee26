"""Reading conversations in code (issue 26): shelf references, questions about saved things,
several items in one message. Each reader is pure; these tests pin what it reads and what it
leaves to the planner, and that no input makes it raise."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.batches import read_batch
from agent.understanding.questions import SavedQuestion, read_question
from agent.understanding.references import read_reference

# -- shelf references ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "action", "kind", "value"),
    [
        ("apaga o 2", "delete", "number", 2),
        ("apaga a segunda", "delete", "ordinal", 2),
        ("remove o último", "delete", "ordinal", -1),
        ("tira o penúltimo", "delete", "ordinal", -2),
        ("apaga o número dois", "delete", "number", 2),
        ("exclui o #3 da lista", "delete", "number", 3),
        ("delete number 3", "delete", "number", 3),
        ("remove the 3rd from the list", "delete", "number", 3),
        ("delete the last one", "delete", "ordinal", -1),
        ("apaga esse", "delete", "pronoun", 0),
        ("apaga isso por favor", "delete", "pronoun", 0),
        ("delete it", "delete", "pronoun", 0),
        ("delete that one", "delete", "pronoun", 0),
        ("mostra o 3", "show", "number", 3),
        ("o que é o 2?", "show", "number", 2),
        ("what's number 2?", "show", "number", 2),
        ("show me the last one", "show", "ordinal", -1),
        ("abre o link 2", "show", "number", 2),
        ("o 2", "show", "number", 2),
        ("the second one", "show", "ordinal", 2),
        ("marca o 2", "bookmark", "number", 2),
        ("bookmark the first one", "bookmark", "ordinal", 1),
        ("muda o 2 para comprar leite sem lactose", "edit", "number", 2),
        ("change it to The Matrix", "edit", "pronoun", 0),
        ("renomeia o último: Matrix Reloaded", "edit", "ordinal", -1),
        ("na verdade é o de 2021", "edit", "pronoun", 0),
        ("actually it's the 2021 one", "edit", "pronoun", 0),
        ("pera, é o de 1972 na verdade", "edit", "pronoun", 0),  # the aside said after it too
        ("errei, it's the 1995 one then", "edit", "pronoun", 0),
        ("exclui a 3ª", "delete", "number", 3),
        ("detalhes do 2", "show", "number", 2),
    ],
)
def test_references_are_read(message: str, action: str, kind: str, value: int) -> None:
    ref = read_reference(message)
    assert ref is not None, message
    assert (ref.action, ref.target.kind, ref.target.value) == (action, kind, value)


@pytest.mark.parametrize(
    "message",
    [
        "apaga o 2 e o 3",  # two at once: the planner's
        "apaga a nota do dentista",  # a name: a search, not a position
        "apaga o filme 1917",  # a year-like title
        "salva o 2",
        "mostra meus filmes",
        "isso",
        "corrige a nota: reunião na sexta",  # "a nota" is no pronoun
        "muda o 2 para isso",  # the new value must be written out
        "",
        "   ",
    ],
)
def test_what_is_not_a_reference_is_left_alone(message: str) -> None:
    assert read_reference(message) is None


def test_an_edit_keeps_the_new_value_as_written_and_names_the_field() -> None:
    ref = read_reference("muda o ano do 2 para 2021")
    assert ref is not None
    assert (ref.field, ref.value) == ("year", "2021")
    ref = read_reference("Muda o 1 para Comprar Pão Francês")
    assert ref is not None
    assert (ref.field, ref.value) == (None, "Comprar Pão Francês")
    ref = read_reference("change the year of the first one to 1999")
    assert ref is not None
    assert (ref.field, ref.value, ref.target.value) == ("year", "1999", 1)


def test_a_type_noun_is_kept_with_the_position() -> None:
    ref = read_reference("apaga a segunda nota")
    assert ref is not None
    assert (ref.target.value, ref.target.type) == (2, "note")
    ref = read_reference("marca o 2 pra ver com a Ana")
    assert ref is not None
    assert ref.note == "ver com a Ana"


# -- questions about saved things ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("qual era aquele link da bbc?", SavedQuestion("find", "bbc", "link")),
        ("which link did I save about python?", SavedQuestion("find", "python", "link")),
        ("o que eu salvei sobre viagem?", SavedQuestion("find", "viagem")),
        (
            "I saved something about technology, what was it?",
            SavedQuestion("find", "technology"),
        ),
        ("qual filme do Nolan eu salvei?", SavedQuestion("find", "Nolan", "movie")),
        ("cadê o vídeo do gato?", SavedQuestion("find", "gato", "video")),
        ("eu salvei inception?", SavedQuestion("exists", "inception")),
        ("já salvei o filme Duna?", SavedQuestion("exists", "Duna", "movie")),
        ("did I save Dune?", SavedQuestion("exists", "Dune")),
        ("quantos vídeos eu tenho?", SavedQuestion("count", "", "video")),
        ("how many movies did I save?", SavedQuestion("count", "", "movie")),
        ("quantos itens eu tenho?", SavedQuestion("count")),
        ("quantas notas sobre trabalho eu tenho?", SavedQuestion("count", "trabalho", "note")),
        ("o que eu salvei hoje?", SavedQuestion("when", window="today")),
        ("quais links eu salvei ontem?", SavedQuestion("when", "", "link", "yesterday")),
        ("what did I save this week?", SavedQuestion("when", window="this_week")),
        ("what was it?", SavedQuestion("recall")),
        ("qual era mesmo?", SavedQuestion("recall")),
        ("procura dentista", SavedQuestion("find", "dentista")),
        ("tem alguma coisa sobre viagem?", SavedQuestion("find", "viagem")),
        ("onde está o link do python?", SavedQuestion("find", "python", "link")),
        ("me mostra o link da bbc", SavedQuestion("find", "bbc", "link")),
        ("is there a note about the gym?", SavedQuestion("find", "gym", "note")),
        ("lista os links de ontem", SavedQuestion("when", "", "link", "yesterday")),
        ("o que eu salvei semana passada?", SavedQuestion("when", window="last_week")),
        ("quais filmes eu salvei esse mês?", SavedQuestion("when", "", "movie", "this_month")),
        # chat shorthand, a question word in front, a subject stripped of "coisa do" (issue 41)
        ("oq eu salvei hj?", SavedQuestion("when", window="today")),
        ("vc sabe oq eu salvei essa semana?", SavedQuestion("when", window="this_week")),
        ("o que eu guardei nos últimos 7 dias?", SavedQuestion("when", window="last_7_days")),
        ("qtas series eu tenho?", SavedQuestion("count", "", "tv_show")),
        ("tenho alguma coisa do Nolan salva aí?", SavedQuestion("exists", "Nolan")),
        ("tenho algum filme do Nolan salvo aí?", SavedQuestion("exists", "Nolan", "movie")),
        ("vc lembra se eu salvei o filme Duna?", SavedQuestion("exists", "Duna", "movie")),
        ("qual o link do python que eu salvei?", SavedQuestion("find", "python", "link")),
        ("tem algum filme do nolan?", SavedQuestion("find", "nolan", "movie")),
        ("quantos filmes do Nolan eu tenho?", SavedQuestion("count", "Nolan", "movie")),
        ("which movies do I have about space?", SavedQuestion("find", "space", "movie")),
    ],
)
def test_questions_are_read(message: str, expected: SavedQuestion) -> None:
    assert read_question(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "quantos anos você tem?",  # nothing about the items
        "o que é https://x.com?",  # a link: the page is the question
        "qual filme eu salvei?",  # a list by type (the classifier's list_all)
        "what movies do I have?",
        "do I have any TV show saved?",
        "inception vale a pena?",
        "eu salvei?",
    ],
)
def test_what_is_not_a_question_about_saved_things_is_left_alone(message: str) -> None:
    assert read_question(message) is None


# -- several items in one message ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "kind", "pieces"),
    [
        ("salva os filmes matrix e interestelar", "titles", ("matrix", "interestelar")),
        (
            "bota aí as séries Dark, Severance e The Office",
            "titles",
            ("Dark", "Severance", "The Office"),
        ),
        (
            "add the movies Pride and Prejudice and Inception to my list",
            "titles",
            ("Pride and Prejudice", "Inception"),
        ),
        (
            "salva os filmes velozes e furiosos e matrix",
            "titles",
            ("velozes e furiosos", "matrix"),
        ),
        (
            "guarda pra mim os filmes Duna e Tenet pra ver depois",
            "titles",
            ("Duna", "Tenet"),
        ),
        ("anota: comprar leite; ligar pro João", "notes", ("comprar leite", "ligar pro João")),
        ("anota:\n- leite\n- pão\n- ovos", "notes", ("leite", "pão", "ovos")),
        ("salva https://a.com e https://b.com", "links", ("https://a.com", "https://b.com")),
    ],
)
def test_several_items_are_read(message: str, kind: str, pieces: tuple[str, ...]) -> None:
    batch = read_batch(message)
    assert batch is not None
    assert (batch.kind, batch.pieces) == (kind, pieces)


@pytest.mark.parametrize(
    "message",
    [
        "salva o filme velozes e furiosos",  # singular: one title
        "salva os filmes velozes e furiosos",  # plural, but a known title
        "anota: comprar leite, pão e ovos",  # a note keeps its commas and "e"
        "o que é https://a.com e https://b.com?",  # a question about links saves nothing
        "salva os filmes matrix",
    ],
)
def test_one_item_or_none_is_not_a_batch(message: str) -> None:
    assert read_batch(message) is None


def test_titles_split_only_on_e_wait_for_a_source_to_confirm_them() -> None:
    """ "salva matrix e interestelar": with TMDB at hand, several titles only when TMDB knows
    each part (agent/conversation/batching.py), else the planner's; without it, several."""
    sourced = read_batch("salva matrix e interestelar")
    assert sourced is not None
    assert sourced.confirm
    unsourced = read_batch("salva matrix e interestelar", split_and=True)
    assert unsourced is not None
    assert not unsourced.confirm
    assert unsourced.pieces == ("matrix", "interestelar")


def test_a_long_list_is_read_whole_and_cut_later() -> None:
    batch = read_batch("salva os filmes " + ", ".join(f"filme {n}" for n in range(1, 15)))
    assert batch is not None
    assert len(batch.pieces) == 14


# -- never raises -----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_the_readers_never_raise(text: str) -> None:
    read_reference(text)
    read_question(text)
    read_batch(text)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(
        [
            "apaga",
            "mostra",
            "muda",
            "marca",
            "quantos",
            "salva os filmes",
            "anota:",
            "salva",  # explicit lists and typed parts (issue 41)
            "guarda a série",
            "corrige:",
            "e",
        ]
    ),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=80),
)
def test_the_readers_never_raise_after_a_known_start(start: str, rest: str) -> None:
    for text in (
        f"{start} {rest}",
        f"{start} o {rest} para {rest}",
        f"{start} {rest}, {rest} e o filme {rest} e guarda https://example.com/{rest}",
    ):
        read_reference(text)
        read_question(text)
        read_batch(text)


def test_chat_shorthand_reaches_the_deterministic_labels() -> None:
    """ "lista td", "qts filmes tenho": read as the words they stand for (issue 41)."""
    from agent.understanding.intent import IntentClassifier

    classify = IntentClassifier().classify
    assert classify("lista td").action == "list_all"
    assert dict(classify("qts filmes tenho").entities) == {"type": "movie"}
    assert dict(classify("o q eu salvei hj").entities) == {"period": "today"}
    assert classify("td bem?").action == "smalltalk"
    assert dict(classify("how many vids do i have").entities) == {"type": "video"}
    assert dict(classify("show me my note list").entities) == {"type": "note"}  # "X list"
    assert dict(classify("mostra minha lista de séries").entities) == {"type": "tv_show"}


@pytest.mark.parametrize(
    ("message", "field", "value"),
    [
        ("corrige: a senha é 1234", None, "a senha é 1234"),
        ("muda o título pra Interstellar", "title", "Interstellar"),
        ("fix the title, it's Interstellar", "title", "Interstellar"),
        ("change the year to 1999", "year", "1999"),
    ],
)
def test_an_edit_of_the_item_just_saved_names_no_line(
    message: str, field: str | None, value: str
) -> None:
    """Issue 41: the item the user's last effect saved is meant (checked against the ledger)."""
    ref = read_reference(message)
    assert ref is not None
    assert (ref.action, ref.target.kind, ref.field, ref.value, ref.fix) == (
        "edit",
        "pronoun",
        field,
        value,
        True,
    )


def test_a_continuation_is_a_continuation_only_with_its_own_markers() -> None:
    from agent.understanding.continuations import read_continuation

    assert read_continuation("tenho algum filme do Nolan salvo aí?") is None
    assert read_continuation("e o segundo também") is not None
