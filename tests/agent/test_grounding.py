"""Grounding (DESIGN 9.6): a tool call keeps only facts its sources back."""

from __future__ import annotations

import json
import random
import unicodedata
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from agent.planning.grounding import STOPWORDS, ConversationSources, Sources, judge
from agent.tools.editing import UpdateItemArgs
from agent.tools.enrich import EnrichLinkArgs
from agent.tools.finding import SearchItemsArgs
from agent.tools.saving import SaveLinkArgs, SaveMovieArgs, SaveNoteArgs, SaveVideoArgs
from storage import Database
from tests.support.live import ALICE, call, live_runtime

VIDEO = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


def sources(*texts: str) -> Sources:
    found = Sources()
    for value in texts:
        found.add(value)
    return found


# -- the rules, case by case ---------------------------------------------------------------


def test_title_word_by_word_with_one_typo_per_word() -> None:
    said = sources("salva o filme interestelar")
    assert judge(SaveMovieArgs(title="Interestelar"), said, {}).problem is None
    assert judge(SaveMovieArgs(title="Intrestelar"), said, {}).problem is None  # one typo
    refused = judge(SaveMovieArgs(title="Interstellar"), said, {})  # two edits away
    assert refused.args is None
    assert refused.problem is not None
    assert "argument `title` is not in the user's message" in refused.problem
    assert "'interstellar'" in refused.problem


def test_a_title_with_an_unbacked_word_is_refused_even_when_others_match() -> None:
    said = sources("salva o poderoso chefão")
    assert judge(SaveMovieArgs(title="O Poderoso Chefao"), said, {}).problem is None
    refused = judge(SaveMovieArgs(title="O Poderoso Chefão Parte II"), said, {})
    assert refused.problem is not None
    assert "'parte'" in refused.problem


def test_short_words_and_numbers_allow_no_typo() -> None:
    said = sources("anota: cat 2014")
    assert judge(SaveNoteArgs(content="car"), said, {}).problem is not None
    kept = judge(SaveMovieArgs(title="cat", year=2015), said, {})
    assert kept.args == SaveMovieArgs(title="cat", year=None)
    assert kept.dropped == ("year",)


def test_a_note_needs_one_word_of_the_message() -> None:
    said = sources("me lembra de comprar leite amanhã")
    assert judge(SaveNoteArgs(content="comprar leite"), said, {}).problem is None
    assert judge(SaveNoteArgs(content="leite e pão"), said, {}).problem is None
    refused = judge(SaveNoteArgs(content="buy milk"), said, {})
    assert refused.problem is not None
    assert "argument `content`" in refused.problem


def test_urls_compare_normalized_and_invented_ones_are_refused() -> None:
    said = sources("guarda youtu.be/dQw4w9WgXcQ por favor")
    assert judge(SaveVideoArgs(url=VIDEO), said, {}).problem is None
    refused = judge(EnrichLinkArgs(url="https://wifi.example.com/senha"), said, {})
    assert refused.problem is not None
    assert "argument `url` is not in the user's message" in refused.problem
    assert "wifi.example.com" not in refused.problem
    # a link we do not take, as the user wrote it, reaches the tool (which says why)
    written = sources("salva ftp://example.com/arquivo")
    assert judge(SaveLinkArgs(url="ftp://example.com/arquivo"), written, {}).problem is None
    assert judge(SaveLinkArgs(url="ftp://example.com/outro"), written, {}).problem is not None


def test_optional_text_is_dropped_and_required_kept() -> None:
    said = sources(f"guarda esse vídeo {VIDEO}")
    kept = judge(SaveVideoArgs(url=VIDEO, title="O que é o filme"), said, {})
    assert kept.args == SaveVideoArgs(url=VIDEO, title=None)
    assert kept.dropped == ("title",)
    link = judge(SaveLinkArgs(url=VIDEO, description="um clássico"), said, {})
    assert link.dropped == ("description",)


