"""A bare title saved as a guessed type, and its correction in code (issue 34).

Offline (the default set-up): "salva inception" is saved as a movie and the reply says
so; "é uma série" / "it's a note" changes the type of that save (ledger, counters,
«desfaz»). The same correction works with a model configured, without calling it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.texts import text
from agent.trust.audit import audit_user
from agent.understanding.kinds import correction, guessed_title, of_several
from storage import Database
from tests.support.harness import ALICE, Lembra, open_lembra
from tests.support.live import call, live_runtime

# The default set-up: no TMDB key (TMDB's public address without one is "not configured").
DEFAULT = {"tmdb_base_url": "https://api.themoviedb.org/3"}


async def _types(lembra: Lembra) -> list[tuple[str, str]]:
    return [(i.type, i.label) for i in await lembra.items()]


async def test_a_bare_title_is_saved_as_a_movie_and_the_reply_says_how_to_correct_it(
    db: Database,
) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        saved = await lembra.say("salva inception")
        listed = await lembra.say("lista meus filmes")

    first = saved.text.splitlines()[0]
    assert first == "✅ " + text("saved_guessed_movie", "pt", label="inception")
    assert "«é uma série»" in first
    assert "«é uma nota»" in first
    assert listed.text.splitlines() == ["Filmes (1):", "1. inception"]


async def test_with_tmdb_a_clear_match_is_saved_enriched_and_still_says_it_guessed(
    db: Database,
) -> None:
    async with open_lembra(db) as lembra:  # the fake TMDB knows "the matrix"
        saved = await lembra.say("salva the matrix")
        (item,) = await lembra.items()

    assert saved.text == "✅ " + text("saved_guessed_movie", "pt", label="The Matrix (1999)")
    assert (item.type, item.tmdb_id) == ("movie", 603)


@pytest.mark.parametrize(
    "message",
    [
        "salva comprar pão",
        "anota inception",
        "salva ligar pro João às 9h",
        "salva o livro Duna",
        "guarda: reunião com a Ana",
        "save buy milk and eggs",
        "salva a nota inception",
    ],
)
async def test_what_reads_like_a_note_stays_a_note(db: Database, message: str) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        reply = await lembra.say(message)
        assert [i.type for i in await lembra.items()] == ["note"]
    assert "filme" not in reply.text


@pytest.mark.parametrize(
    "message",
    [
        "salva minha senha do banco hunter2",
        "guarda meu cpf 123.456.789-00",
        "save my password hunter2",
        "salva o pix da maria",
        "salva Rua das Flores 123 apto 4",
        "salva aniversário da Ana 12/05",
        "salva reunião amanhã",
    ],
)
async def test_personal_data_is_a_note_and_never_goes_to_tmdb(db: Database, message: str) -> None:
    # with TMDB configured a guessed title is looked up there: a password must not be
    async with open_lembra(db) as lembra:
        reply = await lembra.say(message)
        assert [i.type for i in await lembra.items()] == ["note"]
        assert lembra.tmdb.requests == []
    assert "filme" not in reply.text


@pytest.mark.parametrize(
    "message", ["salva 1917", "salva blade runner 2049", "salva o poderoso chefão"]
)
def test_titles_with_a_number_are_still_guessed(message: str) -> None:
    body = message.removeprefix("salva ")
    assert guessed_title(message, body) == body


async def test_a_correction_changes_the_type_is_recorded_and_undone(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("salva inception")
        to_show = await lembra.say("é uma série")
        shows = await lembra.say("lista minhas séries")
        movies = await lembra.say("lista meus filmes")
        undone = await lembra.say("desfaz")
        after_undo = await _types(lembra)
        to_note = await lembra.say("na verdade é uma nota")
        as_note = await _types(lembra)
        back = await lembra.say("é um filme")
        audit = await audit_user(lembra.deps, ALICE)
        events = await lembra.events()
        user = await lembra.known_user()

    assert to_show.text == "✅ " + text("retyped", "pt", kind="série", label="inception")
    assert to_show.meta.llm_calls == 0
    assert shows.text.splitlines() == ["Séries (1):", "1. inception"]
    assert movies.text == text("list_empty_type", "pt", type="filmes")
    assert undone.text == "✅ " + text("undo_retyped", "pt", label="inception", kind="filme")
    assert after_undo == [("movie", "inception")]
    assert to_note.text.startswith("✅ Agora é nota: inception.")
    assert as_note == [("note", "inception")]
    assert back.text.startswith("✅ Agora é filme: inception.")
    assert audit.ok, audit.to_json()
    assert user.counts["movie"] == 1
    assert user.counts["tv_show"] == user.counts["note"] == 0
    updates = [e.payload for e in events if e.type == "item_updated"]
    assert [(p["from_type"], p["type"], p["fields"]) for p in updates] == [
        ("movie", "tv_show", ["type"]),
        ("movie", "note", ["type"]),
        ("note", "movie", ["type"]),
    ]
    assert all("inception" not in str(p) for p in updates)  # content-free


async def test_a_question_about_the_type_changes_nothing(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("salva inception")
        await lembra.say("é uma série?")
        kept = await _types(lembra)

    assert kept == [("movie", "inception")]


async def test_a_movie_made_a_note_and_back_keeps_its_year_and_dedup_key(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("salva o filme inception 2010")
        (first,) = await lembra.items()
        await lembra.say("é uma nota")
        await lembra.say("é um filme")
        (back,) = await lembra.items()
        await lembra.say("salva o filme inception 2010")
        kept = await _types(lembra)

    assert (back.title, back.year, back.dedup_key) == (first.title, 2010, first.dedup_key)
    assert kept == [("movie", "inception")]


async def test_a_correction_with_nothing_just_saved_says_so(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        nothing = await lembra.say("é uma série")
        await lembra.say("anota: comprar leite")
        await lembra.say("apaga a nota comprar leite")
        await lembra.say("sim")
        after_delete = await lembra.say("it's a show")

    assert nothing.text == text("retype_nothing", "pt")
    assert after_delete.text == text("retype_nothing", "en")


async def test_a_correction_to_a_type_already_saved_changes_nothing(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("anota: inception")
        await lembra.say("salva inception")
        clash = await lembra.say("é uma nota")
        same = await lembra.say("é um filme")
        kept = await _types(lembra)

    assert clash.text == text("retype_duplicate", "pt", label="inception", kind="nota")
    assert same.text == text("retype_same", "pt", label="inception", kind="filme")
    assert kept == [("note", "inception"), ("movie", "inception")]


async def test_with_a_model_the_correction_is_code_and_drops_tmdb_facts(db: Database) -> None:
    dark = {"id": 4242, "title": "Dark", "release_date": "2017-12-01", "overview": "A town."}
    async with live_runtime(db, tmdb={"movie": {"dark": [dark]}}) as live:
        await live.say("salva dark", llm=[call("enrich_movie", title="Dark")])
        reply, report = await live.say("na verdade é uma série")
        (item,) = await live.db.items.list_for(ALICE)
        undone, _ = await live.say("desfaz")
        (restored,) = await live.db.items.list_for(ALICE)

    assert report.llm_calls == 0
    assert reply.text.startswith("✅ Agora é série: Dark (2017).")
    assert (item.type, item.title, item.year) == ("tv_show", "Dark", 2017)
    assert (item.tmdb_id, item.overview, item.enriched) == (None, None, False)
    assert undone.text.startswith("✅ Desfeito")
    assert (restored.type, restored.tmdb_id, restored.overview) == ("movie", 4242, "A town.")


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("é uma série", "tv_show"),
        ("É uma nota!", "note"),
        ("não, é uma série, não um filme", "tv_show"),
        ("na verdade era um filme", "movie"),
        ("muda pra série", "tv_show"),
        ("salva como nota", "note"),
        ("it's a show", "tv_show"),
        ("actually it is a TV series", "tv_show"),
        ("make it a note", "note"),
        ("theyre shows", "tv_show"),
        ("they're both series", "tv_show"),
        ("sao series", "tv_show"),
        ("os dois são filmes", "movie"),
        ("both are notes", "note"),
        ("sao series na vdd", "tv_show"),
        ("it's a show actually", "tv_show"),
        ("é uma série incrível", None),
        ("qual série é essa?", None),
        ("salva a série dark", None),
        ("é uma série?", None),  # a question about it, not a correction: nothing changes
        ("isso é um filme?", None),
        ("it's a show?", None),
    ],
)
def test_corrections_are_read_in_code(message: str, kind: str | None) -> None:
    assert correction(message) == kind


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120), st.text(max_size=120))
def test_reading_kinds_never_raises(message: str, body: str) -> None:
    correction(message)
    of_several(message)
    of_several("sao " + message)
    guessed_title(message, body)
    guessed_title(message + body, body)


# -- a type said of several things just saved (issue 41) -------------------------------------


async def test_a_type_said_of_several_just_saved_changes_each_of_them(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("save Fargo and Barry")
        english = await lembra.say("theyre shows")
        await lembra.say("salva Dark, Sintonia e Irmandade")
        portuguese = await lembra.say("todas sao series")
        kinds = await _types(lembra)
        listed = await lembra.say("lista meus filmes")

    assert english.text.startswith("✅ Now they are TV shows: Fargo and Barry.")
    assert portuguese.text.startswith("✅ Agora são séries: Dark, Sintonia e Irmandade.")
    assert {kind for kind, _ in kinds} == {"tv_show"}
    assert listed.text == text("list_empty_type", "pt", type="filmes")


async def test_several_said_after_one_save_changes_that_one(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("salva Heat e Ronin")
        await lembra.say("salva inception")
        reply = await lembra.say("são séries")
        kinds = await _types(lembra)

    assert reply.text.startswith("✅ Agora é série: inception.")
    assert kinds == [("movie", "Heat"), ("movie", "Ronin"), ("tv_show", "inception")]


async def test_a_correction_naming_a_title_retypes_that_one_and_then_the_line_pointed_at(
    db: Database,
) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("salva esses filmes: Mindhunter, Zodiac, Chernobyl")
        named = await lembra.say("hmm o Mindhunter na real é uma série")
        await lembra.say("e o último também")
        await lembra.say("wait, Zodiac is a note")
        kinds = sorted(await _types(lembra))

    assert named.text.startswith("✅ ")
    assert kinds == [("note", "Zodiac"), ("tv_show", "Chernobyl"), ("tv_show", "Mindhunter")]


async def test_a_correction_naming_nothing_just_saved_changes_nothing(db: Database) -> None:
    async with open_lembra(db, **DEFAULT) as lembra:
        await lembra.say("salva os filmes Dark e Ozark")
        await lembra.say("o Lost na verdade é uma série")
        kinds = sorted(await _types(lembra))

    assert kinds == [("movie", "Dark"), ("movie", "Ozark")]


async def test_a_retype_said_between_an_apology_and_a_request_to_fix_it(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as lembra:
        await lembra.say("salva o filme Chernobyl")
        pt = await lembra.say("foi mal, Chernobyl é minissérie, não filme. conserta isso pfv")
        await lembra.say("add the show Amadeus")
        en = await lembra.say("my bad, Amadeus is a movie. can you fix it")
        items = await lembra.items()
    assert pt.text.startswith("✅ Agora é série: Chernobyl")
    assert en.text.startswith("✅ Now it is a movie: Amadeus")
    assert sorted((i.type, i.title) for i in items) == [
        ("movie", "Amadeus"),
        ("tv_show", "Chernobyl"),
    ]


def test_a_request_to_fix_is_cut_only_after_what_says_the_fix() -> None:
    from agent.understanding.kinds import without_fix_request

    assert without_fix_request("é série, arruma aí") == "é série"
    assert without_fix_request("arruma aí") == "arruma aí"  # nothing said before it
    assert without_fix_request("Fix It Felix, fix that") == "Fix It Felix"


async def test_which_one_by_its_year_is_read_on_a_save_and_on_a_correction(db: Database) -> None:
    async with open_lembra(db, tmdb_base_url="https://api.themoviedb.org/3") as lembra:
        saved = await lembra.say("guarda o filme Suspiria, o de 1977")
        fixed = await lembra.say("ih me enganei, queria o de 2018")
        en = await lembra.say("add the movie Solaris, the 2002 one")
        items = await lembra.items()
    assert saved.text.startswith("✅ Salvo: Suspiria (1977)")
    assert fixed.text.startswith("✅ Atualizado: Suspiria (2018)")
    assert en.text.startswith("✅ Saved: Solaris (2002)")
    assert sorted((i.title, i.year) for i in items) == [("Solaris", 2002), ("Suspiria", 2018)]
