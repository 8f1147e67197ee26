"""The cuts the runtime makes on every message (agent/understanding/chatter.py) read outside
text: whatever it holds, they never raise and never leave a message with words empty."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from agent.understanding.chatter import quiet, without_asides, without_chatter
from agent.understanding.vocabulary import plain_save_head

_PIECES = st.sampled_from(
    [
        *("pfv", "valeu", "kkk", ":)", "🎬", "ok,", "ops,", "wait no,", "actually", "anota:"),
        *("\n", " ", "ah e", "and also", "salva", "add", "e"),
    ]
)
_TEXT = st.lists(st.one_of(st.text(max_size=12), _PIECES), max_size=8).map(" ".join)


@given(_TEXT)
def test_the_cuts_never_raise_and_never_empty_a_message_with_words(text: str) -> None:
    for cut in (without_chatter, without_asides, plain_save_head):
        out = cut(text)
        assert isinstance(out, str)
        if re.search(r"\w", text):
            assert re.search(r"\w", out), (cut.__name__, text, out)
    assert len(quiet(text)) == len(text)  # same length: spans still index the message


def test_an_opening_and_before_a_save_verb_is_cut_and_elsewhere_kept() -> None:
    def read(text: str) -> str:
        return plain_save_head(without_chatter(text))

    assert read("ah e salva tb o filme Heat") == "salva o filme Heat"
    assert read("and also add Fargo pls") == "add Fargo"
    assert read("e bota tb Aquarius") == "bota tb Aquarius"
    assert read("porém guarde aí a série Mindhunter") == "guarde a serie Mindhunter"
    # no verb of its own: a continuation, read as one ("e o Aquarius tb")
    assert read("e o Aquarius tb") == "e o Aquarius tb"
    assert read("ah e a série Dark") == "ah e a série Dark"