def test_a_call_left_with_nothing_to_do_after_drops_is_refused() -> None:
    said = sources("corrige o ano do filme duna")
    refused = judge(UpdateItemArgs(item_id="i1", year=1984), said, {})
    assert refused.args is None
    assert refused.problem is not None
    assert "argument `year` is not in the user's message" in refused.problem
    assert refused.fields == (("year", "reasked"),)
    kept = judge(UpdateItemArgs(item_id="i1", title="Duna", year=1984), said, {})
    assert kept.args == UpdateItemArgs(item_id="i1", title="Duna")


def test_a_query_sharing_no_word_is_refused() -> None:
    said = sources("procura a senha do wifi")
    assert judge(SearchItemsArgs(query="senha wifi"), said, {}).problem is None
    assert judge(SearchItemsArgs(query="password"), said, {}).problem is not None


def test_confirmation_by_the_source_keeps_a_fact() -> None:
    said = sources("salva o filme inception")
    args = SaveMovieArgs(title="Inception", year=2010, tmdb_id=27205)
    assert judge(args, said, {}).dropped == ("year", "tmdb_id")
    assert judge(args, said, {"year": True, "tmdb_id": True}).args == args


# -- what counts as a source ----------------------------------------------------------------


def test_the_models_own_calls_prose_and_refusals_are_not_sources() -> None:
    messages = [
        HumanMessage(content="o que acha de interestelar?"),
        AIMessage(
            content="",
            tool_calls=[
                {
                    "name": "plan",
                    "args": {"action": "RESPOND", "message": "Interestelar (1984) é ótimo"},
                    "id": "c1",
                    "type": "tool_call",
                }
            ],
        ),
        ToolMessage(
            content='{"status": "refused", "error": "1999"}', tool_call_id="c1", name="plan"
        ),
        AIMessage(content="Interestelar (1984) é ótimo"),  # the reply: the model's prose
        AIMessage(content='[called save_movie({"year": 2001})]'),  # a flattened call
        HumanMessage(content="<data>error: argument `year` 1977</data>"),  # a stored correction
    ]
    found = ConversationSources("salva ele", messages).current()
    for fact in ("1984", "1999", "2001", "1977"):
        assert fact not in found.tokens
    assert "interestelar" in found.tokens


def test_tool_results_and_runtime_replies_are_sources() -> None:
    messages = [
        HumanMessage(content="procura inception"),
        ToolMessage(
            content=json.dumps(
                {"status": "candidates", "options": ["<data>Inception (2010)</data>"]}
            ),
            tool_call_id="c1",
            name="enrich_movie",
        ),
        AIMessage(content="Encontrei: 1. A Origem (2010)"),
        AIMessage(content="<data>✅ Salvo: Duna (2021).</data>"),  # a stored reply, fenced
    ]
    found = ConversationSources("guarda esse", messages).current()
    assert {"2010", "origem", "inception", "duna", "2021"} <= found.tokens
    assert "data" not in found.tokens


# -- property: an item never holds a fact absent from its sources ---------------------------

WORDS = ["interestelar", "origem", "matrix", "leite", "comprar", "cafe", "poderoso", "chefao", "o"]
word = st.sampled_from(WORDS) | st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzçãé", min_size=1, max_size=9
)
year = st.integers(min_value=1870, max_value=2100)


def _fold(value: str) -> list[str]:
    decomposed = unicodedata.normalize("NFKD", value.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c if c.isalnum() else " " for c in plain).split()


