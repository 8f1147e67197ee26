"""The readers this wave added read whatever a user types and never raise (issues 41, 43, 44).

Each takes the raw text of a message (or the words after a verb); whatever the text, the
answer is a reading or None, never an exception that would turn a message into an error.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agent.conversation.reminding import item_named
from agent.conversation.shelf import Entry
from agent.tools.matching import host_pieces
from agent.understanding.batches import cut_tail, link_about
from agent.understanding.facts import given_back, restated
from agent.understanding.kinds import correction, named_correction, without_fix_request
from agent.understanding.reminders.requests import only_says_why, same_time_task
from agent.understanding.smalltalk import saved_question_types, smalltalk_kind
from agent.understanding.vocabulary import plain_save_head
from agent.understanding.watchlist import read_each_rated

# words the readers look for, so the text reaches past their first guard
_WORDS = st.sampled_from(
    "salva slava anota filme série serie show shows vlw o a e tb dark na vdd é uma is actually "
    "a movie mesmo horário same time de comprar velas já vi assisti watched nota 7 (8) gets "
    "no score sem nota link https://x.example/a sobre da q quantos filmes séries eu tenho ? , . :"
    " desfaz apaguei porque sem querer arruma aí fix that foi mal kkk minissérie miniseries 2301"
    " 2310 não not new code is, q pq https://www.theverge.com/x ver ele watch it disso about"
    " essa série".split()
)
_TEXT = st.one_of(st.text(max_size=80), st.lists(_WORDS, max_size=14).map(" ".join))


@given(_TEXT)
def test_the_new_readers_never_raise_whatever_the_text(text: str) -> None:
    link_about(text)
    named_correction(text)
    correction(text)
    without_fix_request(text)
    given_back(text, "code 2310 at the gate")
    restated(text, "code 2310 at the gate")
    cut_tail(text)
    host_pieces(text)
    only_says_why(text)
    same_time_task(text)
    saved_question_types(text)
    smalltalk_kind(text)
    plain_save_head(text)
    read_each_rated(text)


@given(_TEXT, st.sampled_from(["movie", "tv_show", "video", "link", "note", ""]))
def test_a_reminder_text_pointing_at_the_item_in_view_never_raises(text: str, kind: str) -> None:
    """The words of a reminder, read for a word that names the item in view (issue 43)."""
    named = item_named(text, Entry(1, "a" * 32, "Duna (2021)", kind))
    assert named == text or "Duna" in named
