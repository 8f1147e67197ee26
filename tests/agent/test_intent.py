"""The intent classifier (DESIGN 3.3): the labelled corpus, the hard rules, entities, bad input."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.understanding.intent import Intent, IntentClassifier, refine
from agent.understanding.smalltalk import SmallTalkKind
from agent.understanding.vocabulary import (
    DELETE_ALL_OBJECTS_EN,
    DELETE_ALL_OBJECTS_PT,
    DELETE_ALL_VERBS_EN,
    DELETE_ALL_VERBS_PT,
    FUZZY_CUTOFF,
    Label,
    normalize,
)

CORPUS = Path(__file__).with_name("intent_corpus.tsv")
LABELS: tuple[str, ...] = get_args(Label)
# Measured on the corpus: every label is at 1.00 except cancel precision (one known miss,
# "canela"). The floor leaves room to add hard cases without hiding a regression.
MIN_PRECISION = 0.95
MIN_RECALL = 0.95


@dataclass(frozen=True)
class Example:
    line: int
    text: str
    action: str
    entities: dict[str, Any]


def load_corpus(path: Path = CORPUS) -> list[Example]:
    """Read the TSV corpus; a line without a tab is a comment. Malformed rows fail loudly."""
    examples: list[Example] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "text\taction\tentities", "the corpus header changed"
    for number, line in enumerate(lines[1:], start=2):
        if "\t" not in line:
            continue
        fields = line.split("\t")
        assert len(fields) == 3, f"{path.name}:{number}: expected 3 tab-separated fields"
        text, action, raw_entities = fields
        assert action in LABELS, f"{path.name}:{number}: unknown label {action!r}"
        entities = json.loads(raw_entities)
        assert isinstance(entities, dict), f"{path.name}:{number}: entities must be an object"
        examples.append(Example(number, text, action, entities))
    return examples


@pytest.fixture(scope="module")
def classifier() -> IntentClassifier:
    return IntentClassifier()


@pytest.fixture(scope="module")
def corpus() -> list[Example]:
    return load_corpus()


def classify(classifier: IntentClassifier, text: str) -> tuple[str, dict[str, Any]]:
    intent = classifier.classify(text)
    return intent.action, dict(intent.entities)


# --- the corpus ---


def test_the_corpus_is_large_and_covers_every_label(corpus: list[Example]) -> None:
    assert len(corpus) >= 300
    counts = Counter(e.action for e in corpus)
    assert set(counts) == set(LABELS)
    assert len({e.text for e in corpus}) == len(corpus), "duplicate texts in the corpus"


def per_label_scores(
    pairs: list[tuple[str, str]],
) -> dict[str, tuple[float, float, int]]:
    """(precision, recall, support) per label from (expected, predicted) pairs."""
    scores: dict[str, tuple[float, float, int]] = {}
    for label in LABELS:
        tp = sum(1 for e, p in pairs if e == label and p == label)
        predicted = sum(1 for _, p in pairs if p == label)
        support = sum(1 for e, _ in pairs if e == label)
        precision = tp / predicted if predicted else 1.0
        recall = tp / support if support else 1.0
        scores[label] = (precision, recall, support)
    return scores


def confusion_table(pairs: list[tuple[str, str]]) -> str:
    width = max(map(len, LABELS)) + 1
    header = "expected \\ got".ljust(width) + "".join(label[:8].rjust(9) for label in LABELS)
    rows = [header]
    for expected in LABELS:
        counts = Counter(p for e, p in pairs if e == expected)
        rows.append(expected.ljust(width) + "".join(str(counts[p]).rjust(9) for p in LABELS))
    return "\n".join(rows)


def test_precision_and_recall_per_label_on_the_corpus(
    classifier: IntentClassifier, corpus: list[Example]
) -> None:
    pairs = [(e.action, classifier.classify(e.text).action) for e in corpus]
    scores = per_label_scores(pairs)
    misses = [
        f"  line {e.line}: {e.text!r} expected {e.action}, got {p}"
        for e, (_, p) in zip(corpus, pairs, strict=True)
        if e.action != p
    ]
    report = "\n".join(
        [
            confusion_table(pairs),
            "",
            *(
                f"{label:<11} precision {p:.3f} recall {r:.3f} (n={n})"
                for label, (p, r, n) in scores.items()
            ),
            "misclassified:",
            *misses,
        ]
    )
    assert scores["delete_all"][0] == 1.0, report
    for label, (precision, recall, _) in scores.items():
        assert precision >= MIN_PRECISION, f"{label} precision\n{report}"
        assert recall >= MIN_RECALL, f"{label} recall\n{report}"


def test_entities_match_the_corpus_whenever_the_action_does(
    classifier: IntentClassifier, corpus: list[Example]
) -> None:
    wrong = [
        f"line {e.line}: {e.text!r} expected {e.entities}, got {got}"
        for e in corpus
        for action, got in [classify(classifier, e.text)]
        if action == e.action and got != e.entities
    ]
    assert not wrong, "\n".join(wrong)


# --- delete_all: only "everything", never a target, a negation or a question ---


def delete_all_phrases() -> Iterator[str]:
    for verbs, objects in (
        (DELETE_ALL_VERBS_PT, DELETE_ALL_OBJECTS_PT),
        (DELETE_ALL_VERBS_EN, DELETE_ALL_OBJECTS_EN),
    ):
        for verb in verbs:
            for obj in objects:
                yield f"{verb} {obj}"


@pytest.mark.parametrize(
    "text",
    [
        "apaga tudo", "apagar tudo", "deleta tudo", "limpa tudo",
        "apague todas as minhas memórias", "apaga todos os meus itens", "delete everything",
        "delete all", "erase everything", "wipe all my data", "/delete_all",
        "/delete_all@LembraBot", "Apaga tudo!", "por favor, apaga tudo", "apga tudo",
        "apaga tudo da minha lista", "limpa minha lista inteira", "wipe my whole list",
        "clear my list",
    ],
)  # fmt: skip
def test_delete_all_examples(classifier: IntentClassifier, text: str) -> None:
    assert classify(classifier, text) == ("delete_all", {})


@pytest.mark.parametrize(
    "text",
    [
        "apaga o inception", "apaga todos os filmes", "delete all my movies",
        "apaga tudo sobre inception", "apaga tudo isso do inception", "apaga todas as notas",
        "delete all my notes", "apaga tudo de 2010", "apaga tudo menos os filmes",
        "apaga todas as minhas séries", "wipe all my links", "esquece o inception",
        "apaga minha lista de filmes", "delete the list of groceries",
    ],
)  # fmt: skip
def test_a_delete_naming_a_target_goes_to_the_planner_as_delete(
    classifier: IntentClassifier, text: str
) -> None:
    assert classify(classifier, text) == ("llm", {"intent": "delete"})


def test_no_delete_all_phrase_with_a_target_added_is_delete_all(
    classifier: IntentClassifier,
) -> None:
    targets = ["inception", "filmes", "das notas", "de 2010", "do nolan", "movies", "notes"]
    leaked = [
        f"{phrase} {target}"
        for phrase in delete_all_phrases()
        for target in targets
        if classifier.classify(f"{phrase} {target}").action == "delete_all"
    ]
    assert not leaked, leaked[:20]


def test_no_delete_all_phrase_is_delete_all_when_negated_or_asked(
    classifier: IntentClassifier,
) -> None:
    variants = [
        "não {}", "nao {}", "não, não {}", "nunca {}", "dont {}", "don't {}", "do not {}",
        "{}?", "como {}?", "posso {}?", "dá pra {}?", "how do i {}?", "can i {}?", "{} é possível?",
    ]  # fmt: skip
    leaked = [
        variant.format(phrase)
        for phrase in delete_all_phrases()
        for variant in variants
        if classifier.classify(variant.format(phrase)).action == "delete_all"
    ]
    assert not leaked, leaked[:20]


@pytest.mark.parametrize(
    "text",
    [
        "não apaga nada", "não apague tudo", "don't delete everything", "dont delete anything",
        "nao apaga", "não quero apagar tudo",
    ],
)  # fmt: skip
def test_a_negated_delete_without_a_target_is_a_refusal(
    classifier: IntentClassifier, text: str
) -> None:
    assert classify(classifier, text) == ("deny", {})


@pytest.mark.parametrize(
    "text", ["não apaga o inception", "não deleta meus filmes", "don't delete my notes"]
)
def test_a_negated_delete_with_a_target_goes_to_the_planner(
    classifier: IntentClassifier, text: str
) -> None:
    assert classify(classifier, text) == ("llm", {"intent": "other"})


@pytest.mark.parametrize(
    "text",
    [
        "como eu apago tudo?", "posso apagar tudo?", "how do I delete everything?",
        "apagar tudo é possível?", "apaga tudo?", "como faço pra deletar tudo",
    ],
)  # fmt: skip
def test_a_question_about_deleting_everything_gets_help(
    classifier: IntentClassifier, text: str
) -> None:
    assert classify(classifier, text) == ("help", {})


# --- fuzzy matching ---


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("apga tudo", "delete_all"),
        ("apagatudo", "delete_all"),
        ("lsita tudo", "list_all"),
        ("cancelaa", "cancel"),
        ("cancla", "cancel"),
        ("ajdua", "help"),
        ("socoro", "help"),
        ("siiim", "confirm"),
        ("simm", "confirm"),
        ("nãao", "deny"),
        ("helo", "greeting"),
    ],
)
def test_common_typos_are_understood(classifier: IntentClassifier, text: str, action: str) -> None:
    assert classifier.classify(text).action == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("show, vlw", "smalltalk"),  # Brazilian praise, not a typo of "shows"
        ("show de bola, obrigado", "smalltalk"),
        ("show!", "smalltalk"),
        ("massa", "smalltalk"),
        ("shows", "list_all"),
        ("show me my list", "list_all"),
        ("filmse", "list_all"),
    ],
)
def test_a_word_of_small_talk_is_never_read_as_a_typo_of_a_command(
    classifier: IntentClassifier, text: str, action: str
) -> None:
    assert refine(classifier.classify(text)).action == action


@pytest.mark.parametrize(
    ("text", "item_type"),
    [
        ("me mostra só as séries", "tv_show"),
        ("lista apenas os vídeos", "video"),
        ("show me just my movies", "movie"),
        ("list only the notes", "note"),
    ],
)
def test_only_a_type_is_still_a_list_of_that_type(
    classifier: IntentClassifier, text: str, item_type: str
) -> None:
    assert classify(classifier, text) == ("list_all", {"type": item_type})


def test_only_before_a_delete_is_no_list(classifier: IntentClassifier) -> None:
    assert classifier.classify("apaga só as notas").action != "list_all"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("actually wipe everything, i wanna start fresh", "delete_all"),  # asks before it runs
        ("apaga tudo, cansei dessa bagunça", "delete_all"),
        ("apaga tudo, menos os filmes", "llm"),  # narrowed: never everything
        ("wipe everything, except the notes", "llm"),
        ("delete everything, then save dune", "llm"),  # another request
        ("não, apaga tudo não, quero ver antes", "llm"),  # negated: never a delete-all
    ],
)
def test_a_delete_all_with_only_why_after_it_is_that_delete_all(
    classifier: IntentClassifier, text: str, action: str
) -> None:
    assert refine(classifier.classify(text)).action == action


def test_a_fuzzy_hit_scores_its_similarity(classifier: IntentClassifier) -> None:
    typo = classifier.classify("lsita tudo")
    exact = classifier.classify("lista tudo")
    assert exact.score == 100
    assert FUZZY_CUTOFF <= typo.score < 100


def test_a_typo_between_two_labels_is_left_to_the_planner(classifier: IntentClassifier) -> None:
    # "limta" is one letter from "limpa" (delete_all) and from "lista" (list_all): no margin
    intent = classifier.classify("limta tudo")
    assert intent.action == "llm"
    assert intent.score < 50  # a near miss: not a confident llm either


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("cancel", "cancel"),
        ("cancel all subscriptions note", "llm"),
        ("lista de compras: leite", "llm"),
        ("lista de comandos", "help"),
        ("obrigado", "smalltalk"),
        ("kkkkk", "smalltalk"),
    ],
)
def test_short_near_misses_are_not_forced_into_a_label(
    classifier: IntentClassifier, text: str, action: str
) -> None:
    assert classifier.classify(text).action == action


@pytest.mark.parametrize(
    "text",
    ["tab", "tap", "tal", "tag", "yet", "pod", "poder", "clara", "certa", "certinho", "simples"],
)
def test_a_word_one_typo_from_a_confirmation_never_confirms(
    classifier: IntentClassifier, text: str
) -> None:
    # a confirmation executes a deletion (DESIGN 3.2: explicit confirmation): only the words
    # themselves, with at most doubled letters, count; "tal" is not "ta", "poder" not "pode"
    assert classifier.classify(text).action != "confirm"


@pytest.mark.parametrize("text", ["sei", "boi", "nai", "sin"])
def test_a_three_letter_word_is_not_read_as_a_typo(classifier: IntentClassifier, text: str) -> None:
    # one edit is a third of the word: "sei" is a word of its own, not "ei"
    assert classifier.classify(text).action in ("llm", "smalltalk")


@pytest.mark.parametrize(
    ("text", "action"),
    [("simm", "confirm"), ("yess", "confirm"), ("okk", "confirm"), ("naoo", "deny"),
     ("oii", "greeting"), ("cancelaa", "cancel")],
)  # fmt: skip
def test_doubled_letters_still_count_with_a_lower_score(
    classifier: IntentClassifier, text: str, action: str
) -> None:
    intent = classifier.classify(text)
    assert (intent.action, intent.score) == (action, 95)


# --- entities ---


@pytest.mark.parametrize(
    ("text", "item_type"),
    [
        ("lista meus filmes", "movie"), ("quais séries eu salvei", "tv_show"),
        ("mostra os shows", "tv_show"), ("minhas anotações", "note"), ("lista as notas", "note"),
        ("meus vídeos", "video"), ("lista meus links", "link"), ("show my notes", "note"),
        ("list my movies", "movie"), ("/list series", "tv_show"), ("/list@LembraBot links", "link"),
    ],
)  # fmt: skip
def test_list_all_carries_the_item_type(
    classifier: IntentClassifier, text: str, item_type: str
) -> None:
    assert classify(classifier, text) == ("list_all", {"type": item_type})


@pytest.mark.parametrize(
    "text",
    [
        "lista tudo", "/list", "/list whatever", "what did I save?", "me mostra a lista aí",
        "show me my list", "whats on my list", "manda a lista", "show me the whole list pls",
    ],
)  # fmt: skip
def test_list_all_without_a_type_has_no_entities(classifier: IntentClassifier, text: str) -> None:
    assert classify(classifier, text) == ("list_all", {})


@pytest.mark.parametrize(
    ("text", "entities"),
    [
        ("1", {"index": 0}), ("2)", {"index": 1}), ("#3", {"index": 2}), ("o segundo", {"index": 1}),
        ("a primeira", {"index": 0}), ("the first one", {"index": 0}), ("second", {"index": 1}),
        ("número 2", {"index": 1}), ("último", {"index": -1}), ("last", {"index": -1}),
        ("1º", {"index": 0}), ("um", {"index": 0}), ("dois", {"index": 1}),
        ("2021", {"year": 2021}), ("1984", {"year": 1984}),
        ("1870", {"year": 1870}), ("2100", {"year": 2100}), ("o de 2010", {"year": 2010}),
    ],
)  # fmt: skip
def test_select_entities(classifier: IntentClassifier, text: str, entities: dict[str, int]) -> None:
    assert classify(classifier, text) == ("select", entities)


@pytest.mark.parametrize("text", ["0", "-1", "1869", "2101", "12345", "1 2", "2 filmes"])
def test_numbers_that_are_no_choice_go_to_the_planner(
    classifier: IntentClassifier, text: str
) -> None:
    assert classifier.classify(text).action == "llm"


@pytest.mark.parametrize(
    ("text", "name", "args"),
    [
        ("/why", "why", ""), ("/lang en", "lang", "en"), ("/end", "end", ""),
        ("/search x", "search", "x"), ("/export", "export", ""), ("/forget", "forget", ""),
        ("/stats", "stats", ""), ("/users", "users", ""), ("/quota tg:1 5000", "quota", "tg:1 5000"),
        ("/ledger tg:1", "ledger", "tg:1"), ("/dream", "dream", ""),
        ("/Lang@LembraBot   EN  ", "lang", "EN"), ("/why@LembraBot", "why", ""),
        ("  /search   a origem ", "search", "a origem"), ("/lang\nen", "lang", "en"),
    ],
)  # fmt: skip
def test_other_slash_commands_carry_name_and_args(
    classifier: IntentClassifier, text: str, name: str, args: str
) -> None:
    assert classify(classifier, text) == ("command", {"name": name, "args": args})


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("/delete_all", "delete_all"), ("/delete_all@LembraBot", "delete_all"),
        ("/list", "list_all"), ("/cancel", "cancel"), ("/cancel@LembraBot", "cancel"),
        ("/start", "greeting"), ("/start@LembraBot payload", "greeting"), ("/help", "help"),
        ("/HELP@LembraBot", "help"),
    ],
)  # fmt: skip
def test_slash_commands_with_a_label_of_their_own(
    classifier: IntentClassifier, text: str, action: str
) -> None:
    assert classify(classifier, text) == (action, {})


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("/delete_all filmes", "filmes"), ("/delete_all o inception", "o inception"),
        ("/delete_all@LembraBot my notes", "my notes"), ("/delete_all não", "não"),
    ],
)  # fmt: skip
def test_delete_all_command_naming_a_target_is_never_delete_all(
    classifier: IntentClassifier, text: str, args: str
) -> None:
    assert classify(classifier, text) == ("command", {"name": "delete_all", "args": args})


@pytest.mark.parametrize("text", ["/delete_all tudo", "/delete_all please", "/delete_all  "])
def test_delete_all_command_naming_everything_is_still_delete_all(
    classifier: IntentClassifier, text: str
) -> None:
    assert classify(classifier, text) == ("delete_all", {})


def test_delete_all_command_as_a_question_gets_help(classifier: IntentClassifier) -> None:
    assert classify(classifier, "/delete_all?") == ("help", {})


@pytest.mark.parametrize("text", ["/home/user/notes.txt", "/", "//", "/ cancel"])
def test_text_starting_with_a_slash_is_not_always_a_command(
    classifier: IntentClassifier, text: str
) -> None:
    assert classifier.classify(text).action != "command"


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("salva inception", "save"), ("oi, salva inception", "save"),
        ("lembra de ligar pro dentista", "save"), ("https://example.com/a", "save"),
        ("lista de compras: leite", "save"), ("remember to call mom", "save"),
        ("procura inception", "search"), ("tem algum filme do nolan?", "search"),
        ("do I have any horror movies?", "search"), ("apaga o inception", "delete"),
        ("esquece o inception", "delete"), ("remove the matrix", "delete"),
        ("inception", "other"), ("que dia é hoje?", "other"), ("como eu salvo um filme?", "other"),
    ],
)  # fmt: skip
def test_llm_carries_a_hint_for_the_planner(
    classifier: IntentClassifier, text: str, hint: str
) -> None:
    assert classify(classifier, text) == ("llm", {"intent": hint})


# --- normalize ---


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Não APAGUE!!!", "nao apague"), ("siiiiim", "sim"), ("cancelaaaa", "cancela"),
        ("  e   aí?  ", "e ai"), ("don't", "dont"), ("don’t", "dont"), ("2000", "2000"),
        ("1º", "1o"), ("🎬🍿", ""), ("a\u200fb", "a b"), ("x\x00y", "x y"),
        ("ＡＰＡＧＡ", "apaga"), ("привет!", "привет"), ("Ação: ver_filme", "acao ver filme"),
        ("kkkkk", "k"), ("coração ❤️", "coracao"),
    ],
)  # fmt: skip
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


# --- the Intent object and bad input ---


def test_intent_keeps_the_original_text_and_is_immutable(classifier: IntentClassifier) -> None:
    intent = classifier.classify("  Lista meus FILMES! ")
    assert intent == Intent("list_all", intent.entities, 100, "  Lista meus FILMES! ")
    with pytest.raises(FrozenInstanceError):
        intent.action = "llm"  # type: ignore[misc]
    with pytest.raises(TypeError):
        intent.entities["type"] = "note"  # type: ignore[index]


@pytest.mark.parametrize("text", ["", " ", "\n\t  ", "\u3000"])
def test_empty_text_goes_to_the_planner_with_score_zero(
    classifier: IntentClassifier, text: str
) -> None:
    assert classifier.classify(text) == Intent("llm", {"intent": "other"}, 0, text)


@pytest.mark.parametrize("text", ["\u200f", "\u200b", "\x00", "\ud800", "…", "/\x00"])
def test_text_with_nothing_to_classify_goes_to_the_planner(
    classifier: IntentClassifier, text: str
) -> None:
    intent = classifier.classify(text)
    assert (intent.action, dict(intent.entities), intent.score) == ("llm", {"intent": "other"}, 0)


@pytest.mark.parametrize("text", ["🎬🍿", "👍👍", "😀" * 1000, "❤️", "😂😂😂"])
def test_emoji_only_is_small_talk(classifier: IntentClassifier, text: str) -> None:
    # DESIGN 9.2: a short fixed reply, no model call, nothing saved
    intent = classifier.classify(text)
    assert (intent.action, dict(intent.entities)) == ("smalltalk", {"kind": "emoji"})


@pytest.mark.parametrize(
    ("text", "action"),
    [("👍", "confirm"), ("👍🏽", "confirm"), ("👎", "deny"), ("\u200fsim\u200f", "confirm"),
     ("apaga\x00tudo", "delete_all"), ("ｓｉｍ", "confirm")],
)  # fmt: skip
def test_marks_and_odd_characters_do_not_hide_the_meaning(
    classifier: IntentClassifier, text: str, action: str
) -> None:
    assert classifier.classify(text).action == action


def test_a_very_long_message_goes_to_the_planner(classifier: IntentClassifier) -> None:
    text = "apaga tudo " + "e mais isto " * 20_000
    assert classifier.classify(text).action == "llm"


def check_entities(action: str, entities: Mapping[str, Any]) -> None:
    """The entity keys and value types of DESIGN 3.3 for each label."""
    if action == "list_all":
        assert set(entities) <= {"type"}
        assert entities.get("type", "note") in {"note", "movie", "tv_show", "video", "link"}
    elif action == "select":
        assert len(entities) == 1
        ((key, value),) = entities.items()
        assert key in {"index", "year"}
        assert type(value) is int
    elif action == "command":
        assert set(entities) == {"name", "args"}
        assert entities["name"] == entities["name"].lower()
        assert "/" not in entities["name"]
        assert "@" not in entities["name"]
        assert entities["args"] == entities["args"].strip()
    elif action == "smalltalk":
        assert set(entities) == {"kind"}
        assert entities["kind"] in get_args(SmallTalkKind)
    elif action == "llm":
        assert set(entities) == {"intent"}
        assert entities["intent"] in {"save", "search", "delete", "other"}
    else:
        assert dict(entities) == {}


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=80) | st.from_regex(r"/[a-z_]{1,10}(@[A-Za-z]{1,8})?( .{0,20})?"))
def test_any_text_gets_a_label_valid_entities_and_a_score(
    classifier: IntentClassifier, text: str
) -> None:
    intent = classifier.classify(text)
    assert intent.action in LABELS
    assert type(intent.score) is int
    assert 0 <= intent.score <= 100
    assert intent.text == text
    check_entities(intent.action, intent.entities)
    if intent.action == "delete_all":
        assert "?" not in text


def test_classifiers_are_independent_and_deterministic() -> None:
    first, second = IntentClassifier(), IntentClassifier()
    texts = [e.text for e in load_corpus()]
    assert [first.classify(t) for t in texts] == [second.classify(t) for t in texts]