def _one_typo(a: str, b: str) -> bool:
    """Brute force: b is a within one insertion, deletion, substitution or adjacent swap."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    letters = set(a + b)
    edits = {a[:i] + a[i + 1 :] for i in range(len(a))}
    edits |= {a[:i] + c + a[i + 1 :] for i in range(len(a)) for c in letters}
    edits |= {a[:i] + c + a[i:] for i in range(len(a) + 1) for c in letters}
    edits |= {a[:i] + a[i + 1] + a[i] + a[i + 2 :] for i in range(len(a) - 1)}
    return b in edits


def _backed(value_word: str, message_words: list[str], whole: str, message: str) -> bool:
    if value_word in message_words:
        return True
    squashed = "".join(_fold(whole))
    if len(squashed) >= 6 and squashed in "".join(_fold(message)):
        return True
    return (
        len(value_word) >= 4
        and not any(c.isdigit() for c in value_word)
        and any(_one_typo(value_word, w) for w in message_words)
    )


@settings(max_examples=150, deadline=None)
@given(
    message=st.lists(word | year.map(str), min_size=1, max_size=8).map(" ".join),
    title=st.lists(word, min_size=1, max_size=4).map(" ".join),
    year_arg=st.none() | year,
    tmdb_id=st.none() | st.integers(min_value=1, max_value=10**7),
)
def test_kept_facts_always_have_a_source(
    message: str, title: str, year_arg: int | None, tmdb_id: int | None
) -> None:
    args = SaveMovieArgs.model_construct(title=title, year=year_arg, tmdb_id=tmdb_id)
    checked = judge(args, sources(message), {})
    said = _fold(message)
    if checked.args is None:
        assert checked.problem is not None
        assert "argument `title`" in checked.problem
        return
    kept = checked.args.model_dump()
    if kept["year"] is not None:
        assert str(kept["year"]) in said
    if kept["tmdb_id"] is not None:
        assert str(kept["tmdb_id"]) in said
    words = [w for w in _fold(title) if not (len(w) == 1 and w.isalpha())]
    # function words ("da", "of") carry no fact and need no source (grounding.STOPWORDS)
    meaningful = [w for w in words if w not in STOPWORDS] or words
    assert all(_backed(w, said, title, message) for w in meaningful)
    # and nothing backed is thrown away
    if year_arg is not None and str(year_arg) in said:
        assert kept["year"] == year_arg


@settings(max_examples=100, deadline=None)
@given(
    message=st.lists(word, min_size=1, max_size=8).map(" ".join),
    note=st.lists(word, min_size=1, max_size=5).map(" ".join),
)
def test_a_kept_note_shares_a_word_with_the_message(message: str, note: str) -> None:
    checked = judge(SaveNoteArgs.model_construct(content=note), sources(message), {})
    words = [w for w in _fold(note) if not (len(w) == 1 and w.isalpha())]
    meaningful = [w for w in words if w != "o"] or words
    if checked.args is not None and meaningful:
        said = _fold(message)
        assert any(_backed(w, said, note, message) for w in meaningful)
    if checked.args is None:
        assert checked.problem is not None
        assert "argument `content`" in checked.problem


# -- through the runtime -------------------------------------------------------------------


async def test_the_model_is_told_which_argument_and_metrics_count_it(db: Database) -> None:
    async with live_runtime(db) as live:
        reply, report = await live.say(
            "salva o filme interestelar",
            llm=[
                call("save_movie", title="Interstellar", year=2014),
                call("save_movie", title="interestelar", year=1984),
            ],
        )
        told = [
            m["content"] for m in report.requests[1].body["messages"] if m.get("role") == "tool"
        ]
        assert any("argument `title` is not in the user's message" in t for t in told)
        assert "1984" not in reply.text
        assert "ungrounded:year" in reply.meta.rules_applied
        items = await db.items.list_for(ALICE, limit=10)
        assert [(i.title, i.year) for i in items] == [("interestelar", None)]
        exposition = live.deps.metrics.render().decode()
        for verdict in ("reasked", "dropped"):
            field = "title" if verdict == "reasked" else "year"
            assert (
                f'lembra_grounding_total{{field="{field}",tool="save_movie",verdict="{verdict}"}} 1.0'
                in exposition
            )


TMDB_ENTRIES = [
    {"id": 27205, "title": "Inception", "release_date": "2010-07-15"},
    {"id": 157336, "title": "Interestelar", "release_date": "2014-11-05"},
]


async def test_stored_items_hold_only_facts_of_their_sources(db: Database) -> None:
    """Random messages and argument sets through the real runtime: the database is the oracle."""
    rng = random.Random(17)
    vocab = ["inception", "interestelar", "matrix", "duna", "origem"]
    said: list[str] = []
    async with live_runtime(db, tmdb={"movie": {"inception": TMDB_ENTRIES}}) as live:
        for _ in range(14):
            words = rng.sample(vocab, 2)
            message = "salva o filme " + " ".join(words)
            if rng.random() < 0.4:
                message += f" de {rng.choice([2010, 2014, 1999])}"
            title = " ".join(rng.sample(words + vocab, 1 if rng.random() < 0.7 else 2))
            if rng.random() < 0.3:
                title = title[:-1] + "x"  # one typo
            args: dict[str, Any] = {"title": title}
            if rng.random() < 0.6:
                args["year"] = rng.choice([2010, 2014, 1984, 1999])
            if rng.random() < 0.4:
                args["tmdb_id"] = rng.choice([27205, 157336, 157336, 4242])
            said.append(message)
            await live.say(message, llm=[call("save_movie", **args)] * 3)
        exposition = live.deps.metrics.render().decode()
    heard = [w for m in said for w in _fold(m)]
    whole = " ".join(said)
    items = await db.items.list_for(ALICE, limit=100)
    assert any(i.year is not None for i in items)
    assert any(i.tmdb_id is not None for i in items)  # confirmed by TMDB
    for verdict in ("grounded", "dropped", "reasked"):  # every path was taken
        assert f'verdict="{verdict}"' in exposition
    for item in items:
        entry = next((e for e in TMDB_ENTRIES if e["id"] == item.tmdb_id), None)
        if item.tmdb_id is not None:
            assert entry is not None
            named = _fold(entry["title"])  # the id names this title (one typo per word)
            assert all(_backed(w, named, "", "") for w in _fold(item.title or ""))
        if item.year is not None:
            confirmed = entry is not None and entry["release_date"].startswith(str(item.year))
            assert confirmed or str(item.year) in heard
        title_words = [w for w in _fold(item.title or "") if w not in {"o", "a"}]
        assert all(_backed(w, heard, item.title or "", whole) for w in title_words)


def test_words_the_model_dropped_from_the_front_of_a_title_are_put_back() -> None:
    from agent.planning.grounding import whole_title

    # the 1.5B model saved "salva tb ainda estou aqui" as "estou aqui"
    cut = whole_title(SaveNoteArgs(content="estou aqui"), "salva tb ainda estou aqui")
    assert isinstance(cut, SaveNoteArgs)
    assert cut.content == "ainda estou aqui"
    movie = whole_title(SaveMovieArgs(title="Rua do Medo"), "save the movie Nunca rua do medo")
    assert isinstance(movie, SaveMovieArgs)
    assert movie.title == "Nunca Rua do Medo"  # the model's spelling of the words it kept
    # a title the model wrote whole, or with words that are not a tail of the message's, stays
    assert whole_title(SaveMovieArgs(title="Duna"), "salva o filme Duna") == SaveMovieArgs(
        title="Duna"
    )
    odd = SaveNoteArgs(content="estou lá")
    assert whole_title(odd, "salva tb ainda estou aqui") == odd
    # what an offline reading may leave before a title is never put back: laughter, a verb
    laughed = SaveNoteArgs(content="Não posso perder")
    assert whole_title(laughed, "anota kkkk Não posso perder") == laughed
    slipped = SaveMovieArgs(title="tropa de elite 2")
    assert whole_title(slipped, "slava o filme tropa de elite 2") == slipped


@given(st.text(max_size=60), st.text(max_size=120))
@settings(max_examples=200, deadline=None)
def test_putting_back_dropped_words_never_raises(title: str, said: str) -> None:
    from agent.planning.grounding import whole_title

    for model, field in ((SaveMovieArgs, "title"), (SaveNoteArgs, "content")):
        try:
            args = model.model_validate({field: title})
        except ValueError:
            continue  # no call a model could make: the schema refuses it first
        assert isinstance(whole_title(args, said), model)


def test_a_replys_label_copied_after_a_title_is_no_part_of_it() -> None:
    # issue 44: the 1.5B model saved "The Pitt (2025) (US)", the where-to-watch heading
    from agent.planning.grounding import undecorated

    copied = undecorated(SaveMovieArgs(title="Dias Perfeitos (2023) (BR)"), "salva esse aí")
    assert (copied.title, copied.year) == ("Dias Perfeitos", 2023)
    said = undecorated(SaveMovieArgs(title="Blade Runner (1982)"), "salva Blade Runner (1982)")
    assert said.title == "Blade Runner (1982)"  # the user wrote it: theirs to keep
