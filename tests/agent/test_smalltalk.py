"""Small talk and everyday chat through the real runtime offline (DESIGN 9.2, issue 11).

The corpus (`smalltalk_corpus.tsv`) is everyday chat in Portuguese and English: thanks,
acknowledgements, laughter, greetings with questions, compliments, feelings, opinions,
emoji, short questions to the bot, jokes. Sent one after the other in one conversation, as
a person would: almost nothing is saved, nothing is deleted, and English is answered in
English.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from agent.texts import _TEXTS, text
from agent.types import Language
from agent.understanding.intent import IntentClassifier
from agent.understanding.language import detect_language
from storage import Database
from tests.support.harness import Lembra, open_lembra

CORPUS = Path(__file__).with_name("smalltalk_corpus.tsv")
MAX_SAVED_SHARE = 0.02
MIN_SAME_LANGUAGE = 0.95
MIN_ANSWERED_IN_CODE = 0.85  # the rest reaches the planner, which saves nothing unasked
IN_CODE = ("smalltalk", "greeting", "confirm", "deny", "cancel")


def fixed_texts(language: Language) -> frozenset[str]:
    """Every fixed text without placeholders, in `language`."""
    return frozenset(v[language] for v in _TEXTS.values() if "{" not in v[language])


def answered_in(reply_text: str, language: Language) -> bool:
    """Whether a reply is in `language`: one of its fixed texts, or detected as it."""
    other: Language = "en" if language == "pt" else "pt"
    if reply_text in fixed_texts(language):
        return True
    if reply_text in fixed_texts(other):
        return False
    return detect_language(reply_text) == language


def load_corpus() -> list[tuple[str, str]]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "text\tlanguage"
    rows = [tuple(line.split("\t")) for line in lines[1:] if "\t" in line]
    assert all(len(r) == 2 and r[1] in ("pt", "en") for r in rows)
    return [(r[0], r[1]) for r in rows]


def interleaved(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """PT and EN lines alternating, so each reply must follow the line, not the last one."""
    pt = [r for r in rows if r[1] == "pt"]
    en = [r for r in rows if r[1] == "en"]
    mixed: list[tuple[str, str]] = []
    for index in range(max(len(pt), len(en))):
        mixed += pt[index : index + 1] + en[index : index + 1]
    return mixed


@pytest.fixture
async def lembra(db: Database) -> AsyncIterator[Lembra]:
    async with open_lembra(db) as running:
        yield running


def test_the_corpus_is_varied_and_in_both_languages() -> None:
    rows = load_corpus()
    assert len(rows) >= 300
    assert sum(1 for _, lang in rows if lang == "en") >= 120
    assert len({t for t, _ in rows}) == len(rows), "duplicate lines"


def test_most_of_the_corpus_is_answered_in_code() -> None:
    classifier = IntentClassifier()
    rows = load_corpus()
    labels = [classifier.classify(t).action for t, _ in rows]
    share = sum(1 for label in labels if label in IN_CODE) / len(rows)
    assert share >= MIN_ANSWERED_IN_CODE, f"{share:.0%} answered in code"
    assert labels.count("smalltalk") >= len(rows) // 2
    # small talk never becomes a destructive or listing intent
    assert "delete_all" not in labels


async def test_chat_saves_almost_nothing_deletes_nothing_and_answers_in_its_language(
    lembra: Lembra,
) -> None:
    rows = interleaved(load_corpus())
    english_total = english_in_english = 0
    portuguese_total = portuguese_in_portuguese = 0
    for line, language in rows:
        reply = await lembra.say(line)
        assert reply.meta.llm_calls == 0
        if language == "en":
            english_total += 1
            english_in_english += answered_in(reply.text, "en")
        else:
            portuguese_total += 1
            portuguese_in_portuguese += answered_in(reply.text, "pt")

    saved = len(await lembra.items())
    events = await lembra.event_types()
    assert saved / len(rows) <= MAX_SAVED_SHARE, f"{saved} of {len(rows)} lines saved"
    assert "item_deleted" not in events
    assert "all_deleted" not in events
    assert english_in_english / english_total >= MIN_SAME_LANGUAGE, (
        f"{english_in_english}/{english_total} English lines answered in English"
    )
    assert portuguese_in_portuguese / portuguese_total >= MIN_SAME_LANGUAGE


@pytest.mark.parametrize(
    ("line", "key", "language"),
    [
        ("obrigado!", "smalltalk_thanks", "pt"),
        ("thanks a lot", "smalltalk_thanks", "en"),
        ("oi, tudo bem?", "smalltalk_greeting", "pt"),
        ("hey, how are you?", "smalltalk_greeting", "en"),
        ("kkkkkk", "smalltalk_laughter", "pt"),
        ("você é demais", "smalltalk_compliment", "pt"),
        ("you're the best", "smalltalk_compliment", "en"),
        ("are you a robot?", "smalltalk_question", "en"),
    ],
)
async def test_small_talk_gets_a_fixed_reply_in_its_language_and_no_item(
    lembra: Lembra, line: str, key: str, language: str
) -> None:
    reply = await lembra.say(line)

    assert reply.text == text(key, language)  # type: ignore[arg-type]
    assert reply.meta.intent == "smalltalk"
    assert reply.meta.state == "OK"
    assert await lembra.items() == []
    assert await lembra.pending() is None


async def test_a_lang_choice_wins_over_the_message_language(lembra: Lembra) -> None:
    await lembra.say("/lang pt")

    reply = await lembra.say("thank you so much!")

    assert reply.text == text("smalltalk_thanks", "pt")


async def test_a_line_without_a_language_keeps_the_last_one(lembra: Lembra) -> None:
    await lembra.say("hello there, how are you?")

    reply = await lembra.say("😂😂")

    assert reply.text == text("smalltalk_emoji", "en")
